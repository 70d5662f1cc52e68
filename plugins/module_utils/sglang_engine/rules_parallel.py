# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parallelism checks of SGLang's argument resolution: decode context parallelism (DCP), DWDP, attention DP
sizes, context parallelism (attention CP, MoE DP), EPLB dispatch, elastic EP and shared-experts TP.

Where each sits among the hooks (every release that has the flag; 0.5.23 srt/arg_groups/pipeline.py, through
0.5.18 ServerArgs.__post_init__): DCP and DWDP right after PD disaggregation, before the attention backends
(check_parallel_early); the attention DP sizes at the head of the data-parallel hook, before its
tp % attn_dp assert (check_attn_dp_sizes); context parallelism, the MoE/EPLB dispatch and elastic EP after it,
before the speculative hook (check_parallel_late). Release differences are traits (releases.py). stdlib only.
"""
from __future__ import annotations

import json

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, is_int
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_legacy import elastic_ep_rejoin


def _is_cuda(platform):
    """SGLang's get_platform().is_cuda as the engine knows it: True / False, or None (GPUs not given)."""
    if not platform.get("gpus_known"):
        return None
    return platform.get("sm") is not None


@gate("dcp_size", "dcp_comm_backend", "dcp_replicate_q_proj", "dwdp_size",
      context=("enable_prefill_cp", "tp_size", "pp_size", "disaggregation_mode", "enable_eplb", "speculative_algorithm",
               "enable_two_batch_overlap"))
def check_parallel_early(args, rules, platform):
    """DCP validation then DWDP (0.5.23 parallel_hook.py handle_decode_context_parallelism, handle_dwdp)."""
    dcp = get(args, "dcp_size", 1)
    if dcp < 1:
        raise Refused("DCP_SIZE", "Decode context parallel size (--dcp-size) must be >= 1, got %s." % dcp, "dcp_size")
    cuda = _is_cuda(platform)
    if rules["dcp_hip_only"] and dcp > 1 and cuda is not None:
        # 0.5.15-0.5.16: DCP validated on HIP only; on CUDA without speculation
        if not cuda:
            raise Refused("DCP_PLATFORM", "Decode context parallel (--dcp-size > 1) is only supported on the AMD HIP "
                          "platform in SGLang %s." % rules["version"], "dcp_size")
        if args.get("speculative_algorithm") is not None:
            raise Refused("DCP_PLATFORM", "Decode context parallel (--dcp-size > 1) on CUDA does not support "
                          "speculative decoding in SGLang %s." % rules["version"], "dcp_size")
    if rules["dcp_refuses_prefill_cp"] and dcp > 1 and args.get("enable_prefill_cp"):
        raise Refused("DCP_PREFILL_CP", "--dcp-size > 1 does not support --enable-prefill-cp.", "dcp_size")
    backend = args.get("dcp_comm_backend")
    if backend in ("a2a", "fi_a2a") and dcp <= 1:
        raise Refused("DCP_COMM_BACKEND", "--dcp-comm-backend %s requires --dcp-size > 1 (it only affects the decode "
                      "context-parallel attention reduction)." % backend, "dcp_comm_backend")
    if backend == "fi_a2a" and cuda is False:
        raise Refused("DCP_COMM_BACKEND", "--dcp-comm-backend fi_a2a needs FlashInfer's MNNVL All-to-All kernel on "
                      "CUDA; this host has no CUDA GPU. Use a2a or ag_rs.", "dcp_comm_backend")
    if args.get("dcp_replicate_q_proj"):
        if dcp <= 1:
            raise Refused("DCP_REPLICATE_Q_PROJ", "--dcp-replicate-q-proj requires --dcp-size > 1.",
                          "dcp_replicate_q_proj")
        if backend is None:
            if not rules["dcp_comm_backend_by_platform"]:
                backend = "ag_rs"  # the field's default through 0.5.19
            elif cuda is not None:
                backend = "a2a" if cuda else "ag_rs"  # a2a or fi_a2a on CUDA: both take it
        if backend is not None and backend not in ("a2a", "fi_a2a"):
            raise Refused("DCP_REPLICATE_Q_PROJ", "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP "
                          "communication backend; got --dcp-comm-backend=%s." % backend, "dcp_replicate_q_proj")
    dwdp = get(args, "dwdp_size", 1)
    if dwdp > 1:
        tp = get(args, "tp_size", 1)
        why = None
        if dwdp != tp:
            why = "dwdp_size (%s) must equal tp_size (%s)" % (dwdp, tp)
        elif get(args, "disaggregation_mode", "null") not in ("null", "prefill"):
            why = "DWDP requires --disaggregation-mode null or prefill"
        elif args.get("enable_eplb"):
            why = "EPLB dynamic migration conflicts with static DWDP partitioning"
        elif args.get("speculative_algorithm") is not None:
            why = "DWDP does not support speculative decoding (MTP/draft workers)"
        elif get(args, "pp_size", 1) != 1:
            why = "DWDP requires pp_size == 1"
        elif args.get("enable_two_batch_overlap"):
            why = "DWDP's prefetch event protocol does not support two-batch overlap"
        if why:
            raise Refused("DWDP", "%s (--dwdp-size %s)." % (why, dwdp), "dwdp_size")


@gate("attn_dp_size", context=("dp_size",))
def check_attn_dp_sizes(args):
    """The head of the data-parallel hook (0.5.22 on, where --attn-dp-size exists)."""
    attn_dp = args["attn_dp_size"]
    if attn_dp < 1:
        raise Refused("ATTN_DP_SIZE", "--attn-dp-size must be positive (got %s)." % attn_dp, "attn_dp_size")
    if attn_dp > 1 and get(args, "dp_size", 1) > 1:
        raise Refused("ATTN_DP_SIZE", "--dp-size %s with --attn-dp-size %s: data-parallel replicas combined with "
                      "attention data parallelism are not supported." % (args["dp_size"], attn_dp), "dp_size")


def attn_dp_of(args):
    """The attention-DP width: --attn-dp-size, else --dp-size under --enable-dp-attention (0.5.23 turns the deprecated
    spelling into --attn-dp-size before any hook reads it), else 1."""
    attn_dp = get(args, "attn_dp_size", 1)
    if attn_dp == 1 and args.get("enable_dp_attention"):
        attn_dp = get(args, "dp_size", 1)
    return attn_dp


def legacy_cp_flags_conflict(key, why=""):
    """server_args.py _handle_context_parallelism (0.5.13-0.5.19, trait cp_legacy_flags_exclusive): the generic and the
    DSA (NSA) legacy prefill CP flags together are refused. Given by hand, or (0.5.15-0.5.17) set both by the
    DeepSeek-V4 hook (rules_dsv4.py). The one Refused for this SGLang check."""
    return Refused("CP_STRATEGY", "--enable-prefill-context-parallel and --enable-nsa-prefill-context-parallel are "
                   "mutually exclusive%s." % why, key)


def prefill_cp_on(args, cp_flags):
    """Prefill context parallelism as __post_init__'s checks read it, trait dsa_prefill_cp_flags: None
    (0.5.11-0.5.13.post1: no alias normalisation, --enable-prefill-context-parallel is its own field, which the checks
    that name it read),
    "legacy_aliases" (0.5.14-0.5.19 _handle_legacy_cp_arguments, before the first validator: it or
    --enable-dsa-prefill-context-parallel / its NSA alias turn --enable-prefill-cp on) or "cp" (0.5.20 on: the flag
    alone)."""
    if cp_flags is None:
        return bool(args.get("enable_prefill_context_parallel"))
    return bool(args.get("enable_prefill_cp") or cp_flags == "legacy_aliases" and (
        args.get("enable_prefill_context_parallel") or args.get("enable_dsa_prefill_context_parallel")))


def attn_dp_enabled(args, rules):
    """Attention DP as the release's hooks read it. With trait attn_dp_resolved (0.5.22 on):
    runtime_context.attn_dp_enabled_of, a resolved width above 1 or an Elastic EP scale joiner (whose own group can be
    one rank wide). Before: the --enable-dp-attention flag, which the data-parallel defaults drop at --dp-size 1 (0.5.16
    on: unless the server is a scale joiner; server_args.py _handle_data_parallelism, overrides.py
    _data_parallelism_defaults)."""
    joiner = args.get("ep_join_mode") == "scale"
    if rules["attn_dp_resolved"]:
        return attn_dp_of(args) > 1 or joiner
    return bool(args.get("enable_dp_attention")) and (get(args, "dp_size", 1) != 1 or joiner)


@gate("enable_dp_lm_head", "enable_tp_lm_head_all_to_all",
      context=("dp_size", "attn_dp_size", "enable_dp_attention", "ep_join_mode", "tp_size", "attn_cp_size"))
def check_lm_head_dp(args, rules):
    """The end of the data-parallel hook (every release; trait lm_head_dp_checks): the data-parallel defaults drop
    --enable-dp-lm-head without data-parallel ranks (0.5.16 on: not for an Elastic EP scale joiner), then the DP LM
    head needs attention DP (server_args.py _handle_data_parallelism through 0.5.14, then overrides.py
    _dp_lm_head_validation). From 0.5.18 ("tp_all_to_all") an explicit --enable-tp-lm-head-all-to-all needs attention
    DP, no DP LM head, a TP size equal to the attention-DP width and no attention CP (its default is on only where all
    of these hold). Attention DP and its width are read as attn_dp_enabled / attn_dp_of do: through 0.5.21 the
    --enable-dp-attention flag (dropped with --dp-size 1) and --dp-size; from 0.5.22 (trait attn_dp_resolved) the
    resolved attention-DP size, and replicas times attention-DP groups count as DP ranks."""
    joiner = args.get("ep_join_mode") == "scale"
    attn_dp_on = attn_dp_enabled(args, rules)
    if rules["attn_dp_resolved"]:
        width = attn_dp_of(args)
        replicas = 1 if args.get("enable_dp_attention") else get(args, "dp_size", 1)  # num_dp_ranks_of
        ranks = replicas * width
        need, label = "requires attention DP (--attn-dp-size)", "attn_dp_size"
    else:
        ranks = width = get(args, "dp_size", 1)
        need, label = "needs dp attention (Please enable dp attention: --enable-dp-attention)", "dp_size"
    dp_lm_head = bool(args.get("enable_dp_lm_head")) and (ranks != 1 or joiner)
    if dp_lm_head and not attn_dp_on:
        raise Refused("LM_HEAD_DP", "--enable-dp-lm-head %s: add it or drop the DP LM head." % need, "enable_dp_lm_head")
    if rules["lm_head_dp_checks"] != "tp_all_to_all" or not args.get("enable_tp_lm_head_all_to_all"):
        return
    if not attn_dp_on:
        raise Refused("LM_HEAD_DP", "--enable-tp-lm-head-all-to-all %s." % need, "enable_tp_lm_head_all_to_all")
    if dp_lm_head:
        raise Refused("LM_HEAD_DP", "--enable-tp-lm-head-all-to-all uses a TP-sharded LM head and is incompatible with "
                      "--enable-dp-lm-head: drop one of them.", "enable_tp_lm_head_all_to_all")
    tp = get(args, "tp_size", 1)
    if tp != width:
        raise Refused("LM_HEAD_DP", "--enable-tp-lm-head-all-to-all currently requires tp_size == %s, got tp_size=%s, "
                      "%s=%s." % (label, tp, label, width), "enable_tp_lm_head_all_to_all")
    cp = get(args, "attn_cp_size", 1)
    if cp != 1:
        raise Refused("LM_HEAD_DP", "--enable-tp-lm-head-all-to-all currently requires attn_cp_size == 1, got %s." % cp,
                      "enable_tp_lm_head_all_to_all")


def check_attn_dp_width(args, rules, tp_size):
    """The data-parallel hook's attention-DP width checks (handle_data_parallelism, every release): the width is
    positive (0.5.22 on, the deprecated spelling included), and divides --tp-size (a width of 0 divides by zero there
    before 0.5.22: ZeroDivisionError on the same assert; --dp-size 1 drops the flag first)."""
    dp = attn_dp_of(args)
    if rules["attn_dp_resolved"]:
        if dp < 1:
            raise Refused("ATTN_DP_SIZE", "--attn-dp-size must be positive (got %s)." % dp,
                          "attn_dp_size" if "attn_dp_size" in args else "dp_size")
    elif dp == 1 or not args.get("enable_dp_attention"):
        return
    if rules["dp_attention_tp_divisible"] and dp != 1 and (dp == 0 or tp_size % dp):
        # attention DP splits the TP ranks
        raise Refused("DP_ATTENTION_TP", "--enable-dp-attention with --dp-size %s needs --tp-size divisible by it "
                      "(got --tp-size %s); SGLang asserts tp_size %% attn_dp_size == 0." % (dp, tp_size), "tp_size")


@gate("enable_prefill_cp", "attn_cp_size", "moe_dp_size", "enable_prefill_context_parallel",
      context=("cp_strategy", "tp_size", "dp_size", "attn_dp_size", "enable_dp_attention", "pp_size", "ep_size",
               "enable_aiter_allreduce_fusion", "enable_deterministic_inference", "rl_on_policy_target",
               "speculative_algorithm", "speculative_draft_model_path", "model_path", "speculative_eagle_topk",
               "disaggregation_mode", "enable_dsa_cache_layer_split", "dcp_size", "enable_mixed_chunk",
               "moe_a2a_backend", "enable_waterfill", "disaggregation_transfer_backend", "language_only",
               "language_model_only", "enable_dsa_prefill_context_parallel"))
def check_context_parallel(args, r, rules, target_cfg=None, env=None):
    """Context parallelism (0.5.23 parallel_hook.py handle_context_parallelism; through 0.5.18 the ServerArgs
    method): after the data-parallel hook, before the MoE kernel checks (rules_moe.py)."""
    tp, pp = r["tp_size"], r["pp_size"]
    if target_cfg is not None:
        _check_cp_model(args, rules, target_cfg, env)
    if args.get("enable_prefill_cp") and args.get("cp_strategy") is None:
        raise Refused("CP_STRATEGY", "--cp-strategy must be set when --enable-prefill-cp is enabled.", "cp_strategy")
    if rules["cp_legacy_flags_exclusive"] and args.get("enable_prefill_context_parallel") and \
            args.get("enable_dsa_prefill_context_parallel"):  # -- dsa (session 16) --: the legacy flags (0.5.13-0.5.19)
        raise legacy_cp_flags_conflict("enable_prefill_context_parallel")
    cp = get(args, "attn_cp_size", 1)
    if cp > 1:
        # the attention DP width in the divisor: --attn-dp-size from 0.5.22, --dp-size before (replicas or not)
        dp = attn_dp_of(args) if rules["cp_divisor_attn_dp"] else r["dp_size"]
        if tp % cp:
            raise Refused("CP_TOPOLOGY", "tp_size must be divisible by attn_cp_size (--tp-size %s, --attn-cp-size %s)."
                          % (tp, cp), "attn_cp_size")
        if tp % (dp * cp):
            raise Refused("CP_TOPOLOGY", "tp_size must be divisible by %s * attn_cp_size (--tp-size %s, %s, "
                          "--attn-cp-size %s)." % ("attn_dp_size" if rules["cp_divisor_attn_dp"] else "dp_size", tp,
                                                   dp, cp), "attn_cp_size")
        _check_aiter_fusion(args)
    moe_dp = get(args, "moe_dp_size", 1)
    ep = get(args, "ep_size", 1)
    if moe_dp > 1:
        why = None
        if tp % moe_dp:
            why = "tp_size must be divisible by moe_dp_size"
        elif ep * moe_dp > tp:
            why = "ep_size * moe_dp_size must be less than or equal to tp_size"
        elif pp != 1:
            why = "PP is not supported with context parallelism"
        elif ep > 1 and ep * moe_dp != tp:
            why = "ep_size * moe_dp_size must be equal to tp_size"
        if why:
            raise Refused("CP_TOPOLOGY", "%s (--tp-size %s, --ep-size %s, --moe-dp-size %s, --pp-size %s)."
                          % (why, tp, ep, moe_dp, pp), "moe_dp_size")
        _check_aiter_fusion(args)
    if cp != moe_dp and moe_dp != 1:
        raise Refused("CP_TOPOLOGY", "attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1 "
                      "(--attn-cp-size %s, --moe-dp-size %s)." % (cp, moe_dp), "moe_dp_size")


def _check_cp_model(args, rules, target_cfg, env):
    """The model checks at the head of the context-parallel hook, from the target's config: the boundary parallelism
    modes (trait cp_boundary_models, 0.5.21 on: Nemotron-H takes no attention CP, LongCat-Flash no prefill CP with
    it), DeepSeek V3.2's strategy (trait cp_dsv32_interleave, 0.5.20 on), MiMo V2's (trait cp_mimo_zigzag: "env"
    while SGLANG_ENABLE_CP_V2, on by default for it, gates the check (0.5.16-0.5.19), True after): zigzag, then text
    only for a multimodal MiMoV2ForCausalLM."""
    arch = (target_cfg.get("architectures") or [None])[0]
    text = target_cfg.get("text_config") if isinstance(target_cfg.get("text_config"), dict) else target_cfg
    model_type = text.get("model_type") or target_cfg.get("model_type")
    cp = get(args, "attn_cp_size", 1)
    prefill_cp = args.get("enable_prefill_cp")
    if rules["cp_boundary_models"]:
        if model_type in ("nemotron_h", "nemotron_h_puzzle") and cp > 1:
            raise Refused("CP_MODEL", "Nemotron-H does not support --attn-cp-size > 1.", "attn_cp_size")
        if model_type == "longcat_flash" and prefill_cp and cp > 1:
            raise Refused("CP_MODEL", "LongCat-Flash does not support --enable-prefill-cp with --attn-cp-size > 1.",
                          "enable_prefill_cp")
    if rules["cp_dsv32_interleave"] and prefill_cp and arch == "DeepseekV32ForCausalLM" and \
            args.get("cp_strategy") == "zigzag":
        raise Refused("CP_MODEL", "DeepSeek V3.2 prefill CP does not support --cp-strategy zigzag; use interleave.",
                      "cp_strategy")
    mimo = rules["cp_mimo_zigzag"]
    if mimo == "env" and str((env or {}).get("SGLANG_ENABLE_CP_V2", "1")).strip().lower() in ("0", "false", "no", "off", ""):
        mimo = False
    if mimo and prefill_cp and arch in ("MiMoV2ForCausalLM", "MiMoV2FlashForCausalLM") and \
            args.get("cp_strategy") != "zigzag":
        raise Refused("CP_MODEL", "MiMo V2 prefill CP only supports --cp-strategy zigzag.", "cp_strategy")
    if mimo and prefill_cp and arch == "MiMoV2ForCausalLM" and "vision_config" in target_cfg and \
            "audio_config" in target_cfg and not args.get("language_only") and not args.get("language_model_only"):
        # -- moe (session 16) --: then text only (0.5.16 on, the same block): model_config.is_multimodal, which a
        # MiMoV2ForCausalLM config has with both vision_config and audio_config (configs/model_config.py
        # MIMO_V2_MULTIMODAL_ARCHS) unless --language-model-only makes it language-model only
        raise Refused("CP_MODEL", "MiMo V2 prefill CP only supports text inference; add --language-only.",
                      "enable_prefill_cp")
    if rules["cp_tp_sharing"] and prefill_cp and cp > 1 and arch in _CP_TP_SHARING_ARCHS[rules["cp_tp_sharing"]]:
        _check_cp_tp_sharing(args, target_cfg, text, arch, cp, env, rules["cp_tp_sharing"])


# the architectures whose model code shares the CP group with TP, per version of the hook (trait cp_tp_sharing)
_CP_TP_SHARING_ARCHS = {"v22": ("Glm5NextForConditionalGeneration",),
                        "v23": ("Glm5NextForConditionalGeneration", "Qwen4ExpForConditionalGeneration")}


def _check_cp_tp_sharing(args, target_cfg, text, arch, cp, env, how="v23"):
    """CP-TP group sharing, prefill CP whose CP group is the TP group (trait cp_tp_sharing:
    srt/arg_groups/cp_tp_group_sharing_hook.py resolve_cp_tp_group_sharing, inside the context-parallel hook after
    the model checks). 0.5.22 ("v22"): GLM-5.3-Flash only, speculation only as native MTP (no DFLASH), and any PD
    disaggregation refused; 0.5.23 ("v23") adds Qwen4-Exp, DFLASH and GLM's PD prefill path."""
    def refuse(msg, field):
        raise Refused("CP_TP_SHARING", "CP-TP group sharing (%s with --enable-prefill-cp): %s" % (arch, msg), field)
    tp = get(args, "tp_size", 1)
    glm = arch == "Glm5NextForConditionalGeneration"
    if glm and "kv_lora_rank" in text:
        # -- new19 (session 17) --: GLM-5.3-Flash is of the DeepSeek family, whose model override (before this hook:
        # model_overrides/deepseek_v2.py) sets the CP width under prefill CP to the TP size over the attention-DP
        # width (an explicit interleave width kept for a DSA target only)
        attn_dp = get(args, "attn_dp_size", 1) * get(args, "dp_size", 1)
        if not ("index_topk" in text and args.get("cp_strategy") == "interleave") and is_int(attn_dp) and attn_dp > 0:
            cp = tp // attn_dp
    if cp != tp:
        refuse("it requires --attn-cp-size == --tp-size (got %s and %s)." % (cp, tp), "attn_cp_size")
    strategy = "interleave" if glm else "zigzag"
    if args.get("cp_strategy") != strategy:
        refuse("it requires --cp-strategy %s." % strategy, "cp_strategy")
    algo = args.get("speculative_algorithm")
    if how == "v22":  # -- new19 (session 17) --
        if algo is not None and (algo.upper() not in ("EAGLE", "NEXTN") or args.get("speculative_draft_model_path")
                                 not in (None, args.get("model_path")) or args.get("speculative_eagle_topk") not in (None, 1)):
            refuse("it only supports native MTP with top-k 1.", "speculative_algorithm")
        for flag, on in (("enable-dsa-cache-layer-split", args.get("enable_dsa_cache_layer_split")),
                         ("dcp-size > 1", get(args, "dcp_size", 1) > 1), ("enable-mixed-chunk", args.get("enable_mixed_chunk")),
                         ("moe-dp-size > 1", get(args, "moe_dp_size", 1) > 1),
                         ("disaggregation-mode", get(args, "disaggregation_mode", "null") != "null")):
            if on:
                refuse("--%s is not supported." % flag, None)
        _check_cp_tp_heads(text, tp, refuse)
        return
    if algo is not None:
        if not glm:
            refuse("--speculative-algorithm is not supported.", "speculative_algorithm")
        if algo != "DFLASH" and (algo.upper() not in ("EAGLE", "NEXTN") or args.get("speculative_draft_model_path")
                                 not in (None, args.get("model_path")) or args.get("speculative_eagle_topk") not in (None, 1)):
            refuse("it only supports DFLASH or native MTP with top-k 1.", "speculative_algorithm")
    mode = get(args, "disaggregation_mode", "null")
    dp = 1 if args.get("enable_dp_attention") else get(args, "dp_size", 1)  # the deprecated spelling moved it away
    unsupported = [("enable-dsa-cache-layer-split", args.get("enable_dsa_cache_layer_split")),
                   ("dcp-size > 1", get(args, "dcp_size", 1) > 1), ("enable-mixed-chunk", args.get("enable_mixed_chunk")),
                   ("moe-dp-size > 1", get(args, "moe_dp_size", 1) > 1)]
    if not glm:
        unsupported += [("ep-size > 1", get(args, "ep_size", 1) > 1),
                        ("moe-a2a-backend", get(args, "moe_a2a_backend", "none") != "none"),
                        ("enable-waterfill", args.get("enable_waterfill")), ("pp-size > 1", get(args, "pp_size", 1) > 1),
                        ("disaggregation-mode decode", mode == "decode")]
    elif mode != "null":
        unsupported += [("disaggregation-mode decode", mode == "decode"),
                        ("disaggregation-transfer-backend != mooncake",
                         get(args, "disaggregation_transfer_backend", "mooncake") != "mooncake"),
                        ("speculative-algorithm != DFLASH", algo != "DFLASH"), ("pp-size > 1", get(args, "pp_size", 1) > 1),
                        ("dp-size > 1", dp > 1), ("ep-size > 1", get(args, "ep_size", 1) > 1)]
    for flag, on in unsupported:
        if on:
            refuse("--%s is not supported." % flag, None)
    if mode == "prefill" and str((env or {}).get("SGLANG_DISAGG_STAGING_BUFFER", "")).strip().lower() in (
            "1", "true", "yes", "on"):
        refuse("SGLANG_DISAGG_STAGING_BUFFER is not supported.", None)
    _check_cp_tp_heads(text, tp, refuse)


def _check_cp_tp_heads(text, tp, refuse):
    """CP-TP group sharing's last check: the linear attention keeps its TP head partition."""
    if text.get("linear_num_key_heads") is not None:
        heads = (("linear_num_key_heads", text.get("linear_num_key_heads")),
                 ("linear_num_value_heads", text.get("linear_num_value_heads")))
    else:
        heads = (("num_heads", (text.get("linear_attn_config") or {}).get("num_heads")),)
    for name, count in heads:
        if isinstance(count, int) and count % tp:
            refuse("%s=%s must be divisible by --tp-size=%s." % (name, count, tp), "tp_size")


def _check_aiter_fusion(args):
    """--enable-aiter-allreduce-fusion with attention CP or MoE DP (every release); the deterministic-inference hook
    (before it) turns the fusion off (--enable-deterministic-inference, or --rl-on-policy-target which enables it)."""
    if args.get("enable_aiter_allreduce_fusion") and not (
            args.get("enable_deterministic_inference") or args.get("rl_on_policy_target") is not None):
        raise Refused("CP_AITER_FUSION", "Aiter allreduce fusion is not supported with context parallelism "
                      "(--attn-cp-size / --moe-dp-size > 1): drop --enable-aiter-allreduce-fusion.",
                      "enable_aiter_allreduce_fusion")


EPLB_BALANCEDNESS_ENV = "SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC"  # refused in the environment (0.5.18-0.5.20)


@gate("ep_dispatch_algorithm", "enable_eplb", "ep_join_mode", "ep_join_rank_offset", "max_ep_size",
      "elastic_ep_initial_size", "elastic_ep_backend", "shared_experts_tp_size", "elastic_ep_rejoin",
      context=("tp_size", "attn_cp_size", "attn_dp_size", "dp_size", "enable_dp_attention", "pp_size", "ep_size",
               "moe_a2a_backend", "eplb_algorithm", "node_rank",
               # the elastic EP scale-up checks (_check_elastic_scaling)
               "moe_dense_tp_size", "elastic_ep_scale_timeout", "tokenizer_worker_num", "use_ray",
               "enable_elastic_expert_backup", "load_balance_method", "disaggregation_mode", "dcp_size",
               "disable_cuda_graph", "disable_decode_cuda_graph", "disable_prefill_cuda_graph",
               "cuda_graph_backend_decode", "cuda_graph_backend_prefill", "device", "speculative_algorithm",
               "is_embedding", "dllm_algorithm", "encoder_only", "forward_hooks", "enable_pdmux", "enable_dp_lm_head",
               "moe_dp_size", "enable_waterfill", "deepep_mode", "enable_mis", "debug_tensor_dump_output_folder",
               "msprobe_dump_config"))
def check_expert_parallel(args, r, rules, target_cfg, env=None):
    """Shared-experts TP, EPLB dispatch and elastic EP, in SGLang's order after the MoE kernel and a2a hooks
    (0.5.23 parallel_hook.py handle_shared_experts_tp, handle_eplb_and_dispatch, handle_elastic_ep; through 0.5.18
    the same ServerArgs methods)."""
    tp, pp = r["tp_size"], r["pp_size"]
    cp = get(args, "attn_cp_size", 1)
    ep = get(args, "ep_size", 1)
    shared = args.get("shared_experts_tp_size")
    if shared is not None:
        # 0.5.21 on (the flag's first release)
        attn_tp = tp // max(cp * attn_dp_of(args), 1)
        if shared < 1 or attn_tp % shared:
            raise Refused("SHARED_EXPERTS_TP", "--shared-experts-tp-size (%s) must be a positive divisor of the "
                          "attention TP size (%s)." % (shared, attn_tp), "shared_experts_tp_size")
        arch = ((target_cfg or {}).get("architectures") or [None])[0]
        if target_cfg is not None and arch != "KimiK3ForConditionalGeneration":
            raise Refused("SHARED_EXPERTS_TP", "--shared-experts-tp-size is only supported for Kimi-K3 (target "
                          "architecture %s)." % arch, "shared_experts_tp_size")
        if target_cfg is not None and get(args, "moe_a2a_backend", "none") not in (
                "deepep", "megamoe", "mooncake", "ascend_fuseep", "mori"):
            raise Refused("SHARED_EXPERTS_TP", "--shared-experts-tp-size requires an expert-parallel all-to-all "
                          "backend (deepep, megamoe, mooncake, ascend_fuseep or mori).", "moe_a2a_backend")
    dispatch = args.get("ep_dispatch_algorithm")
    if rules["ep_dispatch_rank_invariant"] and dispatch in ("static", "lp") and \
            get(args, "moe_a2a_backend", "none") == "none":
        raise Refused("EP_DISPATCH_ALGORITHM", "--ep-dispatch-algorithm %s picks a different physical replica per "
                      "rank, which needs an a2a backend: use --ep-dispatch-algorithm dynamic with --moe-a2a-backend "
                      "none." % dispatch, "ep_dispatch_algorithm")
    join = args.get("ep_join_mode")
    if args.get("enable_eplb") and join != "scale" and ep <= 1:
        raise Refused("EPLB_EP_SIZE", "--enable-eplb needs expert parallelism: --ep-size > 1 (SGLang asserts "
                      "ep_size > 1).", "enable_eplb")
    # -- cache (session 16) --: handle_expert_distribution_metrics, between the EPLB and elastic EP hooks: the old
    # env switch, set to anything (trait eplb_balancedness_env_refused, 0.5.18-0.5.20)
    if rules["eplb_balancedness_env_refused"] and env and EPLB_BALANCEDNESS_ENV in env:
        raise Refused("EPLB_BALANCEDNESS_ENV", "%s is no longer supported. Use --expert-balancedness-report-mode with "
                      "one of: off, server_log, prometheus, both." % EPLB_BALANCEDNESS_ENV, "env")
    rejoin = rules["elastic_ep_rejoin"] if args.get("elastic_ep_rejoin") else None  # -- old-a (session 15) --
    if rejoin == "recover":  # at the hook's head (0.5.16-0.5.20)
        join = elastic_ep_rejoin(args, rejoin, None, join)
    backend = args.get("elastic_ep_backend")
    if backend is not None:  # "none" too: SGLang tests `is not None` (observed in 0.5.12, 0.5.17, 0.5.23)
        if args.get("enable_eplb") and get(args, "eplb_algorithm", "auto") not in (
                "auto", "elasticity_aware", "elasticity_aware_hierarchical"):
            raise Refused("ELASTIC_EP", "Elastic EP requires --eplb-algorithm auto or elasticity_aware(_hierarchical).",
                          "eplb_algorithm")
        if pp != 1:
            raise Refused("ELASTIC_EP", "PP size should be set to 1 under elastic EP (--pp-size %s)." % pp, "pp_size")
        has_backend = True
    else:
        has_backend = False
    if rejoin == "assert":  # after the backend checks (0.5.11-0.5.15.post1)
        elastic_ep_rejoin(args, rejoin, has_backend, join)
    if join is not None:
        if not has_backend:
            raise Refused("ELASTIC_EP", "--elastic-ep-join-mode requires --elastic-ep-backend to be set.",
                          "elastic_ep_backend")
        if join == "scale":
            if get(args, "node_rank", 0) != 1:
                raise Refused("ELASTIC_EP", "Elastic EP scale-up requires one joining TP group at --node-rank 1 "
                              "(got %s)." % get(args, "node_rank", 0), "node_rank")
            if get(args, "ep_join_rank_offset", 0) <= 0:
                raise Refused("ELASTIC_EP", "Elastic EP scale joiners require --elastic-ep-join-rank-offset set to "
                              "the current effective EP size.", "ep_join_rank_offset")
    offset = get(args, "ep_join_rank_offset", 0)
    if offset != 0:
        if join != "scale":
            raise Refused("ELASTIC_EP", "--elastic-ep-join-rank-offset is only valid with --elastic-ep-join-mode "
                          "scale.", "ep_join_rank_offset")
        if offset < 0:
            raise Refused("ELASTIC_EP", "elastic EP join rank offset must be >= 0.", "ep_join_rank_offset")
    max_ep = args.get("max_ep_size")
    if max_ep is not None:
        if not has_backend:
            raise Refused("ELASTIC_EP", "--max-ep-size requires --elastic-ep-backend to be set.", "elastic_ep_backend")
        if max_ep <= 0:
            raise Refused("ELASTIC_EP", "--max-ep-size must be a positive integer.", "max_ep_size")
    scaling = has_backend and max_ep is not None and max_ep > tp
    if args.get("elastic_ep_initial_size") is not None and not scaling:
        raise Refused("ELASTIC_EP", "--elastic-ep-initial-size is only valid for an Elastic EP deployment with "
                      "--max-ep-size larger than its local TP size.", "elastic_ep_initial_size")
    if scaling and rules["elastic_scale"]:
        _check_elastic_scaling(args, r, rules["elastic_scale"], tp, pp, cp, ep, join, offset, max_ep)


def _graph_backends(args, r):
    """(decode, prefill) CUDA graph backends as SGLang has resolved them by the elastic EP hook: the legacy switches,
    the per-phase flags (they win), the PD role, torch_native / flex_attention, XPU's opt-in decode graph, DeepEP
    normal mode, multi-item scoring and the dump modes. The prefill default is breakable only where torch sees CUDA
    (default_prefill_backend): disabled on a host without one, as the engine assumes here (on a CUDA host every
    scale-up that passes the other checks takes --moe-a2a-backend nixl, which disables it: an unvalidated a2a backend)."""
    decode = prefill = None
    if args.get("disable_cuda_graph"):
        decode = prefill = "disabled"
    if args.get("disable_prefill_cuda_graph"):
        prefill = "disabled"
    if args.get("disable_decode_cuda_graph"):
        decode = "disabled"
    decode = args.get("cuda_graph_backend_decode") or decode
    prefill = args.get("cuda_graph_backend_prefill") or prefill
    decode_locked, prefill_locked = decode is not None, prefill is not None
    decode, prefill = decode or "full", prefill or "disabled"
    mode = get(args, "disaggregation_mode", "null")
    if mode == "prefill" and not decode_locked:
        decode = "disabled"
    elif mode == "decode" and not prefill_locked:
        prefill = "disabled"
    if r.get("attention_backend") in ("torch_native", "flex_attention"):
        decode = prefill = "disabled"
    device = str(r.get("device") or "cuda").split(":", maxsplit=1)[0]
    if device == "xpu" and (not decode_locked or decode not in ("disabled", "full")):
        decode = "disabled"
    a2a = get(args, "moe_a2a_backend", "none")
    if args.get("enable_waterfill") and a2a not in ("deepep", "megamoe"):
        a2a = "deepep"
    if a2a == "deepep" and get(args, "deepep_mode", "auto") == "normal":
        decode = "disabled"
    if args.get("enable_mis"):
        decode = "disabled"
    if args.get("debug_tensor_dump_output_folder") is not None or args.get("msprobe_dump_config") is not None:
        decode = prefill = "disabled"
    return decode, prefill, a2a, device


def _check_elastic_scaling(args, r, how, tp, pp, cp, ep, join, offset, max_ep):
    """Elastic EP runtime scale-up (--max-ep-size above the TP size), 0.5.16 on: trait elastic_scale, "v16"
    (0.5.16-0.5.20: both CUDA graphs disabled, --enable-dp-attention, dp_size == tp_size), "v21" (decode graph full
    or disabled, the recapture checks), "v22" (attention DP by --attn-dp-size, attn_dp_size == tp_size), "v23" (the
    attention topology, --moe-dense-tp-size and --dcp-size checks; the last equality gone). Every refusal is
    ELASTIC_EP (0.5.23 parallel_hook.py handle_elastic_ep, the scaling_active block)."""
    def refuse(msg, field):
        raise Refused("ELASTIC_EP", "Elastic EP scale-up (--max-ep-size %s above --tp-size %s): %s" % (max_ep, tp, msg),
                      field)
    attn_dp = attn_dp_of(args)
    initial = args.get("elastic_ep_initial_size")
    attn_tp = None
    if how == "v23":
        if tp <= 0 or attn_dp <= 0 or cp <= 0 or tp % (attn_dp * cp):
            refuse("invalid attention topology (tp_size=%s, attn_dp_size=%s, attn_cp_size=%s)." % (tp, attn_dp, cp),
                   "attn_cp_size")
        attn_tp = tp // attn_dp // cp
        replica = attn_tp * cp
        sizes = [("max_ep_size", max_ep), ("elastic_ep_initial_size", initial or tp)]
        if join == "scale":
            sizes.append(("ep_join_rank_offset", offset))
        for field, size in sizes:
            if size <= 0 or size % replica:
                refuse("EP size %s must be divisible by the attention replica size %s." % (size, replica), field)
        if attn_tp > 1 and args.get("moe_dense_tp_size") != 1:
            refuse("attention TP greater than one requires --moe-dense-tp-size 1.", "moe_dense_tp_size")
    if get(args, "elastic_ep_scale_timeout", 600) <= 0:
        refuse("--elastic-ep-scale-timeout must be greater than zero.", "elastic_ep_scale_timeout")
    if get(args, "tokenizer_worker_num", 1) != 1:
        refuse("it requires --tokenizer-worker-num 1.", "tokenizer_worker_num")
    if args.get("use_ray"):
        refuse("it does not support --use-ray.", "use_ray")
    if args.get("enable_elastic_expert_backup"):
        refuse("it does not support --enable-elastic-expert-backup.", "enable_elastic_expert_backup")
    if join == "scale":
        if initial is None:
            refuse("scale joiners require --elastic-ep-initial-size (the primary's launch-time EP size).",
                   "elastic_ep_initial_size")
        if initial > offset:
            refuse("--elastic-ep-initial-size %s cannot exceed the current EP size %s." % (initial, offset),
                   "elastic_ep_initial_size")
        if offset + tp > max_ep:
            refuse("the joining group exceeds --max-ep-size (join target %s)." % (offset + tp), "max_ep_size")
        if tp == 1 and args.get("moe_dense_tp_size") != 1:
            refuse("a single-rank joining group requires --moe-dense-tp-size 1.", "moe_dense_tp_size")
    else:
        initial = tp if initial is None else initial
        if initial != tp:
            refuse("the primary --elastic-ep-initial-size must equal its launch-time TP size (%s)." % tp,
                   "elastic_ep_initial_size")
    if initial <= 0:
        refuse("--elastic-ep-initial-size must be positive.", "elastic_ep_initial_size")
    method = get(args, "load_balance_method", "auto")
    if method == "auto":
        method = "follow_bootstrap_room" if get(args, "disaggregation_mode", "null") == "prefill" else "round_robin"
    if method != "round_robin":
        refuse("it requires --load-balance-method round_robin (got %s)." % method, "load_balance_method")
    if args.get("elastic_ep_backend") != "mooncake":
        refuse("it requires --elastic-ep-backend mooncake.", "elastic_ep_backend")
    if pp != 1:
        refuse("it requires --pp-size 1.", "pp_size")
    if how == "v23" and attn_tp % get(args, "dcp_size", 1):
        refuse("--dcp-size must divide the attention TP width %s." % attn_tp, "dcp_size")
    decode, prefill, a2a, device = _graph_backends(args, r)
    if how == "v16":
        if decode != "disabled" or prefill != "disabled":
            refuse("it requires decode and prefill CUDA graphs to be disabled.", "disable_cuda_graph")
    else:
        if decode not in ("disabled", "full"):
            refuse("the decode CUDA graph backend must be full or disabled (got %s)." % decode,
                   "cuda_graph_backend_decode")
        if prefill != "disabled":
            refuse("it requires the prefill CUDA graph to be disabled.", "cuda_graph_backend_prefill")
        if decode == "full":
            why = None
            if device != "cuda":
                why = "CUDA graph recapture requires CUDA (got device=%s)." % device
            elif args.get("speculative_algorithm") is not None:
                why = "CUDA graph recapture does not support speculative decoding."
            else:
                for key, what in (("is_embedding", "embedding models"), ("dllm_algorithm", "diffusion models"),
                                  ("encoder_only", "encoder-only models"), ("forward_hooks", "forward hooks"),
                                  ("enable_pdmux", "PDMux")):
                    if args.get(key):
                        why = "CUDA graph recapture does not support %s." % what
                        break
            if why:
                refuse(why + " Disable the decode CUDA graph or drop it.", "cuda_graph_backend_decode")
    if how in ("v16", "v21"):
        if not (args.get("enable_dp_attention") or attn_dp > 1):
            refuse("it requires --enable-dp-attention.", "enable_dp_attention")
    elif not (attn_dp > 1 or join == "scale"):
        refuse("it requires attention DP (--attn-dp-size).", "attn_dp_size")
    if not args.get("enable_dp_lm_head"):
        refuse("it requires --enable-dp-lm-head.", "enable_dp_lm_head")
    if cp != 1:
        refuse("it requires --attn-cp-size 1.", "attn_cp_size")
    if get(args, "moe_dp_size", 1) != 1:
        refuse("it requires --moe-dp-size 1.", "moe_dp_size")
    if ep != tp:
        refuse("it requires ep_size == tp_size (got ep_size=%s)." % ep, "ep_size")
    if how in ("v16", "v21") and get(args, "dp_size", 1) != tp:
        refuse("it requires dp_size == tp_size.", "dp_size")
    if how == "v22" and attn_dp != tp:
        refuse("it requires attn_dp_size == tp_size.", "attn_dp_size")
    if a2a != "nixl":
        refuse("it requires --moe-a2a-backend nixl (got %s)." % a2a, "moe_a2a_backend")


@gate("load_format", context=("tp_size", "dp_size", "attn_dp_size", "enable_dp_attention", "ep_size",
                              "enforce_shared_experts_fusion", "enable_waterfill", "cuda_graph_backend_decode",
                              "cuda_graph_backend_prefill", "model_loader_extra_config", "model_path"))
def check_expert_pack(args, rules, env, target_cfg):
    """--load-format expert_pack (0.5.19 on: srt/arg_groups/expert_pack_hook.py handle_expert_pack, right before the
    PD hook): SGLang gathers every error it finds and raises them together. The engine gives the ones it can judge
    from the flags, the env and the target's config (not the files' existence: the host's). Trait expert_pack: "v19",
    or "v23" (--attn-dp-size must be 1 too)."""
    how = rules["expert_pack"]
    if not how or args.get("load_format") != "expert_pack":
        return
    errors = []
    dp, attn_dp = get(args, "dp_size", 1), get(args, "attn_dp_size", 1)
    if how == "v23" and attn_dp == 1 and args.get("enable_dp_attention"):
        dp, attn_dp = 1, dp  # the deprecated spelling, turned into --attn-dp-size first
    sizes = [("tensor", "--tp-size", get(args, "tp_size", 1)), ("data", "--dp-size", dp)]
    if how == "v23":
        sizes.append(("attention data", "--attn-dp-size", attn_dp))
    sizes.append(("expert", "--ep-size", get(args, "ep_size", 1)))
    for label, option, size in sizes:
        if size != 1:
            errors.append("%s parallelism (%s) must be 1, got %s" % (label, option, size))
    if args.get("enforce_shared_experts_fusion"):
        errors.append("--enforce-shared-experts-fusion is incompatible with expert_pack")
    if args.get("enable_waterfill"):
        errors.append("--enable-waterfill is incompatible with expert_pack")
    for phase, backend in (("decode", args.get("cuda_graph_backend_decode")),
                           ("prefill", args.get("cuda_graph_backend_prefill"))):
        if backend not in (None, "disabled"):
            errors.append("expert_pack requires the %s CUDA graph backend to be disabled, got %r" % (phase, backend))
    loader = args.get("model_loader_extra_config") or {}
    if isinstance(loader, str):
        try:
            loader = json.loads(loader)
        except ValueError:
            errors.append("--model-loader-extra-config must be valid JSON")
            loader = {}
    if not isinstance(loader, dict):
        errors.append("--model-loader-extra-config must be a JSON object")
        loader = {}
    gguf = str(args.get("model_path") or "").lower().endswith(".gguf")  # a raw GGUF input is prepared from its file
    if not gguf and not loader.get("pack_path") and not (env or {}).get("SGLANG_EXPERT_PACK_PATH"):
        errors.append("pack_path is required in --model-loader-extra-config or SGLANG_EXPERT_PACK_PATH")
    model_type = (target_cfg or {}).get("model_type")
    if not gguf and target_cfg is not None and model_type not in ("deepseek_v4", "kimi_linear"):
        errors.append("model_type must be 'deepseek_v4' or the text-only Kimi-K3 'kimi_linear' config, got %r"
                      % model_type)
    if errors:
        raise Refused("EXPERT_PACK", "Invalid expert_pack configuration: %s." % "; ".join(errors), "load_format")
