# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the sglang_flags / sglang_probe modules do with their parameters (no Ansible import).

run_flags(params) -> the module result dict; never raises for bad input: an unusable input gives
`input_error` (the module's fail message) with the usual result keys.
"""
from __future__ import annotations

import traceback

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_oracle as oracle
from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as spec


def summary(out):
    errs = out.get("errors") or []
    lines = ["%d problem(s) with the SGLang flags:" % len(errs)]
    for e in errs:
        lines.append("[%s] %s" % (e.get("code"), e.get("message")))
    return " ".join(lines)


def _installed(params, result, argv, env, version, requested, allow, resolver=None):
    """Replace the static SGLang verdict with the installed SGLang's own.

    resolver: oracle.probe_and_resolve (default) or a callable of its signature (the preflight's cache)."""
    python = params.get("python")
    timeout = params.get("timeout") or 300
    proc_env = {str(k): str(v) for k, v in (env or {}).items()}
    try:
        # one SGLang process answers both the probe and the resolution
        resolve = resolver or oracle.probe_and_resolve
        caps, answer = resolve(python, oracle.with_device(argv), proc_env, timeout=timeout,
                               want_probe=not params.get("capabilities"))
        caps = params.get("capabilities") or caps
    except oracle.OracleError as e:
        result.error("ORACLE_UNAVAILABLE", "cannot run the installed SGLang's resolution: %s. Check `python` "
                     "(the SGLang venv's bin/python) or use mode: static." % e, field="python", stage="input")
        return
    result.capabilities = caps
    if version and caps.get("version") and str(caps["version"]) != str(version):
        result.error("VERSION_MISMATCH", "the spec is for SGLang %s but %s has SGLang %s: pin the version the host "
                     "runs (sglang_version) or install %s." % (version, python, caps["version"], version),
                     field="sglang_version", stage="input")
    # SGLang is the authority on parsing and resolution: drop the static verdict, keep the checks SGLang
    # does not make (config.json pairing, GPUs, secrets, policy).
    result.errors = [e for e in result.errors if e["stage"] not in ("parse", "resolve") and e["code"] != "SPEC_OVERRIDDEN"]
    result.warnings = [w for w in result.warnings if w["code"] not in ("SGLANG_OVERRIDE", "SGLANG_DEFAULT")]
    result.overrides = []
    for w in answer.get("warnings") or []:
        result.warn("SGLANG_WARNING", w)
    if answer.get("error") is not None:
        code = oracle.classify(answer)
        result.error(code, "the installed SGLang %s refuses these arguments (%s): %s" % (
            caps.get("version"), answer.get("stage"), answer["error"]), stage=answer.get("stage") or "resolve")
        result.sglang_verdict = {"accepted": False, "code": code, "stage": answer.get("stage"),
                                 "message": answer["error"], "judged_by_sglang": []}
        return
    result.sglang_verdict = {"accepted": True, "code": None, "stage": None, "message": None, "judged_by_sglang": []}
    resolved = answer.get("resolved") or {}
    result.resolved = {k: resolved.get(k) for k in spec.RESOLVED_KEYS if k in resolved}
    spec.record_overrides(result, requested, result.resolved, allow)


def run_flags(params, resolver=None):
    try:
        return _run_flags(params, resolver)
    except Exception as e:  # last line of defence: a readable failure, never a traceback
        return {"ok": False, "input_error": "sglang_flags could not process its input (%s: %s); this is a bug in "
                "specdeploy.sglang, please report it with the task's arguments. %s" % (
                    type(e).__name__, e, traceback.format_exc().strip().splitlines()[-1]),
                "argv": [], "env": {}, "errors": [], "notes": [], "resolved": {}, "overrides": [],
                "mode": params.get("mode")}


def _run_flags(params, resolver=None):
    mode = params.get("mode") or "static"
    gpus = params.get("gpus")
    caps = params.get("capabilities")
    allow = list(params.get("allow_overrides") or [])
    common = dict(gpus=gpus, draft_config=params.get("draft_config"), target_config=params.get("target_config"),
                  allow_overrides=allow, read_paths=params.get("read_paths", True))
    migrated = None
    if params.get("spec") is not None:
        probe_caps = caps
        sp = params["spec"]
        if mode == "installed" and probe_caps is None and isinstance(sp, dict) and \
                isinstance(sp.get("speculative"), dict) and sp["speculative"].get("verify") == "tree":
            try:
                probe_caps = oracle.probe(params.get("python"), timeout=params.get("timeout") or 300,
                                          extra_env={str(k): str(v) for k, v in (sp.get("env") or {}).items()
                                                     if isinstance(sp.get("env"), dict)})
                params = dict(params, capabilities=probe_caps)
            except oracle.OracleError as e:
                r = spec.Result()
                r.error("ORACLE_UNAVAILABLE", "cannot probe the installed SGLang for tree verify: %s" % e,
                        field="python", stage="input")
                return _out(r, mode)
        result = spec.validate(sp, capabilities=probe_caps, **common)
        version = sp.get("sglang_version") if isinstance(sp, dict) else None
        spx = sp.get("speculative") if isinstance(sp, dict) else None
        ao = spx.get("allow_overrides") if isinstance(spx, dict) else None
        if isinstance(ao, list):
            allow += [str(x) for x in ao]
    else:
        version = params.get("sglang_version")
        argv = params.get("argv")
        if isinstance(argv, (int, float, bool, dict)) or argv is None:
            r = spec.Result()
            r.error("ARGV_TYPE", "argv must be a list of strings or one command line string, got %s." %
                    type(argv).__name__, field="argv", stage="input")
            return _out(r, mode)
        if isinstance(argv, list) and not all(isinstance(a, (str, int, float)) and not isinstance(a, bool) for a in argv):
            r = spec.Result()
            r.error("ARGV_TYPE", "argv items must be strings (one argument each).", field="argv", stage="input")
            return _out(r, mode)
        words = argv if isinstance(argv, list) else [argv]
        env = params.get("env") or {}
        bad = [(w, inputs.value_problem(w)) for w in list(words) + list(env.values()) + list(env) if inputs.value_problem(w)]
        if bad:  # the unit carries every argv word and env value: one rule with the spec's (inputs)
            r = spec.Result()
            r.error("SPEC_VALUE", "argv/env value %r %s." % (bad[0][0][:80], bad[0][1]), field="argv", stage="input")
            return _out(r, mode)
        result = spec.validate_argv(argv, version, env=params.get("env") or {}, capabilities=caps, **common)
        if result.argv and not any(e["stage"] in ("parse",) or e["code"] == "UNKNOWN_VERSION" for e in result.errors):
            try:
                migrated = spec.argv_to_spec(result.argv, version, env=params.get("env") or {})
            except ValueError:
                migrated = None
    if mode == "installed" and not any(e["stage"] == "input" for e in result.errors) and result.argv:
        requested = {}
        if result.argv:
            try:
                args, _u, _n = spec.parse_argv(result.argv, str(version), _tree_flags(params.get("capabilities") or caps))
                requested = spec.requested_fields(args)
            except Exception:  # the installed parser is the judge; the static one may not know a flag
                requested = {}
        _installed(params, result, result.argv, result.env, version, requested, allow, resolver)
    out = _out(result, mode)
    if migrated is not None:
        out["spec"] = migrated
    if params.get("previous_argv") is not None:
        prev = params["previous_argv"]
        if not isinstance(prev, (list, str)):
            out["errors"].append({"code": "ARGV_TYPE", "message": "previous_argv must be a list of strings or a "
                                  "command line string.", "field": "previous_argv", "stage": "input"})
            out["ok"] = False
        else:
            out["argv_diff"] = spec.argv_diff(prev, result.argv)
    return out


def _tree_flags(caps):
    extra = {}
    for fid in (caps or {}).get("tree_verify") or []:
        extra.update(spec.TREE_FLAVORS.get(fid, {}).get("flags", {}))
    return extra


def _out(result, mode):
    out = result.as_dict()
    out["mode"] = mode
    return out


def run_probe(params):
    try:
        caps = oracle.probe(params.get("python"), timeout=params.get("timeout") or 120,
                            extra_env={str(k): str(v) for k, v in (params.get("env") or {}).items()})
    except oracle.OracleError as e:
        return {"error": "cannot probe SGLang: %s. Give the SGLang venv's bin/python." % e}
    return {"sglang": caps}
