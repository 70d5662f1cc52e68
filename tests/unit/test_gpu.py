"""gpu module_utils on captured nvidia-smi outputs (tests/unit/fixtures/nvidia_smi/SOURCES.md says where
each comes from; constructed fixtures are named as such there)."""
import os

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "nvidia_smi")


def fx(*parts):
    with open(os.path.join(FIX, *parts)) as f:
        return f.read()


OPEN_LINE = ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  "
             "(dvs-builder@U22-I3-H04-03-1)  Sat Sep 20 00:47:16 UTC 2025\nGCC version:  gcc version 12.3.0\n")
PROP_LINE = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.216.03  Thu Apr  3 01:14:19 UTC 2025\n"


# ---- real captures ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,gpu_name,mem,cc,pm,mig,blackwell", [
    ("h200-mig-590.48.01", "NVIDIA H200", 143771, "9.0", True, "Enabled", False),
    ("h100-80gb-590.48.01", "NVIDIA H100 80GB HBM3", None, "9.0", None, None, False),
    ("l40s-595.80", "NVIDIA L40S", None, "8.9", None, None, False),
    ("rtx4080super-595.71.05", "NVIDIA GeForce RTX 4080 SUPER", 16376, "8.9", False, None, False),
])
def test_query_csv_real_captures(name, gpu_name, mem, cc, pm, mig, blackwell):
    gpus = gpu.parse_query_csv(fx(name, "query.csv"))
    assert len(gpus) >= 1
    g = gpus[0]
    assert g["name"] == gpu_name
    assert g["compute_cap"] == cc and g["compute_cap_source"] == "nvidia-smi"
    assert g["blackwell"] is blackwell
    assert isinstance(g["memory_total_mib"], int) and g["memory_total_mib"] > 10000
    if mem is not None:
        assert g["memory_total_mib"] == mem
    if pm is not None:
        assert g["persistence_mode"] is pm
    if mig is not None:
        assert g["mig_mode"] == mig


@pytest.mark.parametrize("name,driver,cuda", [
    ("h200-mig-590.48.01", "590.48.01", "13.1"),
    ("l40s-595.80", "595.80", "13.2"),
    ("rtx4080super-595.71.05", "595.71.05", "13.2"),
])
def test_versions_from_version_and_table(name, driver, cuda):
    assert gpu.parse_version(fx(name, "version.txt")) == {"driver_version": driver, "cuda_version": cuda}
    tab = gpu.parse_table(fx(name, "table.txt"))
    assert (tab["driver_version"], tab["cuda_version"]) == (driver, cuda)


def test_table_rows_skip_mig_devices_and_processes():
    tab = gpu.parse_table(fx("h200-mig-590.48.01", "table.txt"))
    assert [g["name"] for g in tab["gpus"]] == ["NVIDIA H200"]  # MIG device rows are not GPUs
    assert tab["gpus"][0]["mig_mode"] == "Enabled"
    assert tab["gpus"][0]["memory_total_mib"] == 143771


def test_rtx_pro_6000_real_table():
    tab = gpu.parse_table(fx("rtxpro6000-580.95.05", "table.txt"))
    assert tab["driver_version"] == "580.95.05" and tab["cuda_version"] == "13.0"
    (g,) = tab["gpus"]
    assert g["name"] == "NVIDIA RTX PRO 6000 Blac..."  # the table truncates names
    assert g["memory_total_mib"] == 97887
    assert g["persistence_mode"] is True
    assert g["mig_mode"] is None  # "N/A"
    # no compute_cap column in the table: inferred from the name, and marked as such
    assert g["compute_cap"] == "12.0" and g["compute_cap_source"] == "name"
    assert g["blackwell"] is True


def test_rtx_pro_6000_constructed_csv_passes_all_checks():
    gpus = gpu.parse_query_csv(fx("rtxpro6000-constructed", "query.csv"))
    facts = {"present": True, "driver_version": "580.95.05", "gpus": gpus,
             "kernel_module": gpu.parse_kernel_module(OPEN_LINE)}
    assert gpus[0]["blackwell"] and gpus[0]["compute_cap"] == "12.0"
    assert gpu.check_requirements(facts, cuda_version="13.0", require_blackwell=True, min_gpus=1,
                                  require_open_module=True) == []


# ---- requirement checks ----------------------------------------------------------------------
def _facts(name):
    gpus = gpu.parse_query_csv(fx(*name))
    return {"present": True, "driver_version": gpus[0]["driver_version"], "gpus": gpus,
            "kernel_module": {"loaded": True, "open": True}}


def test_old_driver_is_refused_with_the_minimum_named():
    problems = gpu.check_requirements(_facts(("rtxpro6000-constructed", "query-2gpu-old-driver.csv")),
                                      cuda_version="13.0")
    assert len(problems) == 1
    assert "570.133.07 is too old" in problems[0] and ">= 580.65.06" in problems[0]
    assert "CUDA 13.0" in problems[0]


def test_driver_exactly_at_minimum_is_accepted():
    f = _facts(("rtxpro6000-constructed", "query.csv"))
    f["driver_version"] = "580.65.06"
    assert gpu.check_requirements(f, cuda_version="13.0") == []
    f["driver_version"] = "580.65.05"
    assert gpu.check_requirements(f, cuda_version="13.0")


def test_non_blackwell_refused_only_when_required():
    f = _facts(("h200-mig-590.48.01", "query.csv"))
    assert gpu.check_requirements(f, cuda_version="13.0") == []
    (p,) = gpu.check_requirements(f, cuda_version="13.0", require_blackwell=True)
    assert "NVIDIA H200" in p and "compute capability 9.0" in p and "not Blackwell-class" in p


def test_too_few_gpus():
    f = _facts(("rtxpro6000-constructed", "query-2gpu-old-driver.csv"))
    (p,) = gpu.check_requirements(f, min_driver_version="500", min_gpus=4)
    assert "has 2 GPU(s)" in p and "needs 4" in p


def test_no_gpu_required_vs_not_required():
    facts = {"present": False, "reason": "nvidia-smi is not installed (no NVIDIA driver on this host)",
             "gpus": []}
    (p,) = gpu.check_requirements(facts, require_gpu=True, cuda_version="13.0")
    assert "nvidia-smi is not installed" in p and "gpu_env_require_gpu: false" in p and "580.65.06" in p
    assert gpu.check_requirements(facts, require_gpu=False, cuda_version="13.0") == []


def test_proprietary_module_refused_when_open_required():
    f = _facts(("rtxpro6000-constructed", "query.csv"))
    f["kernel_module"] = gpu.parse_kernel_module(PROP_LINE)
    (p,) = gpu.check_requirements(f, cuda_version="13.0", require_open_module=True)
    assert "proprietary" in p and "open kernel modules" in p


def test_unknown_cuda_has_a_clear_error():
    with pytest.raises(ValueError, match="no driver minimum known for CUDA 11.2"):
        gpu.min_driver_for_cuda("11.2")


# ---- kernel module ---------------------------------------------------------------------------
def test_kernel_module_flavours():
    assert gpu.parse_kernel_module(OPEN_LINE) == {
        "loaded": True, "open": True, "version": "580.95.05", "source": "/proc/driver/nvidia/version"}
    k = gpu.parse_kernel_module(PROP_LINE)
    assert k["open"] is False and k["version"] == "535.216.03"
    k = gpu.parse_kernel_module(None, "filename: /lib/modules/x/nvidia.ko\nlicense:        Dual MIT/GPL\n"
                                      "version:        580.95.05\n")
    assert k == {"loaded": False, "open": True, "version": "580.95.05", "source": "modinfo nvidia"}
    assert gpu.parse_kernel_module(None, None)["loaded"] is False


# ---- broken outputs --------------------------------------------------------------------------
@pytest.mark.parametrize("fixture,match", [
    ("query-invalid-field.txt", "rejected the query"),
    ("query-truncated.csv", "line 2 has 5 fields, the header has 9"),
    ("query-bad-memory.csv", "memory.total is 'lots'"),
    ("garbage.txt", "no name, memory.total column"),
    ("nvml-mismatch.txt", "no name, memory.total column"),
])
def test_broken_query_outputs_raise_parse_errors(fixture, match):
    with pytest.raises(gpu.GpuParseError, match=match):
        gpu.parse_query_csv(fx("broken", fixture))


def test_broken_table_raises():
    with pytest.raises(gpu.GpuParseError, match="no 'NVIDIA-SMI' header"):
        gpu.parse_table(fx("broken", "nvml-mismatch.txt"))


# ---- gather() against a fake host ------------------------------------------------------------
def make_host(programs, files=None):
    calls = []

    def run(argv):
        calls.append(argv)
        key = argv[0] if len(argv) == 1 else " ".join(argv[:2])
        if argv[0] not in {k.split()[0] for k in programs}:
            return None
        return programs.get(key, (127, "", "not captured"))

    def read(path):
        return (files or {}).get(path)
    return run, read, calls


def test_gather_without_nvidia_smi_is_no_gpu_not_error():
    run, read, _ = make_host({})
    facts = gpu.gather(run, read)
    assert facts["present"] is False and facts["gpus"] == []
    assert facts["reason"] == "nvidia-smi is not installed (no NVIDIA driver on this host)"


def test_gather_nvml_failure_reports_reason():
    run, read, _ = make_host({"nvidia-smi": (9, fx("broken", "nvml-mismatch.txt"), "")})
    facts = gpu.gather(run, read)
    assert facts["present"] is False
    assert "Driver/library version mismatch" in facts["reason"]


def test_gather_real_capture_prefers_query_csv():
    run, read, calls = make_host({
        "nvidia-smi": (0, fx("h200-mig-590.48.01", "table.txt"), ""),
        "nvidia-smi --query-gpu=" + ",".join(gpu.QUERY_FIELDS): (0, fx("h200-mig-590.48.01", "query.csv"), ""),
    }, {"/proc/driver/nvidia/version": OPEN_LINE})
    facts = gpu.gather(run, read)
    assert facts["source"] == "nvidia-smi --query-gpu"
    assert facts["driver_version"] == "590.48.01" and facts["cuda_version"] == "13.1"
    assert facts["gpus"][0]["compute_cap"] == "9.0"
    assert facts["kernel_module"]["open"] is True


def test_gather_falls_back_to_table_when_query_rejected():
    run, read, _ = make_host({
        "nvidia-smi": (0, fx("rtxpro6000-580.95.05", "table.txt"), ""),
        "nvidia-smi --query-gpu=" + ",".join(gpu.QUERY_FIELDS): (0, fx("broken", "query-invalid-field.txt"), ""),
        "modinfo nvidia": (0, "license:        NVIDIA\nversion:        580.95.05\n", ""),
    })
    facts = gpu.gather(run, read)
    assert facts["source"] == "nvidia-smi table"
    assert facts["gpus"][0]["blackwell"] is True
    assert facts["kernel_module"] == {"loaded": False, "open": False, "version": "580.95.05",
                                      "source": "modinfo nvidia"}
