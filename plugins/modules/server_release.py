#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: server_release
short_description: Releases of an SGLang instance (id, record, activation, pruning, pre-restart probe)
version_added: 0.1.0
description:
  - Works on the host layout C(<root>/releases/<id>/) and C(<root>/instances/<instance>/{current,previous}).
  - O(action=id) computes the release id (a hash of O(inputs)) and reads the instance's links.
  - O(action=record) makes the release directory with its C(release.json) (and the unit O(unit_text)) in one
    step, built in a hidden sibling directory and renamed into place, so that a release directory never
    exists without its record; a half-made directory of the same id (no C(release.json), left by an older
    version's interrupted deploy) is replaced. An existing release gets C(release.json) rewritten when its
    content differs. Refuses when a value of O(secrets) appears in the record or the unit.
    In diff mode (C(--diff), also with C(--check)) it returns what this release changes against
    the release O(instance) runs now (C(plugins/module_utils/release_diff.py)) - the installed unit against
    O(unit_text), the running record's SGLang flags against the new ones (one flag per line, as in the unit),
    and the names in the EnvironmentFile (values never shown); a fresh host diffs against empty text.
  - O(action=activate) points C(current) at O(release_id) and C(previous) at the old C(current).
  - O(action=prune) deletes releases beyond the O(keep) newest, never one any instance's C(current)
    or C(previous) uses, and every half-made release directory (no C(release.json)) no instance links.
  - O(action=preflight) reports a foreign process on O(port) and leftover C(sglang::) processes outside
    any C(sglang-*.service) unit (read-only; the role fails on them before touching the service).
    Processes are told apart by their systemd unit cgroup; those inside a unit of O(replaces) are expected
    (the role stops that unit before the start) and are returned under C(replaced), not as problems.
author: specdeploy.sglang contributors (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Reports what would change without writing.
  diff_mode:
    support: partial
    details: >-
      O(action=record) returns the unit, flag and secret-name diff of the new release against the running one
      (secret values masked); the other actions return none.
options:
  action:
    description: What to do.
    type: str
    required: true
    choices: [id, record, activate, prune, preflight]
  root:
    description: Base directory of the layout.
    type: path
    default: /opt/specdeploy
  instance:
    description:
      - Instance name (unit C(sglang-<instance>.service)). For O(action=record), whose release the diff is
        against (default the record's C(instance)).
    type: str
  config_dir:
    description: Directory of the instances' EnvironmentFiles (O(action=record), diff mode; names only).
    type: path
    default: /etc/specdeploy
  write:
    description:
      - O(action=record) writes the record. V(false) writes nothing and, in diff mode, returns only the diff, with
        C(changed) true when a part of it changes (the role's check mode, for a release already on the host -
        one it goes back to, or whose installed unit was edited by hand).
    type: bool
    default: true
  inputs:
    description: Everything that defines the release (O(action=id)).
    type: dict
  release_id:
    description: Release id (O(action=record), O(action=activate)).
    type: str
  record:
    description: The release record to write (O(action=record)).
    type: dict
  unit_text:
    description:
      - The release's unit file, written as C(sglang-<instance>.service) into the new release directory
        together with the record (O(action=record); needs O(instance)); in diff mode, compared with the
        unit the instance runs now.
    type: str
  secrets:
    description: Secret values that must not appear in the record or the unit (nor in the diff, where they are masked).
    type: dict
  keep:
    description: How many newest releases O(action=prune) keeps besides the linked ones.
    type: int
    default: 3
  port:
    description: Port the instance listens on (O(action=preflight)).
    type: int
  replaces:
    description:
      - Units of a hand-made service this deploy replaces (O(action=preflight)); port holders and SGLang
        processes in their cgroups are not problems.
    type: list
    elements: str
    default: []
"""

EXAMPLES = r"""
- name: Record of a new release (with --diff, its unit and flags against the running release)
  specdeploy.sglang.server_release:
    action: record
    release_id: "{{ plan.release_id }}"
    instance: main
    record: "{{ plan.record }}"
    unit_text: "{{ plan.unit_text }}"
    secrets: "{{ server_secrets.main | default({}) }}"

- name: Release id of the main instance
  specdeploy.sglang.server_release:
    action: id
    instance: main
    inputs: "{{ release_inputs }}"
  register: rel

- name: Make it current
  specdeploy.sglang.server_release:
    action: activate
    instance: main
    release_id: "{{ rel.release_id }}"
"""

RETURN = r"""
diff:
  description:
    - In diff mode, O(action=record) - a list of Ansible diffs (C(before), C(after), C(before_header),
      C(after_header)) of the parts that change, the installed unit, the SGLang flags and the EnvironmentFile's
      names; or one C(prepared) note when the release differs in neither.
  returned: when action is record and diff mode is on
  type: list
  elements: dict
release_id:
  description: The release id (O(action=id)).
  returned: when action is id
  type: str
links:
  description: Release ids of C(current) and C(previous) (before, for O(action=id)).
  returned: when action is id
  type: dict
exists:
  description: Whether the release exists, its directory with its C(release.json) (O(action=id)); a half-made
    directory is not a release.
  returned: when action is id
  type: bool
path:
  description: The release record written (O(action=record)).
  returned: when action is record
  type: str
created:
  description: Whether the release directory was made (O(action=record)).
  returned: when action is record
  type: bool
repaired:
  description: Whether a half-made directory of the release (no C(release.json)) was replaced (O(action=record)).
  returned: when action is record
  type: bool
before:
  description: Links before activation.
  returned: when action is activate
  type: dict
after:
  description: Links after activation.
  returned: when action is activate
  type: dict
removed:
  description: Pruned release ids.
  returned: when action is prune
  type: list
  elements: str
problems:
  description: What stands in the way of a restart, one sentence each.
  returned: when action is preflight
  type: list
  elements: str
port_holders:
  description: Processes on the port outside the instance's unit.
  returned: when action is preflight
  type: list
  elements: dict
leftovers:
  description: SGLang processes outside any sglang unit (and outside the units of O(replaces)).
  returned: when action is preflight
  type: list
  elements: dict
replaced:
  description:
    - Port holders (C(reason=port)) and SGLang processes (C(reason=sglang)) inside a unit of O(replaces),
      each with C(pid), C(uid), C(unit), C(cmdline). They will be replaced, so they are not problems.
  returned: when action is preflight
  type: list
  elements: dict
notes:
  description: One sentence per entry of C(replaced).
  returned: when action is preflight
  type: list
  elements: str
"""

import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_diff as rd
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr


def main():
    module = AnsibleModule(
        argument_spec=dict(
            action=dict(type="str", required=True,
                        choices=["id", "record", "activate", "prune", "preflight"]),
            root=dict(type="path", default="/opt/specdeploy"),
            instance=dict(type="str"),
            inputs=dict(type="dict"),
            release_id=dict(type="str"),
            record=dict(type="dict"),
            unit_text=dict(type="str"),
            secrets=dict(type="dict", no_log=True),
            keep=dict(type="int", default=3),
            port=dict(type="int"),
            replaces=dict(type="list", elements="str", default=[]),
            config_dir=dict(type="path", default="/etc/specdeploy"),
            write=dict(type="bool", default=True),
        ),
        required_if=[
            ("action", "id", ("instance", "inputs")),
            ("action", "record", ("release_id", "record")),
            ("action", "activate", ("instance", "release_id")),
            ("action", "preflight", ("instance", "port")),
        ],
        required_by={"unit_text": ("instance",)},
        supports_check_mode=True,
    )
    inputs.check_options(module, {"root": "path", "instance": "instance", "release_id": "release_id",
                                  "keep": "count", "port": "port", "replaces": "service_unit",
                                  "config_dir": "path"})
    p = module.params
    root = p["root"]
    try:
        if p["action"] == "id":
            rid = rel.release_id(p["inputs"])
            module.exit_json(changed=False, release_id=rid, links=rel.links(root, p["instance"]),
                             exists=rid in rel.present(root))
        elif p["action"] == "record":
            rel.check_no_secrets(rel.canonical(p["record"]) + (p["unit_text"] or ""), p["secrets"])
            path = os.path.join(root, "releases", p["release_id"], rr.NAME)
            out = dict(changed=False, path=path)
            if p["write"]:
                out.update(rel.create(root, p["release_id"], p["record"], p["unit_text"],
                                      rel.unit_name(p["instance"]) if p["instance"] else None, module.check_mode))
            if module._diff:
                name = p["instance"] or p["record"].get("instance")
                inputs.check_instance_name(name, rel.ReleaseError)
                out["diff"] = rd.diffs(rd.running(root, name, config_dir=p["config_dir"]), p["record"],
                                       p["unit_text"], p["secrets"])
                if not p["write"]:  # only the diff: changed says whether the release would change the instance
                    out["changed"] = rd.changes(out["diff"])
            module.exit_json(**out)
        elif p["action"] == "activate":
            changed, before, after = rel.activate(root, p["instance"], p["release_id"], module.check_mode)
            module.exit_json(changed=changed, before=before, after=after)
        elif p["action"] == "prune":
            removed = rel.prune(root, p["keep"], module.check_mode)
            module.exit_json(changed=bool(removed), removed=removed)
        else:
            module.exit_json(changed=False, **rel.preflight(p["instance"], p["port"], replaces=p["replaces"]))
    except (rel.ReleaseError, rr.RecordError, inputs.InputError) as exc:
        module.fail_json(msg="server_release %s: %s" % (p["action"], exc))


if __name__ == "__main__":
    main()
