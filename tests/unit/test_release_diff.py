"""What `deploy --check --diff` shows of an instance (module_utils/release_diff.py, server_release action=record
in diff mode): the unit and the SGLang flags of the new release against the running one, the EnvironmentFile by
name only, and never a secret value. Host layouts are real files in a temp tree; the module runs as Ansible
runs it (its main(), check mode, diff mode)."""
import io
import json
import os
import sys

import pytest

from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.specdeploy.sglang.plugins.module_utils import release_diff as rd
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp
from ansible_collections.specdeploy.sglang.plugins.modules import server_release

TOKEN = "FAKE-unit-test-token-0123456789"
NEW_TOKEN = "FAKE-unit-test-token-9876543210"
ARGV_A = ["--model-path", "/m", "--port", "30000", "--max-total-tokens", "4096"]
ARGV_B = ["--model-path", "/m", "--port", "30000", "--max-total-tokens", "8192"]


def unit(argv, env=None):
    """A unit as the role's template lays it out (ExecStart one flag per line, Environment= lines)."""
    lines = ['"/v/bin/python" "-m" "sglang.launch_server"'] + ['%s' % w for w in sp.common.exec_lines([], argv)]
    envs = "".join("Environment=%s\n" % line for line in sp.common.env_lines(env or {}))
    return ("[Service]\nUser=sglang\n%sEnvironmentFile=-/etc/specdeploy/main.env\nExecStart=%s\n"
            % (envs, " \\\n    ".join(lines)))


def record(rid, argv, env=None):
    return {"release_id": rid, "instance": "main", "status": "active", "argv": argv, "env": env or {},
            "inputs": {"spec": {"sglang_version": "0.5.23", "model_path": "/m"}}}


def host(tmp_path, rid=None, argv=None, env=None, secrets=None, unit_text=None):
    """A host layout under tmp_path: release `rid` current (record and unit installed), an EnvironmentFile."""
    root, units, conf = tmp_path / "opt", tmp_path / "units", tmp_path / "etc"
    for d in (root / "instances" / "main", units, conf):
        d.mkdir(parents=True, exist_ok=True)
    if rid:
        rel_dir = root / "releases" / rid
        rel_dir.mkdir(parents=True)
        (rel_dir / rr.NAME).write_text(rr.dump(record(rid, argv, env)))
        os.symlink(str(rel_dir), str(root / "instances" / "main" / "current"))
        (units / "sglang-main.service").write_text(unit_text if unit_text is not None else unit(argv, env))
    if secrets is not None:
        (conf / "main.env").write_text(sp.secrets_text("main", secrets))
    return str(root), str(units), str(conf)


def parts(found):
    return {p["before_header"].split(" (")[0].rsplit("/", 1)[-1]: p for p in found if "before_header" in p}


def test_fresh_host_diffs_against_empty_text(tmp_path):
    root, units, conf = host(tmp_path)
    new_unit = unit(ARGV_A)
    found = rd.diffs(rd.running(root, "main", units, conf), record("b" * 16, ARGV_A), new_unit, {"HF_TOKEN": TOKEN})
    by = parts(found)
    assert by["sglang-main.service"]["before"] == "" and by["sglang-main.service"]["after"] == new_unit
    assert "no release runs, not installed" in by["sglang-main.service"]["before_header"]
    assert "release bbbbbbbbbbbbbbbb, this deploy" in by["sglang-main.service"]["after_header"]
    flags = by["sglang-main.service SGLang flags"]
    assert flags["before"] == ""
    assert flags["after"].splitlines() == ['"--model-path" "/m"', '"--port" "30000"', '"--max-total-tokens" "4096"']
    assert by["main.env"]["before"] == "" and by["main.env"]["after"] == "HF_TOKEN=(secret value not shown)\n"
    assert TOKEN not in json.dumps(found)


def test_changed_flag_is_one_line_in_the_flags_and_in_the_unit(tmp_path):
    root, units, conf = host(tmp_path, "a" * 16, ARGV_A, secrets={"HF_TOKEN": TOKEN})
    found = rd.diffs(rd.running(root, "main", units, conf), record("b" * 16, ARGV_B), unit(ARGV_B),
                     {"HF_TOKEN": TOKEN})
    by = parts(found)
    assert set(by) == {"sglang-main.service", "sglang-main.service SGLang flags"}  # same secrets: no part
    flags = by["sglang-main.service SGLang flags"]
    assert "running release aaaaaaaaaaaaaaaa" in flags["before_header"]
    gone = set(flags["before"].splitlines()) - set(flags["after"].splitlines())
    new = set(flags["after"].splitlines()) - set(flags["before"].splitlines())
    assert gone == {'"--max-total-tokens" "4096"'} and new == {'"--max-total-tokens" "8192"'}
    u = by["sglang-main.service"]
    assert '"--max-total-tokens" "4096"' in u["before"] and '"--max-total-tokens" "8192"' in u["after"]


def test_changed_env_shows_in_the_unit_only(tmp_path):
    root, units, conf = host(tmp_path, "a" * 16, ARGV_A, env={"CUDA_VISIBLE_DEVICES": "0"})
    found = rd.diffs(rd.running(root, "main", units, conf), record("b" * 16, ARGV_A),
                     unit(ARGV_A, {"CUDA_VISIBLE_DEVICES": "1"}))
    by = parts(found)
    assert list(by) == ["sglang-main.service"]
    assert 'Environment="CUDA_VISIBLE_DEVICES=0"' in by["sglang-main.service"]["before"]
    assert 'Environment="CUDA_VISIBLE_DEVICES=1"' in by["sglang-main.service"]["after"]


def test_same_unit_and_flags_say_so(tmp_path):
    root, units, conf = host(tmp_path, "a" * 16, ARGV_A)
    found = rd.diffs(rd.running(root, "main", units, conf), record("b" * 16, ARGV_A), unit(ARGV_A))
    assert len(found) == 1 and "has the unit and the flags of running release aaaaaaaaaaaaaaaa" in found[0]["prepared"]


def test_secrets_are_masked_everywhere(tmp_path):
    # a unit edited by hand carries the old token in Environment= and as a flag value; the EnvironmentFile
    # holds it; the new secrets change it
    hand = unit(ARGV_A + ["--api-key", TOKEN]) + 'Environment="HF_TOKEN=%s" OTHER_TOKEN=shortish1\n' % TOKEN
    root, units, conf = host(tmp_path, "a" * 16, ARGV_A + ["--api-key", TOKEN], secrets={"HF_TOKEN": TOKEN},
                             unit_text=hand)
    found = rd.diffs(rd.running(root, "main", units, conf), record("b" * 16, ARGV_B + ["--admin-api-key=x" * 1]),
                     unit(ARGV_B), {"HF_TOKEN": NEW_TOKEN, "WANDB_API_KEY": "k" * 12})
    text = json.dumps(found)
    for value in (TOKEN, NEW_TOKEN, "k" * 12, "shortish1"):
        assert value not in text
    by = parts(found)
    assert '"--api-key" "(secret value not shown)"' in by["sglang-main.service SGLang flags"]["before"]
    assert '"--admin-api-key=(secret value not shown)"' in by["sglang-main.service SGLang flags"]["after"]
    assert "OTHER_TOKEN=(secret value not shown)" in by["sglang-main.service"]["before"]
    env = by["main.env"]
    assert env["before"] == "HF_TOKEN=(secret value not shown)\n"
    assert env["after"] == ("HF_TOKEN=(secret value not shown; this deploy changes it)\n"
                            "WANDB_API_KEY=(secret value not shown)\n")
    # flags whose names only contain "token" are no secrets: they stay readable
    assert '"--max-total-tokens" "8192"' in by["sglang-main.service SGLang flags"]["after"]


def test_a_secret_the_file_cannot_carry_is_named_never_shown():
    before, after = rd.secrets_names({"HF_TOKEN": "bad\nvalue-secret"}, "")
    assert before == "" and after == "HF_TOKEN=(secret value not shown)\n"


def test_mask_keeps_short_values_and_ordinary_text():
    assert rd.mask("Description=SGLang 0.5.23", ["0.5.23"]) == "Description=SGLang 0.5.23"
    assert rd.mask('Environment="SGLANG_X=1"') == 'Environment="SGLANG_X=1"'
    assert rd.mask('Environment=API_KEY=abc X=1') == "Environment=API_KEY=(secret value not shown) X=1"
    assert rd.mask('Environment="HF_TOKEN=a b c" X_TOKEN=zz "Y=1"') == (
        'Environment="HF_TOKEN=(secret value not shown)" X_TOKEN=(secret value not shown) "Y=1"')


# ---- the module, as Ansible runs it ------------------------------------------------------------------

def run(args, check_mode=True, diff=True):
    basic._ANSIBLE_ARGS = to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": dict(
        args, _ansible_check_mode=check_mode, _ansible_diff=diff)}))
    basic._ANSIBLE_PROFILE = "legacy"
    out, old = io.StringIO(), sys.stdout
    sys.stdout = out
    try:
        with pytest.raises(SystemExit):
            server_release.main()
    finally:
        sys.stdout = old
    return json.loads(out.getvalue()), out.getvalue()


def test_record_in_check_mode_returns_the_diff_and_writes_nothing(tmp_path, monkeypatch):
    root, units, conf = host(tmp_path, "a" * 16, ARGV_A, secrets={"HF_TOKEN": TOKEN})
    monkeypatch.setattr(rd.common, "UNIT_DIR", units)
    res, raw = run({"action": "record", "root": root, "release_id": "b" * 16, "instance": "main",
                    "record": dict(record("b" * 16, ARGV_B), status="staged"), "unit_text": unit(ARGV_B),
                    "config_dir": conf, "secrets": {"HF_TOKEN": NEW_TOKEN}})
    assert not res.get("failed"), res
    assert res["changed"] is True
    assert not os.path.exists(os.path.join(root, "releases", "b" * 16))
    by = parts(res["diff"])
    assert '"--max-total-tokens" "8192"' in by["sglang-main.service SGLang flags"]["after"]
    assert by["main.env"]["after"] == "HF_TOKEN=(secret value not shown; this deploy changes it)\n"
    assert TOKEN not in raw and NEW_TOKEN not in raw
    res, _raw = run({"action": "record", "root": root, "release_id": "b" * 16, "instance": "main",
                     "record": dict(record("b" * 16, ARGV_B), status="staged")}, diff=False)
    assert "diff" not in res and res["changed"] is True


def test_record_diff_refuses_a_bad_instance_name(tmp_path):
    res, _raw = run({"action": "record", "root": str(tmp_path), "release_id": "b" * 16,
                     "record": dict(record("b" * 16, ARGV_B), instance="../x", status="staged")})
    assert res.get("failed") and "server_release record" in res["msg"]


def test_write_false_diffs_a_release_already_on_the_host_and_writes_nothing(tmp_path, monkeypatch):
    # the running release's installed unit was edited by hand: the deploy puts the release's unit back
    edited = unit(ARGV_A).replace('"--max-total-tokens" "4096"', '"--max-total-tokens" "9999"')
    root, units, conf = host(tmp_path, "a" * 16, ARGV_A, unit_text=edited)
    monkeypatch.setattr(rd.common, "UNIT_DIR", units)
    record_path = os.path.join(root, "releases", "a" * 16, rr.NAME)
    kept = open(record_path).read()
    args = {"action": "record", "root": root, "release_id": "a" * 16, "instance": "main", "write": False,
            "record": dict(record("a" * 16, ARGV_A), status="staged"), "unit_text": unit(ARGV_A), "config_dir": conf}
    res, _raw = run(args)
    assert res["changed"] is True and open(record_path).read() == kept
    by = parts(res["diff"])
    assert list(by) == ["sglang-main.service"]
    assert '"--max-total-tokens" "9999"' in by["sglang-main.service"]["before"]
    res, _raw = run(args, diff=False)
    assert res["changed"] is False and "diff" not in res
    # nothing differs (a restart of a stopped service): no change to show
    res, _raw = run(dict(args, unit_text=edited))
    assert res["changed"] is False and rd.changes(res["diff"]) is False
