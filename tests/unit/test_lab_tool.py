"""The lab tool ends bad input and broken prerequisites with one clear line, never a traceback."""
import os
import shutil
import socket
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAB = os.path.join(ROOT, "lab", "lab.py")


def run_lab(*args, env=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, LAB, *args], capture_output=True, text=True,
                          env=full_env, timeout=300)


def assert_clean_failure(proc, *needles):
    assert proc.returncode == 1, proc
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.startswith("lab: error: "), proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


def test_podman_missing_and_not_installable(tmp_path):
    # a PATH with neither podman nor apt-get: the tool must say what to do, not crash
    proc = run_lab("deps", env={"PATH": str(tmp_path)})
    assert_clean_failure(proc, "podman", "apt-get is not available")


def test_up_without_podman(tmp_path):
    proc = run_lab("up", env={"PATH": str(tmp_path)})
    assert_clean_failure(proc, "podman is not installed", "make lab-deps")


def test_bad_host_count():
    proc = run_lab("up", "--count", "0")
    assert_clean_failure(proc, "--count must be between 1 and 16")


def test_port_clash_is_refused_before_starting_anything():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        # a prefix of its own, so fresh names are checked whether or not the lab is up; only this
        # prefix's containers are compared (make test runs Molecule scenarios beside the unit tests)
        listing = ["podman", "ps", "-a", "--filter", "name=^specdeploy-labtest-", "--format", "{{.Names}}"]
        before = subprocess.run(listing, capture_output=True, text=True).stdout
        proc = run_lab("up", "--count", "1", "--publish", str(port),
                       env={"SPECDEPLOY_LAB_PREFIX": "specdeploy-labtest-"})
        after = subprocess.run(listing, capture_output=True, text=True).stdout
    assert_clean_failure(proc, f"port {port}", "already in use")
    assert before == after


def test_image_build_failure_is_reported():
    proc = run_lab("image", env={"SPECDEPLOY_LAB_IMAGE": "localhost/specdeploy-test-broken:none",
                                 "SPECDEPLOY_DEBIAN_MIRROR": "http://mirror.invalid/debian"})
    assert_clean_failure(proc, "debootstrap from http://mirror.invalid/debian", "image build failed")
    exists = subprocess.run(["podman", "image", "exists", "localhost/specdeploy-test-broken:none"])
    assert exists.returncode != 0


def test_kit_for_an_unknown_release_names_the_nearest_and_the_command(tmp_path):
    # refused before anything is fetched or built: the kits folder stays untouched
    kits = tmp_path / "kits"
    proc = run_lab("kit", "--releases", "0.5.23,0.5.17.5", env={"SPECDEPLOY_LAB_KITS": str(kits)})
    assert_clean_failure(proc, "no CPU lock for SGLang 0.5.17.5", "nearest known: 0.5.17, 0.5.18",
                         "make lock-cpu SGLANG=0.5.17.5")
    assert not kits.exists()


def test_kit_releases_from_the_environment_are_checked_too(tmp_path):
    proc = run_lab("kit", env={"SPECDEPLOY_KIT_RELEASES": "0.5.99", "SPECDEPLOY_LAB_KITS": str(tmp_path / "k")})
    assert_clean_failure(proc, "no CPU lock for SGLang 0.5.99", "nearest known: 0.5.23", "make lock-cpu SGLANG=0.5.99")


# `apt-cache depends --no-recommends ...` as Debian 12's apt prints it (captured 2026-12-05), trimmed
APT_DEPENDS = {
    "prometheus": "prometheus\n  PreDepends: init-system-helpers\n  Depends: adduser\n  Depends: libjs-rickshaw\n"
                  "  Depends: libc6\n",
    "init-system-helpers": "init-system-helpers\n |Depends: usrmerge\n  Depends: usr-is-merged\n    usrmerge\n",
    "libjs-rickshaw": "libjs-rickshaw\n  Depends: libjs-d3\n",
    "libjs-d3": "libjs-d3\n  Depends: <debconf-2.0>\n    cdebconf\n    debconf\n",
}


def test_debs_closure_is_what_the_image_lacks_with_first_alternatives(monkeypatch):
    sys.path.insert(0, os.path.join(ROOT, "lab"))
    try:
        import lab as labtool
    finally:
        sys.path.pop(0)

    def fake_run(cmd, **_kw):
        return subprocess.CompletedProcess(cmd, 0, APT_DEPENDS.get(cmd[-1], cmd[-1] + "\n"), "")

    monkeypatch.setattr(labtool, "run", fake_run)
    assert labtool._depends("init-system-helpers") == [["usrmerge", "usr-is-merged", "usrmerge"]]
    assert labtool._depends("libjs-d3") == [["cdebconf", "debconf"]]
    # an image holding the base system: only what it lacks, alternatives it satisfies not fetched
    have = {"adduser", "libc6", "init-system-helpers", "usr-is-merged", "debconf"}
    assert labtool.closure(("prometheus",), have) == ["libjs-d3", "libjs-rickshaw", "prometheus"]
    # an image without debconf: the virtual package's first provider
    assert "cdebconf" in labtool.closure(("prometheus",), have - {"debconf"})
