# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""THE engine: SGLang speculative-decoding flags per SGLang version, without SGLang.

One code path for the controller preflight and the host validation:

    spec (docs/interfaces.md)  --render()-->  argv  --parse_argv()-->  args
    args --_resolve()--> what SGLang's own argument resolution would do (errors, warnings, resolved)
         + config.json checks (what SGLang only finds at worker start)
         + GPU checks (what fails on the hardware)
         + overrides (requested vs resolved; a speculative one is an error unless allowed)

A hand-written command line takes the same path from parse_argv() on (validate_argv), and
argv_to_spec() turns it back into a spec for migration.

Sources of the rules: /work/shared/reference/sglang.md sections 1-4, 5, 7, 10 and the 0.5.23
resolver itself (tests/oracle checks the 0.5.23 table against it). The 0.5.23 parser table is
captured from the real parser (sglang_flagdata.py); the 0.5.11 and 0.5.16 tables are derived from it
with the documented renames and removals, so a flag those versions do not list is a warning there,
not an error.

stdlib only; no Ansible import.
"""
from __future__ import annotations

import difflib
import json
import os
import re
import shlex

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_flagdata import FLAGS_0_5_23
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common

# ----------------------------------------------------------------------------------------------
# Version tables
# ----------------------------------------------------------------------------------------------
_NEW_IN_0_5_23 = ("--speculative-draft-kv-cache-dtype", "--speculative-use-block-verification",
                  "--speculative-draft-sink-size", "--attn-dp-size")
_NEW_IN_0_5_16 = ("--speculative-draft-window-size", "--mamba-radix-cache-strategy",
                  "--cuda-graph-max-bs-decode", "--cuda-graph-max-bs-prefill",
                  "--cuda-graph-bs-decode", "--cuda-graph-bs-prefill")
# flag -> (kind, type, choices, dest) for the flags 0.5.23 removed
_OLD_FLAGS = {
    "--speculative-dflash-draft-window-size": ("store", "int", None, "speculative_draft_window_size"),
    "--mamba-scheduler-strategy": ("store", "str", ("auto", "extra_buffer", "no_buffer"),
                                   "mamba_radix_cache_strategy"),
    "--cuda-graph-max-bs": ("store", "int", None, "cuda_graph_max_bs_decode"),
    "--cuda-graph-bs": ("list", "int", None, "cuda_graph_bs_decode"),
}
_RENAMED = {  # old -> new (0.5.16 keeps the old one as a deprecated alias, 0.5.23 removed it)
    "--speculative-dflash-draft-window-size": "--speculative-draft-window-size",
    "--mamba-scheduler-strategy": "--mamba-radix-cache-strategy",
    "--cuda-graph-max-bs": "--cuda-graph-max-bs-decode",
    "--cuda-graph-bs": "--cuda-graph-bs-decode",
}

DFLASH_DRAFT_ARCHS = {
    "0.5.11": ("DFlashDraftModel",),
    "0.5.16": ("DFlashDraftModel", "DFlashLagunaForCausalLM"),
    "0.5.23": ("DFlashDraftModel", "DFlashLagunaForCausalLM", "DFlash2DraftModel", "DFlash2BeamDraftModel",
               "MiniMaxDFlash2DraftModel", "MuseGlimmerAssistantModel"),
}
# Target classes known to implement set_dflash_layers_to_capture (sglang.md section 4; not exhaustive).
DFLASH_TARGET_ARCHS = ("Qwen3ForCausalLM", "Qwen3MoeForCausalLM", "Qwen3NextForCausalLM",
                       "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",
                       "Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM", "Qwen3VLForConditionalGeneration",
                       "GptOssForCausalLM", "LlamaForCausalLM", "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM")
HYBRID_GDN_ARCH = re.compile(r"^Qwen3(_5|_6|Next)")

VERSIONS = {
    "0.5.11": {
        "exact_table": False,
        "window_flag": "--speculative-dflash-draft-window-size",
        "deprecated": {},
        "algorithms": ("DFLASH", "EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM"),
        "algorithm_case_sensitive": True,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton"),
        "dflash_device_check": False,
        "dp_attention_rejected": True,
        "dflash_overlap_off": True,
        "dflash_mixed_chunk_off": True,
        "trtllm_mha_prefill_sm120": False,
        "fa4_sm120": False,
    },
    "0.5.16": {
        "exact_table": False,
        "window_flag": "--speculative-draft-window-size",
        "deprecated": dict(_RENAMED),
        "algorithms": ("DFLASH", "EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM"),
        "algorithm_case_sensitive": False,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend"),
        "dflash_device_check": "0.5.16",
        "dp_attention_rejected": True,
        "dflash_overlap_off": False,
        "dflash_mixed_chunk_off": True,
        "trtllm_mha_prefill_sm120": False,
        "fa4_sm120": False,
    },
    "0.5.23": {
        "exact_table": True,
        "window_flag": "--speculative-draft-window-size",
        "deprecated": {"--enable-dp-attention": "--attn-dp-size",
                       "--disable-cuda-graph": "--cuda-graph-backend-decode=disabled"},
        "algorithms": ("DFLASH", "UNO", "DSPARK", "EAGLE", "EAGLE3", "NEXTN", "FROZEN_KV_MTP", "STANDALONE",
                       "NGRAM"),
        "algorithm_case_sensitive": False,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend", "trtllm_mha", "intel_xpu"),
        "dflash_device_check": "0.5.23",
        "dp_attention_rejected": False,
        "dflash_overlap_off": False,
        "dflash_mixed_chunk_off": False,
        "trtllm_mha_prefill_sm120": True,
        "fa4_sm120": True,
    },
}
KNOWN_VERSIONS = tuple(VERSIONS)


def _build_tables():
    t23 = dict(FLAGS_0_5_23)
    t16 = {k: v for k, v in t23.items() if k not in _NEW_IN_0_5_23}
    t16.update(_OLD_FLAGS)
    t11 = {k: v for k, v in t16.items() if k not in _NEW_IN_0_5_16}
    t11["--speculative-dflash-draft-window-size"] = ("store", "int", None, "speculative_draft_window_size")
    k, typ, _c, dest = t11["--speculative-algorithm"]
    t11["--speculative-algorithm"] = (k, typ, VERSIONS["0.5.11"]["algorithms"], dest)
    return {"0.5.11": t11, "0.5.16": t16, "0.5.23": t23}


FLAG_TABLES = _build_tables()
_KNOWN_ABSENT = {"0.5.11": _NEW_IN_0_5_23 + _NEW_IN_0_5_16, "0.5.16": _NEW_IN_0_5_23}

# DDTree / tree-verify flavors (sglang.md section 5). Order = preference when several are present.
TREE_FLAVORS = {
    "sglang-pr31069": {"flags": {"--speculative-dflash-tree-verify": ("flag", None, None, "speculative_dflash_tree_verify")},
                       "what": "SGLang PR #31069 (--speculative-dflash-tree-verify, topk 4/8/16, spec-V2)"},
    "sglang-pr29907": {"flags": {"--speculative-ddtree-budget": ("store", "int", None, "speculative_ddtree_budget")},
                       "what": "SGLang PR #29907 (--speculative-algorithm DDTREE, --speculative-ddtree-budget)"},
    "sglang-pr36196": {"flags": {"--speculative-dflash-tree-width": ("store", "int", None, "speculative_dflash_tree_width")},
                       "what": "SGLang PR #36196 (--speculative-dflash-tree-width, greedy only)"},
    "fork-db-guo": {"flags": {"--speculative-dflash-enable-ddtree": ("flag", None, None, "speculative_dflash_enable_ddtree")},
                    "what": "fork DB-Guo/sglang-ddtree-dev (--speculative-dflash-enable-ddtree)"},
}
TREE_ORDER = ("sglang-pr31069", "sglang-pr29907", "sglang-pr36196", "fork-db-guo")

# What the result's `resolved` reports (SGLang's field names, as in /server_info).
RESOLVED_KEYS = (
    "speculative_algorithm", "speculative_draft_model_path", "speculative_num_draft_tokens",
    "speculative_num_steps", "speculative_eagle_topk", "speculative_draft_attention_backend",
    "speculative_draft_window_size", "speculative_draft_sink_size", "speculative_dflash_block_size",
    "attention_backend", "prefill_attention_backend", "max_running_requests", "disable_overlap_schedule",
    "enable_mixed_chunk", "page_size", "tp_size", "dp_size", "pp_size", "device", "context_length", "mem_fraction_static",
)
SPECULATIVE_FIELDS = tuple(k for k in RESOLVED_KEYS if k.startswith("speculative_"))

SECRET_ENV = server_common.SECRET_NAME  # one pattern with the host's (server_common)
LONG_CONTEXT_ENV = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"

# ----------------------------------------------------------------------------------------------
# The structured spec
# ----------------------------------------------------------------------------------------------
_INT = (int,)
_STR = (str,)
SPEC_KEYS = {
    "sglang_version": (_STR, None), "model_path": (_STR, None), "served_model_name": (_STR, None),
    "host": (_STR, "127.0.0.1"), "port": (_INT, 30000), "device": (_STR, "cuda"),
    "tp_size": (_INT, 1), "dp_size": (_INT, 1), "pp_size": (_INT, 1),
    "attention_backend": (_STR, None), "prefill_attention_backend": (_STR, None),
    "mem_fraction_static": ((int, float), None), "context_length": (_INT, None),
    "max_running_requests": (_INT, None), "speculative": ((dict,), None),
    "extra_args": ((list,), []), "env": ((dict,), {}),
}
SPECULATIVE_KEYS = {
    "algorithm": (_STR, None), "draft_model_path": (_STR, None), "verify": (_STR, "linear"),
    "block_size": (_INT, None), "draft_window_size": (_INT, None), "tree_budget": (_INT, None),
    "num_steps": (_INT, None), "eagle_topk": (_INT, None), "num_draft_tokens": (_INT, None),
    "draft_attention_backend": (_STR, None), "allow_overrides": ((list,), []),
}
# spec field (speculative.*) -> SGLang field, for allow_overrides and argv_to_spec
SPEC_TO_SGLANG = {
    "algorithm": "speculative_algorithm", "draft_model_path": "speculative_draft_model_path",
    "block_size": "speculative_num_draft_tokens", "num_draft_tokens": "speculative_num_draft_tokens",
    "draft_window_size": "speculative_draft_window_size", "num_steps": "speculative_num_steps",
    "eagle_topk": "speculative_eagle_topk", "draft_attention_backend": "speculative_draft_attention_backend",
}


class Result(object):
    """ok, errors [{code, message, field, stage}], warnings [{code, message}], resolved, overrides."""

    def __init__(self):
        self.errors = []
        self.warnings = []
        self.resolved = {}
        self.overrides = []
        self.argv = []
        self.env = {}
        self.capabilities = None
        self.tree_verify = None
        self.sglang_verdict = {"accepted": True, "code": None, "stage": None, "message": None}

    @property
    def ok(self):
        return not self.errors

    def error(self, code, message, field=None, stage="policy"):
        self.errors.append({"code": code, "message": message, "field": field, "stage": stage})

    def warn(self, code, message):
        self.warnings.append({"code": code, "message": message})

    def codes(self):
        return [e["code"] for e in self.errors]

    def as_dict(self):
        return {
            "ok": self.ok, "argv": list(self.argv), "env": dict(self.env), "errors": list(self.errors),
            "notes": list(self.warnings), "resolved": dict(self.resolved), "overrides": list(self.overrides),
            "capabilities": self.capabilities, "tree_verify": self.tree_verify,
            "sglang_verdict": dict(self.sglang_verdict),
            "unit_exec_lines": unit_exec_lines(self.argv),
        }


class _Refused(Exception):
    """SGLang's own resolution would raise here (it stops at its first error)."""

    def __init__(self, code, message, field=None):
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.field = field


def known_versions_text():
    return ", ".join(KNOWN_VERSIONS)


def version_rules(version, result=None):
    """The rule table for `version`, or None (with an error on `result`) for an unknown one."""
    v = str(version) if version is not None else None
    if v in VERSIONS:
        return VERSIONS[v]
    if result is not None:
        result.error("UNKNOWN_VERSION",
                     "SGLang version %r has no rule table; known versions: %s. Pin one of them (sglang_version), "
                     "or add the version's rules to plugins/module_utils/sglang_spec.py." % (version, known_versions_text()),
                     field="sglang_version", stage="input")
    return None


# ----------------------------------------------------------------------------------------------
# Spec checking and rendering
# ----------------------------------------------------------------------------------------------
def _type_name(types):
    return " or ".join({int: "integer", float: "number", str: "string", dict: "mapping", list: "list"}[t] for t in types)


def _check_keys(data, schema, where, result):
    out = {}
    for key in data:
        if key not in schema:
            close = difflib.get_close_matches(str(key), list(schema), n=1)
            hint = (" Did you mean %r?" % close[0]) if close else ""
            result.error("SPEC_UNKNOWN_KEY", "%s has unknown key %r.%s Valid keys: %s." % (
                where, key, hint, ", ".join(sorted(schema))), field="%s.%s" % (where, key), stage="input")
    for key, (types, default) in schema.items():
        value = data.get(key, default)
        if value is None:
            out[key] = None
            continue
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        if not ok:
            result.error("SPEC_TYPE", "%s.%s must be a %s, got %s %r." % (
                where, key, _type_name(types), type(value).__name__, value), field="%s.%s" % (where, key),
                stage="input")
            out[key] = default
        else:
            out[key] = value
    return out


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
        if not isinstance(k, str) or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k) or isinstance(v, (dict, list)):
            result.error("SPEC_TYPE", "spec.env must map variable names to scalar values; bad entry %r." % (k,),
                         field="spec.env", stage="input")
    return s


def _tree_flavor(capabilities):
    if not capabilities or not isinstance(capabilities, dict):
        return None
    present = capabilities.get("tree_verify") or []
    for fid in TREE_ORDER:
        if fid in present:
            return fid
    return None


def render(spec, result, capabilities=None):
    """Render a normalized spec into argv (flags only). Tree verify picks the probed flavor."""
    rules = version_rules(spec["sglang_version"], result)
    if rules is None:
        return None
    argv = ["--model-path", spec["model_path"]]

    def add(flag, value):
        if value is not None:
            argv.extend([flag, _fmt(value)])

    add("--served-model-name", spec.get("served_model_name"))
    add("--host", spec.get("host"))
    add("--port", spec.get("port"))
    add("--device", spec.get("device"))
    add("--tp-size", spec.get("tp_size"))
    if spec.get("dp_size") not in (None, 1):
        add("--dp-size", spec["dp_size"])
    if spec.get("pp_size") not in (None, 1):
        add("--pp-size", spec["pp_size"])
    add("--attention-backend", spec.get("attention_backend"))
    add("--prefill-attention-backend", spec.get("prefill_attention_backend"))
    add("--mem-fraction-static", spec.get("mem_fraction_static"))
    add("--context-length", spec.get("context_length"))
    add("--max-running-requests", spec.get("max_running_requests"))
    sp = spec.get("speculative")
    if sp:
        algo = sp.get("algorithm")
        tree = sp.get("verify") == "tree"
        flavor = None
        if tree:
            flavor = _tree_flavor(capabilities)
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
        budget = sp.get("tree_budget")
        if budget is not None and not tree:
            result.error("SPEC_VALUE", "spec.speculative.tree_budget only applies to verify: tree.",
                         field="spec.speculative.tree_budget", stage="input")
        if budget is not None and budget < 1:
            result.error("TREE_BUDGET", "spec.speculative.tree_budget must be >= 1, got %s." % budget,
                         field="spec.speculative.tree_budget", stage="input")
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
    argv.extend(_fmt(a) for a in (spec.get("extra_args") or []))
    return argv


def _fmt(value):
    if isinstance(value, float):
        return repr(value)
    return str(value)


# ----------------------------------------------------------------------------------------------
# argv parsing (argparse semantics: unique prefixes, ambiguity, "unrecognized arguments")
# ----------------------------------------------------------------------------------------------
_PROGRAM_HINT = re.compile(r"(python|sglang|launch_server|^serve$|^-m$)")


def strip_program(argv):
    """Drop a leading program (`python -m sglang.launch_server`, `sglang serve`, ...) from argv."""
    if isinstance(argv, str):
        # a unit's ExecStart: continuation lines ("\\" + newline) and systemd's %%/$$ escapes
        argv = shlex.split(re.sub(r"\\\s*\n", " ", argv).replace("%%", "%").replace("$$", "$"))
    argv = [str(a) for a in argv]
    i = 0
    while i < len(argv) and not argv[i].startswith("-") and _PROGRAM_HINT.search(argv[i]):
        i += 1
        if i < len(argv) and argv[i] == "-m":
            i += 2
    if i and i < len(argv) and argv[i] == "serve":
        i += 1
    return argv[i:]


_NUM = re.compile(r"^-\d+$|^-\d*\.\d+$")
_HUMAN = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)\s*$")


def _convert(flag, typ, choices, raw):
    if typ == "int":
        try:
            value = int(raw)
        except ValueError:
            raise _Refused("PARSE_INVALID_VALUE", "argument %s: invalid int value: %r" % (flag, raw), flag)
    elif typ == "float":
        try:
            value = float(raw)
        except ValueError:
            raise _Refused("PARSE_INVALID_VALUE", "argument %s: invalid float value: %r" % (flag, raw), flag)
    elif typ == "human_readable_int":
        m = _HUMAN.match(raw)
        if not m:
            raise _Refused("PARSE_INVALID_VALUE", "argument %s: invalid human_readable_int value: %r" % (flag, raw), flag)
        value = int(float(m.group(1)) * {"": 1, "k": 1000, "m": 1000 ** 2, "g": 1000 ** 3}[m.group(2).lower()])
    else:
        value = raw
    if choices is not None and str(value) not in choices:
        raise _Refused("PARSE_INVALID_VALUE", "argument %s: invalid choice: %r (choose from %s)" % (
            flag, raw, ", ".join(choices)), flag)
    return value


def parse_argv(argv, version, extra_flags=None):
    """Parse argv like `sglang serve`'s parser of `version`.

    Returns (args {dest: value}, used {dest: flag as written}, notes [(code, message)]).
    Raises _Refused on the first error argparse would exit with (status 2).
    """
    table = FLAG_TABLES[version]
    if extra_flags:
        table = dict(table)
        table.update(extra_flags)
    rules = VERSIONS[version]
    args, used, notes, unrecognized = {}, {}, [], []
    i = 0
    n = len(argv)
    while i < n:
        tok = argv[i]
        i += 1
        if not tok.startswith("--") or tok == "--":
            if tok.startswith("-") and not _NUM.match(tok) and tok != "-":
                raise _Refused("PARSE_UNRECOGNIZED", "unrecognized arguments: %s (short options are not used by "
                               "sglang serve)" % tok, tok)
            unrecognized.append(tok)
            continue
        name, eq, inline = tok.partition("=")
        if name in table:
            flag = name
        else:
            cands = [f for f in table if f.startswith(name)]
            if len(cands) > 1:
                raise _Refused("PARSE_AMBIGUOUS", "ambiguous option: %s could match %s" % (name, ", ".join(sorted(cands))),
                               name)
            if not cands:
                unrecognized.append(tok)
                continue
            flag = cands[0]
            notes.append(("FLAG_ABBREVIATED", "%s is an abbreviation of %s: write the full flag (a new SGLang flag "
                          "sharing the prefix would make it ambiguous)." % (name, flag)))
        kind, typ, choices, dest = table[flag]
        if kind == "flag":
            if eq:
                raise _Refused("PARSE_INVALID_VALUE", "argument %s: ignored explicit argument %r" % (flag, inline), flag)
            value = not (flag.startswith("--no-") and not dest.startswith("no_"))
        elif kind == "list":
            vals = [inline] if eq else []
            while not eq and i < n and (not argv[i].startswith("-") or _NUM.match(argv[i])):
                vals.append(argv[i])
                i += 1
            value = [_convert(flag, typ, choices, v) for v in vals]
        else:
            if eq:
                raw = inline
            elif i < n and (argv[i][:1] != "-" or _NUM.match(argv[i])):
                raw = argv[i]
                i += 1
            elif kind == "optional":
                raw = None
            else:
                raise _Refused("PARSE_MISSING_VALUE", "argument %s: expected one argument" % flag, flag)
            value = _convert(flag, typ, choices, raw) if raw is not None else None
        args[dest] = value
        used[dest] = flag
        if flag in rules["deprecated"]:
            notes.append(("FLAG_DEPRECATED", "'%s' is deprecated in SGLang %s and will be removed: use '%s' instead." % (
                flag, version, rules["deprecated"][flag])))
    if unrecognized:
        removed = [t for t in unrecognized if t.split("=")[0] in _RENAMED]
        newer = [t for t in unrecognized if t.split("=")[0] in _KNOWN_ABSENT.get(version, ())]
        hint = ""
        if newer:
            hint = " (%s: not in SGLang %s, added in a later release)" % (", ".join(newer), version)
        elif removed:
            hint = " (SGLang %s removed %s: use %s)" % (version, ", ".join(removed), ", ".join(
                _RENAMED[t.split("=")[0]] for t in removed))
        elif not rules["exact_table"]:
            notes.append(("FLAG_UNVERIFIED", "the SGLang %s flag table is derived, not captured: %s not checked; "
                          "validate with mode: installed." % (version, " ".join(unrecognized))))
            return args, used, notes
        raise _Refused("PARSE_UNRECOGNIZED", "unrecognized arguments: %s%s" % (" ".join(unrecognized), hint),
                       unrecognized[0])
    return args, used, notes


# ----------------------------------------------------------------------------------------------
# config.json handling
# ----------------------------------------------------------------------------------------------
class ConfigError(Exception):
    pass


def load_config(source):
    """dict -> itself; path to a dir or a config.json -> parsed dict. Raises ConfigError (readable message)."""
    if source is None:
        return None
    if isinstance(source, dict):
        return source
    if not isinstance(source, str):
        raise ConfigError("a model config must be a mapping or a path, got %s" % type(source).__name__)
    path = os.path.join(source, "config.json") if os.path.isdir(source) else source
    try:
        with open(path, "r") as f:
            data = json.load(f)
    except (OSError, IOError) as e:
        raise ConfigError("cannot read %s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise ConfigError("%s is not valid JSON: %s" % (path, e))
    if not isinstance(data, dict):
        raise ConfigError("%s must hold a JSON object" % path)
    return data


def _text_cfg(cfg):
    tc = cfg.get("text_config")
    return tc if isinstance(tc, dict) else cfg


def _dflash_cfg(cfg):
    d = cfg.get("dflash_config")
    return d if isinstance(d, dict) else {}


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def infer_block_size(draft_cfg):
    """What 0.5.23 infers as speculative_num_draft_tokens from the drafter (None = its default 16).

    Mirrors parse_dflash_draft_config(...).resolve_block_size(): nested dflash_config wins over
    the top level; any invalid field makes the whole parse fail (SGLang then falls back to 16).
    """
    d = _dflash_cfg(draft_cfg)
    t = _text_cfg(draft_cfg)

    def opt_int(raw, min_value):
        if raw is None:
            return None
        try:
            v = int(raw)
        except (TypeError, ValueError):
            raise ValueError("not an int")
        if v < min_value:
            raise ValueError("too small")
        return v

    try:
        opt_int(t.get("num_hidden_layers"), 1)
        opt_int(d.get("num_target_layers", draft_cfg.get("num_target_layers")), 1)
        block = opt_int(d.get("block_size", draft_cfg.get("block_size")), 1)
        ids = d.get("target_layer_ids", draft_cfg.get("target_layer_ids"))
        if ids is not None:
            if not isinstance(ids, (list, tuple)) or not ids:
                raise ValueError("target_layer_ids")
            [int(x) for x in ids]
        mtid = d.get("mask_token_id", draft_cfg.get("mask_token_id"))
        if mtid is not None and (not _is_int(mtid) or mtid < 0):
            raise ValueError("mask_token_id")
        mask_token = d.get("mask_token", draft_cfg.get("mask_token"))
        if mask_token is not None and (not isinstance(mask_token, str) or not mask_token):
            raise ValueError("mask_token")
    except (ValueError, TypeError):
        return None, False
    return block, True


def check_draft_config(draft, target, version, args, env, result):
    """Drafter vs target config.json checks (what SGLang only finds when the workers load)."""
    archs = draft.get("architectures") or []
    allowed = DFLASH_DRAFT_ARCHS[version]
    if not any(a in allowed for a in archs):
        result.error("DRAFT_ARCHITECTURE", "the drafter's config.json architectures %r are not a DFLASH draft model "
                     "SGLang %s knows (%s); SGLang would load a generic class. Use a DFlash drafter (e.g. "
                     "z-lab/<target>-DFlash)." % (archs, version, ", ".join(allowed)), field="draft_config.architectures",
                     stage="load")
    d = _dflash_cfg(draft)
    t = _text_cfg(draft)
    nested, top = d.get("block_size"), draft.get("block_size")
    block = nested if nested is not None else top
    if block is None:
        result.warn("DRAFT_BLOCK_SIZE_MISSING", "the drafter's config.json has no block_size; SGLang defaults to 16 "
                    "draft tokens. Set speculative.block_size to the size the drafter was trained with.")
    elif not _is_int(block) or block < 1:
        result.error("DRAFT_BLOCK_SIZE", "the drafter's block_size is %r; it must be an integer >= 1 (SGLang would "
                     "fall back to 16 draft tokens with only a warning). Fix the drafter config." % (block,),
                     field="draft_config.block_size", stage="load")
    if nested is not None and top is not None and nested != top:
        result.warn("DRAFT_BLOCK_SIZE_CONFLICT", "the drafter's dflash_config.block_size (%r) and top-level block_size "
                    "(%r) differ; SGLang uses the nested one (%r) without a warning." % (nested, top, nested))
    requested = args.get("speculative_num_draft_tokens", args.get("speculative_dflash_block_size"))
    if _is_int(block) and block >= 1 and requested is not None and requested != block:
        result.warn("BLOCK_SIZE_MISMATCH", "speculative_num_draft_tokens=%s but the drafter's block_size=%s: SGLang "
                    "runs it (\"DFLASH block size mismatch\") but acceptance drops; use the drafter's block size." % (
                        requested, block))
    nhl = t.get("num_hidden_layers")
    if nhl is None:
        result.error("DRAFT_NUM_LAYERS", "the drafter's config.json has no num_hidden_layers; SGLang requires it.",
                     field="draft_config.num_hidden_layers", stage="load")
    elif not _is_int(nhl) or nhl < 1:
        result.error("DRAFT_NUM_LAYERS", "the drafter's num_hidden_layers is %r; it must be >= 1." % (nhl,),
                     field="draft_config.num_hidden_layers", stage="load")
    target_layers = _text_cfg(target).get("num_hidden_layers") if target else None
    ids = d.get("target_layer_ids", draft.get("target_layer_ids"))
    if ids is None:
        if _is_int(target_layers) and target_layers < 4:
            result.error("DRAFT_LAYER_IDS", "the drafter sets no target_layer_ids and the target has %s layers; "
                         "SGLang needs >= 4 to spread them." % target_layers, field="draft_config.target_layer_ids",
                         stage="load")
    elif not isinstance(ids, list) or not ids or not all(_is_int(x) for x in ids):
        result.error("DRAFT_LAYER_IDS", "the drafter's target_layer_ids must be a non-empty list of ints, got %r."
                     % (ids,), field="draft_config.target_layer_ids", stage="load")
    elif _is_int(target_layers):
        bad = [x for x in ids if x < 0 or x >= target_layers]
        if bad:
            result.error("DRAFT_LAYER_IDS_RANGE", "the drafter reads target layers %s but the target has only %s "
                         "layers (ids 0..%s): this drafter was trained for another target. Pair the drafter "
                         "with its own target." % (bad, target_layers, target_layers - 1),
                         field="draft_config.target_layer_ids", stage="load")
    ntl = d.get("num_target_layers", draft.get("num_target_layers"))
    if _is_int(ntl) and _is_int(target_layers) and ntl != target_layers:
        result.warn("DRAFT_TARGET_LAYERS", "the drafter was built for a %s-layer target; this target has %s layers."
                    % (ntl, target_layers))
    mtid = d.get("mask_token_id", None if version == "0.5.11" else draft.get("mask_token_id"))
    vocab = _text_cfg(target).get("vocab_size") if target else None
    dvocab = t.get("vocab_size")
    if _is_int(vocab) and _is_int(dvocab) and dvocab != vocab:
        result.error("DRAFT_VOCAB", "the drafter's vocab_size %s differs from the target's %s: it was trained for "
                     "another tokenizer and would accept about one token per step. Pair the drafter with its own "
                     "target." % (dvocab, vocab), field="draft_config.vocab_size", stage="load")
    if mtid is not None:
        if not _is_int(mtid) or mtid < 0:
            result.error("DRAFT_MASK_TOKEN", "the drafter's mask_token_id must be an integer >= 0, got %r." % (mtid,),
                         field="draft_config.mask_token_id", stage="load")
        elif _is_int(vocab) and mtid >= vocab:
            result.error("DRAFT_MASK_TOKEN_VOCAB", "the drafter's mask_token_id %s is outside the target vocab (size %s):"
                         " SGLang fails at load. Pair the drafter with its own target." % (mtid, vocab),
                         field="draft_config.mask_token_id", stage="load")
    _check_context(draft, target, args, env, result, draft_too=True)


def _truthy_env(env, name):
    return str((env or {}).get(name, "")).strip().lower() in ("1", "true", "yes", "on")


def _check_context(draft, target, args, env, result, draft_too):
    allowed = _truthy_env(env, LONG_CONTEXT_ENV)
    tgt_max = _text_cfg(target).get("max_position_embeddings") if target else None
    want = args.get("context_length")
    if want is not None and _is_int(tgt_max) and want > tgt_max:
        if allowed:
            result.warn("CONTEXT_OVERWRITE", "context_length %s exceeds the target's max_position_embeddings %s; "
                        "allowed by %s=1." % (want, tgt_max, LONG_CONTEXT_ENV))
        else:
            result.error("CONTEXT_TOO_LONG", "context_length %s exceeds the target's max_position_embeddings %s: SGLang "
                         "refuses it at load. Lower context_length or set env %s=1." % (want, tgt_max, LONG_CONTEXT_ENV),
                         field="context_length", stage="load")
    if not draft_too or draft is None:
        return
    effective = want if want is not None else tgt_max
    dmax = _text_cfg(draft).get("max_position_embeddings")
    if _is_int(effective) and _is_int(dmax) and dmax < effective:
        if allowed:
            result.warn("CONTEXT_OVERWRITE", "the drafter's context (%s) is shorter than the target's (%s); %s=1 makes "
                        "SGLang override the drafter's max_position_embeddings." % (dmax, effective, LONG_CONTEXT_ENV))
        else:
            result.error("CONTEXT_DRAFT_SHORTER", "the drafter's context (%s) is shorter than the target's (%s): the "
                         "draft load fails. Set env %s=1 (as z-lab's launch does) or lower context_length to %s." % (
                             dmax, effective, LONG_CONTEXT_ENV, dmax), field="env", stage="load")


# ----------------------------------------------------------------------------------------------
# Resolution (what SGLang's argument resolution does), per version
# ----------------------------------------------------------------------------------------------
def _get(args, key, default=None):
    v = args.get(key)
    return default if v is None else v


def _resolve(args, env, version, draft_cfg, target_cfg, platform, result, tree_flavor):
    """Emulate SGLang's argument resolution for the speculative settings. Raises _Refused."""
    rules = VERSIONS[version]
    r = {k: args.get(k) for k in RESOLVED_KEYS}
    r["tp_size"] = _get(args, "tp_size", 1)
    r["dp_size"] = _get(args, "dp_size", 1)
    r["pp_size"] = _get(args, "pp_size", 1)
    r["device"] = args.get("device")
    r["disable_overlap_schedule"] = bool(args.get("disable_overlap_schedule"))
    r["enable_mixed_chunk"] = bool(args.get("enable_mixed_chunk"))
    result.resolved = r
    if r["attention_backend"] is None:
        r["attention_backend"] = platform.get("default_attention_backend")
    prefill = r["prefill_attention_backend"] or r["attention_backend"]
    decode = args.get("decode_attention_backend") or r["attention_backend"]
    sm = platform.get("sm")
    if version == "0.5.23" and platform.get("gpus_known"):
        # attention hook, before the speculative one: SM-dependent trtllm_mha checks
        for phase, backend in (("prefill", prefill), ("decode", decode)):
            if backend == "trtllm_mha" and sm not in (90, 100, 120):
                raise _Refused("TRTLLM_MHA_GPU", "TRTLLM MHA backend for %s needs a Hopper (SM90), Blackwell (SM100) or "
                               "SM120 GPU; this host has %s. Use flashinfer or triton." % (
                                   phase, ("sm_%s" % sm) if sm else "no visible GPU"), "attention_backend")
            if phase == "prefill" and backend == "trtllm_mha" and sm == 120 and args.get("kv_cache_dtype") == "fp8_e4m3":
                raise _Refused("TRTLLM_MHA_SM120_FP8", "TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV "
                               "cache: use another kv_cache_dtype or attention backend.", "kv_cache_dtype")

    page = _get(args, "page_size", 1)
    if "trtllm_mha" in (r["attention_backend"], args.get("decode_attention_backend"), r["prefill_attention_backend"],
                        args.get("speculative_draft_attention_backend")) and page not in (16, 32, 64, 128):
        page = 64  # TensorRT-LLM MHA page sizes (SGLang warns and changes it)
    r["page_size"] = page

    algo = args.get("speculative_algorithm")
    if algo is not None and not rules["algorithm_case_sensitive"]:
        algo = algo.upper()
    if algo in ("NEXTN", "EAGLE"):
        algo = "EAGLE"
    if tree_flavor == "sglang-pr29907" and algo == "DDTREE":
        algo_known = True
    else:
        algo_known = algo is None or algo in rules["algorithms"]
    r["speculative_algorithm"] = algo
    window = args.get("speculative_draft_window_size")
    if window is not None:
        if window <= 0:
            raise _Refused("WINDOW_NONPOSITIVE", "%s must be positive, got %s." % (rules["window_flag"], window),
                           "speculative_draft_window_size")
        if algo not in ("EAGLE", "EAGLE3", "DFLASH"):
            result.warn("WINDOW_NO_EFFECT", "%s has no effect with speculative_algorithm=%s." % (rules["window_flag"], algo))
    sink = args.get("speculative_draft_sink_size")
    if sink is not None:
        if sink < 0:
            raise _Refused("SINK_NEGATIVE", "--speculative-draft-sink-size must be non-negative, got %s." % sink,
                           "speculative_draft_sink_size")
        if window is None:
            raise _Refused("SINK_WITHOUT_WINDOW", "--speculative-draft-sink-size requires --speculative-draft-window-size.",
                           "speculative_draft_sink_size")
    if not algo_known:
        raise _Refused("UNKNOWN_ALGORITHM", "Unknown speculative algorithm name: %s. SGLang %s knows %s; DDTree needs a "
                       "tree-verify build (use verify: tree with a probe)." % (
                           args.get("speculative_algorithm"), version, ", ".join(rules["algorithms"])),
                       "speculative_algorithm")
    if _truthy_env(env, "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION") and (
            algo not in ("EAGLE", "EAGLE3", "DSPARK") or args.get("enable_multi_layer_eagle")):
        raise _Refused("ENV_DP_SPEC_PREFILL", "DP spec/prefill coordination requires single-layer EAGLE, EAGLE3 or "
                       "DSPARK: remove SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION from env (got algorithm %s)." % algo,
                       "env")
    if algo in ("DFLASH", "DDTREE"):
        _resolve_dflash(args, env, version, rules, r, draft_cfg, platform, result, prefill, tree_flavor)
    elif algo in ("EAGLE", "EAGLE3", "STANDALONE"):
        _resolve_eagle(args, version, r, target_cfg, result, prefill)
    elif algo is not None:
        result.warn("ALGORITHM_NOT_MODELLED", "speculative_algorithm %s is passed through: the static rules cover "
                    "DFLASH and the EAGLE family; check it with mode: installed." % algo)
    # check_server_args (after resolution): pipeline parallelism takes only single-layer EAGLE
    if version == "0.5.23" and r["pp_size"] > 1 and algo is not None and algo != "EAGLE":
        raise _Refused("PP_SPECULATIVE", "Pipeline parallelism currently only supports EAGLE (non-multi-layer) "
                       "speculative decoding; got %s with --pp-size %s." % (algo, r["pp_size"]), "pp_size")
    if version == "0.5.23" and r["pp_size"] > 1 and algo == "EAGLE":
        mode = _get(args, "disaggregation_mode", "null")
        if _truthy_env(env, "SGLANG_ENABLE_PP_SPEC"):
            if mode != "null" or args.get("speculative_adaptive"):
                raise _Refused("PP_SPEC_ENV", "SGLANG_ENABLE_PP_SPEC is not compatible with --disaggregation-mode or "
                               "--speculative-adaptive.", "env")
        elif mode != "prefill":
            raise _Refused("PP_SPEC_PREFILL_ONLY", "PP + speculative decoding (MTP) is only supported on prefill nodes "
                           "(disaggregation-mode=prefill), unless SGLANG_ENABLE_PP_SPEC=1; drop --pp-size or the "
                           "speculative algorithm.", "pp_size")
    return r


def _resolve_dflash(args, env, version, rules, r, draft_cfg, platform, result, prefill, tree_flavor):
    device = _get(args, "device", platform.get("device", "cuda"))
    if rules["dflash_device_check"] == "0.5.16" and not device.startswith("cuda"):
        raise _Refused("DFLASH_DEVICE", "DFLASH speculative decoding only supports CUDA device (SGLang %s); got "
                       "--device %s." % (version, device), "device")
    if rules["dflash_device_check"] == "0.5.23" and not (device.startswith("cuda") or device in ("npu", "xpu")):
        raise _Refused("DFLASH_DEVICE", "DFLASH speculative decoding is not supported on device %r (SGLang %s needs "
                       "cuda, npu or xpu)." % (device, version), "device")
    dp_attn = bool(args.get("enable_dp_attention")) and _get(args, "dp_size", 1) > 1 or _get(args, "attn_dp_size", 1) > 1
    if args.get("enable_dp_attention") and rules["dp_attention_rejected"]:
        raise _Refused("DFLASH_DP_ATTENTION", "Currently DFLASH speculative decoding does not support dp attention "
                       "(SGLang %s): drop --enable-dp-attention." % version, "enable_dp_attention")
    if dp_attn and not rules["dp_attention_rejected"] and device != "npu":
        if not args.get("enable_dp_lm_head"):
            raise _Refused("DFLASH_DP_LM_HEAD", "DFLASH with dp attention requires --enable-dp-lm-head.",
                           "enable_dp_lm_head")
    if _get(args, "pp_size", 1) != 1:
        raise _Refused("DFLASH_PP", "Currently DFLASH speculative decoding only supports pp_size == 1; got "
                       "--pp-size %s." % args["pp_size"], "pp_size")
    if args.get("speculative_draft_model_path") is None:
        raise _Refused("DFLASH_NO_DRAFT", "DFLASH speculative decoding requires setting "
                       "--speculative-draft-model-path (speculative.draft_model_path).", "speculative_draft_model_path")
    keep_topk = tree_flavor == "sglang-pr31069"
    for key, label in (("speculative_num_steps", "speculative_num_steps"), ("speculative_eagle_topk", "speculative_eagle_topk")):
        v = args.get(key)
        if key == "speculative_eagle_topk" and keep_topk:
            r[key] = v
            continue
        if v is not None and v != 1:
            result.warn("SGLANG_OVERRIDE", "DFLASH only supports %s == 1; SGLang overrides %s=%s to 1%s." % (
                label, label, v, " (DFLASH verify is linear: a topk > 1 asks for a tree SGLang does not build)"
                if key == "speculative_eagle_topk" else ""))
        r[key] = 1
    dbs = args.get("speculative_dflash_block_size")
    ndt = args.get("speculative_num_draft_tokens")
    if dbs is not None:
        if dbs <= 0:
            raise _Refused("DFLASH_BLOCK_SIZE_NONPOSITIVE", "DFLASH requires --speculative-dflash-block-size to be "
                           "positive, got %s." % dbs, "speculative_dflash_block_size")
        if ndt is not None and ndt != dbs:
            raise _Refused("DFLASH_BLOCK_SIZE_MISMATCH", "Both --speculative-num-draft-tokens (%s) and "
                           "--speculative-dflash-block-size (%s) are set but they differ; for DFLASH they must match: "
                           "keep one." % (ndt, dbs), "speculative_num_draft_tokens")
        ndt = dbs
    if ndt is None:
        if draft_cfg is None:
            result.warn("BLOCK_SIZE_UNKNOWN", "speculative_num_draft_tokens is not set and the drafter's config.json "
                        "was not given: SGLang takes it from the drafter at start. Set speculative.block_size.")
        else:
            inferred, parsed = infer_block_size(draft_cfg)
            if not parsed:
                result.warn("SGLANG_DEFAULT", "SGLang cannot parse the drafter's DFLASH config and defaults "
                            "speculative_num_draft_tokens to 16.")
            if inferred is None:
                inferred = 16
                if parsed:
                    result.warn("SGLANG_DEFAULT", "speculative_num_draft_tokens is not set and the drafter has no "
                                "block_size: SGLang defaults to 16.")
            ndt = inferred
    r["speculative_num_draft_tokens"] = ndt
    window = args.get("speculative_draft_window_size")
    if window is not None and ndt is not None and window < ndt:
        raise _Refused("WINDOW_LT_BLOCK", "%s must be >= --speculative-num-draft-tokens (block_size): window_size=%s, "
                       "block_size=%s." % (rules["window_flag"], window, ndt), "speculative_draft_window_size")
    # draft attention backend (sglang.md 3.3)
    # SGLang takes the explicit flag, else the target's prefill backend, and validates either one.
    explicit = args.get("speculative_draft_attention_backend")
    fallback = "flashinfer"
    chosen = explicit if explicit is not None else prefill
    how = "speculative_draft_attention_backend" if explicit is not None else \
        "the target's prefill attention backend (inherited by the draft)"
    if chosen is None:
        r["speculative_draft_attention_backend"] = None  # GPU-dependent default, decided on the host
    elif chosen not in rules["draft_backends"]:
        accepted = ", ".join(rules["draft_backends"])
        result.warn("SGLANG_OVERRIDE", "DFLASH draft worker does not support attention_backend %r from %s (SGLang %s "
                    "accepts %s); SGLang falls back to %r." % (chosen, how, version, accepted, fallback))
        r["speculative_draft_attention_backend"] = fallback
    elif chosen == "trtllm_mha":
        ok = False
        if draft_cfg is not None:
            t = _text_cfg(draft_cfg)
            lt = draft_cfg.get("layer_types", _dflash_cfg(draft_cfg).get("layer_types"))
            nl = t.get("num_hidden_layers")
            ok = (isinstance(lt, list) and lt and len(lt) == nl and set(lt) == {"sliding_attention"}) or \
                t.get("is_causal") is True
        if not ok:
            fb = "fa4" if platform.get("sm") == 100 else fallback
            result.warn("SGLANG_OVERRIDE", "DFLASH only enables 'trtllm_mha' (from %s) for drafts whose layers all use "
                        "sliding attention or that are explicitly causal; SGLang falls back to %r." % (how, fb))
            r["speculative_draft_attention_backend"] = fb
        else:
            r["speculative_draft_attention_backend"] = chosen
    else:
        r["speculative_draft_attention_backend"] = chosen
    if args.get("max_running_requests") is None:
        r["max_running_requests"] = 48
        result.warn("SGLANG_DEFAULT", "max_running_requests is not set: SGLang resets it to 48 for speculative "
                    "decoding. Set max_running_requests to choose.")
    if rules["dflash_overlap_off"]:
        r["disable_overlap_schedule"] = True
        result.warn("SGLANG_DEFAULT", "SGLang %s disables the overlap scheduler with DFLASH." % version)
    if rules["dflash_mixed_chunk_off"] and args.get("enable_mixed_chunk"):
        r["enable_mixed_chunk"] = False
        result.warn("SGLANG_OVERRIDE", "SGLang %s disables mixed chunked prefill with DFLASH." % version)


def _resolve_eagle(args, version, r, target_cfg, result, prefill):
    if args.get("max_running_requests") is None:
        r["max_running_requests"] = 48
        result.warn("SGLANG_DEFAULT", "max_running_requests is not set: SGLang resets it to 48 for speculative decoding.")
    steps, topk, ndt = (args.get("speculative_num_steps"), args.get("speculative_eagle_topk"),
                        args.get("speculative_num_draft_tokens"))
    arch = None
    if target_cfg:
        archs = target_cfg.get("architectures") or [None]
        arch = archs[0]
    if steps is None:
        if topk is not None or ndt is not None:
            raise _Refused("EAGLE_PARAMS_PARTIAL", "EAGLE: set --speculative-num-steps together with "
                           "--speculative-eagle-topk/--speculative-num-draft-tokens, or none of them (SGLang asserts).",
                           "speculative_num_steps")
        if r["speculative_algorithm"] == "STANDALONE":
            steps, topk, ndt = 3, 1, 4
        elif arch in ("LlamaForCausalLM", "Grok1ForCausalLM", "Grok1VForCausalLM"):
            steps, topk, ndt = 5, 4, 8
        elif arch is None:
            result.warn("EAGLE_PARAMS_UNKNOWN", "the target config was not given: SGLang picks num_steps/topk/"
                        "num_draft_tokens from its architecture at start.")
            steps = topk = ndt = None
        else:
            steps, topk, ndt = 3, 1, 4
    if steps is not None and topk is None:
        raise _Refused("EAGLE_TOPK_MISSING", "EAGLE with --speculative-num-steps needs --speculative-eagle-topk "
                       "(SGLang fails comparing None).", "speculative_eagle_topk")
    if topk is not None and topk > 1 and "trtllm_mha" in (prefill, r.get("attention_backend")):
        raise _Refused("EAGLE_TRTLLM_TOPK", "trtllm_mha backend only supports topk = 1 for speculative decoding.",
                       "speculative_eagle_topk")
    if topk == 1 and steps is not None and ndt != steps + 1:
        result.warn("SGLANG_OVERRIDE", "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 (%s) "
                    "when speculative_eagle_topk == 1." % (steps + 1))
        ndt = steps + 1
    r["speculative_num_steps"], r["speculative_eagle_topk"], r["speculative_num_draft_tokens"] = steps, topk, ndt
    if topk is not None and topk > 1 and r.get("page_size", 1) > 1 and r.get("attention_backend") not in (
            "flashinfer", "fa3", "triton"):
        raise _Refused("EAGLE_PAGE_TREE", "speculative_eagle_topk > 1 with page_size > 1 (%s) is only supported on "
                       "flashinfer, fa3 and triton; got attention_backend=%r. Use page_size 1 or one of those "
                       "backends." % (r["page_size"], r.get("attention_backend")), "speculative_eagle_topk")


# ----------------------------------------------------------------------------------------------
# GPU checks
# ----------------------------------------------------------------------------------------------
_SM_CACHE = {}


def _sm_of(gpu):
    key = (gpu.get("compute_capability"), gpu.get("compute_cap"), gpu.get("sm"), gpu.get("name"))
    try:
        return _SM_CACHE[key]
    except (KeyError, TypeError):
        pass
    sm = _sm_of_uncached(gpu)
    try:
        if len(_SM_CACHE) < 1024:
            _SM_CACHE[key] = sm
    except TypeError:
        pass
    return sm


def _sm_of_uncached(gpu):
    for key in ("compute_capability", "compute_cap", "sm"):
        v = gpu.get(key)
        if v is None:
            continue
        s = str(v).lower().replace("sm_", "").replace("sm", "")
        try:
            if "." in s:
                major, minor = s.split(".", 1)
                return int(major) * 10 + int(minor[:1] or 0)
            return int(s) if int(s) >= 10 else int(s) * 10
        except ValueError:
            continue
    name = str(gpu.get("name", ""))
    if re.search(r"RTX PRO 6000|Blackwell (Server|Workstation|Max-Q)", name, re.I):
        return 120
    return None


def platform_from_gpus(gpus):
    """Platform facts for resolution: device default, sm of the first GPU, attention default (sm_120 .23)."""
    if gpus is None:
        return {"device": "cuda", "sm": None, "gpus_known": False, "default_attention_backend": None}
    if not gpus:  # a host without a visible GPU (e.g. the CPU lab): SGLang resolves `--device cuda` without one
        return {"device": "cuda", "sm": None, "gpus_known": True, "default_attention_backend": "triton"}
    sm = _sm_of(gpus[0]) if isinstance(gpus[0], dict) else None
    return {"device": "cuda", "sm": sm, "gpus_known": True,
            "default_attention_backend": "flashinfer" if sm == 120 else None}


def check_gpus(gpus, version, r, args, target_cfg, result):
    if str(args.get("device") or "").lower() == "cpu":
        result.warn("HARDWARE_CPU", "device cpu: GPU count and GPU backend checks do not apply.")
        return
    if gpus is None:
        result.warn("HARDWARE_UNCHECKED", "no GPU facts given (gpus): GPU count and sm_120 backend checks skipped.")
        return
    if not isinstance(gpus, list) or not all(isinstance(g, dict) for g in gpus):
        result.error("GPUS_TYPE", "gpus must be a list of GPU fact mappings (gpu_facts' gpus).", field="gpus",
                     stage="input")
        return
    rules = VERSIONS[version]
    tp, dp, pp = r.get("tp_size") or 1, r.get("dp_size") or 1, r.get("pp_size") or 1
    need = tp * pp if args.get("enable_dp_attention") else tp * dp * pp
    if need > len(gpus):
        result.error("GPU_COUNT", "tp_size %s x dp_size %s x pp_size %s needs %s GPUs; this host has %s visible. Lower "
                     "the parallelism or give the instance more GPUs." % (tp, dp, pp, need, len(gpus)), field="tp_size",
                     stage="hardware")
    sms = set(_sm_of(g) for g in gpus)
    if 120 not in sms:
        return
    backends = {
        "attention_backend": r.get("attention_backend"),
        "prefill_attention_backend": r.get("prefill_attention_backend"),
        "decode_attention_backend": args.get("decode_attention_backend"),
        "speculative_draft_attention_backend": r.get("speculative_draft_attention_backend"),
    }
    for field, b in backends.items():
        if b == "fa3":
            result.error("FA3_SM120", "%s fa3 fails on sm_120 (RTX PRO 6000) in every SGLang version (\"FlashAttention "
                         "v3 Backend requires SM>=80 and SM<=90\"). Use flashinfer.%s" % (
                             field, " (the draft inherits the target's prefill backend)"
                             if field == "speculative_draft_attention_backend" and args.get(field) is None else ""),
                         field=field, stage="hardware")
        if b == "fa4" and not rules["fa4_sm120"]:
            result.error("FA4_SM120", "%s fa4 has no sm_120 path before SGLang 0.5.23. Use flashinfer." % field,
                         field=field, stage="hardware")
    prefill = r.get("prefill_attention_backend") or r.get("attention_backend")
    if prefill == "trtllm_mha":
        if not rules["trtllm_mha_prefill_sm120"]:
            result.error("TRTLLM_MHA_SM120", "trtllm_mha prefill is SM100-only in SGLang %s (\"TRTLLM MHA backend for "
                         "prefill is only supported on Blackwell GPUs (SM100)\"): sm_120 fails. Use flashinfer, or "
                         "SGLang 0.5.23." % version, field="attention_backend", stage="hardware")
    arch = ((target_cfg or {}).get("architectures") or [""])[0] or ""
    if version != "0.5.11" and HYBRID_GDN_ARCH.match(arch) and prefill is not None and \
            prefill not in ("triton", "trtllm_mha", "flashinfer"):
        result.error("HYBRID_GDN_BACKEND", "hybrid GDN models (%s) on Blackwell allow only triton, trtllm_mha and "
                     "flashinfer attention in SGLang %s; got %s." % (arch, version, prefill), field="attention_backend",
                     stage="hardware")


# ----------------------------------------------------------------------------------------------
# Overrides and the public entry points
# ----------------------------------------------------------------------------------------------
def _norm_allow(allow):
    out = set()
    for a in allow or ():
        a = str(a)
        out.add(a)
        out.add(SPEC_TO_SGLANG.get(a, a))
        out.add("speculative_" + a)
    return out


def requested_fields(args):
    return {k: args[k] for k in RESOLVED_KEYS if k in args and args[k] is not None}


def record_overrides(result, requested, resolved, allow_overrides=()):
    allow = _norm_allow(allow_overrides)
    for field, want in sorted(requested.items()):
        if field not in resolved:
            continue
        got = resolved.get(field)
        if field == "speculative_algorithm" and isinstance(want, str) and isinstance(got, str) and want.upper() == got:
            continue
        if isinstance(want, (int, float)) and isinstance(got, (int, float)) and float(want) == float(got):
            continue
        if want == got:
            continue
        if field == "speculative_draft_model_path" and got is not None:
            continue
        result.overrides.append({"field": field, "requested": want, "resolved": got})
        if field.startswith("speculative_") and field not in allow:
            result.error("SPEC_OVERRIDDEN", "SGLang would silently change %s from %r to %r. Ask for %r instead, or list "
                         "%s in allow_overrides to accept it." % (field, want, got, got, field), field=field,
                         stage="policy")


def code_for_sglang_message(message, parse=False):
    """Map an error text from SGLang (or argparse) onto the engine's stable code."""
    for code, rx in _SGLANG_MESSAGES:
        if re.search(rx, message):
            return code
    return "PARSE_ERROR" if parse else "SGLANG_REJECTED"


_SGLANG_MESSAGES = (
    ("PARSE_AMBIGUOUS", r"ambiguous option"),
    ("PARSE_UNRECOGNIZED", r"unrecognized arguments"),
    ("PARSE_MISSING_VALUE", r"expected one argument"),
    ("PARSE_INVALID_VALUE", r"invalid (int|float|choice|human_readable_int)|ignored explicit argument"),
    ("UNKNOWN_ALGORITHM", r"Unknown speculative algorithm name"),
    ("DFLASH_DEVICE", r"DFLASH speculative decoding (is not supported by|only supports CUDA)"),
    ("DFLASH_DP_ATTENTION", r"DFLASH speculative decoding does not support dp attention"),
    ("DFLASH_DP_LM_HEAD", r"DFLASH with dp attention requires --enable-dp-lm-head"),
    ("DFLASH_PP", r"DFLASH speculative decoding only supports pp_size == 1"),
    ("DFLASH_NO_DRAFT", r"DFLASH speculative decoding requires setting --speculative-draft-model-path"),
    ("DFLASH_BLOCK_SIZE_NONPOSITIVE", r"dflash-block-size to be positive"),
    ("DFLASH_BLOCK_SIZE_MISMATCH", r"are set but they differ"),
    ("WINDOW_NONPOSITIVE", r"window-size (must be positive|to be positive)"),
    ("WINDOW_LT_BLOCK", r"window-size must be >="),
    ("SINK_NEGATIVE", r"sink-size must be non-negative"),
    ("SINK_WITHOUT_WINDOW", r"sink-size requires"),
    ("EAGLE_TRTLLM_TOPK", r"trtllm_mha backend only supports topk = 1"),
    ("ENV_DP_SPEC_PREFILL", r"DP spec/prefill coordination requires"),
    ("PP_SPEC_PREFILL_ONLY", r"PP \+ speculative decoding \(MTP\) is only supported on prefill"),
    ("PP_SPEC_ENV", r"SGLANG_ENABLE_PP_SPEC is not compatible"),
    ("PP_SPECULATIVE", r"Pipeline parallelism currently only supports EAGLE"),
    ("EAGLE_PAGE_TREE", r"speculative_eagle_topk > 1 with page_size > 1"),
    ("TRTLLM_MHA_GPU", r"TRTLLM MHA backend for (prefill|decode)"),
    ("TRTLLM_MHA_SM120_FP8", r"TRTLLM FMHAv2 prefill on SM120"),
    ("EAGLE_PARAMS_PARTIAL", r"^AssertionError$|^$"),
    ("EAGLE_TOPK_MISSING", r"'>' not supported between instances of 'NoneType'"),
)


def _finish(result, args, env, version, gpus, draft_cfg, target_cfg, allow_overrides, tree_flavor, platform):
    try:
        r = _resolve(args, env, version, draft_cfg, target_cfg, platform, result, tree_flavor)
    except _Refused as e:
        result.error(e.code, "SGLang %s would refuse to start: %s" % (version, e.message), field=e.field,
                     stage="resolve")
        result.sglang_verdict = {"accepted": False, "code": e.code, "stage": "resolve", "message": e.message}
        r = result.resolved
    else:
        record_overrides(result, requested_fields(args), r, allow_overrides)
    algo = r.get("speculative_algorithm")
    if algo in ("DFLASH", "DDTREE") and draft_cfg is not None:
        check_draft_config(draft_cfg, target_cfg, version, args, env, result)
    elif target_cfg is not None:
        _check_context(None, target_cfg, args, env, result, draft_too=False)
    if algo in ("DFLASH", "DDTREE") and target_cfg is not None:
        arch = (target_cfg.get("architectures") or [None])[0]
        if arch not in DFLASH_TARGET_ARCHS:
            result.warn("TARGET_ARCH_UNVERIFIED", "target architecture %r is not in the list of classes known to "
                        "support DFLASH (set_dflash_layers_to_capture); check with mode: installed." % (arch,))
    if algo in ("EAGLE", "EAGLE3") and args.get("speculative_draft_model_path") is None and target_cfg is not None:
        arch = (target_cfg.get("architectures") or [None])[0]
        if arch and not re.match(r"(Deepseek|Glm4Moe|GlmMoeDsa|BailingMoe|MistralLarge3|Pixtral|HYV|Qwen4Exp)", arch):
            result.error("EAGLE_NO_DRAFT", "%s needs speculative.draft_model_path for target %s (only MTP targets "
                         "carry their own draft layer)." % (algo, arch), field="speculative_draft_model_path",
                         stage="load")
    for k in (env or {}):
        if SECRET_ENV.search(str(k)):
            result.error("ENV_SECRET", "env %s looks like a secret: put it in the instance's EnvironmentFile "
                         "(/etc/specdeploy/<instance>.env), never in the spec, the unit or the release record." % k,
                         field="env.%s" % k, stage="input")
    check_gpus(gpus, version, r, args, target_cfg, result)
    return result


def _load_configs(result, args, draft_config, target_config, read_paths):
    cfgs = {}
    for name, given, path_key in (("draft", draft_config, "speculative_draft_model_path"),
                                  ("target", target_config, "model_path")):
        src = given
        if src is None and read_paths and args.get(path_key) and os.path.isfile(
                os.path.join(str(args[path_key]), "config.json")):
            src = args[path_key]
        try:
            cfgs[name] = load_config(src)
        except ConfigError as e:
            result.error("CONFIG_UNREADABLE", "%s config: %s. Give a readable config.json (dir or file) or a mapping." % (
                name, e), field="%s_config" % name, stage="input")
            cfgs[name] = None
    if cfgs["draft"] is None and cfgs["target"] is None and not any(e["code"] == "CONFIG_UNREADABLE" for e in result.errors):
        result.warn("CONFIG_UNCHECKED", "no config.json given or readable: drafter/target checks skipped (the host "
                    "validation reads them).")
    return cfgs["draft"], cfgs["target"]


def validate_argv(argv, version, env=None, gpus=None, draft_config=None, target_config=None, capabilities=None,
                  allow_overrides=(), read_paths=True, result=None):
    """Validate an SGLang argv (flags, or a whole command line) for `version`. Returns a Result."""
    result = result or Result()
    if version_rules(version, result) is None:
        return result
    version = str(version)
    if not isinstance(argv, (list, tuple, str)):
        result.error("ARGV_TYPE", "argv must be a list of strings or a command line string, got %s." %
                     type(argv).__name__, field="argv", stage="input")
        return result
    try:
        argv = strip_program(argv)
    except ValueError as e:
        result.error("ARGV_SYNTAX", "cannot split the command line: %s (check the quoting)." % e, field="argv",
                     stage="input")
        return result
    env = {str(k): str(v) for k, v in (env or {}).items()}
    result.argv = argv
    result.env = env
    extra = {}
    flavor = _tree_flavor(capabilities)
    if capabilities and isinstance(capabilities, dict):
        result.capabilities = capabilities
        for fid in capabilities.get("tree_verify") or []:
            extra.update(TREE_FLAVORS.get(fid, {}).get("flags", {}))
    try:
        args, _used, notes = parse_argv(argv, version, extra)
    except _Refused as e:
        hint = ""
        name = (e.field or "").split("=")[0]
        if name in _RENAMED and name not in FLAG_TABLES[version]:
            hint = " Use %s." % _RENAMED[name]
        result.error(e.code, "SGLang %s would exit at argument parsing: %s.%s" % (version, e.message, hint),
                     field=e.field, stage="parse")
        result.sglang_verdict = {"accepted": False, "code": e.code, "stage": "parse", "message": e.message}
        return result
    for code, msg in notes:
        result.warn(code, msg)
    if "model_path" not in args:
        result.error("ARGV_NO_MODEL", "argv has no --model-path: SGLang needs the target model.", field="argv",
                     stage="input")
        return result
    for k, v in args.items():
        if isinstance(v, bool) or v is None:
            continue
        if k.endswith("_size") and _is_int(v) and v < 1 and k in ("tp_size", "dp_size", "pp_size"):
            result.error("PARALLEL_SIZE", "%s must be >= 1, got %s." % (k, v), field=k, stage="input")
    mfs = args.get("mem_fraction_static")
    if mfs is not None and not 0 < mfs < 1:
        result.error("MEM_FRACTION", "mem_fraction_static %s is outside (0, 1): SGLang accepts it and fails when it "
                     "sizes the KV cache. Use e.g. 0.85." % mfs, field="mem_fraction_static", stage="load")
    ndt = args.get("speculative_num_draft_tokens")
    if ndt is not None and ndt < 1:
        result.error("NUM_DRAFT_TOKENS", "speculative_num_draft_tokens %s: SGLang accepts it but cannot draft. Use the "
                     "drafter's block size." % ndt, field="speculative_num_draft_tokens", stage="load")
    draft_cfg, target_cfg = _load_configs(result, args, draft_config, target_config, read_paths)
    platform = platform_from_gpus(gpus if isinstance(gpus, list) else None)
    return _finish(result, args, env, version, gpus, draft_cfg, target_cfg, allow_overrides, flavor, platform)


def validate(spec, gpus=None, draft_config=None, target_config=None, capabilities=None, allow_overrides=(),
             read_paths=True):
    """Validate a structured spec: render it for its SGLang version, then check the argv. Returns a Result."""
    result = Result()
    s = normalize_spec(spec, result)
    if s is None or not result.ok:
        return result
    argv = render(s, result, capabilities)
    if argv is None:
        return result
    allow = list(allow_overrides or []) + list((s.get("speculative") or {}).get("allow_overrides") or [])
    flavor = result.tree_verify
    validate_argv(argv, s["sglang_version"], env=s.get("env"), gpus=gpus, draft_config=draft_config,
                  target_config=target_config, capabilities=capabilities, allow_overrides=allow,
                  read_paths=read_paths, result=result)
    result.tree_verify = flavor
    if flavor:
        result.resolved["tree_verify"] = flavor
    return result


# dest -> spec key, for argv_to_spec
_DEST_TO_SPEC = {
    "model_path": "model_path", "served_model_name": "served_model_name", "host": "host", "port": "port",
    "device": "device", "tp_size": "tp_size", "dp_size": "dp_size", "pp_size": "pp_size",
    "attention_backend": "attention_backend", "prefill_attention_backend": "prefill_attention_backend",
    "mem_fraction_static": "mem_fraction_static", "context_length": "context_length",
    "max_running_requests": "max_running_requests",
}
_DEST_TO_SPECULATIVE = {
    "speculative_algorithm": "algorithm", "speculative_draft_model_path": "draft_model_path",
    "speculative_num_draft_tokens": "num_draft_tokens", "speculative_dflash_block_size": "block_size",
    "speculative_draft_window_size": "draft_window_size", "speculative_num_steps": "num_steps",
    "speculative_eagle_topk": "eagle_topk", "speculative_draft_attention_backend": "draft_attention_backend",
}


def argv_to_spec(argv, version, env=None):
    """Turn an existing SGLang command line (e.g. a hand-written unit's ExecStart) into a spec.

    Flags the spec does not model go to extra_args verbatim. Raises ValueError with a readable
    message when argv does not parse for that version.
    """
    if version_rules(version) is None:
        raise ValueError("SGLang version %r has no rule table; known versions: %s." % (version, known_versions_text()))
    version = str(version)
    try:
        argv = strip_program(argv)
    except ValueError as e:
        raise ValueError("cannot split the command line: %s" % e)
    spec = {"sglang_version": version, "env": dict(env or {}), "extra_args": []}
    speculative = {}
    table = FLAG_TABLES[version]
    i = 0
    while i < len(argv):
        tok = argv[i]
        group = [tok]
        i += 1
        while i < len(argv) and (not argv[i].startswith("--") or _NUM.match(argv[i])):
            group.append(argv[i])
            i += 1
        try:
            args, _u, _n = parse_argv(group, version)
        except _Refused as e:
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
    del table
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


# ----------------------------------------------------------------------------------------------
# systemd rendering and diff
# ----------------------------------------------------------------------------------------------
systemd_quote = server_common.systemd_quote  # the unit's own quoting (server_common)


flag_groups = server_common.flag_groups


def unit_exec_lines(argv):
    """argv escaped for systemd ExecStart as the unit has it, one flag (with its values) per line."""
    try:
        return server_common.exec_lines([], argv)
    except server_common.UnitError as exc:
        return ["# not writable into a systemd unit: %s" % exc]


def argv_diff(previous, current):
    """Diff two argvs flag by flag: {changed: bool, added, removed, changed_flags, before, after}."""
    try:
        prev = strip_program(previous or [])
    except ValueError:
        prev = [str(previous)]
    cur = list(current or [])
    pg = {g[0]: g[1:] for g in flag_groups(prev)}
    cg = {g[0]: g[1:] for g in flag_groups(cur)}
    added = sorted(set(cg) - set(pg))
    removed = sorted(set(pg) - set(cg))
    changed = sorted(k for k in set(pg) & set(cg) if pg[k] != cg[k])
    return {
        "changed": bool(added or removed or changed or prev != cur),
        "added": added, "removed": removed, "changed_flags": changed,
        "before": "\n".join(unit_exec_lines(prev)) + "\n",
        "after": "\n".join(unit_exec_lines(cur)) + "\n",
    }
