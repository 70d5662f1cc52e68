# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The specdeploy lock format (docs/locks.md is its one definition): header and body, parsed and checked.

A lock is a pip requirements file that starts with ``# specdeploy-lock: KEY=VALUE`` lines, then
one ``name==version`` requirement per package, each followed by ``--hash=sha256:`` options. The
header says what the lock needs from a host (Python, glibc, CUDA, driver, disk) so the gpu_env role
can refuse a host before it installs anything.

stdlib only, no imports from the collection: the lock tool (bin/specdeploy_lock.py) loads this file by path, the gpu_env
role (through a module) and the unit tests import it by its Ansible name.
"""
from __future__ import annotations

import re

HEADER_PREFIX = "# specdeploy-lock: "
# Every key, in the order a lock writes them. All are required.
HEADER_KEYS = ("sglang", "flavor", "python", "platform", "glibc_min", "cuda", "driver_min",
               "download_bytes", "exclude_newer", "generated_by")
# Keys a lock may add after those. tree_verify: the tree-verify flavors (docs/sglang.md, DDTree) of the
# SGLang build the lock installs, as the lock tool found them in that build's wheel (comma list); a lock
# without it installs an SGLang without tree verification (every release so far).
OPTIONAL_KEYS = ("tree_verify",)
_FLAVOR_LIST = re.compile(r"^[a-z0-9][a-z0-9.-]*(,[a-z0-9][a-z0-9.-]*)*$")
FLAVORS = ("cu13", "cpu")
# What a CUDA lock must bring (names as PEP 503 normalizes them); nvidia-*-cu13 is checked apart.
CUDA_CORE = ("torch", "sglang-kernel", "flashinfer-python")

_VERSION = re.compile(r"^\d+(\.\d+)*([a-z0-9.+-]*)$")
_PY = re.compile(r"^3\.\d+$")
_DOTTED = re.compile(r"^\d+(\.\d+)+$")
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
_REQ = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(==|===|>=|<=|~=|!=|>|<)?\s*([^\s;\\]*)")
_HASH = re.compile(r"--hash[= ]sha256:([0-9a-f]{64})\b")
# Under each requirement, the file each target Python installs: "    # 3.11,3.12: name-1.0-py3-none-any.whl".
_FILE = re.compile(r"^\s+# (3\.\d+(?:,3\.\d+)*): (\S+)$")


class LockError(ValueError):
    """The lock cannot be read (bad header, a line that is not a requirement)."""


def normalize(name):
    """PEP 503 name: lower case, runs of ``-_.`` as one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def format_header(values):
    """The header lines (no trailing newline) for a dict holding every key of HEADER_KEYS."""
    missing = [k for k in HEADER_KEYS if k not in values]
    if missing:
        raise LockError("header values missing: %s" % ", ".join(missing))
    lines = []
    for key in HEADER_KEYS:
        value = str(values[key])
        if "\n" in value:
            raise LockError("header value of %s spans lines" % key)
        lines.append("%s%s=%s" % (HEADER_PREFIX, key, value))
    for key in OPTIONAL_KEYS:
        if values.get(key):
            lines.append("%s%s=%s" % (HEADER_PREFIX, key, values[key]))
    return "\n".join(lines)


def _header_lines(text):
    """(line number, line, key, sep, value) of every header line of a lock."""
    for number, line in enumerate(str(text or "").splitlines(), 1):
        if line.startswith(HEADER_PREFIX.rstrip()):
            key, sep, value = line[len(HEADER_PREFIX.rstrip()):].partition("=")
            yield number, line, key.strip(), sep, value.strip()


def read_header(text):
    """{key: value} (strings, as written) of the header lines a lock has, unchecked: what a host check
    reads, where a key a lock does not declare is absent (not declared: no check, a note)."""
    return {key: value for _n, _l, key, sep, value in _header_lines(text) if sep and key}


def parse_header(text):
    """The header of a lock as a dict of strings (python as a list), checked.

    Raises LockError naming the first problem: a key missing, repeated or unknown, a value in the
    wrong form (e.g. glibc_min "2.34", download_bytes an integer, cuda/driver_min "none" for cpu).
    """
    values = {}
    for number, line, key, sep, value in _header_lines(text):
        if not sep:
            raise LockError("line %d: header line without KEY=VALUE: %s" % (number, line))
        if key not in HEADER_KEYS + OPTIONAL_KEYS:
            known = ", ".join(HEADER_KEYS + OPTIONAL_KEYS)
            raise LockError("line %d: unknown header key %r (known: %s)" % (number, key, known))
        if key in values:
            raise LockError("line %d: header key %r given twice" % (number, key))
        values[key] = value
    missing = [k for k in HEADER_KEYS if k not in values]
    if missing:
        raise LockError("header keys missing: %s (every lock starts with '%sKEY=VALUE' lines; docs/locks.md)"
                        % (", ".join(missing), HEADER_PREFIX))
    _check_header(values)
    out = dict(values)
    out["python"] = values["python"].split(",")
    out["download_bytes"] = int(values["download_bytes"])
    out["tree_verify"] = values["tree_verify"].split(",") if values.get("tree_verify") else []
    return out


def _check_header(v):
    def bad(key, want):
        raise LockError("header %s=%r: expected %s" % (key, v[key], want))
    if not _VERSION.match(v["sglang"]):
        bad("sglang", "a version such as 0.5.23")
    if v["flavor"] not in FLAVORS:
        bad("flavor", " or ".join(FLAVORS))
    if not v["python"] or not all(_PY.match(p) for p in v["python"].split(",")):
        bad("python", "a comma list of Python versions such as 3.11,3.12")
    if not re.match(r"^[a-z0-9_]+-[a-z0-9_]+$", v["platform"]):
        bad("platform", "ARCH-TAG such as x86_64-manylinux_2_34")
    if not _DOTTED.match(v["glibc_min"]):
        bad("glibc_min", "a glibc version such as 2.34")
    if v["flavor"] == "cpu":
        for key in ("cuda", "driver_min"):
            if v[key] != "none":
                bad(key, "none in a cpu lock")
    else:
        if not _DOTTED.match(v["cuda"]):
            bad("cuda", "a CUDA version such as 13.0")
        if not _DOTTED.match(v["driver_min"]):
            bad("driver_min", "a driver version such as 580.65.06")
    if not v["download_bytes"].isdigit():
        bad("download_bytes", "an integer number of bytes")
    if not _STAMP.match(v["exclude_newer"]):
        bad("exclude_newer", "a UTC timestamp such as 2026-12-01T00:00:00Z")
    if not v["generated_by"]:
        bad("generated_by", "the command line that wrote the lock")
    if "tree_verify" in v and not _FLAVOR_LIST.match(v["tree_verify"]):
        bad("tree_verify", "a comma list of tree-verify flavors such as sglang-pr29907")


def parse_requirements(text):
    """Every requirement of the lock: a list of dicts {name, version, op, hashes, files, line}.

    ``files`` maps each target Python to the file name the lock says it installs (the comment lines
    under the requirement).

    Continuation lines are joined; comments and blank lines skipped. A line that is not a
    requirement (an option such as --index-url, or garbage) raises LockError: a lock holds pins only.
    """
    out = []
    joined, start = "", 0
    lines = text.splitlines()
    for number, raw in enumerate(lines + [""], 1):
        fm = _FILE.match(raw)
        if fm and out and not joined:
            for py in fm.group(1).split(","):
                out[-1]["files"][py] = fm.group(2)
            continue
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not joined:
            start = number
        if line.endswith("\\"):
            joined += line[:-1] + " "
            continue
        joined += line
        entry, joined = joined.strip(), ""
        if not entry:
            continue
        m = _REQ.match(entry)
        if not m or entry.startswith("-"):
            raise LockError("line %d: not a requirement: %s" % (start, entry[:80]))
        rest = entry[m.end():]
        leftover = _HASH.sub("", rest).strip()
        if leftover and not leftover.startswith(";"):
            raise LockError("line %d: unexpected text after %s: %s" % (start, m.group(1), leftover[:60]))
        out.append({"name": normalize(m.group(1)), "version": m.group(4) or "", "op": m.group(3) or "",
                    "hashes": _HASH.findall(rest), "files": {}, "line": start})
    return out


def check_lock(text):
    """Problems of a lock as a list of strings (empty: the lock is good).

    Every lock: a complete header, every requirement pinned with == to one version and hashed,
    with one hash per file named under it and a file named for every Python of the header (so a
    removed hash is seen without the index), no package twice, sglang pinned to the header's version. A cu13 lock also: torch, sglang-kernel,
    flashinfer-python and at least one nvidia-*-cu13 package present, no CPU-only build
    (a ``+cpu`` local version). A cpu lock: no nvidia-* package.
    """
    problems = []
    try:
        header = parse_header(text)
    except LockError as e:
        problems.append(str(e))
        header = None
    try:
        reqs = parse_requirements(text)
    except LockError as e:
        return problems + [str(e)]
    seen = {}
    for r in reqs:
        where = "line %d: %s" % (r["line"], r["name"])
        if r["op"] != "==" or not r["version"] or "*" in r["version"]:
            problems.append("%s is not pinned with == to one version" % where)
        if not r["hashes"]:
            problems.append("%s has no --hash=sha256:" % where)
        if header and r["hashes"]:
            missing = [py for py in header["python"] if py not in r["files"]]
            if missing:
                problems.append("%s names no file for Python %s" % (where, ",".join(missing)))
            files = set(r["files"].values())
            if len(r["hashes"]) != len(files) or len(set(r["hashes"])) != len(r["hashes"]):
                problems.append("%s has %d hash(es) for %d file(s): one --hash per file named under it"
                                % (where, len(r["hashes"]), len(files)))
        if r["name"] in seen:
            problems.append("%s is listed twice (also line %d)" % (where, seen[r["name"]]))
        seen.setdefault(r["name"], r["line"])
    if not reqs:
        problems.append("no requirements")
    pins = {r["name"]: r["version"] for r in reqs}
    if header:
        if pins.get("sglang") != header["sglang"]:
            problems.append("header sglang=%s but the lock pins sglang==%s"
                            % (header["sglang"], pins.get("sglang", "(nothing)")))
        if header["flavor"] == "cu13":
            for name in CUDA_CORE:
                if name not in pins:
                    problems.append("a cu13 lock must contain %s" % name)
            if not any(n.startswith("nvidia-") and n.endswith("-cu13") for n in pins):
                problems.append("a cu13 lock must contain the nvidia-*-cu13 CUDA packages")
            for name, version in sorted(pins.items()):
                if "+cpu" in version:
                    problems.append("%s==%s is a CPU-only build: not in a cu13 lock" % (name, version))
        else:
            for name in sorted(pins):
                if name.startswith("nvidia-"):
                    problems.append("%s is a CUDA package: not in a cpu lock" % name)
    return problems
