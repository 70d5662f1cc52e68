"""SGLang's /metrics: the flag that turns it on, the Prometheus text parser, the figures status shows, the
canary window and its verdict. The text is what the real SGLang 0.5.23 lab server answered
(tests/unit/fixtures/metrics/README.md says how it was captured)."""
import http.server
import os
import threading

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import metrics as M
from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "metrics")


def text(name):
    with open(os.path.join(FIX, "metrics-0.5.23-lab-%s.prom" % name)) as handle:
        return handle.read()


# ---- --enable-metrics ------------------------------------------------------------------------------

@pytest.mark.parametrize("version", E.KNOWN_VERSIONS)
def test_enable_metrics_renders_the_flag_every_captured_parser_knows(version):
    flag = E.RELEASES[version]["metrics_flag"]
    assert E.RELEASES[version]["flags"][flag][0] == "flag"  # captured from the release's own parser
    r = E.validate({"sglang_version": version, "model_path": "/m", "enable_metrics": True}, read_paths=False)
    assert r.ok, r.errors
    assert flag in r.argv
    off = E.validate({"sglang_version": version, "model_path": "/m"}, read_paths=False)
    assert flag not in off.argv


def test_enable_metrics_must_be_a_boolean_and_round_trips_from_an_argv():
    r = E.validate({"sglang_version": "0.5.23", "model_path": "/m", "enable_metrics": "yes"}, read_paths=False)
    assert r.codes() == ["SPEC_TYPE"] and "boolean" in r.errors[0]["message"]
    spec = E.argv_to_spec(["--model-path", "/m", "--enable-metrics"], "0.5.23")
    assert spec["enable_metrics"] is True and spec["extra_args"] == []


# ---- the parser ------------------------------------------------------------------------------------

def test_parse_reads_every_sample_of_the_real_text():
    samples = M.parse(text("busy"))
    running = samples["sglang:num_running_reqs"]
    assert running == [({"engine_type": "unified", "model_name": "/work/main/.lab/models/tiny-qwen3",
                         "moe_ep_rank": "0", "pp_rank": "0", "tp_rank": "0"}, 3.0)]
    assert sorted(lab["is_streaming"] for lab, _v in samples["sglang:num_requests_total"]) == ["false", "true"]
    buckets = samples["sglang:routing_key_running_req_count"]
    assert buckets[-1][0]["le"] == "+Inf"
    lines = [ln for ln in text("busy").splitlines() if ln and not ln.startswith("#")]
    assert sum(len(v) for v in samples.values()) == len(lines)


def test_parse_escapes_special_values_and_timestamps():
    samples = M.parse('# HELP x a\nx{a="q\\"uo\\\\te\\nnl",b="",} NaN 1700000000\ny +Inf\nz{} -3.5e2\n')
    assert samples["x"][0][0] == {"a": 'q"uo\\te\nnl', "b": ""}
    assert samples["x"][0][1] != samples["x"][0][1]  # NaN
    assert samples["y"] == [({}, float("inf"))] and samples["z"] == [({}, -350.0)]


@pytest.mark.parametrize("bad, why", [
    ("x{a=1} 2", "bad labels"), ("x", "expected a value"), ("x 1 2 3", "expected a value"),
    ("x one", "not a sample value"), ("{a=\"b\"} 1", "no metric name"),
])
def test_parse_names_the_bad_line(bad, why):
    with pytest.raises(M.MetricsError, match="line 2: .*%s|line 2: %s" % (why, why)):
        M.parse("ok 1\n" + bad + "\n")


# ---- the figures -----------------------------------------------------------------------------------

def test_figures_of_the_busy_server():
    f = M.read(text("busy"), "0.5.23")
    assert f["names_from"] == "0.5.23"
    assert (f["running"], f["queued"]) == (3, 0)
    assert f["tokens_per_s"] == pytest.approx(0.608, abs=1e-3)
    assert (f["requests_total"], f["errors_total"]) == (4.0, 1.0)  # the dropped stream was aborted
    assert f["accept_length"] == 0.0 and f["verify_calls_total"] is None  # no speculative server on CPU
    assert f["missing"] == []


def test_figures_before_any_request_count_zero_requests():
    f = M.read(text("idle"), "0.5.23")
    assert (f["requests_total"], f["errors_total"], f["generation_tokens_total"]) == (0.0, 0.0, 0.0)


def test_http_5xx_answers_count_as_errors_and_4xx_do_not():
    base = text("after")
    assert 'status_code="400"' in base and M.read(base, "0.5.23")["errors_total"] == 1.0
    edited = base + 'sglang:http_responses_total{endpoint="/generate",method="POST",status_code="503"} 2.0\n'
    assert M.read(edited, "0.5.23")["errors_total"] == 3.0


def test_the_names_come_from_the_release_table():
    """0.5.11 named the PD prefill queue num_prefill_prealloc_queue_reqs, 0.5.12 renamed it; a newer release
    than the table knows keeps the last known names; an older one is refused with the table's message."""
    pd = text("after").replace("sglang:num_prefill_bootstrap_queue_reqs", "sglang:num_prefill_prealloc_queue_reqs")
    pd = pd.replace('sglang:num_prefill_prealloc_queue_reqs{engine_type="unified",model_name="/work/main/.lab/models'
                    '/tiny-qwen3",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 0.0',
                    'sglang:num_prefill_prealloc_queue_reqs{engine_type="unified",model_name="/work/main/.lab/models'
                    '/tiny-qwen3",moe_ep_rank="0",pp_rank="0",tp_rank="0"} 5.0')
    assert M.read(pd, "0.5.11")["queued"] == 5 and M.read(pd, "0.5.12")["queued"] == 0
    assert M.names("0.5.99")[0] == "0.5.23"
    with pytest.raises(M.MetricsError, match="not a release number"):
        M.read(text("after"), "0.4.0")


def test_missing_gauges_are_named():
    only = "\n".join(ln for ln in text("after").splitlines() if "num_running_reqs" not in ln)
    assert M.read(only, "0.5.23")["missing"] == ["sglang:num_running_reqs"]


def test_no_version_literal_outside_the_release_table():
    """metrics.py reads every per-release name from the release table: no quoted version in its code."""
    import re
    assert not re.findall(r"[\"']\d+\.\d+\.\d+", open(M.__file__).read())


# ---- the canary window -----------------------------------------------------------------------------

def test_window_between_two_real_readings():
    w = M.window(M.read(text("busy"), "0.5.23"), M.read(text("after"), "0.5.23"), 20)
    assert (w["requests"], w["errors"], w["tokens"]) == (4, 0, 800)
    assert w["tokens_per_s"] == 40.0 and w["error_rate"] == 0.0 and w["accept_length_from"] == "gauge"


def _spec_reading(base, verify_calls, gen_tokens):
    """EDITED real text: a speculative server's verify counter and generated tokens (none runs on CPU)."""
    out = base.replace('sglang:generation_tokens_total{engine_type="unified",is_streaming="false",model_name='
                       '"/work/main/.lab/models/tiny-qwen3"} 848.0',
                       'sglang:generation_tokens_total{engine_type="unified",is_streaming="false",model_name='
                       '"/work/main/.lab/models/tiny-qwen3"} %s' % gen_tokens)
    return out + 'sglang:spec_verify_calls_total{engine_type="unified",model_name="m"} %s\n' % verify_calls


def test_accept_length_from_the_counters_where_the_release_has_them():
    before = M.read(_spec_reading(text("after"), 100, 848.0), "0.5.23")
    after = M.read(_spec_reading(text("after"), 300, 1448.0), "0.5.23")
    w = M.window(before, after, 10)
    assert w["accept_length"] == 3.0 and w["accept_length_from"] == "counters"
    # 0.5.12 has no verify counter in its table: the gauge
    assert M.window(M.read(_spec_reading(text("after"), 100, 848.0), "0.5.12"),
                    M.read(_spec_reading(text("after"), 300, 1448.0), "0.5.12"), 10)["accept_length_from"] == "gauge"


def test_a_counter_going_down_means_a_restart():
    with pytest.raises(M.MetricsError, match="restarted"):
        M.window(M.read(text("after"), "0.5.23"), M.read(text("idle"), "0.5.23"), 5)
    with pytest.raises(M.MetricsError, match="positive"):
        M.window(M.read(text("idle"), "0.5.23"), M.read(text("after"), "0.5.23"), 0)


def test_analyse_fails_each_threshold_and_no_traffic():
    w = M.window(M.read(text("idle"), "0.5.23"), M.read(text("busy"), "0.5.23"), 10)
    assert (w["requests"], w["errors"]) == (4, 1)
    ok = M.analyse(w, {"min_tokens_per_s": 5, "max_error_rate": 0.3}, speculative=False)
    assert ok["passed"] and ok["failures"] == []
    bad = M.analyse(w, {"min_tokens_per_s": 10, "max_error_rate": 0.2, "min_accept_length": 2.0})
    assert bad["failures"] == ["accept length 0.0 < 2.0", "generation throughput 5.9 tokens/s < 10",
                               "error rate 0.25 (1 of 4 requests) > 0.2"]
    # a non-speculative instance is not judged on accept length
    assert M.analyse(w, {"min_accept_length": 2.0}, speculative=False)["passed"]
    quiet = M.window(M.read(text("after"), "0.5.23"), M.read(text("after"), "0.5.23"), 10)
    assert M.analyse(quiet, {}, min_requests=1)["failures"][0].startswith("only 0 request(s)")
    with pytest.raises(M.MetricsError, match="unknown canary thresholds min_rps"):
        M.analyse(w, {"min_rps": 1})
    with pytest.raises(M.MetricsError, match="min_tokens_per_s must be a number, got 'fast'"):
        M.analyse(w, {"min_tokens_per_s": "fast"})


# ---- GET /metrics through the project's client (no proxy) --------------------------------------------

class _Server(http.server.BaseHTTPRequestHandler):
    body = b""
    code = 200

    def do_GET(self):  # noqa: N802
        self.send_response(self.code)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    srv = http.server.HTTPServer(("127.0.0.1", 0), _Server)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()


def test_probe_reads_the_server_and_ignores_proxies(server, monkeypatch):
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("no_proxy", "")
    _Server.body, _Server.code = text("busy").encode(), 200
    http = smoke.Http("http://127.0.0.1:%d" % server.server_port, timeout=5)
    got = M.probe(http, "0.5.23")
    assert got["state"] == "ok" and got["running"] == 3
    _Server.code = 404
    assert M.probe(http, "0.5.23")["state"] == "off"
    _Server.body, _Server.code = b"not prometheus {\n", 200
    assert M.probe(http, "0.5.23")["state"] == "error"
    assert M.probe(smoke.Http("http://127.0.0.1:9", timeout=2), "0.5.23")["state"] == "error"
    assert releases.release("0.5.23")["metrics_flag"] == "--enable-metrics"


# ---- status.yml's probe: server_plan action=status --------------------------------------------------

class _Sglang(http.server.BaseHTTPRequestHandler):
    """Answers as the lab server did: /health, /server_info (fixture), /metrics (the busy text)."""

    def do_GET(self):  # noqa: N802
        if self.path == "/metrics" and self.server.metrics_on:
            body, kind = text("busy").encode(), "text/plain; version=0.0.4"
        elif self.path == "/health":
            body, kind = b"", "text/plain"
        elif self.path in ("/server_info", "/get_server_info"):
            with open(os.path.join(os.path.dirname(FIX), "smoke", "server_info-0.5.23-plain.json"), "rb") as handle:
                body, kind = handle.read(), "application/json"
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_the_status_probe_reads_metrics_of_a_release_that_enables_them(tmp_path):
    import json

    from ansible_collections.specdeploy.sglang.plugins.modules import server_plan
    from test_module_sglang_flags import run_module

    servers = []
    for metrics_on in (True, False):  # SGLang without --enable-metrics answers /metrics with 404
        srv = http.server.HTTPServer(("127.0.0.1", 0), _Sglang)
        srv.metrics_on = metrics_on
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
    try:
        root = tmp_path / "opt"
        for name, srv in (("main", servers[0]), ("plain", servers[1])):
            rel_dir = root / "releases" / ("r-" + name)
            rel_dir.mkdir(parents=True)
            spec = {"sglang_version": "0.5.23", "model_path": "/m", "host": "127.0.0.1",
                    "port": srv.server_port, "enable_metrics": srv.metrics_on}
            (rel_dir / "release.json").write_text(json.dumps({"inputs": {"spec": spec}, "release_id": "r-" + name,
                                                         "instance": name, "status": "active", "argv": []}))
            (root / "instances" / name).mkdir(parents=True)
            os.symlink(str(rel_dir), str(root / "instances" / name / "current"))
        res = run_module(server_plan, {"action": "status", "settings": {"root": str(root)},
                                       "instances": [{"name": "main", "spec": {}}, {"name": "plain", "spec": {}}]})
    finally:
        for srv in servers:
            srv.shutdown()
    assert not res.get("failed"), res
    main, plain = res["instances"]
    assert main["health"] == 200 and main["metrics"]["state"] == "ok"
    assert (main["metrics"]["running"], main["metrics"]["errors_total"]) == (3, 1.0)
    assert plain["metrics"]["state"] == "off" and "404" in plain["metrics"]["error"]
    assert isinstance(res["drift"], list)  # the machine's own /proc: its content is not this test's


# ---- the canary analysis: canary() and the canary_metrics module -------------------------------------

class _Readings(http.server.BaseHTTPRequestHandler):
    """/metrics answers the server's next reading (real texts, in order), then keeps the last one."""

    def do_GET(self):  # noqa: N802
        queue = self.server.readings
        body = queue.pop(0) if len(queue) > 1 else queue[0]
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args):
        pass


@pytest.fixture
def readings():
    servers = []

    def serve(*texts):
        srv = http.server.HTTPServer(("127.0.0.1", 0), _Readings)
        srv.readings = list(texts)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
        return "http://127.0.0.1:%d" % srv.server_port
    serve.servers = servers
    yield serve
    for srv in servers:
        srv.shutdown()


def test_canary_passes_and_fails_on_real_readings(readings):
    slept = []
    good = readings(text("busy"), text("after"))            # 4 requests, 800 tokens, no error in the window
    errs = readings(text("idle"), text("busy"))             # 4 requests, one aborted
    off = readings(None)                                    # started without --enable-metrics
    targets = [{"name": "main", "url": good, "sglang_version": "0.5.23", "speculative": False},
               {"name": "second", "url": errs, "sglang_version": "0.5.23", "speculative": False},
               {"name": "third", "url": off, "sglang_version": "0.5.23", "speculative": False}]
    out = M.canary(targets, 20, {"min_tokens_per_s": 1, "max_error_rate": 0.1}, sleep=slept.append)
    assert slept == [20] and out["passed"] is False
    assert out["instances"]["main"]["passed"] and out["instances"]["main"]["window"]["tokens_per_s"] == 40.0
    assert out["failures"] == ["second: error rate 0.25 (1 of 4 requests) > 0.1",
                               "third: /metrics off: GET /metrics: 404 (started without --enable-metrics)"]


def test_canary_a_restart_inside_the_window_fails(readings):
    url = readings(text("after"), text("idle"))
    out = M.canary([{"name": "main", "url": url, "sglang_version": "0.5.23"}], 5, {}, sleep=lambda s: None)
    assert out["failures"] == ["main: a counter went down during the window: the server restarted"]


def test_the_canary_metrics_module(readings, tmp_path, monkeypatch):
    import json

    from ansible_collections.specdeploy.sglang.plugins.modules import canary_metrics
    from test_module_sglang_flags import run_module

    url = readings(text("idle"), text("busy"))
    root = tmp_path / "opt"
    (root / "releases" / "r1").mkdir(parents=True)
    (root / "instances" / "main").mkdir(parents=True)
    spec = {"sglang_version": "0.5.23", "model_path": "/m", "host": "127.0.0.1", "port": int(url.rsplit(":", 1)[1]),
            "enable_metrics": True}
    (root / "releases" / "r1" / "release.json").write_text(json.dumps({"inputs": {"spec": spec}, "release_id": "r1",
                                                                     "instance": "main", "status": "active", "argv": []}))
    os.symlink(str(root / "releases" / "r1"), str(root / "instances" / "main" / "current"))
    monkeypatch.setattr("time.sleep", lambda s: None)
    res = run_module(canary_metrics, {"root": str(root), "instances": ["main"], "seconds": 10,
                                      "thresholds": {"max_error_rate": 0.2}})
    assert res["failed"] is True and res["passed"] is False
    assert res["msg"] == "canary analysis failed: main: error rate 0.25 (1 of 4 requests) > 0.2"
    readings.servers[-1].readings = [text("idle"), text("busy")]  # the same window again
    res = run_module(canary_metrics, {"root": str(root), "instances": ["main"], "seconds": 10,
                                      "thresholds": {"max_error_rate": 0.3}})
    assert not res.get("failed") and res["passed"] is True, res
    res = run_module(canary_metrics, {"root": str(root), "instances": ["absent"], "seconds": 10})
    assert res["failed"] and "no current release record" in res["msg"]
    res = run_module(canary_metrics, {"root": str(root), "instances": ["main"], "seconds": 10,
                                      "thresholds": {"min_rps": 1}})
    assert res["failed"] and res["msg"].startswith("canary_metrics: unknown canary thresholds min_rps")


def test_status_md_shows_the_live_columns_and_the_drift_section():
    """status.md (plugins/module_utils/status.py, written by status.yml's status_report action)."""
    from ansible_collections.specdeploy.sglang.plugins.module_utils import status

    rows = [
        {"host": "a", "instance": "main", "release": "r1", "health": "healthy", "sglang_version": "0.5.23",
         "tokens_per_s": 1.9, "metrics": "ok", "live_accept_length": None, "live_tokens_per_s": 4.048,
         "running_requests": 0, "queued_requests": 0, "requests_total": 2.0, "errors_total": 0.0,
         "drift": ["SGLang process pid 3695 (python -m sglang.launch_server) runs outside any unit"]},
        {"host": "b", "instance": "main", "release": "r1", "health": "healthy", "metrics": "off", "drift": []},
        {"host": "c", "instance": "-", "health": "unreachable"},
    ]
    md = status.status_md(rows)
    lines = md.splitlines()
    head = [c.strip() for c in lines[2].split("|")[1:-1]]
    a, b, c = ([x.strip() for x in line.split("|")[1:-1]] for line in lines[4:7])
    assert len(head) == len(a) == len(b) == len(c) == 20
    cols = dict(zip(head, a))
    assert (cols["tokens/s (gate)"], cols["accept length (live)"], cols["tokens/s (live)"]) == ("1.9", "-", "4.048")
    assert (cols["running"], cols["queued"], cols["errors"], cols["drift"]) == ("0", "0", "0 of 2", "1")
    assert dict(zip(head, b))["accept length (live)"] == "off" and dict(zip(head, b))["drift"] == "none"
    assert lines[-1] == "- a: SGLang process pid 3695 (python -m sglang.launch_server) runs outside any unit"
    assert "## Drift" in md and "- b:" not in md
