"""The rollout's decisions (plugins/module_utils/rollout.py): the summary of a rollout is the same, row for
row and line for line, as the one the playbooks' Jinja wrote before these decisions moved to Python
(fixtures/rollout_summary/*.json: inputs and both files, captured from playbooks/tasks/record_row.yml and
write_summary.yml run by ansible-playbook before the change)."""
import glob
import json
import os

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import rollout

FIXTURES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "fixtures", "rollout_summary", "*.json")))


def _summary(inputs):
    hosts = []
    for host, v in inputs["hosts"].items():
        names = [i["name"] for i in v["server_instances"]]
        rows = None
        if "__fleet_links_after" in v:     # the host was recorded (record_row.yml ran for it)
            state = dict(rollout.new_state(v["__fleet_links_before"]), links_after=v["__fleet_links_after"],
                         failed=v.get("__fleet_failed", False), error=v.get("__fleet_error", ""))
            rows = rollout.host_rows(host, names, state, v.get("server_results"))
        hosts.append((host, names, dict(rollout.new_state(), rows=rows)))
    return rollout.summary_rows(hosts)


@pytest.mark.parametrize("path", FIXTURES, ids=[os.path.basename(p)[:-5] for p in FIXTURES])
def test_summary_is_unchanged_from_the_jinja_rows(path):
    with open(path) as handle:
        fixture = json.load(handle)
    report = fixture["inputs"]["report"]
    rows = _summary(fixture["inputs"])
    assert json.loads(rollout.summary_json(report, rows)) == fixture["summary_json"]
    assert rollout.summary_md(report, rows) == fixture["summary_md"]


def test_the_fixtures_cover_a_completed_rollout_and_a_failed_canary():
    names = [os.path.basename(p) for p in FIXTURES]
    assert "completed.json" in names and "canary_failed.json" in names
    results = set()
    for path in FIXTURES:
        with open(path) as handle:
            results |= {r["result"] for r in json.load(handle)["summary_json"]["hosts"]}
    assert results == {"changed", "restarted", "unchanged", "failed", "failed, still on the release before",
                       "not reached"}


def test_failure_messages():
    state = rollout.new_state({"main": {"current": "r1"}})
    s = rollout.failure(state, "staging", "Weights", {"msg": "config.json differs"})
    assert s["failed"] and s["error"] == "staging, Weights: config.json differs"
    s = rollout.failure(rollout.failure(state, "task", "Server", {"msg": "gate failed"}), "rejoin", result={
        "msg": "one or more items failed", "results": [{"failed": True, "__gateway_host": "gw-1", "msg": "timeout"},
                                                        {"failed": False}, {"failed": True, "msg": "down"}]})
    assert s["error"] == ("Server: gate failed; then rejoining the gateways: one or more items failed: "
                          "gw-1: timeout; a gateway: down")
    s = rollout.failure(rollout.failure(state, "canary", result={"msg": "p99 above 2 s"}), "rolled_back",
                        analysed=["main"])
    assert s["error"] == "p99 above 2 s; rolled back through the gate to release(s) r1"
    assert rollout.failure(state, "canary", result={})["error"] == "canary analysis failed"
    assert rollout.now_phrase({"main": {"current": "r1"}, "b": {"current": None}}) == "main: r1, b: None"
    assert rollout.now_phrase({}) == "none"
    with pytest.raises(ValueError):
        rollout.failure(state, "oops")


def test_counts_and_canary_analysis_choice():
    rows = [{"result": "changed"}, {"result": "changed"}, {"result": "not reached"}]
    assert rollout.counts(rows) == {"changed": 2, "not reached": 1}
    results = {"a": {"changed": True, "failed": False}, "b": {"changed": False}, "c": {"changed": True, "failed": True}}
    assert rollout.analysed(results, False, True, False, True) == ["a"]
    assert rollout.analysed(results, False, False, False, True) == []      # not the canary batch
    assert rollout.analysed(results, False, False, True, True) == ["a"]    # every_batch
    assert rollout.analysed(results, True, True, False, True) == []        # the host failed
    assert rollout.analysed(results, False, True, False, False) == []      # analysis off


def test_check_outcome_of_deploy_state():
    assert rollout.check_outcome({"skipped": True}) == {"converged": False, "changes": []}
    assert rollout.check_outcome({"converged": True, "differences": []}) == {
        "converged": True, "changes": ["unchanged: as the last deploy left it, and serving"]}
    assert rollout.check_outcome({"converged": False, "differences": ["a changed"]})["changes"] == ["to deploy:", "a changed"]
    assert rollout.check_outcome({"failed": False, "msg": "deploy_state check: boom"})["changes"] == [
        "to deploy:", "the state check failed: deploy_state check: boom"]


# ---- hosts without rows: what is known of them (a host unreachable, a host lost during its gate) --------

LINKS = {"main": {"current": "r1", "previous": None, "record": {}}}


def _rows(state, alive=True):
    return rollout.summary_rows([("h1", ["main"], state)], None if alive else [])


def test_a_host_never_read_or_unreachable_when_read_is_unreachable_before_its_round():
    for state in (None, {}, rollout.unreachable_state("Failed to connect to the host via ssh")):
        [row] = _rows(state)
        assert row["result"] == "unreachable before its round" and row["release_after"] is None, state
    [row] = _rows(rollout.unreachable_state("Failed to connect to the host via ssh"))
    assert row["error"] == "Failed to connect to the host via ssh"
    # its rows, once recorded (deploy.yml records them before ending the host), say the same
    state = rollout.unreachable_state("timed out")
    assert rollout.host_rows("h1", ["main"], state)[0]["result"] == "unreachable before its round"
    assert state["rollout"] is False and state["converged"] is False


def test_a_host_whose_round_began_and_was_not_recorded_was_lost_during_its_gate():
    state = dict(rollout.new_state(LINKS), phase="gating")
    for alive in (True, False):   # gone from the play, or the run stopped during its gate
        [row] = _rows(state, alive)
        assert row["result"] == "lost during its gate: running release unknown", row
        assert row["release_before"] == "r1" and row["release_after"] is None, row


def test_a_staged_host_is_not_reached_while_in_the_play_and_unreachable_once_gone_from_it():
    state = rollout.new_state(LINKS)
    assert state["phase"] == "staged"
    assert _rows(state, alive=True)[0]["result"] == "not reached"
    assert _rows(state, alive=False)[0]["result"] == "unreachable before its round"


def test_recorded_rows_win_over_what_the_play_knows():
    state = dict(rollout.new_state(LINKS), phase="done", links_after=LINKS)
    state["rows"] = rollout.host_rows("h1", ["main"], state)
    assert _rows(state, alive=False) == state["rows"] and state["rows"][0]["result"] == "unchanged"


def test_the_lost_hosts_are_named_once_each_in_order():
    rows = rollout.summary_rows([
        ("h1", ["main", "b"], dict(rollout.new_state(LINKS), phase="gating")),
        ("h2", ["main"], None),
        ("h3", ["main"], rollout.new_state(LINKS))])
    assert rollout.lost(rows) == ["h1: lost during its gate: running release unknown",
                                  "h2: unreachable before its round"]
    assert rollout.counts(rows) == {"lost during its gate: running release unknown": 2, "not reached": 1,
                                    "unreachable before its round": 1}
    md = rollout.summary_md("deploy", rows)
    assert "| h1 | main | r1 | - | lost during its gate: running release unknown | - | - |" in md, md


def test_a_check_that_could_not_reach_the_host():
    assert rollout.check_outcome({"unreachable": True, "msg": "x"}) == {"converged": False, "unreachable": True,
                                                                        "changes": []}
