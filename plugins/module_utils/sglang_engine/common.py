# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared vocabulary of the engine: the result record, the refusal signal, resolved field names. stdlib only."""
from __future__ import annotations

import re

from ansible_collections.specdeploy.sglang.plugins.module_utils.systemd_unit import unit_exec_lines

DFLASH_TARGET_ARCHS = ("Qwen3ForCausalLM", "Qwen3MoeForCausalLM", "Qwen3NextForCausalLM",
                       "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",
                       "Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM", "Qwen3VLForConditionalGeneration",
                       "GptOssForCausalLM", "LlamaForCausalLM", "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM")
HYBRID_GDN_ARCH = re.compile(r"^Qwen3(_5|_6|Next)")

# DDTree / tree-verify flavors (docs/sglang.md, DDTree). Order = preference when several are present.
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

LONG_CONTEXT_ENV = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"
MAX_PREFILL_TOKENS = 16384  # --max-prefill-tokens' default (every release)

# THE table from the structured spec (docs/interfaces.md) to SGLang: (spec key, flag, argparse dest), in the
# order render() writes them; "speculative.<key>" for the speculative mapping. Rendering (render.py), parsing a
# command line back into a spec (argv_to_spec), allow_overrides / resolved-key comparison (SPEC_TO_SGLANG) all
# derive from it. --speculative-draft-window-size and
# --enable-metrics are spelled per release (traits window_flag, metrics_flag); render() asks the release.
SPEC_FLAGS = (
    ("model_path", "--model-path", "model_path"),
    ("served_model_name", "--served-model-name", "served_model_name"),
    ("host", "--host", "host"), ("port", "--port", "port"), ("device", "--device", "device"),
    ("tp_size", "--tp-size", "tp_size"), ("dp_size", "--dp-size", "dp_size"), ("pp_size", "--pp-size", "pp_size"),
    ("attention_backend", "--attention-backend", "attention_backend"),
    ("prefill_attention_backend", "--prefill-attention-backend", "prefill_attention_backend"),
    ("mem_fraction_static", "--mem-fraction-static", "mem_fraction_static"),
    ("context_length", "--context-length", "context_length"),
    ("max_running_requests", "--max-running-requests", "max_running_requests"),
    ("enable_metrics", "--enable-metrics", "enable_metrics"),
    ("speculative.algorithm", "--speculative-algorithm", "speculative_algorithm"),
    ("speculative.draft_model_path", "--speculative-draft-model-path", "speculative_draft_model_path"),
    ("speculative.num_draft_tokens", "--speculative-num-draft-tokens", "speculative_num_draft_tokens"),
    ("speculative.block_size", "--speculative-num-draft-tokens", "speculative_num_draft_tokens"),
    ("speculative.draft_window_size", "--speculative-draft-window-size", "speculative_draft_window_size"),
    ("speculative.num_steps", "--speculative-num-steps", "speculative_num_steps"),
    ("speculative.eagle_topk", "--speculative-eagle-topk", "speculative_eagle_topk"),
    ("speculative.draft_attention_backend", "--speculative-draft-attention-backend",
     "speculative_draft_attention_backend"),
)
# speculative.* key -> SGLang field (allow_overrides, the resolved-key comparison)
SPEC_TO_SGLANG = {k.split(".", 1)[1]: dest for k, _f, dest in SPEC_FLAGS if k.startswith("speculative.")}
# The argparse dests the static layer judges completely: what the spec renders, the DFLASH block size flag (the
# same setting as num_draft_tokens), the tree-verify flavors' flags and the old window dest. Any other flag (from
# extra_args or a hand-written command line) is checked for existence and type only; its compatibility is
# judged by SGLang (the authority preflight, the installed SGLang on the host).
OWNED_DESTS = frozenset([d for _k, _f, d in SPEC_FLAGS] + [
    "speculative_dflash_block_size", "speculative_dflash_draft_window_size"] +
    [row[3] for flavor in TREE_FLAVORS.values() for row in flavor["flags"].values()])
# attention backends whose argument-time checks the static layer models; any other value is judged by SGLang
OWNED_BACKENDS = frozenset((None, "triton", "flashinfer", "fa3", "fa4", "torch_native", "trtllm_mha", "flex_attention"))
# targets whose model-specific hooks never refuse what the spec renders: plain dense / MoE decoders without
# sliding-window, chunked, dual-chunk or latent (MLA) attention (any other target is judged by SGLang)
PLAIN_TARGET_ARCHS = frozenset(("LlamaForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM", "Qwen3MoeForCausalLM",
                                "MistralForCausalLM"))
SPECIAL_ATTENTION_KEYS = ("is_hybrid_swa", "use_sliding_window", "layer_types", "attention_chunk_size",
                          "dual_chunk_attention_config", "kv_lora_rank", "hybrid_layer_pattern")


class Result(object):
    """ok, errors [{code, message, field, stage}], warnings [{code, message}], resolved, overrides."""

    # one made per validation: slots make it cheaper to build and to read
    __slots__ = ("errors", "warnings", "resolved", "overrides", "argv", "env", "capabilities", "tree_verify",
                 "memory_fit", "sglang_verdict")

    def __init__(self):
        self.errors = []
        self.warnings = []
        self.resolved = {}
        self.overrides = []
        self.argv = []
        self.env = {}
        self.capabilities = None
        self.tree_verify = None
        self.memory_fit = None
        # accepted: True / False / None (not judged here: judged_by_sglang lists what SGLang itself decides)
        self.sglang_verdict = {"accepted": True, "code": None, "stage": None, "message": None, "judged_by_sglang": []}

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
            "memory_fit": dict(self.memory_fit) if self.memory_fit else None,
            "unit_exec_lines": unit_exec_lines(self.argv),
        }


class Refused(Exception):
    """SGLang's own resolution would raise here (it stops at its first error)."""

    def __init__(self, code, message, field=None):
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.field = field


def is_int(v):
    return v.__class__ is int or (isinstance(v, int) and not isinstance(v, bool))


def truthy_env(env, name):
    return str((env or {}).get(name, "")).strip().lower() in ("1", "true", "yes", "on")


def get(args, key, default=None):
    v = args.get(key)
    return default if v is None else v
