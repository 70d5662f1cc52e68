# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""--enable-hisparse (0.5.23 srt/arg_groups/hisparse_hook.py validate_hisparse), which check_server_args runs at its
legacy slot, between the retraction-policy and the schedule-conservativeness checks: the target must be one of the
sparse-attention families the release knows (trait hisparse_models: DSA, then DeepSeek V4 from 0.5.12, MiniMax M3
from 0.5.21), the radix cache off, then (0.5.22 on: trait hisparse_spec_checks) no mixed chunk, a linear draft
(top-k 1) and no adaptive speculation, then on a DSA target (trait hisparse_dsa_checks) the KV dtype and the DSA
backends it allows. A DeepSeek V4 target is not modelled past the family; MiniMax M3 stops there. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate

# srt/configs/model_config.py: is_deepseek_dsa (these architectures with an index_topk), is_deepseek_v4,
# is_minimax_sparse
_DSA_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLMNextN", "MistralLarge3ForCausalLM",
              "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM", "GlmMoeDsaForCausalLMNextN",
              "Glm5NextForConditionalGenerationNextN", "Glm5NextForConditionalGeneration", "LongcatFlashForCausalLM",
              "LongcatFlashForCausalLMNextN", "Dots3NoteForCausalLM", "Dots3NoteForCausalLMNextN", "HYV4ForCausalLM",
              "HYV4ForCausalLMNextN")
_FAMILIES = {
    "v4": ("DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN", "DeepseekV4ForCausalLMDSpark"),
    "m3": ("MiniMaxM3SparseForCausalLM", "MiniMaxM3SparseForConditionalGeneration"),
}


def _family(target_cfg, known):
    """The sparse family of the target among the release's (`known`), "" for none, None when unknown."""
    arch = (target_cfg.get("architectures") or [None])[0]
    if arch in _DSA_ARCHS and text_cfg(target_cfg).get("index_topk") is not None:
        return "dsa" if "dsa" in known else ""
    for name, archs in _FAMILIES.items():
        if arch in archs:
            return name if name in known else ""
    return ""


# the DSA architectures whose KV dtype and DSA backends the model-specific hook fills (0.5.23 model_hook.py): unset
# values are the host's; the NextN heads keep them unset.
_DSA_DEFAULTS_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "MistralLarge3ForCausalLM",
                       "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM", "Glm5NextForConditionalGeneration",
                       "HYV4ForCausalLM", "HYV4ForCausalLMNextN", "LongcatFlashForCausalLM", "Dots3NoteForCausalLM")


@gate("enable_hisparse", context=("disable_radix_cache", "kv_cache_dtype", "dsa_prefill_backend", "dsa_decode_backend",
                                  "nsa_prefill_backend", "nsa_decode_backend"))
def check_hisparse(args, rules, r, target_cfg):
    """validate_hisparse; `r` the resolved settings (mixed chunk, algorithm, top-k, adaptive after the hooks)."""
    if not args.get("enable_hisparse") or target_cfg is None:
        return
    family = _family(target_cfg, rules["hisparse_models"])
    if not family:
        raise Refused("HISPARSE_MODEL", "--enable-hisparse is only supported for %s models in SGLang %s (got %s)." % (
            " / ".join({"dsa": "DSA", "v4": "DeepSeek V4", "m3": "MiniMax M3"}[f] for f in rules["hisparse_models"]),
            rules["version"], (target_cfg.get("architectures") or ["?"])[0]), "enable_hisparse")
    if not args.get("disable_radix_cache"):
        raise Refused("HISPARSE_RADIX_CACHE", "Hierarchical sparse attention requires --disable-radix-cache.",
                      "disable_radix_cache")
    if rules["hisparse_spec_checks"]:
        _check_spec(r)
    if family == "dsa" and rules["hisparse_dsa_checks"]:
        _check_dsa(args, target_cfg, rules["hisparse_dsa_checks"])


def _check_dsa(args, target_cfg, spec):
    """validate_hisparse_kv_cache_dtype and validate_hisparse_dsa_backend for prefill and decode (CUDA), as the
    release's trait hisparse_dsa_checks says: the KV dtypes, the DSA backends per dtype ("*": any other dtype) and
    whether the backends are checked first (0.5.11)."""
    filled = (target_cfg.get("architectures") or [None])[0] in _DSA_DEFAULTS_ARCHS
    dtype = args.get("kv_cache_dtype")
    if dtype is None and filled:
        return
    dtype = dtype or "auto"
    if not spec["backends_first"]:
        _check_dsa_dtype(dtype, spec)
    allowed = spec["backends"].get(dtype, spec["backends"]["*"])
    for key, label, backend in (("dsa_prefill_backend", "prefill", args.get("dsa_prefill_backend") or
                                 args.get("nsa_prefill_backend")),  # the NSA spelling through 0.5.12
                                ("dsa_decode_backend", "decode", args.get("dsa_decode_backend") or
                                 args.get("nsa_decode_backend"))):
        if backend is None and filled:
            return
        if backend is not None and backend not in allowed:
            raise Refused("HISPARSE_DSA_BACKEND", "HiSparse takes the DSA %s backends %s with --kv-cache-dtype %s, got "
                          "%s." % (label, list(allowed), dtype, backend), key)
    if spec["backends_first"]:
        _check_dsa_dtype(dtype, spec)


def _check_dsa_dtype(dtype, spec):
    if dtype not in spec["dtypes"]:
        raise Refused("HISPARSE_KV_DTYPE", "HiSparse requires --kv-cache-dtype %s, got %s." % (
            " or ".join(d for d in spec["dtypes"] if d != "auto"), dtype), "kv_cache_dtype")


def _check_spec(r):
    """From 0.5.22: mixed chunk, then a speculative draft's top-k and adaptive steps."""
    if r.get("enable_mixed_chunk"):
        raise Refused("HISPARSE_CONFLICT", "--enable-hisparse does not support --enable-mixed-chunk yet.",
                      "enable_mixed_chunk")
    if r.get("speculative_algorithm") is not None:
        if (r.get("speculative_eagle_topk") or 1) != 1:
            raise Refused("HISPARSE_CONFLICT", "HiSparse speculative decoding supports a linear draft only: use "
                          "--speculative-eagle-topk 1 (got %s)." % r["speculative_eagle_topk"], "speculative_eagle_topk")
        if r.get("speculative_adaptive"):
            raise Refused("HISPARSE_CONFLICT", "HiSparse speculative decoding does not support --speculative-adaptive.",
                          "speculative_adaptive")
