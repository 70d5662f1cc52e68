"""The monitoring role's files (plugins/module_utils/monitoring.py): targets and their labels, the rules and
their thresholds, the dashboard; and, end to end on a copy of inventories/production, that one setting moves
both the deploy gate and the accept-length alert (the alert evaluated by Prometheus' own promtool).
"""
import json
import os
import shutil
import subprocess
import textwrap

import pytest
import yaml

from ansible_collections.specdeploy.sglang.plugins.module_utils import monitoring as mon
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan
from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases

from test_smoke import Clock, FakeHttp, load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATHS = {"targets": "/p/targets/sglang.json", "rules": "/p/rules/r.yml"}
SPEC = {"sglang_version": "0.5.23", "model_path": "/m", "port": 30001, "enable_metrics": True,
        "speculative": {"algorithm": "DFLASH", "verify": "tree", "draft_model_path": "/opt/models/z-lab--d@abc"}}


def host(**kw):
    info = {"address": "10.0.0.5", "instances": [{"name": "main", "spec": SPEC}], "read": False, "links": {},
            "min_accept_length": 1.5, "canary_analysis": {}}
    info.update(kw)
    return info


def alerts(rule_file, name):
    return [r for g in rule_file["groups"] for r in g["rules"] if r.get("alert") == name]


def test_metric_names_cover_every_release_table_name():
    queued = mon.metric_names("queued")
    # renamed in 0.5.12, added in 0.5.21: one selector covers a fleet of mixed releases
    assert {"sglang:num_prefill_prealloc_queue_reqs", "sglang:num_prefill_bootstrap_queue_reqs",
            "sglang:num_decode_host_receive_queue_reqs", "sglang:num_queue_reqs"} <= set(queued)
    for version in releases.KNOWN_VERSIONS:
        assert set(releases.RELEASES[version]["metrics"]["queued"]) <= set(queued)
    assert mon.metric_names("kv_cache_usage") == ["sglang:token_usage"]
    with pytest.raises(mon.MonitoringError):
        mon.metric_names("verify_calls_totalx")


def test_targets_take_labels_from_the_release_record_the_host_holds():
    record = {"inputs": {"spec": dict(SPEC, sglang_version="0.5.22", port=30005)}}
    out = mon.build({"h1": host(read=True, links={"main": {"current": "rel-b", "record": record}})}, {}, "sglang",
                    {}, PATHS)
    assert out["targets"] == [{"targets": ["10.0.0.5:30005"], "labels": {
        "host": "h1", "instance": "h1/main", "release": "rel-b", "sglang_version": "0.5.22", "algorithm": "DFLASH",
        "verify": "tree", "drafter": "z-lab--d@abc"}}]
    assert out["not_read"] == [] and out["unmonitored"] == []


def test_a_host_not_read_gets_its_inventory_spec_and_release_unknown():
    plain = dict(SPEC, speculative=None, port=None)
    out = mon.build({"h1": host(instances=[{"name": "a", "spec": plain}])}, {}, "sglang", {}, PATHS)
    assert out["targets"][0]["targets"] == ["10.0.0.5:30000"]  # SGLang's default port
    labels = out["targets"][0]["labels"]
    assert (labels["release"], labels["algorithm"], labels["verify"], labels["drafter"]) == (
        "unknown", "none", "none", "none")
    assert out["not_read"] == ["h1"]


def test_instances_without_metrics_or_release_are_no_targets_and_say_why():
    off = dict(SPEC, enable_metrics=False)
    out = mon.build({"h1": host(instances=[{"name": "off", "spec": off}, {"name": "new", "spec": SPEC}],
                                read=True, links={})}, {}, "sglang", {}, PATHS)
    assert out["targets"] == []
    assert out["unmonitored"] == ["h1/off: no current release on the host (not deployed yet)",
                                  "h1/new: no current release on the host (not deployed yet)"]
    out = mon.build({"h1": host(instances=[{"name": "off", "spec": off}])}, {}, "sglang", {}, PATHS)
    assert out["unmonitored"] == ["h1/off: its spec does not set enable_metrics (no /metrics to scrape)"]


def test_accept_length_alert_takes_the_gates_threshold_per_instance():
    hosts = {
        "a.example.com": host(instances=[{"name": "main", "spec": SPEC},
                                         # an instance's own smoke setting overrides the host's, as in the gate
                                         {"name": "two", "spec": SPEC, "smoke": {"min_accept_length": 3}}]),
        "b": host(min_accept_length=None),  # the gate does not check it: no alert either
        "c": host(instances=[{"name": "main", "spec": dict(SPEC, speculative=None)}]),  # no speculation
    }
    out = mon.build(hosts, {}, "sglang", {}, PATHS)
    assert out["thresholds"]["a.example.com/two"]["min_accept_length"] == 3
    assert out["thresholds"]["b/main"]["min_accept_length"] is None
    exprs = sorted(a["expr"] for a in alerts(out["rules"], "SGLangAcceptLengthLow"))
    assert exprs == [
        'specdeploy:accept_length{job="sglang", algorithm!="none", instance=~"a\\\\.example\\\\.com/main"} < 1.5',
        'specdeploy:accept_length{job="sglang", algorithm!="none", instance=~"a\\\\.example\\\\.com/two"} < 3']


def test_error_rate_alert_takes_the_canary_threshold_else_the_roles():
    hosts = {"a": host(canary_analysis={"thresholds": {"max_error_rate": 0.01}}), "b": host()}
    out = mon.build(hosts, {}, "sglang", {}, PATHS, max_error_rate=0.05)
    assert sorted(a["expr"].rsplit(" > ", 1)[1] for a in alerts(out["rules"], "SGLangErrorRateHigh")) == ["0.01", "0.05"]
    out = mon.build({"b": host()}, {}, "sglang", {}, PATHS, max_error_rate=None)
    assert alerts(out["rules"], "SGLangErrorRateHigh") == []


@pytest.mark.parametrize("kwargs,message", [
    ({"settings": {"down_for": "five minutes"}}, "down_for must be a Prometheus duration"),
    ({"settings": {"downfor": "5m"}}, "unknown monitoring settings downfor"),
    ({"paths": {"targets": "rel/t.json", "rules": "/r"}}, "paths.targets must be an absolute path"),
    ({"hosts": {"h": host(min_accept_length="high")}}, "min_accept_length of h/main must be a number"),
])
def test_bad_input_is_a_clear_error(kwargs, message):
    args = {"hosts": {"h": host()}, "gateways": {}, "job": "sglang", "settings": {}, "paths": PATHS}
    args.update(kwargs)
    with pytest.raises(mon.MonitoringError, match=message):
        mon.build(**args)


def test_dashboard_panels_query_the_recorded_series_and_the_config_loads_the_files():
    out = mon.build({"h": host()}, {"gw": {"address": "10.0.0.9", "port": 29000}}, "sglang",
                    {"rate_window": "1m"}, dict(PATHS, gateway_targets="/p/targets/gw.json"))
    recorded = set(out["recorded"])
    for expr in out["panel_queries"]:
        table = "count by (host, instance, release, sglang_version, algorithm, verify, drafter) (up"
        assert expr.split("{")[0] in recorded | {"up", table}, expr
    assert out["gateway_targets"] == [{"targets": ["10.0.0.9:29000"], "labels": {"host": "gw", "instance": "gw/gateway"}}]
    config = out["prometheus_config"]
    assert config["rule_files"] == ["/p/rules/r.yml"]
    files = [j["file_sd_configs"][0]["files"] for j in config["scrape_configs"]]
    assert files == [["/p/targets/sglang.json"], ["/p/targets/gw.json"]]


# ---- one setting moves the gate and the alert (inventories/production, real playbook, real promtool) ----

PLAYBOOK = shutil.which("ansible-playbook")
PROMTOOL = shutil.which("promtool")
INVENTORY = shutil.which("ansible-inventory")


def _env(tmp_path):
    tree = tmp_path / "collections" / "ansible_collections" / "specdeploy"
    tree.mkdir(parents=True, exist_ok=True)
    if not (tree / "sglang").exists():
        os.symlink(ROOT, tree / "sglang")
    return dict(os.environ, ANSIBLE_COLLECTIONS_PATH=str(tmp_path / "collections"), ANSIBLE_NOCOLOR="1",
                ANSIBLE_LOCALHOST_WARNING="false")


def gate_passes(inventory, env, host_name):
    """The deploy gate on an accept length of 2.0 (a real DFLASH /generate payload): the host's
    server_smoke_min_accept_length as the inventory gives it, through the gate's own merge and judge."""
    out = subprocess.run([INVENTORY, "-i", inventory, "--host", host_name], env=env, capture_output=True,
                         text=True, check=True)
    threshold = json.loads(out.stdout).get("server_smoke_min_accept_length")
    args = server_plan.smoke_args({"sglang_version": "0.5.23", "speculative": {"algorithm": "DFLASH"}}, {}, None,
                                  {"min_accept_length": threshold, "timeout": 30}, None)
    clock = Clock()
    payload = load("generate-0.5.23-dflash.json")
    result = smoke.run_smoke(FakeHttp(clock, generate=lambda b: payload), args, clock=clock, sleep=clock.sleep,
                             state_reader=None)
    assert result["accept_length"] == 2.0
    return result["passed"]


def alert_fires(inventory, env, tmp_path, host_name):
    """Prometheus' own rule evaluation (promtool test rules) of the rule file the monitoring playbook writes
    from the inventory, over 40 minutes of that host's accept length at 2.0."""
    report = tmp_path / "reports"
    proc = subprocess.run([PLAYBOOK, "-i", inventory, os.path.join(ROOT, "playbooks", "monitoring.yml"),
                           "-e", "monitoring_read_hosts=false", "-e", "specdeploy_report_dir=%s" % report],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rules = report / "monitoring" / "rules" / "specdeploy-sglang.rules.yml"
    labels = ('job="sglang", host="%s", instance="%s/main", release="r1", sglang_version="0.5.23", '
              'algorithm="DFLASH", verify="linear", drafter="d", tp_rank="0"' % (host_name, host_name))
    test = tmp_path / "accept.test.yml"
    test.write_text(textwrap.dedent("""\
        rule_files: [%s]
        evaluation_interval: 1m
        tests:
          - interval: 1m
            input_series:
              - series: 'sglang:spec_accept_length{%s}'
                values: '2x40'
            alert_rule_test:
              - eval_time: 40m
                alertname: SGLangAcceptLengthLow
                exp_alerts: []
        """ % (rules, labels)))
    proc = subprocess.run([PROMTOOL, "test", "rules", str(test)], capture_output=True, text=True, check=False)
    if proc.returncode == 0:
        return None
    out = proc.stdout + proc.stderr
    assert 'alertname="SGLangAcceptLengthLow"' in out and 'instance="%s/main"' % host_name in out, out
    return out


@pytest.mark.skipif(None in (PLAYBOOK, PROMTOOL, INVENTORY),
                    reason="needs ansible-playbook (make venv) and promtool (make lab-deps)")
def test_changing_the_accept_length_threshold_once_moves_the_gate_and_the_alert(tmp_path):
    inventory = tmp_path / "production"
    shutil.copytree(os.path.join(ROOT, "inventories", "production"), inventory)
    env = _env(tmp_path)
    group_vars = inventory / "group_vars" / "sglang_servers.yml"
    text = group_vars.read_text()
    assert "\nserver_smoke_min_accept_length: 1.5\n" in text
    # as shipped: the gate's 1.5 passes an accept length of 2.0, and the alert stays quiet
    assert gate_passes(str(inventory), env, "pro6000-b1")
    assert alert_fires(str(inventory), env, tmp_path / "a", "pro6000-b1") is None
    # the one setting raised to 2.5: the gate fails the same decode and the alert fires on the same series
    group_vars.write_text(text.replace("\nserver_smoke_min_accept_length: 1.5\n", "\nserver_smoke_min_accept_length: 2.5\n"))
    assert not gate_passes(str(inventory), env, "pro6000-b1")
    fired = alert_fires(str(inventory), env, tmp_path / "b", "pro6000-b1")
    assert fired and 'gate_min_accept_length="2.5"' in fired, fired


def test_docs_metrics_md_lists_every_name_of_the_release_table():
    with open(os.path.join(ROOT, "docs", "metrics.md"), encoding="utf-8") as handle:
        section = handle.read().split("### Metric names per release", 1)[1].split("### What metrics cost", 1)[0]
    traits = set()
    for version in releases.KNOWN_VERSIONS:
        traits.update(releases.RELEASES[version]["metrics"])
    for trait in sorted(traits):
        assert "(`%s`" % trait in section, trait
        for name in mon.metric_names(trait):
            assert "`%s`" % name in section, (trait, name)


def test_rules_select_both_names_a_prometheus_may_store():
    # measured on the real 0.5.23 lab server (prometheus_client 0.26): asked for OpenMetrics without
    # escaping=allow-utf-8 (Prometheus 2.x) it answers sglang_spec_accept_length; as text, sglang:spec_accept_length
    assert mon.exposed("sglang:spec_accept_length") == ["sglang:spec_accept_length", "sglang_spec_accept_length"]
    out = mon.build({"h": host()}, {}, "sglang", {"rate_window": "1m"}, PATHS)
    exprs = {r["record"]: r["expr"] for g in out["rules"]["groups"] for r in g["rules"] if "record" in r}
    assert '{__name__=~"sglang:spec_accept_length|sglang_spec_accept_length", job="sglang"}' in exprs[
        "specdeploy:accept_length"]
    assert ("sum by (job, host, instance, release, sglang_version, algorithm, verify, drafter) (rate("
            "sglang:num_requests_total{job=\"sglang\"}[1m])) or sum by (job, host, instance, release, sglang_version, "
            "algorithm, verify, drafter) (rate(sglang_num_requests_total{job=\"sglang\"}[1m]))") in exprs[
        "specdeploy:requests:rate1m"]
