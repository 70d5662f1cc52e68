# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gpu_env role's rules in one place: the env key of a lock, what a lock declares, and whether a
host is ready for it (glibc, Python with venv, disk, driver, what flashinfer's JIT needs).

stdlib only, no Ansible import. The filters env_key and lock_info and the module gpu_env_host are thin
wrappers; docs/gpu-env-host.md says where each figure and rule comes from.
"""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import os
import re
import shutil
import subprocess

from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu, lockfile
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import sha256_text

# ---- the env key -------------------------------------------------------------------------------
LAB_SHIM_MARK = "\n# +specdeploy-lab-shim"


def env_key(lock_text, lab_shim=False):
    """sha256 hex of the lock's text (as Ansible's file lookup reads it: trailing whitespace stripped),
    plus a marker when the LAB-ONLY shim is added (that venv differs). The env's directory is
    <gpu_env_root>/<first 20 hex>; deploy.yml's fast path keys on the same value."""
    text = str(lock_text).rstrip() if lock_text is not None else ""
    if lab_shim:
        text += LAB_SHIM_MARK
    return sha256_text(text)


# ---- what a lock declares ----------------------------------------------------------------------
# The lock header (docs/locks.md): its one definition is module_utils/lockfile.py.
HEADER_PREFIX, HEADER_KEYS = lockfile.HEADER_PREFIX, lockfile.HEADER_KEYS
FLASHINFER = ("flashinfer-python",)


normalize = lockfile.normalize


def parse_header(text):
    """{key: value} of the lock's header lines (lockfile.read_header): a key a lock does not declare
    is absent (not declared: no check, a note)."""
    return lockfile.read_header(text)


def lock_info(text, cuda_version="", min_driver_version=""):
    """What the role needs from a lock: its header, its pinned packages {name: version}, whether it
    holds flashinfer (whose wheel ships no kernels: it JIT-compiles them at first start), and the driver
    rule (driver_rule(), given gpu_env_cuda_version and gpu_env_min_driver_version)."""
    # the lock's pins, read by the lock format's one parser (a line that is not a pin is refused)
    try:
        packages = {r["name"]: r["version"] for r in lockfile.parse_requirements(str(text or ""))}
    except lockfile.LockError as exc:
        raise ValueError("the lock is not a hash-pinned requirements file: %s (docs/locks.md)" % exc)
    header = parse_header(text)
    return {"header": header, "packages": packages,
            "flashinfer": any(name in packages for name in FLASHINFER),
            "undeclared": [k for k in HEADER_KEYS if k not in header],
            "driver": driver_rule(header, cuda_version, min_driver_version)}


def _none(value):
    return value is None or str(value).strip().lower() in ("", "none")


_VERSION = re.compile(r"^\d+(\.\d+)*$")
_PYTHONS = re.compile(r"^\s*\d+\.\d+\s*(,\s*\d+\.\d+\s*)*$")


def lock_problems(lock):
    """[message] of a lock_info mapping that is not one: header and packages mappings, driver a mapping,
    the header's versions dotted numbers (glibc_min, driver_min, cuda), python a list such as '3.10,3.11',
    download_bytes a number of bytes. Unset ('' or none) is fine: it is reported as undeclared."""
    if not isinstance(lock, dict) or not isinstance(lock.get("header"), dict) or not isinstance(
            lock.get("packages"), dict):
        return ["lock must be what the specdeploy.sglang.lock_info filter returns (a dict with header and packages)"]
    out = []
    if lock.get("driver") is not None and not isinstance(lock["driver"], dict):
        out.append("lock.driver must be a mapping, got %s" % type(lock["driver"]).__name__)
    header = lock["header"]
    for key in ("glibc_min", "driver_min", "cuda"):
        val = header.get(key)
        if not _none(val) and not (isinstance(val, str) and _VERSION.match(val.strip())):
            out.append("the lock's %s=%r is not a version such as 2.28" % (key, val))
    val = header.get("python")
    if not _none(val) and not (isinstance(val, str) and _PYTHONS.match(val)):
        out.append("the lock's python=%r is not a list of Python versions such as 3.10,3.11" % (val,))
    val = header.get("download_bytes")
    if not _none(val) and not (isinstance(val, (str, int)) and not isinstance(val, bool) and str(val).strip().isdigit()):
        out.append("the lock's download_bytes=%r is not a number of bytes" % (val,))
    return out


def driver_rule(header, cuda_version="", min_driver_version=""):
    """One rule for the driver: the CUDA version is the lock's (`cuda`), else gpu_env_cuda_version; the
    minimum is the highest of NVIDIA's floor for that CUDA version, the lock's `driver_min` and
    gpu_env_min_driver_version. Returns {cuda, min_driver, notes}; cuda None = no driver needed."""
    notes = []
    declared = header.get("cuda")
    if declared is not None:
        cuda = None if _none(declared) else declared
        if cuda_version and cuda and cuda_version != cuda:
            notes.append("gpu_env_cuda_version %s is not used: the lock declares CUDA %s" % (cuda_version, cuda))
    else:
        cuda = cuda_version or None
        notes.append("the lock declares no CUDA version (no specdeploy-lock header): gpu_env_cuda_version %s is used"
                     % (cuda or "none"))
    floors = []
    if cuda:
        try:
            floors.append((gpu.min_driver_for_cuda(cuda), "NVIDIA's minimum for CUDA %s" % cuda))
        except ValueError:
            pass
    if not _none(header.get("driver_min")):
        floors.append((header["driver_min"], "the lock's driver_min"))
    if min_driver_version:
        floors.append((min_driver_version, "gpu_env_min_driver_version"))
    if cuda and not floors:
        raise ValueError("no driver minimum known for CUDA %s (known: %s): set gpu_env_min_driver_version"
                         % (cuda, ", ".join(sorted(gpu.CUDA_MIN_DRIVER))))
    best = max(floors, key=lambda f: gpu.version_tuple(f[0])) if floors else (None, None)
    return {"cuda": cuda, "min_driver": best[0], "min_driver_source": best[1], "notes": notes}


# ---- disk --------------------------------------------------------------------------------------
# installed size / download size, measured on the lab's SGLang 0.5.23 CPU venv (docs/gpu-env-host.md):
# 2,882,797,704 B installed (du -sb, bytecode included) from 698,285,286 B of wheels = 4.13.
INSTALL_SIZE_FACTOR = 4.2


def existing_parent(path):
    path = os.path.abspath(path)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def disk_needs(download_bytes, env_root, tmp_dir, cache_dir, factor=INSTALL_SIZE_FACTOR, reserve=0,
               offline=False, cache=True, statvfs=os.statvfs, stat=os.stat):
    """Per filesystem: what the install writes there and what is free. The venv (download x factor)
    goes to env_root's filesystem; pip keeps every downloaded wheel in its temporary directory until it
    installs them (download bytes; none from a local wheelhouse) and, unless --no-cache-dir, a copy in
    its cache. `reserve` is left free on env_root's filesystem. Returns a list of
    {path, device, need, free, what}."""
    venv_what = "the venv (%d B of wheels x %.2f)%s" % (
        download_bytes, factor, " + gpu_env_reserve_bytes %d" % reserve if reserve else "")
    parts = [(env_root, int(download_bytes * factor) + int(reserve), venv_what)]
    if not offline:
        parts.append((tmp_dir, int(download_bytes), "pip's temporary files (the downloaded wheels)"))
        if cache:
            parts.append((cache_dir, int(download_bytes), "pip's cache (a copy of each download)"))
    by_dev = {}
    for path, need, what in parts:
        where = existing_parent(path)
        dev = stat(where).st_dev
        while where != os.path.dirname(where) and stat(os.path.dirname(where)).st_dev == dev:
            where = os.path.dirname(where)  # the filesystem's mount point names it in the message
        vfs = statvfs(where)
        entry = by_dev.setdefault(dev, {"path": where, "device": dev, "need": 0,
                                        "free": vfs.f_bavail * vfs.f_frsize, "what": []})
        entry["need"] += need
        entry["what"].append("%s at %s" % (what, path))
    return list(by_dev.values())


# ---- the host ----------------------------------------------------------------------------------
PY_PROBE = ("import sys, json\n"
            "out = {'version': '%d.%d.%d' % sys.version_info[:3], 'venv': None, 'ensurepip': None}\n"
            "try:\n import venv; out['venv'] = True\nexcept Exception as e:\n out['venv'] = repr(e)\n"
            "try:\n import ensurepip; out['ensurepip'] = ensurepip.version()\n"
            "except Exception as e:\n out['ensurepip_error'] = repr(e)\n"
            "print(json.dumps(out))\n")
COMPILERS = ("c++", "g++", "clang++")


def glibc_version():
    """'2.36' or None (not glibc: musl, or unknown)."""
    try:
        value = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError, AttributeError):
        value = ""
    m = re.match(r"glibc (\d+\.\d+)", value)
    return m.group(1) if m else None


def probe_python(interpreter, run=None):
    """{version, venv, ensurepip} of an interpreter, or {error}."""
    import json
    run = run or (lambda argv: subprocess.run(argv, capture_output=True, text=True, check=False, timeout=60))
    if not os.path.exists(interpreter):
        return {"error": "%s does not exist" % interpreter}
    try:
        res = run([interpreter, "-I", "-c", PY_PROBE])
    except (OSError, subprocess.SubprocessError) as exc:
        return {"error": "%s cannot run: %s" % (interpreter, exc)}
    if res.returncode != 0:
        return {"error": "%s failed: %s" % (interpreter, (res.stderr or res.stdout).strip()[-300:])}
    try:
        return json.loads(res.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": "%s printed %r" % (interpreter, res.stdout[-200:])}


def find_compiler(which=shutil.which):
    for name in COMPILERS:
        path = which(name)
        if path:
            return path
    return None


def _gib(n):
    return "%.1f GiB" % (n / float(1 << 30))


def check_host(info, found, disks, driver):
    """(problems, notes) for the host `found` ({glibc, python: probe_python(), compiler}) against the
    lock `info` (lock_info()), with the disks (disk_needs() or None when undeclared) and the driver rule
    (driver_rule()). Each problem says what was found, what is needed and what to do."""
    header = info.get("header") or {}
    problems, notes = [], list(driver.get("notes") or [])
    undeclared = [k for k in ("glibc_min", "python", "download_bytes") if _none(header.get(k))]
    if undeclared:
        notes.append("the lock does not declare %s (no specdeploy-lock header line): not checked"
                     % ", ".join(undeclared))
    want = header.get("glibc_min")
    if not _none(want):
        have = found.get("glibc")
        if not have:
            problems.append("glibc: none found (this host's C library is not glibc, or too old to say), but the "
                            "lock's wheels are built for glibc >= %s (manylinux_%s). Use a glibc-based "
                            "distribution with glibc >= %s (Debian 12, Ubuntu 22.04, RHEL 9 or newer)."
                            % (want, want.replace(".", "_"), want))
        elif gpu.version_tuple(have) < gpu.version_tuple(want):
            problems.append("glibc %s is too old: the lock's wheels are built for glibc >= %s (manylinux_%s). "
                            "Upgrade the host's OS to one with glibc >= %s (Debian 12 has 2.36, Ubuntu 22.04 "
                            "2.35, RHEL 9 2.34), or use a lock made for an older manylinux tag."
                            % (have, want, want.replace(".", "_"), want))
    py = found.get("python") or {}
    interp = found.get("interpreter", "gpu_env_python_interpreter")
    if py.get("error"):
        problems.append("Python: %s. Set gpu_env_python_interpreter to a Python the lock supports (%s)."
                        % (py["error"], header.get("python") or "any"))
    else:
        supported = [v.strip() for v in str(header.get("python") or "").split(",") if v.strip()]
        minor = ".".join(py["version"].split(".")[:2])
        if supported and minor not in supported:
            problems.append("Python %s (%s) is not one the lock supports (%s). Install one of them and set "
                            "gpu_env_python_interpreter to it, or use a lock made for Python %s."
                            % (py["version"], interp, ", ".join(supported), minor))
        if py.get("venv") is not True or not py.get("ensurepip"):
            problems.append("Python %s (%s) cannot make a venv with pip: %s. Install its venv module (Debian/"
                            "Ubuntu: apt-get install python3-venv, or python%s-venv for that version) or point "
                            "gpu_env_python_interpreter at a Python that has it."
                            % (py["version"], interp, py.get("ensurepip_error") or py.get("venv")
                               or "no ensurepip", minor))
    for disk in disks or []:
        if disk["need"] > disk["free"]:
            problems.append("not enough disk space on %s: %s free, the install needs %s there (%s). Free space, "
                            "or move gpu_env_root (or TMPDIR for pip) to a larger filesystem."
                            % (disk["path"], _gib(disk["free"]), _gib(disk["need"]), "; ".join(disk["what"])))
    if info.get("flashinfer"):
        if found.get("compiler"):
            notes.append("flashinfer JIT-compiles its kernels at first start: host C++ compiler %s, nvcc from "
                         "the env (CUDA_HOME in the unit)" % found["compiler"])
        else:
            problems.append("no C++ compiler (looked for %s on PATH): the lock has flashinfer, whose wheel ships "
                            "no kernels; it compiles them at the server's first start with the env's nvcc, which "
                            "needs a host C++ compiler. Install one (Debian/Ubuntu: apt-get install g++; RHEL: "
                            "dnf install gcc-c++)." % ", ".join(COMPILERS))
    return problems, notes


# ---- the env's runtime environment -------------------------------------------------------------
NVCC_GLOBS = ("lib/python*/site-packages/nvidia/cu[0-9]*/bin/nvcc",
              "lib/python*/site-packages/nvidia/cuda_nvcc/bin/nvcc")
ENV_MARKER = ".specdeploy-complete"
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def find_nvcc(venv):
    for pattern in NVCC_GLOBS:
        hits = sorted(glob.glob(os.path.join(venv, pattern)))
        if hits:
            return hits[-1]
    return None


def runtime_env(venv, nvcc):
    """The unit environment that lets a JIT (flashinfer) find the env's nvcc: CUDA_HOME at its toolkit
    directory, PATH with its bin and the venv's bin (ninja) first. {} without an nvcc."""
    if not nvcc:
        return {}
    home = os.path.dirname(os.path.dirname(nvcc))
    return {"CUDA_HOME": home, "PATH": ":".join([os.path.join(home, "bin"), os.path.join(venv, "bin"), SYSTEM_PATH])}
