"""Independent verifier: what a user of the lab host would see after converge + side_effect."""
import json

import pytest

MODELS = "/opt/specdeploy/models"


@pytest.fixture(scope="module")
def facts(host):
    return json.loads(host.file("/root/role-facts.json").content_string)


def test_no_gpu_is_reported_not_hidden(facts):
    assert facts["gpu_facts"]["present"] is False
    assert "nvidia-smi is not installed" in facts["gpu_facts"]["reason"]
    assert facts["gpu_env_gpus"] == []


def test_venv_keyed_by_lock_hash_is_complete(host, facts):
    venv = facts["gpu_env_venv"]
    assert venv == "/opt/specdeploy/envs/" + facts["gpu_env_lock_hash"][:20]
    # the LAB-ONLY prebuilt env of this lock (prepare linked it; the role found it finished and kept it):
    # the env a real install makes (its lock read-only, the files) is checked in env_host's lock bump
    assert host.file(venv).linked_to == "/srv/specdeploy-lab/prebuilt-env"
    assert host.file(venv + "/.specdeploy-complete").exists
    assert "--hash=sha256:" in host.file(venv + "/specdeploy.lock").content_string
    # exactly one env: the idempotence run did not build another
    assert host.check_output("ls /opt/specdeploy/envs").split() == [venv.rsplit("/", 1)[1]]


def test_installed_sglang_runs_and_was_probed(host, facts):
    out = host.check_output(
        "SPECDEPLOY_LAB_SHIM_MODULES=sgl_kernel,torchvision %s -c "
        "'import importlib.metadata as m, sglang.srt.server_args; print(m.version(\"sglang\"))'"
        % facts["gpu_env_python"])
    assert out.strip() == "0.5.23" == facts["gpu_env_sglang"]["version"]
    assert facts["gpu_env_sglang"]["flags"] > 400
    assert "DFLASH" in facts["gpu_env_sglang"]["algorithms"]
    assert facts["gpu_env_sglang"]["tree_verify"] == []  # 0.5.23 has no tree verify


def test_probe_kept_beside_the_env_for_later_runs(host, facts):
    """The env never changes after its marker, so later runs read the probe instead of importing SGLang."""
    cache = host.file("/opt/specdeploy/envs/.probe-%s.json" % facts["gpu_env_lock_hash"][:20])
    assert cache.exists and cache.mode == 0o444
    kept = json.loads(cache.content_string)
    probed = facts["gpu_env_sglang"]   # converge.yml keeps the flags as their count
    assert kept["version"] == probed["version"] == "0.5.23"
    assert kept["algorithms"] == probed["algorithms"] and kept["tree_verify"] == probed["tree_verify"]
    assert len(kept["flags"]) == probed["flags"] and "--speculative-algorithm" in kept["flags"]


def test_models_published_read_only_and_verified(host, facts):
    paths = facts["weights_paths"]
    assert paths == {"tiny": MODELS + "/lab--tiny-qwen3@seed0",
                     "draft_b16": MODELS + "/lab--tiny-qwen3-dflash-b16@seed0"}
    for path in paths.values():
        d = host.file(path)
        assert d.is_directory and d.mode == 0o555
        manifest = json.loads(host.file(path + "/.specdeploy-manifest.json").content_string)
        for rel, entry in manifest.items():
            f = host.file(path + "/" + rel)
            assert f.mode == 0o444
            assert f.sha256sum == entry["sha256"]
    # served weights are byte-identical to the mirror
    assert host.file(paths["tiny"] + "/model.safetensors").sha256sum == \
        host.file("/srv/specdeploy-lab/models/tiny-qwen3/model.safetensors").sha256sum


def test_nothing_published_for_refused_models(host):
    names = host.check_output("ls -A %s" % MODELS).split()
    assert "lab--corrupt@seed0" not in names
    assert "lab--qwen3-8b-dflash-b16@seed0" in names  # staged fine; only the drafter check refused it
    assert host.check_output("find /mnt/small -type f | wc -l").strip() == "0"


def test_interrupted_stage_was_resumed_and_published(host):
    path = MODELS + "/lab--big@seed0"
    assert host.file(path).is_directory
    assert host.file(path + "/weights.bin").sha256sum == host.file("/srv/big-mirror/weights.bin").sha256sum
    assert host.run("find %s/.staging -name '*.part'" % MODELS).stdout.strip() == ""
