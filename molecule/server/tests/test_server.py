"""Independent verifier of the server role on real lab hosts (real systemd, real SGLang 0.5.23 on CPU).

server-1 was deployed (release A), re-run, put through F4, F1, F3, F8 and then got release B
(side_effect.yml, which kept what each case returned in $MOLECULE_EPHEMERAL_DIRECTORY/server-cases.json).
server-2 only saw the role in check mode.
"""
import json
import os
import re

import pytest

EPHEMERAL = os.environ.get("MOLECULE_EPHEMERAL_DIRECTORY", "")
TOKEN = "hf_FAKE-specdeploy-lab-token-000000"
ROOT = "/opt/specdeploy"
UNIT = "sglang-main"
GEN = ("/usr/bin/python3 -c \"import json,urllib.request;"
       "r=urllib.request.Request('http://127.0.0.1:30000/generate',"
       "data=json.dumps({'text':'Once upon a time','sampling_params':"
       "{'temperature':0,'max_new_tokens':12}}).encode(),"
       "headers={'Content-Type':'application/json'});"
       "print(urllib.request.urlopen(r,timeout=60).read().decode())\"")


def _load(name):
    with open(os.path.join(EPHEMERAL, name)) as handle:
        return handle.read()


@pytest.fixture(scope="module")
def cases():
    return json.loads(_load("server-cases.json"))


def _show(state):
    """Unit properties: a mapping kept by side_effect.yml (systemd_service status subset), or the
    KEY=VALUE lines of `systemctl show`."""
    if isinstance(state, (list, tuple)):
        state = dict(line.split("=", 1) for line in state if "=" in line)
    return {k: str(v) for k, v in state.items()}


def _only(host, name):
    if host.backend.get_hostname() != name:
        pytest.skip("assertion for %s" % name)


def _journal(host):
    return host.run("journalctl -u %s --no-pager -n 60" % UNIT).stdout


# ---- server-1: the deployed host ---------------------------------------------------------------

def test_service_runs_as_dedicated_user(host):
    _only(host, "server-1")
    svc = host.service(UNIT)
    assert svc.is_running, _journal(host)
    assert svc.is_enabled
    pid = host.check_output("systemctl show %s -p MainPID --value" % UNIT)
    assert host.check_output("ps -o user= -p %s" % pid) == "sglang"
    user = host.user("sglang")
    assert user.uid != 0 and user.shell == "/usr/sbin/nologin"


def test_generate_is_deterministic(host):
    _only(host, "server-1")
    first = json.loads(host.check_output(GEN))
    second = json.loads(host.check_output(GEN))
    assert first["meta_info"]["completion_tokens"] > 0
    assert first["output_ids"] == second["output_ids"]


def test_unit_has_one_flag_per_line_and_the_stop_and_restart_policy(host):
    _only(host, "server-1")
    unit = host.file("/etc/systemd/system/%s.service" % UNIT).content_string
    exec_block = unit.split("ExecStart=", 1)[1].split("\nRestart=", 1)[0]
    lines = [line.strip() for line in exec_block.splitlines()]
    assert lines[0].endswith('"-m" "sglang.launch_server" \\')
    assert '"--model-path" "/opt/specdeploy/models/lab--tiny-qwen3@local" \\' in lines
    assert '"--disable-cuda-graph" \\' in lines
    for needed in ("KillMode=mixed", "SuccessExitStatus=SIGKILL", "Restart=on-failure", "StartLimitBurst=3",
                   "User=sglang", "EnvironmentFile=-/etc/specdeploy/main.env", "DevicePolicy=closed",
                   "DeviceAllow=char-nvidia-frontend rw"):
        assert needed in unit
    assert "PrivateDevices=" not in unit
    props = _show(host.check_output(
        "systemctl show %s -p KillMode,TimeoutStopUSec,StartLimitBurst,StartLimitIntervalUSec,Restart" % UNIT
    ).splitlines())
    assert props == {"KillMode": "mixed", "TimeoutStopUSec": "2min", "StartLimitBurst": "3",
                     "StartLimitIntervalUSec": "5min", "Restart": "on-failure"}


def test_secret_only_in_the_0600_environment_file(host):
    _only(host, "server-1")
    env = host.file("/etc/specdeploy/main.env")
    assert env.mode == 0o600 and env.user == "root"
    assert TOKEN in env.content_string
    found = host.run("grep -rl %s /etc/systemd/system %s" % (TOKEN, ROOT))
    assert found.stdout == "", "token leaked into: %s" % found.stdout


def test_token_not_in_play_output_or_case_results():
    output = _load("server-play-output.txt")
    assert "sglang-main" in output  # the captured output is the role's run
    assert TOKEN not in output
    assert TOKEN not in _load("server-cases.json")
    assert TOKEN not in _load("server-check.json")


def test_rerun_changed_nothing_and_did_not_restart(cases):
    rerun = cases["rerun"]
    assert rerun["changed"] is False
    # same inputs, same env: the running release's validation was reused (no SGLang import)
    assert rerun["validation_reused"] is True
    before, after = _show(rerun["before"]), _show(rerun["after"])
    assert before["MainPID"] == after["MainPID"] != "0"
    assert before["ActiveEnterTimestamp"] == after["ActiveEnterTimestamp"]


def test_f4_port_taken_refused_before_restart(cases):
    f4 = cases["f4"]
    assert "passed_unexpectedly" not in f4
    assert f4["result"]["refused"] and f4["result"]["changed"] is False
    assert "not restarted" in f4["msg"]
    assert "port 30001 is already taken by pid" in f4["msg"]
    assert "http.server" in f4["msg"]
    # the old server was not touched
    assert _show(f4["state"])["MainPID"] == _show(cases["rerun"]["after"])["MainPID"]
    assert _show(f4["state"])["ActiveEnterTimestamp"] == _show(cases["rerun"]["after"])["ActiveEnterTimestamp"]


def test_f1_refused_start_rolled_back_and_serving(cases):
    f1 = cases["f1"]
    assert "passed_unexpectedly" not in f1
    msg = f1["msg"]
    assert cases["f1_rid"] != cases["a"]
    assert "release %s FAILED" % cases["f1_rid"] in msg
    assert "exited and was restarted by systemd (the server died while starting)" in msg
    assert "Rolled back to release %s: smoke passed" % cases["a"] in msg
    assert f1["generate"]["meta_info"]["completion_tokens"] > 0


def test_f3_crash_loop_rolled_back_without_storm(cases):
    f3 = cases["f3"]
    assert "passed_unexpectedly" not in f3
    assert "Rolled back to release %s: smoke passed" % cases["a"] in f3["msg"]
    # the unit as the rescue found it: the crash loop was seen, and systemd's start limit
    # (StartLimitBurst=3) had stopped it, not the next restart
    restarts = [int(n) for n in re.findall(r"NRestarts=(\d+)", f3["msg"])]
    assert restarts and 1 <= max(restarts) <= 3
    a, b = _show(f3["after_rollback"]), _show(f3["ten_s_later"])
    assert a["ActiveState"] == b["ActiveState"] == "active"
    assert a["MainPID"] == b["MainPID"] and a["NRestarts"] == b["NRestarts"] == "0"
    # automatic restarts logged from the start of F3 until ten seconds after the rollback
    assert 1 <= f3["scheduled_restarts"] <= 3


def test_f8_smoke_gate_rolled_back(cases):
    f8 = cases["f8"]
    assert "passed_unexpectedly" not in f8
    assert "expected text 'text the tiny model never writes' not found" in f8["msg"]
    assert "Rolled back to release %s: smoke passed" % cases["a"] in f8["msg"]
    assert [m["id"] for m in f8["models"]["data"]] != ["tiny-f8"]


def test_failed_releases_are_recorded_as_failed_without_secrets(host, cases):
    _only(host, "server-1")
    rec = json.loads(host.file("%s/releases/%s/release.json" % (ROOT, cases["f8"]["rid"])).content_string)
    assert rec["status"] == "failed"
    assert rec["smoke"]["passed"] is False
    assert rec["rollback_smoke"]["passed"] is True
    assert "HF_TOKEN" not in json.dumps(rec)


def test_current_b_previous_a_and_records(host, cases):
    _only(host, "server-1")
    b = cases["b"]
    assert b["changed"] is True and b["previous_release_id"] == cases["a"]
    assert host.file("%s/instances/main/current" % ROOT).linked_to == "%s/releases/%s" % (ROOT, b["release_id"])
    assert host.file("%s/instances/main/previous" % ROOT).linked_to == "%s/releases/%s" % (ROOT, cases["a"])
    rec = json.loads(host.file("%s/instances/main/current/release.json" % ROOT).content_string)
    assert rec["status"] == "active" and rec["smoke"]["passed"] is True
    assert rec["argv"][rec["argv"].index("--served-model-name") + 1] == "tiny-b"
    assert rec["smoke"]["tokens_per_s"] > 0
    # the installed unit is the current release's unit
    installed = host.file("/etc/systemd/system/%s.service" % UNIT).content_string
    assert installed == host.file("%s/instances/main/current/%s.service" % (ROOT, UNIT)).content_string


def test_prune_kept_the_newest_and_the_linked(host, cases):
    _only(host, "server-1")
    kept = set(host.check_output("ls %s/releases" % ROOT).split())
    # made in this order: A, F4 (refused before the restart), F1, F3, F8, B; keep 3 -> the 3 newest
    # by creation (B, F8, F3) + A (previous)
    assert kept == {cases["a"], cases["b"]["release_id"], cases["f8"]["rid"], cases["f3"]["rid"]}
    assert cases["f1_rid"] not in kept


def test_systemd_analyze_security_exposure(host):
    _only(host, "server-1")
    out = host.check_output("systemd-analyze security %s --no-pager 2>&1 | tail -1" % UNIT)
    exposure = float(re.search(r"exposure level for \S+: ([0-9.]+)", out).group(1))
    print("systemd-analyze security %s: %s" % (UNIT, out))
    assert exposure <= 5.0


# ---- server-2: check mode on a fresh host ------------------------------------------------------

def test_check_mode_reported_a_plan():
    plan = json.loads(_load("server-check.json"))
    assert plan["main"]["changed"] is True
    assert len(plan["main"]["release_id"]) == 16
    assert plan["main"]["previous_release_id"] in (None, "")


def test_check_mode_changed_nothing(host):
    _only(host, "server-2")
    assert not host.file(ROOT).exists
    assert not host.file("/etc/specdeploy").exists
    assert not host.file("/etc/systemd/system/%s.service" % UNIT).exists
    assert not host.user("sglang").exists


def test_check_mode_output_says_what_it_would_do():
    out = " ".join(_load("server-check-output.txt").split())
    assert "would be installed and started (current: none)" in out
    assert re.search(r"server-2\s*: ok=\d+\s+changed=[1-9]", out)
    assert "failed=0" in out
