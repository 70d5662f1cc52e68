"""tools/specdeploy-preflight on a small inventory: templated variables, per-host verdicts, exit status."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "specdeploy-preflight")

INVENTORY = """
all:
  children:
    sglang_servers:
      vars:
        sglang_expected_gpus: [{name: "NVIDIA RTX PRO 6000 Blackwell Server Edition", compute_capability: "12.0"}]
        sglang_spec:
          sglang_version: "0.5.23"
          model_path: /opt/specdeploy/models/Qwen--Qwen3-8B@abc
          attention_backend: "{{ backend | default('flashinfer') }}"
          max_running_requests: 32
          speculative: {algorithm: DFLASH, draft_model_path: /opt/d, block_size: 16}
      hosts:
        good1: {}
        fa3host: {backend: fa3}
    other:
      hosts:
        web1: {}
"""


def run(tmp_path, *extra):
    inv = tmp_path / "hosts.yml"
    inv.write_text(INVENTORY)
    return subprocess.run([sys.executable, TOOL, "-i", str(inv)] + list(extra), capture_output=True, text=True,
                          check=False, cwd=str(tmp_path))


def test_verdict_per_host_and_exit_status(tmp_path):
    p = run(tmp_path)
    assert p.returncode == 1, p.stderr
    lines = p.stdout.splitlines()
    assert any(line.startswith("OK    good1: DFLASH draft_tokens=16") for line in lines), p.stdout
    assert any(line.startswith("FAIL  fa3host:") and "FA3_SM120" in line for line in lines), p.stdout
    assert any(line.startswith("SKIP  web1") for line in lines)


def test_limit_and_json(tmp_path):
    p = run(tmp_path, "--limit", "good1", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert list(out["verdicts"]) == ["good1"]
    assert out["verdicts"]["good1"]["default"]["resolved"]["speculative_num_draft_tokens"] == 16


def test_unreadable_inventory_json(tmp_path):
    bad = tmp_path / "inv.json"
    bad.write_text("{")
    p = subprocess.run([sys.executable, TOOL, "--inventory-json", str(bad)], capture_output=True, text=True, check=False)
    assert p.returncode == 2 and "cannot read the inventory" in p.stderr


PLAY = """
- name: Preflight
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Validate every host's SGLang flags
      specdeploy.sglang.sglang_preflight:
        group: sglang_servers
        fail_on_error: false
      register: preflight
    - name: Keep the verdicts for the test
      ansible.builtin.copy:
        content: "{{ preflight | to_json }}"
        dest: "{{ result_file }}"
        mode: "0644"
    - name: Fail as the real preflight would
      specdeploy.sglang.sglang_preflight:
        group: sglang_servers
"""


def test_playbook_action_reads_templated_hostvars(tmp_path):
    inv = tmp_path / "hosts.yml"
    inv.write_text(INVENTORY)
    play = tmp_path / "preflight.yml"
    play.write_text(PLAY)
    result_file = tmp_path / "verdicts.json"
    env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(ROOT, "ansible.cfg"))
    p = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "-i", str(inv), str(play),
                        "-e", "result_file=%s" % result_file], capture_output=True, text=True, check=False, env=env,
                       cwd=ROOT)
    # the last task fails the play, naming the host and the rule
    assert p.returncode == 2, p.stdout[-2000:] + p.stderr[-2000:]
    assert "fa3host" in p.stdout and "FA3_SM120" in p.stdout
    first = json.loads(result_file.read_text())
    assert first["failed_hosts"] == ["fa3host"] and first["skipped_hosts"] == []
    assert first["verdicts"]["good1"]["default"]["argv"][:2] == ["--model-path", "/opt/specdeploy/models/Qwen--Qwen3-8B@abc"]
    # the templated attention backend reached the engine
    assert "--attention-backend" in first["verdicts"]["fa3host"]["default"]["argv"]
    assert "fa3" in first["verdicts"]["fa3host"]["default"]["argv"]
