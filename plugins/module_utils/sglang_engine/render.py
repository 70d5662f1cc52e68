# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The structured spec: keys, types, defaults; rendering it into an argv for its release; argv back
into a spec (migration). stdlib only."""
from __future__ import annotations

import difflib
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import SPEC_FLAGS, TREE_FLAVORS, TREE_ORDER
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.parse import NUM, parse_argv, strip_program
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused

_INT = (int,)
_STR = (str,)
_BOOL = (bool,)
SPEC_KEYS = {
    "sglang_version": (_STR, None), "model_path": (_STR, None), "served_model_name": (_STR, None),
    "host": (_STR, "127.0.0.1"), "port": (_INT, 30000), "device": (_STR, "cuda"),
    "tp_size": (_INT, 1), "dp_size": (_INT, 1), "pp_size": (_INT, 1),
    "attention_backend": (_STR, None), "prefill_attention_backend": (_STR, None),
    "mem_fraction_static": ((int, float), None), "context_length": (_INT, None),
    "max_running_requests": (_INT, None), "enable_metrics": (_BOOL, False), "speculative": ((dict,), None),
    "extra_args": ((list,), []), "env": ((dict,), {}),
}
SPECULATIVE_KEYS = {
    "algorithm": (_STR, None), "draft_model_path": (_STR, None), "verify": (_STR, "linear"),
    "block_size": (_INT, None), "draft_window_size": (_INT, None), "tree_budget": (_INT, None),
    "num_steps": (_INT, None), "eagle_topk": (_INT, None), "num_draft_tokens": (_INT, None),
    "draft_attention_backend": (_STR, None), "allow_overrides": ((list,), []),
}
# spec field (speculative.*) -> SGLang field, for allow_overrides and argv_to_spec


def _type_name(types):
    return " or ".join({int: "integer", float: "number", str: "string", dict: "mapping", list: "list",
                        bool: "boolean"}[t] for t in types)


def _compiled(schema):
    """(the defaults in schema order, {key: (position, types, default, bools_allowed, the exact classes
    accepted without an isinstance check)}, the set of (key, class) pairs a value is accepted with as it is)
    of `schema`: a pure function of the static schema, computed once per schema (keyed on its identity; the
    entry keeps it)."""
    hit = _COMPILED.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1], hit[2], hit[3]
    defaults = {k: d for k, (_t, d) in schema.items()}
    rows = {k: (i, t, d, bool in t, frozenset(t)) for i, (k, (t, d)) in enumerate(schema.items())}
    plain = frozenset((k, c) for k, (t, _d) in schema.items() for c in tuple(t) + (type(None),))
    _COMPILED[id(schema)] = (schema, defaults, rows, plain)
    return defaults, rows, plain


_COMPILED = {}


def _check_keys(data, schema, where, result):
    """`data` with the defaults of `schema` filled in (schema order). Unknown keys are reported first, in the
    order given, then type errors in schema order (a bad value is replaced by its default)."""
    defaults, rows, plain = _compiled(schema)
    out = dict(defaults)
    if plain.issuperset(zip(data, map(type, data.values()))):
        # every key known and every value of an exact accepted class (or None): nothing to report
        out.update(data)
        return out
    bad = None
    for key, value in data.items():
        row = rows.get(key)
        if row is None:
            close = difflib.get_close_matches(str(key), list(schema), n=1)
            hint = (" Did you mean %r?" % close[0]) if close else ""
            result.error("SPEC_UNKNOWN_KEY", "%s has unknown key %r.%s Valid keys: %s." % (
                where, key, hint, ", ".join(sorted(schema))), field="%s.%s" % (where, key), stage="input")
        elif value.__class__ in row[4] or value is None or (isinstance(value, row[1]) and (
                row[3] or value.__class__ is not bool)):
            out[key] = value
        else:
            if bad is None:
                bad = []
            bad.append((row[0], key, value))
    if bad:
        for _i, key, value in sorted(bad, key=lambda b: b[0]):
            types = rows[key][1]
            result.error("SPEC_TYPE", "%s.%s must be a %s, got %s %r." % (
                where, key, _type_name(types), type(value).__name__, value), field="%s.%s" % (where, key),
                stage="input")
            out[key] = rows[key][2]
    return out


_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def normalize_spec(spec, result):
    """Check a spec's keys and types; return it with defaults filled (errors go to `result`)."""
    if not isinstance(spec, dict):
        result.error("SPEC_TYPE", "sglang_spec must be a mapping, got %s." % type(spec).__name__,
                     field="spec", stage="input")
        return None
    s = _check_keys(spec, SPEC_KEYS, "spec", result)
    for req in ("sglang_version", "model_path"):
        if not s.get(req):
            result.error("SPEC_MISSING", "spec.%s is required." % req, field="spec.%s" % req, stage="input")
    if s.get("speculative") is not None:
        sp = _check_keys(s["speculative"], SPECULATIVE_KEYS, "spec.speculative", result)
        if sp.get("verify") not in ("linear", "tree"):
            result.error("SPEC_VALUE", "spec.speculative.verify must be 'linear' or 'tree', got %r." % sp.get("verify"),
                         field="spec.speculative.verify", stage="input")
        if not all(isinstance(x, str) for x in sp.get("allow_overrides") or []):
            result.error("SPEC_TYPE", "spec.speculative.allow_overrides must be a list of field names.",
                         field="spec.speculative.allow_overrides", stage="input")
        s["speculative"] = sp
    if not all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in s.get("extra_args") or []):
        result.error("SPEC_TYPE", "spec.extra_args must be a list of strings (one argv item each).",
                     field="spec.extra_args", stage="input")
    for k, v in (s.get("env") or {}).items():
        if not isinstance(k, str) or not _ENV_NAME.match(k) or isinstance(v, (dict, list)):
            result.error("SPEC_TYPE", "spec.env must map variable names to scalar values; bad entry %r." % (k,),
                         field="spec.env", stage="input")
    # what reaches the unit (control characters, version, port, parallel sizes): the host's own rule
    seen = set(e["field"] for e in result.errors)
    for field, message in inputs.spec_problems(spec):
        if field not in seen and field != "spec.env":
            result.error("SPEC_VALUE", message + ".", field=field, stage="input")
    return s


def tree_flavor(capabilities):
    if not capabilities or not isinstance(capabilities, dict):
        return None
    present = capabilities.get("tree_verify") or []
    for fid in TREE_ORDER:
        if fid in present:
            return fid
    return None


def render(spec, result, capabilities=None):
    """Render a normalized spec into argv (flags only). Tree verify picks the probed flavor."""
    rules = releases.version_rules(spec["sglang_version"], result)
    if rules is None:
        return None
    argv = ["--model-path", spec["model_path"]]

    def add(flag, value):
        if value is not None:
            argv.extend((flag, value if value.__class__ is str else _fmt(value)))

    for flag, value, skip in zip(_TOP_FLAG_NAMES, map(spec.get, _TOP_KEYS), _TOP_SKIPS):  # in _TOP_FLAGS' order
        if value is not None and value != skip:
            argv.extend((flag, value if value.__class__ is str else _fmt(value)))
    if spec.get("enable_metrics"):  # Prometheus text at GET /metrics (status.yml, the canary analysis)
        argv.append(rules["metrics_flag"])
    sp = spec.get("speculative")
    if sp:
        algo = sp.get("algorithm")
        tree = sp.get("verify") == "tree"
        flavor = None
        if tree:
            flavor = tree_flavor(capabilities)
            if algo is not None and str(algo).upper() != "DFLASH":
                result.error("TREE_VERIFY_ALGORITHM", "verify: tree (DDTree) builds on DFLASH drafters; "
                             "algorithm %s has its own tree settings (eagle_topk, num_steps). Use algorithm: DFLASH "
                             "or verify: linear." % algo, field="spec.speculative.verify")
            elif flavor is None:
                have = (capabilities or {}).get("version") if isinstance(capabilities, dict) else None
                result.error("TREE_VERIFY_UNAVAILABLE",
                             "verify: tree needs an SGLang build with DDTree tree verification, and %s has none of "
                             "the known flag sets (%s). Released DFLASH verify is linear: SGLang would silently "
                             "verify a single chain. Set verify: linear, or install a tree-verify build and pass "
                             "its probe (sglang_probe / gpu_env_sglang) as capabilities." % (
                                 ("SGLang %s" % have) if have else "the SGLang this was checked against (no capability probe given)",
                                 "; ".join(TREE_FLAVORS[f]["what"] for f in TREE_ORDER)),
                             field="spec.speculative.verify")
            result.tree_verify = flavor
        block = sp.get("block_size")
        ndt = sp.get("num_draft_tokens")
        if block is not None and ndt is not None and block != ndt:
            result.error("SPEC_BLOCK_SIZE_CONFLICT", "spec.speculative.block_size (%s) and num_draft_tokens (%s) both "
                         "set and different; for DFLASH they are the same setting: keep one." % (block, ndt),
                         field="spec.speculative.block_size", stage="input")
        budget = sp.get("tree_budget")
        if flavor is None:
            # linear verify (the common case): the speculative flags in one pass, in the order below
            values = dict(sp, block_size=block if block is not None else ndt, num_draft_tokens=None)
            for key, flag, _dest in _SPECULATIVE_ROWS:
                value = values.get(key)
                if value is not None:
                    argv.extend((rules["window_flag"] if key == "draft_window_size" else flag,
                                 value if value.__class__ is str else _fmt(value)))
            if budget is not None:
                _check_budget(budget, tree, result)
        else:
            _render_tree(sp, rules, flavor, tree, algo, block, ndt, budget, add, argv, result)
    argv.extend(_fmt(a) for a in (spec.get("extra_args") or []))
    return argv


def _render_tree(sp, rules, flavor, tree, algo, block, ndt, budget, add, argv, result):
    """The speculative flags of a tree-verify flavor, in the linear order with the flavor's own flags."""
    if flavor == "sglang-pr29907":
        add("--speculative-algorithm", "DDTREE")
    else:
        add("--speculative-algorithm", algo)
    add("--speculative-draft-model-path", sp.get("draft_model_path"))
    add("--speculative-num-draft-tokens", block if block is not None else ndt)
    add(rules["window_flag"], sp.get("draft_window_size"))
    add("--speculative-num-steps", sp.get("num_steps"))
    topk = sp.get("eagle_topk")
    if flavor == "sglang-pr31069":
        argv.append("--speculative-dflash-tree-verify")
        topk = topk if topk is not None else 8
        if topk not in (4, 8, 16):
            result.error("TREE_VERIFY_TOPK", "%s accepts eagle_topk 4, 8 or 16 for tree verify, got %s." % (
                TREE_FLAVORS[flavor]["what"], topk), field="spec.speculative.eagle_topk")
    add("--speculative-eagle-topk", topk)
    if budget is not None:
        _check_budget(budget, tree, result)
    if flavor == "sglang-pr29907":
        add("--speculative-ddtree-budget", budget)
    elif flavor == "sglang-pr36196":
        add("--speculative-dflash-tree-width", budget)
        result.warn("TREE_VERIFY_GREEDY", "%s verifies greedily only (temperature 0)." % TREE_FLAVORS[flavor]["what"])
    elif flavor == "fork-db-guo":
        argv.append("--speculative-dflash-enable-ddtree")
        if budget is not None:
            result.warn("TREE_BUDGET_IGNORED", "%s takes no budget flag; tree_budget %s is not rendered." % (
                TREE_FLAVORS[flavor]["what"], budget))
    elif flavor == "sglang-pr31069" and budget is not None:
        result.warn("TREE_BUDGET_IGNORED", "%s sizes the tree by eagle_topk; tree_budget %s is not rendered." % (
            TREE_FLAVORS[flavor]["what"], budget))
    add("--speculative-draft-attention-backend", sp.get("draft_attention_backend"))


def _check_budget(budget, tree, result):
    if not tree:
        result.error("SPEC_VALUE", "spec.speculative.tree_budget only applies to verify: tree.",
                     field="spec.speculative.tree_budget", stage="input")
    if budget < 1:
        result.error("TREE_BUDGET", "spec.speculative.tree_budget must be >= 1, got %s." % budget,
                     field="spec.speculative.tree_budget", stage="input")


# the spec's top-level settings in argv order (common.SPEC_FLAGS), with the value not rendered besides None
_SKIP = {"dp_size": 1, "pp_size": 1}
_SPECULATIVE_ROWS = [(k.split(".", 1)[1], f, d) for k, f, d in SPEC_FLAGS if k.startswith("speculative.")]
_TOP = [(f, k, _SKIP.get(k)) for k, f, _d in SPEC_FLAGS if "." not in k and k not in ("model_path", "enable_metrics")]
_TOP_FLAG_NAMES, _TOP_KEYS, _TOP_SKIPS = (tuple(column) for column in zip(*_TOP))


def _fmt(value):
    if isinstance(value, float):
        return repr(value)
    return str(value)


# dest -> spec key, for argv_to_spec (the first row of a dest wins: num_draft_tokens before block_size)
_DEST_TO_SPEC = {}
_DEST_TO_SPECULATIVE = {"speculative_dflash_block_size": "block_size",
                        "speculative_dflash_draft_window_size": "draft_window_size"}
for _k, _f, _d in SPEC_FLAGS:
    if _k.startswith("speculative."):
        _DEST_TO_SPECULATIVE.setdefault(_d, _k.split(".", 1)[1])
    else:
        _DEST_TO_SPEC.setdefault(_d, _k)


def argv_to_spec(argv, version, env=None):
    """Turn an existing SGLang command line (e.g. a hand-written unit's ExecStart) into a spec.

    Flags the spec does not model go to extra_args verbatim. Raises ValueError with a readable
    message when argv does not parse for that version.
    """
    rel = releases.release(version)
    if rel is None:
        raise ValueError(releases.unknown_version_message(version))
    version = rel["version"]
    try:
        argv = strip_program(argv)
    except ValueError as e:
        raise ValueError("cannot split the command line: %s" % e)
    spec = {"sglang_version": version, "env": dict(env or {}), "extra_args": []}
    speculative = {}
    i = 0
    while i < len(argv):
        tok = argv[i]
        group = [tok]
        i += 1
        while i < len(argv) and (not argv[i].startswith("--") or NUM.match(argv[i])):
            group.append(argv[i])
            i += 1
        try:
            args, _u, _n = parse_argv(group, rel)
        except Refused as e:
            raise ValueError("SGLang %s would not parse %r: %s" % (version, " ".join(group), e.message))
        mapped = False
        for dest, value in args.items():
            if dest in _DEST_TO_SPEC:
                spec[_DEST_TO_SPEC[dest]] = value
                mapped = True
            elif dest in _DEST_TO_SPECULATIVE:
                speculative[_DEST_TO_SPECULATIVE[dest]] = value
                mapped = True
        if not mapped:
            spec["extra_args"].extend(group)
    if speculative:
        if speculative.get("num_draft_tokens") is not None and speculative.get("block_size") is None and \
                str(speculative.get("algorithm", "")).upper() == "DFLASH":
            speculative["block_size"] = speculative.pop("num_draft_tokens")
        speculative.setdefault("verify", "linear")
        spec["speculative"] = speculative
    spec.setdefault("device", None)
    spec.setdefault("host", None)
    spec.setdefault("port", None)
    spec.setdefault("tp_size", None)
    return spec
