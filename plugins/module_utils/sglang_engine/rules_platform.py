# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""GPU-platform rules of the attention hooks: the attention backend SGLang picks on an SM100 (B200) host, and
the deterministic-inference hook's attention backend (0.5.11-0.5.18 srt/server_args.py
_handle_deterministic_inference, from 0.5.19 srt/arg_groups/attention_hook.py handle_deterministic_inference with
its attention part in arg_groups/overrides.py _deterministic_attention_backend). The platform is what
gpu.platform_from_gpus derives from the GPU facts; per-release differences are traits (releases.py). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate

# handle_deterministic_inference's DeepSeek-family list (the fill is triton for them on Blackwell; every release)
DETERMINISTIC_TRITON_ARCHS = ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM",
                              "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM",
                              "Glm4MoeLiteForCausalLM", "Glm5NextForConditionalGeneration")


def sm100_default_attention(args, rules, target_cfg):
    """get_default_attn_backend on an SM100 host for an MHA target (arg_groups/model_override_base.py; server_args.py
    _get_default_attn_backend before 0.5.19): trtllm_mha (fa4 when K and V rows differ, 0.5.17 on) while
    speculation is off or its top-k is one (given, with page_size 1; from 0.5.23 DFLASH counts as top-k one), else
    flashinfer. None where it is not claimed: the trait unset, an MLA target (its default is the MLA engineers'
    flashinfer, not modelled here), or a target with attention sinks (triton)."""
    how = rules["sm100_default_attention"]
    if how is None:
        return None
    t = text_cfg(target_cfg) if target_cfg else {}
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    if ("kv_lora_rank" in t and arch not in how["mha_archs"]) or t.get("model_type") == "gpt_oss":
        return None
    topk, page = args.get("speculative_eagle_topk"), args.get("page_size")
    algo = args.get("speculative_algorithm")
    if (topk is None or (topk == 1 and page in (None, 1))) and (
            algo is None or topk is not None or (how["dflash_topk_one"] and str(algo).upper() == "DFLASH")):
        head, v_head = t.get("head_dim"), t.get("v_head_dim")
        asym = how["asymmetric_fa4"] and v_head is not None and head is not None and v_head != head
        return "fa4" if asym else "trtllm_mha"
    return "flashinfer"


@gate("enable_deterministic_inference")
def check_deterministic_attention(args, rules, r, platform, target_cfg, result):
    """--enable-deterministic-inference's attention backend: a backend given (or already resolved, in 0.5.11 where
    the hook runs after the attention one) must be one of the release's deterministic backends
    (DETERMINISTIC_ATTENTION_BACKEND_CHOICES); none given (0.5.12 on, before the attention hook) is filled by the
    platform: flashinfer on SM100 / SM120 (triton for the DeepSeek family), else fa3 (a host without a GPU too).
    With no GPU facts the fill is left to the host."""
    if not args.get("enable_deterministic_inference"):
        return
    backend = r["attention_backend"]
    if backend is None:
        if not platform.get("gpus_known"):
            result.warn("DETERMINISTIC_BACKEND_UNKNOWN", "--enable-deterministic-inference: SGLang picks the attention "
                        "backend by GPU (no GPU facts given).")
            return
        arch = ((target_cfg or {}).get("architectures") or [None])[0]
        if platform.get("sm") in (100, 120):
            r["attention_backend"] = "triton" if arch in DETERMINISTIC_TRITON_ARCHS else "flashinfer"
        else:
            r["attention_backend"] = "fa3"
        result.warn("SGLANG_DEFAULT", "--enable-deterministic-inference without --attention-backend: SGLang uses %s."
                    % r["attention_backend"])
        return
    choices = rules["deterministic_attention_backends"]
    if backend not in choices:
        raise Refused("DETERMINISTIC_ATTENTION_BACKEND", "Only %s attention backends support deterministic inference "
                      "in SGLang %s, got %s (--enable-deterministic-inference): pick one of them." % (
                          ", ".join(choices), rules["version"], backend), "attention_backend")
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    if arch in DETERMINISTIC_TRITON_ARCHS:
        # next in the hook, for the DeepSeek family (absorbed MLA): its own backend list (trait
        # deterministic_mla_backends), then fa4 only on SM100/SM110 (trait deterministic_mla_fa4_sm100, 0.5.17 on)
        mla = rules["deterministic_mla_backends"]
        if backend not in mla:
            raise Refused("DETERMINISTIC_MLA_BACKEND", "Only %s attention backends support deterministic inference "
                          "with %s (absorbed MLA) in SGLang %s, got %s: pick one of them." % (
                              ", ".join(mla), arch, rules["version"], backend), "attention_backend")
        if backend == "fa4" and rules["deterministic_mla_fa4_sm100"] and platform.get("gpus_known") and \
                platform.get("sm") not in (100, 110):
            raise Refused("DETERMINISTIC_MLA_BACKEND", "Deterministic inference with %s (absorbed MLA) on the fa4 "
                          "attention backend requires an SM100/SM110 GPU (this host has %s)." % (
                              arch, ("sm_%s" % platform["sm"]) if platform.get("sm") else "no visible GPU"),
                          "attention_backend")
