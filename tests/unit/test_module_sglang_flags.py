"""The sglang_flags / sglang_probe / sglang_preflight modules, run the way Ansible runs them.

Fuzzed bad input (wrong types, unknown keys, unreadable config.json, garbage argv) must give a clear
failure (a message naming the problem), never a traceback or the internal-error fallback.
"""
import io
import json
import string
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.specdeploy.sglang.plugins.modules import sglang_flags, sglang_preflight, sglang_probe

GOOD = {"sglang_version": "0.5.23", "model_path": "/m", "attention_backend": "flashinfer", "max_running_requests": 16,
        "speculative": {"algorithm": "DFLASH", "draft_model_path": "/d", "block_size": 16}}


def run_module(mod, args, check_mode=False):
    args = dict(args, _ansible_check_mode=check_mode, _ansible_diff=True)
    basic._ANSIBLE_ARGS = to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": args}))
    basic._ANSIBLE_PROFILE = "legacy"
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        with pytest.raises(SystemExit):
            mod.main()
    finally:
        sys.stdout = old
    return json.loads(out.getvalue())


def assert_clear_failure(res):
    assert res.get("failed") is True, res
    msg = res["msg"]
    assert "Traceback" not in msg and "bug in specdeploy" not in msg, msg
    assert len(msg) > 20


def test_good_spec_passes_in_check_mode():
    res = run_module(sglang_flags, {"spec": GOOD, "gpus": [{"name": "RTX PRO 6000", "compute_capability": "12.0"}]},
                     check_mode=True)
    assert not res.get("failed") and res["ok"] and res["changed"] is False
    assert res["argv"][:2] == ["--model-path", "/m"]
    assert res["resolved"]["speculative_num_draft_tokens"] == 16


def test_override_fails_the_task_with_the_reason():
    spec = dict(GOOD, speculative=dict(GOOD["speculative"], eagle_topk=4))
    res = run_module(sglang_flags, {"spec": spec})
    assert_clear_failure(res)
    assert "SPEC_OVERRIDDEN" in res["msg"] and "speculative_eagle_topk" in res["msg"]
    res = run_module(sglang_flags, {"spec": spec, "fail_on_error": False})
    assert not res.get("failed") and res["ok"] is False


def test_previous_argv_gives_a_diff():
    res = run_module(sglang_flags, {"spec": GOOD, "previous_argv": ["--model-path", "/m", "--tp-size", "2"]})
    assert res["argv_diff"]["changed_flags"] == ["--tp-size"]
    assert '"--tp-size" "1"' in res["diff"]["after"] and '"--tp-size" "2"' in res["diff"]["before"]


def test_migrating_a_nextn_unit_reports_the_override_and_the_spec():
    res = run_module(sglang_flags, {"argv": "python3 -m sglang.launch_server --model-path /m --speculative-algorithm "
                                            "NEXTN --speculative-draft-model-path /d --speculative-num-steps 3 "
                                            "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
                                    "sglang_version": "0.5.23", "fail_on_error": False})
    assert res["spec"]["speculative"]["algorithm"] == "NEXTN"
    assert {"field": "speculative_algorithm", "requested": "NEXTN", "resolved": "EAGLE"} in res["overrides"]


@pytest.mark.parametrize("args,needle", [
    ({"spec": GOOD, "argv": ["--model-path", "/m"]}, "mutually exclusive"),
    ({}, "one of the following is required"),
    ({"argv": ["--model-path", "/m"]}, "sglang_version"),
    ({"spec": GOOD, "mode": "installed"}, "python"),
    ({"spec": dict(GOOD, sglang_version="0.4.0")}, "nearest known: 0.5.11"),
    ({"spec": dict(GOOD, speculatve={})}, "unknown key 'speculatve'"),
    ({"spec": dict(GOOD, tp_size="two")}, "spec.tp_size must be a integer"),
    ({"spec": GOOD, "draft_config": "/nonexistent/config.json"}, "cannot read /nonexistent/config.json"),
    ({"spec": GOOD, "target_config": 42}, "mapping or a path"),
    ({"argv": 12, "sglang_version": "0.5.23"}, "argv must be a list"),
    ({"argv": [{"a": 1}], "sglang_version": "0.5.23"}, "argv items must be strings"),
    ({"argv": "--model-path '/m", "sglang_version": "0.5.23"}, "cannot split the command line"),
    ({"argv": "--model-path /m --cuda-graph-max-bs 8", "sglang_version": "0.5.23"}, "ambiguous option"),
    ({"spec": GOOD, "mode": "installed", "python": "/nonexistent/bin/python"}, "does not exist"),
    ({"spec": GOOD, "gpus": "one"}, "gpus"),
    ({"spec": GOOD, "previous_argv": 5}, "previous_argv"),
])
def test_bad_input_fails_clearly(args, needle):
    res = run_module(sglang_flags, args)
    assert_clear_failure(res)
    assert needle in res["msg"], res["msg"]


def test_unreadable_config_file(tmp_path):
    p = tmp_path / "config.json"
    p.write_text("{")
    p.chmod(0o000)
    res = run_module(sglang_flags, {"spec": GOOD, "draft_config": str(p)})
    assert_clear_failure(res)
    assert "CONFIG_UNREADABLE" in res["msg"]


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-5, 10 ** 6) | st.floats(allow_nan=False) |
                       st.text(max_size=12),
                       lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                       max_leaves=8)
SPEC_KEYS = sorted(["sglang_version", "model_path", "tp_size", "dp_size", "pp_size", "attention_backend",
                    "context_length", "speculative", "extra_args", "env", "device", "mem_fraction_static", "bogus"])
FLAG_WORDS = st.sampled_from(["--model-path", "--speculative-algorithm", "--speculative-num-steps", "--tp-size",
                              "--speculative-draft-window", "--cuda-graph-max-bs", "--port", "-m", "--", "=", "--x="])


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(SPEC_KEYS), JSONISH, max_size=6),
       st.dictionaries(st.sampled_from(["algorithm", "block_size", "verify", "eagle_topk", "allow_overrides", "zz"]),
                       JSONISH, max_size=4))
def test_fuzzed_spec_never_crashes(spec, speculative):
    spec = dict(spec)
    if speculative:
        spec["speculative"] = speculative
    res = run_module(sglang_flags, {"spec": spec, "fail_on_error": True})
    if res.get("failed"):
        assert_clear_failure(res)
    else:
        assert res["ok"] is True


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(FLAG_WORDS, st.text(alphabet=string.printable, max_size=10)), max_size=12),
       st.sampled_from(["0.5.11", "0.5.16", "0.5.23", "1.0"]))
def test_garbage_argv_never_crashes(argv, version):
    res = run_module(sglang_flags, {"argv": argv, "sglang_version": version})
    if res.get("failed"):
        assert_clear_failure(res)


def test_probe_module_bad_python_fails_clearly():
    res = run_module(sglang_probe, {"python": "/nonexistent/python"})
    assert_clear_failure(res)
    assert "does not exist" in res["msg"]


def test_preflight_module_verdicts():
    bad = dict(GOOD, attention_backend="fa3")
    gpus = [{"compute_capability": "12.0"}]
    res = run_module(sglang_preflight, {"hosts": {
        "gpu1": {"server_instances": [{"name": "main", "spec": GOOD}], "sglang_expected_gpus": gpus},
        "gpu2": {"server_instances": [{"name": "main", "spec": bad}], "sglang_expected_gpus": gpus},
        "web": {"ansible_host": "x"}}, "fail_on_error": False})
    assert res["failed_hosts"] == ["gpu2", "web"] and res["hosts_without_instances"] == ["web"]
    verdicts = [line for line in res["lines"] if not line.startswith(" ")]   # (the flags and notes under each)
    assert verdicts[0].startswith("OK    gpu1/main") and "FA3_SM120" in verdicts[1]
    assert '        "--attention-backend" "fa3"' in res["lines"]
    res = run_module(sglang_preflight, {"hosts": {"gpu2": {"server_instances": [{"name": "main", "spec": bad}],
                                                           "sglang_expected_gpus": gpus}}})
    assert_clear_failure(res)
    assert "gpu2/main" in res["msg"]
    res = run_module(sglang_preflight, {"hosts": {"web": {}}})
    assert_clear_failure(res)
    assert "checked nothing" in res["msg"] and res["exit_code"] == 3


@pytest.mark.parametrize("argv,message", [
    (["--model-path", "/m", "--port", "70000"], "--port must be a port number 1-65535, got 70000"),
    (["--model-path", "/m", "--port", "0"], "--port must be a port number 1-65535, got 0"),
    ("python3 -m sglang.launch_server --model-path /m --port=-1", "--port must be a port number 1-65535, got -1"),
    (["--model-path", "/m", "--nccl-port", "65536"], "--nccl-port must be a port number 1-65535, got 65536"),
    (["--model-path", "/m", "--tp-size", "100000"], "--tp-size is 100000 GPUs: at most 1024"),
])
def test_argv_mode_range_checks_ports_and_sizes_as_the_spec_path(argv, message):
    """A hand-written command line gets the spec's input rules: the spec path refuses spec.port 70000, so
    --port 70000 in an argv is refused too (before any SGLang runs), naming the flag."""
    res = run_module(sglang_flags, {"argv": argv, "sglang_version": "0.5.23"})
    assert_clear_failure(res)
    assert message in res["msg"], res["msg"]
    spec_res = run_module(sglang_flags, {"spec": dict(GOOD, port=70000)})
    assert_clear_failure(spec_res)
    assert "spec.port must be a port number 1-65535, got 70000" in spec_res["msg"]
    ok = run_module(sglang_flags, {"argv": ["--model-path", "/m", "--port", "65535", "--nccl-port", "1"],
                                   "sglang_version": "0.5.23"})
    assert not ok.get("failed"), ok.get("msg")
