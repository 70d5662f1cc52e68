#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
---
module: sglang_probe
short_description: Report what an installed SGLang can do (version, flags, tree verify, algorithms)
version_added: "0.1.0"
description:
  - Imports SGLang in the given venv's python (a subprocess; no server, no GPU needed) and reports its
    version, every long flag its C(sglang serve) parser accepts, the DDTree tree-verify flavors present
    (SGLang PRs 29907, 31069, 36196 and the DB-Guo fork), and the speculative algorithms it knows.
  - The result feeds O(specdeploy.sglang.sglang_flags#module:capabilities) for C(verify=tree).
author:
  - specdeploy developers (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Read-only; runs the same in check mode.
  diff_mode:
    support: none
    details: Returns no diff.
options:
  python:
    description:
      - The SGLang venv's python (for example C(gpu_env_python)).
    type: path
    required: true
  env:
    description:
      - Environment for the SGLang import (for example the lab's C(SPECDEPLOY_LAB_SHIM_MODULES)).
    type: dict
    default: {}
  timeout:
    description:
      - Seconds allowed for the import and the probe, as for M(specdeploy.sglang.sglang_flags). The first
        import of a fresh env reads about 3 GB from a cold page cache, and a fleet probes every host at
        once.
    type: int
    default: 300
seealso:
  - module: specdeploy.sglang.sglang_flags
"""

EXAMPLES = r"""
- name: Probe the installed SGLang
  specdeploy.sglang.sglang_probe:
    python: /opt/specdeploy/envs/abc123/bin/python
  register: probe

- name: Say whether DDTree tree verify is available
  ansible.builtin.debug:
    msg: "{{ probe.sglang.tree_verify | default([]) }}"
"""

RETURN = r"""
sglang:
  description: What the installed SGLang can do.
  returned: success
  type: dict
  contains:
    version:
      description: SGLang's version.
      type: str
      sample: "0.5.23"
    python:
      description: The interpreter probed.
      type: str
    flags:
      description: Every long option of the C(sglang serve) parser.
      type: list
      elements: str
    tree_verify:
      description: Tree-verify flavors present (C(sglang-pr31069), C(sglang-pr29907), C(sglang-pr36196), C(fork-db-guo)); empty on released SGLang.
      type: list
      elements: str
    algorithms:
      description: Speculative algorithm names it knows.
      type: list
      elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_flags_run as run


def main():
    module = AnsibleModule(
        argument_spec=dict(
            python=dict(type="path", required=True),
            env=dict(type="dict", default={}),
            timeout=dict(type="int", default=300),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"python": "path", "timeout": "positive"})
    out = run.run_probe(module.params)
    if "error" in out:
        module.fail_json(msg=out["error"])
    module.exit_json(changed=False, **out)


if __name__ == "__main__":
    main()
