# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rollout's decisions (deploy.yml, rollback.yml), as pure functions the `rollout` action calls.

A host's state through a rollout is one dict (the action keeps it as the host's fact `specdeploy_rollout`):
  links_before / links_after  {instance: {current, previous, record}} (server_plan action=links, deploy_state)
  failed, error               whether the host failed, and why (one message, phrases joined)
  unreachable                 the host could not be reached when its state was read (step=before)
  rollout                     whether it enters the rolling play (not unchanged, not unreachable)
  phase                       "staged" from step=before, "gating" from step=gate (its round began: the server
                              role may restart it), "done" once its rows are recorded
  rows                        its summary rows, once it was recorded
From it come the result of each instance (changed / restarted / unchanged / failed / failed, still on the
release before), or, for a host without rows, what is known of it (summary_rows): "unreachable before its
round", "lost during its gate: running release unknown", "not reached"; the summary rows and files
(<report>-summary.{md,json}), the counts for the job's artifacts, and the phrases of the playbooks' fail
messages. Standard library only.
"""
from __future__ import annotations

import json

__metaclass__ = type

REPORTS = ("deploy", "rollback")
PHASES = ("task", "staging", "rejoin", "canary", "rolled_back", "rollback_failed")
# the rollout action's arguments (plugins/action/rollout.py; the module file documents them)
ARGUMENT_SPEC = dict(
    step=dict(type="str", required=True, choices=["before", "gate", "failed", "after", "summary"]),
    report=dict(type="str", choices=list(REPORTS), default="deploy"),
    report_dir=dict(type="path"),
    root=dict(type="path"),
    instances=dict(type="list", elements="str"),
    links=dict(type="dict"),
    check=dict(type="dict"),
    keep_links=dict(type="bool", default=False),
    results=dict(type="dict", default={}),
    write=dict(type="bool", default=True),
    run_hosts=dict(type="list", elements="str"),
    phase=dict(type="str", choices=list(PHASES), default="task"),
    task=dict(type="str"),
    result=dict(type="dict", default={}),
    analysed=dict(type="list", elements="str", default=[]),
)
NOT_REACHED = "not reached"
UNREACHABLE = "unreachable before its round"
LOST_IN_GATE = "lost during its gate: running release unknown"
# results of rows that say the host was lost (the run fails naming them)
LOST = (UNREACHABLE, LOST_IN_GATE)
ROW_KEYS = ("host", "instance", "release_before", "release_after", "result", "accept_length", "tokens_per_s",
            "error")


def new_state(links_before=None):
    return {"links_before": dict(links_before or {}), "links_after": None, "failed": False, "error": "",
            "rows": None, "phase": "staged", "unreachable": False, "rollout": True}


def unreachable_state(why=""):
    """The state of a host that step=before could not reach (nothing read, nothing changed on it)."""
    return dict(new_state(), unreachable=True, rollout=False, converged=False, phase="unreachable",
                error=why or "", changes=["unreachable: " + (why or "the host could not be reached")])


def check_outcome(check):
    """What deploy_state's check (a registered result, maybe skipped or failed) says of the host:
    converged (unchanged and done), and the lines that say what this run changes on it."""
    check = check or {}
    if check.get("unreachable"):
        return {"converged": False, "unreachable": True, "changes": []}
    if check.get("skipped") or not check:
        return {"converged": False, "changes": []}
    if check.get("converged"):
        return {"converged": True, "changes": ["unchanged: as the last deploy left it, and serving"]}
    differences = check.get("differences")
    if differences is None:
        differences = ["the state check failed: " + str(check.get("msg") or "?")]
    return {"converged": False, "changes": ["to deploy:"] + list(differences)}


def result_of(before_current, after_current, failed, restarted):
    """What happened to one instance on a host the rollout reached."""
    moved = after_current != before_current
    if failed:
        return "failed" if moved else "failed, still on the release before"
    if moved:
        return "changed"
    return "restarted" if restarted else "unchanged"


def host_rows(host, instances, state, results=None):
    """The summary rows of a host the rollout reached (one per instance, in server_instances order)."""
    if state.get("unreachable"):
        return marked(host, instances, UNREACHABLE, error=state.get("error") or "")
    before_all = state.get("links_before") or {}
    after_all = state.get("links_after") if state.get("links_after") is not None else before_all
    failed = bool(state.get("failed"))
    rows = []
    for name in instances:
        before = before_all.get(name) or {}
        after = after_all.get(name) or {}
        smoke = ((after.get("record") or {}).get("smoke") or {}) if after.get("current") else {}
        restarted = bool(((results or {}).get(name) or {}).get("changed"))
        rows.append({
            "host": host, "instance": name,
            "release_before": before.get("current"), "release_after": after.get("current"),
            "result": result_of(before.get("current"), after.get("current"), failed, restarted),
            "accept_length": smoke.get("accept_length"), "tokens_per_s": smoke.get("tokens_per_s"),
            "error": (state.get("error") or "") if failed else ""})
    return rows


def marked(host, instances, result, state=None, error=""):
    """Rows of a host the rollout did not record: `result` says what is known, with its release before
    when it was read."""
    before = (state or {}).get("links_before") or {}
    return [{"host": host, "instance": name, "release_before": (before.get(name) or {}).get("current"),
             "release_after": None, "result": result, "accept_length": None, "tokens_per_s": None,
             "error": error} for name in instances]


def not_reached(host, instances):
    return marked(host, instances, NOT_REACHED)


def unrecorded(state, alive=True):
    """What is known of a host without rows: never read (no state) or unreachable when read: unreachable
    before its round; its round began (step=gate) and it was not recorded after: lost during its gate, the
    release it runs unknown; gone from the run (`alive` false: unreachable, or failed, while staging or
    waiting) before its round: unreachable before its round; else not reached (the rollout stopped, or the
    run was stopped, before its batch)."""
    state = state or {}
    if not state or state.get("unreachable"):
        return UNREACHABLE
    if state.get("phase") == "gating":
        return LOST_IN_GATE
    return NOT_REACHED if alive else UNREACHABLE


def summary_rows(hosts, alive=None):
    """hosts: [(host, instances, state)] in run order -> every row: a host's recorded rows, else what is
    known of it (unrecorded()). `alive`: the hosts still in the play (None: all)."""
    out = []
    for host, instances, state in hosts:
        state = state or {}
        if state.get("rows"):
            out.extend(state["rows"])
            continue
        result = unrecorded(state, alive is None or host in alive)
        if result == LOST_IN_GATE:   # the release it ran before its round is known
            out.extend(marked(host, instances, result, state))
        else:
            out.extend(marked(host, instances, result, error=state.get("error") or "" if state.get("unreachable") else ""))
    return out


def lost(rows):
    """"<host>: <result>" of each host whose rows say it was lost (unreachable before its round, or during
    its gate), once each, in order (the final summary fails the run naming them)."""
    out = []
    for r in rows:
        phrase = "%s: %s" % (r["host"], r["result"])
        if r["result"] in LOST and phrase not in out:
            out.append(phrase)
    return out


def document(report, rows):
    return {"report": report, "hosts": rows}


def summary_json(report, rows):
    return json.dumps(document(report, rows), indent=2, sort_keys=True)


def _cell(value):
    return "-" if value in (None, "", 0, False) or value == 0.0 else str(value)


def summary_md(report, rows):
    lines = ["# specdeploy %s summary" % report, "",
             "| host | instance | release before | release after | result | accept length | tokens/s |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["host"], r["instance"], _cell(r["release_before"]), _cell(r["release_after"]), r["result"],
            _cell(r["accept_length"]), _cell(r["tokens_per_s"])))
    errors = [r for r in rows if r.get("error")]
    if errors:
        lines += ["", "Errors:"] + ["- %s: %s" % (r["host"], r["error"]) for r in errors]
    return "\n".join(lines) + "\n"


def counts(rows):
    """{result: number of rows} (the job artifact's counts)."""
    out = {}
    for r in sorted(rows, key=lambda r: r["result"]):
        out[r["result"]] = out.get(r["result"], 0) + 1
    return out


def failure(state, phase, task=None, result=None, analysed=None):
    """The host's state after a failure in `phase`, with its message:
    task: "<task>: <msg>"; staging: "staging, <task>: <msg>"; rejoin: "[<error>; then ]rejoining the
    gateways: <msg>[: <gateway>: <msg>; ...]"; canary: "<msg>"; rolled_back: "<error>; rolled back through
    the gate to release(s) <ids of `analysed` before>"; rollback_failed: "<error>; the rollback failed too: <msg>"."""
    if phase not in PHASES:
        raise ValueError("phase %r: use one of %s" % (phase, ", ".join(PHASES)))
    result = result or {}
    msg = result.get("msg") or "failed"
    prev = state.get("error") or ""
    if phase == "task":
        error = "%s: %s" % (task or "a task", msg)
    elif phase == "staging":
        error = "staging, %s: %s" % (task or "a task", msg)
    elif phase == "rejoin":
        error = (prev + "; then " if state.get("failed") else "") + "rejoining the gateways: " + msg
        for i, r in enumerate(r for r in result.get("results") or [] if r.get("failed")):
            where = r.get("__gateway_host") or "a gateway"
            error += (": " if i == 0 else "; ") + "%s: %s" % (where, r.get("msg") or "failed")
    elif phase == "canary":
        error = result.get("msg") or "canary analysis failed"
    elif phase == "rolled_back":
        before = state.get("links_before") or {}
        error = "%s; rolled back through the gate to release(s) %s" % (
            prev, ", ".join(str((before.get(n) or {}).get("current")) for n in analysed or []))
    else:
        error = "%s; the rollback failed too: %s" % (prev, msg)
    return dict(state, failed=True, error=error)


def now_phrase(links):
    """"<instance>: <release>, ..." of the links (the fail message's "its current release"), or none."""
    return ", ".join("%s: %s" % (name, (item or {}).get("current")) for name, item in (links or {}).items()) or "none"


def analysed(results, failed, first_batch, every_batch, enabled):
    """The instances a canary analysis judges: those this host restarted and that did not fail, when the
    analysis is on, the host passed, and this is the canary batch (or every_batch)."""
    if not enabled or failed or not (every_batch or first_batch):
        return []
    return [name for name, r in (results or {}).items() if r.get("changed") and not r.get("failed")]
