"""weights module_utils: real files on real filesystems (tmp_path), a real SIGKILL mid-copy, and the
drafter check on the lab's generated config.json files."""
import errno
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAB_MODELS = os.environ.get("SPECDEPLOY_LAB_MODELS", os.path.join(ROOT, ".lab", "models"))
REPO, COMMIT = "lab/tiny", "0123456789abcdef0123456789abcdef01234567"


def make_source(d, files):
    for rel, data in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return str(d)


@pytest.fixture
def src(tmp_path):
    return make_source(tmp_path / "mirror", {
        "config.json": b'{"architectures": ["Qwen3ForCausalLM"]}',
        "model-00001.safetensors": os.urandom(3 * 1024 * 1024 + 17),
        "sub/tokenizer.json": b"{}" * 1000,
    })


def test_stage_publishes_read_only_and_rerun_moves_nothing(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    final = os.path.join(root, "lab--tiny@" + COMMIT)
    assert r["changed"] and r["path"] == final
    assert r["bytes_copied"] == sum(e["size"] for e in man.values())
    assert w.verify_dir(final, man) == []
    assert not os.path.exists(os.path.join(root, ".staging", "lab--tiny@" + COMMIT))
    assert os.stat(final).st_mode & 0o777 == 0o555
    assert os.stat(os.path.join(final, "config.json")).st_mode & 0o777 == 0o444
    r2 = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r2["changed"] is False and r2["bytes_copied"] == 0


def test_corrupted_source_file_fails_names_it_and_publishes_nothing(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    with open(os.path.join(src, "sub/tokenizer.json"), "r+b") as f:
        f.write(b"X")  # same size, different content
    with pytest.raises(w.WeightsError) as e:
        w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert "sub/tokenizer.json: sha256" in str(e.value) and "Nothing was published" in str(e.value)
    assert e.value.files == ["sub/tokenizer.json"]
    assert not os.path.exists(os.path.join(root, "lab--tiny@" + COMMIT))
    # the good files stay staged (resume), the bad one was removed
    staging = os.path.join(root, ".staging", "lab--tiny@" + COMMIT)
    assert os.path.isfile(os.path.join(staging, "config.json"))
    assert not os.path.exists(os.path.join(staging, "sub/tokenizer.json"))


def test_missing_source_file_is_named(src, tmp_path):
    man = w.make_manifest(src)
    os.unlink(os.path.join(src, "config.json"))
    with pytest.raises(w.WeightsError, match="config.json"):
        w.stage(str(tmp_path / "m"), REPO, COMMIT, man, source_dir=src)


def test_disk_space_refused_before_any_byte(src, tmp_path, monkeypatch):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    real = w.shutil.disk_usage

    class Usage:
        total, used, free = 10 ** 9, 10 ** 9 - 1000, 1000
    monkeypatch.setattr(w.shutil, "disk_usage", lambda p: Usage)
    with pytest.raises(w.WeightsError, match="not enough disk space.*only 1000 B free. Nothing was copied"):
        w.stage(root, REPO, COMMIT, man, source_dir=src)
    monkeypatch.setattr(w.shutil, "disk_usage", real)
    assert not os.path.exists(os.path.join(root, ".staging", "lab--tiny@" + COMMIT))


def test_resume_continues_part_file_and_keeps_complete_ones(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    staging = os.path.join(root, ".staging", "lab--tiny@" + COMMIT)
    os.makedirs(staging)
    big = "model-00001.safetensors"
    with open(os.path.join(src, big), "rb") as f:
        head = f.read(1024 * 1024)
    with open(os.path.join(staging, big + ".part"), "wb") as f:
        f.write(head)
    with open(os.path.join(src, "config.json"), "rb") as f, open(os.path.join(staging, "config.json"), "wb") as g:
        g.write(f.read())
    p = w.plan(root, REPO, COMMIT, man)
    total = sum(e["size"] for e in man.values())
    assert p["bytes_needed"] == total - len(head) - man["config.json"]["size"]
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r["bytes_copied"] == p["bytes_needed"] and r["files_resumed"] == 1
    assert w.verify_dir(r["path"], man) == []


def _staging(root):
    return os.path.join(root, ".staging", "lab--tiny@" + COMMIT)


BIG = "model-00001.safetensors"


def test_corrupted_byte_deep_in_a_big_file_fails_and_publishes_nothing(src, tmp_path, monkeypatch):
    """The digest is computed while copying, chunk by chunk: a flipped byte far from the first chunk
    must still fail the stage, name the file and publish nothing."""
    monkeypatch.setattr(w, "CHUNK", 64 * 1024)
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    with open(os.path.join(src, BIG), "r+b") as f:
        f.seek(2 * 1024 * 1024 + 12345)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(w.WeightsError) as e:
        w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert e.value.files == [BIG]
    assert BIG + ": sha256" in str(e.value) and "Nothing was published" in str(e.value)
    assert not os.path.exists(os.path.join(root, "lab--tiny@" + COMMIT))
    assert not os.path.exists(os.path.join(_staging(root), BIG))
    assert not os.path.exists(os.path.join(_staging(root), BIG + ".part"))


def _put_part(root, data):
    os.makedirs(_staging(root), exist_ok=True)
    with open(os.path.join(_staging(root), BIG + ".part"), "wb") as f:
        f.write(data)


def test_resumed_part_is_hashed_whole_across_chunks(src, tmp_path, monkeypatch):
    """A .part whose length is not a multiple of the copy chunk: its prefix is read back, the rest
    copied, and the published file is the source byte for byte."""
    monkeypatch.setattr(w, "CHUNK", 64 * 1024)
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    with open(os.path.join(src, BIG), "rb") as f:
        data = f.read()
    _put_part(root, data[:1000003])
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r["files_resumed"] == 1
    assert r["bytes_copied"] == sum(e["size"] for e in man.values()) - 1000003
    with open(os.path.join(r["path"], BIG), "rb") as f:
        assert f.read() == data
    assert w.verify_dir(r["path"], man) == []


def test_part_with_garbage_prefix_is_copied_again_not_published(src, tmp_path):
    """A .part whose bytes are not the source's (a crash can leave garbage at its end): the resumed
    digest is wrong, so the file is copied again from scratch in the same run and the publish is right."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    with open(os.path.join(src, BIG), "rb") as f:
        head = bytearray(f.read(1024 * 1024))
    head[-4096:] = bytes(4096)  # the tail of the prefix is zeros
    _put_part(root, bytes(head))
    size = man[BIG]["size"]
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    others = sum(e["size"] for k, e in man.items() if k != BIG)
    assert r["files_resumed"] == 1
    assert r["bytes_copied"] == others + (size - len(head)) + size
    assert w.verify_dir(r["path"], man) == []


def test_part_longer_than_the_source_is_started_over(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    size = man[BIG]["size"]
    _put_part(root, os.urandom(size + 4096))
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r["files_resumed"] == 0
    assert r["bytes_copied"] == sum(e["size"] for e in man.values())
    assert os.path.getsize(os.path.join(r["path"], BIG)) == size
    assert w.verify_dir(r["path"], man) == []


def test_complete_staged_file_with_wrong_bytes_is_copied_again(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    os.makedirs(_staging(root))
    with open(os.path.join(_staging(root), BIG), "wb") as f:
        f.write(os.urandom(man[BIG]["size"]))  # right size, wrong bytes
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r["bytes_copied"] == sum(e["size"] for e in man.values())
    assert w.verify_dir(r["path"], man) == []


def test_good_prefix_then_corrupted_source_still_fails(src, tmp_path):
    """The retry from scratch never hides a corrupted source: the fresh copy is checked as well."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    with open(os.path.join(src, BIG), "rb") as f:
        _put_part(root, f.read(1024 * 1024))
    with open(os.path.join(src, BIG), "r+b") as f:
        f.seek(2 * 1024 * 1024)
        f.write(b"corrupt")
    with pytest.raises(w.WeightsError) as e:
        w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert e.value.files == [BIG] and "Nothing was published" in str(e.value)
    assert not os.path.exists(os.path.join(root, "lab--tiny@" + COMMIT))


def test_every_file_is_on_disk_before_the_publishing_rename(src, tmp_path, monkeypatch):
    """Durability: each staged file's data is synced, and its directory too, before the model's
    directory is renamed into place (a crash must not leave a published name over unwritten data)."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    events = []

    def fd_path(fd):
        return os.readlink("/proc/self/fd/%d" % fd)

    real_fdatasync, real_fsync, real_rename = os.fdatasync, os.fsync, os.rename
    monkeypatch.setattr(w.os, "fdatasync", lambda fd: (events.append(("sync", fd_path(fd))), real_fdatasync(fd))[1])
    monkeypatch.setattr(w.os, "fsync", lambda fd: (events.append(("sync", fd_path(fd))), real_fsync(fd))[1])
    monkeypatch.setattr(w.os, "rename", lambda a, b: (events.append(("rename", a, b)), real_rename(a, b))[1])
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    publish = events.index(("rename", _staging(root), r["path"]))
    synced = {e[1] for e in events[:publish] if e[0] == "sync"}
    staging = os.path.realpath(_staging(root))
    for rel in man:
        assert os.path.join(staging, rel + ".part") in synced, rel
        assert os.path.dirname(os.path.join(staging, rel)) in synced, rel
    assert os.path.join(staging, w.MANIFEST_NAME) in synced
    assert ("sync", os.path.realpath(root)) in events[publish:]


def test_flipped_byte_after_the_copy_handed_data_to_disk_is_refused_with_both_hashes(tmp_path, monkeypatch):
    """The copy hands written steps to the disk while it goes on (early writeback): a byte flipped in the
    source past the first handed step is still refused, the message names the file with the manifest's
    and the copied bytes' sha256, and nothing is published or left staged."""
    big = os.urandom(w.WRITEBACK_STEP + w.WRITEBACK_STEP // 2)
    src = make_source(tmp_path / "mirror", {"config.json": b"{}", BIG: big})
    man = w.make_manifest(src)
    flipped = bytearray(big)
    flipped[w.WRITEBACK_STEP + 4321] ^= 0x01
    with open(os.path.join(src, BIG), "wb") as f:
        f.write(flipped)
    handed = []
    real = os.posix_fadvise
    monkeypatch.setattr(w.os, "posix_fadvise", lambda fd, off, n, advice: (handed.append((off, n)),
                                                                          real(fd, off, n, advice))[1])
    root = str(tmp_path / "models")
    with pytest.raises(w.WeightsError) as e:
        w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert handed and handed[0] == (0, w.WRITEBACK_STEP), "the first step is handed to the disk before the end"
    msg = str(e.value)
    assert "%s: sha256 %s, manifest says %s" % (BIG, hashlib.sha256(flipped).hexdigest(), man[BIG]["sha256"]) in msg
    assert e.value.files == [BIG] and "Nothing was published" in msg
    assert not os.path.exists(os.path.join(root, "lab--tiny@" + COMMIT))
    assert not os.path.exists(os.path.join(_staging(root), BIG))
    assert not os.path.exists(os.path.join(_staging(root), BIG + ".part"))


@pytest.mark.parametrize("refusal", [OSError(errno.EINVAL, "Invalid argument"), AttributeError("posix_fadvise")])
def test_filesystem_refusing_the_writeback_hint_still_stages_durably(src, tmp_path, monkeypatch, refusal):
    """Early writeback is a hint: where the filesystem refuses it (or the platform lacks it) the stage
    publishes the same verified bytes, each file still fdatasynced before its rename."""
    monkeypatch.setattr(w, "WRITEBACK_STEP", 1024 * 1024)  # the 3 MiB model file crosses it

    def refuse(*_a):
        raise refusal
    synced = []
    real_fdatasync = os.fdatasync
    monkeypatch.setattr(w.os, "posix_fadvise", refuse)
    monkeypatch.setattr(w.os, "fdatasync", lambda fd: (synced.append(os.readlink("/proc/self/fd/%d" % fd)),
                                                       real_fdatasync(fd))[1])
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r["bytes_copied"] == sum(e["size"] for e in man.values())
    assert w.verify_dir(r["path"], man) == []
    staging = os.path.realpath(_staging(root))
    assert sorted(synced) == sorted(os.path.join(staging, rel + ".part") for rel in man)


def test_disk_full_mid_copy_publishes_nothing_and_the_next_run_resumes(src, tmp_path, monkeypatch):
    """A write that fails mid-file (ENOSPC after the first steps): the error reaches the caller, nothing
    is published, and a later run continues the .part and publishes the source byte for byte."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    real_pwrite, calls = os.pwrite, []

    def full(fd, data, off):
        calls.append(off)
        if len(calls) > 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_pwrite(fd, data, off)
    monkeypatch.setattr(w.os, "pwrite", full)
    with pytest.raises(OSError, match="No space left"):
        w.stage(root, REPO, COMMIT, man, source_dir=src, workers=1)
    assert not os.path.exists(os.path.join(root, "lab--tiny@" + COMMIT))
    monkeypatch.setattr(w.os, "pwrite", real_pwrite)
    r = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert r["files_resumed"] == 1 and r["bytes_copied"] < sum(e["size"] for e in man.values())
    with open(os.path.join(src, BIG), "rb") as a, open(os.path.join(r["path"], BIG), "rb") as b:
        assert a.read() == b.read()
    assert w.verify_dir(r["path"], man) == []


def test_empty_and_one_byte_files_stage(tmp_path):
    src = make_source(tmp_path / "mirror", {"empty.txt": b"", "one": b"x", "deep/er/two": b"yz"})
    man = w.make_manifest(src)
    r = w.stage(str(tmp_path / "models"), REPO, COMMIT, man, source_dir=src)
    assert r["bytes_copied"] == 3 and w.verify_dir(r["path"], man) == []
    assert os.path.getsize(os.path.join(r["path"], "empty.txt")) == 0


def test_sigkill_midway_then_resume(tmp_path):
    """A real stage process killed with SIGKILL while copying; the next run finishes the job."""
    src = tmp_path / "mirror"
    src.mkdir()
    with open(src / "weights.bin", "wb") as f:
        for _ in range(24):
            f.write(os.urandom(16 * 1024 * 1024))  # 384 MiB
    man = w.make_manifest(str(src))
    root = str(tmp_path / "models")
    code = ("import sys; sys.path.insert(0, %r); import json;"
            "from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w;"
            "w.CHUNK = 256 * 1024;"  # small copy steps so the kill lands mid-file
            "w.stage(%r, %r, %r, json.loads(sys.argv[1]), source_dir=%r, workers=1)"
            % (os.path.join(ROOT, ".lab", "pytree"), root, REPO, COMMIT, str(src)))
    proc = subprocess.Popen([sys.executable, "-c", code, json.dumps(man)])
    part = os.path.join(root, ".staging", "lab--tiny@" + COMMIT, "weights.bin.part")
    deadline = time.time() + 30
    while time.time() < deadline and not (os.path.exists(part) and os.path.getsize(part) > 0):
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = os.path.getsize(part)
    total = man["weights.bin"]["size"]
    assert 0 < done < total, "the kill must land mid-copy (got %d of %d)" % (done, total)
    assert not os.path.exists(os.path.join(root, "lab--tiny@" + COMMIT))
    r = w.stage(root, REPO, COMMIT, man, source_dir=str(src))
    assert r["files_resumed"] == 1 and r["bytes_copied"] == total - done
    assert w.verify_dir(r["path"], man) == []


def test_existing_different_publish_is_never_touched(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    os.makedirs(os.path.join(root, "lab--tiny@" + COMMIT))
    with pytest.raises(w.WeightsError, match="never changed in place"):
        w.stage(root, REPO, COMMIT, man, source_dir=src)


def test_published_copy_of_another_pin_names_the_files_that_differ(src, tmp_path):
    """Same commit, but the pinned manifest says other bytes for config.json than the published copy:
    refused, nothing changed, and the message says which file and both hashes."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    w.stage(root, REPO, COMMIT, man, source_dir=src)
    final = os.path.join(root, "lab--tiny@" + COMMIT)
    before = {f: os.stat(os.path.join(final, f)).st_mtime_ns for f in ("config.json", "model-00001.safetensors")}
    pinned = dict(man, **{"config.json": {"sha256": "0" * 64, "size": man["config.json"]["size"]}})
    with pytest.raises(w.WeightsError) as err:
        w.stage(root, REPO, COMMIT, pinned, source_dir=src)
    msg = str(err.value)
    assert "config.json: pinned sha256 000000000000..., published %s..." % man["config.json"]["sha256"][:12] in msg
    assert "model-00001" not in msg and "never changed in place" in msg
    assert {f: os.stat(os.path.join(final, f)).st_mtime_ns for f in before} == before


def test_verify_in_place(src):
    man = w.make_manifest(src)
    assert w.verify_in_place(src, man)["files_verified"] == 3
    man["config.json"]["sha256"] = "0" * 64
    with pytest.raises(w.WeightsError, match="config.json: sha256"):
        w.verify_in_place(src, man)


@pytest.mark.parametrize("bad,match", [
    ({"../x": "0" * 64}, "not a plain relative path"),
    ({"a": "xyz"}, "no valid sha256"),
    ({}, "manifest is empty"),
    ({"a": {"sha256": "0" * 64, "size": "big"}}, "not a number of bytes"),
])
def test_bad_manifests(bad, match):
    with pytest.raises(w.WeightsError, match=match):
        w.normalize_manifest(bad)


def test_names():
    assert w.model_dirname("Qwen/Qwen3-8B", "abc123") == "Qwen--Qwen3-8B@abc123"
    with pytest.raises(w.WeightsError, match="<org>/<name>"):
        w.model_dirname("Qwen3-8B", "abc")


def test_parallel_hash_matches_hashlib(src):
    import hashlib
    paths = [os.path.join(src, r) for r in w.list_files(src)]
    got = w.hash_files(paths, workers=4)
    for p in paths:
        with open(p, "rb") as f:
            assert got[p] == hashlib.sha256(f.read()).hexdigest()


# ---- drafter <-> target on the lab's generated configs ----------------------------------------
def lab_cfg(name):
    path = os.path.join(LAB_MODELS, name)
    if not os.path.isdir(path):
        pytest.fail("lab models missing at %s (make lab-kit)" % path)
    return w.read_config(path)


def test_matching_drafter_passes():
    assert w.check_draft_against_target(lab_cfg("tiny-qwen3"), lab_cfg("tiny-qwen3-dflash-b16")) == []
    assert w.check_draft_against_target(lab_cfg("qwen3-8b-config"), lab_cfg("qwen3-8b-dflash-b16-config")) == []


def test_mismatched_drafter_reasons():
    probs = w.check_draft_against_target(lab_cfg("tiny-qwen3"), lab_cfg("qwen3-8b-dflash-b16-config"))
    codes = {p["code"] for p in probs}
    assert {"DRAFT_LAYER_IDS_RANGE", "DRAFT_VOCAB", "DRAFT_MASK_TOKEN_VOCAB"} <= codes
    msg = " ".join(p["message"] for p in probs)
    assert "reads target layers [9, 17, 25, 33] but the target has only 2 layers" in msg


def test_short_context_drafter_refused():
    draft = dict(lab_cfg("qwen3-8b-dflash-b16-config"), max_position_embeddings=32768)
    (p,) = w.check_draft_against_target(lab_cfg("qwen3-8b-config"), draft)
    assert p["code"] == "CONTEXT_DRAFT_SHORTER" and "(32768) is shorter than the target's (40960)" in p["message"]
    # the environment variable SGLang reads makes the same pair acceptable
    assert w.check_draft_against_target(lab_cfg("qwen3-8b-config"), draft,
                                        env={"SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN": "1"}) == []


def test_non_draft_architecture_refused():
    probs = w.check_draft_against_target(lab_cfg("qwen3-8b-config"), lab_cfg("tiny-qwen3"))
    assert "DRAFT_ARCHITECTURE" in {p["code"] for p in probs}


def _flip_byte(path, offset):
    os.chmod(path, 0o644)  # published read-only; root (or the owner here) can still write it
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0xFF]))


def test_published_copy_with_a_flipped_byte_is_found_by_the_deep_check_naming_file_and_hashes(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    final = w.stage(root, REPO, COMMIT, man, source_dir=src)["path"]
    ok = w.check_published([final])
    assert ok["problems"] == [] and ok["files_checked"] == 3 and ok["deep"]
    assert ok["bytes_checked"] == sum(e["size"] for e in man.values())
    _flip_byte(os.path.join(final, "model-00001.safetensors"), 2 * 1024 * 1024 + 5)
    # the sizes-only check cannot see it (the quick check every run makes); the deep check does
    assert w.check_published([final], deep=False)["problems"] == []
    assert w.plan(root, REPO, COMMIT, man)["published"] is True
    bad = w.check_published([final])
    assert [(p["file"], p["problem"]) for p in bad["problems"]] == [("model-00001.safetensors", "sha256")]
    want = man["model-00001.safetensors"]["sha256"]
    got = w.sha256_file(os.path.join(final, "model-00001.safetensors"))
    msg = w.describe_published(bad)
    assert os.path.join(final, "model-00001.safetensors") in msg and want in msg and got in msg and want != got


def test_published_check_sizes_and_missing_files_without_hashing(src, tmp_path):
    root = str(tmp_path / "models")
    final = w.stage(root, REPO, COMMIT, w.make_manifest(src), source_dir=src)["path"]
    os.chmod(final, 0o755)
    os.unlink(os.path.join(final, "config.json"))
    os.chmod(os.path.join(final, "sub"), 0o755)
    os.chmod(os.path.join(final, "sub", "tokenizer.json"), 0o644)
    with open(os.path.join(final, "sub", "tokenizer.json"), "ab") as f:
        f.write(b"x")
    res = w.check_published([final], deep=False)
    assert sorted((p["file"], p["problem"]) for p in res["problems"]) == \
        [("config.json", "missing"), ("sub/tokenizer.json", "size")]
    assert "sub/tokenizer.json: size 2001, its manifest says 2000" in w.describe_published(res)


def test_published_check_of_a_path_that_is_not_a_published_copy(src, tmp_path):
    res = w.check_published([src, str(tmp_path / "absent")])
    assert [p["problem"] for p in res["problems"]] == ["missing", "missing"]
    assert "not a copy published by the weights role" in w.describe_published(res)
    res = w.check_published([src, str(tmp_path / "absent")], missing_ok=True)
    assert res["problems"] == [] and not any(i["published"] for i in res["paths"].values())
    assert w.recorded_manifest(src) is None


def test_restage_takes_a_damaged_copy_back_and_the_next_stage_fetches_only_the_bad_file(src, tmp_path):
    """weights_restage: a flipped byte in a published copy is found by a full hash, the copy goes back into
    staging without its bad file, and the stage that follows copies that file alone, verifies all, publishes."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    final = w.stage(root, REPO, COMMIT, man, source_dir=src)["path"]
    sound = w.restage(root, REPO, COMMIT)
    assert sound["restaged"] is False and sound["problems"] == [] and os.path.isdir(final)
    bad = os.path.join(final, "model-00001.safetensors")
    os.chmod(bad, 0o644)
    with open(bad, "r+b") as f:
        f.seek(4096)
        f.write(b"Z")
    assert w.check_published([final])["problems"]
    kept_inode = os.stat(os.path.join(final, "config.json")).st_ino
    r = w.restage(root, REPO, COMMIT)
    assert r["restaged"] is True and [p["file"] for p in r["problems"]] == ["model-00001.safetensors"]
    assert not os.path.exists(final)
    staging = os.path.join(root, ".staging", "lab--tiny@" + COMMIT)
    assert sorted(w.list_files(staging)) == ["config.json", "sub/tokenizer.json"]
    again = w.stage(root, REPO, COMMIT, man, source_dir=src)
    assert again["bytes_copied"] == man["model-00001.safetensors"]["size"] and again["files_copied"] == 1
    assert w.check_published([final])["problems"] == []
    assert os.stat(os.path.join(final, "config.json")).st_ino == kept_inode


def test_restage_in_check_mode_and_of_a_foreign_directory_changes_nothing(src, tmp_path):
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    final = w.stage(root, REPO, COMMIT, man, source_dir=src)["path"]
    os.chmod(os.path.join(final, "config.json"), 0o644)
    with open(os.path.join(final, "config.json"), "a") as f:
        f.write(" ")
    r = w.restage(root, REPO, COMMIT, check_mode=True)
    assert r["restaged"] is True and r["problems"][0]["problem"] == "size" and os.path.isdir(final)
    assert w.restage(root, REPO, "f" * 40) == {"restaged": False, "path": os.path.join(root, "lab--tiny@" + "f" * 40),
                                               "staging": os.path.join(root, ".staging", "lab--tiny@" + "f" * 40),
                                               "problems": []}
    foreign = os.path.join(root, "lab--tiny@" + "e" * 40)
    os.makedirs(foreign)
    with pytest.raises(w.WeightsError, match="not a copy published by this role"):
        w.restage(root, REPO, "e" * 40)
    assert os.path.isdir(foreign)


def _run_weights_stage(args, check_mode=False):
    import io
    from ansible.module_utils import basic
    from ansible.module_utils.common.text.converters import to_bytes
    from ansible_collections.specdeploy.sglang.plugins.modules import weights_stage
    basic._ANSIBLE_ARGS = to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": dict(args, _ansible_check_mode=check_mode)}))
    basic._ANSIBLE_PROFILE = "legacy"
    out, old = io.StringIO(), sys.stdout
    sys.stdout = out
    try:
        with pytest.raises(SystemExit):
            weights_stage.main()
    finally:
        sys.stdout = old
    return json.loads(out.getvalue())


def test_module_refusal_names_the_repair_switch_and_restage_repairs(src, tmp_path):
    """What an operator sees: the check before a restart refuses a damaged copy and names
    -e weights_restage=true; the module's restage then takes it back, a stage republishes it verified."""
    root = str(tmp_path / "models")
    man = w.make_manifest(src)
    final = w.stage(root, REPO, COMMIT, man, source_dir=src)["path"]
    bad = os.path.join(final, "sub", "tokenizer.json")
    os.chmod(bad, 0o644)
    with open(bad, "r+b") as f:
        f.write(b"[")
    refused = _run_weights_stage({"action": "check", "paths": [final]})
    assert refused["failed"] and "-e weights_restage=true" in refused["msg"] and "sub/tokenizer.json" in refused["msg"]
    dry = _run_weights_stage({"action": "restage", "repo": REPO, "commit": COMMIT, "models_root": root},
                             check_mode=True)
    assert dry["changed"] and dry["restaged"] and os.path.isdir(final)
    res = _run_weights_stage({"action": "restage", "repo": REPO, "commit": COMMIT, "models_root": root})
    assert res["changed"] and "re-staged" in res["msg"] and not os.path.exists(final)
    assert w.stage(root, REPO, COMMIT, man, source_dir=src)["files_copied"] == 1
    again = _run_weights_stage({"action": "restage", "repo": REPO, "commit": COMMIT, "models_root": root})
    assert again["changed"] is False and "nothing to re-stage" in again["msg"]
    checked = _run_weights_stage({"action": "check", "repo": REPO, "commit": COMMIT, "models_root": root})
    assert checked["published"] and checked["path"] == final
    assert checked["staging"] == os.path.join(root, ".staging", os.path.basename(final))
