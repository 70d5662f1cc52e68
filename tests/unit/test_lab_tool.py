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
