# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for monitoring_config: runs on the controller and reads the hosts' variables itself.

With `group`, it reads each host's server_instances, the address Prometheus reaches it at
(monitoring_target_address, else ansible_host, else its name), the deploy gate's
server_smoke_min_accept_length, specdeploy_canary_analysis and the release links a play read on the host
(the registered result __monitoring_links of server_plan action=links), templated as a play sees them; with
`gateway_group`, each gateway's address and gateway_prometheus_port. module_utils/monitoring.build does the
rest; the module file holds the documentation.
"""
from __future__ import annotations

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase

from ansible_collections.specdeploy.sglang.plugins.module_utils import monitoring as mon

ARGUMENT_SPEC = mon.argument_spec()
LINKS_RESULT = "__monitoring_links"
# the gateway role's default (roles/gateway/defaults/main.yml gateway_prometheus_port)
GATEWAY_PORT = 29000


def _address(hv, name):
    return hv.get("monitoring_target_address") or hv.get("ansible_host") or name


def read_hosts(group, hostvars, groups):
    hosts = {}
    for name in groups.get(group) or []:
        hv = hostvars[name]
        links = (hv.get(LINKS_RESULT) or {}).get("links")  # absent when the read was skipped or the host unreachable
        hosts[name] = {"address": _address(hv, name), "instances": hv.get("server_instances") or [],
                       "read": links is not None, "links": links or {},
                       "min_accept_length": hv.get("server_smoke_min_accept_length"),
                       "canary_analysis": hv.get("specdeploy_canary_analysis") or {}}
    return hosts


def read_gateways(group, hostvars, groups):
    return {name: {"address": _address(hostvars[name], name),
                   "port": hostvars[name].get("gateway_prometheus_port") or GATEWAY_PORT}
            for name in groups.get(group) or []}


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _requires_connection = False

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        task_vars = task_vars or {}
        _validation, args = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC,
                                                        mutually_exclusive=[("hosts", "group")],
                                                        required_one_of=[("hosts", "group")])
        groups = task_vars.get("groups") or {}
        hostvars = task_vars.get("hostvars") or {}
        hosts = read_hosts(args["group"], hostvars, groups) if args["group"] is not None else args["hosts"]
        gateways = args["gateways"]
        if args["gateway_group"]:
            gateways = read_gateways(args["gateway_group"], hostvars, groups)
        try:
            out = mon.build(hosts, gateways, args["job"], args["settings"], args["paths"],
                            max_error_rate=args["max_error_rate"])
        except mon.MonitoringError as exc:
            raise AnsibleActionFail("monitoring_config: %s" % exc)
        result.update(out)
        result["changed"] = False
        return result
