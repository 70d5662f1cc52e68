# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""NVIDIA GPU facts from nvidia-smi, and the requirement checks the gpu_env role runs on them.

stdlib only, no Ansible import: the module gpu_facts is a thin wrapper, and tests/unit feeds captured
nvidia-smi outputs straight into these functions.

Sources read on a host (all optional; a host without any of them is "no GPU", not an error):
- ``nvidia-smi --query-gpu=<QUERY_FIELDS> --format=csv``: per GPU facts, parsed by header name so a
  capture with more columns (or another order) parses the same;
- ``nvidia-smi`` (the default table): driver and CUDA versions (the header also exists on drivers
  whose ``--version`` lacks the CUDA line, and on R610+, which renames it "CUDA UMD Version"); its GPU
  rows are the fallback when the CSV query fails (names are truncated there, compute capability is
  then inferred from the name);
- ``/proc/driver/nvidia/version`` (or ``modinfo nvidia``): which kernel module flavour is loaded.
"""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import csv
import io
import re

QUERY_FIELDS = (
    "index",
    "name",
    "uuid",
    "pci.bus_id",
    "driver_version",
    "memory.total",
    "compute_cap",
    "persistence_mode",
    "mig.mode.current",
)

# Minimum Linux driver per CUDA minor release (NVIDIA CUDA Toolkit release notes, table
# "CUDA Toolkit and Corresponding Driver Versions", GA releases); docs/sglang.md, Versions and drivers.
CUDA_MIN_DRIVER = {
    "12.8": "570.26",
    "12.9": "575.51.03",
    "13.0": "580.65.06",
    "13.1": "590.44.01",
}

# Compute capability majors that are Blackwell-class (sm_100/103 data centre, sm_110 Thor,
# sm_120/121 RTX PRO / GeForce 50 / DGX Spark).
BLACKWELL_MAJORS = (10, 11, 12)

# Fallback only (no compute_cap column): names as the default table prints them (truncated to ~26
# characters, e.g. "NVIDIA RTX PRO 6000 Blac...").
_NAME_CC = (
    (re.compile(r"RTX PRO \d{4} Blac|Blackwell|RTX 50\d0|GeForce RTX 50"), "12.0"),
    (re.compile(r"\bG?B[123]00\b"), "10.0"),
    (re.compile(r"\bH[12]00\b|\bGH200\b|\bH20\b|\bH800\b"), "9.0"),
    (re.compile(r"\bL40S?\b|\bL4\b|RTX 40\d0|RTX 6000 Ada|GeForce RTX 40"), "8.9"),
    (re.compile(r"\bA100\b|\bA30\b|\bA800\b"), "8.0"),
    (re.compile(r"\bA10G?\b|\bA40\b|RTX A\d{4}|RTX 30\d0"), "8.6"),
)

_NA = ("", "n/a", "[n/a]", "not found", "[not supported]", "not supported", "[unknown error]")


class GpuParseError(ValueError):
    """nvidia-smi printed something this parser cannot read; the message says what and where."""


def _clean(value):
    value = (value or "").strip()
    if value.lower() in _NA:
        return None
    return value


def _strip_unit(header):
    """'memory.total [MiB]' -> 'memory.total'."""
    return re.sub(r"\s*\[[^\]]*\]\s*$", "", header.strip())


def _mib(value):
    value = _clean(value)
    if value is None:
        return None
    m = re.match(r"^(\d+)\s*(MiB)?$", value)
    if not m:
        raise GpuParseError("memory.total is %r, expected a number of MiB" % value)
    return int(m.group(1))


def _onoff(value):
    value = _clean(value)
    if value is None:
        return None
    low = value.lower()
    if low in ("enabled", "on"):
        return True
    if low in ("disabled", "off"):
        return False
    return None


def _mig(value):
    value = _clean(value)
    if value is None:
        return None
    return value.capitalize()


def compute_cap_from_name(name):
    for pattern, cc in _NAME_CC:
        if pattern.search(name or ""):
            return cc
    return None


def is_blackwell(gpu):
    cc = gpu.get("compute_cap")
    if cc:
        try:
            return int(str(cc).split(".", maxsplit=1)[0]) in BLACKWELL_MAJORS
        except ValueError:
            return False
    return False


def _finish(gpu, cc_source):
    gpu["compute_cap_source"] = cc_source if gpu.get("compute_cap") else None
    gpu["blackwell"] = is_blackwell(gpu)
    return gpu


def parse_query_csv(text):
    """Rows of ``nvidia-smi --query-gpu=... --format=csv`` (with header; units or nounits)."""
    if text is None or not text.strip():
        raise GpuParseError("nvidia-smi --query-gpu printed nothing")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    first = lines[0].lower()
    if "field" in first and ("not a valid" in first or "invalid" in first):
        raise GpuParseError("nvidia-smi rejected the query: %s" % lines[0].strip())
    reader = csv.reader(io.StringIO("\n".join(lines)), skipinitialspace=True)
    rows = list(reader)
    header = [_strip_unit(h) for h in rows[0]]
    missing = [f for f in ("name", "memory.total") if f not in header]
    if missing:
        raise GpuParseError(
            "nvidia-smi --query-gpu output has no %s column (header: %s)"
            % (", ".join(missing), ", ".join(header[:6]) + (", ..." if len(header) > 6 else "")))
    gpus = []
    for lineno, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise GpuParseError(
                "nvidia-smi --query-gpu line %d has %d fields, the header has %d: %r"
                % (lineno, len(row), len(header), ",".join(row)[:120]))
        rec = dict(zip(header, row))
        index = _clean(rec.get("index"))
        gpu = {
            "index": int(index) if index is not None and index.isdigit() else lineno - 2,
            "name": _clean(rec.get("name")),
            "uuid": _clean(rec.get("uuid")),
            "pci_bus_id": _clean(rec.get("pci.bus_id")),
            "driver_version": _clean(rec.get("driver_version")),
            "memory_total_mib": _mib(rec.get("memory.total")),
            "compute_cap": _clean(rec.get("compute_cap")),
            "persistence_mode": _onoff(rec.get("persistence_mode")),
            "mig_mode": _mig(rec.get("mig.mode.current")),
        }
        if gpu["name"] is None:
            raise GpuParseError("nvidia-smi --query-gpu line %d has no GPU name" % lineno)
        if gpu["compute_cap"] is not None and not re.match(r"^\d+\.\d+$", gpu["compute_cap"]):
            raise GpuParseError("compute_cap is %r on line %d, expected MAJOR.MINOR" % (gpu["compute_cap"], lineno))
        source = "nvidia-smi"
        if gpu["compute_cap"] is None:
            gpu["compute_cap"] = compute_cap_from_name(gpu["name"])
            source = "name"
        gpus.append(_finish(gpu, source))
    return gpus


_HDR_DRIVER = re.compile(r"(?:Driver|KMD) Version:\s*(\S+)")
_HDR_CUDA = re.compile(r"CUDA (?:UMD |Driver )?Version:\s*([^\s|]+)")


def parse_version(text):
    """``nvidia-smi --version``: {'driver_version', 'cuda_version'} (either may be None)."""
    out = {"driver_version": None, "cuda_version": None}
    for line in (text or "").splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key = key.strip().lower()
        if key in ("driver version", "kmd version"):
            out["driver_version"] = _clean(value)
        elif key in ("cuda version", "cuda umd version"):
            out["cuda_version"] = _clean(value)
    return out


_ROW1 = re.compile(r"^\|\s+(\d+)\s+(.+?)\s+(On|Off)\s+\|\s+(\S+)\s+(?:On|Off)\s+\|")
_ROW2 = re.compile(r"\|\s+(\d+)MiB\s*/\s*(\d+)MiB\s+\|")
_ROW3 = re.compile(r"^\|\s+\|\s+\|\s+(\S+)\s+\|$")


def parse_table(text):
    """The default ``nvidia-smi`` table: versions from its header and (fallback) the GPU rows."""
    if text is None or "NVIDIA-SMI" not in text:
        raise GpuParseError("nvidia-smi output has no 'NVIDIA-SMI' header line")
    out = {"driver_version": None, "cuda_version": None, "gpus": []}
    lines = text.splitlines()
    for line in lines:
        if "NVIDIA-SMI" in line:
            m = _HDR_DRIVER.search(line)
            out["driver_version"] = m.group(1) if m else None
            m = _HDR_CUDA.search(line)
            out["cuda_version"] = _clean(m.group(1)) if m else None
            break
    in_procs = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if "MIG devices:" in line or "Processes:" in line:
            in_procs = True
        m = _ROW1.match(line) if not in_procs else None
        if m:
            gpu = {
                "index": int(m.group(1)),
                "name": m.group(2).strip(),
                "uuid": None,
                "pci_bus_id": m.group(4),
                "driver_version": out["driver_version"],
                "memory_total_mib": None,
                "compute_cap": None,
                "persistence_mode": m.group(3) == "On",
                "mig_mode": None,
            }
            if i + 1 < len(lines):
                m2 = _ROW2.search(lines[i + 1])
                if m2:
                    gpu["memory_total_mib"] = int(m2.group(2))
            if i + 2 < len(lines):
                m3 = _ROW3.match(lines[i + 2].rstrip())
                if m3:
                    gpu["mig_mode"] = _mig(m3.group(1))
            gpu["compute_cap"] = compute_cap_from_name(gpu["name"])
            out["gpus"].append(_finish(gpu, "name"))
            i += 3
            continue
        i += 1
    return out


def parse_kernel_module(proc_version=None, modinfo=None):
    """Kernel module state: {'loaded', 'open', 'version', 'source'}.

    /proc/driver/nvidia/version exists only while the module is loaded; its first line names the
    flavour ("NVIDIA UNIX Open Kernel Module" vs "NVIDIA UNIX x86_64 Kernel Module"). ``modinfo
    nvidia`` works without it loaded: the open module is "Dual MIT/GPL", the proprietary one "NVIDIA".
    """
    if proc_version and "NVRM version" in proc_version:
        first = proc_version.strip().splitlines()[0]
        m = re.search(r"Kernel Module(?: for \S+)?\s+(\d+\.\d+(?:\.\d+)?)", first)
        return {
            "loaded": True,
            "open": "Open Kernel Module" in first,
            "version": m.group(1) if m else None,
            "source": "/proc/driver/nvidia/version",
        }
    if modinfo:
        lic = re.search(r"^license:\s*(.+)$", modinfo, re.M)
        ver = re.search(r"^version:\s*(\S+)$", modinfo, re.M)
        return {
            "loaded": False,
            "open": ("MIT" in lic.group(1) or "GPL" in lic.group(1)) if lic else None,
            "version": ver.group(1) if ver else None,
            "source": "modinfo nvidia",
        }
    return {"loaded": False, "open": None, "version": None, "source": None}


def version_tuple(version):
    parts = re.findall(r"\d+", str(version or ""))
    if not parts:
        raise ValueError("not a version: %r" % (version,))
    return tuple(int(p) for p in parts)


def min_driver_for_cuda(cuda_version):
    key = ".".join(str(cuda_version).split(".")[:2])
    if key not in CUDA_MIN_DRIVER:
        raise ValueError(
            "no driver minimum known for CUDA %s (known: %s); set min_driver_version explicitly"
            % (cuda_version, ", ".join(sorted(CUDA_MIN_DRIVER))))
    return CUDA_MIN_DRIVER[key]


def gather(run, read_file):
    """Collect facts on a host.

    run(argv) -> (rc, stdout, stderr), or None when the program is not installed.
    read_file(path) -> str or None.
    Never raises for a host without a GPU; raises GpuParseError when nvidia-smi answers garbage.
    """
    facts = {
        "present": False,
        "nvidia_smi": False,
        "driver_version": None,
        "cuda_version": None,
        "gpus": [],
        "kernel_module": parse_kernel_module(read_file("/proc/driver/nvidia/version"), None),
        "source": None,
        "reason": None,
    }
    table = run(["nvidia-smi"])
    if table is None:
        facts["reason"] = "nvidia-smi is not installed (no NVIDIA driver on this host)"
        return facts
    facts["nvidia_smi"] = True
    rc, out, err = table
    if rc != 0:
        msg = (err or out or "").strip().splitlines()
        facts["reason"] = "nvidia-smi failed (rc=%d): %s" % (rc, msg[0] if msg else "no output")
        return facts
    tab = parse_table(out)
    facts["driver_version"] = tab["driver_version"]
    facts["cuda_version"] = tab["cuda_version"]
    query = run(["nvidia-smi", "--query-gpu=" + ",".join(QUERY_FIELDS), "--format=csv"])
    gpus = None
    if query is not None and query[0] == 0:
        try:
            gpus = parse_query_csv(query[1])
            facts["source"] = "nvidia-smi --query-gpu"
        except GpuParseError:
            gpus = None
    if gpus is None:
        gpus = tab["gpus"]
        facts["source"] = "nvidia-smi table"
    facts["gpus"] = gpus
    facts["present"] = bool(gpus)
    if not gpus:
        facts["reason"] = "nvidia-smi lists no GPU"
    if not facts["kernel_module"]["loaded"]:
        mi = run(["modinfo", "nvidia"])
        if mi is not None and mi[0] == 0:
            facts["kernel_module"] = parse_kernel_module(None, mi[1])
    if facts["driver_version"] is None and gpus:
        facts["driver_version"] = gpus[0].get("driver_version")
    return facts


def check_requirements(facts, require_gpu=True, cuda_version=None, min_driver_version=None,
                       require_blackwell=False, min_gpus=0, require_open_module=None):
    """Problems (list of str, each saying what to do) for these facts against the requirements."""
    problems = []
    if not facts.get("present"):
        if require_gpu:
            problems.append(
                "No usable NVIDIA GPU: %s. Install the NVIDIA driver (open kernel modules, >= %s) "
                "or, on a lab host without a GPU, set gpu_env_require_gpu: false."
                % (facts.get("reason") or "none found", min_driver_version or
                   (min_driver_for_cuda(cuda_version) if cuda_version else "the CUDA build's minimum")))
        return problems
    want = min_driver_version
    if want is None and cuda_version:
        want = min_driver_for_cuda(cuda_version)
    have = facts.get("driver_version")
    if want:
        if not have:
            problems.append("nvidia-smi did not report a driver version; cannot check it against >= %s." % want)
        elif version_tuple(have) < version_tuple(want):
            problems.append(
                "NVIDIA driver %s is too old: the pinned SGLang stack is built for CUDA %s, which needs "
                "driver >= %s. Upgrade the driver (e.g. the nvidia-open %s series) and reboot, or pin an "
                "SGLang lock built for an older CUDA."
                % (have, cuda_version or "(as configured)", want, want.split(".")[0]))
    gpus = facts.get("gpus") or []
    if min_gpus and len(gpus) < min_gpus:
        problems.append(
            "This host has %d GPU(s) (%s) but the instance needs %d (tp_size x dp_size). "
            "Put the instance on a host with enough GPUs or lower its parallelism."
            % (len(gpus), ", ".join(g["name"] for g in gpus) or "none", min_gpus))
    if require_blackwell:
        bad = [g for g in gpus if not g.get("blackwell")]
        for g in bad:
            problems.append(
                "GPU %s (%s, compute capability %s) is not Blackwell-class (sm_100/sm_120) but the "
                "inventory requires it (gpu_env_require_blackwell). Move this host out of the group "
                "or set gpu_env_require_blackwell: false for it."
                % (g["index"], g["name"], g.get("compute_cap") or "unknown"))
    if require_open_module:
        km = facts.get("kernel_module") or {}
        if km.get("open") is False:
            problems.append(
                "The proprietary NVIDIA kernel module is in use (%s); Blackwell GPUs need the open "
                "kernel modules: install the nvidia-open / *-open driver package and reboot."
                % (km.get("source") or "unknown source"))
    return problems
