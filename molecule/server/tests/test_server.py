"""Independent verifier of the server role on real lab hosts (real systemd, real SGLang 0.5.23 on CPU).

server-1 was deployed (release A), re-run, put through V (extra_args SGLang refuses), F4, F3, F8 and then got release B
(side_effect.yml, which kept what each case returned in $MOLECULE_EPHEMERAL_DIRECTORY/server-cases.json).
server-2 only saw the role in check mode.
server-3 served from a hand-made sglang-nextn.service (LAB-ONLY stand-in, an http.server on port 30000) and
was migrated with server_replaces_units (side_effect.yml: M0 check mode, M1 a failed first release, M2 a
good one, M3 the same again; kept in server-legacy-cases.json).

Each host-specific test names its host through a fixture (server1, server2, server3) bound to that
container, so it runs exactly once, against that host; a host that is missing or unreachable makes the
test error, never skip.
"""
import json
import os
import re

import pytest
import testinfra

EPHEMERAL = os.environ.get("MOLECULE_EPHEMERAL_DIRECTORY", "")
TOKEN = "FAKE-specdeploy-lab-token-000000"
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


def _lab_host(name):
    """The lab container `name` (podman backend). Fails when it is not there: a test of a host that
    did not take part must not pass as skipped."""
    host = testinfra.get_host("podman://%s" % name)
    found = host.run("hostname")
    assert found.rc == 0 and found.stdout.strip() == name, (
        "lab host %s is not reachable: rc=%s %s" % (name, found.rc, found.stderr))
    return host


@pytest.fixture(scope="module")
def server1():
    return _lab_host("server-1")


@pytest.fixture(scope="module")
def server2():
    return _lab_host("server-2")


@pytest.fixture(scope="module")
def server3():
    return _lab_host("server-3")


def _journal(host, unit=UNIT):
    return host.run("journalctl -u %s --no-pager -n 60" % unit).stdout


# ---- server-1: the deployed host ---------------------------------------------------------------

def test_service_runs_as_dedicated_user(server1):
    host = server1
    svc = host.service(UNIT)
    assert svc.is_running, _journal(host)
    assert svc.is_enabled
    pid = host.check_output("systemctl show %s -p MainPID --value" % UNIT)
    assert host.check_output("ps -o user= -p %s" % pid) == "sglang"
    user = host.user("sglang")
    assert user.uid != 0 and user.shell == "/usr/sbin/nologin"


def test_generate_is_deterministic(server1):
    host = server1
    first = json.loads(host.check_output(GEN))
    second = json.loads(host.check_output(GEN))
    assert first["meta_info"]["completion_tokens"] > 0
    assert first["output_ids"] == second["output_ids"]


def test_unit_has_one_flag_per_line_and_the_stop_and_restart_policy(server1):
    host = server1
    unit = host.file("/etc/systemd/system/%s.service" % UNIT).content_string
    exec_block = unit.split("ExecStart=", 1)[1].split("\nRestart=", 1)[0]
    lines = [line.strip() for line in exec_block.splitlines()]
    assert lines[0].endswith('"-m" "sglang.launch_server" \\')
    assert '"--model-path" "/opt/specdeploy/models/lab--tiny-qwen3@local" \\' in lines
    assert '"--disable-cuda-graph" \\' in lines
    for needed in ("KillMode=mixed", "SuccessExitStatus=SIGKILL", "RestartForceExitStatus=SIGKILL",
                   "Restart=on-failure", "StartLimitBurst=3",
                   "User=sglang", "EnvironmentFile=-/etc/specdeploy/main.env", "DevicePolicy=closed",
                   "DeviceAllow=char-nvidia-frontend rw"):
        assert needed in unit
    assert "PrivateDevices=" not in unit
    props = _show(host.check_output(
        "systemctl show %s -p KillMode,TimeoutStopUSec,StartLimitBurst,StartLimitIntervalUSec,Restart,"
        "RestartForceExitStatus" % UNIT
    ).splitlines())
    # the lab's stop timeout (vars/lab.yml: server_timeout_stop_sec 20, why in inventories/lab), not the default 2min
    assert props == {"KillMode": "mixed", "TimeoutStopUSec": "20s", "StartLimitBurst": "3",
                     "StartLimitIntervalUSec": "5min", "Restart": "on-failure", "RestartForceExitStatus": "KILL"}


def test_secret_only_in_the_0600_environment_file(server1):
    host = server1
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
    assert TOKEN not in _load("server-legacy-cases.json")
    assert TOKEN not in _load("server-legacy-check-output.txt")


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


def test_extra_args_sglang_refuses_fail_the_stage_before_any_restart(cases):
    """Valid flags SGLang refuses together (--ssl-keyfile without --ssl-certfile): the installed SGLang 0.5.23
    refuses them at argument resolution, before anything on the host changes, with its own message (the one
    the authority preflight gives on the controller)."""
    v = cases["v"]
    assert "passed_unexpectedly" not in v
    # the role's first step on the host, installed-mode validation (sglang_flags), fails with SGLang's own words
    assert "problem(s) with the SGLang flags: [SGLANG_REJECTED] the installed SGLang 0.5.23 refuses these " \
        "arguments (resolve)" in v["msg"]
    assert "--ssl-keyfile requires --ssl-certfile to be specified as well." in v["msg"]
    # the running instance is untouched: same process, same start, no restart, same unit, same current
    # release, and no release directory was written for the refused inputs
    state, running = _show(v["state"]), _show(cases["rerun"]["after"])
    assert state["ActiveState"] == "active"
    assert state["MainPID"] == running["MainPID"] != "0"
    assert state["ActiveEnterTimestamp"] == running["ActiveEnterTimestamp"]
    assert state["NRestarts"] == running["NRestarts"]
    assert v["unit_sha256_before"] and v["unit_sha256_after"] == v["unit_sha256_before"]
    assert v["releases_after"] == v["releases_before"]
    assert v["current_link"] == "%s/releases/%s" % (ROOT, cases["a"])


def test_f3_crash_loop_rolled_back_without_storm(cases):
    f3 = cases["f3"]
    assert "passed_unexpectedly" not in f3
    msg = f3["msg"]
    assert f3["rid"] != cases["a"] and "release %s FAILED" % f3["rid"] in msg
    assert "exited and was restarted by systemd (the server died while starting)" in msg
    assert "Rolled back to release %s: smoke passed" % cases["a"] in msg
    assert f3["generate"]["meta_info"]["completion_tokens"] > 0
    # the host, not the play: current points at A again, and the refused release is recorded as failed
    assert f3["current_link"] == "%s/releases/%s" % (ROOT, cases["a"])
    assert f3["record"]["status"] == "failed" and f3["record"]["release_id"] == f3["rid"]
    assert f3["record"]["rollback_smoke"]["passed"] is True and "died while starting" in f3["record"]["error"]
    # the unit as the rescue found it: the crash loop was seen, and systemd's start limit
    # (StartLimitBurst=3) had stopped it, not the next restart
    restarts = [int(n) for n in re.findall(r"NRestarts=(\d+)", f3["msg"])]
    assert restarts and 1 <= max(restarts) <= 3
    a, b = _show(f3["after_rollback"]), _show(f3["ten_s_later"])
    assert a["ActiveState"] == b["ActiveState"] == "active"
    assert a["MainPID"] == b["MainPID"] and a["NRestarts"] == b["NRestarts"] == "0"
    # automatic restarts logged from the start of F3 until ten seconds after the rollback
    # at least 1 (the crash loop was real), at most StartLimitBurst (no storm)
    assert 1 <= f3["scheduled_restarts"] <= 3, "systemd scheduled %d restarts during F3" % f3["scheduled_restarts"]


def test_f8_smoke_gate_rolled_back(cases):
    f8 = cases["f8"]
    assert "passed_unexpectedly" not in f8
    assert "expected text 'text the tiny model never writes' not found" in f8["msg"]
    assert "Rolled back to release %s: smoke passed" % cases["a"] in f8["msg"]
    # the model served after the rollback is release A's
    assert [m["id"] for m in f8["models"]["data"]] == [m["id"] for m in f8["a_models"]["data"]]
    assert [m["id"] for m in f8["models"]["data"]] != ["tiny-f8"]


def test_failed_releases_are_recorded_as_failed_without_secrets(server1, cases):
    host = server1
    rec = json.loads(host.file("%s/releases/%s/release.json" % (ROOT, cases["f8"]["rid"])).content_string)
    assert rec["status"] == "failed"
    assert rec["smoke"]["passed"] is False
    assert rec["rollback_smoke"]["passed"] is True
    assert "HF_TOKEN" not in json.dumps(rec)


def test_current_b_previous_a_and_records(server1, cases):
    host = server1
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


def test_prune_kept_the_newest_and_the_linked(server1, cases):
    host = server1
    kept = set(host.check_output("ls %s/releases" % ROOT).split())
    # made in this order: A, F4 (refused before the restart), F3, F8, B; keep 3 -> the 3 newest
    # by creation (B, F8, F3) + A (previous); F4's directory is pruned
    assert kept == {cases["a"], cases["b"]["release_id"], cases["f8"]["rid"], cases["f3"]["rid"]}
    assert cases["f4"]["result"]["release_id"] not in kept


def test_systemd_analyze_security_exposure(server1):
    host = server1
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


def test_check_mode_changed_nothing(server2):
    host = server2
    assert not host.file(ROOT).exists
    assert not host.file("/etc/specdeploy").exists
    assert not host.file("/etc/systemd/system/%s.service" % UNIT).exists
    assert not host.user("sglang").exists


def test_check_mode_output_says_what_it_would_do():
    out = " ".join(_load("server-check-output.txt").split())
    assert "would be installed and started (current: none)" in out
    assert re.search(r"server-2\s*: ok=\d+\s+changed=[1-9]", out)
    assert "failed=0" in out


# ---- server-1: --check --diff against its running release (check.yml's second play) ----------------
CHECK_TOKEN = "FAKE-specdeploy-lab-token-checkdiff1"


def test_check_diff_names_the_changed_flag_against_the_running_release():
    out = _load("server-check-output.txt")
    plan = json.loads(_load("server-check-diff.json"))["main"]
    assert plan["changed"] is True and plan["previous_release_id"]
    running = plan["previous_release_id"]
    # the flags, one per line as in the unit, against the running release's record
    assert "--- before: sglang-main.service SGLang flags (running release %s)" % running in out
    assert '\n-"--max-total-tokens" "4096"\n+"--max-total-tokens" "6144"\n' in out
    # the unit installed now against the unit the new release installs
    assert "--- before: /etc/systemd/system/sglang-main.service (running release %s)" % running in out
    assert re.search(r'\n-\s+"--max-total-tokens" "4096"( \\)?\n\+\s+"--max-total-tokens" "6144"( \\)?\n', out), out[-3000:]
    # the secret by name only, and that it changes
    assert "+HF_TOKEN=(secret value not shown; this deploy changes it)" in out


def test_check_diff_shows_no_secret_and_changed_nothing(server1):
    out = _load("server-check-output.txt")
    # TOKEN is only in server-1's EnvironmentFile (no task argument carries it in that play): only the diff
    # builder's masking keeps it out; CHECK_TOKEN is the play's new value
    for value in (TOKEN, CHECK_TOKEN):
        assert value not in out
        assert value not in _load("server-check-diff.json")
    plan = json.loads(_load("server-check-diff.json"))["main"]
    assert not server1.file("%s/releases/%s" % (ROOT, plan["release_id"])).exists
    assert CHECK_TOKEN not in server1.file("/etc/specdeploy/main.env").content_string
    assert "6144" not in server1.file("/etc/systemd/system/%s.service" % UNIT).content_string


# ---- server-3: migration from a hand-made unit (server_replaces_units) ---------------------------
NEXTN = "sglang-nextn.service"
NEXTN_TEXT = "hand-made nextn service (LAB-ONLY stand-in)"


@pytest.fixture(scope="module")
def legacy():
    return json.loads(_load("server-legacy-cases.json"))


def test_migration_check_mode_names_the_unit_and_changes_nothing(legacy):
    out = " ".join(_load("server-legacy-check-output.txt").split())
    assert "Before it starts, it would stop and disable %s (server_replaces_units, unit files kept)" % NEXTN in out
    assert "sglang-legacy-absent.service not on this host: nothing to replace there (not an error)" in out
    assert re.search(r"server-3\s*: ok=\d+\s+changed=[1-9]\d*\s+unreachable=0\s+failed=0", out), out[-600:]
    plan = json.loads(_load("server-legacy-check.json"))
    assert plan["main"]["changed"] is True and plan["main"]["replaced_units"] == [NEXTN]
    nextn = _show(legacy["m0"]["nextn"])
    assert (nextn["ActiveState"], nextn["UnitFileState"]) == ("active", "enabled")


def test_migration_failed_first_release_puts_the_old_service_back(legacy):
    m1 = legacy["m1"]
    assert "passed_unexpectedly" not in m1
    msg = m1["msg"]
    assert "release %s FAILED" % m1["result"]["release_id"] in msg
    assert "No previous release to roll back to: the unit is stopped." in msg
    assert ("The service it replaced is back: %s enabled and started again (ActiveState=active, "
            "UnitFileState=enabled)." % NEXTN) in msg
    assert m1["result"]["replaced_units"] == [NEXTN]
    # the user is left with the old service serving on the same port, and the new unit stopped
    assert m1["answer"]["status"] == 200 and NEXTN_TEXT in m1["answer"]["content"]
    nextn, main = _show(m1["nextn"]), _show(m1["main"])
    assert (nextn["ActiveState"], nextn["UnitFileState"]) == ("active", "enabled")
    assert main["ActiveState"] in ("inactive", "failed") and main["UnitFileState"] == "disabled"
    assert m1["record_status"] == "failed"
    assert m1["record_replaced_units"] == [{"unit": NEXTN, "active": True, "enabled": True, "restored": True}]


def test_migration_good_release_replaced_the_old_unit(legacy):
    m2 = legacy["m2"]
    assert m2["result"]["changed"] is True and m2["result"]["replaced_units"] == [NEXTN]
    assert m2["result"]["previous_release_id"] in (None, "")
    nextn, main = _show(m2["nextn"]), _show(m2["main"])
    assert (nextn["ActiveState"], nextn["UnitFileState"]) == ("inactive", "disabled")
    assert (main["ActiveState"], main["UnitFileState"]) == ("active", "enabled")
    assert m2["generate"]["meta_info"]["completion_tokens"] > 0


def test_migration_rerun_changes_nothing(legacy):
    m2, m3 = legacy["m2"], legacy["m3"]
    assert m3["result"]["changed"] is False and m3["result"]["replaced_units"] == []
    assert m3["result"]["release_id"] == m2["result"]["release_id"]
    assert _show(m3["main"])["MainPID"] == _show(m2["main"])["MainPID"] != "0"
    assert _show(m3["main"])["ActiveEnterTimestamp"] == _show(m2["main"])["ActiveEnterTimestamp"]
    nextn = _show(m3["nextn"])
    assert (nextn["ActiveState"], nextn["UnitFileState"]) == ("inactive", "disabled")


def test_migrated_host_serves_from_the_new_unit_and_keeps_the_old_file(server3, legacy):
    host = server3
    svc = host.service(UNIT)
    assert svc.is_running and svc.is_enabled, _journal(host)
    old = host.service(NEXTN)
    assert not old.is_running and not old.is_enabled
    unit_file = host.file("/etc/systemd/system/%s" % NEXTN)
    assert unit_file.exists and "http.server 30000" in unit_file.content_string
    out = json.loads(host.check_output(GEN))
    assert out["meta_info"]["completion_tokens"] > 0
    # the stand-in is gone: the port is the new unit's
    assert "http.server" not in host.check_output("ps -eo args")
    rid = legacy["m2"]["result"]["release_id"]
    assert host.file("%s/instances/main/current" % ROOT).linked_to == "%s/releases/%s" % (ROOT, rid)
    rec = json.loads(host.file("%s/instances/main/current/release.json" % ROOT).content_string)
    assert rec["status"] == "active"
    assert rec["replaced_units"] == [{"unit": NEXTN, "active": True, "enabled": True, "restored": False}]


# ---- server-1: a change of server_secrets alone ------------------------------------------------

def test_secrets_only_change_restarts_through_the_gate(server1, cases):
    s = cases["s"]
    s1 = s["s1"]
    # same release, restarted and smoke-gated because the secrets changed
    assert s1["changed"] is True and s1["release_id"] == cases["b"]["release_id"]
    assert any("secrets" in r for r in s1["reasons"]), s1["reasons"]
    assert s1["smoke"]["passed"] is True
    assert s["s1_state"]["MainPID"] != s["before"]["MainPID"]
    assert s["s1_state"]["ActiveEnterTimestamp"] != s["before"]["ActiveEnterTimestamp"]
    # the running server got the new value; the file is 0600
    assert s["s1_environ_has_new_token"] == 1 and s["s1_env_mode"] == "0600"
    for value in (TOKEN, TOKEN + "-rotated"):
        assert value not in json.dumps(cases)


def test_secrets_only_change_that_fails_rolls_back_the_secrets(server1, cases):
    s = cases["s"]
    s2 = s["s2"]
    assert "passed_unexpectedly" not in s2
    assert "release %s FAILED" % cases["b"]["release_id"] in s2["msg"]
    assert "Rolled back to release %s: smoke passed" % cases["b"]["release_id"] in s2["msg"]
    # the old secrets file is back (same digest as after S1), nothing kept beside it, the unit serves
    assert s["s2_env_sha256"] == s["s1_env_sha256"] and s["s2_backup"] is False
    assert s["s2_state"]["ActiveState"] == "active"
    # S3 (the verbose converge.yml run) went back to the inventory's token through the gate too
    output = _load("server-play-output.txt")
    assert "TASK [specdeploy.sglang.server : Restart sglang-main.service]" in output, output
    assert re.search(r"^server-1 +: ok=\d+ +changed=[1-9]\d* +unreachable=0 +failed=0", output, re.M), output
    assert TOKEN in server1.file("/etc/specdeploy/main.env").content_string
    rec = json.loads(server1.file("%s/releases/%s/release.json" % (ROOT, cases["b"]["release_id"])).content_string)
    assert rec["status"] == "active" and "rotated" not in json.dumps(rec)


# ---- server-3: a release the tables do not know (day zero; day_zero.yml) ------------------------

def test_day_zero_release_validated_by_the_installed_sglang_restarted_and_gated(server3):
    """With the release tables cut back to 0.5.22 (a test fixture), the lab's SGLang 0.5.23 is a release they do
    not know: the deploy still validates on the host with that SGLang, starts the instance, passes the smoke gate
    and says who judged it; the other instance is left alone."""
    out = " ".join(_load("server-dayzero-output.txt").split())
    assert re.search(r"server-3\s*: ok=\d+\s+changed=[1-9]\d*\s+unreachable=0\s+failed=0", out), out[-800:]
    results = json.loads(_load("server-dayzero.json"))
    assert results["dayzero"]["changed"] is True, results["dayzero"]
    assert results["main"]["changed"] is False, results["main"]
    svc = server3.service("sglang-dayzero")
    assert svc.is_running and svc.is_enabled, _journal(server3, "sglang-dayzero")
    rec = json.loads(server3.file("%s/instances/dayzero/current/release.json" % ROOT).content_string)
    assert rec["status"] == "active" and rec["smoke"]["passed"] is True
    notes = " ".join(rec["validation"]["notes"])
    assert "SGLang 0.5.23 is not in the tables: judged by SGLang 0.5.23 itself" in notes, notes
    assert "SGLang 0.5.22's traits" in notes
    gen = json.loads(server3.check_output(GEN.replace("127.0.0.1:30000", "127.0.0.1:30001")))
    assert gen["meta_info"]["completion_tokens"] > 0


# ---- server-1, case H: the controller killed between a release's directory and its record -----------
# (side_effect.yml case H, kept in server-halfmade-cases.json; an instance `half` under a root of its own)

@pytest.fixture(scope="module")
def halfmade():
    return json.loads(_load("server-halfmade-cases.json"))


def test_h_killed_controller_left_no_release_directory_without_its_record(server1, halfmade):
    """The ansible-playbook process group was SIGKILLed the moment the release directory appeared: it already
    held its release.json (an older version made the directory one task before the record), and no hidden
    staging directory of the release was left behind."""
    h1 = halfmade["h1"]
    assert h1["killed"] is True and h1["playbook_rc"] == -9, h1
    assert h1["record_at_first_sight"] is True, h1
    rid = h1["release_id"]
    assert halfmade["h1_record"]["release_id"] == rid and halfmade["h1_record"]["status"] == "staged"
    assert halfmade["h1_dirs"] == [rid], halfmade["h1_dirs"]


def test_h_rollback_to_a_half_made_release_is_refused_naming_it(halfmade):
    """A rollback to a release directory without its record says what it is (half-made, never ran, deploy again),
    not 'never deployed here'."""
    h3 = halfmade["h3"]
    assert "passed_unexpectedly" not in h3, h3
    msg = " ".join(h3["msg"].split())
    assert "release %s is half-made on this host" % halfmade["h1"]["release_id"] in msg, msg
    assert "Deploy its inputs again" in msg and "never deployed" not in msg, msg


def test_h_rerun_made_the_release_again_started_and_gated_it(server1, halfmade):
    """The re-run after the kill (with the directory left as an older version left it) made the release whole,
    started it, passed the smoke gate and made it current; the half-made directory of another id and the staging
    leftover are gone; the instance served its model."""
    h4, rid, root = halfmade["h4"], halfmade["h1"]["release_id"], halfmade["root"]
    assert h4["release_id"] == rid and h4["changed"] is True and not h4["failed"], h4
    assert h4["smoke"]["passed"] is True, h4["smoke"]
    assert _show(halfmade["h4_state"])["ActiveState"] == "active"
    assert [m["id"] for m in halfmade["h4_models"]["data"]] == ["tiny-h"]
    assert halfmade["h4_entries"] == [rid], halfmade["h4_entries"]
    # the host now, as a user finds it
    assert server1.file("%s/instances/half/current" % root).linked_to == "%s/releases/%s" % (root, rid)
    rec = json.loads(server1.file("%s/releases/%s/release.json" % (root, rid)).content_string)
    assert rec["release_id"] == rid and rec["status"] == "active" and rec["smoke"]["passed"] is True
    unit = server1.file("%s/releases/%s/sglang-half.service" % (root, rid)).content_string
    assert unit == server1.file("/etc/systemd/system/sglang-half.service").content_string
    assert server1.check_output("ls -A %s/releases" % root).split() == [rid]
