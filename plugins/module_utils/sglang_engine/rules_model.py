# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Model-specific checks of SGLang's argument resolution that refuse a flag for the target's architecture (0.5.23
srt/arg_groups/model_hook.py handle_model_specific_adjustments; through 0.5.18 ServerArgs._handle_model_specific_
adjustments). They run after the GPU memory settings, before the attention backend hook. Modelled: the flags that only
one family of architectures takes, for a target the engine can read as outside that family. A DeepSeek Sparse Attention
target (index_topk in its config) goes through checks the engine does not model (the host's SGLang answers them:
mode installed). stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, truthy_env

# srt/layers/cp/cp_decode_attn_tp.py CP_DECODE_ATTN_TP_SUPPORTED_ARCHS (the same in every release with the flag,
# 0.5.17-0.5.23)
CP_DECODE_ATTN_TP_ARCHS = ("DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN", "DeepseekV4ForCausalLMDSpark",
                           "GlmMoeDsaForCausalLM", "GlmMoeDsaForCausalLMNextN")


@gate("enable_dsa_cache_layer_split", "enable_cp_decode_attn_tp")
def check_model_specific(args, target_cfg):
    if target_cfg is None:
        return
    arch = (target_cfg.get("architectures") or [None])[0]
    if args.get("enable_dsa_cache_layer_split") and "index_topk" not in text_cfg(target_cfg):
        # is_deepseek_dsa: a DSA architecture with index_topk; without index_topk no architecture is one
        raise Refused("MODEL_ARCHITECTURE_FLAG", "--enable-dsa-cache-layer-split is only supported for DSA (DeepSeek "
                      "Sparse Attention) models; the target %s has no index_topk." % arch,
                      "enable_dsa_cache_layer_split")
    if args.get("enable_cp_decode_attn_tp") and arch not in CP_DECODE_ATTN_TP_ARCHS:
        raise Refused("MODEL_ARCHITECTURE_FLAG", "--enable-cp-decode-attn-tp is only supported for models whose "
                      "attention linears are replicated across CP ranks (%s); the target is %s."
                      % (", ".join(CP_DECODE_ATTN_TP_ARCHS), arch), "enable_cp_decode_attn_tp")


# -- model (session 14) --
# SGLang's per-architecture model overrides (0.5.23 srt/arg_groups/model_overrides/<family>.py, registered by
# architecture; collect_model_override_declarations runs them inside handle_model_specific_adjustments, after the
# checks above): the families modelled, by the architectures each registers. The release trait `model_overrides`
# names the families a release has (moss_vl in every release; minicpm 0.5.19 on; iquest_q1 0.5.21 on; ernie45_vl
# 0.5.22 on).
MODEL_OVERRIDE_FAMILIES = {
    "IQuestQ1ForCausalLM": "iquest_q1", "IQuestQ1MTP": "iquest_q1",
    "MiniCPMForCausalLM": "minicpm", "MiniCPMSALAForCausalLM": "minicpm",
    "Ernie4_5_VLMoeForConditionalGeneration": "ernie45_vl",
    "MossVLForConditionalGeneration": "moss_vl",
}
# srt/configs/minicpm.py _MIXER_TYPE_ALIASES: the names of a sparse-attention layer and of a lightning layer
_MINICPM_SPARSE_MIXERS = ("minicpm4", "minicpm", "standard", "attention", "attn")
_MINICPM_LIGHTNING_MIXERS = ("lightning-attn", "lightning")


def model_override_family(rules, target_cfg):
    """The model-override family of the target's architecture that this release runs, or None."""
    if target_cfg is None or not rules["model_overrides"]:
        return None
    fam = MODEL_OVERRIDE_FAMILIES.get((target_cfg.get("architectures") or [None])[0])
    return fam if fam in rules["model_overrides"] else None


def _override(msg, key):
    return Refused("MODEL_OVERRIDE_UNSUPPORTED", msg, key)


def _attn_dp_enabled(args, rules):
    """runtime_context.attn_dp_enabled_of (0.5.22 on: attention DP as resolved, or an elastic-EP scale joiner);
    before, the --enable-dp-attention flag."""
    if rules["model_override_attn_dp"] == "resolved":
        attn_dp = get(args, "attn_dp_size", 1)
        if attn_dp == 1 and args.get("enable_dp_attention"):
            attn_dp = get(args, "dp_size", 1)
        return attn_dp > 1 or args.get("ep_join_mode") == "scale"
    return bool(args.get("enable_dp_attention"))


def _minicpm_attention(target_cfg):
    """(sparse, lightning): MiniCPM SALA's hf_config.has_minicpm_sparse_attention / has_lightning_layers (properties of
    its config class, model_type minicpm_sala; another config class has them only as fields of its config.json)."""
    if target_cfg.get("model_type") == "minicpm_sala":
        mixers = target_cfg.get("mixer_types") or ["minicpm4"]
        sparse = target_cfg.get("sparse_config") is not None and any(m in _MINICPM_SPARSE_MIXERS for m in mixers)
        return sparse, any(m in _MINICPM_LIGHTNING_MIXERS for m in mixers)
    return bool(target_cfg.get("has_minicpm_sparse_attention")), bool(target_cfg.get("has_lightning_layers"))


def check_model_overrides(family, args, rules, platform, target_cfg, env, asked):
    """One family's override provider: its refusals, in its order, then the attention backends it declares
    ({field: value}). `asked` is the attention backend as the hooks before it left it (the user's, or the CPU
    default): SGLang fills the GPU default later, in the attention hook."""
    backends = (asked, args.get("prefill_attention_backend"), args.get("decode_attention_backend"))
    unset = all(b is None for b in backends)
    out = {}
    if family == "iquest_q1":  # model_overrides/iquest_q1.py _iquest_q1_overrides
        if any(b not in (None, "fa3") for b in backends):
            raise _override("IQuestQ1 applies its attention sink from the softmax LSE and requires FA3 attention for "
                            "both prefill and decode.", "attention_backend")
        algo = args.get("speculative_algorithm")
        if algo is not None:
            if algo.upper() not in ("EAGLE", "NEXTN"):
                raise _override("IQuest Q1 MTP requires serial EAGLE or NEXTN drafting.", "speculative_algorithm")
            if args.get("speculative_draft_attention_backend") not in (None, "fa3"):
                raise _override("IQuestQ1 requires FA3 attention for the MTP draft.",
                                "speculative_draft_attention_backend")
        if get(args, "attn_cp_size", 1) > 1 or get(args, "dcp_size", 1) > 1 or args.get("enable_prefill_cp"):
            raise _override("IQuestQ1 does not support context parallelism.", "attn_cp_size")
        if get(args, "speculative_eagle_topk", 1) > 1:
            raise _override("IQuestQ1 speculative decoding requires --speculative-eagle-topk 1.",
                            "speculative_eagle_topk")
        if args.get("enable_multi_layer_eagle"):
            raise _override("IQuest Q1 MTP drafting does not support multi-layer EAGLE.", "enable_multi_layer_eagle")
        if _attn_dp_enabled(args, rules):
            raise _override("IQuest Q1 does not support DP attention.", "enable_dp_attention")
        if get(args, "pp_size", 1) > 1:
            raise _override("IQuest Q1 does not support pipeline parallelism.", "pp_size")
        if unset:
            return {"attention_backend": "fa3"}
        if asked is None and backends[1] is None:
            out["prefill_attention_backend"] = "fa3"
        if asked is None and backends[2] is None:
            out["decode_attention_backend"] = "fa3"
        return out
    if family in ("minicpm", "ernie45_vl"):
        if _attn_dp_enabled(args, rules):
            if family == "ernie45_vl":  # model_overrides/ernie45_vl.py
                raise _override("ERNIE 4.5 VL MoE does not support DP attention: its attention heads are split over the "
                                "full TP group.", "enable_dp_attention")
            raise _override("MiniCPM does not support DP attention", "enable_dp_attention")  # model_overrides/minicpm.py
        if family == "ernie45_vl":
            return out
        sparse, lightning = _minicpm_attention(target_cfg)
        if (sparse or lightning) and args.get("enable_hierarchical_cache"):
            raise _override("MiniCPM SALA does not support hierarchical cache", "enable_hierarchical_cache")
        if truthy_env(env, "SGLANG_MINICPM_FORCE_DENSE"):
            return out  # the dense backends replace the MiniCPM ones the user named: not modelled
        if sparse:
            if (unset or any(b in ("minicpm_flashattn", "minicpm_flashinfer") for b in backends)) and \
                    get(args, "disaggregation_mode", "null") != "null":
                raise _override("MiniCPM sparse attention does not support PD disaggregation", "disaggregation_mode")
            if unset and platform.get("gpus_known"):
                blackwell = (platform.get("sm") or 0) >= 100
                out["attention_backend"] = "minicpm_flashinfer" if blackwell else "minicpm_flashattn"
        return out
    # moss_vl (model_overrides/moss_vl.py; through 0.5.18 srt/server_args.py): flashinfer prefill for its mask
    if unset:
        return {"prefill_attention_backend": "flashinfer"}
    if (backends[1] or asked) != "flashinfer":
        raise _override("MossVLForConditionalGeneration requires flashinfer prefill attention backend for "
                        "cross-attention custom mask support.", "prefill_attention_backend")
    return out
