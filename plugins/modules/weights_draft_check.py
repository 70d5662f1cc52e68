#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: weights_draft_check
short_description: Check a DFLASH drafter's config.json against its target's
version_added: 0.1.0
description:
  - Reads both C(config.json) files on the host and refuses a drafter that does not fit its target
    (draft architecture, block size, target layer ids, mask token, vocab, context length).
  - A mismatched drafter still serves in SGLang but accepts about one token per step, slower than no
    speculation; this makes it an early, named error instead.
  - Read-only.
author: specdeploy developers (@specdeploy)
options:
  target:
    description: Target model directory (or its config.json).
    type: path
    required: true
  draft:
    description: Drafter model directory (or its config.json).
    type: path
    required: true
  sglang_version:
    description:
      - SGLang version whose rules apply (the flags engine's tables, as C(sglang_flags) uses).
    type: str
    default: "0.5.23"
  env:
    description:
      - Environment the server will run with; C(SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1) there
        lets a drafter with a shorter context than the target's pass.
    type: dict
    default: {}
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
"""

EXAMPLES = r"""
- name: Drafter fits the target
  specdeploy.sglang.weights_draft_check:
    target: /opt/specdeploy/models/Qwen--Qwen3-8B@0123456789abcdef0123456789abcdef01234567
    draft: /opt/specdeploy/models/z-lab--Qwen3-8B-DFlash-b16@89abcdef0123456789abcdef0123456789abcdef
"""

RETURN = r"""
problems:
  description: Mismatches found ({code, message}); the task fails when not empty.
  returned: always
  type: list
  elements: dict
msg:
  description: Summary.
  returned: always
  type: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w


def main():
    module = AnsibleModule(
        argument_spec=dict(target=dict(type="path", required=True), draft=dict(type="path", required=True),
                           sglang_version=dict(type="str", default="0.5.23"), env=dict(type="dict", default={})),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"target": "path", "draft": "path", "sglang_version": "version"})
    try:
        target = w.read_config(module.params["target"])
        draft = w.read_config(module.params["draft"])
    except w.WeightsError as e:
        module.fail_json(msg=str(e), problems=[])
    problems = w.check_draft_against_target(target, draft, module.params["sglang_version"], module.params["env"])
    if problems:
        module.fail_json(
            msg="drafter %s does not fit target %s: %s. Use the drafter trained for this target (z-lab names "
                "them after it) or pin the matching target." % (
                    module.params["draft"], module.params["target"], "; ".join(p["message"] for p in problems)),
            problems=problems)
    module.exit_json(changed=False, problems=[], msg="drafter %s fits target %s" % (
        module.params["draft"], module.params["target"]))


if __name__ == "__main__":
    main()
