"""env_host scenario, in order (each step builds on the last).

After converge (deploy.yml on two hosts: each serves SGLang 0.5.22 from the env of the 0.5.22 lab lock,
the LAB-ONLY prebuilt one) and idempotence:
  1. upgrade: the lock's content replaced in place by the 0.5.23 lab lock: every host takes the full
     deploy and restarts through the gate on the 0.5.23 env, built beside the old one, which is kept;
  2. the lock bumped to a tree-verify build shipped by the controller (env_host-1): the 0.5.23 lab lock with
     its sglang pin replaced by the LAB-ONLY DDTree stand-in (ddtree_standin.py: 0.5.23's released wheel
     plus the fork-db-guo flag), the wheel in gpu_env_wheels: the full deploy builds the new env for real,
     hash-checked, and the probe finds the tree-verify flavor; a second deploy.yml finds the host unchanged;
     ddtree.yml: the installed build validates a verify: tree DFLASH spec and its unit renders the tree
     flag (the plain 0.5.23 env refuses it). Only a GPU host can start it and pass its smoke gate;
  3. rollback.yml to the 0.5.22 release: every host runs the old env and SGLang 0.5.22 again;
  4. gpu_env refuses, with a message saying what was found, what is needed and what to do, and installs
     nothing: a lock asking for glibc 2.99; a lock whose download cannot fit; a python3 without venv.
The playbooks run as a user runs them (ansible-playbook on the controller); the checks read the hosts
(podman exec): the running process's interpreter (/proc/PID/cmdline) and the version the server reports
(/server_info). The env key is recomputed here from the lock's bytes (sha256), not taken from the product.
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys

import testinfra

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "shared"))
import timed_playbook  # noqa: E402  (molecule/shared)

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # molecule/env_host
ROOT = os.path.dirname(os.path.dirname(HERE))
HOSTS = ["env_host-1", "env_host-2"]
NAME = HOSTS[0]
ENVS = "/opt/specdeploy/envs"
UNIT = "sglang-main.service"
NEW_LOCK = os.path.join(ROOT, "lab", "sglang-0.5.23-cpu.lock")
OPENER = "o=urllib.request.build_opener(urllib.request.ProxyHandler({}));"
GEN = ("python3 -c \"import json,urllib.request;" + OPENER +
       "r=urllib.request.Request('http://127.0.0.1:30000/generate',"
       "data=json.dumps({'text':'The quick brown fox','sampling_params':"
       "{'temperature':0,'max_new_tokens':8}}).encode(),"
       "headers={'Content-Type':'application/json'});"
       "print(o.open(r,timeout=120).read().decode())\"")
INFO = ("python3 -c \"import urllib.request;" + OPENER +
        "print(o.open('http://127.0.0.1:30000/server_info',timeout=20).read().decode())\"")
MEMO = {}


def host(name=NAME):
    return testinfra.get_host(f"podman://{name}")


def lock_path():
    return os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "sglang-lab.lock")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def env_dir(text):
    """Where an env of this lock text lives: sha256 of the text as read (trailing whitespace stripped)
    plus the lab-shim marker the lab inventory adds (gpu_env_lab_shim: true)."""
    digest = hashlib.sha256((text.rstrip() + "\n# +specdeploy-lab-shim").encode()).hexdigest()
    return f"{ENVS}/{digest[:20]}"


def playbook(path, *args, report_dir):
    inventory = os.environ.get("MOLECULE_INVENTORY_FILE") or os.path.join(
        os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "inventory")
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=str(report_dir), SPECDEPLOY_LAB_LOCK=lock_path(),
               ANSIBLE_FORCE_COLOR="0")
    where = HERE if not path.startswith("playbooks/") else ROOT
    return timed_playbook.run(["ansible-playbook", "-i", inventory, os.path.join(where, path), *args],
                               cwd=ROOT, env=env)


def served(name=NAME):
    """Release, main PID, the interpreter (argv[0]) of the running server and the version it reports."""
    h = host(name)
    show = h.check_output(f"systemctl show -p ActiveState -p MainPID {UNIT}")
    unit = dict(line.split("=", 1) for line in show.splitlines() if "=" in line)
    argv0 = h.check_output(f"tr '\\0' '\\n' < /proc/{unit['MainPID']}/cmdline | head -1")
    release = os.path.basename(h.check_output("readlink /opt/specdeploy/instances/main/current"))
    version = json.loads(h.check_output(INFO)).get("version")
    return {"state": unit["ActiveState"], "pid": unit["MainPID"], "python": argv0.strip(), "release": release,
            "version": version}


def generate(name=NAME):
    out = json.loads(host(name).check_output(GEN))
    assert out["meta_info"]["completion_tokens"] > 0, out
    return out


def summary(report_dir):
    with open(os.path.join(report_dir, "deploy-summary.json"), encoding="utf-8") as f:
        return {row["host"]: row for row in json.load(f)["hosts"]}


def envs(name=NAME):
    return sorted(host(name).check_output(f"ls -A {ENVS}").split())


def test_every_host_serves_0_5_22_from_the_env_of_its_lock():
    old = env_dir(read(lock_path()))
    before = {}
    for name in HOSTS:
        now = served(name)
        assert now["state"] == "active" and now["python"] == old + "/bin/python", (name, now)
        assert now["version"] == "0.5.22", (name, now)
        # the LAB-ONLY prebuilt 0.5.22 env (prepare linked it; the role found it finished), of this lock
        assert host(name).file(old).linked_to == "/srv/specdeploy-lab/prebuilt-env-0.5.22"
        assert host(name).file(old + "/specdeploy.lock").content_string == read(lock_path())
        generate(name)
        before[name] = now
    # the same inputs on both hosts: one release id, so the rollback below can name it
    assert len({now["release"] for now in before.values()}) == 1, before
    MEMO.update(old_env=old, before=before)


def test_the_lock_replaced_in_place_upgrades_every_host_through_the_gate(tmp_path):
    """The normal upgrade pull request: the lock's content changes, its path and the variables do not."""
    with open(lock_path(), "w", encoding="utf-8") as f:
        f.write(read(NEW_LOCK))
    new = env_dir(read(lock_path()))
    assert new != MEMO["old_env"]
    rc, out = playbook("converge.yml", report_dir=tmp_path)
    assert rc == 0, out
    assert "the desired env_key changed" in out, out         # what the fast path's check found
    rows = summary(tmp_path)
    after = {}
    for name in HOSTS:
        h = host(name)
        recorded = json.loads(h.file("/opt/specdeploy/deploy-state.json").content_string)
        assert recorded["desired"]["env_key"][:20] == os.path.basename(new)
        assert h.file(new + "/.specdeploy-complete").exists
        assert h.file(MEMO["old_env"] + "/.specdeploy-complete").exists   # the old env is kept beside it
        now = served(name)
        assert now["state"] == "active" and now["python"] == new + "/bin/python", (name, now)
        assert now["version"] == "0.5.23", (name, now)
        assert now["release"] != MEMO["before"][name]["release"]
        generate(name)
        row = rows[name]
        assert (row["release_before"], row["release_after"], row["result"]) == \
            (MEMO["before"][name]["release"], now["release"], "changed"), row
        after[name] = now
    MEMO.update(upgraded_env=new, upgraded=after)


def standin():
    """The LAB-ONLY DDTree stand-in build prepare made (ddtree_standin.py): its lock and its wheel."""
    out = os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "ddtree-standin")
    wheels = [os.path.join(out, "wheels", w) for w in os.listdir(os.path.join(out, "wheels")) if w.endswith(".whl")]
    assert len(wheels) == 1, wheels
    return os.path.join(out, "ddtree-standin.lock"), wheels[0]


def wheels_var():
    return json.dumps({"gpu_env_wheels": [standin()[1]]})


def test_a_tree_verify_build_shipped_by_the_controller_takes_the_full_deploy_and_builds_its_env(tmp_path):
    """The lock bump of a pull-request build: the lab 0.5.23 lock with only its sglang pin replaced by the
    LAB-ONLY stand-in tree-verify build (tree_verify= in its header, read from the wheel by the lock code),
    the wheel shipped from the controller with gpu_env_wheels. The env is the scenario's real install."""
    lock_src, wheel = standin()
    text = read(lock_src)
    assert "# specdeploy-lock: tree_verify=fork-db-guo\n" in text
    digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
    assert "--hash=sha256:%s" % digest in text                 # the lock pins the shipped wheel's bytes
    with open(lock_path(), "w", encoding="utf-8") as f:
        f.write(text)
    new = env_dir(read(lock_path()))
    assert new != MEMO["upgraded_env"]
    rc, out = playbook("converge.yml", "--limit", NAME, "-e", wheels_var(), report_dir=tmp_path)
    assert rc == 0, out
    assert "the desired env_key changed" in out, out
    h = host()
    # the new env was installed for real here (a directory, not the prebuilt mount), from the edited lock
    assert h.file(new).is_directory and not h.file(new).is_symlink
    assert h.file(new + "/.specdeploy-complete").exists
    lock = h.file(new + "/specdeploy.lock")
    assert lock.content_string == text and lock.mode == 0o444
    # the wheel no index serves: copied from the controller beside the venv, and the one pip installed
    assert h.file("%s/wheels/%s" % (new, os.path.basename(wheel))).exists
    record = h.check_output(f"cat {new}/lib/python3.11/site-packages/sglang-0.5.23.dist-info/WHEEL")
    assert "Build: 1specdeploylabstandin" in record, record
    # the probe of the installed build (kept beside it) finds the tree-verify flavor
    probe = json.loads(h.file(f"{ENVS}/.probe-{os.path.basename(new)}.json").content_string)
    assert probe["version"] == "0.5.23" and probe["tree_verify"] == ["fork-db-guo"], probe
    assert h.file(MEMO["upgraded_env"]).exists                # built beside the env it replaces
    now = served()
    assert now["state"] == "active" and now["python"] == new + "/bin/python", now
    assert now["version"] == "0.5.23", now
    assert now["release"] != MEMO["upgraded"][NAME]["release"]   # the release id covers the env's lock
    generate()
    row = summary(tmp_path)[NAME]
    assert (row["release_before"], row["release_after"], row["result"]) == \
        (MEMO["upgraded"][NAME]["release"], now["release"], "changed"), row
    assert served(HOSTS[1]) == MEMO["upgraded"][HOSTS[1]]     # outside the limit: untouched
    MEMO.update(bumped=now, standin_env=new)


def test_the_next_run_is_unchanged(tmp_path):
    rc, out = playbook("converge.yml", "--limit", NAME, "-e", wheels_var(), report_dir=tmp_path)
    assert rc == 0, out
    assert "unchanged: as the last deploy left it, and serving" in out, out
    assert "TASK [specdeploy.sglang." not in out, out          # no role task ran
    assert summary(tmp_path)[NAME]["result"] == "unchanged"
    assert served() == MEMO["bumped"]


def test_the_tree_verify_build_validates_a_ddtree_spec_and_renders_its_unit(tmp_path):
    """As far as a CPU host goes (ddtree.yml): the installed stand-in build resolves a verify: tree DFLASH
    spec itself, and the unit renders the tree flag. Starting it and its smoke gate need a GPU."""
    env = MEMO["standin_env"]
    rc, out = playbook("ddtree.yml", "--limit", NAME, "-e", f"ddtree_env={env}", report_dir=tmp_path)
    assert rc == 0, out
    assert "ok=True tree_verify=fork-db-guo" in out, out
    unit = host().file("/root/ddtree-standin/sglang-ddtree.service").content_string
    block = []                                                 # ExecStart: one flag per line (systemd-quoted)
    for line in unit.split("ExecStart=", 1)[1].splitlines():
        block.append(" ".join(shlex.split(line.rstrip("\\"))))
        if not line.endswith("\\"):
            break
    assert block[0] == f"{env}/bin/python -m sglang.launch_server", unit
    for line in ("--speculative-algorithm DFLASH", "--speculative-num-draft-tokens 16",
                 "--speculative-dflash-enable-ddtree"):
        assert line in block, (line, unit)
    # the rendered unit is for reading: not installed, nothing started
    assert not host().file("/etc/systemd/system/sglang-ddtree.service").exists
    assert served() == MEMO["bumped"]
    # the same spec on the plain 0.5.23 env (no tree verification): refused, never rendered linear
    rc, out = playbook("ddtree.yml", "--limit", NAME, "-e", f"ddtree_env={MEMO['upgraded_env']}", report_dir=tmp_path)
    assert rc != 0, out
    assert "TREE_VERIFY_UNAVAILABLE" in out or "verify: tree needs an SGLang build with DDTree" in out, out


def test_rollback_returns_every_host_to_the_old_release_on_the_old_env(tmp_path):
    target = MEMO["before"][NAME]["release"]
    rc, out = playbook("playbooks/rollback.yml", "-e", f"specdeploy_rollback_to={target}", report_dir=tmp_path)
    assert rc == 0, out
    for name in HOSTS:
        now = served(name)
        assert now["state"] == "active", (name, now)
        assert now["release"] == target, (name, now)
        assert now["python"] == MEMO["old_env"] + "/bin/python", (name, now)
        assert now["version"] == "0.5.22", (name, now)
        assert now["pid"] != MEMO["before"][name]["pid"]      # a new process, started by the rollback
        generate(name)


def test_refusals_say_why_and_install_nothing(tmp_path):
    """Each lock is the lab 0.5.23 lock with a specdeploy-lock header; each is a new env key (nothing of it may appear)."""
    base = read(NEW_LOCK)   # every pin in the wheelhouse (the scenario's lock now pins the stand-in build)
    before = envs()
    cases = [
        ("glibc", "# specdeploy-lock: glibc_min=2.99\n",
         ["glibc 2.36 is too old: the lock's wheels are built for glibc >= 2.99 (manylinux_2_99)",
          "Upgrade the host's OS"]),
        ("disk", "# specdeploy-lock: download_bytes=1000000000000000\n",
         ["not enough disk space on", "the venv (1000000000000000 B of wheels x 4.20)", "Free space, or move gpu_env_root"]),
        ("venv", "# specdeploy-lock: python=3.11\n",
         ["Python 3.11.2 (/usr/bin/python3) cannot make a venv with pip", "apt-get install python3-venv"]),
    ]
    for name, header, expected in cases:
        if name == "venv":   # a host whose python3 has no venv module: Debian without python3-venv
            host().check_output("dpkg -r python3-venv python3.11-venv")
            assert host().run("/usr/bin/python3 -c 'import ensurepip'").rc != 0
        lock = tmp_path / f"{name}.lock"
        # the lab lock has a full header: the case's line replaces that key's (read_header keeps the last)
        key = header.split(":", 1)[1].strip().split("=", 1)[0]
        rest = "".join(line for line in base.splitlines(True) if not line.startswith("# specdeploy-lock: %s=" % key))
        lock.write_text(header + rest)
        rc, out = playbook("refuse.yml", "--limit", NAME, "-e", f"gpu_env_lock_file={lock}", report_dir=tmp_path)
        assert rc != 0, out
        assert "This host is not ready for the lock; nothing was installed." in out, out
        for phrase in expected:
            assert phrase in out, out
        assert envs() == before, (name, out)
        assert not host().file(env_dir(lock.read_text())).exists
