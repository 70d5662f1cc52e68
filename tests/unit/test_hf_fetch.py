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


STANDIN = os.path.join(ROOT, "molecule", "shared", "hub_standin.py")
LAB_MODELS = os.environ.get("SPECDEPLOY_LAB_MODELS", os.path.join(ROOT, ".lab", "models"))


@pytest.fixture
def standin(tmp_path):
    """The LAB-ONLY hub stand-in (molecule/shared/hub_standin.py) serving the tiny lab model."""
    if not os.path.isdir(os.path.join(LAB_MODELS, "tiny-qwen3")):
        pytest.fail("lab models not generated at %s: run `make lab-kit`" % LAB_MODELS)
    log = tmp_path / "hub.log"
    proc = subprocess.Popen([sys.executable, STANDIN, "--root", LAB_MODELS, "--repo", "lab/tiny-qwen3=tiny-qwen3",
                             "--port", "0", "--log", str(log)], stdout=subprocess.PIPE, text=True)
    try:
        commit = proc.stdout.readline().split()[-1]
        port = int(proc.stdout.readline().rsplit(":", 1)[1])
        yield "http://127.0.0.1:%d" % port, commit, log
    finally:
        proc.kill()
        proc.wait()


def test_real_client_against_the_hub_standin_downloads_and_refuses_an_unknown_revision(standin, tmp_path):
    """huggingface_hub (model_info, snapshot_download) through hf_fetch.py against the stand-in: the files
    arrive with the hub's metadata turned into one sha256 manifest; an unknown revision is refused clearly."""
    pytest.importorskip("huggingface_hub")
    endpoint, commit, log = standin
    dest = tmp_path / "dest"
    out = subprocess.run([sys.executable, SCRIPT, "download", "--repo", "lab/tiny-qwen3", "--commit", commit,
                          "--dest", str(dest), "--endpoint", endpoint], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["commit"] == commit and got["offline"] is False
    src = os.path.join(LAB_MODELS, "tiny-qwen3")
    assert got["manifest"] == w.make_manifest(src)
    assert "/lab/tiny-qwen3/resolve/%s/model.safetensors" % commit in log.read_text()
    bad = subprocess.run([sys.executable, SCRIPT, "resolve", "--repo", "lab/tiny-qwen3", "--revision", "0" * 40,
                          "--endpoint", endpoint], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "revision %s does not exist on the hub at %s" % ("0" * 40, endpoint) in bad.stderr, bad.stderr


def test_download_in_the_host_layout_loads_the_collection_digest(cache, tmp_path):
    """On a host the role copies hf_fetch.py and plugins/module_utils/digest.py into one directory (tasks/hub.yml);
    run from there, with no collection around it, the download's sha256 comes from that digest.py."""
    import shutil

    cache_dir, files, _ = cache
    tools = tmp_path / "tools"
    tools.mkdir()
    shutil.copy(SCRIPT, tools / "hf_fetch.py")
    staging = str(tmp_path / "staging")
    args = ["download", "--repo", "lab/tiny", "--commit", COMMIT, "--dest", staging, "--cache-dir", cache_dir]
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    alone = subprocess.run([sys.executable, str(tools / "hf_fetch.py")] + args, capture_output=True, text=True, env=env)
    assert alone.returncode != 0 and "digest.py" in alone.stderr   # without it: a clear message, no traceback
    assert "Traceback" not in alone.stderr
    shutil.copy(os.path.join(ROOT, "plugins", "module_utils", "digest.py"), tools / "digest.py")
    r = subprocess.run([sys.executable, str(tools / "hf_fetch.py")] + args, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    man = json.loads(r.stdout)["manifest"]
    assert man["config.json"]["sha256"] == hashlib.sha256(files["config.json"][0]).hexdigest()
