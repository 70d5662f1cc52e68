"""Hugging Face hub source for the weights role (runs on the host with the tool venv's python,
which has huggingface_hub). Prints one JSON object on stdout.

  resolve  --repo R --revision REV         -> {"commit", "files": {path: {"sha256"|"git_sha1", "size"}}}
  download --repo R --commit C --dest DIR  -> {"commit", "manifest": {path: {"sha256", "size"}}, "bytes"}

Online, revision -> commit and the per-file metadata come from HfApi.model_info(files_metadata=True):
LFS files carry their sha256; small (non-LFS) files carry a git blob sha1, which `download` checks and
then turns into a sha256 so the whole model gets one sha256 manifest. The download itself is
huggingface_hub's snapshot_download(local_dir=DIR), which resumes interrupted files on its own.
Offline (HF_HUB_OFFLINE=1) both commands read huggingface_hub's cache instead: refs/<revision> gives
the commit, and each blob's file name is its sha256 (LFS) or git sha1 (regular file).
The token is read from --token-file (0600, written by the role) and never printed.
The sha256 of a file is the collection's one (plugins/module_utils/digest.py, standard library only), loaded
by its path: beside this script on a host (the role copies both there), else at its place in the collection
(the role runs this script from its files/ on the controller).
"""
import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys

HEX64 = re.compile(r"^[0-9a-f]{64}$")
HEX40 = re.compile(r"^[0-9a-f]{40}$")


def git_blob_sha1(path):
    h = hashlib.sha1()
    h.update(b"blob %d\0" % os.path.getsize(path))
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _digest():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "digest.py"),
                 os.path.join(here, os.pardir, os.pardir, os.pardir, "plugins", "module_utils", "digest.py")):
        if os.path.isfile(path):
            spec = importlib.util.spec_from_file_location("specdeploy_digest", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    raise SystemExit("hf_fetch.py: digest.py (the collection's plugins/module_utils/digest.py) is neither beside "
                     "this script nor in its collection: copy both, as the weights role does")


def token_from(args):
    if args.token_file:
        with open(args.token_file) as f:
            return f.read().strip() or None
    return None


def offline():
    return os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on")


def cached_snapshot(args, revision):
    from huggingface_hub import snapshot_download
    return snapshot_download(args.repo, revision=revision, cache_dir=args.cache_dir, local_files_only=True)


def files_from_snapshot(snap):
    files = {}
    for base, dirs, names in os.walk(snap):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            full = os.path.join(base, name)
            rel = os.path.relpath(full, snap)
            blob = os.path.basename(os.path.realpath(full))
            entry = {"size": os.path.getsize(full)}
            if HEX64.match(blob):
                entry["sha256"] = blob
            elif HEX40.match(blob):
                entry["git_sha1"] = blob
            files[rel] = entry
    return files


def resolve(args):
    if offline():
        snap = cached_snapshot(args, args.revision)
        return {"commit": os.path.basename(snap), "files": files_from_snapshot(snap), "offline": True}
    from huggingface_hub import HfApi
    info = HfApi(endpoint=args.endpoint or None).model_info(
        args.repo, revision=args.revision, files_metadata=True, token=token_from(args))
    files = {}
    for s in info.siblings or []:
        entry = {"size": s.size}
        if s.lfs is not None:
            entry["sha256"] = s.lfs.sha256
            entry["size"] = s.lfs.size
        elif s.blob_id:
            entry["git_sha1"] = s.blob_id
        files[s.rfilename] = entry
    return {"commit": info.sha, "files": files, "offline": False}


def download(args):
    meta = resolve(argparse.Namespace(**dict(vars(args), revision=args.commit)))
    if meta["commit"] != args.commit:
        raise SystemExit("hub answered commit %s for pinned commit %s" % (meta["commit"], args.commit))
    os.makedirs(args.dest, exist_ok=True)
    if offline():
        snap = cached_snapshot(args, args.commit)
        for rel in meta["files"]:
            dst = os.path.join(args.dest, rel)
            if os.path.isfile(dst) and os.path.getsize(dst) == meta["files"][rel]["size"]:
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(snap, rel), dst)
    else:
        from huggingface_hub import snapshot_download
        snapshot_download(args.repo, revision=args.commit, local_dir=args.dest, token=token_from(args),
                          endpoint=args.endpoint or None, max_workers=args.workers)
    manifest, problems, total = {}, [], 0
    for rel, entry in sorted(meta["files"].items()):
        full = os.path.join(args.dest, rel)
        if not os.path.isfile(full):
            problems.append("%s: missing after download" % rel)
            continue
        total += os.path.getsize(full)
        if "sha256" in entry:
            manifest[rel] = {"sha256": entry["sha256"], "size": entry["size"]}
        elif "git_sha1" in entry:
            got = git_blob_sha1(full)
            if got != entry["git_sha1"]:
                problems.append("%s: git blob sha1 %s, hub says %s" % (rel, got, entry["git_sha1"]))
                continue
            manifest[rel] = {"sha256": _digest().sha256_file(full), "size": os.path.getsize(full)}
        else:
            problems.append("%s: the hub gave no checksum" % rel)
    if problems:
        raise SystemExit("download of %s@%s does not match the hub's metadata: %s"
                         % (args.repo, args.commit, "; ".join(problems)))
    return {"commit": args.commit, "manifest": manifest, "bytes": total, "offline": offline()}


def main(argv=None):
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("resolve", "download"):
        sp = sub.add_parser(name)
        sp.add_argument("--repo", required=True)
        sp.add_argument("--token-file")
        sp.add_argument("--endpoint")
        sp.add_argument("--cache-dir")
        sp.add_argument("--workers", type=int, default=8)
        if name == "resolve":
            sp.add_argument("--revision", default="main")
        else:
            sp.add_argument("--commit", required=True)
            sp.add_argument("--dest", required=True)
    args = ap.parse_args(argv)
    try:
        out = resolve(args) if args.cmd == "resolve" else download(args)
    except SystemExit:
        raise
    except Exception as e:  # huggingface_hub errors: say which repo/revision and why, no traceback
        if type(e).__name__ == "RevisionNotFoundError":
            rev = getattr(args, "revision", None) or getattr(args, "commit", None)
            sys.stderr.write("hub source %s: revision %s does not exist on the hub at %s (RevisionNotFoundError); "
                             "pin a commit the repo has\n" % (args.repo, rev, args.endpoint or "huggingface.co"))
            raise SystemExit(2)
        sys.stderr.write("hub source %s (%s) failed: %s: %s\n" % (
            args.repo, getattr(args, "revision", None) or getattr(args, "commit", None), type(e).__name__,
            str(e).splitlines()[0] if str(e) else ""))
        raise SystemExit(2)
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
