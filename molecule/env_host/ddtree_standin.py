#!/usr/bin/env python3
"""LAB-ONLY TEST STAND-IN (not an SGLang build anyone ships): SGLang 0.5.23's released wheel (the lab
wheelhouse's) plus a small patch that declares ONE known tree-verify flag set, the `fork-db-guo` flavor's
--speculative-dflash-enable-ddtree (docs/sglang.md, DDTree), and the lab lock that pins it. It stands in for
a pull-request build (`specdeploy lock cuda --sglang-source`), which needs a GPU stack and a network this lab
has not. The flag is declared only: SGLang accepts it and resolves it; nothing runs a tree (that needs DFLASH
kernels on a GPU, see docs/ddtree-migration.md).

    ddtree_standin.py WHEEL LAB_LOCK OUTDIR
        -> OUTDIR/wheels/sglang-0.5.23-1specdeploylabstandin-<tags>.whl   (same version, a build tag: pip
           prefers it over the wheelhouse's plain 0.5.23, and the lock's hash admits only it)
        -> OUTDIR/ddtree-standin.lock  (LAB_LOCK with the sglang pin's hash and file replaced and
           tree_verify= in its header, as read from the wheel by the collection's lock code)
"""
import base64
import hashlib
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bin"))
import specdeploy_lock  # noqa: E402  (the collection's lock code: the wheel's hash, its tree-verify flavors)
from specdeploy_collection import init as _init  # noqa: E402

_init()
from ansible_collections.specdeploy.sglang.plugins.module_utils import lockfile  # noqa: E402

BUILD_TAG = "1specdeploylabstandin"
FIELDS = "sglang/srt/arg_groups/fields/spec.py"
ANCHOR = "    speculative_domino_candidate_pool_size: A["
PATCH = '''    # LAB-ONLY STAND-IN (specdeploy.sglang's molecule/env_host, ddtree_standin.py): declares the
    # tree-verify flag of the fork DB-Guo/sglang-ddtree-dev; accepted and resolved, it changes nothing.
    speculative_dflash_enable_ddtree: A[
        bool,
        "LAB-ONLY STAND-IN (specdeploy.sglang test build, not SGLang): DDTree tree verification flag; no effect.",
    ] = False
'''


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def build(src, out_dir):
    base = os.path.basename(src)
    name, version, rest = base.split("-", 2)
    dest = os.path.join(out_dir, "%s-%s-%s-%s" % (name, version, BUILD_TAG, rest))
    with zipfile.ZipFile(src) as zin:
        infos = zin.infolist()
        record_name = next(i.filename for i in infos if i.filename.endswith(".dist-info/RECORD"))
        wheel_meta = record_name.replace("RECORD", "WHEEL")
        files = {}
        for info in infos:
            if info.filename == record_name:
                continue
            data = zin.read(info.filename)
            if info.filename == FIELDS:
                text = data.decode()
                if ANCHOR not in text:
                    raise SystemExit("%s: %s has no %r (not SGLang 0.5.23?)" % (src, FIELDS, ANCHOR.strip()))
                data = text.replace(ANCHOR, PATCH + ANCHOR, 1).encode()
            elif info.filename == wheel_meta:
                data = data.rstrip(b"\n") + ("\nBuild: %s\n" % BUILD_TAG).encode()
            files[info.filename] = (info, data)
    tmp = dest + ".part"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        lines = []
        for fname, (info, data) in files.items():
            zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
            if not fname.endswith("/"):
                lines.append(record_line(fname, data))
        lines.append(record_name + ",,")
        rinfo = zipfile.ZipInfo(record_name, date_time=(2026, 1, 1, 0, 0, 0))
        rinfo.external_attr = 0o644 << 16
        zout.writestr(rinfo, "\n".join(lines) + "\n", compress_type=zipfile.ZIP_DEFLATED)
    os.replace(tmp, dest)
    return dest


def lock_for(lab_lock, wheel):
    text = open(lab_lock, encoding="utf-8").read()
    entry = specdeploy_lock.file_entry(wheel)
    flavors = specdeploy_lock.wheel_tree_flavors(wheel)
    pin = re.compile(r"(?m)^sglang==(\S+) \\\n    --hash=sha256:[0-9a-f]{64}\n    # (3\.\d+): \S+\n")
    m = pin.search(text)
    if not m:
        raise SystemExit("%s: no sglang pin" % lab_lock)
    text = text[:m.start()] + "sglang==%s \\\n    --hash=sha256:%s\n    # %s: %s\n" % (
        m.group(1), entry["sha256"], m.group(2), entry["filename"]) + text[m.end():]
    header = lockfile.read_header(text)
    header["tree_verify"] = ",".join(flavors)
    header["generated_by"] = "molecule/env_host/ddtree_standin.py (LAB-ONLY test stand-in of a tree-verify build)"
    body = "".join(line for line in text.splitlines(True) if not line.startswith(lockfile.HEADER_PREFIX))
    text = lockfile.format_header(header) + "\n" + body
    problems = lockfile.check_lock(text)
    if problems:
        raise SystemExit("the stand-in lock does not pass the lock check: %s" % "; ".join(problems))
    return text, flavors


def main():
    src, lab_lock, out = sys.argv[1:4]
    os.makedirs(os.path.join(out, "wheels"), exist_ok=True)
    wheel = build(src, os.path.join(out, "wheels"))
    text, flavors = lock_for(lab_lock, wheel)
    with open(os.path.join(out, "ddtree-standin.lock"), "w", encoding="utf-8") as f:
        f.write(text)
    print("%s tree_verify=%s" % (wheel, ",".join(flavors)))
    return 0 if flavors else 1


if __name__ == "__main__":
    sys.exit(main())
