"""A --limit that selects no host of the group fails at once, naming both, in every playbook that acts on
the group (preflight, so deploy; rollback; status) - instead of every play skipping with "no hosts
matched" and the run ending green (real ansible-playbook runs; no host is contacted: the group's host has
an address of TEST-NET-1 that nothing answers).
"""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAYBOOK = shutil.which("ansible-playbook")

pytestmark = pytest.mark.skipif(PLAYBOOK is None, reason="ansible-playbook not on PATH (make venv)")

INVENTORY = """\
[sglang_servers]
gpu-1 ansible_host=192.0.2.1 ansible_connection=ssh
[sglang_gateways]
gw-1 ansible_host=192.0.2.2 ansible_connection=ssh
"""


def run(tmp_path, playbook, limit):
    tree = tmp_path / "collections" / "ansible_collections" / "specdeploy"
    tree.mkdir(parents=True, exist_ok=True)
    if not (tree / "sglang").exists():
        os.symlink(ROOT, tree / "sglang")
    (tmp_path / "hosts.ini").write_text(INVENTORY)
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=str(tmp_path / "collections"), ANSIBLE_NOCOLOR="1",
               ANSIBLE_CONFIG=str(tmp_path / "ansible.cfg"), ANSIBLE_TIMEOUT="3",
               SPECDEPLOY_REPORT_DIR=str(tmp_path / "reports"))
    proc = subprocess.run([PLAYBOOK, "-i", str(tmp_path / "hosts.ini"), playbook, "--limit", limit],
                          env=env, capture_output=True, text=True, timeout=300, check=False, cwd=str(tmp_path))
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("playbook", ["preflight", "deploy", "rollback", "status"])
def test_a_limit_outside_the_group_fails_naming_both(tmp_path, playbook):
    rc, out = run(tmp_path, "specdeploy.sglang." + playbook, "gw-1")
    assert rc != 0, out
    assert "--limit gw-1 matches no host of group sglang_servers (gpu-1); no host was touched." in out, out
    assert "UNREACHABLE" not in out and "PLAY RECAP" in out, out


def test_a_limit_inside_the_group_passes_the_check(tmp_path):
    rc, out = run(tmp_path, os.path.join(ROOT, "playbooks", "plays", "limit.yml"), "gpu-1")
    assert rc == 0, out
    assert "matches no host" not in out and "UNREACHABLE" not in out, out
