#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
---
module: sglang_preflight
short_description: Validate every SGLang instance of every host of an inventory, on the controller
version_added: "0.1.0"
description:
  - Runs the static checks of M(specdeploy.sglang.sglang_flags) for every instance of every host given,
    without contacting any host, and reports a verdict per instance. The same code path as
    C(specdeploy preflight) (the collection's C(bin/specdeploy)) and C(playbooks/preflight.yml) (deploy.yml's first play).
  - Reads what deploy.yml reads - each host's C(server_instances) (C(name), C(spec), C(cuda_visible_devices),
    C(smoke); the server role's input) - plus the declared facts C(sglang_expected_gpus) (an instance with
    C(cuda_visible_devices) is checked against those GPUs only), C(sglang_capabilities),
    C(sglang_target_config), C(sglang_draft_config), C(sglang_allow_overrides).
  - A host of the group without C(server_instances) fails when other hosts have some; when no host has
    any, the result is C(nothing checked) (C(ok=false), C(exit_code=3)), never a pass. The old C(sglang_spec) and
    C(sglang_specs) variables are no longer read; a host that sets them fails, saying so.
  - With O(group) (the whole inventory, as deploy will use it), also what deploy installs and runs - the lock
    C(gpu_env_lock_file) exists, is well formed, pins each instance's C(sglang_version) and, for a tree-verify spec,
    a build with the spec's tree-verify flavor; C(gpu_env_wheels) are files the lock pins; hub models in
    C(weights_models) are pinned to full 40-hex commits; no GPU shared between a host's instances; no instance's
    unit in C(server_replaces_units); and every variable or extra var named with the collection's prefixes is one
    it reads (else an error with a "did you mean").
  - With O(authority), each distinct instance is also resolved by the real SGLang of its release on the
    controller (a CPU kit), answers cached by a hash of the argv, env, configs and kit.
  - An action plugin does the work on the controller; the task needs no connection to any host.
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
  group:
    description:
      - Inventory group whose hosts are checked; their variables are read from C(hostvars) on the
        controller, templated as a play would see them. Mutually exclusive with O(hosts).
    type: str
  hosts:
    description:
      - Host name to that host's variables (only the keys above are read), instead of O(group).
    type: dict
  read_configs:
    description:
      - Also read C(config.json) from the model paths when they exist on the controller.
    type: bool
    default: false
  fail_on_error:
    description:
      - Fail the task when any instance fails, or nothing was checked.
    type: bool
    default: true
  fatal_notes:
    description:
      - Codes of notes of the engine that fail an instance like errors (C(specdeploy_preflight_fatal_notes)).
    type: list
    elements: str
    default: [BLOCK_SIZE_MISMATCH]
  authority:
    description:
      - Also resolve each distinct instance with the real SGLang of its release on the controller
        (installed mode of M(specdeploy.sglang.sglang_flags)), cached. Needs C(sglang_target_config) and
        C(sglang_draft_config), which SGLang reads to resolve.
      - The controller python of SGLang C(X) is O(authority_pythons)C([X]), else
        O(authority_venvs)C(/X/bin/python). The collection looks for no SGLang of its own; without either, the
        instance fails with C(ORACLE_UNAVAILABLE). C(docs/sglang.md) (Validation) says how to build such a venv
        from a lock.
    type: bool
    default: false
  authority_pythons:
    description:
      - SGLang version to the controller python of a venv with that release (C(specdeploy_authority_pythons)).
    type: dict
    default: {}
  authority_venvs:
    description:
      - Directory of controller SGLang venvs, one per release, at C(<dir>/<version>/bin/python)
        (C(specdeploy_authority_venvs)); default the environment variable C(SPECDEPLOY_AUTHORITY_VENVS).
    type: path
  authority_cache:
    description:
      - Cache directory of the authority's answers (default C(~/.cache/specdeploy/authority)).
    type: path
seealso:
  - module: specdeploy.sglang.sglang_flags
"""

EXAMPLES = r"""
- name: Preflight every SGLang host (controller only)
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Validate every instance of every host against its SGLang version's rules
      specdeploy.sglang.sglang_preflight:
        group: sglang_servers

    - name: The same, with SGLang's own resolution on the controller
      specdeploy.sglang.sglang_preflight:
        group: sglang_servers
        authority: true
        authority_pythons:
          "0.5.23": /opt/sglang-kits/0.5.23/bin/python

    - name: From an explicit mapping (host -> variables)
      specdeploy.sglang.sglang_preflight:
        hosts:
          gpu01:
            server_instances: "{{ hostvars['gpu01'].server_instances }}"
        fail_on_error: false
"""

RETURN = r"""
ok:
  description: True when every instance passed (and at least one was checked).
  returned: always
  type: bool
exit_code:
  description: 0 passed, 1 an instance or host failed, 3 nothing checked (the exit status of specdeploy preflight; not `rc`, which would fail the task).
  returned: always
  type: int
status:
  description: C(passed), C(failed) or C(nothing checked).
  returned: always
  type: str
verdicts:
  description:
    - Host to instance to C(ok), C(errors), C(notes), C(argv), C(resolved), C(overrides), C(tree_verify),
      C(judged_by) (C(static), or the SGLang and python that resolved it). Host-level input errors are
      under the instance key C((host)).
  returned: always
  type: dict
failed_hosts:
  description: Hosts with at least one failed instance, or without instances.
  returned: always
  type: list
  elements: str
hosts_without_instances:
  description: Hosts of the group without C(server_instances).
  returned: always
  type: list
  elements: str
instances_checked:
  description: Number of instances checked.
  returned: always
  type: int
lines:
  description:
    - One line per instance, C(OK) or C(FAIL) with the errors (C(SKIP) for hosts without instances when nothing was checked),
      each followed by the instance's SGLang flags one per line as in its unit and every note's text (indented lines).
  returned: always
  type: list
  elements: str
summary:
  description: One line, for example C(5 instance(s) on 4 host(s) checked, 0 host(s) failed - passed).
  returned: always
  type: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_preflight as pf


def main():
    module = AnsibleModule(
        argument_spec=pf.argument_spec(),
        mutually_exclusive=[("hosts", "group")],
        required_one_of=[("hosts", "group")],
        supports_check_mode=True,
    )
    p = module.params
    if p["group"] is not None:
        module.fail_json(msg="sglang_preflight with `group` runs as an action on the controller; this module "
                             "file was run directly, so give `hosts` instead.")
    hosts = {}
    for name, hv in p["hosts"].items():
        hosts[name] = {k: hv.get(k) for k in pf.READ_KEYS} if isinstance(hv, dict) else hv
    authority = pf.Authority(pythons=p["authority_pythons"], venvs_dir=p["authority_venvs"],
                             cache_dir=p["authority_cache"]) if p["authority"] else None
    out = pf.check_fleet(hosts, read_paths=p["read_configs"], fatal_notes=p["fatal_notes"], authority=authority)
    if not out["ok"] and p["fail_on_error"]:
        module.fail_json(msg=pf.failure_message(out), **out)
    module.exit_json(changed=False, **out)


if __name__ == "__main__":
    main()
