"""The operator's mistakes that used to pass preflight and fail only after SSH (or never), each refused by
`specdeploy preflight` on a copy of inventories/production with that one mistake, with a message that names
the fix; the playbook refuses a mistyped playbook input the same way."""
import os
import re
import subprocess
import sys
import zipfile

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import production_example  # noqa: E402

CLI = os.path.join(ROOT, "bin", "specdeploy_cli.py")


def preflight(inv, *args):
    p = subprocess.run([sys.executable, CLI, "preflight", "-i", str(inv), "--brief"] + list(args),
                       capture_output=True, text=True, check=False, cwd=ROOT)
    fails = {line.split(":", 1)[0][6:]: line for line in p.stdout.splitlines() if line.startswith("FAIL  ")}
    return p, fails


@pytest.fixture
def inv(tmp_path):
    return production_example.filled_copy(tmp_path / "inv" / "production")


def edit(inv, rel, **values):
    path = os.path.join(inv, rel)
    data = yaml.safe_load(open(path)) if os.path.exists(path) else {}
    data = data or {}
    data.update(values)
    with open(path, "w") as f:
        yaml.safe_dump(data, f)


def test_the_filled_example_passes(inv):
    p, fails = preflight(inv)
    assert p.returncode == 0 and not fails, p.stdout + p.stderr


def test_the_shipped_placeholders_are_refused_naming_where_the_commit_comes_from():
    p, fails = preflight(production_example.PRODUCTION)
    assert p.returncode == 1
    line = fails["pro6000-b1"]
    assert "[REVISION_PLACEHOLDER] weights_models.target.commit is a placeholder" in line
    assert "git ls-remote https://huggingface.co/Qwen/Qwen3-8B HEAD" in line
    assert "https://huggingface.co/z-lab/Qwen3-8B-DFlash-b16/commits/main" in line


@pytest.mark.parametrize("commit,says", [("main", "a branch or tag name"), ("v1.0", "a branch or tag name"),
                                         ("a1b2c3d", "a short hash")])
def test_a_revision_that_is_not_a_full_commit_is_refused(inv, commit, says):
    edit(inv, "host_vars/pro6000-b1.yml", prod_target_revision=commit)
    p, fails = preflight(inv)
    assert p.returncode == 1 and sorted(fails) == ["pro6000-b1"], p.stdout
    assert "[REVISION_NOT_COMMIT] weights_models.target.commit %s looks like %s" % (commit, says) in fails["pro6000-b1"]
    assert "40-hex commit" in fails["pro6000-b1"] and "git ls-remote https://huggingface.co/Qwen/Qwen3-8B" in fails["pro6000-b1"]


def test_a_hub_model_without_commit_is_refused(inv):
    models = yaml.safe_load(open(os.path.join(inv, "group_vars", "sglang_servers.yml")))["weights_models"]
    models["draft"] = {k: v for k, v in models["draft"].items() if k != "commit"}
    models["draft"]["revision"] = "main"
    edit(inv, "host_vars/pro6000-b1.yml", weights_models=models)
    p, fails = preflight(inv)
    assert "[REVISION_UNPINNED] weights_models.draft (hub) has no commit (revision main)" in fails["pro6000-b1"], p.stdout


def test_a_missing_lock_fails_before_any_host_naming_the_command_that_makes_one(inv):
    edit(inv, "host_vars/pro6000-b1.yml", gpu_env_lock_file="sglang-0.5.24-cu13.lock")
    p, fails = preflight(inv)
    assert p.returncode == 1 and sorted(fails) == ["pro6000-b1"], p.stdout
    line = fails["pro6000-b1"]
    assert "[LOCK_MISSING] gpu_env_lock_file sglang-0.5.24-cu13.lock: no such file" in line
    assert "sglang-0.5.23-cu13.lock" in line and "`specdeploy lock cuda <version>`" in line


def test_a_malformed_lock_is_refused(inv, tmp_path):
    bad = tmp_path / "bad.lock"
    bad.write_text(open(production_example.SHIPPED_LOCK).read().replace("--hash=sha256:", "--hash=md5:", 1))
    edit(inv, "host_vars/pro6000-b1.yml", gpu_env_lock_file=str(bad))
    p, fails = preflight(inv)
    assert "[LOCK_INVALID] gpu_env_lock_file %s is not a good lock" % bad in fails["pro6000-b1"], p.stdout
    assert "specdeploy lock check" in fails["pro6000-b1"]


def test_a_lock_of_another_sglang_version_is_refused(inv):
    edit(inv, "host_vars/pro6000-b1.yml", gpu_env_lock_file=os.path.join(ROOT, "lab", "sglang-0.5.22-cpu.lock"))
    p, fails = preflight(inv)
    line = fails["pro6000-b1/main"]
    assert "[LOCK_VERSION] spec.sglang_version is 0.5.23, but the lock" in line and "installs SGLang 0.5.22" in line
    assert "`specdeploy lock cuda 0.5.23`" in line


def test_ddtree_on_a_lock_without_tree_verification_is_refused(inv):
    # the shipped example's DDTree hosts as shipped: the group lock of the released 0.5.23
    edit(inv, "group_vars/ddtree.yml", gpu_env_lock_file="sglang-0.5.23-cu13.lock")
    p, fails = preflight(inv)
    assert sorted(fails) == ["pro6000-a1/main", "pro6000-a2/main", "pro6000-a2/second"], p.stdout
    line = fails["pro6000-a1/main"]
    assert "[LOCK_TREE_VERIFY] verify: tree needs the tree-verify flavor sglang-pr29907" in line
    assert "no tree verification" in line and "--sglang-source" in line and "gpu_env_wheels" in line


def test_two_instances_sharing_a_gpu_are_refused(inv):
    instances = [{"name": "main", "cuda_visible_devices": "0,1", "spec": "{{ prod_spec_base | combine({'speculative': prod_ddtree}) }}"},
                 {"name": "second", "cuda_visible_devices": "1,2",
                  "spec": "{{ prod_spec_base | combine({'port': 30001, 'speculative': prod_ddtree}) }}"}]
    edit(inv, "host_vars/pro6000-a2.yml", server_instances=instances)
    p, fails = preflight(inv)
    assert "[GPU_SHARED] instances main and second both use GPU 1" in fails["pro6000-a2"], p.stdout


def test_an_instance_without_its_own_gpus_next_to_another_is_refused(inv):
    instances = [{"name": "main", "spec": "{{ prod_spec_base | combine({'speculative': prod_ddtree}) }}"},
                 {"name": "second", "cuda_visible_devices": "2,3",
                  "spec": "{{ prod_spec_base | combine({'port': 30001, 'speculative': prod_ddtree}) }}"}]
    edit(inv, "host_vars/pro6000-a2.yml", server_instances=instances)
    p, fails = preflight(inv)
    assert "[GPU_SHARED] instance main has no cuda_visible_devices" in fails["pro6000-a2"], p.stdout


def test_two_instances_on_one_port_are_refused(inv):
    instances = [{"name": "main", "cuda_visible_devices": "0,1", "spec": "{{ prod_spec_base | combine({'speculative': prod_ddtree}) }}"},
                 {"name": "second", "cuda_visible_devices": "2,3", "spec": "{{ prod_spec_base | combine({'speculative': prod_ddtree}) }}"}]
    edit(inv, "host_vars/pro6000-a2.yml", server_instances=instances)
    p, fails = preflight(inv)
    assert "instances main, second all listen on port 30000" in fails["pro6000-a2"], p.stdout


def test_an_instance_whose_unit_is_one_it_replaces_is_refused(inv):
    edit(inv, "host_vars/pro6000-b2.yml", server_replaces_units=["sglang-nextn.service", "sglang-main.service"])
    p, fails = preflight(inv)
    line = fails["pro6000-b2"]
    assert "[REPLACES_OWN_UNIT] server_replaces_units lists sglang-main.service, the unit of instance main" in line


def test_a_mistyped_role_variable_is_refused_with_did_you_mean(inv):
    edit(inv, "host_vars/pro6000-b2.yml", server_replace_units=["sglang-nextn.service"])
    p, fails = preflight(inv)
    assert "[UNKNOWN_VARIABLE] unknown variable server_replace_units" in fails["pro6000-b2"], p.stdout
    assert "did you mean server_replaces_units?" in fails["pro6000-b2"]


def test_a_mistyped_playbook_input_fails_the_playbook_with_did_you_mean(inv):
    env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(ROOT, "ansible.cfg"))
    p = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "-i", inv,
                        os.path.join(ROOT, "playbooks", "preflight.yml"), "-e", "specdeploy_preflight_authorty=true"],
                       capture_output=True, text=True, check=False, env=env, cwd=ROOT)
    out = p.stdout + p.stderr
    assert p.returncode != 0, out
    assert "Preflight failed; no host was touched" in out
    assert "unknown playbook input specdeploy_preflight_authorty" in out
    assert "did you mean specdeploy_preflight_authority?" in out


def test_preflight_prints_each_instance_flags_as_in_its_unit_and_every_note(inv):
    edit(inv, "host_vars/pro6000-b1.yml", sglang_draft_config=dict(
        yaml.safe_load(open(os.path.join(inv, "group_vars", "sglang_servers.yml")))["sglang_draft_config"], block_size=8))
    p = subprocess.run([sys.executable, CLI, "preflight", "-i", str(inv), "--limit", "pro6000-b1", "--fatal-notes", ""],
                       capture_output=True, text=True, check=False, cwd=ROOT)
    lines = p.stdout.splitlines()
    at = lines.index("      sglang-main.service flags (as in its unit's ExecStart):")
    assert lines[at + 1] == '        "--model-path" "/opt/specdeploy/models/Qwen--Qwen3-8B@%s"' % production_example.TARGET_COMMIT
    assert '        "--speculative-algorithm" "DFLASH"' in lines
    notes = [x for x in lines if x.startswith("      note [")]
    assert any(x.startswith("      note [DRAFT_BLOCK_SIZE_CONFLICT] the drafter's dflash_config.block_size (16) and "
                            "top-level block_size (8) differ") for x in notes), p.stdout
    assert "(%d notes)" % len(notes) in lines[0]


def wheel_flavors(path):
    """specdeploy_lock.wheel_tree_flavors in its own process (it sets up ansible-core's collection loader)."""
    code = "import sys; sys.path.insert(0, %r); import specdeploy_lock; print(','.join(specdeploy_lock.wheel_tree_flavors(%r)))"
    p = subprocess.run([sys.executable, "-c", code % (os.path.join(ROOT, "bin"), str(path))], capture_output=True,
                       text=True, check=True, cwd=ROOT)
    return [x for x in p.stdout.strip().split(",") if x]


def test_the_lock_tool_reads_the_tree_verify_flavor_from_an_sglang_wheel(tmp_path):
    plain = tmp_path / "sglang-0.5.23-py3-none-any.whl"
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("sglang/srt/server_args.py", 'parser.add_argument("--speculative-algorithm")\n')
        z.writestr("sglang/srt/speculative/spec_info.py", "DFLASH = 1\n")
    assert wheel_flavors(plain) == []
    pr = tmp_path / "sglang-0.5.23+pr29907-py3-none-any.whl"
    with zipfile.ZipFile(pr, "w") as z:
        z.writestr("sglang/srt/server_args.py", 'parser.add_argument("--speculative-ddtree-budget", type=int)\n')
        z.writestr("sglang/srt/speculative/spec_info.py", "DDTREE = 7\n")
    assert wheel_flavors(pr) == ["sglang-pr29907"]
    # 0.5.23 and later generate their options from typed fields: a field of the flag's name is the flag
    fields = tmp_path / "sglang-0.5.23+ddtree-py3-none-any.whl"
    with zipfile.ZipFile(fields, "w") as z:
        z.writestr("sglang/srt/server_args.py", "from sglang.srt.arg_groups.fields import *\n")
        z.writestr("sglang/srt/arg_groups/fields/spec.py",
                   "class Spec:\n    speculative_dflash_block_size: A[int, 'x'] = None\n"
                   "    speculative_dflash_enable_ddtree: A[\n        bool, 'y'] = False\n")
    assert wheel_flavors(fields) == ["fork-db-guo"]
    # a mention in help text or a comment is no field
    other = tmp_path / "sglang-0.5.23+other-py3-none-any.whl"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("sglang/srt/server_args.py", "x = 1\n")
        z.writestr("sglang/srt/arg_groups/fields/spec.py",
                   "class Spec:\n    a: A[int, 'unlike speculative_dflash_enable_ddtree: it'] = None\n")
    assert wheel_flavors(other) == []


def test_the_lock_header_carries_the_tree_verify_flavors():
    from ansible_collections.specdeploy.sglang.plugins.module_utils import lockfile

    text = production_example.ddtree_lock_text()
    assert lockfile.check_lock(text) == []
    assert lockfile.parse_header(text)["tree_verify"] == ["sglang-pr29907"]
    assert lockfile.parse_header(open(production_example.SHIPPED_LOCK).read())["tree_verify"] == []
    assert any("tree_verify" in p for p in lockfile.check_lock(text.replace("tree_verify=sglang-pr29907",
                                                                           "tree_verify=Bad Flavor")))


def test_the_lock_tool_builds_sglang_from_a_named_source_and_finds_its_flavor(tmp_path):
    # TEST FIXTURE, not SGLang: the smallest source tree shaped like SGLang's repository (the package in
    # python/, the tree-verify flag in server_args.py, DDTREE in spec_info.py) at a local version; built
    # with pip wheel (build isolation: setuptools from the configured index), as a pull request's tree is
    pkg = tmp_path / "src" / "python"
    (pkg / "sglang" / "srt" / "speculative").mkdir(parents=True)
    (pkg / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools", "wheel"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "sglang"\nversion = "0.5.23+pr29907"\n'
        '[tool.setuptools.packages.find]\ninclude = ["sglang*"]\n')
    for d in ("sglang", "sglang/srt", "sglang/srt/speculative"):
        (pkg / d / "__init__.py").write_text("")
    (pkg / "sglang" / "srt" / "server_args.py").write_text('parser.add_argument("--speculative-ddtree-budget")\n')
    (pkg / "sglang" / "srt" / "speculative" / "spec_info.py").write_text("DDTREE = 1\n")
    code = ("import sys; sys.path.insert(0, %r); import specdeploy_lock as L; w = L.build_sglang_wheel(%r, %r); "
            "print(w); print(','.join(L.wheel_tree_flavors(w)))")
    p = subprocess.run([sys.executable, "-c", code % (os.path.join(ROOT, "bin"), str(tmp_path / "src"),
                                                      str(tmp_path / "wheels"))],
                       capture_output=True, text=True, check=False, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    wheel, flavors = p.stdout.strip().splitlines()[-2:]
    assert os.path.basename(wheel) == "sglang-0.5.23+pr29907-py3-none-any.whl" and os.path.isfile(wheel)
    assert flavors == "sglang-pr29907"


def test_a_git_source_must_name_a_full_commit():
    code = ("import sys; sys.path.insert(0, %r); import specdeploy_lock as L\n"
            "try:\n    L.build_sglang_wheel('git+https://github.com/sgl-project/sglang@main', '/nonexistent')\n"
            "except L.LockToolError as e:\n    print(e)\n")
    p = subprocess.run([sys.executable, "-c", code % os.path.join(ROOT, "bin")], capture_output=True, text=True,
                       check=True, cwd=ROOT)
    assert "full 40-hex commit" in p.stdout and "refs/pull/<N>/head" in p.stdout, p.stdout


def test_a_shipped_wheel_must_be_the_one_the_lock_pins(inv, tmp_path):
    # the DDTree hosts' lock (the stand-in of tests/support) pins the release's sglang hash: a wheel with other
    # bytes is refused before any copy, one the lock pins passes
    wheel = tmp_path / "sglang-0.5.23+pr29907-py3-none-any.whl"
    wheel.write_bytes(b"not the wheel the lock was made from")
    edit(inv, "group_vars/ddtree.yml", gpu_env_wheels=[str(wheel), str(tmp_path / "gone.whl")])
    p, fails = preflight(inv)
    line = fails["pro6000-a1"]
    assert "[WHEEL_NOT_LOCKED] gpu_env_wheels %s" % wheel in line and "--extra-wheel" in line, p.stdout
    assert "[WHEEL_MISSING] gpu_env_wheels names %s" % (tmp_path / "gone.whl") in line
    # the same file, once a lock pins its sha256 (the stand-in lock with one hash swapped for it), passes
    import hashlib

    text = production_example.ddtree_lock_text()
    pinned = re.search(r"(?m)^aiosignal==1\.4\.0 \\\n    --hash=sha256:([0-9a-f]{64})", text)
    assert pinned
    text = text.replace(pinned.group(1), hashlib.sha256(wheel.read_bytes()).hexdigest(), 1)
    (tmp_path / "mine.lock").write_text(text)
    edit(inv, "group_vars/ddtree.yml", gpu_env_wheels=[str(wheel)], gpu_env_lock_file=str(tmp_path / "mine.lock"))
    p, fails = preflight(inv)
    assert not [f for f in fails if f.startswith("pro6000-a")], p.stdout
