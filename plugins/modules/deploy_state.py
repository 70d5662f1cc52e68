#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: deploy_state
short_description: Record what a host held after a deploy that passed, and check whether it still does
version_added: 0.1.0
description:
  - O(action=record) writes C(<root>/deploy-state.json) (mode 0600) for O(key) (a hash of the deploy's
    inputs, made on the controller by the P(specdeploy.sglang.deploy_key#filter) filter) with, for each instance,'s
    the current and previous release, the sha256 of its installed unit C(/etc/systemd/system/sglang-<instance>.service),
    of its C(release.json), of the env's C(specdeploy.lock) and completion marker, of the weights'
    C(.specdeploy-manifest.json) of the model and drafter directories and a hash of the names and sizes of
    their files (the weights role's own quick check), and the GPUs the NVIDIA driver lists.
    It refuses when an instance has no current release.
  - O(action=check) compares the host with that record (read-only, also in check mode) and, when they match,
    asks systemd whether each C(sglang-<instance>.service) is active and running and GETs each instance's
    C(/health), then looks for drift (a running server whose command line or environment differs from its
    release's unit, a unit no release wrote or a drop-in, an SGLang process outside any unit;
    C(plugins/module_utils/drift.py)). C(converged) is true only when all of it holds; C(differences) says
    what does not (drift prefixed C(drift), one phrase each), so a drifted host takes the full deploy.
  - deploy.yml records after a host's deploy passed and checks before staging; a converged host is reported
    unchanged without running the roles on it (C(specdeploy_full_run=true) runs them anyway).
author: specdeploy.sglang contributors (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: O(action=check) only reads; O(action=record) reports whether it would write.
  diff_mode:
    support: none
options:
  action:
    description: What to do.
    type: str
    required: true
    choices: [check, record]
  root:
    description: Base directory of the host layout (the server role's C(server_root)).
    type: path
    default: /opt/specdeploy
  key:
    description: Hash of the inputs of this deploy (no value of them is stored).
    type: str
    required: true
  desired:
    description:
      - The desired state derived from content that O(key) covers (deploy.yml - C(env_key), the env key of the
        lock's content). Recorded with the state; O(action=check) names what in it changed.
    type: dict
    default: {}
  instances:
    description: Names of the host's instances (C(server_instances[].name)).
    type: list
    elements: str
    required: true
  replaces:
    description:
      - Units of a hand-made service a deploy replaced (the server role's C(server_replaces_units)); their
        unit files and processes are known, not drift (O(action=check)).
    type: list
    elements: str
    default: []
  config_dir:
    description: Directory of the instances' EnvironmentFiles (the server role's C(server_config_dir)); only their
      variable names are read (O(action=check)).
    type: path
    default: /etc/specdeploy
  timeout:
    description: Seconds each C(/health) request may take (O(action=check)). SGLang's C(/health) generates one
      token on an idle server and waits up to 20 s (C(SGLANG_HEALTH_CHECK_TIMEOUT)) for the scheduler.
    type: float
    default: 25.0
"""

EXAMPLES = r"""
- name: Is this host as its last deploy left it?
  specdeploy.sglang.deploy_state:
    action: check
    key: "{{ hostvars[inventory_hostname] | specdeploy.sglang.deploy_key }}"
    instances: "{{ server_instances | map(attribute='name') }}"
  register: state

- name: Record it after a deploy that passed
  specdeploy.sglang.deploy_state:
    action: record
    key: "{{ hostvars[inventory_hostname] | specdeploy.sglang.deploy_key }}"
    instances: "{{ server_instances | map(attribute='name') }}"
"""

RETURN = r"""
converged:
  description: Whether the host is as recorded under O(key), with every instance active, running and healthy.
  returned: when action is check
  type: bool
differences:
  description: What differs, one phrase each (empty when converged).
  returned: when action is check
  type: list
  elements: str
links:
  description:
    - Per instance, C(current) and C(previous) release ids and the C(record) (release.json) of C(current).
    - For O(action=record), the links the record was made from (read once; deploy.yml takes them as the
      release after the run instead of reading them again).
  returned: success
  type: dict
state:
  description: What was recorded (instances, files with their sha256, gpus, key, version).
  returned: when action is record
  type: dict
path:
  description: Path of the state file.
  returned: always
  type: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import deploy_state as ds
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common


def main():
    module = AnsibleModule(
        argument_spec=dict(
            action=dict(type="str", required=True, choices=["check", "record"]),
            root=dict(type="path", default="/opt/specdeploy"),
            key=dict(type="str", required=True, no_log=False),
            instances=dict(type="list", elements="str", required=True),
            desired=dict(type="dict", default={}),
            replaces=dict(type="list", elements="str", default=[]),
            config_dir=dict(type="path", default="/etc/specdeploy"),
            timeout=dict(type="float", default=common.HEALTH_TIMEOUT),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"root": "path", "config_dir": "path", "key": "text", "instances": "instance",
                                  "replaces": "service_unit", "timeout": "positive"})
    p = module.params
    path = ds.state_path(p["root"])
    try:
        if p["action"] == "check":
            converged, differences, links = ds.check(
                p["root"], p["key"], p["instances"], timeout=p["timeout"], desired=p["desired"],
                config_dir=p["config_dir"], replaces=p["replaces"])
            module.exit_json(changed=False, converged=converged, differences=differences, links=links, path=path)
        ds.check_instances(p["instances"])
        links = ds.links_and_records(p["root"], p["instances"])
        changed, state = ds.record(
            p["root"], p["key"], p["instances"], check_mode=module.check_mode, desired=p["desired"], found=links)
        module.exit_json(changed=changed, state=state, links=links, path=path)
    except (ds.StateError, rr.RecordError, OSError) as exc:
        module.fail_json(msg="deploy_state %s: %s" % (p["action"], exc), path=path)


if __name__ == "__main__":
    main()
