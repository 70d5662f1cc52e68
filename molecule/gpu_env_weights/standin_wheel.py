#!/usr/bin/env python3
"""LAB-ONLY TEST STAND-IN (not SGLang): a wheel no index serves and the one-package CPU lock that pins it, to
exercise gpu_env_wheels (the gpu_env role copies the wheel next to the venv it builds, pip installs it
with --require-hashes). The wheel is a package named sglang at 0.0.1+specdeploy.standin with one module,
so the lock passes the lock check (its sglang pin equals its header); the gpu_env probe is off.

    standin_wheel.py OUTDIR [--tamper]     # OUTDIR/wheels/<wheel>, OUTDIR/standin.lock (--tamper: other
                                           # bytes under the same file name; the lock is not rewritten)
"""
import base64
import hashlib
import os
import sys
import zipfile

VERSION = "0.0.1+specdeploy.standin"
NAME = "sglang-%s-py3-none-any.whl" % VERSION


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def build(path, payload):
    dist = "sglang-%s.dist-info" % VERSION
    files = {
        "sglang/__init__.py": ('__version__ = "%s"\nSTANDIN = %r\n' % (VERSION, payload)).encode(),
        dist + "/METADATA": ("Metadata-Version: 2.1\nName: sglang\nVersion: %s\n" % VERSION).encode(),
        dist + "/WHEEL": b"Wheel-Version: 1.0\nGenerator: specdeploy-lab\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [record_line(n, d) for n, d in files.items()] + [dist + "/RECORD,,"]
    files[dist + "/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files.items():
            info = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, d)


def main():
    out, tamper = sys.argv[1], "--tamper" in sys.argv[2:]
    os.makedirs(os.path.join(out, "wheels"), exist_ok=True)
    wheel = os.path.join(out, "wheels", NAME)
    build(wheel, "tampered" if tamper else "the build the lock pins")
    if tamper:
        return 0
    data = open(wheel, "rb").read()
    lock = "".join([
        "# specdeploy-lock: sglang=%s\n" % VERSION,
        "# specdeploy-lock: flavor=cpu\n",
        "# specdeploy-lock: python=3.11\n",
        "# specdeploy-lock: platform=x86_64-manylinux_2_34\n",
        "# specdeploy-lock: glibc_min=2.17\n",
        "# specdeploy-lock: cuda=none\n",
        "# specdeploy-lock: driver_min=none\n",
        "# specdeploy-lock: download_bytes=%d\n" % len(data),
        "# specdeploy-lock: exclude_newer=2026-12-01T00:00:00Z\n",
        "# specdeploy-lock: generated_by=molecule/gpu_env_weights/standin_wheel.py (LAB-ONLY test stand-in)\n",
        "sglang==%s \\\n    --hash=sha256:%s\n    # 3.11: %s\n" % (VERSION, hashlib.sha256(data).hexdigest(), NAME),
    ])
    with open(os.path.join(out, "standin.lock"), "w", encoding="utf-8") as f:
        f.write(lock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
