#!/usr/bin/env python3
"""The built collection stands on its own: nothing in the tarball points outside it.

Builds the collection with `ansible-galaxy collection build` (what ships), unpacks the tarball and
searches every text file for references to files outside the collection:
  ../shared             a path into the repository's neighbourhood, absent where the tarball lands
  sglang.md section     a section number of a reference document the collection does not carry
                        (its own facts are in docs/sglang.md, referred to by section title)
  <this checkout>       an absolute path of the machine that built it (and its resolved form)

    tools/check_artifact.py            exit 1 listing `file:line: text` for every hit (make lint)
    tools/check_artifact.py --keep D   also leave the tarball and the unpacked tree in D
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def patterns():
    pats = ["../shared", "sglang.md section"]
    for path in (ROOT, os.path.realpath(ROOT)):
        if path not in pats:
            pats.append(path)
    return pats


def build(out):
    # the ansible-galaxy of this Python's venv first (make runs it as .venv/bin/python), else PATH's
    galaxy = os.path.join(os.path.dirname(sys.executable), "ansible-galaxy")
    if not os.access(galaxy, os.X_OK):
        galaxy = shutil.which("ansible-galaxy") or "ansible-galaxy"
    proc = subprocess.run([galaxy, "collection", "build", "--force", "--output-path", out, ROOT],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit("ansible-galaxy collection build failed:\n" + proc.stdout + proc.stderr)
    tarballs = glob.glob(os.path.join(out, "*.tar.gz"))
    if len(tarballs) != 1:
        sys.exit("expected one tarball in %s, found %s" % (out, tarballs))
    return tarballs[0]


def scan(tree, pats):
    hits = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8") as fh:
                    lines = fh.read().splitlines()
            except (UnicodeDecodeError, OSError):
                continue  # binary files carry no references
            rel = os.path.relpath(path, tree)
            for num, line in enumerate(lines, 1):
                for pat in pats:
                    if pat.lower() in line.lower():
                        hits.append("%s:%d: [%s] %s" % (rel, num, pat, line.strip()))
    return hits


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", metavar="DIR", help="build and unpack into DIR and leave both there")
    args = ap.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="specdeploy-artifact-")
    os.makedirs(work, exist_ok=True)
    try:
        tarball = build(work)
        tree = os.path.join(work, "unpacked")
        shutil.rmtree(tree, ignore_errors=True)
        with tarfile.open(tarball) as tar:
            tar.extractall(tree, filter="data")
        pats = patterns()
        hits = scan(tree, pats)
        count = sum(len(files) for _, _, files in os.walk(tree))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if hits:
        print("%s: %d reference(s) to files outside the collection:" % (os.path.basename(tarball), len(hits)))
        print("\n".join("  " + h for h in hits))
        return 1
    print("%s: %d files, none refers to %s" % (os.path.basename(tarball), count,
                                               ", ".join(repr(p) for p in pats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
