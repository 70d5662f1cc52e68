# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""specdeploy: the command line of the specdeploy.sglang collection (bin/specdeploy runs this file with
ansible-core's Python). Every command the collection's docs and messages name:

    specdeploy preflight -i INVENTORY [...]          the controller preflight (same checks as the playbook)
    specdeploy lock cuda VERSION [--extra-wheel W]   a hash-pinned lock of an SGLang stack for GPU hosts
    specdeploy lock check LOCK...                    check a lock's header and pins
    specdeploy authority-env LOCK DIR                a controller venv of a lock's SGLang for --authority

`specdeploy COMMAND --help` for each command's options.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

COMMANDS = ("preflight", "lock", "authority-env")


def _has_ansible():
    try:
        import ansible.template  # noqa: F401
        return True
    except ImportError:
        return False


def _reexec_with_ansible_python(argv):
    """This python has no ansible-core: run again under the python of ansible-inventory."""
    exe = shutil.which("ansible-inventory")
    if not exe or os.environ.get("SPECDEPLOY_REEXEC"):
        return None
    with open(exe, "rb") as f:
        first = f.readline().decode("utf-8", "replace").strip()
    if not first.startswith("#!"):
        return None
    cmd = first[2:].split() + [os.path.abspath(__file__)] + list(argv)
    return subprocess.run(cmd, env=dict(os.environ, SPECDEPLOY_REEXEC="1"), check=False).returncode


def authority_env(argv):
    """A controller venv of a lock's SGLang stack, for the authority preflight (pip --require-hashes)."""
    import argparse

    import specdeploy_collection

    p = argparse.ArgumentParser(prog="specdeploy authority-env", description=authority_env.__doc__)
    p.add_argument("lock", help="the lock the hosts install (gpu_env_lock_file); a bare name is a lock shipped in "
                   "the gpu_env role's files/")
    p.add_argument("dir", help="where to create the venv")
    p.add_argument("--python", default="python3", help="the Python to create it with (one of the lock's)")
    p.add_argument("--wheelhouse", help="install offline from this folder of wheels (as gpu_env_wheelhouse)")
    p.add_argument("--index-url", help="install from this index")
    a = p.parse_args(argv)
    lock = a.lock if "/" in a.lock else os.path.join(specdeploy_collection.ROOT, "roles", "gpu_env", "files", a.lock)
    sys.path.insert(0, os.path.join(specdeploy_collection.ROOT, "plugins", "module_utils"))
    import lockfile

    try:
        text = open(lock, encoding="utf-8").read()
    except OSError as e:
        sys.stderr.write("specdeploy authority-env: cannot read the lock %s: %s\n" % (lock, e))
        return 2
    problems = lockfile.check_lock(text)
    if problems:
        sys.stderr.write("specdeploy authority-env: %s is not a good lock: %s\n" % (lock, "; ".join(problems)))
        return 2
    header = lockfile.parse_header(text)
    cmds = [[a.python, "-m", "venv", a.dir],
            [os.path.join(a.dir, "bin", "python"), "-m", "pip", "install", "-q", "--require-hashes",
             "--only-binary=:all:", "-r", lock]
            + (["--no-deps"] if header["flavor"] == "cpu" else [])
            + (["--no-index", "--find-links", a.wheelhouse] if a.wheelhouse else [])
            + (["--index-url", a.index_url] if a.index_url and not a.wheelhouse else [])]
    for cmd in cmds:
        print("+ %s" % " ".join(cmd), flush=True)
        rc = subprocess.run(cmd, check=False).returncode
        if rc:
            sys.stderr.write("specdeploy authority-env: failed (exit %d): %s\n" % (rc, " ".join(cmd)))
            return rc
    python = os.path.join(os.path.abspath(a.dir), "bin", "python")
    print("SGLang %s: %s\nuse it: specdeploy preflight -i INVENTORY --authority --authority-python %s=%s\n"
          "    or: ansible-playbook specdeploy.sglang.preflight -e specdeploy_preflight_authority=true "
          "-e '{\"specdeploy_authority_pythons\": {\"%s\": \"%s\"}}'"
          % (header["sglang"], python, header["sglang"], python, header["sglang"], python))
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd not in COMMANDS:
        import difflib

        near = difflib.get_close_matches(cmd, COMMANDS, 1)
        sys.stderr.write("specdeploy: no command %r%s (commands: %s)\n" % (
            cmd, (", did you mean %r?" % near[0]) if near else "", ", ".join(COMMANDS)))
        return 2
    if cmd == "preflight" and not _has_ansible():
        rc = _reexec_with_ansible_python(argv)
        if rc is not None:
            return rc
        sys.stderr.write("specdeploy: needs ansible-core (run it with the python that has it: SPECDEPLOY_PYTHON, or "
                         "put ansible-playbook on PATH)\n")
        return 2
    if cmd == "preflight":
        import specdeploy_preflight

        return specdeploy_preflight.main(rest)
    if cmd == "lock":
        import specdeploy_lock

        return specdeploy_lock.main(rest)
    return authority_env(rest)


if __name__ == "__main__":
    sys.exit(main())
