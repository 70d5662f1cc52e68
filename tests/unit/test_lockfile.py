"""The lock format (docs/locks.md): what `make lint` refuses, and that every shipped lock passes.

Runs tools/lock.py check as a user does (exit status and the line it prints), on copies of the
committed locks with one defect each.
"""
import glob
import os
import subprocess
import sys

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import lockfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "lock.py")
CPU_LOCK = os.path.join(ROOT, "lab", "sglang-0.5.23-cpu.lock")
CUDA_LOCKS = sorted(glob.glob(os.path.join(ROOT, "roles", "gpu_env", "files", "sglang-*-cu13.lock")))
ALL_LOCKS = sorted(glob.glob(os.path.join(ROOT, "lab", "sglang-*-cpu.lock"))) + CUDA_LOCKS


def check(path):
    proc = subprocess.run([sys.executable, TOOL, "check", str(path)], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr
    return proc


def variant(tmp_path, src, edit, name="edited.lock"):
    text = open(src, encoding="utf-8").read()
    new = edit(text)
    assert new != text, "the edit changed nothing"
    out = tmp_path / name
    out.write_text(new, encoding="utf-8")
    return out


def test_shipped_locks_pass():
    assert CUDA_LOCKS, "no CUDA lock shipped in roles/gpu_env/files"
    proc = subprocess.run([sys.executable, TOOL, "check"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "lock check: %d lock(s), 0 with problems" % len(ALL_LOCKS) in proc.stdout


@pytest.mark.parametrize("src", [CPU_LOCK] + CUDA_LOCKS[:1])
def test_one_hash_removed_fails(tmp_path, src):
    def drop_hashes_of_sglang(text):
        lines = text.splitlines(keepends=True)
        i = next(n for n, line in enumerate(lines) if line.startswith("sglang=="))
        # the pin keeps its line but loses every --hash option under it
        j = i + 1
        while j < len(lines) and lines[j].lstrip().startswith("--hash"):
            j += 1
        lines[i] = lines[i].replace(" \\", "")
        return "".join(lines[:i + 1] + lines[j:])
    proc = check(variant(tmp_path, src, drop_hashes_of_sglang))
    assert proc.returncode == 1
    assert "sglang has no --hash=sha256:" in proc.stdout


def test_unpinned_requirement_fails(tmp_path):
    proc = check(variant(tmp_path, CPU_LOCK, lambda t: t.replace("zstandard==0.25.0", "zstandard>=0.25.0")))
    assert proc.returncode == 1
    assert "zstandard is not pinned with == to one version" in proc.stdout


@pytest.mark.skipif(not CUDA_LOCKS, reason="no CUDA lock shipped")
def test_cpu_torch_in_cuda_lock_fails(tmp_path):
    src = CUDA_LOCKS[0]
    pins = {r["name"]: r["version"] for r in lockfile.parse_requirements(open(src).read())}
    proc = check(variant(tmp_path, src, lambda t: t.replace("torch==%s \\" % pins["torch"], "torch==2.13.0+cpu \\")))
    assert proc.returncode == 1
    assert "torch==2.13.0+cpu is a CPU-only build: not in a cu13 lock" in proc.stdout


@pytest.mark.skipif(not CUDA_LOCKS, reason="no CUDA lock shipped")
def test_cuda_lock_without_core_package_fails(tmp_path):
    def drop(text, name="flashinfer-python"):
        lines = text.splitlines(keepends=True)
        i = next(n for n, line in enumerate(lines) if line.startswith(name + "=="))
        j = i + 1
        while j < len(lines) and lines[j].lstrip().startswith("--hash"):
            j += 1
        return "".join(lines[:i] + lines[j:])
    proc = check(variant(tmp_path, CUDA_LOCKS[0], drop))
    assert proc.returncode == 1
    assert "a cu13 lock must contain flashinfer-python" in proc.stdout


@pytest.mark.parametrize("key", lockfile.HEADER_KEYS)
def test_header_missing_a_key_fails(tmp_path, key):
    proc = check(variant(tmp_path, CPU_LOCK, lambda t: "".join(
        line for line in t.splitlines(keepends=True) if not line.startswith(lockfile.HEADER_PREFIX + key + "="))))
    assert proc.returncode == 1
    assert "header keys missing: %s" % key in proc.stdout


def test_header_parsed_values():
    header = lockfile.parse_header(open(CPU_LOCK).read())
    assert header["sglang"] == "0.5.23" and header["flavor"] == "cpu"
    assert header["python"] == ["3.11"] and header["cuda"] == "none"
    assert header["download_bytes"] > 100 * 2 ** 20
    assert header["generated_by"].startswith("tools/lock.py cpu 0.5.23 --exclude-newer ")


@pytest.mark.skipif(not CUDA_LOCKS, reason="no CUDA lock shipped")
def test_cuda_header_states_what_a_host_needs():
    header = lockfile.parse_header(open(CUDA_LOCKS[0]).read())
    assert header["flavor"] == "cu13" and header["cuda"] == "13.0" and header["driver_min"] == "580.65.06"
    assert header["python"] == ["3.11", "3.12"] and header["glibc_min"] == "2.34"
    assert header["platform"] == "x86_64-manylinux_2_34"


@pytest.mark.parametrize("line,message", [
    ("# specdeploy-lock: flavor=rocm", "expected cu13 or cpu"),
    ("# specdeploy-lock: glibc_min=new", "expected a glibc version"),
    ("# specdeploy-lock: colour=blue", "unknown header key 'colour'"),
])
def test_bad_header_value_is_named(line, message):
    text = open(CPU_LOCK).read()
    key = line.split(": ", 1)[1].split("=", 1)[0]
    lines = [x for x in text.splitlines() if not x.startswith(lockfile.HEADER_PREFIX + key + "=")]
    with pytest.raises(lockfile.LockError, match=message):
        lockfile.parse_header("\n".join([line] + lines))


def test_format_header_round_trips():
    header = lockfile.parse_header(open(CPU_LOCK).read())
    values = dict(header, python=",".join(header["python"]))
    text = lockfile.format_header(values)
    assert text == "\n".join(x for x in open(CPU_LOCK).read().splitlines() if x.startswith(lockfile.HEADER_PREFIX))


@pytest.mark.skipif(not CUDA_LOCKS, reason="no CUDA lock shipped")
def test_one_of_two_hashes_removed_fails(tmp_path):
    # numpy has one wheel per Python (cp311, cp312): dropping the cp312 hash would break 3.12 hosts
    def drop_second_numpy_hash(text):
        lines = text.splitlines(keepends=True)
        i = next(n for n, line in enumerate(lines) if line.startswith("numpy=="))
        assert lines[i + 2].lstrip().startswith("--hash=")
        lines[i + 1] = lines[i + 1].replace(" \\", "")
        return "".join(lines[:i + 2] + lines[i + 3:])
    proc = check(variant(tmp_path, CUDA_LOCKS[0], drop_second_numpy_hash))
    assert proc.returncode == 1
    assert "numpy has 1 hash(es) for 2 file(s)" in proc.stdout


def _lock_tool():
    import importlib.util
    spec = importlib.util.spec_from_file_location("specdeploy_lock_tool", os.path.join(ROOT, "bin", "specdeploy_lock.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _f(name, uploaded="2026-01-01T00:00:00.000000Z", yanked=False):
    return {"filename": name, "sha256": name, "size": 1, "upload_time": uploaded, "yanked": yanked}


def test_the_lock_keeps_the_wheel_pip_would_install_per_python():
    tool = _lock_tool()
    files = [_f("x-1.0.tar.gz"), _f("x-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
             _f("x-1.0-cp311-cp311-manylinux_2_35_x86_64.whl"),  # needs a newer glibc than the target
             _f("x-1.0-cp312-cp312-manylinux_2_28_x86_64.whl"),
             _f("x-1.0-cp312-cp312-manylinux_2_34_x86_64.whl", uploaded="2027-01-01T00:00:00Z"),  # after the bound
             _f("x-1.0-cp312-abi3-manylinux_2_34_x86_64.whl", yanked=True), _f("x-2.0-py3-none-any.whl")]
    pick = {py: tool.choose_file(files, "x", "1.0", py, "x86_64-manylinux_2_34", "2026-12-01T00:00:00Z")["filename"]
            for py in ("3.11", "3.12", "3.13")}
    assert pick == {"3.11": "x-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
                    "3.12": "x-1.0-cp312-cp312-manylinux_2_28_x86_64.whl",
                    "3.13": "x-1.0.tar.gz"}  # no wheel for 3.13: pip would build the sdist
    chosen = {"x": {py: _f(n) for py, n in pick.items() if n.endswith(".whl")}}
    assert tool.measures(chosen, ["3.11", "3.12"])[1] == "2.28"


def test_a_version_without_a_file_for_the_target_is_refused():
    tool = _lock_tool()
    with pytest.raises(tool.LockToolError, match="has no file for CPython 3.11 on x86_64-manylinux_2_34"):
        tool.choose_file([_f("x-1.0-cp312-cp312-manylinux_2_17_x86_64.whl")], "x", "1.0", "3.11",
                         "x86_64-manylinux_2_34", "2026-12-01T00:00:00Z")


def test_cuda_components_off_the_toolkit_release_are_held(monkeypatch):
    tool = _lock_tool()
    monkeypatch.setattr(tool, "toolkit_pins", lambda index, version, stamp: {
        "nvidia-cuda-nvcc": "==13.0.88.*", "nvidia-nvjitlink": "==13.0.*", "nvidia-cublas": "==13.1.1.3.*"})
    pins = {"cuda-toolkit": "13.0.3.0", "nvidia-cuda-nvcc": "13.5.1", "nvidia-nvjitlink": "13.5.0",
            "nvidia-cublas": "13.1.1.3", "nvidia-ml-py": "13.590.1"}
    minor, cons = tool.cuda_hold(pins, "13.0", "https://index.invalid/simple", "2026-12-01T00:00:00Z")
    assert minor == "13.0"
    assert cons == ["nvidia-cuda-nvcc==13.0.88.*", "nvidia-nvjitlink==13.0.*"]
    with pytest.raises(tool.LockToolError, match="built for CUDA 13.0"):
        tool.cuda_hold(pins, "13.2", "https://index.invalid/simple", "2026-12-01T00:00:00Z")
