"""Role inputs a user gets wrong fail before any work, naming the variable (real ansible-playbook runs).

Each case runs ansible-playbook on localhost (connection local) with the collection from this checkout:
argument validation runs before the role's first task, so no GPU or host state is needed.
"""
import os
import shutil
import subprocess
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAYBOOK = shutil.which("ansible-playbook")

pytestmark = pytest.mark.skipif(PLAYBOOK is None, reason="ansible-playbook not on PATH (make venv)")


def _collections(tmp_path):
    tree = tmp_path / "collections" / "ansible_collections" / "specdeploy"
    tree.mkdir(parents=True)
    os.symlink(ROOT, tree / "sglang")
    return str(tmp_path / "collections")


def run_role(tmp_path, role_vars, tasks_from="main", role="gpu_env"):
    play = tmp_path / "play.yml"
    play.write_text(textwrap.dedent(f"""\
        - hosts: localhost
          gather_facts: false
          tasks:
            - ansible.builtin.include_role:
                name: specdeploy.sglang.{role}
                tasks_from: {tasks_from}
              vars: {role_vars!r}
        """))
    cfg = tmp_path / "ansible.cfg"
    cfg.write_text("[defaults]\n")
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=_collections(tmp_path), ANSIBLE_NOCOLOR="1",
               ANSIBLE_CONFIG=str(cfg), ANSIBLE_LOCALHOST_WARNING="false")
    proc = subprocess.run([PLAYBOOK, "-i", "localhost,", "-c", "local", str(play)], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_unset_lock_file_is_refused_by_argument_validation(tmp_path):
    rc, out = run_role(tmp_path, {"gpu_env_require_gpu": False})
    assert rc != 0
    assert "missing required arguments: gpu_env_lock_file" in out


def test_empty_lock_file_fails_first_naming_it(tmp_path):
    rc, out = run_role(tmp_path, {"gpu_env_require_gpu": False, "gpu_env_lock_file": ""})
    assert rc != 0
    assert "gpu_env_lock_file is empty" in out
    assert "GPU, driver and CUDA facts" not in out  # nothing ran before it


def test_server_validate_entry_checks_its_inputs(tmp_path):
    rc, out = run_role(tmp_path, {"server_instances": [{"spec": {}}]}, tasks_from="validate", role="server")
    assert rc != 0
    assert "Validating arguments against arg spec 'validate'" in out
    assert "missing required arguments: name found in server_instances" in out
