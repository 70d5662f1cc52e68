"""gpu_env module_utils: the env key, what a lock declares, and the host readiness rules (real
interpreters and a real temp filesystem where the rule reads one; statvfs given where a full disk is needed)."""
import hashlib
import os
import subprocess
import sys
import types

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu_env as ge

HEADER = """# specdeploy-lock: sglang=0.5.23
# specdeploy-lock: flavor=cu13
# specdeploy-lock: python=3.11,3.12
# specdeploy-lock: platform=x86_64-manylinux_2_34
# specdeploy-lock: glibc_min=2.34
# specdeploy-lock: cuda=13.0
# specdeploy-lock: driver_min=580.65.06
# specdeploy-lock: download_bytes=4348654080
"""
PINS = ("torch==2.14.1 \\\n    --hash=sha256:%s\nflashinfer_python[cu13]==0.7.2 \\\n    --hash=sha256:%s\n"
        % ("a" * 64, "b" * 64))
LAB_LOCK = os.path.join(os.path.dirname(__file__), "..", "..", "lab", "sglang-0.5.23-cpu.lock")


def _without_header(path):
    """A lock as an older tool wrote it: the same pins, no specdeploy-lock header."""
    return "".join(line for line in open(path).read().splitlines(True) if not line.startswith(ge.HEADER_PREFIX.rstrip()))


def test_env_key_is_the_roles_formula():
    """The role named envs sha256(lookup(file) ~ shim marker); existing env dirs keep their names."""
    text = open(LAB_LOCK).read()
    looked_up = text.rstrip()  # the file lookup strips trailing whitespace
    assert ge.env_key(text) == hashlib.sha256(looked_up.encode()).hexdigest()
    assert ge.env_key(looked_up, True) == hashlib.sha256(
        (looked_up + "\n# +specdeploy-lab-shim").encode()).hexdigest()
    assert ge.env_key(text + "# bump\n") != ge.env_key(text)


def test_header_and_pins():
    info = ge.lock_info(HEADER + PINS)
    assert info["header"]["glibc_min"] == "2.34" and info["header"]["python"] == "3.11,3.12"
    assert info["packages"] == {"torch": "2.14.1", "flashinfer-python": "0.7.2"}
    assert info["flashinfer"] is True
    assert info["undeclared"] == ["exclude_newer", "generated_by"]
    assert info["driver"]["cuda"] == "13.0" and info["driver"]["min_driver"] == "580.65.06"


def test_a_lock_without_header_declares_nothing_and_is_not_an_error():
    info = ge.lock_info(_without_header(LAB_LOCK), cuda_version="13.0")
    assert info["header"] == {} and info["undeclared"] == list(ge.HEADER_KEYS)
    assert info["flashinfer"] is False and info["packages"]["sglang"] == "0.5.23"
    assert info["driver"]["cuda"] == "13.0"
    assert "declares no CUDA version" in info["driver"]["notes"][0]


@pytest.mark.parametrize("header,var_cuda,var_min,cuda,want", [
    ({"cuda": "13.0"}, "13.0", "", "13.0", "580.65.06"),
    ({"cuda": "13.0", "driver_min": "590.1"}, "", "", "13.0", "590.1"),       # the lock asks more
    ({"cuda": "13.0"}, "", "600.2", "13.0", "600.2"),                          # the operator asks more
    ({"cuda": "none", "driver_min": "none"}, "13.0", "", None, None),           # CPU lock: no driver
    ({}, "12.9", "", "12.9", "575.51.03"),                                      # undeclared: the variable
    ({"cuda": "13.1"}, "13.0", "", "13.1", "590.44.01"),                        # the lock wins
])
def test_one_driver_rule(header, var_cuda, var_min, cuda, want):
    rule = ge.driver_rule(header, var_cuda, var_min)
    assert (rule["cuda"], rule["min_driver"]) == (cuda, want)


def test_driver_rule_unknown_cuda_without_a_floor_says_what_to_set():
    with pytest.raises(ValueError, match="gpu_env_min_driver_version"):
        ge.driver_rule({"cuda": "14.2"})


def _found(**kw):
    base = {"glibc": "2.36", "interpreter": "/usr/bin/python3",
            "python": {"version": "3.11.2", "venv": True, "ensurepip": "23.0.1"}, "compiler": "/usr/bin/c++"}
    base.update(kw)
    return base


def _check(text, found, disks=None):
    info = ge.lock_info(text)
    return ge.check_host(info, found, disks, info["driver"])


def test_a_ready_host_passes():
    problems, notes = _check(HEADER + PINS, _found())
    assert problems == []
    assert any("flashinfer JIT-compiles" in n for n in notes)


def test_old_glibc_is_refused_with_what_to_do():
    problems, _ = _check(HEADER.replace("glibc_min=2.34", "glibc_min=2.99") + PINS, _found())
    assert problems == ["glibc 2.36 is too old: the lock's wheels are built for glibc >= 2.99 (manylinux_2_99). "
                        "Upgrade the host's OS to one with glibc >= 2.99 (Debian 12 has 2.36, Ubuntu 22.04 2.35, "
                        "RHEL 9 2.34), or use a lock made for an older manylinux tag."]
    assert "not glibc" in _check(HEADER + PINS, _found(glibc=None))[0][0]


def test_unsupported_python_and_missing_venv_are_refused():
    problems, _ = _check(HEADER + PINS, _found(python={"version": "3.10.12", "venv": True, "ensurepip": "22"}))
    assert len(problems) == 1 and "Python 3.10.12 (/usr/bin/python3) is not one the lock supports (3.11, 3.12)" \
        in problems[0]
    problems, _ = _check(HEADER + PINS, _found(python={"version": "3.11.2", "venv": True, "ensurepip": None,
                                                      "ensurepip_error": "ModuleNotFoundError('ensurepip')"}))
    assert len(problems) == 1 and "cannot make a venv with pip" in problems[0] and "python3-venv" in problems[0]
    problems, _ = _check(HEADER + PINS, _found(python={"error": "/opt/py does not exist"}))
    assert problems[0].startswith("Python: /opt/py does not exist. Set gpu_env_python_interpreter")


def test_flashinfer_without_a_compiler_is_refused_and_a_lock_without_flashinfer_needs_none():
    problems, _ = _check(HEADER + PINS, _found(compiler=None))
    assert len(problems) == 1 and problems[0].startswith("no C++ compiler") and "apt-get install g++" in problems[0]
    assert _check(HEADER + PINS.split("flashinfer")[0], _found(compiler=None))[0] == []


def test_undeclared_keys_are_a_note_not_a_check():
    problems, notes = _check(_without_header(LAB_LOCK), _found(glibc="2.17", python={"version": "3.9.0", "venv": True,
                                                                                  "ensurepip": "21"}))
    assert problems == []
    assert any("does not declare glibc_min, python, download_bytes" in n for n in notes)


def test_probe_python_on_real_interpreters(tmp_path):
    me = ge.probe_python(sys.executable)
    assert me["version"] == "%d.%d.%d" % sys.version_info[:3] and me["venv"] is True
    assert ge.probe_python(str(tmp_path / "nope"))["error"].endswith("does not exist")
    # an interpreter whose ensurepip cannot be imported (Debian's python3 without python3-venv does this)
    fake = tmp_path / "py"
    fake.write_text("#!/bin/sh\nexec %s -c 'import sys; sys.modules[\"ensurepip\"] = None; "
                    "exec(sys.argv[1])' \"$3\"\n" % sys.executable)
    fake.chmod(0o755)
    out = ge.probe_python(str(fake))
    assert out["ensurepip"] is None and "ensurepip" in out["ensurepip_error"]


def test_disk_needs_per_filesystem_and_refusal(tmp_path):
    real = ge.disk_needs(10 << 20, str(tmp_path / "envs" / "x"), str(tmp_path), str(tmp_path / "cache"), factor=4.0)
    assert len(real) == 1  # all on one filesystem: needs add up
    assert real[0]["need"] == (10 << 20) * 4 + 2 * (10 << 20) and real[0]["free"] > 0
    assert ge.disk_needs(10 << 20, str(tmp_path), str(tmp_path), str(tmp_path), offline=True, factor=4.0)[0][
        "need"] == 40 << 20
    full = lambda path: types.SimpleNamespace(f_bavail=100, f_frsize=4096)  # noqa: E731
    disks = ge.disk_needs(4348654080, "/opt/specdeploy/envs", "/tmp", "/root/.cache/pip", statvfs=full,
                          stat=lambda p: types.SimpleNamespace(st_dev=1), reserve=1 << 30)
    problems, _ = _check(HEADER + PINS, _found(), disks)
    # 4348654080 B x 4.2 + 1 GiB reserve + 2 x 4348654080 B (temp, cache), all on one filesystem
    assert len(problems) == 1 and problems[0].startswith("not enough disk space on /")
    assert "0.0 GiB free, the install needs 26.1 GiB there" in problems[0]
    assert "gpu_env_reserve_bytes" in problems[0] and "pip's temporary files" in problems[0]


def test_runtime_env_points_the_jit_at_the_envs_nvcc(tmp_path):
    venv = tmp_path / "env"
    assert ge.find_nvcc(str(venv)) is None and ge.runtime_env(str(venv), None) == {}
    nvcc = venv / "lib" / "python3.12" / "site-packages" / "nvidia" / "cu13" / "bin" / "nvcc"
    nvcc.parent.mkdir(parents=True)
    nvcc.write_text("")
    assert ge.find_nvcc(str(venv)) == str(nvcc)
    env = ge.runtime_env(str(venv), str(nvcc))
    assert env["CUDA_HOME"] == str(nvcc.parent.parent)
    assert env["PATH"].split(":")[:2] == [str(nvcc.parent), str(venv / "bin")]
    assert env["PATH"].endswith("/usr/bin:/sbin:/bin")


def test_glibc_version_of_this_machine():
    out = subprocess.run(["ldd", "--version"], capture_output=True, text=True).stdout
    assert ge.glibc_version() and ge.glibc_version() in out
