#!/usr/bin/python3
"""LAB-ONLY stand-in for the Hugging Face hub. Not part of the product.

Lab hosts run with --network none, so huggingface.co cannot be reached; this process, run on the lab host
itself, speaks the few hub HTTP endpoints huggingface_hub's snapshot_download / HfApi.model_info use, for
model directories under a local root (the read-only lab mount), so the weights role's hub source runs
through the real huggingface_hub client. The product's default endpoint stays huggingface.co
(weights_hf_endpoint empty); Molecule points weights_hf_endpoint at http://127.0.0.1:PORT.

Served (read from huggingface_hub 2.4.0: hf_api.py model_info / _iter_repo_tree_pages, file_download.py
get_hf_file_metadata / http_get, utils/_http.py hf_raise_for_status):
  GET  /api/models/<org>/<name>/revision/<rev>[?blobs=True]   model info: id, sha, siblings
                                                               (rfilename, size, blobId, lfs {sha256, size, pointerSize})
  GET  /api/models/<org>/<name>/tree/<rev>[?recursive=...]    [{type: file, path, size, oid, lfs {oid, size, pointerSize}}]
  HEAD/GET /<org>/<name>/resolve/<rev>/<path>                 X-Repo-Commit, ETag (git blob sha1, or sha256 for LFS),
                                                               X-Linked-Etag / X-Linked-Size (LFS), Content-Length,
                                                               Accept-Ranges; GET honours "Range: bytes=N-"
A revision other than the repo's commit or "main" answers 404 with X-Error-Code: RevisionNotFound, an
unknown repo 404 RepoNotFound, an unknown file 404 EntryNotFound (what hf_raise_for_status maps to its
errors). The commit of a repo is the sha1 of its files' names and sha256 (stable across runs).
Files whose name ends in .safetensors/.bin are served as LFS files, the rest as regular git blobs.
Each request is appended to --log when answered (one line: method path body-bytes-sent), so a test can tell
whether the hub was called and how many bytes it served; --ready-file gets "<pid> <port>" once it listens
(--port 0 picks a free port).

  hub_standin.py --root /srv/specdeploy-lab/models --repo lab/tiny-qwen3=tiny-qwen3 --port 18080 --log FILE
"""
import argparse
import hashlib
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

LFS_SUFFIXES = (".safetensors", ".bin")


def _digest(path, algo, prefix=b""):
    h = hashlib.new(algo)
    h.update(prefix)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_repo(directory):
    files = {}
    for base, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            full = os.path.join(base, name)
            rel = os.path.relpath(full, directory)
            size = os.path.getsize(full)
            entry = {"path": full, "size": size, "sha256": _digest(full, "sha256"),
                     "git_sha1": _digest(full, "sha1", b"blob %d\0" % size), "lfs": name.endswith(LFS_SUFFIXES)}
            files[rel] = entry
    commit = hashlib.sha1("".join("%s %s\n" % (k, v["sha256"]) for k, v in sorted(files.items()))
                          .encode()).hexdigest()
    return {"commit": commit, "files": files}


class Handler(BaseHTTPRequestHandler):
    repos = {}
    log_path = None
    mbps = 0
    pace_lock = threading.Lock()
    pace_next = 0.0
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet on stderr; the request log is --log
        pass

    def _log(self):
        if self.log_path:
            with open(self.log_path, "a") as f:
                f.write("%s %s %d\n" % (self.command, self.path, self.sent))

    def _send(self, code, body=b"", headers=None, head=False):
        self.send_response(code)
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        if "Content-Length" not in (headers or {}):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)
            self.sent += len(body)

    def _error(self, code, error_code, message, head=False):
        body = json.dumps({"error": message}).encode()
        self._send(code, body, {"Content-Type": "application/json", "X-Error-Code": error_code,
                                "X-Error-Message": message}, head=head)

    def _repo_rev(self, repo, rev, head=False):
        data = self.repos.get(repo)
        if data is None:
            self._error(404, "RepoNotFound", "Repository Not Found for url: %s." % self.path, head)
            return None
        if rev not in (data["commit"], "main"):
            self._error(404, "RevisionNotFound", "Invalid rev id: %s" % rev, head)
            return None
        return data

    def do_HEAD(self):
        self._route(head=True)

    def do_GET(self):
        self._route(head=False)

    def _route(self, head):
        self.sent = 0
        try:
            self._dispatch(head)
        finally:
            self._log()

    def _dispatch(self, head):
        path = unquote(urlsplit(self.path).path)
        m = re.match(r"^/api/models/([^/]+/[^/]+)/(revision|tree)/([^/]+)(?:/(.*))?$", path)
        if m:
            data = self._repo_rev(m.group(1), m.group(3), head)
            if data is not None:
                body = self._model_info(m.group(1), data) if m.group(2) == "revision" else self._tree(data)
                self._send(200, json.dumps(body).encode(), {"Content-Type": "application/json"}, head)
            return
        m = re.match(r"^/([^/]+/[^/]+)/resolve/([^/]+)/(.+)$", path)
        if m:
            data = self._repo_rev(m.group(1), m.group(2), head)
            if data is not None:
                self._resolve(data, m.group(3), head)
            return
        self._error(404, "EntryNotFound", "no such endpoint in the lab hub stand-in: %s" % path, head)

    @staticmethod
    def _lfs(entry):
        return {"sha256": entry["sha256"], "oid": entry["sha256"], "size": entry["size"], "pointerSize": 134}

    def _model_info(self, repo, data):
        siblings = []
        for rel, e in sorted(data["files"].items()):
            s = {"rfilename": rel, "size": e["size"], "blobId": e["git_sha1"]}
            if e["lfs"]:
                s["lfs"] = {"sha256": e["sha256"], "size": e["size"], "pointerSize": 134}
            siblings.append(s)
        return {"_id": repo, "id": repo, "modelId": repo, "sha": data["commit"], "private": False,
                "gated": False, "disabled": False, "tags": [], "siblings": siblings}

    def _tree(self, data):
        out = []
        for rel, e in sorted(data["files"].items()):
            t = {"type": "file", "path": rel, "size": e["size"], "oid": e["git_sha1"]}
            if e["lfs"]:
                t["lfs"] = {"oid": e["sha256"], "size": e["size"], "pointerSize": 134}
            out.append(t)
        return out

    def _resolve(self, data, rel, head):
        e = data["files"].get(rel)
        if e is None:
            self._error(404, "EntryNotFound", "Entry not found: %s" % rel, head)
            return
        etag = '"%s"' % (e["sha256"] if e["lfs"] else e["git_sha1"])
        headers = {"X-Repo-Commit": data["commit"], "ETag": etag, "Accept-Ranges": "bytes",
                   "Content-Type": "application/octet-stream"}
        if e["lfs"]:
            headers["X-Linked-Etag"] = etag
            headers["X-Linked-Size"] = e["size"]
        start = 0
        rng = re.match(r"^bytes=(\d+)-$", self.headers.get("Range", ""))
        if rng and not head:
            start = min(int(rng.group(1)), e["size"])
        headers["Content-Length"] = e["size"] - start
        code = 206 if start else 200
        if start:
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, e["size"] - 1, e["size"])
        self.send_response(code)
        for k, v in headers.items():
            self.send_header(k, str(v))
        self.end_headers()
        if head:
            return
        with open(e["path"], "rb") as f:
            f.seek(start)
            for block in iter(lambda: f.read(1 << 20), b""):
                self.wfile.write(block)
                self.sent += len(block)
                if self.mbps:  # a rate-limited hub: every connection shares --mbps (bench/weights_fleet_bench.py)
                    with Handler.pace_lock:
                        start = max(time.monotonic(), Handler.pace_next)
                        Handler.pace_next = start + len(block) / (self.mbps * 1e6)
                    time.sleep(max(0.0, start + len(block) / (self.mbps * 1e6) - time.monotonic()))


def main(argv=None):
    ap = argparse.ArgumentParser(description="LAB-ONLY Hugging Face hub stand-in (see the module docstring)")
    ap.add_argument("--root", required=True, help="directory holding the model directories")
    ap.add_argument("--repo", action="append", required=True, metavar="ORG/NAME=DIR",
                    help="serve <root>/DIR as repo ORG/NAME (repeatable)")
    ap.add_argument("--port", type=int, default=18080)
    ap.add_argument("--log", help="append one line per request to this file")
    ap.add_argument("--mbps", type=float, default=0, help="serve file bodies at most this fast in total (all connections share it), MB/s; 0: no limit")
    ap.add_argument("--ready-file", help="once listening, write '<pid> <port>' to this file")
    args = ap.parse_args(argv)
    repos = {}
    for spec in args.repo:
        name, _, sub = spec.partition("=")
        repos[name] = load_repo(os.path.join(args.root, sub or name.split("/")[1]))
        sys.stdout.write("lab hub stand-in: %s at commit %s\n" % (name, repos[name]["commit"]))
    Handler.repos = repos
    Handler.log_path = args.log
    Handler.mbps = args.mbps
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    sys.stdout.write("lab hub stand-in: listening on 127.0.0.1:%d\n" % server.server_address[1])
    sys.stdout.flush()
    if args.ready_file:
        with open(args.ready_file + ".tmp", "w") as f:
            f.write("%d %d\n" % (os.getpid(), server.server_address[1]))
        os.rename(args.ready_file + ".tmp", args.ready_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
