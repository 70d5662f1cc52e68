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
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, is_int, truthy_env
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import attn_dp_enabled, attn_dp_of, prefill_cp_on
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_speculative import _env_bool

# srt/layers/cp/cp_decode_attn_tp.py CP_DECODE_ATTN_TP_SUPPORTED_ARCHS (the same in every release with the flag,
# 0.5.17-0.5.23)
CP_DECODE_ATTN_TP_ARCHS = ("DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN", "DeepseekV4ForCausalLMDSpark",
                           "GlmMoeDsaForCausalLM", "GlmMoeDsaForCausalLMNextN")


@gate("enable_dsa_cache_layer_split", "enable_cp_decode_attn_tp", "pp_size", "ep_size")
def check_model_specific(args, rules, target_cfg):
    if target_cfg is None:
        return
    arch = (target_cfg.get("architectures") or [None])[0]
    if rules["interns2_mobius_no_pp_ep"] and arch == "InternS2MobiusForConditionalGeneration":
        # -- misc (session 15) --: the hook's Intern-S2-Mobius branch (0.5.18 on), before the DSA layer split check
        unsupported = [what for what, on in (("pipeline parallelism (--pp-size must be 1)", get(args, "pp_size", 1) != 1),
                                             ("expert parallelism (--ep-size must be 1)", get(args, "ep_size", 1) != 1))
                       if on]
        if unsupported:
            raise Refused("MODEL_ARCHITECTURE_FLAG", "Intern-S2-Mobius does not support: %s." % "; ".join(unsupported),
                          "pp_size" if get(args, "pp_size", 1) != 1 else "ep_size")
    if args.get("enable_dsa_cache_layer_split") and "index_topk" not in text_cfg(target_cfg):
        # is_deepseek_dsa: a DSA architecture with index_topk; without index_topk no architecture is one
        raise Refused("MODEL_ARCHITECTURE_FLAG", "--enable-dsa-cache-layer-split is only supported for DSA (DeepSeek "
                      "Sparse Attention) models; the target %s has no index_topk." % arch,
                      "enable_dsa_cache_layer_split")
    if args.get("enable_cp_decode_attn_tp") and arch not in CP_DECODE_ATTN_TP_ARCHS:
        raise Refused("MODEL_ARCHITECTURE_FLAG", "--enable-cp-decode-attn-tp is only supported for models whose "
                      "attention linears are replicated across CP ranks (%s); the target is %s."
                      % (", ".join(CP_DECODE_ATTN_TP_ARCHS), arch), "enable_cp_decode_attn_tp")


# -- moe (session 16) --
def check_mimo_v2_fused_qkv(args, rules, target_cfg):
    """The model hook's MiMo V2 branch (every release: 0.5.23 srt/arg_groups/model_hook.py
    handle_model_specific_adjustments, through 0.5.18 ServerArgs._handle_model_specific_adjustments), after the model
    overrides: a MiMoV2ForCausalLM checkpoint whose config says attention_projection_layout fused_qkv has its qkv_proj
    weights interleaved for a TP of num_key_value_heads (configs/model_config.py get_mimo_v2_fused_qkv_expected_tp_size),
    so the attention TP (--tp-size over attention DP and --attn-cp-size) must equal it (trait mimo_v2_fused_qkv_tp
    "equal", 0.5.11-0.5.16) or divide it ("divisor", 0.5.17 on). Skipped for --encoder-only (0.5.13 on; 0.5.11-0.5.12
    check an --encoder-only MiMo V2 here too, which the engine refuses earlier for the architecture: not modelled).
    Attention DP: --dp-size under --enable-dp-attention, resolved (0.5.22 on: --attn-dp-size,
    runtime_context.derive_attn_tp_size)."""
    if args.get("encoder_only") or target_cfg.get("attention_projection_layout") != "fused_qkv":
        return
    expected = target_cfg.get("num_key_value_heads")
    if not is_int(expected):
        text = target_cfg.get("text_config") if isinstance(target_cfg.get("text_config"), dict) else {}
        expected = text.get("num_key_value_heads")
    if not is_int(expected):
        return  # the config's own error (a fused layout without num_key_value_heads): not modelled
    tp, cp = get(args, "tp_size", 1), get(args, "attn_cp_size", 1)
    if rules["attn_dp_resolved"]:
        dp = attn_dp_of(args)
    else:
        dp = get(args, "dp_size", 1) if attn_dp_enabled(args, rules) else 1
    effective = tp // dp // cp
    bad = effective != expected if rules["mimo_v2_fused_qkv_tp"] == "equal" else expected % effective != 0
    if bad:
        raise Refused("MIMO_V2_ATTN_TP", "MiMoV2ForCausalLM requires effective attention TP size %d because its fused "
                      "qkv_proj weights are TP=%d-interleaved; got %d (--tp-size %d, attention DP %d, --attn-cp-size %d)."
                      % (expected, expected, effective, tp, dp, cp), "tp_size")


# -- gpu16 (session 17) --
def check_mimo_v2_hicache(args, rules, env):
    """The same MiMo V2 branch after the fused-qkv check, for MiMoV2ForCausalLM and MiMoV2FlashForCausalLM (trait
    mimo_v2_hicache_env, 0.5.14-0.5.18 srt/server_args.py _handle_model_specific_adjustments; gone from 0.5.19):
    --enable-hierarchical-cache needs the unified radix tree (EnvBool SGLANG_ENABLE_UNIFIED_RADIX_TREE)."""
    if rules["mimo_v2_hicache_env"] and args.get("enable_hierarchical_cache") and \
            not _env_bool(env, "SGLANG_ENABLE_UNIFIED_RADIX_TREE"):
        raise Refused("MIMO_V2_HICACHE", "Hierarchical cache for MiMoV2 requires the unified radix tree: set "
                      "SGLANG_ENABLE_UNIFIED_RADIX_TREE=1 to enable --enable-hierarchical-cache for this model.",
                      "enable_hierarchical_cache")


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
    """The model overrides' attention-DP refusals: runtime_context.attn_dp_enabled_of from 0.5.22 (trait
    attn_dp_resolved); before, the --enable-dp-attention flag."""
    if rules["attn_dp_resolved"]:
        return attn_dp_enabled(args, rules)
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
    if family in _QUANT_FAMILIES:  # -- quant (session 15) --
        return check_quant_families(family, args, rules, platform, target_cfg, env, asked)
    if family in _ATTENTION_FAMILIES:
        return check_attention_family(family, args, rules, platform, target_cfg, asked)
    if family == "deepseek":
        check_deepseek_family(args, rules, platform, target_cfg)
        page = dsa_page_size(args, rules, target_cfg)
        return {"page_size": page} if page is not None else out
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


# model_overrides/deepseek_v2.py _deepseek_family_overrides (registered for these; overrides.py _DEEPSEEK_FAMILY_ARCHS)
DEEPSEEK_FAMILY_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "KimiK25ForConditionalGeneration",
                         "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM",
                         "Glm5NextForConditionalGeneration", "HYV4ForCausalLM", "HYV4ForCausalLMNextN",
                         "LongcatFlashForCausalLM", "LongcatFlashForCausalLMNextN", "Dots3NoteForCausalLM")
MODEL_OVERRIDE_FAMILIES.update({a: "deepseek" for a in DEEPSEEK_FAMILY_ARCHS})
# configs/model_config.py is_deepseek_dsa: one of these with index_topk in its config
_DSA_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLMNextN", "MistralLarge3ForCausalLM",
              "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM", "GlmMoeDsaForCausalLMNextN",
              "Glm5NextForConditionalGenerationNextN", "Glm5NextForConditionalGeneration", "LongcatFlashForCausalLM",
              "LongcatFlashForCausalLMNextN", "Dots3NoteForCausalLM", "Dots3NoteForCausalLMNextN", "HYV4ForCausalLM",
              "HYV4ForCausalLMNextN")
_HYV4_ARCHS = ("HYV4ForCausalLM", "HYV4ForCausalLMNextN")


def is_deepseek_dsa(target_cfg):
    arch = (target_cfg.get("architectures") or [None])[0]
    return arch in _DSA_ARCHS and text_cfg(target_cfg).get("index_topk") is not None


def dsa_page_size(args, rules, target_cfg):
    """The page size the DeepSeek family's DSA branch sets on a CUDA GPU, over any --page-size given, or None (not a
    DSA target, or not CUDA): 64 (0.5.11-0.5.14 srt/server_args.py _handle_model_specific_adjustments, 0.5.15-0.5.18
    arg_groups/overrides.py, 0.5.19-0.5.21 model_overrides/deepseek_v2.py _deepseek_family_overrides); from 0.5.22
    (deepseek_family "overrides") 64 x the config's index_kpool, so a page owns a whole pooled index group. SGLang sets
    it before it reads the GPU's compute capability (ROCm's page 1, NPU's and XPU's are not modelled); the
    attention hook's page constraints (trtllm_mla / trtllm_mha) read it afterwards. 0.5.11-0.5.12 have no DeepSeek
    family: there the model-specific adjustments' DSA block sets 64 for the architectures of trait dsa_page_block_archs
    (resolve.py enters it there)."""
    archs = rules["dsa_page_block_archs"]
    if archs is not None and (target_cfg.get("architectures") or [None])[0] not in archs:
        return None
    if not is_deepseek_dsa(target_cfg) or str(args.get("device") or "cuda") != "cuda":
        return None
    kpool = get(text_cfg(target_cfg), "index_kpool", 1) if rules["deepseek_family"] == "overrides" else 1
    return 64 * kpool if is_int(kpool) and kpool >= 1 else 64


def _dsa_kv_cache_dtype(args, major, sinks):
    """overrides.py _dsa_kv_cache_dtype_default on CUDA (0.5.19 on; the 0.5.19-0.5.21 DSA block and 0.5.22's family):
    learnable sinks need a bf16 KV cache, auto is FP8 on SM10x+ (bf16 with sinks), only bf16 / fp8_e4m3 pass. Returns
    the resolved dtype."""
    kv = get(args, "kv_cache_dtype", "auto")
    if sinks and kv not in ("auto", "bf16", "bfloat16"):
        raise _override("Learnable DSA attention sinks require a bfloat16 KV cache; got kv_cache_dtype=%s." % kv,
                        "kv_cache_dtype")
    if kv == "auto":
        kv = "fp8_e4m3" if major >= 10 and not sinks else "bfloat16"
    if kv == "bf16":
        kv = "bfloat16"
    if kv not in ("bfloat16", "fp8_e4m3"):
        raise _override("DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype", "kv_cache_dtype")
    return kv


def _dsa_backends(args, arch, kv, major, sinks):
    """overrides.py _dsa_split_backend_resolution on CUDA: the (prefill, decode) DSA backends it checks, or None when
    it returns before the checks (learnable sinks: their own backend). Under DCP the
    overrides declared trtllm for an unset one first (_dsa_dcp_overrides)."""
    prefill, decode = args.get("dsa_prefill_backend"), args.get("dsa_decode_backend")
    if get(args, "dcp_size", 1) > 1:
        prefill, decode = prefill or "trtllm", decode or "trtllm"
    if sinks:
        for key, flag in (("dsa_prefill_backend", "--dsa-prefill-backend"), ("dsa_decode_backend", "--dsa-decode-backend")):
            if args.get(key) is not None and args.get(key) != "flashmla_sparse":
                raise _override("%s uses learnable attention sinks and requires %s 'flashmla_sparse'; got %r"
                                % (arch, flag, args.get(key)), key)
        return None
    if arch == "GlmMoeDsaForCausalLM" and major == 12 and kv == "fp8_e4m3":
        return None
    if args.get("enable_hisparse"):  # the HiSparse arm (CUDA): its own defaults, then the same constraints
        default = "flashmla_kv" if kv == "fp8_e4m3" else "flashmla_sparse"
        prefill, decode = prefill or default, decode or default
        if kv == "fp8_e4m3" and "tilelang" in (prefill, decode):
            raise _override("CUDA TileLang FP8 KV does not support HiSparse.", "enable_hisparse")
        return prefill, decode
    if kv == "fp8_e4m3":
        default = "trtllm" if major >= 10 else "flashmla_kv"
        return prefill or default, decode or default
    return prefill or "flashmla_sparse", decode or ("trtllm" if major >= 10 else "fa3")


def check_deepseek_family(args, rules, platform, target_cfg):
    """_deepseek_family_overrides' refusals, then model_hook.py's DSA block (0.5.23 handle_model_specific_adjustments,
    after the overrides): the DSA TBO check, the KV cache dtype and DSA backend passes (overrides.py
    _dsa_kv_cache_dtype_default, _check_dsa_backend_constraints), prefill CP on decode, the DSA cache layer split. CUDA
    only (the NPU, XPU and ROCm branches are not modelled); the passes read the GPU's compute capability, so a host
    without a visible GPU stops there (SGLang's torch cannot answer it: a host matter)."""
    if rules["deepseek_family"] != "overrides":
        _check_dsa_block_before_0_5_22(args, rules["deepseek_family"], platform, target_cfg, rules["dsa_prefill_cp_flags"],
                                       rules["dsa_page_block_archs"])
        return
    arch = (target_cfg.get("architectures") or [None])[0]
    dcp = get(args, "dcp_size", 1)
    if arch in _HYV4_ARCHS:
        if args.get("enable_prefill_cp"):
            raise _override("--enable-prefill-cp is not supported for HYV4 because its attention path does not "
                            "implement DSA context-parallel metadata and sharding.", "enable_prefill_cp")
        if dcp > 1:
            raise _override("--dcp-size > 1 is not supported for HYV4 because decode context parallelism gathers "
                            "query heads across DCP ranks but does not provide single-owner semantics for learnable "
                            "attention sinks.", "dcp_size")
    if not is_deepseek_dsa(target_cfg) or str(args.get("device") or "cuda") != "cuda":
        return
    target_cfg = text_cfg(target_cfg)
    if dcp > 1:  # _dsa_dcp_overrides
        if args.get("enable_hisparse") or args.get("enable_hierarchical_cache"):
            raise _override("DSA DCP does not support HiSparse or HiCache.", "dcp_size")
        if get(args, "disaggregation_mode", "null") != "null":
            raise _override("DSA DCP does not support PD disaggregation.", "dcp_size")
        if get(args, "speculative_eagle_topk", 1) != 1:
            raise _override("DSA DCP requires --speculative-eagle-topk 1.", "speculative_eagle_topk")
    tp = get(args, "tp_size", 1)
    if args.get("enable_prefill_cp"):
        attn_dp, dp = get(args, "attn_dp_size", 1), get(args, "dp_size", 1)
        if attn_dp > 1 and dp > 1:  # model_override_base.py context_parallel_attn_dp_size
            raise Refused("ATTN_DP_SIZE", "--dp-size %s with --attn-dp-size %s: data-parallel replicas combined with "
                          "attention data parallelism are not supported." % (dp, attn_dp), "dp_size")
        if tp > 8:
            raise _override("Context parallel only supports single machine (tp_size <= 8). Cross-machine CP has "
                            "precision issues.", "tp_size")
    kpool = get(target_cfg, "index_kpool", 1)
    if is_int(kpool) and kpool > 1 and dcp > 1:
        raise _override("--dcp-size > 1 is not supported for DSA with index_kpool=%s: a pooled index key spans "
                        "positions owned by different DCP ranks." % kpool, "dcp_size")
    # model_hook.py: the DSA block after the overrides
    if args.get("enable_two_batch_overlap"):  # _validate_dsa_tbo_index_sharing
        pattern, types = target_cfg.get("index_topk_pattern"), target_cfg.get("indexer_types")
        if (get(target_cfg, "index_topk_freq", 1) or 1) > 1 or (pattern is not None and "S" in pattern) or \
                (types is not None and "shared" in types):
            raise _override("--enable-two-batch-overlap is not supported with DSA index-topk sharing: the TBO op path "
                            "does not propagate topk indices across layers.", "enable_two_batch_overlap")
    sm = platform.get("sm")
    if not is_int(sm):
        return  # torch.cuda.get_device_capability(): the host's GPU (none visible, or not known)
    major, minor = sm // 10, sm % 10
    sinks = bool(target_cfg.get("learnable_sink"))
    kv = _dsa_kv_cache_dtype(args, major, sinks)
    chosen = _dsa_backends(args, arch, kv, major, sinks)
    if chosen is not None:  # _check_dsa_backend_constraints (CUDA)
        prefill, decode = chosen
        if "triton" in chosen:
            raise _override("The triton DSA backend is only supported on ROCm/HIP. Pick an alternative DSA backend for "
                            "CUDA (flashmla_kv on Hopper, trtllm on Blackwell).", "dsa_prefill_backend")
        if kv == "fp8_e4m3" and "tilelang" in chosen:
            if prefill != "tilelang" or decode != "tilelang":
                raise _override("CUDA TileLang FP8 KV requires both DSA backends to be tilelang; raw and scaled FP8 KV "
                                "layouts cannot be mixed.", "dsa_prefill_backend")
            if dcp > 1:
                raise _override("CUDA TileLang FP8 KV does not support --dcp-size > 1.", "dcp_size")
            if (major, minor) < (8, 9):
                raise _override("CUDA TileLang FP8 KV requires SM89 or newer.", "dsa_prefill_backend")
    _check_dsa_prefill_cp_and_layer_split(args)


def _check_dsa_prefill_cp_and_layer_split(args, legacy_cp_flag=None):
    """The DSA block's last checks (0.5.23 model_hook.py handle_model_specific_adjustments; through 0.5.18
    srt/server_args.py _handle_model_specific_adjustments): prefill CP on a decode worker, the DSA cache layer split.
    0.5.11-0.5.13 read their legacy prefill CP flag there (legacy_cp_flag: its dest;
    --enable-nsa-prefill-context-parallel, 0.5.13 --enable-dsa-prefill-context-parallel) and have no cache layer
    split."""
    mode = get(args, "disaggregation_mode", "null")
    if legacy_cp_flag is not None:
        if args.get(legacy_cp_flag) and mode == "decode":
            raise _override("CP is only supported for prefill when PD disaggregation, please remove --%s."
                            % legacy_cp_flag.replace("_", "-"), legacy_cp_flag)
        return
    if args.get("enable_prefill_cp") and mode == "decode":
        raise _override("CP is only supported for prefill when PD disaggregation, please remove --enable-prefill-cp.",
                        "enable_prefill_cp")
    if args.get("enable_dsa_cache_layer_split"):
        if mode != "prefill":
            if mode == "decode":
                raise _override("--enable-dsa-cache-layer-split is not supported on decode workers. This flag is a "
                                "prefill-CP optimization; decode receives full cache shards through PD transfer.",
                                "enable_dsa_cache_layer_split")
            raise _override("--enable-dsa-cache-layer-split is only supported on PD prefill workers. Non-PD workers also "
                            "run decode and require ordinary local decode cache semantics.",
                            "enable_dsa_cache_layer_split")
        if not args.get("enable_prefill_cp") or args.get("cp_strategy") != "interleave":
            raise _override("--enable-dsa-cache-layer-split requires --enable-prefill-cp and --cp-strategy interleave.",
                            "enable_dsa_cache_layer_split")
        backend = get(args, "disaggregation_transfer_backend", "mooncake")
        if backend != "mooncake":
            raise _override("--enable-dsa-cache-layer-split currently only supports the mooncake transfer backend "
                            "(mooncake / mooncake_tcp). Got --disaggregation-transfer-backend %r." % backend,
                            "disaggregation_transfer_backend")
        if get(args, "pp_size", 1) > 1:
            raise _override("--enable-dsa-cache-layer-split is not supported with pipeline parallelism (pp_size > 1) "
                            "yet.", "pp_size")


def _dsa_prefill_cp(args, cp_flags):
    """(DSA prefill CP on, its strategy) as the DSA block reads them, trait dsa_prefill_cp_flags: None (not modelled),
    "legacy_aliases" (0.5.14-0.5.19 _handle_legacy_cp_arguments: --enable-prefill-context-parallel and
    --enable-dsa-prefill-context-parallel / its NSA alias turn --enable-prefill-cp on, the strategy from their fixed
    modes (zigzag, interleave) unless --cp-strategy is given) or "cp" (0.5.20 on: --enable-prefill-cp only)."""
    if cp_flags is None:
        return False, None
    strategy = args.get("cp_strategy")
    if cp_flags == "legacy_aliases" and strategy is None:
        if args.get("enable_prefill_context_parallel"):
            strategy = "zigzag"
        elif args.get("enable_dsa_prefill_context_parallel"):
            strategy = "interleave"
    return prefill_cp_on(args, cp_flags), strategy


def _check_dsa_prefill_cp_asserts(args, strategy):
    """The DSA prefill CP asserts (0.5.14 server_args.py, 0.5.15-0.5.18 overrides.py, 0.5.19-0.5.21
    model_overrides/deepseek_v2.py _deepseek_family_overrides): interleave with --dp-size above 1, --tp-size above 8."""
    if strategy != "zigzag" and get(args, "dp_size", 1) != 1:
        raise _override("interleave DSA CP does not support DP attention.", "dp_size")
    if get(args, "tp_size", 1) > 8:
        raise _override("Context parallel only supports single machine (tp_size <= 8). Cross-machine CP has "
                        "precision issues.", "tp_size")


def _check_dsa_block_before_0_5_22(args, how, platform, target_cfg, cp_flags=None, archs=None):
    """A DSA target's checks before 0.5.22 (0.5.11-0.5.18 srt/server_args.py _handle_model_specific_adjustments,
    0.5.19-0.5.21 model_overrides/deepseek_v2.py _deepseek_family_overrides then arg_groups/model_hook.py), trait
    deepseek_family: from 0.5.19 the family override's refusals (HYV4's prefill CP and DCP, "dsa_block_v20"; DSA
    prefill CP: interleave with --dp-size above 1, --tp-size above 8); the TBO check with index-topk sharing (0.5.13 on;
    "dsa_block_v20": indexer_types too, model_hook.py _validate_dsa_tbo_index_sharing); the block's prefill CP asserts
    (0.5.11-0.5.13 on the legacy flag, _check_legacy_dsa_cp; 0.5.14-0.5.18 _check_dsa_prefill_cp_asserts); then on CUDA
    the KV cache dtype and DSA backend passes, which read torch.cuda.get_device_capability() (a host without a known GPU
    stops there): 0.5.11-0.5.13's _set_default_nsa/dsa_kv_cache_dtype and 0.5.15-0.5.16's overrides.py
    _dsa_kv_cache_dtype_default refuse a KV cache dtype (their backend defaults nothing), 0.5.17-0.5.21 the passes of
    _check_dsa_passes_before_0_5_22 ("dsa_block_v17", "dsa_block_v19", "dsa_block_v20"); 0.5.14 ("dsa_block_v14")
    checks the KV cache dtype without HiSparse or learnable sinks only (its backend defaults are not modelled); then
    prefill CP on decode and the cache layer split (0.5.16 on)."""
    family_cp = how in ("dsa_block_v19", "dsa_block_v20")
    legacy = how in ("dsa_block_v11", "dsa_block_v12", "dsa_block_v13")
    cp_on, cp_strategy = _dsa_prefill_cp(args, cp_flags)
    arch = (target_cfg.get("architectures") or [None])[0]
    if how == "dsa_block_v20" and arch in _HYV4_ARCHS:
        if args.get("enable_prefill_cp"):
            raise _override("--enable-prefill-cp is not supported for HYV4 because its attention path does not "
                            "implement DSA context-parallel metadata and sharding.", "enable_prefill_cp")
        if get(args, "dcp_size", 1) > 1:
            raise _override("--dcp-size > 1 is not supported for HYV4 because decode context parallelism gathers "
                            "query heads across DCP ranks but does not provide single-owner semantics for learnable "
                            "attention sinks.", "dcp_size")
    if not is_deepseek_dsa(target_cfg) or str(args.get("device") or "cuda") != "cuda":
        return
    if archs is not None and arch not in archs:  # trait dsa_page_block_archs (0.5.11-0.5.12: the block's own list)
        return
    cfg = text_cfg(target_cfg)
    if family_cp and cp_on:  # _deepseek_family_overrides (CUDA or ROCm)
        _check_dsa_prefill_cp_asserts(args, cp_strategy)
    if how not in ("dsa_block_v11", "dsa_block_v12") and args.get("enable_two_batch_overlap"):  # 0.5.13 on
        pattern, types = cfg.get("index_topk_pattern"), cfg.get("indexer_types")
        if how != "dsa_block_v20":
            types = None
        if (get(cfg, "index_topk_freq", 1) or 1) > 1 or (pattern is not None and "S" in pattern) or \
                (types is not None and "shared" in types):
            raise _override("--enable-two-batch-overlap is not supported with DSA index-topk sharing: the TBO op path "
                            "does not propagate topk indices across layers.", "enable_two_batch_overlap")
    if not family_cp and cp_on:  # 0.5.14-0.5.18: the block's prefill CP asserts (0.5.15 on: overrides.py), pre-GPU
        _check_dsa_prefill_cp_asserts(args, cp_strategy)
    if legacy:
        _check_legacy_dsa_cp(args, how)  # -- oldnon (session 17) --
    sm = platform.get("sm")
    if not is_int(sm):
        return  # torch.cuda.get_device_capability(): the host's GPU (none visible, or not known)
    if how in ("dsa_block_v17", "dsa_block_v19", "dsa_block_v20"):
        _check_dsa_passes_before_0_5_22(args, how, sm, arch, cfg)
    elif legacy or how in ("dsa_block_v15", "dsa_block_v16"):
        # -- w18dsa (session 18) --: the KV cache dtype; the backend defaults after it refuse nothing
        _dsa_kv_cache_dtype(args, sm // 10, False)
    elif not args.get("enable_hisparse") and not cfg.get("learnable_sink"):
        # -- oldgpu (session 17) --: 0.5.14's _set_default_dsa_kv_cache_dtype in the block, then its backend defaults
        # (these refuse nothing without HiSparse)
        _dsa_kv_cache_dtype(args, sm // 10, False)
    else:
        return
    _check_dsa_prefill_cp_and_layer_split(args, legacy_cp_flag=(
        "enable_dsa_prefill_context_parallel" if how == "dsa_block_v13" else
        "enable_nsa_prefill_context_parallel" if legacy else None))


def _check_legacy_dsa_cp(args, how):
    """The DSA block of 0.5.11-0.5.13 (srt/server_args.py _handle_model_specific_adjustments, trait deepseek_family
    "dsa_block_v11" / "dsa_block_v12" / "dsa_block_v13"), on a CUDA or ROCm host before it reads the GPU: the legacy DSA
    prefill CP flag (--enable-nsa-prefill-context-parallel; 0.5.13 --enable-dsa-prefill-context-parallel, the NSA name
    its alias) in round-robin-split mode (the default) takes a single data-parallel replica, then in either mode
    --tp-size 8 (0.5.11: exactly 8; 0.5.12 on: at most 8). The round-robin message is the DeepSeek-V4 hook's too
    (one code, DSV4_CP)."""
    v13 = how == "dsa_block_v13"
    if not args.get("enable_dsa_prefill_context_parallel" if v13 else "enable_nsa_prefill_context_parallel"):
        return
    mode = get(args, "dsa_prefill_cp_mode" if v13 else "nsa_prefill_cp_mode", "round-robin-split")
    if mode != "in-seq-split" and get(args, "dp_size", 1) != 1:
        raise Refused("DSV4_CP", "For round-robin split mode, dp attention is not supported (DSA prefill CP with "
                      "--dp-size %s)." % get(args, "dp_size", 1), "dp_size")
    tp = get(args, "tp_size", 1)
    if tp > 8 or (how == "dsa_block_v11" and tp != 8):
        raise _override("Context parallel only supports single machine (tp_size %s 8). Cross-machine CP has precision "
                        "issues." % ("==" if how == "dsa_block_v11" else "<="), "tp_size")


def _check_dsa_passes_before_0_5_22(args, how, sm, arch, cfg):
    """The DSA passes of the releases before 0.5.22 from 0.5.17 (overrides.py _dsa_kv_cache_dtype_default, then
    _dsa_split_backend_resolution on CUDA; model_hook.py runs them after the GPU's compute capability, 0.5.17-0.5.18
    server_args.py's DSA block at its legacy slot): "dsa_block_v20" (0.5.20-0.5.21) refuses a learnable-sink target's KV
    cache dtype and DSA backends and checks the backends with _check_dsa_backend_constraints (triton is ROCm-only,
    tilelang takes no FP8 KV on CUDA), the HiSparse arm too; "dsa_block_v17" / "dsa_block_v19" (0.5.17-0.5.19) have
    _check_tilelang_dsa_fp8_kv only, outside the HiSparse arm, and no sink checks."""
    v20 = how == "dsa_block_v20"
    major = sm // 10
    sinks = v20 and bool(cfg.get("learnable_sink"))
    kv = _dsa_kv_cache_dtype(args, major, sinks)
    prefill, decode = args.get("dsa_prefill_backend"), args.get("dsa_decode_backend")
    if sinks:
        for key, flag, value in (("dsa_prefill_backend", "--dsa-prefill-backend", prefill),
                                 ("dsa_decode_backend", "--dsa-decode-backend", decode)):
            if value is not None and value != "flashmla_sparse":
                raise _override("%s uses learnable attention sinks and requires %s 'flashmla_sparse'; got %r"
                                % (arch, flag, value), key)
        return
    if arch == "GlmMoeDsaForCausalLM" and major == 12 and kv == "fp8_e4m3":
        return
    if args.get("enable_hisparse"):  # hisparse_hook.py _hisparse_default_backend (CUDA)
        if not v20:
            return
        default = "flashmla_kv" if kv == "fp8_e4m3" else "flashmla_sparse"
        prefill, decode = prefill or default, decode or default
    elif kv == "fp8_e4m3":
        default = "trtllm" if major >= 10 else "flashmla_kv"
        prefill, decode = prefill or default, decode or default
    else:
        prefill, decode = prefill or "flashmla_sparse", decode or ("trtllm" if major >= 10 else "fa3")
    chosen = (prefill, decode)
    if v20 and "triton" in chosen:
        raise _override("The triton DSA backend is only supported on ROCm/HIP. Pick an alternative DSA backend for "
                        "CUDA (flashmla_kv on Hopper, trtllm on Blackwell).", "dsa_prefill_backend")
    if kv == "fp8_e4m3" and "tilelang" in chosen:
        raise _override("The tilelang DSA prefill/decode kernels only support an fp8_e4m3 KV cache on ROCm/HIP; on "
                        "CUDA they require a bfloat16 KV cache.", "dsa_prefill_backend")


# model_hook.py handle_model_specific_adjustments: the architecture branches that check the attention backend after
# the override filled a missing one (gpt_oss.py, llama4.py, gemma4.py, exaone.py, olmo2.py, lfm2.py declare the fill).
# The accepted sets that change by release are the traits gpt_oss_attention and gemma4_attention (None: no check).
_ATTENTION_FAMILIES = ("gpt_oss", "llama4", "gemma4", "exaone", "olmo2", "lfm2")
MODEL_OVERRIDE_FAMILIES.update({
    "GptOssForCausalLM": "gpt_oss", "Llama4ForConditionalGeneration": "llama4", "Llama4ForCausalLM": "llama4",
    "Gemma4ForConditionalGeneration": "gemma4", "Gemma4ForCausalLM": "gemma4",
    "Gemma4UnifiedForConditionalGeneration": "gemma4", "Exaone4ForCausalLM": "exaone", "ExaoneMoEForCausalLM": "exaone",
    "ExaoneMoeForCausalLM": "exaone", "Olmo2ForCausalLM": "olmo2", "Lfm2ForCausalLM": "lfm2", "Lfm2MoeForCausalLM": "lfm2",
})
_LLAMA4_ATTENTION = ("fa3", "aiter", "triton", "ascend", "trtllm_mha", "intel_xpu")
_EXAONE_ATTENTION = ("fa3", "triton", "trtllm_mha")


def _gpu_default(platform, sm100, sm90, other):
    """An override's platform pick for a missing backend; None when the host's GPU is not known."""
    if not platform.get("gpus_known"):
        return None
    sm = platform.get("sm")
    return sm100 if sm == 100 else sm90 if sm == 90 else other


def check_attention_family(family, args, rules, platform, target_cfg, asked):
    """One architecture branch's attention check (on the backends as the override left them), and the backend the
    override fills ({field: value}; the platform's pick is modelled for SM100 / SM90 / other CUDA hosts)."""
    prefill, decode = args.get("prefill_attention_backend"), args.get("decode_attention_backend")
    cpu = str(args.get("device") or "cuda").split(":", maxsplit=1)[0] == "cpu"
    arch = (target_cfg.get("architectures") or [None])[0]
    if family == "gpt_oss":
        allowed = rules["gpt_oss_attention"]
        if asked is None and prefill is None and decode is None:
            fill = _gpu_default(platform, "trtllm_mha", "fa3", "triton") if not cpu else None
            return {"attention_backend": fill} if fill else {}
        p, d = prefill or asked, decode or asked
        if allowed is not None and (p not in allowed or d not in allowed):
            raise _override("GptOssForCausalLM requires one of %s attention backend, but got the following backends "
                            "- Prefill: %s - Decode: %s" % (list(allowed), p, d), "attention_backend")
        if args.get("moe_runner_backend") == "triton_kernel" and get(args, "ep_size", 1) != 1:
            raise _override("Triton kernel MoE is only supported when ep_size == 1", "moe_runner_backend")
        return {}
    if family == "llama4":
        if cpu:
            return {}
        if asked is None:
            fill = _gpu_default(platform, "trtllm_mha", "fa3", "triton")
            return {"attention_backend": fill} if fill else {}
        if asked not in _LLAMA4_ATTENTION:
            raise _override("fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is required for Llama4 model but got "
                            "%s" % asked, "attention_backend")
        return {}
    if family == "gemma4":
        allowed = rules["gemma4_attention"]
        fill = None
        if asked is None:
            fill = _gpu_default(platform, "trtllm_mha", "triton", "triton")
        att = asked or fill
        if allowed is not None and att is not None and ((prefill or att) not in allowed or (decode or att) not in allowed):
            raise _override("Gemma4 only supports %s attention backend, got prefill=%s, decode=%s"
                            % (", ".join(allowed), prefill or att, decode or att), "attention_backend")
        return {"attention_backend": fill} if fill else {}
    if family == "exaone":
        if target_cfg.get("sliding_window_pattern") is None:
            return {}
        if asked is None:
            fill = _gpu_default(platform, "trtllm_mha", "fa3" if (platform.get("sm") or 0) >= 80 else "triton",
                                "fa3" if (platform.get("sm") or 0) >= 80 else "triton")
            return {"attention_backend": fill} if fill else {}
        if asked not in _EXAONE_ATTENTION:
            raise _override("One of the attention backends in %s is required for %s, but got %s"
                            % (list(_EXAONE_ATTENTION), arch, asked), "attention_backend")
        return {}
    if family == "olmo2":
        if asked is None:
            fill = _gpu_default(platform, "trtllm_mha", "fa3" if (platform.get("sm") or 0) >= 80 else "triton",
                                "fa3" if (platform.get("sm") or 0) >= 80 else "triton")
            return {"attention_backend": fill} if fill else {}
        if asked == "flashinfer":
            raise _override("FlashInfer backend can significantly degrade the performance of Olmo3 models.",
                            "attention_backend")
        return {}
    # lfm2
    if asked is None:
        return {"attention_backend": "flashinfer"} if platform.get("sm") == 100 else {}
    if asked == "triton":
        raise _override("%s does not support triton attention backend, as the first layer might not be an attention "
                        "layer" % arch, "attention_backend")
    return {}


# -- mamba, standin (session 16) --
def check_nemotron_h_branch(args, rules, target_cfg, asked):
    """The model-specific adjustments' Nemotron-H branch before model_overrides/nemotron_h.py (trait
    nemotron_h_branch, 0.5.11-0.5.18: srt/server_args.py _handle_model_specific_adjustments; 0.5.12-0.5.14
    srt/arg_groups/nemotron_h_hook.py apply_nemotron_h_defaults; 0.5.15-0.5.18 the relu2 assert in
    arg_groups/overrides.py _nemotron_h_overrides, which runs first): a ModelOpt checkpoint's relu2 MLP, then no triton
    attention backend. `asked`: the backend as the hooks before it left it (the user's). 0.5.12-0.5.14 run the Mamba
    radix cache between the two, 0.5.15-0.5.18 after them, which the engine does not judge for Nemotron-H (trait
    mamba_radix_archs); 0.5.19 on, the relu2 check is _nemotron_h's and the triton assert is gone."""
    if not rules["nemotron_h_branch"] or target_cfg is None or \
            (target_cfg.get("architectures") or [None])[0] not in rules["nemotron_h_branch"]:
        return
    quant = _nemotron_h_relu2(args, target_cfg, target_cfg)
    if rules["nemotron_h_branch_w4a16"]:  # -- gpu16 (session 17) --: 0.5.18's overrides.py _nemotron_h_overrides
        _nemotron_h_w4a16(args, quant, target_cfg)
    if asked == "triton":
        raise _override("NemotronHForCausalLM does not support triton attention backend, as the first layer might not "
                        "be an attention layer", "attention_backend")


# -- misc (session 15) --
@gate("mamba_radix_cache_strategy",
      context=("disable_radix_cache", "disaggregation_mode", "disaggregation_decode_enable_radix_cache"))
def check_mamba_state(args, rules, target_cfg):
    """handle_mamba_radix_cache's refusal at the end of the model hook (trait mamba_state_archs, 0.5.21 on): an
    explicit extra_buffer / extra_buffer_lazy strategy with the radix cache on, on a target without Mamba state
    (_MAMBA_RADIX_CACHE_ARCHS of arg_groups/overrides.py, or a registered linear-attention spec: GigaChat 3.5 by
    architecture or config). Granite MoE hybrid (Mamba by its layer_types) is not judged."""
    archs = rules["mamba_state_archs"]
    if not archs or target_cfg is None:
        return
    if get(args, "mamba_radix_cache_strategy", "auto") not in ("extra_buffer", "extra_buffer_lazy"):
        return
    if args.get("disable_radix_cache") or (get(args, "disaggregation_mode", "null") == "decode"
                                           and not args.get("disaggregation_decode_enable_radix_cache")):
        return
    arch = (target_cfg.get("architectures") or [None])[0]
    if arch is None or arch in archs or arch == "GraniteMoeHybridForCausalLM" or arch.startswith("GigaChat35") or \
            target_cfg.get("model_type") == "gigachat3_5":
        return
    raise Refused("MAMBA_RADIX_CACHE", "--mamba-radix-cache-strategy %s needs mamba state, got %s: drop it (a model "
                  "without Mamba layers has no Mamba radix cache)." % (args["mamba_radix_cache_strategy"], arch),
                  "mamba_radix_cache_strategy")


@gate("weight_cache_mode")
def check_weight_cache(args, algo):
    """model_path_hook.py handle_load_format (0.5.17-0.5.18 srt/server_args.py), after the speculative hook: the weight
    cache daemon does not export a draft model's weights."""
    if get(args, "weight_cache_mode", "off") != "off" and algo is not None:
        raise Refused("WEIGHT_CACHE_SPECULATIVE", "--weight-cache-mode is not supported together with speculative "
                      "decoding (--speculative-algorithm): the weight cache daemon does not export the draft model's "
                      "weights. Disable one of them (--weight-cache-mode off).", "weight_cache_mode")


@gate("language_model_only", context=("encoder_only", "language_only", "enable_prefix_mm_cache",
                                      "enable_broadcast_mm_inputs_process", "mm_enable_dp_encoder", "disaggregation_mode"))
def check_language_model_only(args, rules, target_cfg):
    """model_hook.py handle_language_model_only (0.5.18 srt/server_args.py), first in the encoder-disaggregation hook:
    the flags it cannot be combined with, PD disaggregation (but for DeepSeek-V4.1), then the architectures it serves
    (the release's list: language_model_only_archs)."""
    if not args.get("language_model_only"):
        return
    for key, flag in (("encoder_only", "--encoder-only"), ("language_only", "--language-only"),
                      ("enable_prefix_mm_cache", "--enable-prefix-mm-cache"),
                      ("enable_broadcast_mm_inputs_process", "--enable-broadcast-mm-inputs-process"),
                      ("mm_enable_dp_encoder", "--mm-enable-dp-encoder")):
        if args.get(key):
            raise Refused("LANGUAGE_MODEL_ONLY", "--language-model-only cannot be combined with %s" % flag, key)
    if target_cfg is None:
        return
    if get(args, "disaggregation_mode", "null") != "null" and target_cfg.get("model_type") != "deepseek_v41":
        raise Refused("LANGUAGE_MODEL_ONLY", "--language-model-only is incompatible with --disaggregation-mode "
                      "prefill/decode", "disaggregation_mode")
    archs = target_cfg.get("architectures") or []
    allowed = rules["language_model_only_archs"] or ()
    if not any(a in allowed for a in archs):
        raise Refused("LANGUAGE_MODEL_ONLY", "--language-model-only does not support %s. Supported: %s."
                      % (archs, list(allowed)), "language_model_only")


@gate("dllm_algorithm", context=("disable_radix_cache",))
def check_dllm_model(args, rules, target_cfg):
    """-- engfix (session 15) --: the dLLM hook (handle_dllm_inference, after the KV cache, page-major and unified-pool
    hooks, every release) builds dllm/config.py DllmConfig, which refuses a target whose first architecture is not a
    diffusion LLM it knows (trait dllm_archs); through 0.5.14 only with the radix cache on (trait dllm_model_check).
    An unreadable target config is left to the host."""
    if rules["dllm_model_check"] == "radix" and args.get("disable_radix_cache"):
        return
    archs = (target_cfg or {}).get("architectures") or ()
    if archs and archs[0] not in rules["dllm_archs"]:
        raise Refused("DLLM_MODEL", "Unknown diffusion LLM: %s. --dllm-algorithm serves %s only (SGLang %s)." % (
            archs[0], ", ".join(rules["dllm_archs"]), rules["version"]), "dllm_algorithm")


# -- new19 (session 17) --
@gate("tp_size", "pp_size")
def check_joint_head_checkpoint(args, rules, target_cfg):
    """model_hook.py handle_model_capability_adjustments (trait joint_head_checkpoint, 0.5.22 on), before its encoder
    replay check: a Clef checkpoint (architectures exactly Qwen3_5ForConditionalGeneration, and a joint_head_config.json
    that srt/configs/model_config.py load_joint_head_config reads as other than null: checks.CHECKPOINT_FILES) is served
    at --tp-size 1 and --pp-size 1 only. Not modelled: what the hook declares for it then (embedding mode, no radix
    cache, no chunked prefill, no CUDA graphs), a decision_config.json that renames a bare backbone's architecture to
    Qwen3_5ForConditionalGeneration (0.5.22 on), and 0.5.23's Kev checkpoints (a pointer head in head.pt, a torch file,
    under the same refusal)."""
    if not rules["joint_head_checkpoint"] or not target_cfg or \
            target_cfg.get("architectures") != ["Qwen3_5ForConditionalGeneration"] or \
            (target_cfg.get("_checkpoint_files") or {}).get("joint_head_config.json") is None:
        return
    tp, pp = get(args, "tp_size", 1), get(args, "pp_size", 1)
    if tp != 1 or pp != 1:
        raise Refused("JOINT_HEAD_PARALLEL", "Clef checkpoints are served with --tp-size 1 and --pp-size 1, since the "
                      "joint schema head reads full LM head rows (got --tp-size %s, --pp-size %s)." % (tp, pp),
                      "tp_size" if tp != 1 else "pp_size")


@gate("enable_encoder_swa_bounded_replay")
def check_model_capability(args, rules, target_cfg):
    """model_hook.py handle_model_capability_adjustments (0.5.23: trait encoder_replay_needs_v41), after the other
    validations and before check_server_args: the encoder SWA bounded replay is DeepSeek-V4.1's (model_type
    deepseek_v41, whose replay budget is checked there instead: not modelled)."""
    if rules["encoder_replay_needs_v41"] and args.get("enable_encoder_swa_bounded_replay") and target_cfg is not None \
            and target_cfg.get("model_type") != "deepseek_v41":
        raise Refused("ENCODER_REPLAY_MODEL", "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1",
                      "enable_encoder_swa_bounded_replay")


# -- quant (session 15) --
# The model overrides that read the checkpoint's quantization or refuse a setting for the architecture (0.5.23
# srt/arg_groups/model_overrides/kimi_k3.py, minimax_m3.py, nemotron_h.py, qwen3_moe.py, qwen4_exp.py). The release
# trait `model_overrides` names the ones a release runs as modelled here.
MODEL_OVERRIDE_FAMILIES.update({
    "KimiK3ForConditionalGeneration": "kimi_k3",
    "MiniMaxM3SparseForCausalLM": "minimax_m3", "MiniMaxM3SparseForConditionalGeneration": "minimax_m3",
    "NemotronHForCausalLM": "nemotron_h", "NemotronHPuzzleForCausalLM": "nemotron_h",
    "NemotronH_Omni_Reasoning_V3": "nemotron_h",
    "Qwen4ExpForConditionalGeneration": "qwen4_exp",
    # qwen3_moe.py _qwen3_moe_family_overrides (Qwen4-Exp runs it too, before its own: the imports' order)
    "Qwen3MoeForCausalLM": "qwen3_moe", "Qwen3VLMoeForConditionalGeneration": "qwen3_moe",
    "Qwen3NextForCausalLM": "qwen3_moe", "Qwen3_5MoeForConditionalGeneration": "qwen3_moe",
    "InternS2PreviewForConditionalGeneration": "qwen3_moe", "Qwen3_5ForConditionalGeneration": "qwen3_moe",
})
_QUANT_FAMILIES = ("kimi_k3", "minimax_m3", "nemotron_h", "qwen4_exp", "qwen3_moe")
_MODELOPT = ("modelopt", "modelopt_fp8", "modelopt_fp4", "modelopt_mixed")
_RAGGED_VERIFY_MODES = ("static", "cap-accept", "compact")  # speculative/ragged_verify.py RaggedVerifyMode


def _sm(platform):
    """The GPU's SM when the host is known to have one, else None (get_platform() answers unknown on the rest)."""
    return platform.get("sm") if platform.get("gpus_known") else None


def _checkpoint_quant(args, target_cfg):
    """(quantization as the override resolves it, the checkpoint's quant_method): --quantization, else the
    checkpoint's quantization_config quant_method (utils/common.py get_quantization_config) unless --quantization
    unquant opted out (serving_hook.py _quantization_explicitly_unset)."""
    qc = target_cfg.get("quantization_config")
    method = qc.get("quant_method") if isinstance(qc, dict) else None
    quant = args.get("quantization")
    if quant == "unquant":
        return None, method
    return (quant if quant is not None else method), method


def _expert_quant_algos(target_cfg, upper):
    """quant_algo of the ModelOpt MIXED_PRECISION layers that are experts (quantization_config.quantized_layers)."""
    qc = target_cfg.get("quantization_config")
    layers = qc.get("quantized_layers") if isinstance(qc, dict) else None
    if not isinstance(layers, dict):
        return set()
    return {(str(info.get("quant_algo", "")).upper() if upper else info.get("quant_algo"))
            for name, info in layers.items() if (".experts" if upper else ".experts.") in name and isinstance(info, dict)}


def check_quant_families(family, args, rules, platform, target_cfg, env, asked):
    """One of _QUANT_FAMILIES' override providers (0.5.23): its refusals in its order, then what it declares that the
    engine's later rules read ({field: value})."""
    sm = _sm(platform)
    no_gpu = bool(platform.get("no_gpu"))
    out = {}
    if family == "qwen3_moe" or (family == "qwen4_exp" and "qwen3_moe" in rules["model_overrides"]):
        if sm in (100, 103):  # qwen3_moe.py: W4A16_NVFP4 experts take marlin (or the opted-in CuTe DSL path)
            quant = _checkpoint_quant(args, target_cfg)[0]
            runner = get(args, "moe_runner_backend", "auto")
            if quant == "modelopt_mixed" and "W4A16_NVFP4" in _expert_quant_algos(target_cfg, True) and \
                    runner not in ("auto", "marlin") and not (
                        runner == "flashinfer_cutedsl" and get(args, "moe_a2a_backend", "none") in ("none", "flashinfer")
                        and truthy_env(env, "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16")):
                raise _override("W4A16_NVFP4 MoE layers require --moe-runner-backend=marlin, or flashinfer_cutedsl with "
                                "--moe-a2a-backend=none/flashinfer and SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16=1.",
                                "moe_runner_backend")
        if family == "qwen3_moe":
            return out
    if family == "qwen4_exp":  # qwen4_exp.py _qwen4_exp_overrides
        if get(args, "disaggregation_mode", "null") != "null" and \
                args.get("disaggregation_transfer_backend") == "mori" and get(args, "pp_size", 1) > 1:
            raise _override("Qwen4-Exp PD with MORI requires --pp-size 1; MORI does not yet exchange the global QSA "
                            "layer metadata needed to pair compact state descriptors across pipeline stages.", "pp_size")
        if args.get("enable_unified_memory"):
            raise _override("Qwen4-Exp does not support --enable-unified-memory yet", "enable_unified_memory")
        profile = text_cfg(target_cfg).get("indexer_n_heads") is not None  # qsa/config.py parse_qsa_profile
        if args.get("qsa_indexer_dtype") == "fp8_e4m3":
            if (sm is not None or no_gpu) and sm not in (90, 100, 103):
                raise _override("--qsa-indexer-dtype fp8_e4m3 requires a CUDA SM90/SM100 GPU", "qsa_indexer_dtype")
            if not profile:
                raise _override("--qsa-indexer-dtype fp8_e4m3 requires the compressed QSA indexer",
                                "qsa_indexer_dtype")
        if profile:
            out["page_size"] = 64  # compressed QSA's page-aligned slots
        return out
    if family == "kimi_k3":
        return _kimi_k3(args, rules, env, no_gpu, asked, sm)
    if family == "minimax_m3":
        return _minimax_m3(args, platform, target_cfg, env, asked)
    return _nemotron_h(args, rules, target_cfg)


def _kimi_k3(args, rules, env, no_gpu, asked, sm):
    """kimi_k3.py _kimi_k3_overrides under decode context parallelism (--dcp-size > 1); the decode backends it takes
    are the release's (trait kimi_dcp_decode_backends). Without DCP, on SM100/SM103: trtllm_mla for both phases when
    no attention backend is given (the same in every release with the file)."""
    if get(args, "dcp_size", 1) <= 1:
        if sm in (100, 103) and asked is None and args.get("prefill_attention_backend") is None and \
                args.get("decode_attention_backend") is None:
            return {"prefill_attention_backend": "trtllm_mla", "decode_attention_backend": "trtllm_mla"}
        return {}
    if args.get("speculative_algorithm") == "DSPARK":
        mode = (env or {}).get("SGLANG_RAGGED_VERIFY_MODE", "static")
        if mode not in _RAGGED_VERIFY_MODES:
            raise Refused("RAGGED_VERIFY_MODE", "invalid SGLANG_RAGGED_VERIFY_MODE=%r; expected one of %s"
                          % (mode, ", ".join(repr(m) for m in _RAGGED_VERIFY_MODES)), "speculative_algorithm")
        if mode != "static":
            raise _override("Kimi-K3 DCP + DSPARK currently requires SGLANG_RAGGED_VERIFY_MODE=static; compact/cap-accept "
                            "are not validated under DCP (got %r)." % mode, "speculative_algorithm")
    decode = args.get("decode_attention_backend") or asked  # model_override_base.py attention_backends_of
    allowed = rules["kimi_dcp_decode_backends"]
    if decode == "tokenspeed_mla" and decode not in allowed:
        decode = "cutedsl_mla"  # where the family dropped it, tokenspeed_mla is an alias of cutedsl_mla (serving_hook.py)
    if decode in ("cutedsl_mla", None):
        if no_gpu:
            # _require_kimi_k3_cutedsl_dcp_support imports FlashInfer's MLA decode: a host without a GPU (the CPU
            # builds) has no FlashInfer
            raise _override("Kimi-K3 DCP with decode_attention_backend='cutedsl_mla' requires FlashInfer 0.6.17 or "
                            "newer with trtllm_batch_decode_with_kv_cache_mla exposing enable_dcp.",
                            "decode_attention_backend")
        return {"prefill_attention_backend": "trtllm_mla", "decode_attention_backend": "cutedsl_mla"}
    if decode == "tokenspeed_mla":  # it takes both phases and an fp8_e4m3 KV cache
        return {"prefill_attention_backend": "tokenspeed_mla", "decode_attention_backend": "tokenspeed_mla",
                "kv_cache_dtype": "fp8_e4m3"}
    if decode == "aiter" and decode in allowed:
        # aiter_mla_gluon.py _gluon_fn: aiter (ROCm) is not importable on the CUDA and CPU hosts the engine models
        raise _override("Kimi-K3 DCP with decode_attention_backend='aiter' requires the aiter gluon mla kernel, which "
                        "is unavailable. See above aborting reasons.", "decode_attention_backend")
    names = ["'%s'" % b for b in allowed]
    raise _override("Decode attention backend for Kimi-K3 DCP must be %s or %s, got %r." % (
        ", ".join(names[:-1]), names[-1], decode), "decode_attention_backend")


def _minimax_m3(args, platform, target_cfg, env, asked):
    """minimax_m3.py _minimax_m3_overrides: the NVFP4 packed-expert checkpoint (mxfp8 projections whose MoE fields name
    NVFP4, _resolve_quant_method) served as minimax_m3_nvfp4."""
    quant = _checkpoint_quant(args, target_cfg)[0]
    if quant == "mxfp8" and args.get("quantization") is None:
        qc = target_cfg["quantization_config"]
        if str(qc.get("moe_quant_algo", "")).upper() == "NVFP4" and qc.get("moe_quant_format") == "nvfp4-pack-quantized":
            quant = "minimax_m3_nvfp4"
    if quant != "minimax_m3_nvfp4":
        return {}
    sm = _sm(platform)
    known = sm is not None or bool(platform.get("no_gpu"))
    blackwell = sm is not None and sm >= 100
    algo = args.get("speculative_algorithm")
    out = {"quantization": quant}
    if algo not in (None, "DSPARK", "DFLASH"):
        raise _override("M3.1 NVFP4 only supports DSPARK or DFLASH speculation", "speculative_algorithm")
    if algo is not None:
        arch = target_cfg["architectures"][0]
        if arch != "MiniMaxM3SparseForConditionalGeneration":
            raise _override("M3.1 NVFP4 %s requires MiniMaxM3SparseForConditionalGeneration, got %s" % (algo, arch),
                            "speculative_algorithm")
        if known and not blackwell:
            raise _override("M3.1 NVFP4 %s requires Blackwell" % algo, "speculative_algorithm")
        if (env or {}).get("SGLANG_RAGGED_VERIFY_MODE", "static") != "static":
            raise _override("M3.1 NVFP4 %s requires SGLANG_RAGGED_VERIFY_MODE=static" % algo, "speculative_algorithm")
        if get(args, "pp_size", 1) != 1:
            raise _override("M3.1 NVFP4 %s requires PP=1" % algo, "pp_size")
        if algo == "DFLASH" and get(args, "disaggregation_mode", "null") != "null":
            raise _override("M3.1 NVFP4 DFLASH currently requires colocated serving", "disaggregation_mode")
    if args.get("page_size") not in (None, 128):
        raise _override("M3.1 NVFP4 requires --page-size 128", "page_size")
    unset = asked is None and args.get("prefill_attention_backend") is None and \
        args.get("decode_attention_backend") is None
    if not known:
        return out  # the platform's branch is not known
    if not blackwell:
        out["page_size"] = 128
        if get(args, "moe_runner_backend", "auto") == "auto":
            out["moe_runner_backend"] = "marlin"
        if unset:
            out["attention_backend"] = "fa3"
        return out
    a2a = get(args, "moe_a2a_backend", "none")
    if args.get("moe_runner_backend") == "flashinfer_trtllm_routed":
        if a2a not in ("none", "megamoe"):
            raise _override("M3.1 NVFP4 flashinfer_trtllm_routed requires --moe-a2a-backend none or megamoe",
                            "moe_a2a_backend")
    else:
        if a2a not in ("none", "megamoe"):
            raise _override("M3.1 NVFP4 requires --moe-a2a-backend megamoe", "moe_a2a_backend")
        out["moe_a2a_backend"] = "megamoe"
        if get(args, "moe_runner_backend", "auto") == "auto":
            out["moe_runner_backend"] = "deep_gemm"
    out["page_size"] = 128
    kv = get(args, "kv_cache_dtype", "auto")
    if kv == "auto":
        out["kv_cache_dtype"] = "fp8_e4m3"
    elif kv != "fp8_e4m3":
        raise _override("M3.1 NVFP4 requires --kv-cache-dtype fp8_e4m3", "kv_cache_dtype")
    if unset:
        out["attention_backend"] = "trtllm_mha"
    return out


def _nemotron_h_relu2(args, target_cfg, language):
    """A ModelOpt checkpoint of Nemotron-H asserts the relu2 MLP activation of its language config (an
    AssertionError otherwise): the first check of its override, every release. Returns the quantization as the override
    resolves it."""
    quant = _checkpoint_quant(args, target_cfg)[0]
    if quant in _MODELOPT and language.get("mlp_hidden_act") != "relu2":
        raise _override("Nemotron-H with ModelOpt quantization (%s) needs mlp_hidden_act relu2 in the target's "
                        "config (SGLang asserts it); got %r." % (quant, language.get("mlp_hidden_act")), "quantization")
    return quant


def _nemotron_h(args, rules, target_cfg):
    """nemotron_h.py _nemotron_h_overrides: a ModelOpt checkpoint's relu2 MLP, the expert-remap checks
    (_validate_expert_remap, trait nemotron_expert_remap), W4A16_NVFP4 experts."""
    arch = target_cfg["architectures"][0]
    if arch == "NemotronH_Omni_Reasoning_V3" and not rules["nemotron_h_omni"]:
        return {}
    # the language config's MLP activation (the Omni model's text config)
    quant = _nemotron_h_relu2(args, target_cfg, text_cfg(target_cfg) if arch == "NemotronH_Omni_Reasoning_V3" else
                              target_cfg)
    modelopt = quant in _MODELOPT
    if modelopt:
        if quant == "modelopt":
            algo = (target_cfg.get("quantization_config") or {}).get("quant_algo")
            quant = "modelopt_mixed" if algo == "MIXED_PRECISION" else "modelopt_fp4" if algo == "NVFP4" else \
                "modelopt_fp8"
    if rules["nemotron_expert_remap"] and (args.get("enable_eplb") or get(args, "ep_num_redundant_experts", 0) > 0 or
                                           get(args, "init_expert_location", "trivial") != "trivial"):
        runner = get(args, "moe_runner_backend", "auto")
        if runner == "flashinfer_trtllm":
            raise _override("flashinfer_trtllm routes inside the kernel and does not support EPLB or redundant "
                            "experts on Nemotron-H; use --moe-runner-backend flashinfer_trtllm_routed.",
                            "moe_runner_backend")
        if args.get("enable_eplb") and runner == "flashinfer_cutedsl" and get(args, "moe_a2a_backend", "none") == "none":
            raise _override("flashinfer_cutedsl without an a2a backend does not migrate its expert scales on EPLB "
                            "rebalance; use --moe-runner-backend flashinfer_trtllm_routed or set --moe-a2a-backend.",
                            "moe_runner_backend")
        if arch == "NemotronHPuzzleForCausalLM":
            counts = sorted({b["n_routed_experts"] for b in target_cfg.get("block_configs") or ()
                             if b.get("block_type") == "moe"})
            if len(counts) > 1:
                raise _override("EPLB and redundant experts need the same routed expert count on every MoE layer, got "
                                "%s." % counts, "enable_eplb")
    _nemotron_h_w4a16(args, quant, target_cfg)
    return {}


def _nemotron_h_w4a16(args, quant, target_cfg):
    """_nemotron_h_overrides after its relu2 assert (0.5.18's arg_groups/overrides.py, then nemotron_h.py): a ModelOpt
    MIXED_PRECISION checkpoint with W4A16_NVFP4 expert layers takes no a2a backend and the marlin runner (or auto)."""
    if quant == "modelopt":
        algo = (target_cfg.get("quantization_config") or {}).get("quant_algo")
        quant = "modelopt_mixed" if algo == "MIXED_PRECISION" else None
    if quant == "modelopt_mixed" and "W4A16_NVFP4" in _expert_quant_algos(target_cfg, False):
        if get(args, "moe_a2a_backend", "none") != "none":
            raise _override("W4A16_NVFP4 MoE layers require --moe-a2a-backend=none.", "moe_a2a_backend")
        if get(args, "moe_runner_backend", "auto") not in ("auto", "marlin"):
            raise _override("W4A16_NVFP4 MoE layers require --moe-runner-backend=marlin.", "moe_runner_backend")
