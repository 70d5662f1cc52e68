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
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate

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
