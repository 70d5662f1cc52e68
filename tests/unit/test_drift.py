"""Drift: a running server that differs from its release, a unit no release wrote, an SGLang process outside
any unit. The release's unit is the server role's own template rendered by Jinja; the running server is a
real process (a stand-in `sglang.launch_server` module that sleeps, started with the unit's argv and env)
read through the real /proc; systemctl is answered by a table (no systemd in the unit tests)."""
import os
import subprocess
import sys
import time

import jinja2
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import deploy_state as ds
from ansible_collections.specdeploy.sglang.plugins.module_utils import drift as D
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEMPLATE = os.path.join(ROOT, "roles", "server", "templates", "sglang.service.j2")
# a fake secret (never a real token): the drift report must name the variable, never print this value
SECRET_NAME = "HF_TOKEN"
FAKE_SECRET = "not-a-real-secret-0000"
FLAGS = ["--model-path", "/opt/specdeploy/models/lab--tiny-qwen3@local", "--port", "30000", "--device", "cpu",
         "--chat-template", "100%"]
ENV = {"SGLANG_USE_CPU_ENGINE": "1", "HF_HUB_OFFLINE": "1"}


def render_unit(python, flags=FLAGS, env=ENV, name="main"):
    with open(TEMPLATE) as handle:
        template = jinja2.Template(handle.read(), keep_trailing_newline=True, trim_blocks=True)
    return template.render(
        ansible_managed="managed", __server_inst={"name": name, "spec": {"sglang_version": "0.5.23"}},
        server_start_limit_interval_sec=300, server_start_limit_burst=3, server_user="sglang",
        server_group="sglang", __server_env_lines=common.env_lines(env), server_config_dir="/etc/specdeploy",
        __server_exec_lines=common.exec_lines([python, "-m", "sglang.launch_server"], flags),
        server_restart_sec=2, server_timeout_start_sec=600, server_timeout_stop_sec=60, server_hardening=False,
        server_device_allow=[])


@pytest.fixture
def host(tmp_path):
    """A host tree: <root>/releases/r1/sglang-main.service (the rendered unit), current -> r1, the unit
    installed in unit_dir, the EnvironmentFile."""
    root, units, conf = tmp_path / "root", tmp_path / "units", tmp_path / "conf"
    (root / "releases" / "r1").mkdir(parents=True)
    (root / "instances" / "main").mkdir(parents=True)
    units.mkdir()
    conf.mkdir()
    text = render_unit(sys.executable)
    (root / "releases" / "r1" / "sglang-main.service").write_text(text)
    os.symlink(str(root / "releases" / "r1"), str(root / "instances" / "main" / "current"))
    (units / "sglang-main.service").write_text(text)
    (conf / "main.env").write_text("# secrets\n%s=%s\n" % (SECRET_NAME, FAKE_SECRET))
    return {"root": str(root), "units": str(units), "conf": str(conf), "text": text, "tmp": tmp_path}


def start(tmp_path, flags=FLAGS, env=ENV, extra_env=None):
    """A real process whose /proc cmdline is `python -m sglang.launch_server <flags>` (a stand-in module)."""
    pkg = tmp_path / "fake" / "sglang"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "launch_server.py").write_text("import time\ntime.sleep(60)\n")
    run_env = dict(env, HOME="/var/lib/sglang-main", PATH="/usr/bin:/bin", **{SECRET_NAME: FAKE_SECRET},
                   INVOCATION_ID="abc")  # the EnvironmentFile's secret and one of systemd's own
    run_env.update(extra_env or {})
    proc = subprocess.Popen([sys.executable, "-m", "sglang.launch_server"] + list(flags), env=run_env,
                            cwd=str(tmp_path / "fake"))
    for _ in range(50):  # the process is exec'd once its cmdline names the module
        with open("/proc/%d/cmdline" % proc.pid, "rb") as handle:
            if b"sglang.launch_server" in handle.read():
                break
        time.sleep(0.02)
    return proc


def systemctl(pid, environment='HOME=/var/lib/sglang-main HF_HUB_OFFLINE=1 SGLANG_USE_CPU_ENGINE=1'):
    def run(argv):
        if argv[:2] == ["systemctl", "show-environment"]:
            return "LANG=C.UTF-8\nPATH=/usr/bin\n"
        return "MainPID=%s\nActiveState=active\nEnvironment=%s\n" % (pid, environment)
    return run


def found(host, proc, replaces=(), run=None, instances=("main",)):
    """The host's drift; the stand-in server runs outside systemd here, so its own `outside` entry is
    checked once (test_a_real_process_outside_systemd_is_outside_any_unit) and left out elsewhere."""
    got = D.host_drift(host["root"], list(instances), replaces, unit_dir=host["units"], config_dir=host["conf"],
                       proc=only(host["tmp"], proc), run=run or systemctl(proc.pid if proc else 0))
    return [d for d in got if not (d["kind"] == "outside" and proc and " pid %d " % proc.pid in d["what"])]


def only(tmp_path, proc):
    """A /proc holding the stand-in server alone (a link to its real /proc entry): the machine's other
    processes, SGLang servers of other runs included, are not this test's."""
    root = tmp_path / ("proc-%d" % (proc.pid if proc else 0))
    root.mkdir(exist_ok=True)
    if proc and not (root / str(proc.pid)).exists():
        os.symlink("/proc/%d" % proc.pid, str(root / str(proc.pid)))
    return str(root)


def test_a_real_process_outside_systemd_is_outside_any_unit(host):
    proc = start(host["tmp"])
    try:
        got = D.host_drift(host["root"], ["main"], (), unit_dir=host["units"], config_dir=host["conf"],
                           proc=only(host["tmp"], proc), run=systemctl(0))
    finally:
        proc.kill()
        proc.wait()
    mine = [d for d in got if " pid %d " % proc.pid in d["what"]]
    cmdline = "%s -m sglang.launch_server %s" % (sys.executable, " ".join(FLAGS))
    want = "SGLang process pid %d (%s) runs outside any unit" % (proc.pid, cmdline)
    assert len(cmdline) <= D.CMDLINE_SHOWN  # a checkout at a deeper path must not cut this one (CI did at 160)
    assert got == mine == [{"kind": "outside", "what": want}]


def test_a_long_stray_command_line_is_cut_at_a_word_and_marked():
    words = ["/opt/env/bin/python3", "-m", "sglang.launch_server"] + ["--flag-%02d value" % i for i in range(40)]
    shown = D.shown_cmdline(" ".join(words))
    assert shown.endswith(" ...") and len(shown) <= D.CMDLINE_SHOWN + 4
    assert (" ".join(words)).startswith(shown[:-4] + " ")  # cut between two words, nothing rewritten
    assert D.shown_cmdline("python -m sglang.launch_server --port 1") == "python -m sglang.launch_server --port 1"


def test_unit_words_undo_the_role_quoting():
    words, env = D.unit_words(render_unit("/opt/env/bin/python"))
    assert words == ["/opt/env/bin/python", "-m", "sglang.launch_server"] + FLAGS  # 100%% is 100% again
    assert env == dict(ENV, HOME="/var/lib/sglang-main")


def test_a_server_as_its_release_wrote_it_has_no_drift(host):
    proc = start(host["tmp"])
    try:
        assert found(host, proc) == []
    finally:
        proc.kill()
        proc.wait()


def test_a_server_restarted_by_hand_with_an_extra_flag_is_named(host):
    proc = start(host["tmp"], flags=FLAGS[:3] + ["30001"] + FLAGS[4:] + ["--enable-metrics"])
    try:
        got = found(host, proc)
    finally:
        proc.kill()
        proc.wait()
    assert [d["kind"] for d in got] == ["process"]
    assert got[0]["what"] == ("sglang-main.service (pid %d): its command line differs from release r1: "
                              "+--enable-metrics, --port 30001 (release: 30000)" % proc.pid)


def test_an_environment_changed_by_hand_is_named_without_values(host):
    proc = start(host["tmp"], env=dict(ENV, HF_HUB_OFFLINE="0"), extra_env={"SGLANG_EXTRA": "x"})
    try:
        got = found(host, proc)
    finally:
        proc.kill()
        proc.wait()
    assert len(got) == 1 and got[0]["kind"] == "process"
    assert got[0]["what"].endswith("its environment differs from release r1: HF_HUB_OFFLINE differs, "
                                   "SGLANG_EXTRA is set outside the release")
    assert "not-a-real-secret" not in got[0]["what"] and "=0" not in got[0]["what"]


def test_without_the_environ_the_units_loaded_environment_is_compared(host, tmp_path):
    """Root in an unprivileged container may not read another user's /proc/<pid>/environ: the unit's loaded
    Environment= (systemctl show) stands in, which is where a drop-in's Environment= shows."""
    obs = D.observe(host["root"], ["main"], unit_dir=host["units"], config_dir=host["conf"], proc=only(tmp_path, None),
                    run=systemctl(os.getpid(), 'HOME=/var/lib/sglang-main HF_HUB_OFFLINE=1 '
                                               'SGLANG_USE_CPU_ENGINE=1 "NCCL_DEBUG=INFO x"'))
    row = obs["instances"]["main"]
    row["environ"], row["environ_error"] = None, "Permission denied"
    row["argv"] = [sys.executable, "-m", "sglang.launch_server"] + FLAGS
    got = D.drift(obs, ["main"])
    assert [d["what"] for d in got] == [
        "sglang-main.service (pid %d): its unit's loaded Environment= (a drop-in?) differs from release r1: "
        "NCCL_DEBUG is set outside the release" % os.getpid()]


def test_units_no_release_wrote(host):
    units = host["units"]
    with open(os.path.join(units, "sglang-handmade.service"), "w") as handle:
        handle.write("[Service]\nExecStart=/usr/bin/python3 -m sglang.launch_server --port 30009\n")
    with open(os.path.join(units, "llm.service"), "w") as handle:  # any name: its ExecStart runs SGLang
        handle.write("[Service]\nExecStart=/opt/venv/bin/sglang serve --model-path /m\n")
    with open(os.path.join(units, "sshd.service"), "w") as handle:
        handle.write("[Service]\nExecStart=/usr/sbin/sshd -D\n")
    with open(os.path.join(units, "sglang-nextn.service"), "w") as handle:
        handle.write("[Service]\nExecStart=/usr/bin/python3 -m sglang.launch_server\n")
    os.mkdir(os.path.join(units, "sglang-main.service.d"))
    with open(os.path.join(units, "sglang-main.service.d", "override.conf"), "w") as handle:
        handle.write("[Service]\nEnvironment=X=1\n")
    got = [d["what"] for d in found(host, None, replaces=["sglang-nextn.service"])]
    assert got == ["llm.service: no release wrote this unit", "sglang-handmade.service: no release wrote this unit",
                   "sglang-main.service is overridden by drop-in %s/sglang-main.service.d/override.conf (no release "
                   "wrote it)" % units]


def test_an_edited_unit_and_a_unit_of_an_instance_the_inventory_dropped(host):
    with open(os.path.join(host["units"], "sglang-main.service"), "a") as handle:
        handle.write("# edited\n")
    with open(os.path.join(host["units"], "sglang-old.service"), "w") as handle:
        handle.write(host["text"])  # byte for byte release r1's unit
    got = [d["what"] for d in found(host, None)]
    assert got == ["sglang-main.service differs from every release's unit (edited by hand?)",
                   "sglang-old.service is release r1's unit, but no instance old is in server_instances"]


def _fake_proc(root, procs):
    for pid, (cmdline, unit, ppid) in procs.items():
        d = root / str(pid)
        d.mkdir(parents=True)
        (d / "cmdline").write_bytes(cmdline.replace(" ", "\0").encode() + b"\0")
        (d / "cgroup").write_text("0::/system.slice/%s\n" % unit if unit else "0::/\n")
        (d / "status").write_text("Uid:\t0\t0\t0\t0\n")
        (d / "stat").write_text("%d (python3) S %d 1 1 0 -1\n" % (pid, ppid))
    return str(root)


def test_sglang_processes_outside_any_unit(host, tmp_path):
    proc = _fake_proc(tmp_path / "proc", {
        200: ("/usr/bin/python3 -m sglang.launch_server --port 30001 --enable-metrics", None, 1),
        201: ("sglang::scheduler", None, 200),  # its child: not named again
        300: ("/usr/bin/python3 -m sglang.launch_server --port 30000", "sglang-main.service", 1),
        301: ("sglang::scheduler", "sglang-main.service", 300),
        400: ("sglang::detokenizer", None, 1),  # an orphan
        500: ("/usr/bin/python3 -m sglang.launch_server", "sglang-nextn.service", 1),
        600: ("/usr/bin/python3 -m sglang.launch_server", "run-u7.service", 1),
    })
    got = [d["what"] for d in D.host_drift(host["root"], ["main"], ["sglang-nextn.service"], unit_dir=host["units"],
                                           config_dir=host["conf"], proc=proc, run=systemctl(0))]
    assert got == [
        "SGLang process pid 200 (/usr/bin/python3 -m sglang.launch_server --port 30001 --enable-metrics) runs "
        "outside any unit",
        "SGLang process pid 400 (sglang::detokenizer) runs outside any unit",
        "SGLang process pid 600 (/usr/bin/python3 -m sglang.launch_server) runs in run-u7.service, which no "
        "release wrote"]


def _served(root, pid, flags, env=ENV):
    """/proc of a server in sglang-main.service: the unit's main process with `flags` (a table, like _fake_proc)."""
    d = root / str(pid)
    d.mkdir(parents=True)
    argv = [sys.executable, "-m", "sglang.launch_server"] + list(flags)
    (d / "cmdline").write_bytes(("\0".join(argv) + "\0").encode())
    environ = dict(env, HOME="/var/lib/sglang-main", INVOCATION_ID="abc", **{SECRET_NAME: FAKE_SECRET})
    (d / "environ").write_bytes("".join("%s=%s\0" % kv for kv in sorted(environ.items())).encode())
    (d / "cgroup").write_text("0::/system.slice/sglang-main.service\n")
    (d / "status").write_text("Uid:\t998\t998\t998\t998\n")
    (d / "stat").write_text("%d (python3) S 1 1 1 0 -1\n" % pid)
    return str(root)


def test_the_deploy_fast_path_takes_a_drifted_host_through_the_full_deploy(host, tmp_path):
    """deploy_state.check: a host as recorded, active and healthy, but its server runs an extra flag: not
    converged, and the difference says why; the same host serving its release's command line is converged."""
    def run_for(pid):
        def run(argv):
            if "--property=ActiveState,SubState" in argv:
                return "ActiveState=active\nSubState=running\n"
            return systemctl(pid)(argv)
        return run
    ds.record(host["root"], "k", ["main"], unit_dir=host["units"], gpu_dir=str(host["tmp"] / "none"))
    kwargs = dict(unit_dir=host["units"], gpu_dir=str(host["tmp"] / "none"), probe=lambda url, timeout: None,
                  config_dir=host["conf"])
    proc = _served(tmp_path / "proc1", 700, FLAGS + ["--enable-metrics"])
    converged, why, _links = ds.check(host["root"], "k", ["main"], run=run_for(700), proc=proc, **kwargs)
    assert not converged
    assert why == ["drift: sglang-main.service (pid 700): its command line differs from release r1: "
                   "+--enable-metrics"]
    proc = _served(tmp_path / "proc2", 701, FLAGS)
    assert ds.check(host["root"], "k", ["main"], run=run_for(701), proc=proc, **kwargs)[:2] == (True, [])


def test_a_hand_made_unit_alone_takes_the_host_through_the_full_deploy(host, tmp_path):
    """Nothing else differs (recorded files, releases, services all as recorded): the hand-made unit is the
    difference, named beside an edited unit when there is one too."""
    def run(argv):
        return ("ActiveState=active\nSubState=running\n" if "--property=ActiveState,SubState" in argv
                else systemctl(0)(argv))
    kwargs = dict(unit_dir=host["units"], gpu_dir=str(host["tmp"] / "none"), probe=lambda url, timeout: None,
                  config_dir=host["conf"], proc=only(tmp_path, None), run=run)
    ds.record(host["root"], "k", ["main"], unit_dir=host["units"], gpu_dir=str(host["tmp"] / "none"))
    assert ds.check(host["root"], "k", ["main"], **kwargs)[:2] == (True, [])
    with open(os.path.join(host["units"], "sglang-handmade.service"), "w") as handle:
        handle.write("[Service]\nExecStart=/usr/bin/python3 -m sglang.launch_server --port 30099\n")
    assert ds.check(host["root"], "k", ["main"], **kwargs)[:2] == (
        False, ["drift: sglang-handmade.service: no release wrote this unit"])
    with open(os.path.join(host["units"], "sglang-main.service"), "a") as handle:
        handle.write("# edited\n")
    assert ds.check(host["root"], "k", ["main"], **kwargs)[1] == [
        "%s/sglang-main.service changed" % host["units"],
        "drift: sglang-handmade.service: no release wrote this unit",
        "drift: sglang-main.service differs from every release's unit (edited by hand?)"]
