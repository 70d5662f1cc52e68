#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
---
module: sglang_preflight
short_description: Validate the SGLang flags of every host of an inventory, on the controller
version_added: "0.1.0"
description:
  - Runs the static checks of M(specdeploy.sglang.sglang_flags) for every host given, without contacting
    any host, and reports a verdict per host (and per instance).
  - Meant for C(playbooks/preflight.yml) on C(localhost), fed from C(hostvars); each host's variables are
    C(sglang_spec) (or C(sglang_specs) for several instances), C(sglang_expected_gpus),
    C(sglang_capabilities), C(sglang_target_config), C(sglang_draft_config), C(sglang_allow_overrides).
  - Hosts without C(sglang_spec) or C(sglang_specs) are listed as skipped.
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
      - Inventory group whose hosts are checked; their C(sglang_*) variables are read from C(hostvars)
        on the controller, templated as a play would see them. Mutually exclusive with O(hosts).
    type: str
  hosts:
    description:
      - Host name to that host's variables (only the C(sglang_*) keys above are read), instead of O(group).
    type: dict
  read_configs:
    description:
      - Also read C(config.json) from the model paths when they exist on the controller.
    type: bool
    default: false
  fail_on_error:
    description:
      - Fail the task when any host fails.
    type: bool
    default: true
seealso:
  - module: specdeploy.sglang.sglang_flags
"""

EXAMPLES = r"""
- name: Preflight every SGLang host (controller only)
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Validate each host's flags against its SGLang version's rules
      specdeploy.sglang.sglang_preflight:
        group: sglang_servers

    - name: The same from an explicit mapping (host -> variables)
      specdeploy.sglang.sglang_preflight:
        hosts:
          gpu01: {sglang_spec: "{{ hostvars['gpu01'].sglang_spec }}"}
        fail_on_error: false
"""

RETURN = r"""
ok:
  description: True when every host passed.
  returned: always
  type: bool
verdicts:
  description: Host to instance to C(ok), C(errors), C(notes), C(argv), C(resolved), C(overrides), C(tree_verify).
  returned: always
  type: dict
failed_hosts:
  description: Hosts with at least one error.
  returned: always
  type: list
  elements: str
skipped_hosts:
  description: Hosts without an SGLang spec.
  returned: always
  type: list
  elements: str
lines:
  description: One line per host (and instance), C(OK), C(FAIL) with the errors, or C(SKIP).
  returned: always
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_preflight as pf


def main():
    module = AnsibleModule(
        argument_spec=dict(
            group=dict(type="str"),
            hosts=dict(type="dict"),
            read_configs=dict(type="bool", default=False),
            fail_on_error=dict(type="bool", default=True),
        ),
        mutually_exclusive=[("hosts", "group")],
        required_one_of=[("hosts", "group")],
        supports_check_mode=True,
    )
    if module.params["group"] is not None:
        module.fail_json(msg="sglang_preflight with `group` runs as an action on the controller; this module "
                             "file was run directly, so give `hosts` instead.")
    hosts = {}
    for name, hv in module.params["hosts"].items():
        hosts[name] = {k: hv.get(k) for k in pf.HOST_KEYS} if isinstance(hv, dict) else hv
    out = pf.check_fleet(hosts, read_paths=module.params["read_configs"])
    if not out["ok"] and module.params["fail_on_error"]:
        module.fail_json(msg="preflight failed for %d host(s): %s" % (len(out["failed_hosts"]), " | ".join(
            line for line in out["lines"] if line.startswith("FAIL"))), **out)
    module.exit_json(changed=False, **out)


if __name__ == "__main__":
    main()
