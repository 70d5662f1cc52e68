"""Hostile input to every module, through its AnsibleModule entry point (main(), the arguments as Ansible
passes them, check mode), as an attacker or a careless inventory would give it.

For each module: the option meanings below (a port, a size, a URL, an instance name, ...) are this
test's own, written from the module docs, not read from the module; the hostile values are generated
from them (wrong types, negative and huge numbers, control characters, unicode, path tricks) and from
each option's argument_spec type (recorded from the AnsibleModule the module builds). Asserted:
- no traceback (an exception out of main(), or a result that carries one);
- every value marked invalid ends in a failure (failed: true, a message naming the option or value);
- no injected line in a unit rendered from any value that was accepted (server_plan action=lines,
  rendered with the role's own template and read back with systemd's line rules), and the
  EnvironmentFile written by action=secrets reads back as given.
Counts are printed. Runs in a few seconds; no network (URLs point at closed local ports).
"""
import io
import json
import os
import signal
import sys
import traceback

import pytest
import yaml

from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.specdeploy.sglang.plugins.modules import (
    await_job, canary_metrics, deploy_state, gateway_workers, gpu_env_host, gpu_facts, monitoring_config,
    report_files, rollout, server_plan, server_release, sglang_flags, sglang_preflight, sglang_probe, smoke_decode,
    status_report, weights_draft_check, weights_manifest, weights_stage)
from ansible_collections.specdeploy.sglang.plugins.action import report_files as report_files_action
from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs

import systemd_model as model

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLOSED = "http://127.0.0.1:9"        # discard port: nothing listens, a connection is refused at once
SHA = "a" * 64

# ---- generated hostile values ----------------------------------------------------------------------
# (a lone surrogate such as "\ud800" is no value Ansible can pass: its own JSON decoding of the module
# arguments raises first; inputs.value_problem refuses it all the same, tested in test_inputs.py)
CONTROL = ["x\ry", "x\x00y", "x\ny", "x\x1by", "x\x85y", "x\u2028y", "x\x7fy"]
HUGE = "A" * (inputs.MAX_VALUE + 1)
UNICODE_OK = ["ünïcødé", "模型", "emoji \U0001F600"]
TRICKS_OK = ['q"uo\'te', "back\\slash\\", "%n%%", "$HOME$$", "; ls", "--flag"]
PATHS_BAD = ["../../etc", "a/../../b", "/", ".."]
BY_KIND = {
    # kind: (invalid values, values that may be valid: no traceback either way)
    "port": ([-1, 0, 65536, 70000, 10 ** 20, "http", 1.5, True], [1, 65535]),
    "size": ([-1, -10 ** 18, "lots", float("nan")], [0, 10 ** 15]),
    "count": ([0, -1, -10 ** 9], [1]),
    "positive": ([0, -1, -0.5, float("nan"), float("inf")], [0.001, 0.5]),
    "mode": ([-1, "7777", "4755", "1777", "0o644x", "rwx", 4095, "99"], ["0644", "600", 0o640]),
    "url": (["", "not a url", "ftp://h/", "http://", "http://h:70000/", "http://h\r\nX: y", "//h"] + CONTROL[:2],
            [CLOSED + "/", "https://[::1]:9"]),
    "instance": (["../x", "a/b", "", "Main", "x" * 42, ".x", "-x"] + CONTROL + [HUGE], ["main", "a-b_1"]),
    "release_id": (["../x", "a/b", "", ".x", "..", "/etc"] + CONTROL + [HUGE], ["0123456789abcdef"]),
    "text": (CONTROL + [HUGE], UNICODE_OK + TRICKS_OK),
    "path": (CONTROL + [HUGE], UNICODE_OK),
    "version": (["0.5.23\rUser=root", "../0.5", "", "0.5 23", "%n"] + CONTROL[:2], ["0.5.23", "0.5.10rc1"]),
    "nonempty_list": ([[]], []),
}
BY_TYPE = {
    # argument_spec type: values no conversion can make of that type
    "int": ["abc", [1], {"a": 1}, 1.5],
    "float": ["abc", [1], {"a": 1}],
    "bool": ["maybe", [1], {"a": 1}],
    "dict": [[1, 2], 5, "not a mapping"],
    "list": [{"a": 1}],
}

# ---- the modules: safe base arguments, and what each option means --------------------------------


def _bases(tmp):
    models = os.path.join(tmp, "models")
    os.makedirs(models, exist_ok=True)
    cfg = os.path.join(tmp, "config.json")
    with open(cfg, "w") as fh:
        json.dump({"architectures": ["Qwen3ForCausalLM"], "hidden_size": 64}, fh)
    spec = {"sglang_version": "0.5.23", "model_path": "/m", "port": 30000}
    inst = {"name": "main", "spec": spec, "cuda_visible_devices": "0"}
    lock = {"header": {"download_bytes": "1000", "python": "3.11"}, "packages": {}}
    return {
        await_job: ({"jid": "1"}, {"total_bytes": "size", "poll": "count", "timeout": "count", "label": "text",
                                    "path": "path"}),
        canary_metrics: ({"root": tmp, "instances": ["main"], "seconds": 0.01},
                         {"instances": ("instance", "nonempty_list"), "seconds": "positive", "min_requests": "size",
                          "root": "path"}),
        deploy_state: ({"action": "check", "root": tmp, "key": "k", "instances": ["main"], "timeout": 0.2,
                        "config_dir": tmp},
                       {"instances": "instance", "timeout": "positive", "root": "path", "config_dir": "path",
                        "replaces": "text", "key": "text"}),
        gateway_workers: ({"action": "list", "url": CLOSED, "request_timeout": 0.2, "timeout": 0.2},
                          {"url": "url", "timeout": "positive", "request_timeout": "positive"}),
        gpu_env_host: ({"lock": lock, "env_root": tmp, "tmp_dir": tmp, "cache_dir": tmp},
                       {"install_size_factor": "positive", "reserve_bytes": "size", "env_root": "path",
                        "tmp_dir": "path", "cache_dir": "path", "python": "path"}),
        gpu_facts: ({"require_gpu": False}, {"min_gpus": "size", "cuda_version": "text",
                                             "min_driver_version": "text"}),
        # the module file of an action plugin: run directly it computes from `hosts` (monitoring_config) or
        # refuses (rollout); the hostile values must still end in a clean failure, never a traceback
        monitoring_config: ({"hosts": {}, "paths": {"targets": tmp, "rules": tmp, "gateway_targets": tmp}}, {}),
        report_files: ({"dest_dir": tmp, "files": {"a.md": "x"}}, {"mode": "mode", "dest_dir": "path"}),
        rollout: ({"step": "summary"}, {}),
        status_report: ({"step": "report"}, {}),
        server_plan: ({"action": "lines", "program": ["/py", "-m", "sglang.launch_server"],
                       "validation": {"ok": True, "argv": ["--model-path", "/m"], "env": {}}, "instance": inst},
                      {"timeout": "positive"}),
        server_release: ({"action": "id", "root": tmp, "instance": "main", "inputs": {"a": 1}},
                         {"instance": "instance", "port": "port", "keep": "count", "root": "path",
                          "release_id": "release_id"}),
        sglang_flags: ({"spec": spec}, {"timeout": "positive", "sglang_version": "version"}),
        sglang_preflight: ({"hosts": {"h": {"server_instances": [inst]}}}, {}),
        sglang_probe: ({"python": "/nonexistent/python", "timeout": 5}, {"timeout": "positive", "python": "path"}),
        smoke_decode: ({"url": CLOSED, "sglang_version": "0.5.23", "timeout": 1},
                       {"url": "url", "timeout": "positive", "max_new_tokens": "count", "runs": "count",
                        "min_accept_length": "size", "min_tokens_per_s": "size", "sglang_version": "version"}),
        weights_draft_check: ({"target": cfg, "draft": cfg}, {"target": "path", "draft": "path",
                                                              "sglang_version": "version"}),
        weights_manifest: ({"path": models}, {"workers": "size", "path": "path"}),
        weights_stage: ({"action": "plan", "repo": "org/name", "commit": "c" * 40, "models_root": models,
                         "manifest": {"config.json": {"sha256": SHA, "size": 10}}},
                        {"workers": "size", "reserve_bytes": "size", "models_root": "path", "repo": "text",
                         "commit": "text"}),
    }


# Nested values the option types cannot see: (module, args on top of the base, must fail)
NESTED = [
    (weights_stage, {"manifest": {"../../etc/passwd": SHA}}, True),
    (weights_stage, {"manifest": {"a": {"sha256": SHA, "size": -5}}}, True),
    (weights_stage, {"sizes": {"config.json": -1}}, True),
    (weights_stage, {"sizes": {"config.json": "big"}}, True),
    (weights_stage, {"manifest": {"a": [1]}}, True),
    (weights_stage, {"repo": "../x", "commit": "c"}, True),
    (gpu_env_host, {"lock": {"header": {"download_bytes": "lots"}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {"download_bytes": "-5"}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": "x", "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {"glibc_min": "abc"}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {"glibc_min": 5}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {"glibc_min": "99.0"}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {"python": 5}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {"driver_min": "x", "cuda": "x"}, "packages": {}}}, True),
    (gpu_env_host, {"lock": {"header": {}, "packages": {"a": 5}, "driver": "x", "flashinfer": "x"}}, True),
    (gpu_env_host, {"action": "runtime", "venv": "/nonexistent", "lock": {"header": {}, "packages": {},
                                                                          "driver": "x"}}, True),
    (gpu_env_host, {"lock": {"header": {"download_bytes": [1]}, "packages": {}}}, True),
    (gateway_workers, {"hosts": {"h": {"instances": [{"name": "a", "spec": {"port": "x"}}]}}}, True),
    (gateway_workers, {"hosts": {"h": {"instances": [{"name": "a", "spec": {"port": 70000}}]}}}, True),
    (gateway_workers, {"hosts": {"h": "x"}}, True),
    (gateway_workers, {"hosts": {"h": {"instances": "x"}}}, True),
    (server_plan, {"action": "plan", "instance": {"name": "main", "spec": {"sglang_version": "0.5.23",
                                                                            "port": "x"}}}, True),
    (server_plan, {"action": "smoke_args", "instance": {"name": "main", "spec": {"port": "x"}}}, True),
    (server_plan, {"action": "smoke_args", "instance": {"name": "main", "spec": {"port": 0}}}, True),
    (server_plan, {"action": "plan", "instance": {"name": "a\x00b"}}, True),
    (server_plan, {"action": "plan", "instance": {"name": "main", "spec": {"sglang_version": "0.5.23"}},
                   "settings": {"root": "/x\x00y"}}, True),
    (server_plan, {"action": "plan", "mode": "rollback", "instance": {"name": "main"},
                   "settings": {"rollback_to": "../../etc"}}, True),
    (server_plan, {"action": "status", "instances": [{"name": "main"}], "settings": {"config_dir": "/e\x00"}}, True),
    (server_plan, {"action": "plan", "instance": {"name": "main", "spec": {"sglang_version": "0.5.23"}},
                   "settings": {"replaces_units": ["x; rm"]}}, True),
    (server_plan, {"action": "finish", "plan": {}}, True),
    (server_plan, {"action": "finish", "plan": {"rel_dir": 5}, "status": "active"}, True),
    (server_plan, {"action": "secrets", "instance": {"name": "../../x"}, "secrets": {"A": "b"}}, True),
    (server_plan, {"action": "secrets", "instance": {"name": "main"}, "secrets": {"A": {"b": 1}}}, True),
    (server_plan, {"action": "secrets", "instance": {"name": "main"}, "secrets": {"A B": "c"}}, True),
    (server_plan, {"action": "status", "instances": [{"name": "../x"}]}, True),
    (server_plan, {"action": "status", "instances": [{"name": "main", "spec": {"port": -1}}]}, True),
    (server_plan, {"action": "lines", "runtime_env": {"PATH": "x\ry"}}, True),
    (server_plan, {"action": "lines", "validation": {"ok": True, "argv": ["--x", "a\rb"], "env": {}}}, True),
    (server_plan, {"action": "lines", "validation": {"ok": True, "argv": "notalist", "env": {}}}, True),
    (server_plan, {"action": "lines", "validation": {"ok": True, "argv": [], "env": {"A": "\x00"}}}, True),
    (server_plan, {"action": "lines", "validation": {"ok": True, "argv": [], "env": "x"}}, True),
    (server_plan, {"action": "lines", "program": ["/py\r", "-m"]}, True),
    (server_plan, {"action": "lines", "instance": {"name": "main", "cuda_visible_devices": "0\rUser=root"}}, True),
    (server_plan, {"action": "lines", "instance": {"name": "main", "cuda_visible_devices": ["0"]}}, True),
    (server_plan, {"action": "lines", "instance": {"name": "main", "spec": "x"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"user": "root\nUser=root"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"group": "0"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"config_dir": "/etc/spec deploy"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"config_dir": "/etc/%n"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"root": "relative"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"device_allow": ["char-nvidia rw\rUser=root"]}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"device_allow": "char-nvidia rw"}}, True),
    (server_plan, {"action": "lines", "unit_settings": {"user": "sglang", "group": "sglang", "root": "/opt/specdeploy",
                                                        "config_dir": "/etc/specdeploy",
                                                        "device_allow": ["char-nvidia-uvm rw", "/dev/nvidia0 rw"]}},
     False),
    (server_release, {"action": "preflight", "port": 0}, True),
    (server_release, {"action": "preflight", "port": 70000}, True),
    (server_release, {"action": "activate", "release_id": "../../etc"}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23", "model_path": "/m", "port": 70000}}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23", "model_path": "/m", "tp_size": 10 ** 6}}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23", "model_path": "/m", "tp_size": -2}}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23", "model_path": "/m", "tp_size": "8"}}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23", "model_path": "/m", "served_model_name": "a\rb"}}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23", "model_path": "/m", "extra_args": ["--x", "\x00"]}}, True),
    (sglang_flags, {"spec": {"sglang_version": "0.5.23\rUser=root", "model_path": "/m"}}, True),
    (sglang_flags, {"spec": None, "argv": ["--model-path", "/m\r"], "sglang_version": "0.5.23"}, True),
    (sglang_flags, {"spec": None, "argv": "--model-path /m --served-model-name a\x00b", "sglang_version": "0.5.23"},
     True),
    (sglang_flags, {"spec": None, "argv": ["--model-path", "/m"], "env": {"A": "x\ry"}, "sglang_version": "0.5.23"},
     True),
    # argv mode: the spec's port and parallel-size rules (inputs.parsed_args_problems) for what the argv sets
    (sglang_flags, {"spec": None, "argv": ["--model-path", "/m", "--port", "70000"], "sglang_version": "0.5.23"}, True),
    (sglang_flags, {"spec": None, "argv": "--model-path /m --port=0", "sglang_version": "0.5.23"}, True),
    (sglang_flags, {"spec": None, "argv": ["--model-path", "/m", "--nccl-port", "-1"], "sglang_version": "0.5.23"}, True),
    (sglang_flags, {"spec": None, "argv": ["--model-path", "/m", "--tp-size", "1000000"], "sglang_version": "0.5.23"},
     True),
    (sglang_flags, {"spec": None, "argv": ["--model-path", "/m", "--port", "65535"], "sglang_version": "0.5.23"},
     False),
    (server_release, {"action": "record", "release_id": "0123456789abcdef", "instance": "../x", "unit_text": "u",
                      "record": {"release_id": "r", "instance": "x", "status": "staged", "inputs": {}, "argv": []}},
     True),
    (server_release, {"action": "record", "release_id": "0123456789abcdef", "unit_text": "u", "instance": None,
                      "record": {"release_id": "r", "instance": "x", "status": "staged", "inputs": {}, "argv": []}},
     True),
    (sglang_preflight, {"hosts": {"h": {"server_instances": [{"name": "../x", "spec": {
        "sglang_version": "0.5.23", "model_path": "/m"}}]}}}, True),
    (sglang_preflight, {"hosts": {"h": {"server_instances": [{"name": "main", "cuda_visible_devices": "0\r", "spec": {
        "sglang_version": "0.5.23", "model_path": "/m"}}]}}}, True),
    (sglang_preflight, {"hosts": {"h": {"server_instances": [{"name": "main", "spec": {
        "sglang_version": "0.5.23", "model_path": "/m", "port": 0}}]}}}, True),
    (sglang_preflight, {"hosts": {"h": {"server_instances": [{"name": "main", "spec": {
        "sglang_version": "0.5.23", "model_path": "/m", "env": {"A": "x\ry"}}}]}}}, True),
    (sglang_preflight, {"hosts": {"h": {"server_instances": "x"}}}, True),
    (sglang_preflight, {"hosts": {"h": 5}}, True),
    (deploy_state, {"action": "record", "instances": ["../x"]}, True),
    (deploy_state, {"desired": {"main": "x"}}, False),
    (canary_metrics, {"thresholds": {"min_accept_length": "x"}}, True),
    (smoke_decode, {"prompts": []}, True),
    (smoke_decode, {"prompts": ["def f(n):\n    return n\n"], "expect_substrings": ["\t"]}, False),
    (weights_stage, {"action": "check", "paths": ["/nonexistent"], "repo": "org/name", "commit": "c"}, True),
]


def _config_case(tmp, content):
    path = os.path.join(tmp, "cfg-%d.json" % abs(hash(content)))
    with open(path, "w") as fh:
        fh.write(content)
    return path


# ---- running a module as Ansible does ---------------------------------------------------------------

class Recorder:
    specs = {}


_init = basic.AnsibleModule.__init__


def _recording_init(self, argument_spec, *args, **kwargs):
    Recorder.specs[Recorder.current] = argument_spec
    _init(self, argument_spec, *args, **kwargs)


# one module run with these arguments is quick (no server anywhere): longer is a hang
RUN_LIMIT = 10.0


class Hung(Exception):
    pass


def _hung(_signum, _frame):
    raise Hung("the module ran for more than %s s" % RUN_LIMIT)


def run_module(mod, args, check_mode=True):
    """(result dict, traceback text or None)."""
    Recorder.current = mod
    args = dict(args, _ansible_check_mode=check_mode)
    try:
        payload = json.dumps({"ANSIBLE_MODULE_ARGS": args}, allow_nan=True)
    except (TypeError, ValueError):
        return None, None
    basic._ANSIBLE_ARGS = to_bytes(payload, errors="surrogatepass")
    basic._ANSIBLE_PROFILE = "legacy"
    out, old = io.StringIO(), sys.stdout
    sys.stdout = out
    tb = None
    signal.signal(signal.SIGALRM, _hung)
    signal.setitimer(signal.ITIMER_REAL, RUN_LIMIT)
    try:
        mod.main()
    except SystemExit:
        pass
    except BaseException:   # any exception out of main() is a traceback the user would see
        tb = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout = old
    text = out.getvalue()
    try:
        res = json.loads(text) if text else {}
    except ValueError:
        res = {"unparsable": text}
    if tb is None and ("Traceback (most recent call last)" in text or res.get("exception")):
        tb = text
    return res, tb


@pytest.fixture
def counts(capsys):
    c = {"unnamed": [], "runs": 0, "invalid": 0, "refused": 0, "accepted_invalid": [], "tracebacks": [], "injections": [],
         "units": 0, "env_files": 0}
    yield c
    with capsys.disabled():
        print("\nfuzz: %(runs)d module runs, %(invalid)d invalid values, %(refused)d refused, "
              "%(units)d units and %(env_files)d EnvironmentFiles read back; " % c
              + "%d wrong accepts, %d tracebacks, %d injections" % (
                  len(c["accepted_invalid"]), len(c["tracebacks"]), len(c["injections"])))


TIMES = {}


def _check(counts, mod, args, must_fail, label, check_mode=True, option=None):
    import time
    t0 = time.monotonic()
    res, tb = run_module(mod, args, check_mode)
    TIMES[mod.__name__] = TIMES.get(mod.__name__, 0) + time.monotonic() - t0
    if res is None:
        return None
    counts["runs"] += 1
    name = mod.__name__.rsplit(".", 1)[-1]
    if tb:
        counts["tracebacks"].append("%s %s: %s" % (name, label, tb.strip().splitlines()[-1][:300]))
        return res
    if must_fail:
        counts["invalid"] += 1
        if res.get("failed"):
            counts["refused"] += 1
            if option and option not in str(res.get("msg")):
                counts["unnamed"].append("%s %s: %s" % (name, label, str(res.get("msg"))[:200]))
        else:
            counts["accepted_invalid"].append("%s %s" % (name, label))
    return res


def test_hostile_values_through_every_module(tmp_path, monkeypatch, counts):
    monkeypatch.setattr(basic.AnsibleModule, "__init__", _recording_init)
    tmp = str(tmp_path)
    bases = _bases(tmp)
    # every module file is in the table
    names = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "plugins", "modules")) if f.endswith(".py"))
    assert names == sorted(m.__name__.rsplit(".", 1)[-1] for m in bases)
    for mod, (base, meanings) in bases.items():
        _check(counts, mod, base, False, "base")
        spec = Recorder.specs.get(mod) or {}
        assert spec, "%s built no AnsibleModule" % mod.__name__
        for option, opt in spec.items():
            for value in BY_TYPE.get(opt.get("type"), []):
                _check(counts, mod, dict(base, **{option: value}), True, "%s=%r" % (option, value), option=option)
            kinds = meanings.get(option, ())
            kinds = kinds if isinstance(kinds, tuple) else (kinds,)
            for kind in kinds:
                bad, maybe = BY_KIND[kind]
                as_list = opt.get("type") == "list" and kind != "nonempty_list"
                for value in bad:
                    if opt.get("type") == "int" and value == float("inf"):
                        continue  # ansible-core's own check_type_int raises OverflowError on it (2.19)
                    _check(counts, mod, dict(base, **{option: [value] if as_list else value}), True,
                           "%s=%r" % (option, value if len(repr(value)) < 60 else repr(value)[:60]), option=option)
                for value in maybe:
                    _check(counts, mod, dict(base, **{option: [value] if as_list else value}), False,
                           "%s=%r" % (option, value))
    for mod, extra, must_fail in NESTED:
        _check(counts, mod, dict(bases[mod][0], **extra), must_fail, "%r" % (extra,))
    # config.json shapes the drafter check reads
    for content in ("[1, 2]", '"a string"', "null", "5", "{", ""):
        cfg = _config_case(tmp, content)
        _check(counts, weights_draft_check, {"target": cfg, "draft": cfg}, True, "config.json %r" % content)
    assert not counts["tracebacks"], "\n".join(counts["tracebacks"])
    assert not counts["accepted_invalid"], "\n".join(counts["accepted_invalid"])
    assert not counts["unnamed"], "failures that do not name the option:\n" + "\n".join(counts["unnamed"])
    assert counts["refused"] == counts["invalid"] > 300


def test_symlinks_out_of_a_model_directory_are_refused(tmp_path, counts):
    outside = tmp_path / "secret"
    outside.write_text("root:x:0:0")
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    (model_dir / "config.json").write_text("{}")
    (model_dir / "leak.bin").symlink_to(outside)
    res = _check(counts, weights_manifest, {"path": str(model_dir)}, True, "symlink out")
    assert "leads out of" in res["msg"] and "leak.bin" in res["msg"]
    # a staging directory whose file is a link out is not published
    root = tmp_path / "models"
    staging = root / ".staging" / "org--name@c"
    staging.mkdir(parents=True)
    (staging / "leak.bin").symlink_to(outside)
    import hashlib
    digest = hashlib.sha256(outside.read_bytes()).hexdigest()
    res = _check(counts, weights_stage, {"action": "stage", "repo": "org/name", "commit": "c", "models_root": str(root),
                                         "manifest": {"leak.bin": {"sha256": digest, "size": 10}}}, True, "stage link",
                 check_mode=False)
    assert not res.get("changed") and "leads out of" in res["msg"]
    assert not (root / "org--name@c").exists()
    # nor verified in place
    res = _check(counts, weights_stage, {"action": "verify", "path": str(staging),
                                         "manifest": {"leak.bin": {"sha256": digest, "size": 10}}}, True, "verify link")
    assert "leads out of" in res["msg"]
    assert not counts["tracebacks"] and not counts["accepted_invalid"]


def test_report_files_mode_is_a_file_mode_without_special_bits(tmp_path, counts):
    for value in BY_KIND["mode"][0]:
        counts["invalid"] += 1
        with pytest.raises(ValueError):
            report_files_action.file_mode(value)
        counts["refused"] += 1
    for value, want in (("0644", 0o644), ("600", 0o600), (0o640, 0o640)):
        assert report_files_action.file_mode(value) == want
    with pytest.raises(ValueError, match="control character CR"):
        report_files_action.write_files(str(tmp_path), {"a\rb": "x"})
    assert os.listdir(tmp_path) == []


def test_no_accepted_value_injects_a_line_into_the_unit_or_the_environment_file(tmp_path, counts):
    """Every generated value goes into each place of the unit (an argv word, a spec env value, the GPUs,
    the runtime env) and into the secrets file; what the module accepts is rendered and read back."""
    values = CONTROL + UNICODE_OK + TRICKS_OK + [HUGE, "", " ", "x" * 1000, "User=root", "[Service]",
                                                 "\\", '"', "'", "%", "$", "\\\n", "a\\"]
    inst = {"name": "main", "spec": {"sglang_version": "0.5.23"}}
    base_lines, _tb = run_module(server_plan, {"action": "lines", "program": ["/py"], "instance": inst,
                                               "validation": {"ok": True, "argv": ["--a", "b"], "env": {"E": "v"}}})
    shape = [d[:2] for d in model.directives(model.render_role_unit(base_lines, inst))]
    for value in values:
        for where in ("argv", "env", "cvd", "runtime_env"):
            argv, env, cvd, renv = ["--a", "b"], {"E": "v"}, None, {}
            if where == "argv":
                argv = ["--a", value]
            elif where == "env":
                env = {"E": value}
            elif where == "cvd":
                cvd = value
            else:
                renv = {"PATH": value}
            this = dict(inst, cuda_visible_devices=cvd) if cvd is not None else inst
            res = _check(counts, server_plan, {"action": "lines", "program": ["/py"], "instance": this,
                                               "runtime_env": renv,
                                               "validation": {"ok": True, "argv": argv, "env": env}},
                         bool(inputs.value_problem(value)), "lines %s=%r" % (where, value[:40]))
            if not res or res.get("failed"):
                continue
            counts["units"] += 1
            unit = model.render_role_unit(res, this)
            got = model.directives(unit)
            want = list(shape)
            for _extra in range((cvd is not None) + bool(renv)):
                want.insert(want.index(("Service", "Environment")), ("Service", "Environment"))
            if [d[:2] for d in got] != want:
                counts["injections"].append("%s=%r: %s" % (where, value[:40], [
                    d[:2] for d in got if d[:2] not in shape or d[1] == "Environment"]))
                continue
            execstart = model.exec_words([d[2] for d in got if d[1] == "ExecStart"][0])
            envs = {}
            for d in got:
                if d[1] == "Environment":
                    envs.update(model.environment_assignments(d[2]))
            if execstart != ["/py"] + argv or envs.get("E") != env["E"] or (cvd is not None and envs.get(
                    "CUDA_VISIBLE_DEVICES") != cvd) or (renv and envs.get("PATH") != value):
                counts["injections"].append("%s=%r read back differently" % (where, value[:40]))
        # the secrets file, written for real (not check mode) under tmp
        res, tb = run_module(server_plan, {"action": "secrets", "instance": {"name": "main"},
                                           "settings": {"config_dir": str(tmp_path)},
                                           "secrets": {"HF_TOKEN": value, "NEXT": "n"}}, check_mode=False)
        counts["runs"] += 1
        if tb:
            counts["tracebacks"].append("secrets %r: %s" % (value[:40], tb.splitlines()[-1]))
            continue
        if inputs.value_problem(value):
            counts["invalid"] += 1
            if res.get("failed"):
                counts["refused"] += 1
                assert value not in res["msg"] or not value.strip()
            else:
                counts["accepted_invalid"].append("secrets %r" % value[:40])
            continue
        counts["env_files"] += 1
        parsed = model.env_file((tmp_path / "main.env").read_text())
        if parsed != {"HF_TOKEN": value, "NEXT": "n"}:
            counts["injections"].append("EnvironmentFile %r read back as %r" % (value[:40], parsed))
    assert not counts["tracebacks"], "\n".join(counts["tracebacks"])
    assert not counts["injections"], "\n".join(counts["injections"])
    assert not counts["accepted_invalid"], "\n".join(counts["accepted_invalid"])
    assert counts["units"] > 50 and counts["env_files"] > 10



def test_the_server_roles_own_settings_pass_the_checks(tmp_path):
    """What roles/server/tasks/instance.yml passes with the role's defaults (server_rollback_to "" and all)
    is accepted: the checks refuse hostile values, not the role's own."""
    defaults = yaml.safe_load(open(os.path.join(ROOT, "roles", "server", "defaults", "main.yml")))
    settings = {"root": str(tmp_path), "config_dir": str(tmp_path), "rollback_to": defaults["server_rollback_to"],
                "replaces_units": defaults.get("server_replaces_units") or [], "lock_hash": "", "python": "/py"}
    inst = {"name": "main", "spec": {"sglang_version": "0.5.23", "model_path": "/m"}}
    lines, tb = run_module(server_plan, {"action": "lines", "program": ["/py"], "instance": inst,
                                         "validation": {"ok": True, "argv": ["--model-path", "/m"], "env": {}},
                                         "unit_settings": {"user": defaults["server_user"], "group": defaults["server_group"],
                                                           "config_dir": defaults["server_config_dir"],
                                                           "root": defaults["server_root"],
                                                           "device_allow": defaults["server_device_allow"]}})
    assert tb is None and not lines.get("failed"), lines
    for mode in ("deploy", "rollback"):
        res, tb = run_module(server_plan, {"action": "plan", "mode": mode, "instance": inst, "settings": settings,
                                           "validation": {"ok": True, "argv": [], "env": {}}, "unit_text": "x",
                                           "secrets": {}})
        assert tb is None and not res.get("failed"), res
    res, tb = run_module(server_plan, {"action": "plan", "mode": "rollback", "instance": inst,
                                       "settings": dict(settings, rollback_to="previous")})
    assert tb is None and not res.get("failed"), res
