"""`specdeploy preflight` (bin/specdeploy, the collection's command line) on real inventories
(inventories/production filled in as its comments ask, a broken copy of it, an inventory without
instances) through ansible-core's own inventory, and the playbook action on the same contract."""
import json
import os
import shutil
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import production_example  # noqa: E402

TOOL = os.path.join(ROOT, "bin", "specdeploy_cli.py")
INSTANCES = ("pro6000-a1/main", "pro6000-a2/main", "pro6000-a2/second", "pro6000-b1/main", "pro6000-b2/main")


def tool(*args):
    return subprocess.run([sys.executable, TOOL, "preflight"] + [str(a) for a in args], capture_output=True,
                          text=True, check=False, cwd=ROOT)


# the lock every hand-written inventory below names (preflight checks that it exists and is of the
# spec's SGLang version)
LOCK = "sglang-0.5.23-cu13.lock"


def lab_lock(version):
    return os.path.join(ROOT, "lab", "sglang-%s-cpu.lock" % version)


def filled(tmp_path):
    return production_example.filled_copy(tmp_path / "filled" / "production")


def broken_production(tmp_path):
    """A copy of the production inventory with fa3 on sm_120 (pro6000-a1) and a block-size-8 drafter
    config.json under a spec of 16 draft tokens (pro6000-b2)."""
    inv = tmp_path / "production"
    production_example.filled_copy(inv)
    (inv / "host_vars" / "pro6000-a1.yml").write_text(yaml.safe_dump({"server_instances": [{
        "name": "main", "cuda_visible_devices": "0,1",
        "spec": "{{ prod_spec_base | combine({'attention_backend': 'fa3', 'speculative': prod_ddtree}) }}"}]}))
    group = yaml.safe_load((inv / "group_vars" / "sglang_servers.yml").read_text())
    draft = dict(group["sglang_draft_config"], block_size=8)
    draft["dflash_config"] = dict(draft["dflash_config"], block_size=8)
    cfg = tmp_path / "drafter-b8" / "config.json"
    cfg.parent.mkdir()
    cfg.write_text(json.dumps(draft))
    with open(inv / "host_vars" / "pro6000-b2.yml", "a") as f:
        f.write("sglang_draft_config: %s\n" % cfg.parent)
    return inv


def test_production_checks_five_instances_and_passes(tmp_path):
    p = tool("-i", filled(tmp_path), "--brief")
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    for label in INSTANCES:
        assert any(line.startswith("OK    %s: " % label) for line in lines), p.stdout
    assert "5 instance(s) on 4 host(s) checked, 0 host(s) failed: passed" in lines[-1]
    assert not any(line.startswith(("SKIP", "FAIL")) for line in lines)


def test_broken_variant_fails_naming_host_instance_and_reason(tmp_path):
    p = tool("-i", broken_production(tmp_path))
    assert p.returncode == 1, p.stdout + p.stderr
    fails = {line.split(":", 1)[0][6:]: line for line in p.stdout.splitlines() if line.startswith("FAIL  ")}
    assert sorted(fails) == ["pro6000-a1/main", "pro6000-b2/main"], p.stdout
    assert "FA3_SM120" in fails["pro6000-a1/main"] and "sm_120" in fails["pro6000-a1/main"]
    assert "BLOCK_SIZE_MISMATCH" in fails["pro6000-b2/main"] and "block size 16" in fails["pro6000-b2/main"] \
        and "block_size to 8" in fails["pro6000-b2/main"]
    assert "2 host(s) failed: failed" in p.stdout.splitlines()[-1]
    # the drafter mismatch is the engine's error, not a note that --fatal-notes could let pass
    p = tool("-i", broken_production(tmp_path / "again"), "--fatal-notes", "", "--json")
    out = json.loads(p.stdout)
    b2 = out["verdicts"]["pro6000-b2"]["main"]
    assert not b2["ok"] and any(e["code"] == "BLOCK_SIZE_MISMATCH" for e in b2["errors"]), b2
    assert sorted(out["failed_hosts"]) == ["pro6000-a1", "pro6000-b2"]


def test_inventory_without_instances_is_nothing_checked_not_a_pass(tmp_path):
    inv = tmp_path / "hosts.yml"
    inv.write_text(yaml.safe_dump({"all": {"children": {"sglang_servers": {"hosts": {"gpu01": {}, "gpu02": {}}}}}}))
    p = tool("-i", inv)
    assert p.returncode == 3, p.stdout + p.stderr
    assert "nothing checked: no host of group sglang_servers has server_instances" in p.stdout
    assert "SKIP  gpu01: no server_instances" in p.stdout
    # a group that does not exist: nothing checked too
    p = tool("-i", production_example.PRODUCTION, "--group", "no_such_group")
    assert p.returncode == 3 and "nothing checked: group no_such_group has no hosts" in p.stdout


def test_host_without_instances_next_to_others_fails_and_old_variables_say_removed(tmp_path):
    inv = tmp_path / "hosts.yml"
    spec = {"sglang_version": "0.5.23", "model_path": "/m", "attention_backend": "flashinfer"}
    inv.write_text(yaml.safe_dump({"all": {"children": {"sglang_servers": {"hosts": {
        "good": {"server_instances": [{"name": "main", "spec": spec}], "gpu_env_lock_file": LOCK},
        "empty": {},
        "old": {"sglang_spec": spec}}}}}}))
    p = tool("-i", inv)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "OK    good/main: no speculation" in p.stdout
    assert "FAIL  empty: no server_instances" in p.stdout
    assert "FAIL  old: [PREFLIGHT_INPUT] sglang_spec is no longer read" in p.stdout


def test_cuda_visible_devices_limits_the_instance_to_its_gpus(tmp_path):
    inv = tmp_path / "hosts.yml"
    spec = {"sglang_version": "0.5.23", "model_path": "/m", "attention_backend": "flashinfer", "tp_size": 2}
    gpus = [{"index": i, "compute_cap": "12.0"} for i in range(4)]
    inv.write_text(yaml.safe_dump({"all": {"children": {"sglang_servers": {"hosts": {"gpu01": {
        "sglang_expected_gpus": gpus, "gpu_env_lock_file": LOCK,
        "server_instances": [{"name": "a", "cuda_visible_devices": "0,1", "spec": spec},
                             {"name": "b", "cuda_visible_devices": "3", "spec": dict(spec, port=30001)},
                             {"name": "c", "cuda_visible_devices": "7", "spec": dict(spec, port=30002, tp_size=1)}]}}}}}}))
    p = tool("-i", inv)
    assert p.returncode == 1
    assert "OK    gpu01/a:" in p.stdout
    assert "FAIL  gpu01/b: [GPU_COUNT]" in p.stdout
    assert "FAIL  gpu01/c: [CUDA_VISIBLE_DEVICES]" in p.stdout and "GPU 7" in p.stdout


def test_inventory_json_is_templated_like_the_inventory(tmp_path):
    listed = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-inventory"), "-i",
                             filled(tmp_path), "--list"], capture_output=True, text=True, check=True, cwd=ROOT)
    p = subprocess.run([sys.executable, TOOL, "preflight", "--inventory-json", "-"], input=listed.stdout,
                       capture_output=True, text=True, check=False, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "5 instance(s) on 4 host(s) checked" in p.stdout


def test_unreadable_inventory_json(tmp_path):
    bad = tmp_path / "inv.json"
    bad.write_text("{")
    p = tool("--inventory-json", bad)
    assert p.returncode == 2 and "cannot read the inventory" in p.stderr


PLAY = """
- name: Preflight
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Validate every instance of every host
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


def test_playbook_action_reads_the_same_contract(tmp_path):
    inv = broken_production(tmp_path)
    play = tmp_path / "preflight.yml"
    play.write_text(PLAY)
    result_file = tmp_path / "verdicts.json"
    env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(ROOT, "ansible.cfg"))
    p = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "-i", str(inv), str(play),
                        "-e", "result_file=%s" % result_file], capture_output=True, text=True, check=False, env=env,
                       cwd=ROOT)
    assert p.returncode == 2, p.stdout[-2000:] + p.stderr[-2000:]
    assert "pro6000-a1/main" in p.stdout and "FA3_SM120" in p.stdout
    first = json.loads(result_file.read_text())
    # the same verdicts as the tool's
    tool_out = json.loads(tool("-i", inv, "--json").stdout)
    assert first["lines"] == tool_out["lines"] and first["exit_code"] == tool_out["exit_code"] == 1
    assert first["verdicts"]["pro6000-a2"]["second"]["argv"][:2] == [
        "--model-path", "/opt/specdeploy/models/Qwen--Qwen3-8B@%s" % production_example.TARGET_COMMIT]
    assert "--port" in first["verdicts"]["pro6000-a2"]["second"]["argv"]


def test_authority_without_a_controller_sglang_fails_naming_what_it_tried(tmp_path):
    inv = tmp_path / "hosts.yml"
    spec = {"sglang_version": "0.5.16", "model_path": "/m", "attention_backend": "flashinfer"}
    inv.write_text(yaml.safe_dump({"all": {"children": {"sglang_servers": {"hosts": {"gpu01": {
        "server_instances": [{"name": "main", "spec": spec}], "sglang_target_config": {"architectures": ["X"]}}}}}}}))
    env = dict(os.environ, SPECDEPLOY_AUTHORITY_VENVS=str(tmp_path / "venvs"))
    env.pop("SPECDEPLOY_LAB_KITS", None)
    p = subprocess.run([sys.executable, TOOL, "preflight", "-i", str(inv), "--authority", "--authority-cache",
                        str(tmp_path / "c"), "--authority-python", "0.5.16=%s" % (tmp_path / "none" / "bin" / "python")],
                       capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "FAIL  gpu01/main: [ORACLE_UNAVAILABLE] authority: no controller SGLang 0.5.16" in p.stdout
    assert str(tmp_path / "venvs" / "0.5.16" / "bin" / "python") in p.stdout
    assert "specdeploy_authority_venvs" in p.stdout
    # nothing named: the collection looks for no SGLang of its own (not the checkout's .lab/)
    env.pop("SPECDEPLOY_AUTHORITY_VENVS")
    p = subprocess.run([sys.executable, TOOL, "preflight", "-i", str(inv), "--authority", "--authority-cache",
                        str(tmp_path / "c")], capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    assert p.returncode == 1 and "(tried nothing: none given)" in p.stdout and ".lab" not in p.stdout, p.stdout
    # SGLang reads the model configs to resolve: without them the authority says what to declare
    inv.write_text(yaml.safe_dump({"all": {"children": {"sglang_servers": {"hosts": {"gpu01": {
        "server_instances": [{"name": "main", "spec": spec}], "gpu_env_lock_file": lab_lock("0.5.16")}}}}}}))
    p = subprocess.run([sys.executable, TOOL, "preflight", "-i", str(inv), "--authority", "--authority-cache", str(tmp_path / "c"),
                        "--authority-python", "0.5.16=%s" % sys.executable], capture_output=True, text=True,
                       check=False, cwd=ROOT, env=env)
    assert p.returncode == 1 and "[AUTHORITY_NEEDS_CONFIG]" in p.stdout and "sglang_target_config" in p.stdout


def test_hosts_sharing_variables_still_get_their_own_values(tmp_path):
    # the tool templates once per group of hosts with the same variables: a value naming the host, or a
    # host variable, must still reach each host
    inv = tmp_path / "hosts.yml"
    spec = {"sglang_version": "0.5.23", "model_path": "/m", "attention_backend": "flashinfer",
            "served_model_name": "{{ inventory_hostname }}", "tp_size": "{{ tp | default(1) }}"}
    inv.write_text(yaml.safe_dump({"all": {"children": {"sglang_servers": {
        "vars": {"server_instances": [{"name": "main", "spec": spec}], "gpu_env_lock_file": LOCK},
        "hosts": {"h1": {}, "h2": {}, "h3": {"tp": 2}}}}}}))
    out = json.loads(tool("-i", inv, "--json").stdout)
    argv = {h: out["verdicts"][h]["main"]["argv"] for h in ("h1", "h2", "h3")}
    for h, a in argv.items():
        assert a[a.index("--served-model-name") + 1] == h
    assert "--tp-size" not in argv["h1"] or argv["h1"][argv["h1"].index("--tp-size") + 1] == "1"
    assert argv["h3"][argv["h3"].index("--tp-size") + 1] == "2"
