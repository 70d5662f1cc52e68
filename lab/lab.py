#!/usr/bin/env python3
"""The specdeploy lab: local container hosts booting real systemd, and a CPU SGLang kit.

Stand-in for GPU hosts on a machine without a GPU. Subcommands (all idempotent):

  deps    install podman, runc, debootstrap, ssh and prometheus (promtool) when missing (apt)
  debs    LAB-ONLY: fetch Debian's prometheus and the dependencies the image lacks into .lab/debs (the
          monitoring scenario installs them on a host that has no network)
  image   build the host image from Debian packages with debootstrap (no registry), cached
  kit     the offline SGLang CPU kit: the hosts' wheelhouse (the wheels of the 0.5.23 and 0.5.22 CPU
          locks and the lab-only shim wheel), a controller venv of the 0.5.23 stack (the resolution
          oracle, also the prebuilt env Molecule mounts), tiny models, and one controller venv per
          SGLang release at $SPECDEPLOY_LAB_KITS/<version> (releases: --releases or
          $SPECDEPLOY_KIT_RELEASES, default all that have a CPU lock in lab/; "none" for none)
  up      start N hosts (default 2), write inventories/lab/hosts.yml
  down    remove the lab hosts
  status  list the lab hosts

Every failure ends with one line saying what went wrong and what to do, exit code 1 (no traceback).
Facts this relies on (rlimits, cgroups, runc, debootstrap recipe) are in shared/reference/lab-hosts.md.
"""
import argparse
import base64
import glob
import hashlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAB = os.environ.get("SPECDEPLOY_LAB_DIR", os.path.join(ROOT, ".lab"))
IMAGE = os.environ.get("SPECDEPLOY_LAB_IMAGE", "localhost/specdeploy-debian-systemd:bookworm")
LABEL = "io.specdeploy.lab=1"
PREFIX = os.environ.get("SPECDEPLOY_LAB_PREFIX", "specdeploy-lab-")
LOCK_DIR = os.path.join(ROOT, "lab")
LOCK = os.path.join(LOCK_DIR, "sglang-0.5.23-cpu.lock")
# The releases whose wheels the hosts' wheelhouse holds (the upgrade scenario installs 0.5.22, then 0.5.23).
WHEELHOUSE_RELEASES = ("0.5.23", "0.5.22")
# Kits built on every `kit` run whatever the sample, and made LAB-ONLY prebuilt envs of their lock: the
# upgrade scenario (env_host) starts its hosts on 0.5.22 from this one, and installs for real only its bump.
PREBUILT_KITS = ("0.5.22",)
# Per-release controller venvs (the one name for this folder; tests and tools read the same variable).
KITS = os.environ.get("SPECDEPLOY_LAB_KITS", os.path.join(LAB, "kits"))
# The local CPU torch wheel's folder (this machine kind's pip config points there too; uv ignores that).
TORCH_WHEELS = os.environ.get("SPECDEPLOY_LAB_TORCH_WHEELS", "/opt/wheels")
UV_CACHE = os.environ.get("UV_CACHE_DIR", os.path.join(LAB, "uv-cache"))
REQS_IN = os.path.join(ROOT, "lab", "sglang-cpu-requirements.in")
WHEELHOUSE = os.path.join(LAB, "wheelhouse")
MODELS = os.path.join(LAB, "models")
ORACLE_VENV = os.path.join(LAB, "sglang-venv")
SHIM_SRC = os.path.join(ROOT, "lab", "shim")
SHIM_VERSION = "1.1.0"
# Paths inside the lab hosts where the kit is mounted read-only.
HOST_WHEELHOUSE = "/srv/specdeploy-lab/wheelhouse"
HOST_MODELS = "/srv/specdeploy-lab/models"
# LAB-ONLY: Debian packages a scenario installs on its hosts from .deb files fetched on the controller (`debs`):
# Debian's Prometheus for the monitoring scenario, mounted at HOST_DEBS_DIR
HOST_DEBS = ("prometheus",)
DEBS = os.path.join(LAB, "debs")
HOST_DEBS_DIR = "/srv/specdeploy-lab/debs"
DEBIAN_PACKAGES = [
    "systemd", "systemd-sysv", "dbus", "python3", "python3-venv", "sudo", "iproute2", "procps",
    "ca-certificates", "apt-utils",
    # Ansible reaches lab hosts over ssh, as production hosts: lab/ssh_proxy runs this sshd in inetd
    # mode over `podman exec -i` (no port, no daemon: ssh.service is disabled in the image)
    "openssh-server",
]
# LAB-ONLY: the bytecode cache of zip-imported modules (Ansible's task payloads) for the hosts' python3
PYC_HOOK = os.path.join(ROOT, "lab", "pyc", "specdeploy_lab_pyc.py")
# The image's label: a cached image built from another package list or hook is rebuilt
with open(PYC_HOOK, "rb") as _hook:
    IMAGE_KEY = hashlib.sha256(json.dumps(DEBIAN_PACKAGES).encode() + _hook.read()).hexdigest()[:16]
SSH_DIR = os.environ.get("SPECDEPLOY_LAB_SSH", os.path.join(LAB, "ssh"))
# Debian's own interpreter: its venvs run unchanged on the hosts' python3.11 (same path, same ABI).
KIT_PYTHON = os.environ.get("SPECDEPLOY_KIT_PYTHON", "/usr/bin/python3.11")


class LabError(Exception):
    pass


def log(msg):
    print(f"lab: {msg}", flush=True)


def run(cmd, check=True, capture=False, what=None, env=None, input=None, cwd=None):
    try:
        proc = subprocess.run(cmd, check=False, text=True, env=env, input=input, cwd=cwd,
                              stdout=subprocess.PIPE if capture else None,
                              stderr=subprocess.PIPE if capture else None)
    except FileNotFoundError:
        raise LabError(f"{what or cmd[0]}: command not found: {cmd[0]}")
    if check and proc.returncode != 0:
        detail = (proc.stderr or "").strip().splitlines()[-3:] if capture else []
        raise LabError(f"{what or ' '.join(cmd[:3])} failed (exit {proc.returncode})"
                       + (": " + " | ".join(detail) if detail else ""))
    return proc


def podman_env():
    env = dict(os.environ)
    env.setdefault("CONTAINERS_CONF", os.path.join(ROOT, "containers.conf"))
    return env


def podman(*args, check=True, capture=True, what=None):
    if not shutil.which("podman"):
        raise LabError("podman is not installed; run `make lab-deps` (or `python3 lab/lab.py deps`)")
    return run(["podman", *args], check=check, capture=capture, what=what or f"podman {args[0]}",
               env=podman_env())


# ---------------------------------------------------------------- deps
def cmd_deps(_args):
    # prometheus: its promtool checks the monitoring role's generated files (make monitoring-check)
    missing = [p for p, b in (("podman", "podman"), ("runc", "runc"), ("debootstrap", "debootstrap"),
                              ("openssh-client", "ssh"), ("prometheus", "promtool"))
               if not shutil.which(b) and not os.path.exists(f"/usr/sbin/{b}")]
    if not missing:
        log("podman, runc, debootstrap, ssh and promtool are present")
        return
    if not shutil.which("apt-get"):
        raise LabError(f"{', '.join(missing)} missing and apt-get is not available: install them "
                       "with this system's package manager")
    if os.geteuid() != 0:
        raise LabError(f"{', '.join(missing)} missing; installing needs root (try: sudo apt-get "
                       f"install -y {' '.join(missing)})")
    log(f"installing {' '.join(missing)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update", "-qq"], capture=True, env=env, what="apt-get update")
    run(["apt-get", "install", "-y", "-qq", *missing], capture=True, env=env,
        what=f"apt-get install {' '.join(missing)} (is the Debian mirror reachable?)")
    log("installed " + " ".join(missing))


# ---------------------------------------------------------------- debs
def image_packages():
    """The Debian packages installed in the lab image (dpkg inside a throwaway container, no network)."""
    out = podman("run", "--rm", "--network", "none", IMAGE, "dpkg-query", "-W", "-f", "${Package}\\n",
                 what="dpkg-query in the lab image (run `make lab-image`)").stdout
    return set(out.split())


def _depends(package):
    """The dependency groups (Depends, PreDepends) of a package: [[alternative, ...], ...], a virtual
    package's alternatives being its providers."""
    out = run(["apt-cache", "depends", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks",
               "--no-replaces", "--no-enhances", package], capture=True, what="apt-cache depends " + package).stdout
    groups, current, last = [], [], None
    for line in out.splitlines()[1:]:
        m = re.match(r"^ ([ |])(Pre)?Depends: (\S+)$", line)
        if m:
            name = m.group(3)
            last = [] if name.startswith("<") else [name]
            current.append(last)
            if m.group(1) == " ":
                groups.append(current)
                current = []
        elif line.startswith("    ") and last is not None:
            last.append(line.strip())  # a provider of the virtual package above
    return [[name for alt in group for name in alt] for group in groups]


def closure(packages, have):
    """The packages to install beside `have` (the image's) so that `packages` are installable: each
    dependency group is satisfied by a package already there or chosen, else by its first alternative."""
    chosen, queue = [], list(packages)
    while queue:
        package = queue.pop(0)
        if package in have or package in chosen:
            continue
        chosen.append(package)
        for group in _depends(package):
            if group and not any(alt in have or alt in chosen for alt in group):
                queue.append(group[0])
    return sorted(chosen)


def cmd_debs(_args):
    """LAB-ONLY: the .deb files of HOST_DEBS and every dependency the lab image lacks, fetched on the controller
    from this machine's Debian mirror into .lab/debs: the monitoring scenario installs them on a host with no
    network (apt-get install of the local files)."""
    key = json.dumps({"packages": HOST_DEBS, "image": IMAGE_KEY})
    stamp = os.path.join(DEBS, ".stamp")
    if os.path.exists(stamp) and open(stamp, encoding="utf-8").read() == key:
        log(f"debs of {' '.join(HOST_DEBS)} are cached in {DEBS}")
        return
    need = closure(HOST_DEBS, image_packages())
    shutil.rmtree(DEBS, ignore_errors=True)
    os.makedirs(DEBS)
    run(["apt-get", "download", "-q", *need], capture=True, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
        what="apt-get download (in " + DEBS + "; run apt-get update if the lists are stale)", cwd=DEBS)
    with open(stamp, "w", encoding="utf-8") as handle:
        handle.write(key)
    log(f"fetched {len(need)} .deb files into {DEBS}: {' '.join(need)}")


# ---------------------------------------------------------------- image
def debian_mirror():
    """The Debian mirror this machine's apt already uses (never hard-coded)."""
    candidates = ["/etc/apt/sources.list"]
    d = "/etc/apt/sources.list.d"
    if os.path.isdir(d):
        candidates += [os.path.join(d, f) for f in sorted(os.listdir(d))
                       if f.endswith((".list", ".sources"))]
    for path in candidates:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            continue
        for m in re.finditer(r"^(?:deb\s+(?:\[[^\]]*\]\s+)?|URIs:\s*)(\S+)", text, re.M):
            uri = m.group(1).rstrip("/")
            if "security" not in uri and uri.startswith(("http://", "https://")):
                return uri
    raise LabError("could not find a Debian mirror in /etc/apt/sources.list(.d); "
                   "set SPECDEPLOY_DEBIAN_MIRROR")


def ssh_key():
    """LAB-ONLY: the key Ansible logs in to lab hosts with (lab/ssh_proxy accepts exactly this one)."""
    key = os.path.join(SSH_DIR, "id_ed25519")
    if not os.path.exists(key + ".pub"):
        os.makedirs(SSH_DIR, mode=0o700, exist_ok=True)
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "specdeploy-lab", "-f", key], capture=True,
            what="ssh-keygen (the lab key)")
        log(f"lab ssh key {key}")
    return key


def cmd_image(args):
    ssh_key()
    cached = podman("image", "inspect", "-f", '{{ index .Labels "specdeploy.packages" }}', IMAGE, check=False)
    if cached.returncode == 0 and cached.stdout.strip() == IMAGE_KEY and not args.rebuild:
        log(f"image {IMAGE} is cached")
        return
    if cached.returncode == 0 and not args.rebuild:
        log(f"image {IMAGE} was built from another package list or hook: rebuilding it")
    if not (shutil.which("debootstrap") or os.path.exists("/usr/sbin/debootstrap")):
        raise LabError("debootstrap is not installed; run `make lab-deps`")
    mirror = os.environ.get("SPECDEPLOY_DEBIAN_MIRROR") or debian_mirror()
    os.makedirs(LAB, exist_ok=True)
    rootfs = tempfile.mkdtemp(prefix="rootfs-", dir=LAB)
    t0 = time.time()
    try:
        log(f"debootstrap bookworm from {mirror} (about 45 s)")
        run(["debootstrap", "--variant=minbase", "--include=" + ",".join(DEBIAN_PACKAGES),
             "bookworm", rootfs, mirror], capture=True,
            what=f"debootstrap from {mirror} (image build failed; is the mirror reachable?)")
        run(["chroot", rootfs, "apt-get", "clean"], capture=True, what="apt-get clean in rootfs")
        # sshd runs per connection (lab/ssh_proxy), never as a daemon
        run(["chroot", rootfs, "systemctl", "disable", "ssh.service", "ssh.socket"], capture=True,
            what="disable ssh.service in rootfs")
        site = os.path.join(rootfs, "usr", "lib", "python3", "dist-packages")
        shutil.copyfile(PYC_HOOK, os.path.join(site, os.path.basename(PYC_HOOK)))
        with open(os.path.join(site, "specdeploy_lab_pyc.pth"), "w", encoding="utf-8") as handle:
            handle.write("import specdeploy_lab_pyc\n")
        lists = os.path.join(rootfs, "var/lib/apt/lists")
        for f in os.listdir(lists):
            p = os.path.join(lists, f)
            if os.path.isfile(p):
                os.unlink(p)
        open(os.path.join(rootfs, "etc/machine-id"), "w").close()
        tar = subprocess.Popen(["tar", "-C", rootfs, "-c", "."], stdout=subprocess.PIPE)
        imp = subprocess.run(["podman", "import", "--change", 'CMD ["/sbin/init"]',
                              "--change", "ENV container=podman",
                              "--change", f"LABEL specdeploy.packages={IMAGE_KEY}", "-", IMAGE],
                             stdin=tar.stdout, capture_output=True, text=True, env=podman_env())
        tar.stdout.close()
        tar.wait()
        if imp.returncode != 0 or tar.returncode != 0:
            raise LabError("podman import failed: " + imp.stderr.strip()[-300:])
    finally:
        shutil.rmtree(rootfs, ignore_errors=True)
    log(f"built image {IMAGE} in {time.time() - t0:.0f} s")


# ---------------------------------------------------------------- kit
def _wheel_bytes():
    """The lab-only shim as a wheel, built reproducibly (fixed timestamps) with the stdlib."""
    name = "specdeploy_lab_shim"
    dist = f"{name}-{SHIM_VERSION}.dist-info"
    files = {
        f"{name}.py": open(os.path.join(SHIM_SRC, f"{name}.py"), "rb").read(),
        f"{name}.pth": open(os.path.join(SHIM_SRC, f"{name}.pth"), "rb").read(),
        f"{dist}/METADATA": (
            "Metadata-Version: 2.1\nName: specdeploy-lab-shim\nVersion: " + SHIM_VERSION + "\n"
            "Summary: LAB-ONLY stand-in for sgl_kernel/torchvision on CPU machines. "
            "Never install on a GPU host.\n").encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: specdeploy-lab\nRoot-Is-Purelib: true\n"
                         b"Tag: py3-none-any\n",
    }
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue()


def build_shim_wheel():
    os.makedirs(WHEELHOUSE, exist_ok=True)
    path = os.path.join(WHEELHOUSE, f"specdeploy_lab_shim-{SHIM_VERSION}-py3-none-any.whl")
    data = _wheel_bytes()
    if not os.path.exists(path) or open(path, "rb").read() != data:
        with open(path, "wb") as f:
            f.write(data)
        log(f"built lab-only shim wheel {os.path.basename(path)}")
    for old in os.listdir(WHEELHOUSE):  # one shim in the wheelhouse: pip must not pick an older one
        if old.startswith("specdeploy_lab_shim-") and old != os.path.basename(path):
            os.unlink(os.path.join(WHEELHOUSE, old))
    return path


def lock_path(version):
    return os.path.join(LOCK_DIR, f"sglang-{version}-cpu.lock")


def known_releases():
    """The releases that have a CPU lock in lab/, oldest first."""
    found = []
    for f in os.listdir(LOCK_DIR):
        m = re.match(r"^sglang-(.+)-cpu\.lock$", f)
        if m:
            found.append(m.group(1))
    return sorted(found, key=version_key)


def version_key(v):
    return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"[.]|post", v) if x != "")


def nearest_releases(version, known):
    key = version_key(version)
    below = [k for k in known if version_key(k) < key][-1:]
    above = [k for k in known if version_key(k) > key][:1]
    return below + above or known[-2:]


def _lockfile():
    """plugins/module_utils/lockfile.py (the lock format's one parser), loaded by path: stdlib only."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "specdeploy_lockfile", os.path.join(ROOT, "plugins", "module_utils", "lockfile.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def lock_entries(lock=LOCK):
    lockfile = _lockfile()
    try:
        reqs = lockfile.parse_requirements(open(lock, encoding="utf-8").read())
    except (OSError, lockfile.LockError) as e:
        raise LabError(f"{lock}: {e}")
    return [(r["name"], r["version"], r["hashes"]) for r in reqs]


def wheelhouse_complete(lock=LOCK):
    have = {}
    if os.path.isdir(WHEELHOUSE):
        for f in os.listdir(WHEELHOUSE):
            if f.endswith(".whl"):
                n, v = f.split("-")[:2]
                have[(n.replace("_", "-").lower(), v)] = f
    return [(n, v) for n, v, _h in lock_entries(lock) if (n.lower(), v) not in have]


def mark_prebuilt_env(venv=ORACLE_VENV, lock=LOCK, by="the server and fleet scenarios"):
    """LAB-ONLY: a venv built from the same lock and wheels as the gpu_env role (plus the shim) gets what
    the role leaves in a finished env: the lock and the completion marker (the role only checks that
    the marker exists). Scenarios mount it read-only on their hosts instead of installing 2.9 GB per
    host, after checking its lock is this checkout's (molecule/shared/prebuilt_env.yml); the
    gpu_env_weights and env_host scenarios still install for real."""
    shutil.copyfile(lock, os.path.join(venv, "specdeploy.lock"))
    marker = {"lock_file_sha256": hashlib.sha256(open(lock, "rb").read()).hexdigest(), "lab_shim": True,
              "prebuilt_by": f"lab/lab.py kit (LAB-ONLY, mounted read-only by {by})"}
    with open(os.path.join(venv, ".specdeploy-complete"), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(marker, indent=4, sort_keys=True) + "\n")


def prebuild_kit(version):
    """LAB-ONLY: the kit of `version` made a finished env of its lock (PREBUILT_KITS). Its bytecode is
    compiled once, in full: the hosts mount it read-only and run it as a non-root user, so without it
    every start of the server would compile SGLang, torch and transformers again."""
    venv = os.path.join(KITS, version)
    stamp = os.path.join(venv, ".specdeploy-kit.json")
    state = json.load(open(stamp, encoding="utf-8"))
    if not state.get("bytecode"):
        t0 = time.time()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        run([os.path.join(venv, "bin", "python"), "-m", "compileall", "-q", "-j", "0",
             glob.glob(os.path.join(venv, "lib", "python3*", "site-packages"))[0]],
            check=False, capture=True, env=env, what=f"bytecode of the {version} kit")
        state["bytecode"] = round(time.time() - t0, 1)
        with open(stamp, "w", encoding="utf-8") as f:
            f.write(json.dumps(state, indent=2, sort_keys=True) + "\n")
    mark_prebuilt_env(venv, lock_path(version), by="the env_host scenario, as its starting release")


def kit_releases(arg):
    """The releases to build kits for: --releases, else $SPECDEPLOY_KIT_RELEASES, else all known."""
    want = arg if arg is not None else os.environ.get("SPECDEPLOY_KIT_RELEASES", "all")
    known = known_releases()
    if want.strip() in ("", "all"):
        return known
    if want.strip() == "none":
        return []
    out = []
    for v in [x.strip() for x in want.replace(",", " ").split() if x.strip()]:
        if v not in known:
            near = ", ".join(nearest_releases(v, known))
            raise LabError(f"no CPU lock for SGLang {v} (nearest known: {near}); add the release with "
                           f"`make lock-cpu SGLANG={v}`, review the new lab/sglang-{v}-cpu.lock, then `make lab-kit`")
        out.append(v)
    return out


def fill_wheelhouse():
    for version in WHEELHOUSE_RELEASES:
        lock = lock_path(version)
        missing = wheelhouse_complete(lock)
        if missing:
            log(f"wheelhouse: fetching {len(missing)} pinned wheels of SGLang {version} (hash-checked) into {WHEELHOUSE}")
            os.makedirs(WHEELHOUSE, exist_ok=True)
            run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--require-hashes",
                 "-r", lock, "-d", WHEELHOUSE], capture=True,
                what=f"pip download of the SGLang {version} CPU stack (PyPI and the local torch wheel needed)")
        else:
            log(f"wheelhouse has SGLang {version}")


# The files of a release's argument resolution that tests/oracle/refusals.py enumerates refusals in.
SOURCE_FILES = re.compile(r"^sglang/srt/(server_args\.py|arg_groups/.*\.py)$")
MODULE_REF = re.compile(r"\b(sglang(?:\.\w+)+)")


def fill_sources():
    """Every known release's argument-resolution source under .lab/src/<version>/sglang, for the releases
    with no kit here: the oracle's check that each tests/oracle/inexpressible.py entry still matches a
    refusal reads every release, while a `make test` run builds only the sampled releases' kits. The
    sglang wheel alone, pinned by its CPU lock's sha256 (about 1 s and 12-35 MB each)."""
    for version in known_releases():
        dest = os.path.join(LAB, "src", version, "sglang")
        kit_pkg = glob.glob(os.path.join(KITS, version, "lib", "python3*", "site-packages", "sglang"))
        if os.path.isdir(dest) or kit_pkg:
            continue
        lines = open(lock_path(version), encoding="utf-8").read().splitlines()
        start = [i for i, line in enumerate(lines) if line.startswith(f"sglang=={version} ")]
        if not start:
            raise LabError(f"{lock_path(version)} pins no sglang=={version}")
        req = [lines[start[0]]]
        for line in lines[start[0] + 1:]:
            if not line.strip().startswith("--hash="):
                break
            req.append(line)
        with tempfile.TemporaryDirectory(dir=LAB) as tmp:
            reqfile = os.path.join(tmp, "sglang.lock")
            with open(reqfile, "w", encoding="utf-8") as f:
                f.write("\n".join(req) + "\n")
            run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--require-hashes",
                 "--only-binary=:all:", "-r", reqfile, "-d", tmp], capture=True,
                what=f"pip download of the sglang {version} wheel (PyPI needed)")
            wheel = glob.glob(os.path.join(tmp, "sglang-*.whl"))[0]
            out = os.path.join(tmp, "out")
            with zipfile.ZipFile(wheel) as z:
                names = [n for n in z.namelist() if SOURCE_FILES.match(n)]
                # and the modules they import from (refusals.py follows calls through them by name)
                mods = {m for n in names for m in MODULE_REF.findall(z.read(n).decode("utf-8", "replace"))}
                have = set(z.namelist())
                names += sorted({p for m in mods for p in (m.replace(".", "/") + ".py",
                                                           m.replace(".", "/") + "/__init__.py")
                                 if p in have} - set(names))
                z.extractall(out, names)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.rename(os.path.join(out, "sglang"), dest)
        log(f"source of sglang {version}: {len(names)} files in {dest}")


def uv_bin():
    try:
        from uv import find_uv_bin
        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        raise LabError("uv is missing from the dev venv: run `make venv` (requirements-dev.txt pins it)")


# Run by each kit's python: import SGLang's argument code and resolve a DFLASH argv as a GPU host would
# (--device cuda resolves without a GPU); prints one JSON line.
KIT_CHECK = r"""
import contextlib, io, json, sys
out = {"import": False}
try:
    with contextlib.redirect_stderr(io.StringIO()):
        import sglang
        from sglang.srt import server_args as sa_mod
    out["import"] = True
    out["version"] = getattr(sglang, "__version__", None)
    with contextlib.redirect_stderr(io.StringIO()):
        sa = sa_mod.prepare_server_args(sys.argv[1:])
        if hasattr(sa, "resolve_once"):
            sa.resolve_once()
    # 0.5.19 on: the fields keep the raw input, resolved_dict() has what resolution decided
    res = sa.resolved_dict() if hasattr(sa, "resolved_dict") else vars(sa)
    out["resolved"] = {k: res.get(k) for k in (
        "speculative_algorithm", "speculative_num_draft_tokens", "speculative_num_steps",
        "speculative_eagle_topk", "attention_backend", "max_running_requests")}
except BaseException as e:
    out["error"] = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1] if str(e).strip() else "")
print(json.dumps(out, default=str))
"""


def check_kit(version, py):
    argv = ["--model-path", os.path.join(MODELS, "qwen3-8b-config"), "--speculative-algorithm", "DFLASH",
            "--speculative-draft-model-path", os.path.join(MODELS, "qwen3-8b-dflash-b16-config"),
            "--device", "cuda"]
    # The check writes the bytecode of every module the resolver imports (and only those): these machines
    # set PYTHONDONTWRITEBYTECODE, and without bytecode each later import of SGLang recompiles torch,
    # transformers and SGLang from source (~1 min per process on 2 shared cores).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", SPECDEPLOY_LAB_SHIM_MODULES="sgl_kernel,torchvision")
    proc = run([py, "-c", KIT_CHECK, *argv], check=False, capture=True, env=env)
    try:
        answer = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        answer = {"import": False, "error": " | ".join(proc.stderr.strip().splitlines()[-2:])}
    if not answer.get("error") and not (answer.get("resolved") or {}).get("speculative_num_draft_tokens"):
        answer["error"] = "resolution gave no speculative_num_draft_tokens: DFLASH was not resolved"
    return answer


def build_kit(version, shim):
    """One release's controller venv, from its CPU lock, files hard-linked from uv's cache.

    Rebuilt from scratch only when its lock changed; a new shim wheel is installed in place (a kit
    may be in use by another process)."""
    lock = lock_path(version)
    venv = os.path.join(KITS, version)
    py = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, ".specdeploy-kit.json")
    lock_hash = hashlib.sha256(open(lock, "rb").read()).hexdigest()
    shim_hash = hashlib.sha256(open(shim, "rb").read()).hexdigest()
    try:
        state = json.load(open(stamp, encoding="utf-8"))
    except (OSError, ValueError):
        state = {}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
    env["UV_CACHE_DIR"] = UV_CACHE
    uv = uv_bin()
    built = False
    t0 = time.time()
    if state.get("lock_sha256") != lock_hash or not os.path.exists(py):
        shutil.rmtree(venv, ignore_errors=True)
        os.makedirs(KITS, exist_ok=True)
        run([uv, "venv", "--no-config", "-q", "--python", KIT_PYTHON, venv], capture=True, env=env,
            what=f"uv venv for SGLang {version}")
        run([uv, "pip", "install", "--no-config", "-q", "--python", py, "--link-mode", "hardlink", "--no-deps",
             "--require-hashes", "--find-links", TORCH_WHEELS, "-r", lock], capture=True, env=env,
            what=f"install of the SGLang {version} CPU lock into {venv}")
        state, built = {}, True
    if built or state.get("shim_sha256") != shim_hash:
        run([uv, "pip", "install", "--no-config", "-q", "--python", py, "--link-mode", "hardlink", "--no-deps",
             "--reinstall-package", "specdeploy-lab-shim", shim], capture=True, env=env,
            what="install of the lab-only shim")
        state.pop("check", None)
    if built:
        state.update({"sglang": version, "lock": os.path.relpath(lock, ROOT), "lock_sha256": lock_hash,
                      "build_seconds": round(time.time() - t0, 1)})
    state["shim_sha256"] = shim_hash
    if ("check" not in state or state["check"].get("error") or not os.path.isdir(MODELS)
            or not (state["check"].get("resolved") or {}).get("speculative_num_draft_tokens")):
        t1 = time.time()
        state["check"] = check_kit(version, py)
        state["check_seconds"] = round(time.time() - t1, 1)
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(json.dumps(state, indent=2, sort_keys=True) + "\n")
    return state, built


def cmd_kit(args):
    t0 = time.time()
    if not os.path.exists(KIT_PYTHON):
        raise LabError(f"{KIT_PYTHON} not found: the kit needs Debian's Python 3.11 (python3.11-venv)"
                       " so its venvs run unchanged inside the bookworm hosts")
    releases = kit_releases(args.releases)
    releases += [v for v in PREBUILT_KITS if v not in releases]
    fill_wheelhouse()
    shim = build_shim_wheel()
    py = os.path.join(ORACLE_VENV, "bin", "python")
    stamp = os.path.join(ORACLE_VENV, ".specdeploy-lock-sha256")
    lock_hash = hashlib.sha256(open(LOCK, "rb").read()).hexdigest()
    if not (os.path.exists(stamp) and open(stamp).read().strip() == lock_hash):
        log(f"controller SGLang venv (the resolution oracle) at {ORACLE_VENV}, offline from the wheelhouse")
        shutil.rmtree(ORACLE_VENV, ignore_errors=True)
        run([KIT_PYTHON, "-m", "venv", ORACLE_VENV], capture=True, what="python3.11 -m venv")
        run([py, "-m", "pip", "install", "-q", "--no-index", "--find-links", WHEELHOUSE, "--no-deps",
             "--require-hashes", "-r", LOCK], capture=True, what="offline install of the SGLang stack")
        run([py, "-m", "pip", "install", "-q", "--no-index", "--find-links", WHEELHOUSE, "--no-deps",
             "specdeploy-lab-shim"], capture=True, what="install of the lab-only shim")
        with open(stamp, "w") as f:
            f.write(lock_hash + "\n")
    else:
        log("controller SGLang venv up to date")
    shim_stamp = os.path.join(ORACLE_VENV, ".specdeploy-shim-sha256")
    shim_hash = hashlib.sha256(open(shim, "rb").read()).hexdigest()
    if not (os.path.exists(shim_stamp) and open(shim_stamp).read().strip() == shim_hash):
        run([py, "-m", "pip", "install", "-q", "--no-index", "--find-links", WHEELHOUSE, "--no-deps",
             "--force-reinstall", "specdeploy-lab-shim"], capture=True, what="install of the lab-only shim")
        with open(shim_stamp, "w") as f:
            f.write(shim_hash + "\n")
    mark_prebuilt_env()
    gen = os.path.join(ROOT, "lab", "make_models.py")
    run([py, gen, "--out", MODELS, "--seed", str(args.seed)], capture=False,
        what="tiny model generation")
    failed = []
    for version in releases:
        state, built = build_kit(version, shim)
        check = state.get("check", {})
        res = check.get("resolved") or {}
        how = f"built in {state['build_seconds']} s" if built else "up to date"
        if check.get("error"):
            failed.append(version)
            log(f"kit {version}: {how}; DFLASH resolve FAILED: {check['error']}")
        else:
            log(f"kit {version}: {how}; sglang {check.get('version')} resolves DFLASH "
                f"(draft tokens {res.get('speculative_num_draft_tokens')}, topk {res.get('speculative_eagle_topk')})")
    for version in PREBUILT_KITS:
        if version not in failed:
            prebuild_kit(version)
    fill_sources()
    if releases:
        log(f"per-release kits in {KITS}: {len(releases)} release(s)")
    if failed:
        raise LabError(f"kit(s) {', '.join(failed)} do not import or resolve a DFLASH argv (see "
                       f"{KITS}/<version>/.specdeploy-kit.json); fix the release's pins in its CPU lock "
                       f"(`make lock-cpu SGLANG=<version> LOCK_ARGS=\"--pin NAME==VERSION\"`)")
    log(f"kit ready in {time.time() - t0:.0f} s")


# ---------------------------------------------------------------- hosts
def lab_containers():
    """The lab's hosts (label and name prefix), name -> state."""
    out = podman("ps", "-a", "--filter", f"label={LABEL}", "--format", "{{.Names}} {{.State}}").stdout
    hosts = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
    return {n: st for n, st in hosts.items() if n.startswith(PREFIX)}


def port_free(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def write_inventory(names, publish):
    inv_dir = os.path.join(ROOT, "inventories", "lab")
    os.makedirs(inv_dir, exist_ok=True)
    lines = ["---", "# Written by `lab/lab.py up` (make lab-up). Regenerated on every run; do not edit.",
             "all:", "  children:", "    sglang_servers:", "      hosts:"]
    for i, name in enumerate(names):
        lines.append(f"        {name}:")
        lines.append(f"          ansible_host: {name}")
        if publish:
            lines.append(f"          lab_published_port: {publish + i}")
    # the connection (ssh through lab/ssh_proxy) is the lab group_vars' and the Makefile's
    lines += [""]
    path = os.path.join(inv_dir, "hosts.yml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return path


def wait_running(name, timeout=60):
    deadline = time.time() + timeout
    state = ""
    while time.time() < deadline:
        p = podman("exec", name, "systemctl", "is-system-running", check=False)
        state = p.stdout.strip()
        if state in ("running", "degraded"):
            return state
        time.sleep(0.3)
    raise LabError(f"host {name} did not finish booting in {timeout} s (systemd says {state!r}); "
                   f"see `podman logs {name}`")


def cmd_up(args):
    if args.count < 1 or args.count > 16:
        raise LabError(f"--count must be between 1 and 16, got {args.count}")
    names = [f"{PREFIX}{i}" for i in range(1, args.count + 1)]
    existing = lab_containers()
    # a container of the same name not made by the lab is a clash, not ours to remove
    for name in names:
        if name not in existing and podman("container", "exists", name, check=False).returncode == 0:
            raise LabError(f"a container named {name} exists and was not made by the lab; "
                           f"remove or rename it (podman rm -f {name})")
    if args.publish:
        for i, name in enumerate(names):
            if name not in existing and not port_free(args.publish + i):
                raise LabError(f"port {args.publish + i} on 127.0.0.1 (for {name}) is already in use;"
                               f" choose another base with --publish")
    if podman("image", "exists", IMAGE, check=False).returncode != 0:
        raise LabError(f"image {IMAGE} is missing; run `make lab-image` first")
    for d in (WHEELHOUSE, MODELS):
        if not os.path.isdir(d):
            raise LabError(f"{d} is missing; run `make lab-kit` first")
    started = []
    for i, name in enumerate(names):
        state = existing.get(name)
        if state and state.startswith("running"):
            continue
        if state:
            podman("start", name, what=f"podman start {name}")
        else:
            net = ["--network", "none"]
            if args.publish:
                net = ["-p", f"127.0.0.1:{args.publish + i}:30000"]
            podman("run", "-d", "--name", name, "--hostname", name, "--label", LABEL, *net,
                   "--systemd=always", "-v", f"{WHEELHOUSE}:{HOST_WHEELHOUSE}:ro",
                   "-v", f"{MODELS}:{HOST_MODELS}:ro", IMAGE, "/sbin/init",
                   what=f"podman run {name}")
        started.append(name)
    for name in names:
        wait_running(name)
    for extra in sorted(set(existing) - set(names)):
        podman("rm", "-f", extra, what=f"podman rm {extra}")
        log(f"removed surplus host {extra}")
    path = write_inventory(names, args.publish)
    log(f"{len(names)} hosts running ({', '.join(names)}); started now: {', '.join(started) or 'none'}")
    log(f"inventory written to {os.path.relpath(path, ROOT)}")


def cmd_down(_args):
    if not shutil.which("podman"):
        log("podman is not installed: no lab hosts to remove")
        return
    names = sorted(lab_containers())
    if names:
        podman("rm", "-f", "-t", "2", *names, what="podman rm")
    inv = os.path.join(ROOT, "inventories", "lab", "hosts.yml")
    if os.path.exists(inv):
        os.unlink(inv)
    log(f"removed {len(names)} lab hosts" + (f": {', '.join(names)}" if names else ""))


def cmd_status(_args):
    hosts = lab_containers()
    if not hosts:
        log("no lab hosts")
    for name, state in sorted(hosts.items()):
        print(f"{name}\t{state}")


def main(argv=None):
    p = argparse.ArgumentParser(prog="lab", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("deps")
    sub.add_parser("debs")
    pi = sub.add_parser("image")
    pi.add_argument("--rebuild", action="store_true")
    pk = sub.add_parser("kit")
    pk.add_argument("--seed", type=int, default=1234)
    pk.add_argument("--releases", default=None,
                    help="SGLang releases to build controller kits for (comma list, 'all' or 'none'; "
                         "default $SPECDEPLOY_KIT_RELEASES or all)")
    pu = sub.add_parser("up")
    pu.add_argument("--count", "-n", type=int, default=int(os.environ.get("LAB_HOSTS", "2")))
    pu.add_argument("--publish", type=int, default=0,
                    help="publish each host's port 30000 on 127.0.0.1:<base+i> (default: no network)")
    sub.add_parser("down")
    sub.add_parser("status")
    args = p.parse_args(argv)
    try:
        {"deps": cmd_deps, "debs": cmd_debs, "image": cmd_image, "kit": cmd_kit, "up": cmd_up, "down": cmd_down,
         "status": cmd_status}[args.cmd](args)
    except LabError as e:
        print(f"lab: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("lab: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
