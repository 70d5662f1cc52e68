"""LAB-ONLY: a bytecode cache for modules the lab hosts' /usr/bin/python3 imports from zip files.

Ansible runs every task as a zip payload (AnsiballZ) on a fresh interpreter, and Python never caches
the bytecode of modules imported from a zip: each task compiles ansible.module_utils.basic and what it
imports from source again. Measured on a lab host (2 cores, idle): importing ansible.module_utils.basic
from a zip took 0.34 CPU-s, 0.20 CPU-s with this cache. This hook keeps the compiled code of each
zip-imported source, keyed by its path and its bytes (sha256) and the interpreter's cache tag, under
/var/cache/specdeploy-lab-pyc; the same source compiles to the same code, so nothing a task does changes.
Loaded by a .pth file in the system dist-packages (lab/lab.py image); a venv does not read those, so
SGLang's env never sees it. Production hosts do not get it.
"""
import hashlib
import marshal
import os
import sys
import zipimport

CACHE = "/var/cache/specdeploy-lab-pyc"
_compile_source = getattr(zipimport, "_compile_source", None)


def _cached_compile(pathname, source):
    try:
        key = hashlib.sha256(pathname.encode("utf-8", "surrogateescape") + b"\0" + source).hexdigest()
        path = os.path.join(CACHE, key[:2], "%s.%s" % (key, sys.implementation.cache_tag))
        try:
            with open(path, "rb") as handle:
                return marshal.loads(handle.read())
        except (OSError, ValueError, EOFError, TypeError):
            pass
        code = _compile_source(pathname, source)
        try:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            tmp = "%s.%d.tmp" % (path, os.getpid())
            with open(tmp, "wb") as handle:
                handle.write(marshal.dumps(code))
            os.replace(tmp, path)
        except OSError:
            pass  # not root (a task run as another user), or a read-only cache: compile as usual
        return code
    except Exception:  # never fail an import because of the cache
        return _compile_source(pathname, source)


if _compile_source is not None and os.geteuid() == 0:
    zipimport._compile_source = _cached_compile
