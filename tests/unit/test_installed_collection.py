"""The tarball is the product: build it, install it with ansible-galaxy into an empty collections path, and
run, in an empty working directory with nothing of this checkout on any path, every command README.md
shows in its code blocks, in the README's order, as an operator types them:

- the install, the exports and the copy of the example inventory run as written;
- preflight (the playbook and `specdeploy preflight`) runs as written: first on the example as shipped,
  where it must fail naming the placeholders and the DDTree lock, then on the example filled in as its
  comments ask (tests/support/production_example.py), where it must pass, then with a mistyped playbook
  input and role variable, where it must fail with a "did you mean";
- `specdeploy lock check` runs as written on the shipped lock;
- what needs hosts or the network is run as far as it can here: the deploy playbook runs for real on the
  shipped example and must stop at its preflight before any host is contacted; rollback, status and
  verify get `--syntax-check` (their FQCN resolves in the installed collection, their YAML parses);
  `specdeploy lock cuda`, `specdeploy authority-env` and `--authority` (a resolution on the index, a 4 GB
  install, an SGLang run) get `--help` (the command and its options exist in the installed tool).
A command the README names that the installed collection does not have fails this test.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import production_example  # noqa: E402

PROGRAMS = ("ansible-galaxy", "ansible-playbook", "specdeploy", "export", "cp", "mkdir")
NEEDS_HOSTS = ("specdeploy.sglang.rollback", "specdeploy.sglang.status", "specdeploy.sglang.verify")


def readme_commands():
    """Every command line of README.md's indented code blocks whose program is one of PROGRAMS, in order."""
    out, prev_blank = [], True
    in_block = False
    for line in open(os.path.join(ROOT, "README.md"), encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("    ") and (in_block or prev_blank):
            in_block = True
            cmd = line.strip()
            if cmd.split(" ", 1)[0] in PROGRAMS:
                out.append(cmd)
        else:
            in_block = False
        prev_blank = not line.strip()
    return out


@pytest.fixture(scope="module")
def operator_dir(tmp_path_factory):
    """An empty working directory holding only the built tarball."""
    build = tmp_path_factory.mktemp("build")
    subprocess.run(["ansible-galaxy", "collection", "build", "--force", "--output-path", str(build), ROOT],
                   check=True, capture_output=True, text=True, env=env_of(), cwd=str(build))
    tarball = [f for f in os.listdir(build) if f.endswith(".tar.gz")]
    assert tarball == ["specdeploy-sglang-0.1.0.tar.gz"], tarball
    work = tmp_path_factory.mktemp("operator")
    shutil.copy(os.path.join(build, tarball[0]), work / tarball[0])
    return work


def env_of():
    """This Python's ansible-core on PATH; nothing of the checkout (its ansible.cfg, collections path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANSIBLE_", "SPECDEPLOY_"))}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin"
    env["ANSIBLE_FORCE_COLOR"] = "0"
    env["XDG_CACHE_HOME"] = os.path.join(os.environ.get("TMPDIR", "/tmp"), "specdeploy-artifact-test-cache")
    return env


def run_in(work, script, env):
    return subprocess.run(["bash", "-c", "set -e\n" + script], cwd=str(work), env=env, capture_output=True,
                          text=True, check=False, timeout=600)


def test_every_command_the_readme_names_runs_from_the_installed_tarball(operator_dir):
    cmds = readme_commands()
    assert any(c.startswith("ansible-galaxy collection install") for c in cmds), cmds
    assert any(c.startswith("specdeploy preflight") for c in cmds), cmds
    env = env_of()
    setup, ran = [], []
    # 1. install, exports, copy of the example: as written, in one shell (the exports carry over)
    for cmd in cmds:
        if cmd.split(" ", 1)[0] in ("ansible-galaxy", "export", "cp", "mkdir"):
            setup.append(cmd)
    p = run_in(operator_dir, "\n".join(setup) + "\nenv", env)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    for line in p.stdout.splitlines():   # the environment the README's exports leave
        key, _, value = line.partition("=")
        if key in ("PATH", "ANSIBLE_COLLECTIONS_PATH"):
            env[key] = value
    ran += setup
    installed = os.path.join(operator_dir, "collections", "ansible_collections", "specdeploy", "sglang")
    assert os.path.isfile(os.path.join(installed, "MANIFEST.json"))
    assert os.access(os.path.join(installed, "bin", "specdeploy"), os.X_OK)
    for absent in ("tools", "tests", "lab", "molecule", "bench", ".lab"):
        assert not os.path.exists(os.path.join(installed, absent)), absent
    assert shutil.which("specdeploy", path=env["PATH"]) == os.path.join(installed, "bin", "specdeploy")
    assert os.path.isdir(os.path.join(operator_dir, "inventories", "production"))

    # 2. preflight on the example as shipped: refused, naming the placeholders and the DDTree lock
    preflights = [c for c in cmds if (" specdeploy.sglang.preflight" in c or c.startswith("specdeploy preflight"))
                  and "--authority" not in c]
    assert len(preflights) >= 2, cmds
    for cmd in preflights:
        p = run_in(operator_dir, cmd, env)
        out = p.stdout + p.stderr
        assert p.returncode != 0, out
        assert "REVISION_PLACEHOLDER" in out and "git ls-remote https://huggingface.co/Qwen/Qwen3-8B" in out, out
        assert "LOCK_TREE_VERIFY" in out, out
    # the deploy playbook, for real: it stops at its preflight and no host is contacted
    deploys = [c for c in cmds if " specdeploy.sglang.deploy" in c]
    assert deploys, cmds
    for cmd in deploys:
        p = run_in(operator_dir, cmd, env)
        out = p.stdout + p.stderr
        assert p.returncode != 0 and "Preflight failed; no host was touched" in out, out
        assert "UNREACHABLE" not in out and "REVISION_PLACEHOLDER" in out, out
        ran.append(cmd)

    # 3. filled in as the example's comments ask: every preflight passes, as written
    inv = os.path.join(operator_dir, "inventories", "production")
    shutil.rmtree(inv)
    production_example.filled_copy(inv, source=os.path.join(installed, "inventories", "production"))
    for cmd in preflights:
        p = run_in(operator_dir, cmd, env)
        out = p.stdout + p.stderr
        assert p.returncode == 0, out
        assert "pro6000-a2/second" in out and "--speculative-ddtree-budget" in out, out
        ran.append(cmd)

    # mistakes through the installed collection: a mistyped playbook input and a mistyped role variable
    with open(os.path.join(inv, "host_vars", "pro6000-b2.yml"), "a", encoding="utf-8") as f:
        f.write("server_replace_units: [sglang-nextn.service]\n")
    p = run_in(operator_dir, "ansible-playbook -i inventories/production specdeploy.sglang.preflight "
               "-e specdeploy_preflight_authorty=true", env)
    out = p.stdout + p.stderr
    assert p.returncode != 0 and "Preflight failed; no host was touched" in out, out
    assert "did you mean specdeploy_preflight_authority?" in out and "did you mean server_replaces_units?" in out, out

    # 4. the rest: as written where it needs neither hosts nor the network, else as far as it can here
    for cmd in cmds:
        if cmd in ran or cmd in preflights:
            continue
        argv = shlex.split(cmd)
        if argv[0] == "specdeploy" and argv[1:3] == ["lock", "check"]:
            p = run_in(operator_dir, cmd, env)
            assert p.returncode == 0 and "1 lock(s), 0 with problems" in p.stdout, p.stdout + p.stderr
        elif argv[0] == "specdeploy":
            # lock cuda (the index), authority-env (a 4 GB install), --authority (an SGLang run)
            sub = argv[1:3] if argv[1] == "lock" else argv[1:2]
            p = run_in(operator_dir, " ".join(["specdeploy"] + sub + ["--help"]), env)
            assert p.returncode == 0 and "usage: specdeploy" in p.stdout, p.stdout + p.stderr
            for opt in [a.split("=", 1)[0] for a in argv[2:] if a.startswith("--")]:
                assert opt in p.stdout, (cmd, opt, p.stdout)
        elif argv[0] == "ansible-playbook" and "specdeploy.sglang.monitoring" in cmd:
            # runs for real from the tarball: the hosts' release links are not read (no host contacted), the
            # targets, rules and dashboard are written on the controller
            out_dir = os.path.join(str(operator_dir), "monitoring-out")
            p = run_in(operator_dir, cmd + " -e monitoring_read_hosts=false -e specdeploy_report_dir=" + out_dir, env)
            assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
            assert os.path.isfile(os.path.join(out_dir, "monitoring", "prometheus.yml")), os.listdir(out_dir)
        elif argv[0] == "ansible-playbook":
            assert any(fq in cmd for fq in NEEDS_HOSTS), "a README command this test does not know how to run: " + cmd
            p = run_in(operator_dir, cmd + " --syntax-check", env)
            assert p.returncode == 0, p.stdout + p.stderr
        else:
            pytest.fail("a README command this test does not know how to run: " + cmd)
        ran.append(cmd)
    assert len(ran) == len(cmds)


def test_the_shipped_files_name_no_checkout_only_tool():
    """What users read (README, docs/, playbooks, roles, modules and their messages) never sends them to
    tools/ or a make target of the checkout (the command line is bin/specdeploy)."""
    pattern = re.compile(r"tools/(specdeploy-preflight|lock\.py)|make lock")
    hits = []
    paths = [os.path.join(ROOT, "README.md")]
    for top in ("docs", "playbooks", "roles", "plugins", "inventories/production", "bin"):
        for d, _dirs, files in os.walk(os.path.join(ROOT, top)):
            paths += [os.path.join(d, f) for f in files if f.endswith((".md", ".yml", ".py", ".j2"))]
    # (a lock's generated_by header records the command that wrote it, in the checkout for a shipped lock)
    for path in paths:
        text = open(path, encoding="utf-8", errors="replace").read()
        for m in pattern.finditer(text):
            hits.append("%s: %s" % (os.path.relpath(path, ROOT), m.group(0)))
    assert not hits, hits
