"""Hash-pinned SGLang locks for GPU hosts (docs/locks.md): `specdeploy lock` of the collection's command line.

    specdeploy lock cuda 0.5.23 [--out FILE]                  # ./sglang-0.5.23-cu13.lock
    specdeploy lock cuda 0.5.23+pr29907 --extra-wheel dist/sglang-0.5.23+pr29907-py3-none-any.whl
    specdeploy lock check LOCK [LOCK ...]

Resolution is uv's (`uv pip compile --no-config` for the target platform and Python, so it runs on
a machine without a GPU and ignores the machine's pip configuration), bounded by an
`--exclude-newer` timestamp that the lock records: rerunning its generated_by line regenerates it
byte for byte. Each pin keeps the sha256 of the wheel that pip installs for each target Python
(chosen with packaging's tag order, as pip does); sizes come from the index's JSON API (PEP 691/700).
An SGLang wheel given with --extra-wheel (a build no index serves, e.g. of a pull request) is hashed
into the lock, and the tree-verify flavors its source carries are written to the header
(tree_verify=...), which preflight compares with what a `verify: tree` instance needs.

Exit status: 0 done, 1 a lock failed its check, 2 bad input or a resolution/index failure (one line,
no traceback). A checkout of the collection wraps this module for its developers (its lab's CPU locks,
regeneration of the shipped locks) and sets the module-level settings below.
"""
import argparse
import concurrent.futures
import datetime
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

from packaging import tags as ptags
from packaging.utils import parse_wheel_filename, parse_sdist_filename, canonicalize_name

# the collection's root (a checkout or the installed copy): <root>/bin/this file
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "specdeploy_lockfile", os.path.join(ROOT, "plugins", "module_utils", "lockfile.py"))
lockfile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lockfile)
_spec = importlib.util.spec_from_file_location(
    "specdeploy_digest", os.path.join(ROOT, "plugins", "module_utils", "digest.py"))
digest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(digest)

PROG = "specdeploy lock"
DEFAULT_INDEX = "https://pypi.org/simple"
# Where `cuda` writes without --out: the working directory (a checkout's developer wrapper: the gpu_env
# role's files/, where shipped locks live); paths in generated_by are relative to REL_BASE.
OUT_DIR = None
REL_BASE = None
CUDA_PLATFORM = "x86_64-manylinux_2_34"
CUDA_PYTHONS = "3.11,3.12"
# NVIDIA's minimum Linux driver per CUDA toolkit minor (CUDA Toolkit release notes, table 3:
# "CUDA Toolkit and Corresponding Driver Versions", 13.0 GA). Another minor needs --driver-min.
DRIVER_MIN = {"13.0": "580.65.06"}
_CACHE_HOME = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
# uv's cache (None: uv's own default) and the index listings this tool keeps
UV_CACHE = os.environ.get("UV_CACHE_DIR")
INDEX_CACHE = os.path.join(_CACHE_HOME, "specdeploy", "lock-index-cache")


class LockToolError(Exception):
    pass


def log(msg):
    print("lock: %s" % msg, file=sys.stderr, flush=True)


def cuda_lock_path(version):
    return os.path.join(OUT_DIR or os.getcwd(), "sglang-%s-cu13.lock" % version)


# ------------------------------------------------------------------ uv
def uv_bin():
    try:
        from uv import find_uv_bin
        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        pass
    import shutil
    found = shutil.which("uv")
    if not found:
        raise LockToolError("uv is not installed: `python3 -m pip install uv` (or put uv on PATH); it resolves "
                            "the lock without downloading the wheels")
    return found


def uv_compile(requirements, python, platform, exclude_newer, index, find_links=None, constraints=(),
               no_deps=False):
    """{name: (version, set(hashes))} from `uv pip compile` for one Python and platform."""
    with tempfile.TemporaryDirectory(prefix="lock-") as tmp:
        req = os.path.join(tmp, "req.in")
        with open(req, "w", encoding="utf-8") as f:
            f.write("\n".join(requirements) + "\n")
        cmd = [uv_bin(), "pip", "compile", "--no-config", "--quiet", "--generate-hashes", "--no-header",
               "--no-annotate", "--python-version", python, "--python-platform", platform,
               "--exclude-newer", exclude_newer, "--index-url", index, req]
        if UV_CACHE:
            cmd += ["--cache-dir", UV_CACHE]
        if find_links:
            cmd += ["--find-links", find_links]
        if no_deps:
            cmd += ["--no-deps"]
        if constraints:
            con = os.path.join(tmp, "constraints.txt")
            with open(con, "w", encoding="utf-8") as f:
                f.write("\n".join(constraints) + "\n")
            cmd += ["--constraint", con]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("UV_", "PIP_"))}
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if proc.returncode != 0:
            tail = " | ".join(proc.stderr.strip().splitlines()[-6:])
            raise LockToolError("uv could not resolve %s for Python %s on %s: %s"
                                % (", ".join(requirements[:3]), python, platform, tail))
    out = {}
    # a local wheel (--extra-wheel) comes back as "name @ file:///.../name-1.0-py3-none-any.whl": its version
    text = re.sub(r"(?m)^(\S+) @ file://\S*/([^/\s]+\.whl)",
                  lambda m: "%s==%s" % (m.group(1), parse_wheel_filename(m.group(2))[1]), proc.stdout)
    for r in lockfile.parse_requirements(text):
        out[r["name"]] = (r["version"], set(r["hashes"]))
    return out


# ------------------------------------------------------------------ files and tags
def target_tags(python, platform):
    """Tags a CPython `python` on `platform` (ARCH-manylinux_X_Y) accepts, best first (pip's order)."""
    arch, _sep, tag = platform.partition("-")
    m = re.match(r"^manylinux_(\d+)_(\d+)$", tag)
    if not m:
        raise LockToolError("platform %r: expected ARCH-manylinux_X_Y such as x86_64-manylinux_2_34" % platform)
    major, minor = int(m.group(1)), int(m.group(2))
    plats = ["manylinux_%d_%d_%s" % (major, v, arch) for v in range(minor, 4, -1)]
    legacy = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
    for glibc_minor, name in legacy.items():
        if glibc_minor <= minor:
            idx = plats.index("manylinux_2_%d_%s" % (glibc_minor, arch))
            plats.insert(idx + 1, "%s_%s" % (name, arch))
    plats.append("linux_%s" % arch)
    ver = tuple(int(x) for x in python.split("."))
    interp = "cp%d%d" % ver
    order = list(ptags.cpython_tags(ver, abis=[interp], platforms=plats))
    order += list(ptags.compatible_tags(ver, interpreter=interp, platforms=plats))
    return {t: i for i, t in enumerate(order)}


def wheel_glibc(filename):
    """The glibc a wheel's best Linux tag needs (manylinux_2_34 -> (2, 34)), None when it needs none."""
    best = None
    for t in parse_wheel_filename(filename)[3]:
        m = re.match(r"^manylinux_(\d+)_(\d+)_", t.platform)
        legacy = {"manylinux2014": (2, 17), "manylinux2010": (2, 12), "manylinux1": (2, 5)}
        g = (int(m.group(1)), int(m.group(2))) if m else legacy.get(t.platform.split("_")[0])
        if g and (best is None or g < best):
            best = g
    return best


def index_files(index, name, exclude_newer):
    """The index's files of a project (PEP 691 JSON): [{filename, sha256, size, upload_time, yanked}].

    A listing fetched after the exclude-newer time holds every file uploaded before it, so it is kept
    (per index and project) and reused by later runs with an earlier or equal bound."""
    url = "%s/%s/" % (index.rstrip("/"), canonicalize_name(name))
    cache = os.path.join(INDEX_CACHE, digest.sha256_text(url)[:32] + ".json")
    stamp = datetime.datetime.strptime(exclude_newer, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()
    data = None
    if os.path.exists(cache) and os.path.getmtime(cache) > stamp:
        try:
            data = json.load(open(cache, encoding="utf-8"))
        except ValueError:
            data = None
    if data is None:
        req = urllib.request.Request(url, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                raw = resp.read()
            data = json.loads(raw)
        except (OSError, ValueError) as e:
            raise LockToolError("index %s: cannot read %s (%s)" % (index, url, e))
        os.makedirs(INDEX_CACHE, exist_ok=True)
        with open(cache + ".tmp", "wb") as f:
            f.write(raw)
        os.replace(cache + ".tmp", cache)
    out = []
    for f in data.get("files", []):
        if "size" not in f:
            raise LockToolError("index %s gives no file sizes (PEP 700) for %s" % (index, name))
        out.append({"filename": f["filename"], "sha256": f.get("hashes", {}).get("sha256"), "url": f.get("url"),
                    "size": f["size"], "upload_time": f.get("upload-time") or "", "yanked": f.get("yanked")})
    return out


def local_files(directory):
    """Wheels of a local folder (find-links) as index_files() entries, hashed here."""
    out = []
    if directory and os.path.isdir(directory):
        for fn in sorted(os.listdir(directory)):
            if fn.endswith(".whl"):
                out.append(file_entry(os.path.join(directory, fn)))
    return out


def file_entry(path):
    return {"filename": os.path.basename(path), "sha256": digest.sha256_file(path), "size": os.path.getsize(path),
            "upload_time": "", "yanked": False, "local": True}


def file_version(filename):
    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[1])
        return str(parse_sdist_filename(filename)[1])
    except Exception:  # noqa: BLE001 -- an odd file name on the index: not a candidate
        return None


def choose_file(files, name, version, python, platform, exclude_newer, uv_hashes=None):
    """The file pip installs for name==version on (python, platform): the best-tagged wheel, else the sdist."""
    from packaging.version import Version
    order = target_tags(python, platform)
    want = Version(version)
    best, best_rank, sdist = None, None, None
    for f in files:
        if f.get("yanked") or (f["upload_time"] and f["upload_time"][:19] > exclude_newer[:19]):
            continue
        v = file_version(f["filename"])
        if v is None or Version(v) != want:
            continue
        if uv_hashes and f["sha256"] not in uv_hashes:
            continue
        if f["filename"].endswith(".whl"):
            ranks = [order[t] for t in parse_wheel_filename(f["filename"])[3] if t in order]
            if ranks and (best_rank is None or min(ranks) < best_rank):
                best, best_rank = f, min(ranks)
        elif f["filename"].endswith((".tar.gz", ".zip")):
            sdist = f
    if best is None and sdist is None:
        raise LockToolError("%s==%s has no file for CPython %s on %s" % (name, version, python, platform))
    return best or sdist


# ------------------------------------------------------------------ lock assembly
def collect(pins, pythons, platform, exclude_newer, index, local, uv_hashes):
    """Per pin: the chosen file per Python. Returns ({name: {python: file}}, problems)."""
    names = sorted(pins)

    def files_of(name):
        mine = [f for f in local if canonicalize_name(parse_wheel_filename(f["filename"])[0]) == name]
        if mine and any(file_version(f["filename"]) == pins[name] or
                        _same_version(file_version(f["filename"]), pins[name]) for f in mine):
            return mine
        return index_files(index, name, exclude_newer) + mine

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        listing = dict(zip(names, pool.map(files_of, names)))
    chosen = {}
    for name in names:
        chosen[name] = {}
        for py in pythons:
            chosen[name][py] = choose_file(listing[name], name, pins[name], py, platform, exclude_newer,
                                           uv_hashes.get(name))
    return chosen


def _same_version(a, b):
    from packaging.version import Version
    try:
        return a is not None and Version(a) == Version(b)
    except Exception:  # noqa: BLE001
        return False


def render(header, intro, pins, chosen):
    lines = [lockfile.format_header(header)] + ["# " + line for line in intro]
    for name in sorted(pins):
        hashes = sorted({f["sha256"] for f in chosen[name].values()})
        lines.append("%s==%s \\" % (name, pins[name]))
        lines += ["    --hash=sha256:%s%s" % (h, " \\" if i < len(hashes) - 1 else "") for i, h in enumerate(hashes)]
        by_file = {}
        for py, f in chosen[name].items():
            by_file.setdefault(f["filename"], []).append(py)
        lines += ["    # %s: %s" % (",".join(pys), fn) for fn, pys in sorted(by_file.items(), key=lambda x: x[1])]
    return "\n".join(lines) + "\n"


def measures(chosen, pythons):
    size = max(sum(chosen[n][py]["size"] for n in chosen) for py in pythons)
    glibcs = [wheel_glibc(f["filename"]) for n in chosen for f in chosen[n].values()
              if f["filename"].endswith(".whl")]
    glibc = max([g for g in glibcs if g] or [(2, 5)])
    return size, "%d.%d" % glibc


def default_stamp():
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    return now.strftime("%Y-%m-%dT%H:%M:%SZ")


def check_stamp(stamp):
    if not re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$", stamp):
        raise LockToolError("--exclude-newer %r: give a UTC timestamp such as 2026-12-01T00:00:00Z" % stamp)
    return stamp


def write(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    log("wrote %s" % rel(path))


def rel(path):
    base = REL_BASE or os.getcwd()
    path = os.path.abspath(path)
    return os.path.relpath(path, base) if path.startswith(base + os.sep) else path


def command_line(sub, version, opts):
    """The canonical command that regenerates the lock exactly (recorded as generated_by)."""
    parts = [PROG, sub, version]
    for flag, value in opts:
        parts += [flag] if value is True else [flag, value]
    return " ".join(shlex.quote(p) for p in parts)


# ------------------------------------------------------------------ cuda
def toolkit_pins(index, version, exclude_newer):
    """What the cuda-toolkit metapackage of `version` requires of each CUDA component ({name: spec}).

    NVIDIA's cuda-toolkit wheel lists every component of that toolkit release under its "all" extra,
    most pinned to the release's build (nvidia-cuda-nvcc==13.0.88.*), a few only bounded (nvjitlink
    <14): those are held to the release's minor (==13.0.*)."""
    from email.parser import Parser
    from packaging.requirements import Requirement
    files = [f for f in index_files(index, "cuda-toolkit", exclude_newer)
             if f["filename"].endswith(".whl") and _same_version(file_version(f["filename"]), version)]
    if not files:
        raise LockToolError("cuda-toolkit==%s has no wheel on %s" % (version, index))
    f = files[0]
    cache = os.path.join(INDEX_CACHE, f["sha256"] + ".whl")
    if not os.path.exists(cache):
        url = urllib.parse.urljoin(index.rstrip("/") + "/cuda-toolkit/", f["url"])
        try:
            with urllib.request.urlopen(url, timeout=120) as resp:
                data = resp.read()
        except OSError as e:
            raise LockToolError("cannot download %s: %s" % (url, e))
        if digest.sha256_bytes(data) != f["sha256"]:
            raise LockToolError("%s: sha256 differs from the index" % f["filename"])
        with open(cache, "wb") as out:
            out.write(data)
    import zipfile
    with zipfile.ZipFile(cache) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        msg = Parser().parsestr(z.read(meta).decode("utf-8"))
    minor = ".".join(version.split(".")[:2])
    out = {}
    for line in msg.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if not req.marker or "extra" not in str(req.marker) or not req.marker.evaluate(
                {"extra": "all", "sys_platform": "linux", "platform_machine": "x86_64"}):
            continue
        specs = list(req.specifier)
        exact = [sp for sp in specs if sp.operator == "=="]
        out[canonicalize_name(req.name)] = ("==%s" % exact[0].version) if exact else "==%s.*" % minor
    return out


def cuda_hold(pins, cuda, index, exclude_newer):
    """Constraints that hold the CUDA components to the toolkit release the resolution's torch uses."""
    if "cuda-toolkit" not in pins:
        raise LockToolError("the resolution has no cuda-toolkit package: cannot tell its CUDA release "
                            "(give --cuda any and --driver-min)")
    toolkit = pins["cuda-toolkit"]
    minor = ".".join(toolkit.split(".")[:2])
    if cuda and minor != cuda:
        raise LockToolError("this SGLang's torch is built for CUDA %s (cuda-toolkit %s), not %s: "
                            "give --cuda %s" % (minor, toolkit, cuda, minor))
    want = toolkit_pins(index, toolkit, exclude_newer)
    from packaging.specifiers import SpecifierSet
    cons = []
    for name, version in sorted(pins.items()):
        if name in want and version not in SpecifierSet(want[name]):
            cons.append("%s%s" % (name, want[name]))
    return minor, cons


def cmd_cuda(args):
    stamp = check_stamp(args.exclude_newer or default_stamp())
    pythons = [p.strip() for p in args.python.split(",") if p.strip()]
    if not pythons or not all(re.match(r"^3\.\d+$", p) for p in pythons):
        raise LockToolError("--python %r: give a comma list such as 3.11,3.12" % args.python)
    extra, extra_paths = [], {}
    built = []
    if getattr(args, "sglang_source", None):
        built = [build_sglang_wheel(args.sglang_source, args.wheel_dir)]
    for path in list(args.extra_wheel) + built:
        if not (os.path.isfile(path) and path.endswith(".whl")):
            raise LockToolError("--extra-wheel %s: not a wheel file" % path)
        entry = file_entry(path)
        extra.append(entry)
        extra_paths[canonicalize_name(parse_wheel_filename(entry["filename"])[0])] = os.path.abspath(path)
    extra_names = {canonicalize_name(parse_wheel_filename(e["filename"])[0]): e for e in extra}
    version = args.version
    if "sglang" in extra_names:
        wheel_version = str(parse_wheel_filename(extra_names["sglang"]["filename"])[1])
        if wheel_version != version:
            raise LockToolError("--extra-wheel %s is sglang %s, not %s: name the version of the wheel"
                                % (extra_names["sglang"]["filename"], wheel_version, version))
    reqs = ["%s @ file://%s" % (name, path) for name, path in sorted(extra_paths.items())]
    if "sglang" not in extra_names:
        reqs.append("sglang==%s" % version)
    reqs += args.require
    hold = None if args.cuda == "any" else args.cuda
    constraints = list(args.constraint)
    primary = pythons[0]
    log("resolving sglang %s for CUDA (Python %s, %s, exclude-newer %s%s)"
        % (version, primary, args.platform, stamp, ", CUDA held to %s" % hold if hold else ""))
    cuda_found = None
    for _round in range(5):
        closure = uv_compile(reqs, primary, args.platform, stamp, args.index_url, constraints=constraints)
        pins_now = {n: v for n, (v, _h) in closure.items()}
        if not hold:
            cuda_found = ".".join(pins_now.get("cuda-toolkit", "").split(".")[:2]) or None
            break
        cuda_found, drift = cuda_hold(pins_now, hold, args.index_url, stamp)
        if not drift:
            break
        log("holding to CUDA %s: %s" % (hold, ", ".join(drift)))
        constraints += drift
    else:
        raise LockToolError("could not hold the CUDA packages to %s: %s" % (hold, ", ".join(drift)))
    pinned = {n: v for n, (v, _h) in closure.items()}
    # One file serves every Python only if each other Python resolves to exactly these pins.
    for py in pythons[1:]:
        try:
            other = uv_compile(reqs, py, args.platform, stamp, args.index_url,
                               constraints=["%s==%s" % (n, v) for n, v in sorted(pinned.items())
                                            if n not in extra_names])
        except LockToolError as e:
            raise LockToolError("the Python %s lock does not serve Python %s (%s): lock them apart with "
                                "--python %s and --python %s --out ..." % (primary, py, e, primary, py))
        got = {n: v for n, (v, _h) in other.items()}
        if got != pinned:
            diff = sorted(set(got.items()) ^ set(pinned.items()))
            raise LockToolError("Python %s needs other pins than %s: %s; lock them apart"
                                % (py, primary, ", ".join("%s==%s" % d for d in diff[:6])))
    driver = args.driver_min or DRIVER_MIN.get(cuda_found or "")
    if not cuda_found or not driver:
        raise LockToolError("no known driver floor for CUDA %s: give --driver-min (NVIDIA's release notes)"
                            % (cuda_found or "(unheld)"))
    local = list(extra)
    uv_hashes = {n: h for n, (_v, h) in closure.items() if n not in extra_names}
    chosen = collect(pinned, pythons, args.platform, stamp, args.index_url, local, uv_hashes)
    size, glibc = measures(chosen, pythons)
    opts = [("--exclude-newer", stamp)]
    if args.python != CUDA_PYTHONS:
        opts.append(("--python", args.python))
    if args.platform != CUDA_PLATFORM:
        opts.append(("--platform", args.platform))
    if args.cuda != "13.0":
        opts.append(("--cuda", args.cuda))
    if args.driver_min:
        opts.append(("--driver-min", args.driver_min))
    opts += [("--require", r) for r in args.require] + [("--constraint", c) for c in args.constraint]
    opts += [("--extra-wheel", rel(p)) for p in args.extra_wheel]
    if built:
        opts += [("--sglang-source", args.sglang_source), ("--wheel-dir", rel(args.wheel_dir))]
    if args.index_url != DEFAULT_INDEX:
        opts.append(("--index-url", args.index_url))
    out = args.out or cuda_lock_path(version)
    if args.out:
        opts.append(("--out", rel(out)))
    out = args.write_to or out
    header = {"sglang": version, "flavor": "cu13", "python": ",".join(pythons), "platform": args.platform,
              "glibc_min": glibc, "cuda": cuda_found, "driver_min": driver, "download_bytes": size,
              "exclude_newer": stamp, "generated_by": command_line("cuda", version, opts)}
    if "sglang" in extra_paths:
        flavors = wheel_tree_flavors(extra_paths["sglang"])
        log("tree-verify flavors in %s: %s" % (os.path.basename(extra_paths["sglang"]), ", ".join(flavors) or "none"))
        header["tree_verify"] = ",".join(flavors)
    intro = ["SGLang %s with its CUDA %s stack for Linux %s, CPython %s: every pin with the sha256 of the"
             % (version, cuda_found, args.platform.split("-")[0], " and ".join(pythons)),
             "wheel pip installs for each Python. Install with pip --require-hashes --only-binary=:all: (docs/locks.md)."]
    if extra:
        intro.append("Extra wheels (from your index or wheelhouse): " + ", ".join(e["filename"] for e in extra))
    write(out, render(header, intro, pinned, chosen))
    return 0


# ------------------------------------------------------------------ what an SGLang build carries
def wheel_tree_flavors(path):
    """The tree-verify flavors (docs/sglang.md, DDTree) an SGLang wheel's source declares: each flavor
    whose every flag is an option string of its server_args.py, or (SGLang >= 0.5.23, whose options are
    generated from typed fields) a field of that flag's name in sglang/srt/arg_groups/fields/ (the DDTREE
    flavor also needs the DDTREE algorithm in spec_info.py), the rule the host's probe applies to the
    installed parser."""
    import zipfile

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import specdeploy_collection

    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            args_src = z.read("sglang/srt/server_args.py").decode("utf-8", "replace") \
                if "sglang/srt/server_args.py" in names else ""
            spec_src = z.read("sglang/srt/speculative/spec_info.py").decode("utf-8", "replace") \
                if "sglang/srt/speculative/spec_info.py" in names else ""
            fields_src = "".join(z.read(n).decode("utf-8", "replace") for n in sorted(names)
                                 if n.startswith("sglang/srt/arg_groups/fields/") and n.endswith(".py"))
    except (OSError, zipfile.BadZipFile) as e:
        raise LockToolError("cannot read %s: %s" % (path, e))
    if not args_src:
        raise LockToolError("%s has no sglang/srt/server_args.py: not an SGLang wheel" % path)
    out = []
    for flavor, flags in sorted(specdeploy_collection.tree_flavor_flags().items()):
        if all(('"%s"' % f) in args_src or ("'%s'" % f) in args_src
               or re.search(r"(?m)^\s+%s\s*:" % f[2:].replace("-", "_"), fields_src) for f in flags):
            if flavor == "sglang-pr29907" and "DDTREE" not in spec_src:
                continue
            out.append(flavor)
    return out


# ------------------------------------------------------------------ an SGLang build from source
_GIT_AT = re.compile(r"^(git\+[a-z]+://[^@\s]+(?:\.git)?)@([0-9a-f]{40})$")


def build_sglang_wheel(source, wheel_dir):
    """Build SGLang's wheel (a pure-Python package) from a source the user names and return its path:
    a local tree (the repository, whose package is in python/, or that directory), or
    git+URL@COMMIT with a full 40-hex commit (a branch or tag moves: the lock would not say what it holds).
    `pip wheel --no-deps` with this Python, the source's own build backend."""
    import glob as _glob

    if os.path.isdir(source):
        src = os.path.join(source, "python") if os.path.isfile(os.path.join(source, "python", "pyproject.toml")) \
            else source
        if not os.path.isfile(os.path.join(src, "pyproject.toml")) and not os.path.isfile(os.path.join(src, "setup.py")):
            raise LockToolError("--sglang-source %s: no pyproject.toml there or in its python/ directory" % source)
    else:
        m = _GIT_AT.match(source)
        if not m:
            raise LockToolError("--sglang-source %s: give a local source tree, or git+URL@COMMIT with the full 40-hex "
                                "commit (e.g. git+https://github.com/sgl-project/sglang@<commit>; `git ls-remote URL "
                                "refs/pull/<N>/head` names a pull request's)" % source)
        src = "%s@%s#subdirectory=python" % (m.group(1), m.group(2))
    os.makedirs(wheel_dir, exist_ok=True)
    before = set(_glob.glob(os.path.join(wheel_dir, "sglang-*.whl")))
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheel_dir, src]
    log("building SGLang from %s: %s" % (source, " ".join(cmd)))
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise LockToolError("building SGLang from %s failed: %s" % (source, " | ".join(
            (proc.stderr or proc.stdout).strip().splitlines()[-6:])))
    wheels = sorted(set(_glob.glob(os.path.join(wheel_dir, "sglang-*.whl"))) - before) or \
        sorted(_glob.glob(os.path.join(wheel_dir, "sglang-*.whl")), key=os.path.getmtime)[-1:]
    if not wheels:
        raise LockToolError("building SGLang from %s made no sglang wheel in %s" % (source, wheel_dir))
    log("built %s" % os.path.basename(wheels[-1]))
    return wheels[-1]


# ------------------------------------------------------------------ check
# Where `check` looks without arguments (a checkout's developer wrapper: every committed lock)
DEFAULT_LOCKS = None


def cmd_check(args):
    paths = args.locks or (DEFAULT_LOCKS() if DEFAULT_LOCKS else [])
    if not paths:
        raise LockToolError("name the lock(s) to check")
    bad = 0
    for path in paths:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as e:
            raise LockToolError("cannot read %s: %s" % (path, e))
        problems = lockfile.check_lock(text)
        for p in problems:
            print("%s: %s" % (rel(path), p))
        bad += bool(problems)
    print("lock check: %d lock(s), %d with problems" % (len(paths), bad))
    return 1 if bad else 0


def common_options():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("version", help="SGLang version, e.g. 0.5.23 (of a build: its wheel's, e.g. 0.5.23+pr29907)")
    common.add_argument("--exclude-newer", help="UTC timestamp bounding the resolution (default: now)")
    common.add_argument("--index-url", default=DEFAULT_INDEX)
    common.add_argument("--out", help="lock path (default: sglang-<version>-cu13.lock in the working directory)")
    common.add_argument("--write-to", help=argparse.SUPPRESS)  # regen: write elsewhere, record --out as given
    return common


def add_commands(sub, common):
    g = sub.add_parser("cuda", parents=[common], help="CUDA 13 lock for GPU hosts")
    g.add_argument("--python", default=CUDA_PYTHONS, help="comma list; one file must serve all (checked)")
    g.add_argument("--platform", default=CUDA_PLATFORM)
    g.add_argument("--cuda", default="13.0",
                   help="hold nvidia-* CUDA packages to this minor (default 13.0, driver >= 580.65.06); "
                        "'any' lets them float within the major")
    g.add_argument("--driver-min", help="driver floor for the header (default: NVIDIA's table for --cuda)")
    g.add_argument("--extra-wheel", action="append", default=[], metavar="PATH",
                   help="a local wheel added to the lock by sha256 (e.g. an SGLang build of a pull request); "
                        "the hosts need it (gpu_env_index_url or gpu_env_wheelhouse)")
    g.add_argument("--sglang-source", metavar="SOURCE",
                   help="build SGLang's wheel from this source and lock it like --extra-wheel: a local source tree, or "
                        "git+URL@COMMIT (full 40-hex commit), e.g. a pull request's with tree verification")
    g.add_argument("--wheel-dir", default="wheels", help="where --sglang-source puts the wheel (default ./wheels): "
                   "the hosts need it (gpu_env_index_url or gpu_env_wheelhouse)")
    g.add_argument("--require", action="append", default=[], help="another top-level requirement")
    g.add_argument("--constraint", action="append", default=[], help="a constraint such as triton==3.8.0")
    k = sub.add_parser("check", help="check locks (pinned, hashed, header, flavor rules)")
    k.add_argument("locks", nargs="*")
    return {"cuda": cmd_cuda, "check": cmd_check}


def parser(extra=None, description=None):
    """The argument parser and {command: function}; extra(sub, common) adds more commands."""
    p = argparse.ArgumentParser(prog=PROG, description=description or __doc__.split("\n\n", maxsplit=1)[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    common = common_options()
    commands = add_commands(sub, common)
    if extra:
        commands.update(extra(sub, common))
    return p, commands


def main(argv=None, extra=None, description=None):
    p, commands = parser(extra=extra, description=description)
    args = p.parse_args(argv)
    try:
        return commands[args.cmd](args)
    except (LockToolError, lockfile.LockError) as e:
        print("lock: error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
