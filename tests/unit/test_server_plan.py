"""The server role's plan over a table of host states, without Ansible; the pieces it is built from."""
import http.server
import os
import socket
import threading

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp
from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as sglang_spec

SPEC = {"sglang_version": "0.5.23", "model_path": "/m", "host": "192.0.2.10", "port": 30001}
INST = {"name": "main", "spec": SPEC}
VALID = {"ok": True, "argv": ["--model-path", "/m", "--host", "192.0.2.10", "--port", "30001"],
         "env": {"A": "1"}, "resolved": {"model_path": "/m", "speculative_algorithm": None, "port": 30001},
         "validator": "sglang_flags", "notes": [{"message": "n1"}]}
UNIT = "[Service]\nExecStart=/v/bin/python\n"
SETTINGS = {"root": "/opt/specdeploy", "lock_hash": "L", "python": "/v/bin/python", "validator": "sglang_flags",
            "smoke": {"timeout": 600, "expect_keys": ["model_path"], "runs": 2}}
SECRETS = sp.sha256_text(sp.secrets_text("main", {"HF_TOKEN": "not-a-real-secret-1234"}))
RID = rel.release_id({"instance": "main", "sglang_version": "0.5.23", "lock_hash": "L", "unit": UNIT})
OLD = "0123456789abcdef"
OLD_REC = {"inputs": {"spec": dict(SPEC, host="0.0.0.0", port=30000)}, "validation": {"resolved": {"model_path": "/old"}}}


def observed(current=None, previous=None, unit=UNIT, state="active", secrets=SECRETS, replaced=None,
             records=None, pending=False):
    return {"links": {"current": current, "previous": previous},
            "records": records if records is not None else ({OLD: OLD_REC} if OLD in (current, previous) else {}),
            "releases": [r for r in (current, previous) if r],
            "unit_sha256": sp.sha256_text(unit) if unit is not None else None,
            "unit_state": {"ActiveState": state}, "replaced": replaced or {},
            "secrets_sha256": secrets, "secrets_pending": pending}


def deploy(obs, inst=INST, settings=SETTINGS):
    return sp.plan(inst, settings, obs, validation=VALID, unit_text=UNIT, secrets_text_sha256=SECRETS)


# state -> (action, restart, words in the reasons)
CASES = [
    ("fresh host", observed(unit=None, state="inactive", secrets=None), "install", True, "no release installed"),
    ("same release", observed(current=RID, previous=OLD), "nothing", False, None),
    ("changed release", observed(current=OLD), "install", True, "release changed (current %s)" % OLD),
    ("hand-edited unit", observed(current=RID, unit=UNIT + "# edit\n"), "put_back_unit", True, "edited by hand"),
    ("unit file deleted", observed(current=RID, unit=None), "put_back_unit", True, "missing"),
    ("service stopped", observed(current=RID, state="failed"), "restart", True, "the service is failed"),
    ("secrets changed", observed(current=RID, secrets="0" * 64), "restart", True, "secrets (server_secrets) changed"),
    ("secrets of an unfinished run", observed(current=RID, pending=True), "restart", True, "earlier run"),
    ("its gate did not finish", observed(current=RID, records={RID: {"status": "staged"}}), "restart", True,
     "its gate did not finish"),
]


@pytest.mark.parametrize("name,obs,action,restart,why", CASES, ids=[c[0] for c in CASES])
def test_deploy_plan_table(name, obs, action, restart, why):
    p = deploy(obs)
    assert (p["action"], p["restart"]) == (action, restart), p["reasons"]
    if why:
        assert any(why in r for r in p["reasons"]), p["reasons"]
        assert why.split(" (")[0] in p["message"]
    else:
        assert p["reasons"] == [] and "nothing to do" in p["message"]
    # one definition of names and addresses, whatever the state
    assert p["unit"] == "sglang-main.service" and p["unit_path"] == "/etc/systemd/system/sglang-main.service"
    assert p["url"] == "http://192.0.2.10:30001" == p["smoke"]["url"] and p["port"] == 30001
    assert p["release_id"] == RID and p["unit_src"] == "/opt/specdeploy/releases/%s/sglang-main.service" % RID
    assert p["result"]["changed"] is restart and p["result"]["failed"] is False


def test_changed_release_restores_the_old_one_at_its_own_address():
    p = deploy(observed(current=OLD))
    assert p["previous_release_id"] == OLD
    assert p["restore"]["release_id"] == OLD
    # the old release bound every address: probed on loopback, its own port, its own expected settings
    assert p["restore"]["url"] == "http://127.0.0.1:30000" == p["restore"]["smoke"]["url"]
    assert p["restore"]["smoke"]["expect"] == {"model_path": "/old"}
    assert p["smoke"]["expect"] == {"model_path": "/m"}


def test_fresh_host_has_nothing_to_restore_and_a_staged_record_without_secrets():
    p = deploy(observed(unit=None, state="inactive", secrets=None))
    assert p["restore"] is None and not p["exists"]
    rec = p["record"]
    assert rec["status"] == "staged" and rec["release_id"] == RID and rec["argv"] == VALID["argv"]
    assert rec["validation"]["notes"] == ["n1"] and rec["inputs"]["spec"] == SPEC
    assert "not-a-real-secret-1234" not in sp.canonical(p)


def test_migration_stops_only_units_that_are_there_and_running_or_enabled():
    repl = {"old-a.service": {"LoadState": "loaded", "ActiveState": "active", "UnitFileState": "enabled"},
            "old-b.service": {"LoadState": "not-found", "ActiveState": "inactive", "UnitFileState": ""},
            "old-c.service": {"LoadState": "loaded", "ActiveState": "inactive", "UnitFileState": "disabled"}}
    p = deploy(observed(unit=None, state="inactive", secrets=None, replaced=repl))
    assert p["replace"] == [{"unit": "old-a.service", "active": True, "enabled": True}]
    assert p["replace_missing"] == ["old-b.service"] and p["replace_idle"] == ["old-c.service"]
    assert "Before it starts, stopping and disabling old-a.service (server_replaces_units" in p["message"]
    checked = sp.plan(INST, dict(SETTINGS, check_mode=True), observed(unit=None, state="inactive", replaced=repl),
                      validation=VALID, unit_text=UNIT)
    assert "would be installed and started (current: none)" in checked["message"]
    assert "Before it starts, it would stop and disable old-a.service" in checked["message"]
    assert p["result"]["replaced_units"] == ["old-a.service"]
    # an unchanged, running release never touches them
    assert deploy(observed(current=RID, replaced=repl))["replace"] == []


def test_replaced_units_put_back_or_not():
    replace = [{"unit": "old-a.service", "active": True, "enabled": True}]
    record, lines = sp.restored_units(replace, {"old-a.service": {"ActiveState": "active", "UnitFileState": "enabled"}})
    assert record == [dict(replace[0], restored=True)] and "enabled and started again" in lines[0]
    record, lines = sp.restored_units(replace, {"old-a.service": {"ActiveState": "failed", "UnitFileState": "enabled"}})
    assert record[0]["restored"] is False and "could NOT be put back" in lines[0]


@pytest.mark.parametrize("to,links,records,refused", [
    ("previous", (OLD, None), {OLD: OLD_REC}, "there is none"),
    ("feedfacefeedface", (OLD, None), {OLD: OLD_REC}, "not on this host"),
    ("previous", (RID, OLD), {}, "not on this host"),
])
def test_rollback_target_missing_is_refused(to, links, records, refused):
    p = sp.plan(INST, dict(SETTINGS, rollback_to=to), observed(*links, records=records), mode="rollback")
    assert p["action"] == "refuse" and not p["restart"] and refused in p["refused"]
    assert "untouched" in p["message"] and p["result"]["failed"] and p["result"]["changed"] is False


def test_rollback_starts_the_previous_release_at_its_recorded_address():
    cur = {"inputs": {"spec": SPEC}, "validation": {"resolved": {"model_path": "/m"}}}
    p = sp.plan(INST, dict(SETTINGS, rollback_to="previous"), observed(RID, OLD, records={RID: cur, OLD: OLD_REC}),
                mode="rollback")
    assert p["action"] == "rollback" and p["release_id"] == OLD and p["restart"]
    assert p["url"] == "http://127.0.0.1:30000" and p["smoke"]["expect"] == {"model_path": "/old"}
    assert p["restore"]["release_id"] == RID and p["restore"]["url"] == "http://192.0.2.10:30001"
    assert p["replace"] == [] and p["result"]["rollback"] is True
    same = sp.plan(INST, dict(SETTINGS, rollback_to=OLD), observed(OLD, RID, records={RID: cur, OLD: OLD_REC}),
                   mode="rollback")
    assert same["action"] == "nothing" and not same["restart"]


def test_result_is_one_shape_for_every_outcome():
    p = deploy(observed(current=OLD))
    keys = set(p["result"])
    failed = sp.result(p, {"smoke": {"passed": False, "invocation": {}}, "rollback_smoke": {"passed": True},
                           "error": "smoke FAILED"})
    refused = sp.result(p, {"refused": ["port 30001 is taken"]})
    assert set(failed) == keys == set(refused)
    assert failed["failed"] and failed["smoke"] == {"passed": False} and failed["rollback_smoke"] == {"passed": True}
    assert refused["failed"] and refused["changed"] is False and refused["refused"] == ["port 30001 is taken"]


def test_smoke_args_one_mapping():
    a = sp.smoke_args(dict(SPEC, speculative={"algorithm": "DFLASH"}), {"model_path": "/m", "x": 1},
                      {"timeout": 33, "max_new_tokens": 4}, {"timeout": 7, "unknown": 1}, "sglang-main.service")
    # the instance's smoke dict over the role's server_smoke_*, over the built-in defaults
    assert a["timeout"] == 33 and a["max_new_tokens"] == 4 and a["runs"] == 2 and a["speculative"] is True
    # no expect_keys given: the one default list (smoke.SETTINGS, the role's server_smoke_expect_keys)
    assert a["expect"] == {"model_path": "/m"} and "unknown" not in a
    assert sp.smoke_args({}, {}, None, None, "u")["speculative"] is False
    assert sp.smoke_args({}, {}, None, None, "u")["timeout"] == 1800


def test_bad_inputs_are_messages():
    with pytest.raises(sp.PlanError, match="instance name"):
        sp.plan({"name": "Bad Name"}, {}, observed())
    with pytest.raises(sp.PlanError, match="validation"):
        sp.plan(INST, {}, observed(), validation={"ok": False}, unit_text=UNIT)
    with pytest.raises(sp.PlanError, match="control character LF"):
        sp.secrets_text("main", {"A": "x\ny"})
    with pytest.raises(sp.PlanError, match="look like secrets"):
        sp.unit_lines(["/p"], {"argv": [], "env": {"DB_PASSWD": "x"}}, INST)


def test_secrets_file_write_restore_and_drop(tmp_path):
    path = str(tmp_path / "etc" / "main.env")
    old = sp.secrets_text("main", {"HF_TOKEN": "old_value_123456"})
    new = sp.secrets_text("main", {"HF_TOKEN": "new_value_123456"})
    assert sp.write_secrets(path, old) and not sp.write_secrets(path, old)
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    assert sp.write_secrets(path, new)
    obs = sp.observe(str(tmp_path), "main", config_dir=str(tmp_path / "etc"), run=lambda argv: "")
    assert obs["secrets_pending"] and obs["secrets_sha256"] == sp.sha256_text(new)
    assert sp.restore_secrets(path) and open(path).read() == old
    assert sp.write_secrets(path, new) and sp.drop_secrets_backup(path)
    assert not os.path.exists(path + ".previous") and open(path).read() == new


def test_one_secret_pattern_on_controller_and_host():
    env = {"DB_PASSWD": "x", "MY_PRIVATE_KEY": "x", "OPENAI_APIKEY": "x", "SGLANG_USE_CPU_ENGINE": "1"}
    assert common.secret_like(env) == rel.secret_like(env) == ["DB_PASSWD", "MY_PRIVATE_KEY", "OPENAI_APIKEY"]
    assert sglang_spec.SECRET_ENV is common.SECRET_NAME


def test_one_quoting_for_the_unit_and_the_validation_report():
    argv = ["--chat-template", "100%$x", "--served-model-name", "a b", "--speculative-eagle-topk", "-1"]
    assert sglang_spec.unit_exec_lines(argv) == common.exec_lines([], argv) == [
        '"--chat-template" "100%%$$x"', '"--served-model-name" "a b"', '"--speculative-eagle-topk" "-1"']


@pytest.mark.parametrize("spec,url", [
    ({}, "http://127.0.0.1:30000"), ({"host": "0.0.0.0", "port": 1}, "http://127.0.0.1:1"),
    ({"host": "::"}, "http://127.0.0.1:30000"), ({"host": "192.0.2.10"}, "http://192.0.2.10:30000"),
    ({"host": "fd00::1", "port": 8}, "http://[fd00::1]:8")])
def test_listen_address(spec, url):
    assert common.base_url(spec) == url


class _Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def test_requests_to_the_host_own_server_ignore_a_dead_proxy(monkeypatch):
    """http_proxy pointing at a closed port: the smoke client and /health still reach the server."""
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    port = dead.getsockname()[1]
    dead.close()  # nothing listens there now
    server = http.server.HTTPServer(("127.0.0.1", 0), _Ok)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy"):
            monkeypatch.setenv(var, "http://127.0.0.1:%d" % port)
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        url = "http://127.0.0.1:%d" % server.server_address[1]
        import urllib.request
        with pytest.raises(OSError):  # the default opener goes to the dead proxy
            urllib.request.build_opener().open(url + "/health", timeout=5)
        assert smoke.Http(url).request("GET", "/health")[0] == 200
        from ansible_collections.specdeploy.sglang.plugins.module_utils import deploy_state
        assert deploy_state.health(url + "/health") is None
    finally:
        server.shutdown()


def test_a_failed_restart_of_the_release_that_stays_current_keeps_it_active():
    p = deploy(observed(current=RID, secrets="0" * 64))
    assert p["restore"]["release_id"] == p["release_id"] == RID
    assert sp.record_status(p, "failed", {"passed": True}) == "active"
    assert sp.record_status(p, "failed", {"passed": False}) == "failed"
    assert sp.record_status(deploy(observed(current=OLD)), "failed", {"passed": True}) == "failed"


def test_the_restore_smoke_does_not_take_the_new_release_smoke_overrides():
    inst = dict(INST, smoke={"expect_substrings": ["only the new release writes this"], "timeout": 9})
    p = sp.plan(inst, SETTINGS, observed(current=OLD), validation=VALID, unit_text=UNIT, secrets_text_sha256=SECRETS)
    assert p["smoke"]["expect_substrings"] == ["only the new release writes this"] and p["smoke"]["timeout"] == 9
    assert p["restore"]["smoke"]["expect_substrings"] == [] and p["restore"]["smoke"]["timeout"] == 600


def test_half_made_release_is_made_again_by_a_deploy_and_named_by_a_rollback(tmp_path):
    """A release directory without release.json (an older version killed between the directory and its
    record) is no release: the deploy of that id makes it again (and says so); a rollback to it is refused
    as half-made, not as 'never deployed'."""
    root = str(tmp_path)
    rel.create(root, OLD, {"release_id": OLD, "instance": "main", "status": "active", "argv": [], **OLD_REC})
    rel.activate(root, "main", OLD)
    os.makedirs(os.path.join(root, "releases", RID))
    obs = sp.observe(root, "main", config_dir=str(tmp_path / "etc"), run=lambda argv: "")
    assert obs["releases"] == [OLD] and obs["half_made"] == [RID]
    p = deploy(obs, settings=dict(SETTINGS, root=root))
    assert p["release_id"] == RID and p["exists"] is False and p["half_made"] is True
    assert p["action"] == "install" and "is half-made (no release.json: an interrupted deploy); it is made again" \
        in p["message"]
    back = sp.plan(INST, dict(SETTINGS, root=root, rollback_to=RID),
                   sp.observe(root, "main", rollback_to=RID, config_dir=str(tmp_path / "etc"), run=lambda argv: ""),
                   mode="rollback")
    assert back["action"] == "refuse" and not back["restart"]
    assert "release %s is half-made on this host" % RID in back["refused"]
    assert "never deployed" not in back["message"] and "current release %s untouched" % OLD in back["message"]
