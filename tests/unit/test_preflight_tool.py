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
