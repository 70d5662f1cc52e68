# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for status_report: status.yml's rows and files. The decisions are in plugins/module_utils/status.py;
the host was read by server_plan action=status and smoke_decode, whose registered results this takes. The
module file holds the docs.
"""
from __future__ import annotations

import datetime
import os

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase

from ansible_collections.specdeploy.sglang.plugins.action.report_files import plain as _plain, write_files
from ansible_collections.specdeploy.sglang.plugins.module_utils import status

ARGUMENT_SPEC = status.ARGUMENT_SPEC


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _supports_async = False

    def _fact(self, task_vars, host, name):
        facts = task_vars["hostvars"][host].get("ansible_facts") or {}
        return _plain(facts.get(name) or {})

    def _reached(self, task_vars):
        """[(host, its rows or None)] of the play's hosts: a host that is no longer in the play (unreachable,
        or failed before its rows) has none, whatever an earlier run left in a fact cache."""
        active = set(task_vars.get("ansible_play_hosts") or [])
        return [(h, self._fact(task_vars, h, status.FACT).get("rows") if h in active else None)
                for h in task_vars.get("ansible_play_hosts_all") or []]

    def _write(self, p, files):
        if not p["report_dir"]:
            raise AnsibleActionFail("status_report %s: report_dir is required" % p["step"])
        try:
            os.makedirs(p["report_dir"], mode=0o755, exist_ok=True)
            write_files(p["report_dir"], files)
        except (OSError, ValueError) as exc:
            raise AnsibleActionFail("status_report %s: %s" % (p["step"], exc))
        return [os.path.join(p["report_dir"], n) for n in sorted(files)]

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        _spec, p = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC)
        host = task_vars.get("inventory_hostname")
        if p["step"] == "host":
            names = p["instances"]
            if names is None:
                names = [str(i.get("name")) for i in _plain(self._templar.template(task_vars.get("server_instances") or []))]
            checked = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            rows = status.host_rows(host, names, _plain(p["probe"] or {}), _plain(p["generate"] or {}), checked)
            result.update(changed=False, rows=rows, ansible_facts={status.FACT: {"rows": rows}})
        elif p["step"] == "report":
            rows = status.fleet_rows(self._reached(task_vars))
            paths = self._write(p, {"status.md": status.status_md(rows), "status.json": status.status_json(rows)})
            result.update(changed=False, status=dict(status.document(rows), counts=status.counts(rows)),
                          lines=status.status_md(rows).splitlines(), paths=paths)
        elif p["step"] == "gateway":
            rows = [r for h, host_rows in self._reached_all(task_vars) for r in host_rows]
            doc = status.gateway_doc(host, _plain(p["workers"] or {}), rows)
            result.update(changed=False, gateway=doc, lines=status.gateway_lines(doc),
                          ansible_facts={status.GATEWAY_FACT: doc})
        else:
            gateways = [self._fact(task_vars, g, status.GATEWAY_FACT) for g in task_vars.get("ansible_play_hosts_all") or []]
            paths = self._write(p, {"gateway-status.json": status.gateway_json(gateways),
                                    "gateway-status.md": status.gateway_md(gateways)})
            result.update(changed=False, gateways=gateways, paths=paths)
        return result

    def _reached_all(self, task_vars):
        """[(host, rows)] of every inventory host with status rows (the gateway play runs after the hosts')."""
        out = []
        for h in (task_vars.get("groups") or {}).get("all") or []:
            rows = self._fact(task_vars, h, status.FACT).get("rows")
            if rows:
                out.append((h, rows))
        return out
