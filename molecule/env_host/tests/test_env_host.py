"""env_host scenario, in order (each step builds on the last).

After converge (deploy.yml: the host serves SGLang from the env of the lab lock) and idempotence:
  1. one comment line appended to the lock (same path, same variables): deploy.yml takes the full deploy,
     builds the new env for real beside the old one and restarts the server on it through the gate;
  2. a second deploy.yml finds the host unchanged and runs no role;
  3. gpu_env refuses, with a message saying what was found, what is needed and what to do, and installs
     nothing: a lock asking for glibc 2.99; a lock whose download cannot fit; a python3 without venv.
The playbooks run as a user runs them (ansible-playbook on the controller); the checks read the host
(podman exec). The env key is recomputed here from the lock's bytes (sha256), not taken from the product.
"""
import hashlib
import json
import os
import subprocess

import testinfra

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # molecule/env_host
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = "env_host-1"
ENVS = "/opt/specdeploy/envs"
UNIT = "sglang-main.service"
GEN = ("python3 -c \"import json,urllib.request;"
       "r=urllib.request.Request('http://127.0.0.1:30000/generate',"
       "data=json.dumps({'text':'The quick brown fox','sampling_params':"
       "{'temperature':0,'max_new_tokens':8}}).encode(),"
       "headers={'Content-Type':'application/json'});"
       "print(urllib.request.urlopen(r,timeout=120).read().decode())\"")
MEMO = {}


def host():
    return testinfra.get_host(f"podman://{NAME}")


def lock_path():
    return os.path.join(os.environ["MOLECULE_EPHEMERAL_DIRECTORY"], "sglang-lab.lock")


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
    proc = subprocess.run(["ansible-playbook", "-i", inventory, os.path.join(HERE, path), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    return proc.returncode, proc.stdout + proc.stderr


def served():
    """Release, main PID and the interpreter (argv[0]) of the running server."""
    h = host()
    show = h.check_output(f"systemctl show -p ActiveState -p MainPID {UNIT}")
    unit = dict(line.split("=", 1) for line in show.splitlines() if "=" in line)
    argv0 = h.check_output(f"tr '\\0' '\\n' < /proc/{unit['MainPID']}/cmdline | head -1")
    release = os.path.basename(h.check_output("readlink /opt/specdeploy/instances/main/current"))
    return {"state": unit["ActiveState"], "pid": unit["MainPID"], "python": argv0.strip(), "release": release}


def generate():
    out = json.loads(host().check_output(GEN))
    assert out["meta_info"]["completion_tokens"] > 0, out
    return out


def summary(report_dir):
    with open(os.path.join(report_dir, "deploy-summary.json"), encoding="utf-8") as f:
        return json.load(f)["hosts"]


def envs():
    return sorted(host().check_output(f"ls -A {ENVS}").split())


def test_deployed_on_the_env_of_the_lab_lock():
    with open(lock_path(), encoding="utf-8") as f:
        old = env_dir(f.read())
    now = served()
    assert now["state"] == "active" and now["python"] == old + "/bin/python", now
    generate()
    MEMO.update(old_env=old, before=now)


def test_a_lock_edited_in_place_takes_the_full_deploy_and_builds_the_new_env(tmp_path):
    with open(lock_path(), "a", encoding="utf-8") as f:
        f.write("# lock bump: one comment line, nothing else changed\n")
    with open(lock_path(), encoding="utf-8") as f:
        text = f.read()
    new = env_dir(text)
    assert new != MEMO["old_env"]
    rc, out = playbook("converge.yml", report_dir=tmp_path)
    assert rc == 0, out
    assert "the desired env_key changed" in out, out         # what the fast path's check found
    h = host()
    recorded = json.loads(h.file("/opt/specdeploy/deploy-state.json").content_string)
    assert recorded["desired"]["env_key"][:20] == os.path.basename(new)
    # the new env was installed for real here (a directory, not the prebuilt mount), from the edited lock
    assert h.file(new).is_directory and not h.file(new).is_symlink
    assert h.file(new + "/.specdeploy-complete").exists
    assert h.file(new + "/specdeploy.lock").content_string.rstrip().endswith("nothing else changed")
    assert h.file(f"{new}/lib/python3.11/site-packages/sglang/__init__.py").exists
    assert h.file(MEMO["old_env"]).exists                     # built beside the old env, which is kept
    now = served()
    assert now["state"] == "active" and now["python"] == new + "/bin/python", now
    assert now["release"] != MEMO["before"]["release"]        # the release id covers the env's lock
    generate()
    [row] = summary(tmp_path)
    assert (row["release_before"], row["release_after"], row["result"]) == \
        (MEMO["before"]["release"], now["release"], "changed"), row
    MEMO.update(new_env=new, after=now)


def test_the_next_run_is_unchanged(tmp_path):
    rc, out = playbook("converge.yml", report_dir=tmp_path)
    assert rc == 0, out
    assert "unchanged: as the last deploy left it, and serving" in out, out
    assert "TASK [specdeploy.sglang." not in out, out          # no role task ran
    [row] = summary(tmp_path)
    assert row["result"] == "unchanged", row
    assert served() == MEMO["after"]


def test_refusals_say_why_and_install_nothing(tmp_path):
    """Each lock is the lab lock with a specdeploy-lock header; each is a new env key (nothing of it may appear)."""
    with open(lock_path(), encoding="utf-8") as f:
        base = f.read()
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
        rc, out = playbook("refuse.yml", "-e", f"gpu_env_lock_file={lock}", report_dir=tmp_path)
        assert rc != 0, out
        assert "This host is not ready for the lock; nothing was installed." in out, out
        for phrase in expected:
            assert phrase in out, out
        assert envs() == before, (name, out)
        assert not host().file(env_dir(lock.read_text())).exists
