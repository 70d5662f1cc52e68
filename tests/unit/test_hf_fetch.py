"""The hub source without the hub: huggingface_hub's own cache layout and offline mode (HF_HUB_OFFLINE=1)
with a pre-populated cache, driven through the role's hf_fetch.py exactly as the role runs it.
What this cannot cover (no hub here): HfApi.model_info against the real hub, gated repos with a token,
snapshot_download's network resume."""
import hashlib
import json
import os
import subprocess
import sys

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "roles", "weights", "files", "hf_fetch.py")
COMMIT = "a" * 40


def git_sha1(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.fixture
def cache(tmp_path):
    """A cache as huggingface_hub writes it: blobs named by sha256 (LFS) / git sha1, refs, snapshots."""
    repo = tmp_path / "hub" / "models--lab--tiny"
    files = {"model.safetensors": (os.urandom(200000), True), "config.json": (b'{"vocab_size": 465}', False)}
    (repo / "blobs").mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    snap = repo / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    for name, (data, lfs) in files.items():
        blob = hashlib.sha256(data).hexdigest() if lfs else git_sha1(data)
        (repo / "blobs" / blob).write_bytes(data)
        os.symlink(os.path.join("..", "..", "blobs", blob), snap / name)
    return str(tmp_path / "hub"), files, repo


def run(*args, env_extra=None):
    env = dict(os.environ, HF_HUB_OFFLINE="1", **(env_extra or {}))
    return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True, env=env)


def test_offline_resolve_from_cache(cache):
    cache_dir, files, _ = cache
    r = run("resolve", "--repo", "lab/tiny", "--revision", "main", "--cache-dir", cache_dir)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["commit"] == COMMIT and out["offline"] is True
    assert out["files"]["model.safetensors"]["sha256"] == hashlib.sha256(files["model.safetensors"][0]).hexdigest()
    assert out["files"]["config.json"]["git_sha1"] == git_sha1(files["config.json"][0])


def test_offline_download_then_publish(cache, tmp_path):
    cache_dir, files, _ = cache
    root = str(tmp_path / "models")
    staging = os.path.join(root, ".staging", w.model_dirname("lab/tiny", COMMIT))
    r = run("download", "--repo", "lab/tiny", "--commit", COMMIT, "--dest", staging, "--cache-dir", cache_dir)
    assert r.returncode == 0, r.stderr
    man = json.loads(r.stdout)["manifest"]
    assert man["config.json"]["sha256"] == hashlib.sha256(files["config.json"][0]).hexdigest()
    res = w.stage(root, "lab/tiny", COMMIT, man)  # no source_dir: verify what the hub put in staging
    assert res["changed"] and res["bytes_copied"] == 0 and res["files_verified"] == 2
    assert w.verify_dir(res["path"], man) == []


def test_corrupted_cached_small_file_is_caught_by_git_sha1(cache, tmp_path):
    cache_dir, files, repo = cache
    blob = repo / "blobs" / git_sha1(files["config.json"][0])
    blob.write_bytes(b'{"vocab_size": 999}')
    r = run("download", "--repo", "lab/tiny", "--commit", COMMIT, "--dest", str(tmp_path / "d"),
            "--cache-dir", cache_dir)
    assert r.returncode != 0
    assert "config.json: git blob sha1" in r.stderr


def test_offline_without_cache_is_a_clear_error(tmp_path):
    r = run("resolve", "--repo", "lab/absent", "--revision", "main", "--cache-dir", str(tmp_path))
    assert r.returncode == 2
    assert "hub source lab/absent (main) failed:" in r.stderr and "Traceback" not in r.stderr
