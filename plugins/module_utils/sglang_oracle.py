# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Installed mode: the host's own SGLang as the authority on its flags.

SGLang is never imported here. The code that runs inside the SGLang venv is the string
``RUNNER_SOURCE``, sent to ``<venv python> -c`` with the request on stdin, so it works on a host
where this collection is not installed. One subprocess may resolve many cases (a fresh ServerArgs
per case); ``fresh_process=True`` runs one process per case when exact warnings matter (resolution
mutates process state).

Resolution is SGLang's own: ``prepare_server_args(argv)`` (parse; in 0.5.11/0.5.16 this also
validates in ``__post_init__``), then ``resolve_once()`` and ``check_server_args()`` when the
version has them, then ``resolved_dict()`` (or the dataclass fields). No server is started, no model
weights are loaded (only the ``config.json`` files are read), and ``--device cuda`` is added when the
argv names no device, so a host without a visible GPU resolves like a GPU host would.

stdlib only; importable without Ansible.
"""
from __future__ import annotations

import json
import os
import subprocess

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as spec

# --------------------------------------------------------------------------------------------
# Code executed by the host's SGLang python (python -c RUNNER_SOURCE < request.json).
# It must run on the Python of any supported SGLang (>= 3.10) with only SGLang installed.
# --------------------------------------------------------------------------------------------
RUNNER_SOURCE = r'''
import contextlib, io, json, logging, os, sys, traceback

REQ = json.loads(sys.stdin.read())
OUT = sys.stdout
sys.stdout = sys.stderr  # anything SGLang prints must not corrupt our JSON lines


def emit(obj):
    OUT.write(json.dumps(obj, default=str) + "\n")
    OUT.flush()


class Grab(logging.Handler):
    def __init__(self):
        logging.Handler.__init__(self, logging.WARNING)
        self.records = []

    def emit(self, record):
        try:
            self.records.append(record.getMessage())
        except Exception:  # noqa
            self.records.append(str(record.msg))


def plain(v):
    try:
        json.dumps(v)
        return v
    except Exception:
        return str(v)


TREE_FLAVORS = {
    "sglang-pr29907": ["--speculative-ddtree-budget"],
    "sglang-pr31069": ["--speculative-dflash-tree-verify"],
    "sglang-pr36196": ["--speculative-dflash-tree-width"],
    "fork-db-guo": ["--speculative-dflash-enable-ddtree"],
}


def probe():
    import argparse
    import sglang
    from sglang.srt import server_args as sa_mod
    version = getattr(sglang, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as _v
            version = _v("sglang")
        except Exception:  # noqa
            version = "unknown"
    parser = argparse.ArgumentParser(prog="sglang serve")
    sa_mod.ServerArgs.add_cli_args(parser)
    flags = sorted({o for a in parser._actions for o in a.option_strings if o.startswith("--")})
    algos = []
    try:
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm
        algos = [m.name for m in SpeculativeAlgorithm if m.name != "NONE"]
    except Exception:  # noqa
        for a in parser._actions:
            if "--speculative-algorithm" in a.option_strings and a.choices:
                algos = list(a.choices)
    tree = [fid for fid, need in sorted(TREE_FLAVORS.items()) if all(f in flags for f in need)]
    if "DDTREE" not in algos and "sglang-pr29907" in tree:
        tree.remove("sglang-pr29907")
    return {"version": version, "python": sys.executable, "flags": flags,
            "tree_verify": tree, "algorithms": algos}


def where(exc):
    """(path inside the sglang package's parent, line) of the innermost sglang frame of `exc`."""
    found = None
    for fr in traceback.extract_tb(exc.__traceback__):
        fn = fr.filename.replace(os.sep, "/")
        if "/sglang/" in fn:
            found = ("sglang/" + fn.rsplit("/sglang/", 1)[1], fr.lineno)
    return found


def resolve(case):
    from sglang.srt import server_args as sa_mod
    argv = list(case["argv"])
    saved = dict(os.environ)
    os.environ.update({k: str(v) for k, v in (case.get("env") or {}).items()})
    undo = kind = None
    install = globals().get("install_platform")  # LAB-ONLY: the differential tests' prelude (tests/oracle)
    if case.get("platform") and install is not None:
        undo, kind = install(case["platform"])
    grab = Grab()
    # prepare_server_args runs logging.basicConfig(force=True), which drops ROOT handlers: listen on
    # the "sglang" logger instead (every SGLang logger propagates through it).
    root = logging.getLogger("sglang")
    root.addHandler(grab)
    err = io.StringIO()
    out = {"id": case.get("id"), "stage": None, "error": None, "error_type": None,
           "warnings": grab.records, "resolved": None, "where": None,
           "platform": (kind or "unsupported") if case.get("platform") else None}
    try:
        out["stage"] = "parse"
        try:
            with contextlib.redirect_stderr(err):
                sa = sa_mod.prepare_server_args(argv)
        except SystemExit as e:
            lines = err.getvalue().strip().splitlines()
            out["error_type"] = "SystemExit"
            out["error"] = lines[-1] if lines else "exit %s" % e.code
            out["where"] = where(e)
            return out
        except BaseException:
            # 0.5.11/0.5.16 validate in ServerArgs.__post_init__, inside prepare_server_args
            out["stage"] = "resolve"
            raise
        out["stage"] = "resolve"
        if hasattr(sa, "resolve_once"):
            sa.resolve_once()
        out["stage"] = "check"
        if hasattr(sa, "check_server_args"):
            sa.check_server_args()
        out["stage"] = "done"
        if hasattr(sa, "resolved_dict"):
            res = sa.resolved_dict()
        else:
            import dataclasses
            res = {f.name: getattr(sa, f.name) for f in dataclasses.fields(sa)}
        keys = case.get("keys")
        out["resolved"] = {k: plain(v) for k, v in res.items() if not keys or k in keys}
    except BaseException as e:  # noqa: B902 -- SGLang raises ValueError, AssertionError, ...
        out["error_type"] = type(e).__name__
        out["error"] = str(e) or traceback.format_exc().strip().splitlines()[-1]
        out["where"] = where(e)
    finally:
        if undo is not None:
            undo()
        root.removeHandler(grab)
        os.environ.clear()
        os.environ.update(saved)
    return out


def main():
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            import sglang.srt.server_args  # noqa: F401
    except BaseException as e:  # noqa
        emit({"fatal": "cannot import sglang.srt.server_args: %s: %s" % (type(e).__name__, e)})
        return
    if REQ.get("probe"):
        try:
            emit({"probe": probe()})
        except BaseException as e:  # noqa
            emit({"fatal": "probe failed: %s: %s" % (type(e).__name__, e)})
    for case in REQ.get("cases", []):
        emit({"case": resolve(case)})


main()
'''


class OracleError(Exception):
    """The SGLang python could not be run, or did not answer."""


def _run(python, request, timeout, extra_env=None, prelude=""):
    if not python or not os.path.exists(python):
        raise OracleError(
            "SGLang python %r does not exist: give the venv's bin/python (e.g. gpu_env_python)" % python)
    env = dict(os.environ)
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    env.update(extra_env or {})
    try:
        source = RUNNER_SOURCE.replace("\ndef where(exc):", prelude + "\n\ndef where(exc):", 1) if prelude else RUNNER_SOURCE
        proc = subprocess.run([python, "-c", source], input=json.dumps(request), env=env,
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise OracleError("SGLang resolution in %s took longer than %ss" % (python, timeout))
    except OSError as e:
        raise OracleError("cannot run %s: %s" % (python, e))
    answers = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            answers.append(json.loads(line))
        except ValueError:
            continue
    for a in answers:
        if "fatal" in a:
            raise OracleError("%s: %s" % (python, a["fatal"]))
    if not answers and (request.get("probe") or request.get("cases")):
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
        raise OracleError("%s exited with %s and no answer: %s" % (python, proc.returncode, tail))
    return answers


def resolve_many(python, cases, timeout=600, extra_env=None, prelude=""):
    """Resolve many cases ({id, argv, env}) in ONE SGLang process. Returns the raw answers in order. `prelude`:
    source the runner defines before its resolver (the tests' install_platform, for cases with a "platform")."""
    answers = _run(python, {"cases": cases}, timeout, extra_env, prelude)
    out = [a["case"] for a in answers if "case" in a]
    if len(out) != len(cases):
        raise OracleError("SGLang answered %d of %d cases (the process died mid-way)" % (len(out), len(cases)))
    return out


def probe(python, timeout=120, extra_env=None):
    """Version, long flags, tree-verify flavors and algorithms of the SGLang in `python`'s venv."""
    answers = _run(python, {"probe": True}, timeout, extra_env)
    for a in answers:
        if "probe" in a:
            return a["probe"]
    raise OracleError("%s gave no probe answer" % python)


def with_device(argv):
    """SGLang picks `cpu` without a visible GPU: resolve as on the GPU host unless a device is named."""
    argv = list(argv)
    if not any(a == "--device" or a.startswith("--device=") for a in argv):
        argv += ["--device", "cuda"]
    return argv


def classify(answer):
    """Map SGLang's error text onto the engine's stable error codes (None when accepted)."""
    if answer.get("error") is None:
        return None
    return spec.code_for_sglang_message(answer["error"], parse=answer.get("stage") == "parse")


def probe_and_resolve(python, argv, env=None, timeout=300, want_probe=True):
    """One fresh SGLang process: (probe or None, resolution answer) for one argv."""
    request = {"cases": [{"id": 0, "argv": list(argv), "env": env or {}, "keys": list(spec.RESOLVED_KEYS)}],
               "probe": bool(want_probe)}
    answers = _run(python, request, timeout, env)
    caps = None
    case = None
    for a in answers:
        if "probe" in a:
            caps = a["probe"]
        if "case" in a:
            case = a["case"]
    if case is None or (want_probe and caps is None):
        raise OracleError("%s gave no resolution answer" % python)
    return caps, case
