"""Release ids, systemd escaping, activation, pruning and the pre-restart probe (on a temp tree)."""
import os
import socket
import subprocess
import sys
import time

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr


def test_release_id_is_stable_and_order_independent():
    a = rel.release_id({"argv": ["--port", "1"], "env": {"A": "1", "B": "2"}})
    b = rel.release_id({"env": {"B": "2", "A": "1"}, "argv": ["--port", "1"]})
    c = rel.release_id({"argv": ["--port", "2"], "env": {"A": "1", "B": "2"}})
    assert a == b and a != c and len(a) == 16


@pytest.mark.parametrize("arg,quoted", [
    ("--mem-fraction-static", '"--mem-fraction-static"'),
    ("50%", '"50%%"'),
    ("$HOME/x", '"$$HOME/x"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("a\\b", '"a\\\\b"'),
])
def test_systemd_quote(arg, quoted):
    assert rel.systemd_quote(arg) == quoted


def test_newline_refused():
    with pytest.raises(rel.ReleaseError, match="newline"):
        rel.systemd_quote("a\nb")


def test_exec_lines_one_flag_per_line():
    lines = rel.exec_lines(["/v/bin/python", "-m", "sglang.launch_server"],
                           ["--model-path", "/m", "--disable-cuda-graph", "--port", "30000"])
    assert lines == ['"/v/bin/python" "-m" "sglang.launch_server"', '"--model-path" "/m"',
                     '"--disable-cuda-graph"', '"--port" "30000"']


def test_env_lines_escape_percent_not_dollar():
    assert rel.env_lines({"B": "50%", "A": "x$y"}) == ['"A=x$y"', '"B=50%%"']
    with pytest.raises(rel.ReleaseError):
        rel.env_lines({"BAD-NAME": "1"})


def test_escaped_unit_survives_systemd_analyze(tmp_path):
    """The escaping is what systemd itself un-escapes (needs systemd-analyze on the controller)."""
    assert os.path.exists("/usr/bin/systemd-analyze"), "install systemd: this test needs systemd-analyze"
    unit = tmp_path / "x.service"
    unit.write_text("[Service]\nExecStart=%s\n" % " \\\n  ".join(
        rel.exec_lines(["/bin/echo"], ["--a", "50%", "--b", "$HOME"])))
    out = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert "x.service:" not in out.stderr


def test_secret_like_names_and_values():
    assert rel.secret_like({"HF_TOKEN": "x", "SGLANG_USE_CPU_ENGINE": "1", "api_key": "k"}) == ["HF_TOKEN", "api_key"]
    rel.check_no_secrets('{"env": {}}', {"HF_TOKEN": "not-a-real-token-abcdefgh"})
    with pytest.raises(rel.ReleaseError, match="HF_TOKEN"):
        rel.check_no_secrets('{"x": "not-a-real-token-abcdefgh"}', {"HF_TOKEN": "not-a-real-token-abcdefgh"})
    # a short value ("1") is everywhere in ordinary text: not a usable signal, not a refusal
    rel.check_no_secrets('{"port": 30001}', {"FLAG": "1"})


def _mk(root, rid, age):
    path = os.path.join(root, "releases", rid)
    os.makedirs(path)
    t = time.time() - age
    rr.write(os.path.join(path, rr.NAME), _record(release_id=rid), now=t)
    os.utime(path, (t, t))


def test_activate_keeps_previous_and_prune_spares_links(tmp_path):
    root = str(tmp_path)
    for i, rid in enumerate(["r1", "r2", "r3", "r4", "r5", "r6"]):
        _mk(root, rid, 600 - i * 60)  # r6 newest
    assert rel.activate(root, "a", "r1")[0]
    changed, before, after = rel.activate(root, "a", "r2")
    assert changed and before == {"current": "r1", "previous": None} and after == {"current": "r2", "previous": "r1"}
    assert not rel.activate(root, "a", "r2")[0]  # idempotent
    rel.activate(root, "b", "r3")
    assert rel.links(root, "a") == {"current": "r2", "previous": "r1"}
    removed = rel.prune(root, keep=2)
    # newest two (r6, r5) kept; r1, r2 (a), r3 (b) linked; r4 goes
    assert removed == ["r4"]
    assert sorted(os.listdir(os.path.join(root, "releases"))) == ["r1", "r2", "r3", "r5", "r6"]


def test_activate_check_mode_changes_nothing(tmp_path):
    root = str(tmp_path)
    _mk(root, "r1", 0)
    changed, _, after = rel.activate(root, "a", "r1", check_mode=True)
    assert changed and after["current"] == "r1"
    assert not os.path.exists(os.path.join(root, "instances", "a", "current"))
    assert rel.prune(root, keep=0, check_mode=True) == ["r1"]
    assert os.path.isdir(os.path.join(root, "releases", "r1"))


def test_activate_unknown_release_is_refused(tmp_path):
    with pytest.raises(rel.ReleaseError, match="does not exist"):
        rel.activate(str(tmp_path), "a", "nope")


def _record(**kw):
    out = {"release_id": "r", "instance": "a", "status": "staged", "inputs": {"spec": {}}, "argv": []}
    out.update(kw)
    return out


def test_prune_orders_by_creation_not_by_the_last_record_update(tmp_path):
    """A release that failed long ago and got its record rewritten later (status, smoke) is still old:
    prune keeps the releases made last."""
    root = str(tmp_path)
    for i, rid in enumerate(["a", "f1", "f3", "f8", "b"]):
        os.makedirs(os.path.join(root, "releases", rid))
        rr.write(os.path.join(root, "releases", rid, "release.json"), _record(), now=1000 + i)
    rel.activate(root, "main", "a")
    rel.activate(root, "main", "b")
    # f1's status written last: its directory is now the newest by mtime
    rr.write(os.path.join(root, "releases", "f1", "release.json"), _record(status="failed"))
    assert rel.prune(root, keep=3) == ["f1"]
    assert sorted(os.listdir(os.path.join(root, "releases"))) == ["a", "b", "f3", "f8"]


def test_preflight_finds_a_real_port_holder():
    """A real listening socket of this very process is reported as a foreign holder."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    port = sock.getsockname()[1]
    try:
        result = rel.preflight("main", port)
    finally:
        sock.close()
    assert [h["pid"] for h in result["port_holders"]] == [os.getpid()]
    assert "port %d is already taken by pid %d" % (port, os.getpid()) in result["problems"][0]
    assert rel.preflight("main", port)["port_holders"] == []


def test_preflight_finds_leftover_sglang_process(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", "sglang.launch_server"])
    try:
        time.sleep(0.2)
        leftovers = rel.preflight("main", 1)["leftovers"]
    finally:
        proc.kill()
        proc.wait()
    assert proc.pid in [p["pid"] for p in leftovers]


def test_unreadable_socket_is_attributed_by_uid(tmp_path):
    """A fake /proc: the listening socket's process fds are unreadable (no CAP_SYS_PTRACE in a
    container); the socket uid matches the unit's process -> the unit's own; else foreign."""
    proc = tmp_path
    (proc / "net").mkdir()
    header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    line = "   0: 0100007F:7530 00000000:0000 0A 00000000:00000000 00:00000000 00000000   999        0 4242 1\n"
    (proc / "net" / "tcp").write_text(header + line)
    (proc / "net" / "tcp6").write_text(header)
    pid = proc / "77"
    pid.mkdir()
    (pid / "cmdline").write_bytes(b"sglang::scheduler\0")
    (pid / "cgroup").write_text("1:name=systemd:/system.slice/sglang-main.service\n")
    (pid / "status").write_text("Name:\tpython\nUid:\t999\t999\t999\t999\n")
    ours = rel.preflight("main", 30000, proc=str(proc))
    assert ours["problems"] == []
    other = rel.preflight("other", 30000, proc=str(proc))
    assert "port 30000 is already taken by pid None (a process of uid 999 whose" in other["problems"][0]


# ---- server_replaces_units: holders inside a replaced unit's cgroup are expected ----------------

_TCP_HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"


def _fake_proc(root, procs, port=30000, inode="4242", uid=0):
    """A fake /proc: one socket listening on `port` (owner `uid`), and processes
    {pid: (cmdline, unit or None, uid, holds_socket, fds_readable)}."""
    (root / "net").mkdir()
    line = "   0: 0100007F:%04X 00000000:0000 0A 00000000:00000000 00:00000000 00000000 %5d        0 %s 1\n" % (
        port, uid, inode)
    (root / "net" / "tcp").write_text(_TCP_HEADER + line)
    (root / "net" / "tcp6").write_text(_TCP_HEADER)
    for pid, (cmdline, unit, puid, holds, readable) in procs.items():
        d = root / str(pid)
        d.mkdir()
        (d / "cmdline").write_bytes(cmdline.replace(" ", "\0").encode() + b"\0")
        cgroup = "0::/system.slice/%s\n" % unit if unit else "0::/user.slice/session-1.scope\n"
        (d / "cgroup").write_text(cgroup)
        (d / "status").write_text("Name:\tpython3\nUid:\t%d\t%d\t%d\t%d\n" % (puid, puid, puid, puid))
        if readable:
            (d / "fd").mkdir()
            os.symlink("/dev/null", str(d / "fd" / "0"))
            if holds:
                os.symlink("socket:[%s]" % inode, str(d / "fd" / "3"))
    return str(root)


def test_preflight_port_holder_in_a_replaced_unit_is_expected(tmp_path):
    proc = _fake_proc(tmp_path, {
        120: ("/usr/bin/python3 -m sglang.launch_server --speculative-algorithm NEXTN --port 30000",
              "sglang-nextn.service", 0, True, True),
        121: ("sglang::scheduler_TP0", "sglang-nextn.service", 0, False, True),
    })
    out = rel.preflight("main", 30000, proc=proc, replaces=["sglang-nextn.service"])
    assert out["problems"] == []
    assert out["port_holders"] == [] and out["leftovers"] == []
    assert [(r["pid"], r["unit"], r["reason"]) for r in out["replaced"]] == [
        (120, "sglang-nextn.service", "port"), (121, "sglang-nextn.service", "sglang")]
    assert "the holder of port 30000, pid 120" in out["notes"][0]
    assert "is in sglang-nextn.service, which will be replaced" in out["notes"][0]

    # the same host without the migration list: refused, with a hint naming the variable
    refused = rel.preflight("main", 30000, proc=proc)
    assert refused["replaced"] == []
    assert len(refused["problems"]) == 1
    assert "port 30000 is already taken by pid 120" in refused["problems"][0]
    assert "in sglang-nextn.service" in refused["problems"][0]
    assert "server_replaces_units" in refused["problems"][0]


def test_preflight_holder_outside_the_replaced_units_is_still_refused(tmp_path):
    proc = _fake_proc(tmp_path, {
        130: ("/usr/bin/python3 -m http.server 30000", "squatter.service", 0, True, True),
        131: ("/usr/bin/python3 -m sglang.launch_server --port 30000", "sglang-nextn.service", 0, False, True),
    })
    out = rel.preflight("main", 30000, proc=proc, replaces=["sglang-nextn.service"])
    assert [h["pid"] for h in out["port_holders"]] == [130]
    assert len(out["problems"]) == 1 and "already taken by pid 130" in out["problems"][0]
    assert "in squatter.service" in out["problems"][0]
    # the replaced unit's own SGLang is reported as replaced, not as a problem
    assert [(r["pid"], r["reason"]) for r in out["replaced"]] == [(131, "sglang")]


def test_preflight_holder_outside_any_unit_is_refused_even_with_replacements(tmp_path):
    proc = _fake_proc(tmp_path, {140: ("/usr/bin/python3 -m http.server 30000", None, 0, True, True)})
    out = rel.preflight("main", 30000, proc=proc, replaces=["sglang-nextn.service"])
    assert out["replaced"] == [] and [h["pid"] for h in out["port_holders"]] == [140]
    assert "already taken by pid 140 (/usr/bin/python3 -m http.server 30000); sglang-main" in out["problems"][0]


def test_preflight_sglang_in_a_replaced_unit_without_sglang_prefix(tmp_path):
    """A hand-made unit not named sglang-*: its SGLang processes are leftovers unless it is replaced."""
    proc = _fake_proc(tmp_path, {150: ("sglang::scheduler_TP0", "nextn.service", 0, False, True)}, port=30009)
    assert [p["pid"] for p in rel.preflight("main", 30000, proc=proc)["leftovers"]] == [150]
    out = rel.preflight("main", 30000, proc=proc, replaces=["nextn.service"])
    assert out["problems"] == [] and out["leftovers"] == []
    assert out["replaced"][0]["unit"] == "nextn.service"
    assert out["notes"][0].startswith("SGLang process pid 150 (sglang::scheduler_TP0) is in nextn.service")


def test_preflight_unreadable_socket_attributed_to_a_replaced_unit_by_uid(tmp_path):
    """No CAP_SYS_PTRACE: the socket (uid 998) is matched to the replaced unit that runs as uid 998;
    a socket of another uid stays foreign."""
    procs = {160: ("/opt/nextn/bin/python -m sglang.launch_server", "sglang-nextn.service", 998, True, False)}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    proc = _fake_proc(tmp_path / "a", procs, uid=998)
    out = rel.preflight("main", 30000, proc=proc, replaces=["sglang-nextn.service"])
    assert out["problems"] == []
    assert [(r["pid"], r["uid"], r["unit"]) for r in out["replaced"] if r["reason"] == "port"] == [
        (None, 998, "sglang-nextn.service")]
    other = _fake_proc(tmp_path / "b", procs, uid=1234)
    refused = rel.preflight("main", 30000, proc=other, replaces=["sglang-nextn.service"])
    assert "already taken by pid None (a process of uid 1234 whose sockets cannot be read)" in refused["problems"][0]


def test_preflight_own_unit_in_the_replacement_list_is_ignored(tmp_path):
    """Listing the instance's own unit does not turn its processes into 'replaced' ones."""
    proc = _fake_proc(tmp_path, {170: ("sglang::scheduler_TP0", "sglang-main.service", 0, True, True)})
    out = rel.preflight("main", 30000, proc=proc, replaces=["sglang-main.service"])
    assert out == {"problems": [], "port_holders": [], "leftovers": [], "replaced": [], "notes": []}


def _gated_tree(tmp_path, statuses, installed):
    """releases r1 (current) and r2 with their own units; `installed` is the installed unit's release."""
    root, units = tmp_path / "opt", tmp_path / "units"
    units.mkdir()
    for rid, status in statuses.items():
        (root / "releases" / rid).mkdir(parents=True)
        (root / "releases" / rid / "sglang-main.service").write_text("[Service]\nExecStart=/bin/%s\n" % rid)
        rr.write(rr.path_of(str(root), rid), {"release_id": rid, "instance": "main", "status": status,
                                              "argv": [], "inputs": {"spec": {}}})
    rel.activate(str(root), "main", "r1")
    if installed:
        (units / "sglang-main.service").write_text("[Service]\nExecStart=/bin/%s\n" % installed)
    return str(root), str(units)


@pytest.mark.parametrize("statuses,installed,running,not_gated", [
    ({"r1": "active", "r2": "staged"}, "r1", "r1", None),       # the gate of r2 never restarted anything
    ({"r1": "active", "r2": "staged"}, "r2", "r2", "r2"),       # r2 started, its gate never ended: lost
    ({"r1": "active", "r2": "failed"}, "r2", "r2", None),       # its gate ended (failed; nothing to restore)
    ({"r1": "staged", "r2": "active"}, "r1", "r1", "r1"),       # a restart of the current release, lost
    ({"r1": "active"}, "edited", None, None),                   # a unit no release wrote: drift, not this
    ({"r1": "active"}, None, None, None),                       # no unit installed
])
def test_the_running_release_and_whether_its_gate_finished(tmp_path, statuses, installed, running, not_gated):
    root, units = _gated_tree(tmp_path, statuses, installed)
    assert rel.running_release(root, "main", units) == running
    assert rel.not_gated(root, "main", units) == not_gated


# ---- a release directory never without its record; half-made ones repaired or removed ----------------

UNIT_TEXT = "[Service]\nExecStart=/bin/true\n"


def _listing(root):
    return sorted(os.listdir(os.path.join(root, "releases")))


def test_create_makes_the_directory_with_its_record_and_unit(tmp_path):
    root = str(tmp_path)
    made = rel.create(root, "r1", _record(release_id="r1"), UNIT_TEXT, "sglang-a.service")
    assert made == {"changed": True, "created": True, "repaired": False}
    path = os.path.join(root, "releases", "r1")
    assert rr.load(os.path.join(path, rr.NAME))["release_id"] == "r1"
    assert open(os.path.join(path, "sglang-a.service")).read() == UNIT_TEXT
    assert oct(os.stat(path).st_mode & 0o777) == "0o755"
    assert oct(os.stat(os.path.join(path, "sglang-a.service")).st_mode & 0o777) == "0o644"
    assert _listing(root) == ["r1"]  # no staging directory left
    assert rel.present(root) == ["r1"] and rel.half_made(root) == []
    # again: the release exists, its record unchanged
    assert rel.create(root, "r1", _record(release_id="r1"), UNIT_TEXT, "sglang-a.service")["changed"] is False


@pytest.mark.parametrize("fail_at", ["record", "unit", "rename"])
def test_a_create_killed_at_any_step_leaves_no_release_directory(tmp_path, monkeypatch, fail_at):
    """A kill (here: an exception) at any step before the rename leaves no releases/<id>, only a hidden
    staging directory that is no release; the next create() makes the release and prune clears the rest."""
    root = str(tmp_path)
    os.makedirs(os.path.join(root, "releases"))

    class Killed(BaseException):
        pass

    real_write, real_rename, real_open = rr.write, os.rename, open

    def boom(*_a, **_k):
        raise Killed()

    if fail_at == "record":
        monkeypatch.setattr(rr, "write", boom)
    elif fail_at == "rename":
        monkeypatch.setattr(rel.os, "rename", boom)
    else:
        def unit_open(path, *a, **k):
            if str(path).endswith(".service"):
                raise Killed()
            return real_open(path, *a, **k)
        monkeypatch.setattr("builtins.open", unit_open)
    # the staging directory survives only a real kill (no finally runs): keep it as a kill would
    monkeypatch.setattr(rel.shutil, "rmtree", lambda *_a, **_k: None)
    with pytest.raises(Killed):
        rel.create(root, "r1", _record(release_id="r1"), UNIT_TEXT, "sglang-a.service")
    monkeypatch.undo()
    assert rr.write is real_write and os.rename is real_rename
    assert not os.path.exists(os.path.join(root, "releases", "r1"))
    assert rel.present(root) == [] and rel.half_made(root) == []
    leftovers = rel.staging_leftovers(root)
    assert len(leftovers) == 1 and leftovers[0].startswith(".r1.tmp-")
    # the next run: the release is made whole, its own leftover cleared
    assert rel.create(root, "r1", _record(release_id="r1"), UNIT_TEXT, "sglang-a.service")["created"]
    assert _listing(root) == ["r1"] and rel.present(root) == ["r1"]


@pytest.mark.parametrize("content", [[], ["sglang-a.service"]], ids=["empty", "unit-only"])
def test_a_half_made_release_is_no_release_and_its_next_deploy_repairs_it(tmp_path, content):
    """What an older version left when killed between the directory and its record: no release.json."""
    root = str(tmp_path)
    path = os.path.join(root, "releases", "r1")
    os.makedirs(path)
    for name in content:
        with open(os.path.join(path, name), "w") as handle:
            handle.write("stale\n")
    assert rel.half_made(root) == ["r1"] and rel.present(root) == []
    # check mode says it would make it, and changes nothing
    assert rel.create(root, "r1", _record(release_id="r1"), UNIT_TEXT, "sglang-a.service", check_mode=True) == {
        "changed": True, "created": True, "repaired": True}
    assert rel.half_made(root) == ["r1"]
    made = rel.create(root, "r1", _record(release_id="r1"), UNIT_TEXT, "sglang-a.service")
    assert made == {"changed": True, "created": True, "repaired": True}
    assert rel.present(root) == ["r1"] and rel.half_made(root) == [] and _listing(root) == ["r1"]
    assert rr.load(os.path.join(path, rr.NAME))["status"] == "staged"
    assert open(os.path.join(path, "sglang-a.service")).read() == UNIT_TEXT


def test_prune_removes_half_made_directories_and_staging_leftovers_whatever_keep(tmp_path):
    root = str(tmp_path)
    _mk(root, "good", 60)
    os.makedirs(os.path.join(root, "releases", "half"))
    os.makedirs(os.path.join(root, "releases", ".x1.tmp-abc"))
    os.makedirs(os.path.join(root, "releases", ".x2.half-12"))
    assert rel.prune(root, keep=10, check_mode=True) == [".x1.tmp-abc", ".x2.half-12", "half"]
    assert len(_listing(root)) == 4
    assert rel.prune(root, keep=10) == [".x1.tmp-abc", ".x2.half-12", "half"]
    assert _listing(root) == ["good"]


def test_a_rollback_to_a_half_made_release_names_it(tmp_path):
    root = str(tmp_path)
    _mk(root, "r0", 60)
    rel.activate(root, "a", "r0")
    os.makedirs(os.path.join(root, "releases", "r1"))
    out = rel.rollback_targets(root, rel.instance_links(root, ["a"]), to="r1")
    assert out["targets"] == {} and len(out["problems"]) == 1
    assert "instance a: release r1 is half-made on this host" in out["problems"][0]
    assert "never deployed" not in out["problems"][0]
