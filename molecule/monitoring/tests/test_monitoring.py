"""The monitoring role against a real Prometheus (Debian's package) on mon-1, scraping mon-1's real SGLang
server through the targets the role generated. Every check reads Prometheus' own HTTP API (from inside the
host: it has loopback only) or the host's files, never the playbook's output alone. The tests run in file
order: release A (converge), then a deploy of release B, then the server stopped.
"""
import json
import os
import sys
import time

import testinfra
import yaml

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "shared"))
import timed_playbook  # noqa: E402  (molecule/shared)

HOST = testinfra.get_host("podman://mon-1")
INSTANCE = "mon-1/main"
RULES = "/etc/prometheus/specdeploy/rules/specdeploy-sglang.rules.yml"
REPORTS = os.environ["SPECDEPLOY_REPORT_DIR"]
DASHBOARD = os.path.join(REPORTS, "monitoring", "grafana", "specdeploy-sglang.json")
# the scenario's windows (converge.yml)
DOWN_FOR, SCRAPE, EVALUATION = 20, 5, 5
STATE = {}

QUERY = r"""
import json, sys, urllib.parse, urllib.request
path, params = sys.argv[1], json.loads(sys.argv[2])
url = "http://127.0.0.1:9090" + path + ("?" + urllib.parse.urlencode(params) if params else "")
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
print(opener.open(url, timeout=20).read().decode())
"""


def api(path, **params):
    """Prometheus' HTTP API on mon-1: the `data` of a successful answer."""
    out = HOST.run("python3 -c %s %s %s" % (_q(QUERY), _q(path), _q(json.dumps(params))))
    assert out.rc == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["status"] == "success", answer
    return answer["data"]


def _q(text):
    return "'" + text.replace("'", "'\"'\"'") + "'"


def query(expr):
    return api("/api/v1/query", query=expr)["result"]


def until(what, check, timeout, interval=2):
    """check()'s first truthy result within timeout seconds, else fail naming what was awaited."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError("%s: not within %ss (last: %r)" % (what, timeout, last))


def current_release():
    out = HOST.run("readlink /opt/specdeploy/instances/main/current")
    assert out.rc == 0, out.stderr
    return os.path.basename(out.stdout.strip())


def target():
    """The active target of mon-1/main in Prometheus' target list (None when absent)."""
    for t in api("/api/v1/targets", state="active")["activeTargets"]:
        if t["labels"].get("instance") == INSTANCE:
            return t
    return None


def journal():
    return HOST.run("journalctl -u sglang-main -u prometheus --no-pager -n 60").stdout


def test_target_carries_the_current_release_and_is_up():
    release = current_release()
    STATE["release_a"] = release
    t = until("mon-1/main up with release " + release,
              lambda: (lambda t: t if t and t["health"] == "up" and t["labels"]["release"] == release else None)(target()),
              90)
    labels = t["labels"]
    assert labels["host"] == "mon-1"
    record = json.loads(HOST.file("/opt/specdeploy/instances/main/current/release.json").content_string)
    assert labels["sglang_version"] == record["inputs"]["spec"]["sglang_version"]
    # the lab serves without speculation (DFLASH is refused on CPU): the labels say so
    assert (labels["algorithm"], labels["verify"], labels["drafter"]) == ("none", "none", "none")
    assert t["scrapeUrl"] == "http://127.0.0.1:30000/metrics"


def test_every_recording_rule_returns_data():
    rule_file = yaml.safe_load(HOST.file(RULES).content_string)
    records = [r["record"] for g in rule_file["groups"] for r in g["rules"] if "record" in r]
    assert len(records) == 8, records
    for record in records:
        series = until(record + " has data", lambda: query('%s{instance="%s"}' % (record, INSTANCE)), 120)
        assert series[0]["metric"]["release"] == STATE["release_a"], series


def test_every_dashboard_panel_query_returns_data():
    with open(DASHBOARD, encoding="utf-8") as handle:
        board = json.load(handle)
    exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
    assert len(exprs) == 9, exprs
    for expr in exprs:
        until("panel query %s has data" % expr, lambda: query(expr), 60)


def test_the_alert_rules_are_loaded_with_the_gate_threshold_off_where_the_gate_is_off():
    groups = api("/api/v1/rules", type="alert")["groups"]
    names = sorted(r["name"] for g in groups for r in g["rules"])
    # the lab gate checks no accept length (server_smoke_min_accept_length: null): no such alert; the error
    # rate alert takes the role's default threshold (no canary analysis in the lab inventory)
    assert names == ["SGLangDown", "SGLangErrorRateHigh", "SGLangQueueGrowing", "SGLangReleaseDrift"], names


def test_after_a_deploy_the_target_carries_the_new_release():
    inventory = os.environ.get("MOLECULE_INVENTORY_FILE") or os.path.join(
        os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "inventory")
    rc, out = timed_playbook.run(["ansible-playbook", "-i", inventory, os.path.join(HERE, "converge.yml"),
                                  "-e", "@" + os.path.join(HERE, "vars", "release2.yml")],
                                 cwd=ROOT, env=dict(os.environ, ANSIBLE_FORCE_COLOR="0"))
    assert rc == 0, out[-4000:]
    release_b = current_release()
    assert release_b != STATE["release_a"]
    STATE["release_b"] = release_b
    with open(os.path.join(REPORTS, "monitoring", "targets", "sglang.json"), encoding="utf-8") as handle:
        assert [g["labels"]["release"] for g in json.load(handle)] == [release_b]
    until("Prometheus scrapes mon-1/main as release " + release_b,
          lambda: (lambda t: t and t["health"] == "up" and t["labels"]["release"] == release_b)(target()), 90)
    until("the recorded series carry release " + release_b,
          lambda: [s for s in query('specdeploy:generation_tokens_per_s{instance="%s"}' % INSTANCE)
                   if s["metric"]["release"] == release_b], 60)
    # and the history keeps release A's series: a dashboard shows the release change
    assert query('max_over_time(up{instance="%s", release="%s"}[30m])' % (INSTANCE, STATE["release_a"]))


def test_stopping_the_server_fires_the_down_alert_within_its_window():
    release = STATE.get("release_b") or current_release()
    start = time.monotonic()
    stop = HOST.run("systemctl stop sglang-main")
    assert stop.rc == 0, stop.stderr
    stopped = time.monotonic()

    def firing():
        for alert in api("/api/v1/alerts")["alerts"]:
            labels = alert["labels"]
            if (labels.get("alertname"), labels.get("instance"), labels.get("release"), alert["state"]) == (
                    "SGLangDown", INSTANCE, release, "firing"):
                return alert
        return None

    # up == 0 at the next scrape, pending at the next evaluation, firing DOWN_FOR later (at an evaluation)
    budget = SCRAPE + EVALUATION + DOWN_FOR + EVALUATION + 10
    alert = until("SGLangDown firing for " + INSTANCE, firing, budget, interval=1)
    took = time.monotonic() - start
    print("SGLangDown fired %.1f s after `systemctl stop` began (the stop took %.1f s; for: %ss)"
          % (took, stopped - start, DOWN_FOR))
    # never before its for: window (the server served until the stop began)
    assert took >= DOWN_FOR, "fired before its for: window (%.1f s)" % took
    assert alert["annotations"]["summary"] == "SGLang %s does not answer /metrics" % INSTANCE
