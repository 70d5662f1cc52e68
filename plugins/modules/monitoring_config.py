#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
---
module: monitoring_config
short_description: Prometheus targets, rules and a Grafana dashboard for the SGLang fleet, from the inventory
version_added: "0.3.0"
description:
  - Computes, on the controller, the Prometheus C(file_sd) target groups of every SGLang instance whose spec sets
    C(enable_metrics) (labels C(host), C(instance) (C(<host>/<instance>)), C(release), C(sglang_version),
    C(algorithm), C(verify), C(drafter)), the recording and alert rules, a Grafana dashboard and a Prometheus
    configuration that loads them. The role M(specdeploy.sglang.monitoring) writes them to files.
  - The labels come from each instance's current release record where a play read it on the host (the fact
    C(__monitoring_links), the result of M(specdeploy.sglang.server_plan) with C(action=links)), so after a rollout the targets carry
    the release the host serves; a host not read gets its inventory spec and release C(unknown).
  - The accept-length alert's threshold is each host's C(server_smoke_min_accept_length), the deploy gate's own
    setting (no alert where the gate does not check it); the error-rate alert's is the canary analysis'
    C(specdeploy_canary_analysis.thresholds.max_error_rate), else O(max_error_rate).
  - Metric names are those of every release's C(metrics) trait (the release table, one definition with
    C(status.yml) and M(specdeploy.sglang.canary_metrics)); docs/metrics.md lists them per release.
  - An action plugin does the work on the controller; the task needs no connection to any host.
author:
  - specdeploy.sglang contributors (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Computes only; the same in check mode.
  diff_mode:
    support: none
    details: Returns no diff.
options:
  group:
    description: Inventory group of the SGLang hosts; their variables are read from C(hostvars) on the controller.
    type: str
  hosts:
    description:
      - Instead of O(group), the hosts as a mapping C(host -> {address, instances, read, links, min_accept_length,
        canary_analysis}).
    type: dict
  gateway_group:
    description: Inventory group of the gateways (role M(specdeploy.sglang.gateway)); each is a target of the
      C(<job>-gateway) job at its C(gateway_prometheus_port).
    type: str
  gateways:
    description: Instead of O(gateway_group), a mapping C(host -> {address, port}).
    type: dict
    default: {}
  job:
    description: Prometheus job name of the SGLang targets (the rules select it).
    type: str
    default: sglang
  settings:
    description:
      - Prometheus durations C(scrape_interval), C(evaluation_interval), C(rate_window), C(down_for),
        C(accept_length_for), C(queue_for), C(error_rate_for), C(release_drift_for); an absent one takes its default
        (15s, 30s, 5m, 5m, 15m, 10m, 5m, 6h).
    type: dict
    default: {}
  max_error_rate:
    description: Error-rate threshold (0 to 1) for hosts whose C(specdeploy_canary_analysis) sets none; unset, those
      hosts get no error-rate alert.
    type: float
  paths:
    description: Absolute paths where Prometheus reads C(targets), C(rules) and C(gateway_targets) (written into the
      returned configuration).
    type: dict
    required: true
"""

EXAMPLES = r"""
- name: What to write for the fleet's Prometheus
  specdeploy.sglang.monitoring_config:
    group: sglang_servers
    paths:
      targets: /etc/prometheus/specdeploy/targets/sglang.json
      rules: /etc/prometheus/specdeploy/rules/specdeploy-sglang.rules.yml
  register: monitoring
"""

RETURN = r"""
targets:
  description: C(file_sd) target groups (C(targets), C(labels)), one per monitored instance.
  returned: always
  type: list
  elements: dict
gateway_targets:
  description: C(file_sd) target groups of the gateways.
  returned: always
  type: list
  elements: dict
unmonitored:
  description: C(<host>/<instance>) and why, of every instance that is no target (no C(enable_metrics), not deployed).
  returned: always
  type: list
  elements: str
not_read:
  description: Hosts whose release links were not read (labels from the inventory, release C(unknown)).
  returned: always
  type: list
  elements: str
thresholds:
  description: Per host, C(min_accept_length) and C(max_error_rate) the alerts use (null is not checked).
  returned: always
  type: dict
rules:
  description: The Prometheus rule file (C(groups)).
  returned: always
  type: dict
recorded:
  description: Names of the recording rules.
  returned: always
  type: list
  elements: str
dashboard:
  description: The Grafana dashboard.
  returned: always
  type: dict
panel_queries:
  description: Every query of the dashboard's panels.
  returned: always
  type: list
  elements: str
prometheus_config:
  description: A Prometheus configuration that scrapes the targets and loads the rules.
  returned: always
  type: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import monitoring as mon


def main():
    module = AnsibleModule(argument_spec=mon.argument_spec(), mutually_exclusive=[("hosts", "group")],
                           required_one_of=[("hosts", "group")], supports_check_mode=True)
    p = module.params
    if p["group"] is not None or p["gateway_group"]:
        module.fail_json(msg="monitoring_config with `group` runs as an action on the controller; this module file "
                             "was run directly, so give `hosts` (and `gateways`) instead.")
    try:
        out = mon.build(p["hosts"], p["gateways"], p["job"], p["settings"], p["paths"], max_error_rate=p["max_error_rate"])
    except mon.MonitoringError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=False, **out)


if __name__ == "__main__":
    main()
