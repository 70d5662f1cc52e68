#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
module: status_report
short_description: status.yml's rows per host and instance, and its report files
description:
  - Runs as an action plugin on the controller; the decisions are in C(plugins/module_utils/status.py).
  - O(step=host) builds the host's rows, one per instance of O(instances) - release and previous release, unit
    state, health (C(healthy) when the instance answers C(/health) and the short decode of O(generate) gave output;
    else C(answers /health, does not generate (<why>)), C(unhealthy (HTTP <code>)) or C(down)), the SGLang version
    and speculative settings the server reports, the running release's version, verify mode and flags, what the
    inventory would change (C(pending)), the gate's figures, SGLang's live figures, drift and memory fit - and
    keeps them as the host's fact C(specdeploy_status_host) (C(rows)).
  - O(step=report) (once per run) takes the rows of every host of the play; a host no longer in the play
    (unreachable) gets one row with health C(unreachable). Writes C(status.md) and C(status.json) under
    O(report_dir) and returns the document with C(counts) per health.
  - O(step=gateway) (on a gateway host) builds the gateway's rows from O(workers) and the release each owner
    host's status rows report, and keeps them as the gateway's fact C(specdeploy_status_gateway).
  - O(step=gateway_report) (once per run) writes C(gateway-status.json) and C(gateway-status.md) under O(report_dir)
    with every gateway of the play.
version_added: 0.4.0
author:
  - specdeploy.sglang contributors (@specdeploy)
options:
  step:
    description: What to do.
    type: str
    required: true
    choices: [host, report, gateway, gateway_report]
  probe:
    description: The registered result of C(specdeploy.sglang.server_plan) O(ignore:action=status) on the host
      (O(step=host)); a failed one gives rows without figures.
    type: dict
  generate:
    description: The registered result of C(specdeploy.sglang.smoke_decode) looped over the instances and the
      probe's rows, in order (O(step=host)); an item skipped for an instance that does not answer C(/health).
    type: dict
  instances:
    description: Names of the host's instances, in the order of the probe's rows; default the names in its
      C(server_instances).
    type: list
    elements: str
  workers:
    description: The registered result of C(specdeploy.sglang.gateway_workers) O(ignore:action=list)
      (O(step=gateway)) - the role C(gateway)'s C(gateway_workers_listed).
    type: dict
  report_dir:
    description: Directory on the controller for the report files (created when missing); O(step=report) and
      O(step=gateway_report).
    type: path
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Read-only for the hosts; writes the report files in check mode too.
  diff_mode:
    support: none
  action:
    description: Indicates this has a corresponding action plugin so some parts of the options can be executed on the controller.
    support: full
"""

EXAMPLES = r"""
- name: Status rows of this host
  specdeploy.sglang.status_report:
    step: host
    probe: "{{ probe }}"
    generate: "{{ generate }}"

- name: Write status.md and status.json
  specdeploy.sglang.status_report:
    step: report
    report_dir: /var/lib/specdeploy/reports
  run_once: true
  register: status
"""

RETURN = r"""
rows:
  description: The host's rows (also its fact C(specdeploy_status_host)).
  returned: when step is host
  type: list
  elements: dict
status:
  description: The status.json document - C(report), C(hosts) (every row) - and C(counts) (rows per health).
  returned: when step is report
  type: dict
lines:
  description: The lines of status.md (O(step=report)), or the gateway's workers and their health (O(step=gateway)).
  returned: when step is report or gateway
  type: list
  elements: str
gateway:
  description: The gateway's C(workers) (C(url), C(host), C(instance), C(release), C(healthy), C(status), C(in_flight)),
    C(unknown) and C(missing) (also its fact C(specdeploy_status_gateway)).
  returned: when step is gateway
  type: dict
gateways:
  description: Every gateway's rows, as in gateway-status.json.
  returned: when step is gateway_report
  type: list
  elements: dict
paths:
  description: The files written.
  returned: when step is report or gateway_report
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils.status import ARGUMENT_SPEC


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, supports_check_mode=True)
    module.fail_json(msg="status_report runs as an action plugin on the controller; this module file was run directly.")


if __name__ == "__main__":
    main()
