# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for rollout: a host's state through deploy.yml / rollback.yml, kept as its fact
`specdeploy_rollout`, and the summary files, written on the controller. The decisions are in
plugins/module_utils/rollout.py; the release links are read on the host by server_plan action=links
(through the release record module). The module file holds the docs.
"""
from __future__ import annotations

import os

from ansible.errors import AnsibleActionFail, AnsibleConnectionFailure
from ansible.plugins.action import ActionBase

from ansible_collections.specdeploy.sglang.plugins.action.report_files import plain as _plain, write_files
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import rollout

FACT = "specdeploy_rollout"
ARGUMENT_SPEC = rollout.ARGUMENT_SPEC


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _supports_async = False

    def _links(self, p, task_vars):
        """{instance: {current, previous, record}} of this host, read by server_plan action=links."""
        if p["links"] is not None:
            return p["links"]
        try:
            answer = self._execute_module(
                module_name="specdeploy.sglang.server_plan", task_vars=task_vars,
                module_args={"action": "links", "instances": [{"name": n} for n in p["instances"]],
                             "settings": {"root": p["root"]}})
        finally:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        if answer.get("failed"):
            raise AnsibleActionFail("rollout %s: reading the release links: %s" % (p["step"], answer.get("msg")))
        return answer["links"]

    def _instances(self, task_vars, host=None):
        """Names of a host's server_instances (this host's templated here; hostvars template on access)."""
        raw = task_vars["hostvars"][host].get("server_instances") if host else \
            self._templar.template(task_vars.get("server_instances") or [])
        return [str(i.get("name")) for i in _plain(raw or [])]

    def _states(self, task_vars, own):
        """[(host, its state)] of every host of the run, this host's from `own`."""
        out = []
        for host in own.get("run_hosts") or task_vars.get("ansible_play_hosts_all") or []:
            if host == task_vars.get("inventory_hostname"):
                out.append((host, own))
            else:
                facts = _plain(task_vars["hostvars"][host].get("ansible_facts") or {})
                out.append((host, facts.get(FACT) or {}))
        return out

    def _summary(self, p, task_vars, own):
        """Every row of the run (this host's from `own`, the others' from their facts; a host without rows
        by what is known of it: the hosts gone from the play are not `alive`) and the files."""
        hosts = [(host, self._instances(task_vars, host), state) for host, state in self._states(task_vars, own)]
        alive = task_vars.get("ansible_play_hosts")
        rows = rollout.summary_rows(hosts, None if alive is None else list(alive))
        if p["write"]:
            if not p["report_dir"]:
                raise AnsibleActionFail("rollout %s: report_dir is required to write the summary" % p["step"])
            try:
                write_files(p["report_dir"], {p["report"] + "-summary.md": rollout.summary_md(p["report"], rows),
                                              p["report"] + "-summary.json": rollout.summary_json(p["report"], rows)})
            except (OSError, ValueError) as exc:
                raise AnsibleActionFail("rollout %s: %s" % (p["step"], exc))
        return rows

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        _spec, p = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC)
        if p["instances"] is None:
            p["instances"] = self._instances(task_vars)
        if p["root"] is None:
            p["root"] = self._templar.template(task_vars.get("server_root")) or "/opt/specdeploy"
        state = _plain((task_vars.get("ansible_facts") or {}).get(FACT) or {})
        if p["step"] == "before":
            if p["report_dir"]:   # the report directory on the controller (the summary's files go there)
                try:
                    os.makedirs(p["report_dir"], mode=0o755, exist_ok=True)
                except OSError as exc:
                    raise AnsibleActionFail("rollout before: report directory %s: %s" % (p["report_dir"], exc))
            check = _plain(p["check"] or {})
            if p["links"] is None and check.get("links") is not None:
                p["links"] = check["links"]
            outcome = rollout.check_outcome(check)
            try:   # a host the check could not reach (ignore_unreachable), or that this read cannot reach
                state = rollout.unreachable_state(check.get("msg")) if outcome.get("unreachable") else \
                    dict(rollout.new_state(self._links(p, task_vars)), **outcome)
            except AnsibleConnectionFailure as exc:
                state = rollout.unreachable_state(str(exc))
            state["rollout"] = not state.get("converged") and not state.get("unreachable")
            state["run_hosts"] = p["run_hosts"] or list(task_vars.get("ansible_play_hosts_all") or [])
            state["models_before"] = rr.model_paths(item.get("record") for item in state["links_before"].values())
        elif p["step"] == "gate":   # its round begins: lost from here on, it was lost during its gate
            state["phase"] = "gating"
            if p["write"] and p["report_dir"]:
                self._summary(p, task_vars, state)
        elif p["step"] == "failed" and not p["keep_links"]:
            state = rollout.failure(state, p["phase"], p["task"], _plain(p["result"]), p["analysed"])
        elif p["step"] in ("failed", "after"):
            if p["step"] == "failed":   # and, with keep_links, the host's rows (nothing restarted)
                state = rollout.failure(state, p["phase"], p["task"], _plain(p["result"]), p["analysed"])
            state["links_after"] = (state.get("links_before") or {}) if p["keep_links"] else self._links(p, task_vars)
            state["rows"] = rollout.host_rows(task_vars.get("inventory_hostname"), p["instances"], state, p["results"])
            state["now"] = rollout.now_phrase(state["links_after"])
            state["phase"] = "done"
            analysis = _plain(self._templar.template(task_vars.get("specdeploy_canary_analysis")))
            # decided once per run, at the host's first record (its rows after the analysis keep the choice)
            state["analysed"] = state["analysed"] if "analysed" in state else rollout.analysed(
                p["results"], state.get("failed"),
                first_batch=bool(task_vars.get("ansible_play_hosts_all"))
                and task_vars["ansible_play_hosts_all"][0] in (task_vars.get("ansible_play_batch") or []),
                every_batch=bool((analysis or {}).get("every_batch")),
                enabled=analysis is not None and not self._play_context.check_mode) \
                if p["report"] == "deploy" else []
            if p["write"] and p["step"] == "after":
                self._summary(p, task_vars, state)
        else:
            rows = self._summary(p, task_vars, state)
            failed = [h for h, st in self._states(task_vars, state) if st.get("failed")]
            result.update(changed=False, summary=dict(rollout.document(p["report"], rows),
                                                      counts=rollout.counts(rows)), failed_hosts=failed,
                          lost=rollout.lost(rows),
                          paths=[os.path.join(p["report_dir"] or "", p["report"] + "-summary." + e)
                                 for e in ("md", "json")])
            return result
        result.update(changed=False, ansible_facts={FACT: state}, **{FACT: state})
        return result
