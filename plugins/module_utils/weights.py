# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Model weights on a host: manifest (sha256 + size per file), parallel verification, resumable
staging, atomic read-only publish, and the drafter <-> target config check.

stdlib only, no Ansible import (modules weights_stage / weights_manifest wrap it; tests/unit and
bench/ call it directly).

Layout (docs/interfaces.md):
    <root>/<org>--<name>@<commit>/           published, read-only, never modified in place
    <root>/.staging/<org>--<name>@<commit>/  being filled; renamed into place when complete and verified
Copy: one pass per file (read a chunk once, write it, hash it), written steps handed to the disk as the
copy goes on; the file's data is on disk (fdatasync) before ``<file>.part`` is renamed to ``<file>``, and
the directories are fsynced before the publishing rename. Resume: a later run keeps complete files (they
are hashed again before publish) and continues a ``.part`` from its current size (its prefix is read back
once and hashed, so the digest is of the whole file); a kept file or prefix whose digest turns out wrong is
copied again from scratch once.
"""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import re
import shutil
import stat
import time
from concurrent.futures import ThreadPoolExecutor

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as engine
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import hasher, sha256_file  # noqa: F401 (one definition)

MANIFEST_NAME = ".specdeploy-manifest.json"
STAGING_DIR = ".staging"
PART_SUFFIX = ".part"
# Copy and hash step. 1 MiB, not more: the buffer is read into, hashed and written out while it is still in
# the core's L2 cache; with 8 MiB every step went through RAM three times (on the 2-core lab machine at load
# 4 the copy loop took 1.08 CPU s for 512 MiB at 8 MiB, 0.54 s at 1 MiB; the repository's bench/ measures it).
CHUNK = 1024 * 1024
# Written data is handed to the disk every WRITEBACK_STEP bytes while the copy goes on, so the fdatasync
# at the end of a file waits for its last step only, not for the whole file (0: no early writeback).
WRITEBACK_STEP = 8 * 1024 * 1024

_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
_COMMIT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class WeightsError(Exception):
    """A problem a person must act on; the message names the file, path or value."""

    def __init__(self, msg, files=None):
        super(WeightsError, self).__init__(msg)
        self.files = files or []


# ---- names and manifests ---------------------------------------------------------------------
def model_dirname(repo, commit):
    if not _REPO.match(repo or ""):
        raise WeightsError("repo %r is not of the form <org>/<name>" % (repo,))
    if not _COMMIT.match(commit or ""):
        raise WeightsError("commit %r is not a commit id or pinned revision label" % (commit,))
    org, name = repo.split("/")
    return "%s--%s@%s" % (org, name, commit)


def _check_relpath(rel):
    if not rel or rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in rel.split("/")):
        raise WeightsError("manifest path %r is not a plain relative path" % (rel,))
    if rel == MANIFEST_NAME or rel.endswith(PART_SUFFIX):
        raise WeightsError("manifest path %r uses a name reserved for staging" % (rel,))


def normalize_manifest(manifest, allow_git_sha1=False):
    """{relpath: sha256 | {sha256, size}} -> {relpath: {'sha256', 'size' (int or None)}}.

    allow_git_sha1: entries may carry the hub's git blob sha1 instead (small non-LFS files, before
    download); only plan() accepts those, staging needs a sha256 for every file."""
    if not isinstance(manifest, dict) or not manifest:
        raise WeightsError("the manifest is empty: give a sha256 (and size) for every file of the model")
    out = {}
    for rel, entry in manifest.items():
        _check_relpath(rel)
        if isinstance(entry, str):
            entry = {"sha256": entry}
        if not isinstance(entry, dict):
            raise WeightsError("manifest entry for %s must be a sha256 string or {sha256, size}" % rel)
        digest = str(entry.get("sha256") or "").lower()
        if not digest and allow_git_sha1 and re.match(r"^[0-9a-f]{40}$", str(entry.get("git_sha1", ""))):
            digest = None
        elif not _HEX64.match(digest):
            raise WeightsError("manifest entry for %s has no valid sha256 (got %r)" % (rel, entry.get("sha256")))
        size = entry.get("size")
        if size is not None:
            try:
                size = int(size)
            except (TypeError, ValueError):
                raise WeightsError("manifest size for %s is %r, not a number of bytes" % (rel, size))
            if size < 0:
                raise WeightsError("manifest size for %s is negative" % rel)
        out[rel] = {"sha256": digest, "size": size}
    return out


def with_sizes(manifest, sizes):
    """Fill missing sizes from {relpath: size} (e.g. measured on the controller for a controller source)."""
    out = {}
    for rel, size in (sizes or {}).items():
        if not inputs.is_int(size) or size < 0:
            raise WeightsError("sizes.%s is %r, not a number of bytes (0 or more)" % (rel, size))
    if manifest is not None and not isinstance(manifest, dict):
        raise WeightsError("the manifest must map file paths to a sha256 or {sha256, size}")
    for rel, entry in (manifest or {}).items():
        if not isinstance(entry, (str, dict)):
            raise WeightsError("manifest entry for %s must be a sha256 string or {sha256, size}" % (rel,))
        entry = {"sha256": entry} if isinstance(entry, str) else dict(entry)
        if entry.get("size") is None and rel in (sizes or {}):
            entry["size"] = sizes[rel]
        out[rel] = entry
    return out


def default_workers():
    return max(1, min(32, os.cpu_count() or 1))


def stage_workers():
    """Copy workers of a stage by default: two per core. A copy waits on the disk (its fdatasync, the
    journal, pages handed to writeback), and a second worker per core copies and hashes meanwhile;
    hashing alone (hash_files) keeps one per core."""
    return max(1, min(32, 2 * (os.cpu_count() or 1)))


def hash_files(paths, workers=None):
    """{path: sha256} computed in parallel threads (hashlib releases the GIL on large buffers)."""
    paths = list(paths)
    with ThreadPoolExecutor(max_workers=workers or default_workers()) as pool:
        return dict(zip(paths, pool.map(sha256_file, paths)))


def list_files(directory):
    """Relative paths of regular files under directory (skips our manifest, .part files and dot dirs
    such as huggingface_hub's .cache)."""
    out = []
    for base, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name == MANIFEST_NAME or name.endswith(PART_SUFFIX):
                continue
            full = os.path.join(base, name)
            if os.path.isfile(full):
                _inside(directory, os.path.relpath(full, directory))
                out.append(os.path.relpath(full, directory))
    return out


def _inside(directory, rel):
    """The real path of directory/rel, refused when it (a symlink, or a symlinked directory on the way)
    leads out of the directory: a model's files are its own."""
    try:
        return inputs.inside(directory, rel, "model file")
    except inputs.InputError as exc:
        raise WeightsError("%s: a symlink out of the model directory is refused (copy the file in instead)"
                           % exc, files=[rel])


def make_manifest(directory, workers=None):
    if not os.path.isdir(directory):
        raise WeightsError("%s is not a directory" % directory)
    rels = list_files(directory)
    if not rels:
        raise WeightsError("%s holds no files" % directory)
    digests = hash_files([os.path.join(directory, r) for r in rels], workers)
    return {r: {"sha256": digests[os.path.join(directory, r)], "size": os.path.getsize(os.path.join(directory, r))}
            for r in rels}


def verify_dir(directory, manifest, workers=None):
    """Problems [{file, problem, expected, actual}] of directory against the manifest (empty = ok)."""
    manifest = normalize_manifest(manifest)
    problems, to_hash = [], []
    for rel, entry in sorted(manifest.items()):
        full = os.path.join(directory, rel)
        _inside(directory, rel)  # a link out of the model directory is no file of the model
        if not os.path.isfile(full):
            problems.append({"file": rel, "problem": "missing", "expected": entry["sha256"], "actual": None})
            continue
        size = os.path.getsize(full)
        if entry["size"] is not None and size != entry["size"]:
            problems.append({"file": rel, "problem": "size", "expected": entry["size"], "actual": size})
            continue
        to_hash.append(rel)
    digests = hash_files([os.path.join(directory, r) for r in to_hash], workers)
    for rel in to_hash:
        got = digests[os.path.join(directory, rel)]
        if got != manifest[rel]["sha256"]:
            problems.append({"file": rel, "problem": "sha256", "expected": manifest[rel]["sha256"], "actual": got})
    return problems


def describe(problems, where):
    lines = []
    for p in problems:
        if p["problem"] == "missing":
            lines.append("%s: missing" % p["file"])
        elif p["problem"] == "size":
            lines.append("%s: size %s, manifest says %s" % (p["file"], p["actual"], p["expected"]))
        else:
            lines.append("%s: sha256 %s, manifest says %s" % (p["file"], p["actual"], p["expected"]))
    return "%s: %d file(s) do not match the manifest: %s" % (where, len(problems), "; ".join(lines))


# ---- plan, space ----------------------------------------------------------------------------
def _published_differences(final, manifest):
    """How final differs from a published copy of exactly this manifest: [] when it is one (quick:
    recorded manifest, names and sizes; full hashes are checked by verify_dir on demand)."""
    recorded = recorded_manifest(final)
    if recorded is None:
        return ["it has no readable %s (not published by this role)" % MANIFEST_NAME]
    out = ["%s is pinned but not in the published copy" % k for k in sorted(set(manifest) - set(recorded))]
    out += ["%s is in the published copy but not pinned" % k for k in sorted(set(recorded) - set(manifest))]
    for k in sorted(set(manifest) & set(recorded)):
        want, have = manifest[k], recorded[k]
        if want["sha256"] is not None and want["sha256"] != have["sha256"]:
            out.append("%s: pinned sha256 %s..., published %s..." % (k, want["sha256"][:12], have["sha256"][:12]))
        elif want["size"] is not None and want["size"] != have["size"]:
            out.append("%s: pinned size %s, published %s" % (k, want["size"], have["size"]))
    for rel, entry in sorted(recorded.items()):
        full = os.path.join(final, rel)
        if not os.path.isfile(full):
            out.append("%s is missing from the published copy" % rel)
        elif entry["size"] is not None and os.path.getsize(full) != entry["size"]:
            out.append("%s has %d bytes, its record says %d" % (rel, os.path.getsize(full), entry["size"]))
    return out


def plan(models_root, repo, commit, manifest, source_dir=None):
    """What staging would do: paths, bytes still to move, free space. Moves nothing."""
    manifest = normalize_manifest(manifest, allow_git_sha1=True)
    name = model_dirname(repo, commit)
    final = os.path.join(models_root, name)
    staging = os.path.join(models_root, STAGING_DIR, name)
    out = {"name": name, "path": final, "staging": staging, "published": False, "files": len(manifest),
           "total_bytes": 0, "bytes_needed": 0, "files_needed": 0, "free_bytes": None}
    if os.path.isdir(final):
        differences = _published_differences(final, manifest)
        if not differences:
            out["published"] = True
            out["total_bytes"] = sum(os.path.getsize(os.path.join(final, r)) for r in manifest)
            return out
        shown = "; ".join(differences[:5]) + ("; and %d more" % (len(differences) - 5) if len(differences) > 5 else "")
        raise WeightsError(
            "%s exists but is not a published copy of this manifest (%s). Published models are never changed "
            "in place: check the pinned commit/manifest, or remove the directory by hand if it is stale."
            % (final, shown))
    for rel, entry in manifest.items():
        size = entry["size"]
        if size is None and source_dir:
            src = os.path.join(source_dir, rel)
            size = os.path.getsize(src) if os.path.isfile(src) else None
        if size is None:
            raise WeightsError("no size known for %s: add sizes to the manifest (the hub's metadata and "
                               "weights_manifest give them)" % rel)
        out["total_bytes"] += size
        staged = os.path.join(staging, rel)
        have = 0
        if os.path.isfile(staged) and os.path.getsize(staged) == size:
            have = size
        elif os.path.isfile(staged + PART_SUFFIX):
            have = min(size, os.path.getsize(staged + PART_SUFFIX))
        if have < size:
            out["files_needed"] += 1
            out["bytes_needed"] += size - have
    probe = models_root
    while not os.path.exists(probe):
        probe = os.path.dirname(probe) or "/"
    out["free_bytes"] = shutil.disk_usage(probe).free
    out["filesystem_probe"] = probe
    return out


def check_space(p, reserve_bytes=0):
    if p["published"]:
        return
    need = p["bytes_needed"] + reserve_bytes
    if p["free_bytes"] is not None and need > p["free_bytes"]:
        raise WeightsError(
            "not enough disk space for %s on the filesystem of %s: %s still to copy (+ %s reserve) but only %s "
            "free. Nothing was copied. Free space, enlarge the filesystem or point weights_models_root "
            "elsewhere." % (p["name"], p["filesystem_probe"], human(p["bytes_needed"]), human(reserve_bytes),
                            human(p["free_bytes"])))


def human(n):
    n = float(n or 0)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1024.0


# ---- copy ----------------------------------------------------------------------------------
def _copy_hashed(src, part):
    """Copy src into part, continuing the prefix part already holds, and return
    (sha256 of the whole of part, bytes copied now, bytes of the prefix kept).

    One pass: each chunk is read once from src into a reused buffer, written to part and fed to sha256
    (hashlib releases the GIL on large buffers, so workers on other files run meanwhile). A kept prefix
    is read back once and hashed, so the digest covers every byte of the file. A part longer than src
    cannot be a prefix of it and is started over. The data is on disk (fdatasync) before this returns:
    the caller renames part to its final name next, and a complete-looking name must mean complete data.
    Every WRITEBACK_STEP bytes the step just written is handed to the disk (_start_writeback), so the
    disk writes while the copy and the hash go on and that fdatasync waits only for the tail.
    """
    fd_in = os.open(src, os.O_RDONLY)
    try:
        fd_out = os.open(part, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            prefix, src_size = os.fstat(fd_out).st_size, os.fstat(fd_in).st_size
            if prefix > src_size:
                os.ftruncate(fd_out, 0)
                prefix = 0
            h = hasher()
            buf = memoryview(bytearray(max(1, min(CHUNK, src_size))))  # small files: no CHUNK-sized buffer each
            pos = 0
            while pos < prefix:
                n = os.preadv(fd_out, [buf[:min(len(buf), prefix - pos)]], pos)
                if not n:
                    raise WeightsError("%s shrank while it was being read back" % part)
                h.update(buf[:n])
                pos += n
            handed = pos  # written bytes below this offset have been handed to the disk
            while True:
                n = os.preadv(fd_in, [buf], pos)
                if not n:
                    break
                chunk = buf[:n]
                h.update(chunk)
                done = 0
                while done < n:
                    done += os.pwrite(fd_out, chunk[done:], pos + done)
                pos += n
                if WRITEBACK_STEP and pos - handed >= WRITEBACK_STEP:
                    _start_writeback(fd_out, handed, pos - handed)
                    handed = pos
            os.fdatasync(fd_out)
        finally:
            os.close(fd_out)
    finally:
        os.close(fd_in)
    return h.hexdigest(), pos - prefix, prefix


def _start_writeback(fd, offset, length):
    """Start writing [offset, offset + length) of fd to disk without waiting for it.

    POSIX_FADV_DONTNEED on a range of dirty pages: Linux starts their writeback (WB_SYNC_NONE, as the
    flusher threads would) and keeps them cached, since a page being written back is not dropped
    (posix_fadvise(2): "the implementation may attempt to write back dirty pages in the specified
    region"; mm/fadvise.c). Without it nothing is written until fdatasync or the kernel's dirty limits
    (10 % of RAM by default), and the fdatasync then waits for the whole file. A hint only: durability
    still comes from the fdatasync after the copy; where the hint is missing or refused, nothing changes.
    """
    try:
        os.posix_fadvise(fd, offset, length, os.POSIX_FADV_DONTNEED)
    except (AttributeError, OSError):
        pass


def _stage_one(src_dir, staging, rel, entry, copy):
    """Copy (or resume) one file into staging, hashing it in the same pass. Returns a dict.

    A file not copied in full by this run (complete from an earlier run, or a resumed .part) whose
    digest is wrong is copied again from scratch once: its earlier bytes may be what was wrong (a crash
    can leave garbage at the end of a .part). A fresh full copy that is still wrong means the source is.
    """
    dst = os.path.join(staging, rel)
    res = {"file": rel, "copied": 0, "resumed": False, "skipped": False}
    _inside(staging, rel)  # what is published is the staging directory's own file, never a link out of it
    if not copy:
        if not os.path.isfile(dst):
            res["error"] = "missing"
            return res
        res["size"] = os.path.getsize(dst)
        res["sha256"] = sha256_file(dst)
        return res
    src = os.path.join(src_dir, rel)
    if not os.path.isfile(src):
        res["error"] = "missing in the source %s" % src_dir
        return res
    if os.path.isfile(dst) and os.path.getsize(dst) == os.path.getsize(src):
        res["sha256"] = sha256_file(dst)
        if res["sha256"] == entry["sha256"]:
            res["skipped"] = True
            res["size"] = os.path.getsize(dst)
            return res
    parent = os.path.dirname(dst)
    if not os.path.isdir(parent):
        os.makedirs(parent, 0o755)
    if os.path.isfile(dst):
        os.unlink(dst)
    part = dst + PART_SUFFIX
    digest, copied, prefix = _copy_hashed(src, part)
    res["copied"] += copied
    res["resumed"] = prefix > 0
    if prefix and digest != entry["sha256"]:
        os.unlink(part)
        digest, copied, _prefix = _copy_hashed(src, part)
        res["copied"] += copied
        res["restarted"] = True
    os.rename(part, dst)
    res["size"] = os.path.getsize(dst)
    res["sha256"] = digest
    return res


def _make_read_only(top):
    for base, dirs, files in os.walk(top):
        for name in files:
            os.chmod(os.path.join(base, name), 0o444)
        for name in dirs:
            os.chmod(os.path.join(base, name), 0o555)
    os.chmod(top, 0o555)


def _make_writable(top):
    for base, dirs, files in os.walk(top):
        os.chmod(base, 0o755)
        for name in files:
            p = os.path.join(base, name)
            os.chmod(p, stat.S_IMODE(os.stat(p).st_mode) | 0o200)


def stage(models_root, repo, commit, manifest, source_dir=None, workers=None, reserve_bytes=0,
          check_mode=False):
    """Stage a model from source_dir (a directory on this host), verify it, publish it.

    source_dir None (or the staging dir itself) means: the files are already in staging (put there by
    huggingface_hub or a controller copy); only verify and publish.
    Returns a result dict; raises WeightsError (nothing published) on any problem.
    """
    t0 = time.time()
    manifest = normalize_manifest(manifest)
    p = plan(models_root, repo, commit, manifest, source_dir)
    result = {"changed": False, "path": p["path"], "name": p["name"], "bytes_copied": 0, "files_copied": 0,
              "files_resumed": 0, "files_verified": 0, "total_bytes": p["total_bytes"], "plan": p}
    if p["published"]:
        result["seconds"] = round(time.time() - t0, 3)
        return result
    check_space(p, reserve_bytes)
    result["changed"] = True
    if check_mode:
        result["bytes_copied"] = p["bytes_needed"]
        return result
    staging = p["staging"]
    copy = bool(source_dir) and os.path.realpath(source_dir) != os.path.realpath(staging)
    if copy and not os.path.isdir(source_dir):
        raise WeightsError("source directory %s does not exist on this host" % source_dir)
    if not os.path.isdir(staging):
        os.makedirs(staging, 0o755)
    else:
        _make_writable(staging)
    order = sorted(manifest.items(), key=lambda kv: -(kv[1]["size"] or 0))  # big files first: balance
    with ThreadPoolExecutor(max_workers=workers or stage_workers()) as pool:
        done = list(pool.map(lambda kv: _stage_one(source_dir, staging, kv[0], kv[1], copy), order))
    missing = [d["file"] for d in done if d.get("error")]
    if missing:
        raise WeightsError("%s: %d file(s) of the manifest are missing (%s): %s. Nothing was published."
                           % (p["name"], len(missing), done[0].get("error") if len(missing) == 1 else "see files",
                              ", ".join(sorted(missing))), files=sorted(missing))
    problems = []
    for d in done:
        entry = manifest[d["file"]]
        result["bytes_copied"] += d["copied"]
        result["files_copied"] += 1 if d["copied"] else 0
        result["files_resumed"] += 1 if d["resumed"] else 0
        if entry["size"] is not None and d["size"] != entry["size"]:
            problems.append({"file": d["file"], "problem": "size", "expected": entry["size"], "actual": d["size"]})
        elif d["sha256"] != entry["sha256"]:
            problems.append({"file": d["file"], "problem": "sha256", "expected": entry["sha256"],
                             "actual": d["sha256"]})
    result["files_verified"] = len(done)
    if problems:
        for prob in problems:  # a bad staged file is re-fetched next run, never kept
            try:
                os.unlink(os.path.join(staging, prob["file"]))
            except OSError:
                pass
        raise WeightsError(describe(problems, p["name"]) + ". Nothing was published; the bad staged file(s) "
                           "were removed so the next run fetches them again.",
                           files=[x["file"] for x in problems])
    _drop_unlisted(staging, manifest)  # only verified files are published (no hub .cache, no extras)
    with open(os.path.join(staging, MANIFEST_NAME), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())  # a published model whose manifest is empty after a crash looks foreign
    for leftover in list_parts(staging):
        os.unlink(leftover)
    _make_read_only(staging)
    if not copy:  # files put here by someone else (hub, controller copy): make their data durable
        for d in done:
            _fsync_path(os.path.join(staging, d["file"]))
    # the data of files we copied is on disk already (fdatasync per file, before its .part rename);
    # their names are entries of these directories
    for base, _dirs, _files in os.walk(staging, topdown=False):
        _fsync_path(base)
    os.rename(staging, p["path"])
    _fsync_path(models_root)
    _fsync_path(os.path.dirname(staging))
    result["seconds"] = round(time.time() - t0, 3)
    return result


def _fsync_path(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _drop_unlisted(staging, manifest):
    for base, dirs, files in os.walk(staging, topdown=False):
        for name in files:
            full = os.path.join(base, name)
            if os.path.relpath(full, staging) not in manifest:
                os.unlink(full)
        for name in dirs:
            full = os.path.join(base, name)
            if not os.listdir(full):
                os.rmdir(full)


def list_parts(directory):
    out = []
    for base, _dirs, files in os.walk(directory):
        out.extend(os.path.join(base, f) for f in files if f.endswith(PART_SUFFIX))
    return out


def verify_in_place(path, manifest, workers=None):
    """A model already on the host (not managed by us): verify only, never modify."""
    if not os.path.isdir(path):
        raise WeightsError("model path %s does not exist on this host" % path)
    problems = verify_dir(path, manifest, workers)
    if problems:
        raise WeightsError(describe(problems, path), files=[x["file"] for x in problems])
    return {"changed": False, "path": path, "files_verified": len(normalize_manifest(manifest))}


def recorded_manifest(path):
    """The manifest a published copy records (MANIFEST_NAME), or None when it has none."""
    try:
        with open(os.path.join(path, MANIFEST_NAME)) as f:
            return normalize_manifest(json.load(f))
    except (IOError, OSError, ValueError, WeightsError):
        return None


def check_published(paths, deep=True, workers=None, missing_ok=False):
    """Check published copies against the manifests they record: names and sizes always, and with deep
    the full sha256 of every file (all files of all paths hashed in one parallel pool).

    A published model is read-only and never changed in place, but the disk under it can still change
    (a flipped bit, a hand edit, a restore gone wrong): this is what a restart that loads it checks first.
    Returns {paths: {path: {published, files, bytes}}, files_checked, bytes_checked, seconds, deep,
    problems: [{path, file, problem, expected, actual}]}. A path without a recorded manifest is a problem
    unless missing_ok (then it is reported with published false: not ours to check)."""
    t0 = time.time()
    out = {"paths": {}, "files_checked": 0, "bytes_checked": 0, "deep": bool(deep), "problems": []}
    to_hash = []
    for path in paths:
        recorded = recorded_manifest(path) if os.path.isdir(path) else None
        if recorded is None:
            out["paths"][path] = {"published": False, "files": 0, "bytes": 0}
            if not missing_ok:
                out["problems"].append({"path": path, "file": MANIFEST_NAME, "problem": "missing",
                                        "expected": None, "actual": None})
            continue
        info = out["paths"][path] = {"published": True, "files": len(recorded), "bytes": 0}
        for rel, entry in sorted(recorded.items()):
            full = os.path.join(path, rel)
            if not os.path.isfile(full):
                out["problems"].append({"path": path, "file": rel, "problem": "missing",
                                        "expected": entry["sha256"], "actual": None})
                continue
            size = os.path.getsize(full)
            info["bytes"] += size
            if entry["size"] is not None and size != entry["size"]:
                out["problems"].append({"path": path, "file": rel, "problem": "size", "expected": entry["size"],
                                        "actual": size})
                continue
            to_hash.append((path, rel, entry["sha256"], size))
    out["files_checked"] = sum(i["files"] for i in out["paths"].values())
    out["bytes_checked"] = sum(i["bytes"] for i in out["paths"].values())
    if deep and to_hash:
        big_first = sorted(to_hash, key=lambda t: -t[3])  # balance the pool: the big files start first
        digests = hash_files([os.path.join(p, r) for p, r, _d, _s in big_first], workers)
        for path, rel, want, _size in big_first:
            got = digests[os.path.join(path, rel)]
            if got != want:
                out["problems"].append({"path": path, "file": rel, "problem": "sha256", "expected": want,
                                        "actual": got})
    out["seconds"] = round(time.time() - t0, 3)
    return out


def describe_published(checked):
    """One message for check_published's problems: each file by its full path, with both hashes."""
    lines = []
    for p in checked["problems"]:
        full = os.path.join(p["path"], p["file"])
        if p["file"] == MANIFEST_NAME and p["problem"] == "missing":
            lines.append("%s: no %s (not a copy published by the weights role)" % (p["path"], MANIFEST_NAME))
        elif p["problem"] == "missing":
            lines.append("%s: missing" % full)
        elif p["problem"] == "size":
            lines.append("%s: size %s, its manifest says %s" % (full, p["actual"], p["expected"]))
        else:
            lines.append("%s: sha256 %s, its manifest says %s" % (full, p["actual"], p["expected"]))
    return "%d published file(s) do not match their manifest: %s" % (len(lines), "; ".join(lines))


def restage(models_root, repo, commit, workers=None, check_mode=False):
    """Take a damaged published copy back into staging, so the next stage re-fetches and re-verifies it.

    The published copy of repo@commit is hashed in full against the manifest it recorded. A copy that
    matches is left alone (restaged false). A copy that does not is made writable, its bad files are
    removed, its recorded manifest too, and the directory is renamed back to its staging name (an older
    staging leftover of the same model is removed first): the good files are kept and hashed again by the
    stage that follows, the bad ones fetched again from the source. Nothing is published by this call; a
    running server keeps the files it has open (a rename and an unlink do not touch open files).
    Returns {restaged, path, staging, problems}."""
    name = model_dirname(repo, commit)
    final = os.path.join(models_root, name)
    staging = os.path.join(models_root, STAGING_DIR, name)
    out = {"restaged": False, "path": final, "staging": staging, "problems": []}
    if not os.path.isdir(final):
        return out
    if recorded_manifest(final) is None:
        raise WeightsError("%s has no readable %s: not a copy published by this role, so it is not re-staged. "
                           "Remove it by hand if it is stale." % (final, MANIFEST_NAME))
    checked = check_published([final], deep=True, workers=workers)
    out["problems"] = checked["problems"]
    if not checked["problems"] or check_mode:
        out["restaged"] = bool(checked["problems"])
        return out
    _make_writable(final)
    for prob in checked["problems"]:
        if prob["file"] != MANIFEST_NAME and os.path.isfile(os.path.join(final, prob["file"])):
            os.unlink(os.path.join(final, prob["file"]))
    if os.path.exists(os.path.join(final, MANIFEST_NAME)):
        os.unlink(os.path.join(final, MANIFEST_NAME))
    if os.path.isdir(staging):
        _make_writable(staging)
        shutil.rmtree(staging)
    if not os.path.isdir(os.path.dirname(staging)):
        os.makedirs(os.path.dirname(staging), 0o755)
    os.rename(final, staging)
    _fsync_path(models_root)
    _fsync_path(os.path.dirname(staging))
    out["restaged"] = True
    return out


# ---- drafter <-> target ----------------------------------------------------------------------
def check_draft_against_target(target_config, draft_config, sglang_version="0.5.23", env=None):
    """Problems [{code, message}] for a DFLASH drafter config.json against its target's.

    The rules are the flags engine's (sglang_engine.check_draft_config): one engine for the controller
    preflight, the host validation and this post-stage check. Only errors are problems; `env` matters
    for the context-length rule (SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN).
    """
    result = engine.Result()
    engine.version_rules(sglang_version, result)
    if result.errors:
        return [{"code": e["code"], "message": e["message"]} for e in result.errors]
    engine.check_draft_config(draft_config, target_config, sglang_version, {}, env or {}, result)
    return [{"code": e["code"], "message": e["message"]} for e in result.errors]


def read_config(path):
    cfg = os.path.join(path, "config.json") if os.path.isdir(path) else path
    try:
        with open(cfg) as f:
            config = json.load(f)
    except (IOError, OSError) as e:
        raise WeightsError("cannot read %s: %s" % (cfg, e))
    except ValueError as e:
        raise WeightsError("%s is not valid JSON: %s" % (cfg, e))
    if not isinstance(config, dict):
        raise WeightsError("%s is not a model config: a JSON object was expected, got %s"
                           % (cfg, "null" if config is None else type(config).__name__))
    return config
