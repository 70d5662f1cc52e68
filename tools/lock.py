#!/usr/bin/env python3
"""The checkout's lock tool: the collection's `specdeploy lock` (bin/specdeploy_lock.py: `cuda`, `check`)
plus what only a checkout has (docs/locks.md):

    tools/lock.py cuda 0.5.23                       # roles/gpu_env/files/sglang-0.5.23-cu13.lock (shipped)
    tools/lock.py cpu 0.5.22 [--pin transformers==5.6.0 ...]   # LAB-ONLY lab/sglang-0.5.22-cpu.lock
    tools/lock.py check [LOCK ...]                  # every committed lock (make lint)
    tools/lock.py regen [--check] [LOCK ...]        # rerun each lock's generated_by, compare bytes

Paths in generated_by are relative to the checkout; uv's cache is the lab's (.lab/uv-cache).
"""
import argparse
import os
import re
import shlex
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bin"))
import specdeploy_lock as L  # noqa: E402  (the shipped lock tool)
from packaging.utils import canonicalize_name  # noqa: E402

L.PROG = "tools/lock.py"
L.REL_BASE = ROOT
L.OUT_DIR = os.path.join(ROOT, "roles", "gpu_env", "files")
L.UV_CACHE = os.environ.get("UV_CACHE_DIR", os.path.join(ROOT, ".lab", "uv-cache"))
L.INDEX_CACHE = os.path.join(os.path.dirname(L.UV_CACHE), "lock-index-cache")
LockToolError = L.LockToolError
lockfile = L.lockfile

# Where locks live: CPU locks with the lab (never shipped), CUDA locks with the gpu_env role, so an
# installed collection finds them (gpu_env_lock_file: sglang-<v>-cu13.lock, a name in the role's files/).
CPU_DIR = os.path.join(ROOT, "lab")
CUDA_DIR = L.OUT_DIR
CPU_REQS_IN = os.path.join(ROOT, "lab", "sglang-cpu-requirements.in")
CPU_PLATFORM = "x86_64-manylinux_2_34"
CPU_PYTHON = "3.11"
CPU_FIND_LINKS = "/opt/wheels"
CUDA_PLATFORM = L.CUDA_PLATFORM
DEFAULT_INDEX = L.DEFAULT_INDEX
PROG = L.PROG
log, rel, write, render, measures, collect, local_files = L.log, L.rel, L.write, L.render, L.measures, L.collect, L.local_files
uv_compile, check_stamp, default_stamp, command_line = L.uv_compile, L.check_stamp, L.default_stamp, L.command_line


def cpu_lock_path(version):
    return os.path.join(CPU_DIR, "sglang-%s-cpu.lock" % version)


def committed_locks():
    out = []
    for d, suffix in ((CPU_DIR, "-cpu.lock"), (CUDA_DIR, ".lock")):
        if os.path.isdir(d):
            out += [os.path.join(d, f) for f in sorted(os.listdir(d))
                    if f.startswith("sglang-") and f.endswith(suffix)]
    return out


L.DEFAULT_LOCKS = committed_locks


def read_reqs_in(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def req_name(req):
    m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    if not m:
        raise LockToolError("not a requirement: %r" % req)
    return canonicalize_name(m.group(1))


def cmd_cpu(args):
    version = args.version
    stamp = check_stamp(args.exclude_newer or default_stamp())
    base = read_reqs_in(CPU_REQS_IN)
    pins = {}
    for p in args.pin:
        if "==" not in p:
            raise LockToolError("--pin %r: give NAME==VERSION" % p)
        pins[req_name(p)] = p
    # The release's own versions of what the base pins exactly (transformers, xgrammar, ...): read from
    # the release's full (CUDA) resolution, which is metadata only. --pin still wins.
    log("reading sglang %s's own pins (its CUDA resolution, metadata only)" % version)
    full = uv_compile(["sglang==%s" % version], CPU_PYTHON, CUDA_PLATFORM, stamp, args.index_url)
    follow = []
    for r in base:
        name = req_name(r)
        if "==" in r and name not in pins and name != "torch" and name in full:
            pinned_here = "%s==%s" % (name, full[name][0])
            if pinned_here != r:
                follow.append(pinned_here)
            pins[name] = pinned_here
    reqs = [pins.pop(req_name(r), r) for r in base] + sorted(pins.values())
    log("resolving the CPU stack of sglang %s (Python %s, %s, exclude-newer %s)" % (version, CPU_PYTHON, CPU_PLATFORM, stamp))
    closure = uv_compile(reqs, CPU_PYTHON, CPU_PLATFORM, stamp, args.index_url, find_links=args.find_links)
    if "sglang" in closure:
        raise LockToolError("%s must not require sglang (it is added without its CUDA dependencies)" % rel(CPU_REQS_IN))
    # sglang itself without its dependencies: they pin a CUDA torch and CUDA kernels
    own = uv_compile(["sglang==%s" % version], CPU_PYTHON, CPU_PLATFORM, stamp, args.index_url, no_deps=True)
    closure.update(own)
    pinned = {n: v for n, (v, _h) in closure.items()}
    local = local_files(args.find_links)
    chosen = collect(pinned, [CPU_PYTHON], CPU_PLATFORM, stamp, args.index_url, local,
                     {n: h for n, (_v, h) in closure.items()})
    size, glibc = measures(chosen, [CPU_PYTHON])
    opts = [("--exclude-newer", stamp)] + [("--pin", p) for p in args.pin]
    if args.find_links != CPU_FIND_LINKS:
        opts.append(("--find-links", args.find_links))
    if args.index_url != DEFAULT_INDEX:
        opts.append(("--index-url", args.index_url))
    out = args.out or cpu_lock_path(version)
    if args.out:
        opts.append(("--out", rel(out)))
    out = args.write_to or out
    header = {"sglang": version, "flavor": "cpu", "python": CPU_PYTHON, "platform": CPU_PLATFORM,
              "glibc_min": glibc, "cuda": "none", "driver_min": "none", "download_bytes": size,
              "exclude_newer": stamp, "generated_by": command_line("cpu", version, opts)}
    intro = ["LAB-ONLY: the SGLang %s stack that runs on CPU (Linux x86_64, CPython %s), one wheel per pin with its"
             % (version, CPU_PYTHON),
             "sha256. Install with pip's --no-deps --require-hashes: sglang pins a CUDA torch, so it is added without",
             "its dependencies, and torch is the local 2.13.0+cpu build. Never for a GPU host (docs/locks.md)."]
    if follow or args.pin:
        intro.append("Pins of this release over %s: %s" % (rel(CPU_REQS_IN), " ".join(follow + args.pin)))
    write(out, render(header, intro, pinned, chosen))
    return 0


def cmd_regen(args):
    paths = args.locks or committed_locks()
    differ = 0
    for path in paths:
        header = lockfile.parse_header(open(path, encoding="utf-8").read())
        argv = shlex.split(header["generated_by"])
        if argv[:1] != [PROG]:
            raise LockToolError("%s: generated_by is not a %s command" % (rel(path), PROG))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, os.path.basename(path))
            rc = main(argv[1:] + ["--write-to", out])
            if rc:
                return rc
            same = open(out, "rb").read() == open(path, "rb").read()
            if not same and not args.check:
                os.replace(out, path)
        print("%s: %s" % (rel(path), "identical" if same else ("DIFFERS" if args.check else "rewritten")))
        differ += not same
    return 1 if differ and args.check else 0



def extra(sub, common):
    c = sub.add_parser("cpu", parents=[common], help="LAB-ONLY CPU lock (local torch 2.13.0+cpu)")
    c.add_argument("--pin", action="append", default=[], metavar="NAME==VERSION",
                   help="this release's own pin (replaces the base requirement of that name)")
    c.add_argument("--find-links", default=CPU_FIND_LINKS, help="folder with the local CPU torch wheel")
    r = sub.add_parser("regen", help="rerun each lock's generated_by and compare")
    r.add_argument("--check", action="store_true", help="only compare, exit 1 on a difference")
    r.add_argument("locks", nargs="*")
    return {"cpu": cmd_cpu, "regen": cmd_regen}


def main(argv=None):
    return L.main(argv, extra=extra, description=__doc__.split("\n\n", maxsplit=1)[0])


if __name__ == "__main__":
    sys.exit(main())
