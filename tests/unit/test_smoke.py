"""smoke_decode logic: readiness, /server_info comparison, determinism, spec fields per version, gates.

The HTTP side is a scripted fake (`FakeHttp`); the real server is exercised in molecule/server.
Speculative payloads are CONSTRUCTED from each version's documented schema (fixtures/smoke/README.md).
"""
import copy
import json
import os

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "smoke")


def load(name):
    with open(os.path.join(FIX, name)) as handle:
        data = json.load(handle)
    data.pop("_source", None)
    return data


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t

    def sleep(self, s):
        self.t += s


class FakeHttp:
    """Answers per path; /generate from a function of the request body; health from a script."""

    def __init__(self, clock, health=None, info=None, generate=None, info_path="/server_info"):
        self.clock = clock
        self.health = list(health or [200])
        self.info = info if info is not None else {"version": "0.5.23", "speculative_algorithm": None}
        self.generate = generate or (lambda body: {"text": " out", "output_ids": [1, 2],
                                                   "meta_info": {"completion_tokens": 2}})
        self.info_path = info_path
        self.calls = []

    def request(self, method, path, body=None, timeout=None):
        self.calls.append(path)
        if path == "/health":
            item = self.health.pop(0) if len(self.health) > 1 else self.health[0]
            if isinstance(item, Exception):
                raise item
            return item, None
        if path in ("/server_info", "/get_server_info"):
            if path != self.info_path:
                return 404, {"detail": "Not Found"}
            return 200, self.info
        if path == "/generate":
            self.clock.t += 0.5
            return 200, copy.deepcopy(self.generate(body))
        return 404, None


def run(http, clock, **params):
    base = {"sglang_version": "0.5.23", "timeout": 30, "runs": 2, "max_new_tokens": 16}
    base.update(params)
    return smoke.run_smoke(http, base, clock=clock, sleep=clock.sleep, state_reader=None)


def test_waits_through_refused_and_503_then_passes():
    clock = Clock()
    http = FakeHttp(clock, health=[ConnectionRefusedError(111, "refused"), 503, 503, 200])
    res = run(http, clock)
    assert res["passed"], res["failures"]
    assert res["ready_after_s"] == 1.5  # three answers before the 200, polled every 0.5 s
    assert res["tokens_per_s"] == 4.0  # 2 tokens per 0.5 s
    assert len(res["outputs"]) == 3


def test_readiness_deadline_is_a_failure_naming_the_last_answer():
    clock = Clock()
    res = run(FakeHttp(clock, health=[503]), clock, timeout=5)
    assert not res["passed"]
    assert res["failures"] == ["readiness: not ready after 5 s (last /health: HTTP 503)"]


def test_dead_unit_ends_the_wait_early():
    clock = Clock()
    states = iter([{"ActiveState": "activating", "NRestarts": "0"},
                   {"ActiveState": "activating", "SubState": "auto-restart", "Result": "exit-code",
                    "NRestarts": "1"}])
    res = smoke.run_smoke(FakeHttp(clock, health=[ConnectionRefusedError(111, "refused")]),
                          {"sglang_version": "0.5.23", "timeout": 300, "service": "sglang-x.service"},
                          clock=clock, sleep=clock.sleep, state_reader=lambda s: next(states))
    assert not res["passed"]
    assert "sglang-x.service exited and was restarted by systemd" in res["failures"][0]
    assert "NRestarts=1" in res["failures"][0]
    assert clock.t < 5


def test_a_unit_that_ended_without_a_restart_ends_the_wait_early():
    """SGLang ends its own tree with SIGKILL when a child dies; counted as a clean exit, nothing restarts it."""
    clock = Clock()
    states = iter([{"ActiveState": "activating", "NRestarts": "0"},
                   {"ActiveState": "inactive", "SubState": "dead", "Result": "success", "NRestarts": "0"}])
    res = smoke.run_smoke(FakeHttp(clock, health=[ConnectionRefusedError(111, "refused")]),
                          {"sglang_version": "0.5.23", "timeout": 300, "service": "sglang-x.service"},
                          clock=clock, sleep=clock.sleep, state_reader=lambda s: next(states))
    assert not res["passed"]
    assert "sglang-x.service exited and systemd did not restart it" in res["failures"][0]
    assert "ActiveState=inactive" in res["failures"][0] and clock.t < 5


def test_old_server_info_endpoint_is_used_when_new_one_is_missing():
    clock = Clock()
    http = FakeHttp(clock, info={"speculative_algorithm": None, "model_path": "/m"}, info_path="/get_server_info")
    res = run(http, clock, expect={"model_path": "/m/"})
    assert res["passed"], res["failures"]
    assert res["server_info_path"] == "/get_server_info"


def test_server_info_mismatch_names_field_and_values():
    clock = Clock()
    info = {"speculative_algorithm": "DFLASH", "speculative_num_draft_tokens": 8, "speculative_eagle_topk": 1}
    res = run(FakeHttp(clock, info=info), clock,
              expect={"speculative_num_draft_tokens": 16, "speculative_eagle_topk": 1,
                      "speculative_algorithm": "DFLASH", "speculative_ddtree_budget": 15})
    assert not res["passed"]
    fields = {m["field"] for m in res["mismatches"]}
    assert fields == {"speculative_num_draft_tokens", "speculative_ddtree_budget"}
    assert any("speculative_num_draft_tokens is 8, intended 16" in f for f in res["failures"])
    assert any("(field absent)" in f for f in res["failures"])


def test_nondeterministic_output_fails():
    clock = Clock()
    counter = {"n": 0}

    def gen(body):
        counter["n"] += 1
        return {"text": " v%d" % counter["n"], "output_ids": [counter["n"]], "meta_info": {"completion_tokens": 1}}

    res = run(FakeHttp(clock, generate=gen), clock)
    assert not res["passed"]
    assert any("differs between runs" in f for f in res["failures"])


def test_empty_output_fails():
    clock = Clock()
    res = run(FakeHttp(clock, generate=lambda b: {"text": "", "output_ids": [], "meta_info": {"completion_tokens": 0}}),
              clock)
    assert any("empty output" in f for f in res["failures"])


def test_gates_tokens_per_s_and_expected_text():
    clock = Clock()
    res = run(FakeHttp(clock), clock, min_tokens_per_s=100, expect_substrings=["out", "never-said"])
    assert not res["passed"]
    assert any("below the minimum 100" in f for f in res["failures"])
    assert any("'never-said' not found" in f for f in res["failures"])
    assert not any("'out' not found" in f for f in res["failures"])


@pytest.mark.parametrize("version,fixture,accept,schema", [
    ("0.5.11", "generate-0.5.11-dflash.json", 3.2, "0.5.11"),
    # 0.5.12 introduced the spec_num_* names and kept the old ones as aliases (its tokenizer manager):
    # a 0.5.13 reader takes either
    ("0.5.13", "generate-0.5.11-dflash.json", 3.2, "0.5.12"),
    ("0.5.16", "generate-0.5.16-dflash.json", 4.0, "0.5.12"),
    # 0.5.21 dropped the aliases (its tokenizer manager): the names-only schema is named after it
    ("0.5.21", "generate-0.5.23-dflash.json", 2.0, "0.5.21"),
    ("0.5.23", "generate-0.5.23-dflash.json", 2.0, "0.5.21"),
    ("0.5.23.post1", "generate-0.5.23-dflash.json", 2.0, "0.5.21"),
])
def test_spec_fields_per_version(version, fixture, accept, schema):
    payload = load(fixture)
    spec = smoke.read_spec_fields(payload["meta_info"], version)
    assert spec["schema"] == schema
    assert spec["accept_length"] == accept
    assert spec["correct_drafts"] is not None and spec["proposed_drafts"] is not None
    clock = Clock()
    res = run(FakeHttp(clock, generate=lambda b: payload, info={"speculative_algorithm": "DFLASH"}), clock,
              sglang_version=version, speculative=True, min_accept_length=1.5,
              expect={"speculative_algorithm": "DFLASH"})
    assert res["passed"], res["failures"]
    assert res["accept_length"] == accept
    assert res["spec_schema"] == schema


def test_0_5_23_reader_does_not_take_0_5_11_names():
    """0.5.23 dropped the aliases: a 0.5.11-shaped payload has no correct-draft count for it."""
    spec = smoke.read_spec_fields(load("generate-0.5.11-dflash.json")["meta_info"], "0.5.23")
    assert spec["correct_drafts"] is None
    spec = smoke.read_spec_fields(load("generate-0.5.23-dflash.json")["meta_info"], "0.5.11")
    assert spec["correct_drafts"] is None


def test_speculation_expected_but_absent_is_a_failure():
    clock = Clock()
    res = run(FakeHttp(clock, generate=lambda b: load("generate-0.5.23-plain.json")), clock, speculative=True)
    assert not res["passed"]
    assert any("speculative decoding expected" in f for f in res["failures"])


def test_accept_length_below_minimum_fails():
    clock = Clock()
    payload = load("generate-0.5.23-dflash.json")
    res = run(FakeHttp(clock, generate=lambda b: payload), clock, speculative=True, min_accept_length=2.5)
    assert not res["passed"]
    assert res["failures"] == ["accept length 2.000 below the minimum 2.5"]


def test_speculation_present_but_not_intended_fails():
    clock = Clock()
    res = run(FakeHttp(clock, generate=lambda b: load("generate-0.5.23-dflash.json")), clock, speculative=False)
    assert any("none was intended" in f for f in res["failures"])


def test_unknown_old_version_is_a_clear_error():
    with pytest.raises(smoke.SmokeError, match="known schemas"):
        smoke.run_smoke(FakeHttp(Clock()), {"sglang_version": "0.5.10", "speculative": True})


def test_runs_below_two_is_refused():
    with pytest.raises(smoke.SmokeError, match="runs must be >= 2"):
        smoke.run_smoke(FakeHttp(Clock()), {"sglang_version": "0.5.23", "runs": 1})


def test_real_plain_payload_from_the_cpu_server():
    clock = Clock()
    payload = load("generate-0.5.23-plain.json")
    info = load("server_info-0.5.23-plain.json")
    res = run(FakeHttp(clock, generate=lambda b: payload, info=info), clock,
              expect={"speculative_algorithm": None, "model_path": info["model_path"]})
    assert res["passed"], res["failures"]
    assert res["accept_length"] is None
