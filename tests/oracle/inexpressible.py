"""Refusals in a release's resolution code that no argv can reach on these machines, each with its reason.

The coverage figure counts every refusal on the resolution path (refusals.py); this table says which of the
unreached ones cannot be reached from an argv here, so the rest is the generator's work left. Categories:
- runtime: runs only on a runtime SGLang's platform override cannot present (NPU, XPU, HIP/ROCm, MPS, HPU, MUSA):
  the oracle resolves as a CUDA GPU host or as this CPU host.
- host: needs a file, device or package that exists only on the host (an SSL key, /sys/class/infiniband, an
  optional kernel package).
- internal: an invariant of SGLang's own code (its field declarations, a hook writing the frozen input): no argv
  changes it.
- shadowed: an earlier check always refuses the same input first (the parser's choices, an earlier hook's rewrite).

An entry is (function, message regex, category, why) under the file it sits in; it matches every refusal of that
file whose innermost function is `function` and whose message text matches the regex (line numbers move between
releases, names and messages rarely do). Checked by tests/oracle/test_differential.py: no refusal an entry
matches is ever reached (a reached one was expressible after all), and every entry matches a refusal of some
release whose kit is here (no stale entries).
"""
import re

CATEGORIES = {
    "runtime": (
        "runs only on a runtime SGLang's platform override cannot present (NPU, XPU, HIP/ROCm, MPS, HPU, "
        "MUSA): the oracle resolves as a CUDA GPU host or as this CPU host"),
    "host": (
        "needs a file, device or package that exists only on the host (an SSL key, /sys/class/infiniband, an "
        "optional kernel package)"),
    "internal": (
        "an invariant of SGLang's own code (its field declarations, a hook writing the frozen input): no argv"
        " changes it"),
    "shadowed": (
        "an earlier check always refuses the same input first (the parser's choices, an earlier hook's "
        "rewrite)"),
}

ENTRIES = {
    "sglang/srt/arg_groups/arg_utils.py": [
        ('fallbacks_of', 'fallback', "internal",
         "a field declared with a bad fallback: a check on SGLang's own field declarations"),
    ],
    "sglang/srt/arg_groups/argparse_actions.py": [
    ],
    "sglang/srt/arg_groups/attention_hook.py": [
        ('_check_xpu_dcp', '', "runtime",
         "runs only on an Intel XPU platform (is_xpu); the platform override presents CUDA"),
    ],
    "sglang/srt/arg_groups/cp_tp_group_sharing_hook.py": [
    ],
    "sglang/srt/arg_groups/cuda_graph_hook.py": [
    ],
    "sglang/srt/arg_groups/deepseek_v4_hook.py": [
    ],
    "sglang/srt/arg_groups/expert_pack_hook.py": [
    ],
    "sglang/srt/arg_groups/fields/__init__.py": [
        ('collect_input_fields', 'declared by both', "internal",
         "a field declared in two namespaces: a check on SGLang's own declarations"),
    ],
    "sglang/srt/arg_groups/hicache_hook.py": [
    ],
    "sglang/srt/arg_groups/hisparse_hook.py": [
    ],
    "sglang/srt/arg_groups/kv_cache_hook.py": [
    ],
    "sglang/srt/arg_groups/kv_shard_hook.py": [
    ],
    "sglang/srt/arg_groups/layernorm_sp_hook.py": [
    ],
    "sglang/srt/arg_groups/lora_hook.py": [
        ('check_lora_server_args', 'max-lora-chunk-size must be a power of 2', "shadowed",
         "the parser's choices (16, 32, 64, 128) refuse any other value first"),
    ],
    "sglang/srt/arg_groups/mamba_hook.py": [
    ],
    "sglang/srt/arg_groups/mega_moe_hook.py": [
        # -- moe (session 14) --
        ('validate_flydsl_decode_capacity', 'SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR', "runtime",
         "runs only on ROCm (get_platform().is_hip with SGLANG_AMD_USE_FLYDSL_MEGA_MOE); the platform override presents "
         "CUDA"),
    ],
    "sglang/srt/arg_groups/memory_hook.py": [
    ],
    "sglang/srt/arg_groups/model_hook.py": [
    ],
    "sglang/srt/arg_groups/model_override_base.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/deepseek_v2.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/ernie45_vl.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/iquest_q1.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/kimi_k3.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/minicpm.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/minimax_m3.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/moss_vl.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/nemotron_h.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/qwen3_moe.py": [
    ],
    "sglang/srt/arg_groups/model_overrides/qwen4_exp.py": [
    ],
    "sglang/srt/arg_groups/model_path_hook.py": [
    ],
    "sglang/srt/arg_groups/moe_hook.py": [
        # -- moe (session 14) --
        ('validate_deepep_v2_model_architecture', 'instance connector', "host",
         "needs --model-path instance://<a live SGLang instance>: without one the remote-instance connector fails while "
         "the model config is read, before this check (observed on 0.5.23)"),
    ],
    "sglang/srt/arg_groups/overrides.py": [
    ],
    "sglang/srt/arg_groups/parallel_hook.py": [
    ],
    "sglang/srt/arg_groups/pd_disaggregation_hook.py": [
    ],
    "sglang/srt/arg_groups/serving_hook.py": [
    ],
    "sglang/srt/arg_groups/speculative_hook.py": [
    ],
    "sglang/srt/arg_groups/validation_hook.py": [
    ],
    "sglang/srt/server_args.py": [
        ('resolve_once', 'resolution already failed', "internal",
         "a second resolve_once() on a ServerArgs whose first one raised: `sglang serve` resolves once and exits on "
         "the first error"),
        ('__setattr__', 'assigned (during|after) resolution', "internal",
         "a hook writing to the operator's frozen input: SGLang's own code, no argv"),
    ],
}


def classify(row):
    """(category, why) for a refusal row of refusals.enumerate_refusals() that no argv reaches here, else None."""
    for fn, rx, cat, why in ENTRIES.get(row.get("file"), ()):
        if (not fn or row.get("function") == fn) and re.search(rx, row.get("message") or ""):
            return cat, why
    return None


def matches(entry_file, entry, rows):
    """The rows (of one release) an entry matches."""
    fn, rx, _cat, _why = entry
    return [r for r in rows if r.get("file") == entry_file and (not fn or r.get("function") == fn)
            and re.search(rx, r.get("message") or "")]
