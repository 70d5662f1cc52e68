# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""DeepSeek-V4's model hook (0.5.23 srt/arg_groups/deepseek_v4_hook.py; release trait dsv4_hook), for a target whose
first architecture is DeepseekV4ForCausalLM (DeepSeek-V4.1: the same architecture with model_type deepseek_v41).
handle_model_specific_adjustments runs, after the architecture's model overrides, apply_deepseek_v4_defaults (the
KV cache dtype pass of overrides.py _deepseek_v4_kv_cache_dtype, the --dsv4-attn-backend checks, the request cap,
the speculative algorithm), then validate_deepseek_v41_features and validate_deepseek_v4_cp; the capability hook
checks DeepSeek-V4.1's encoder SWA replay budget (validate_deepseek_v41_encoder_replay_budget) last before
check_server_args. SM100/SM103 is read from the GPUs given (SGLang's is_sm100_supported: compute capability 10.x with
CUDA 12.8 or newer); without GPU facts the hardware checks are left to the host. ROCm/NPU branches are not modelled
(the engine predicts CUDA and CPU hosts). 0.5.15-0.5.20 (_OLD_GENS, session 16) run the same hook without the
DeepSeek-V4.1 features (in server_args.py's model-specific adjustments through 0.5.18), with the MegaMoE prefill budget
from 0.5.17; 0.5.12-0.5.14 (session 17) run the hook's first form (KV dtype fp8_e4m3 only and the legacy DSA prefill
CP flags to 0.5.13, a PD server refusing pipeline parallelism in 0.5.12 alone). stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_attention import RAGGED_VERIFY_ENV
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import attn_dp_of, legacy_cp_flags_conflict

DSV4_ARCH = "DeepseekV4ForCausalLM"
DSV4_CP_A2A = ("none", "deepep", "megamoe", "mori")  # validate_deepseek_v4_cp's supported_a2a_backends
_GRAPH_OK = ("disabled", "breakable")  # cuda_graph_config Backend.DISABLED / BREAKABLE
# -- dsv4old (session 16) --: the hook's generations before 0.5.21 (trait dsv4_hook): "v15" 0.5.15 (EAGLE only), "v16"
# (DSPARK too), "v17" (the MegaMoE prefill budget, with SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE, and CP's MoE all-to-all list),
# "v18" (MegaMoE read from --moe-a2a-backend only), "v19" (mori joins CP's list), "v20" (--dsv4-attn-backend trtllm)
# -- oldnon (session 17) --: "v12" 0.5.12 (the NSA-named prefill CP flags, KV fp8_e4m3 only, a PD server refuses
# pp > 1), "v12.post1" (no PD check), "v13" (the DSA-named flags), "v14" (--enable-prefill-cp / --cp-strategy, a bfloat16
# KV cache accepted, the DSA alias its CP turns on, as 0.5.15)
_FIRST_GENS = ("v12", "v12.post1", "v13")
_EAGLE_ONLY_GENS = _FIRST_GENS + ("v14", "v15")
_OLD_GENS = _FIRST_GENS + ("v14", "v15", "v16", "v17", "v18", "v19", "v20")
_MEGA_MOE_ENV = "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK"


def is_dsv4_target(rules, target_cfg):
    return bool(rules["dsv4_hook"]) and target_cfg is not None and \
        (target_cfg.get("architectures") or [None])[0] == DSV4_ARCH


def _sm100(platform):
    """is_sm100_supported as the GPUs given say (None: not given)."""
    if not platform.get("gpus_known"):
        return None
    return (platform.get("sm") or 0) // 10 == 10


def _prefill_graph_backend(args):
    """The prefill phase's CUDA graph backend as given (--disable-prefill-cuda-graph, --cuda-graph-backend-prefill,
    --cuda-graph-config's prefill.backend), or None (SGLang's default, which these checks accept)."""
    if args.get("disable_prefill_cuda_graph"):
        return "disabled"
    if args.get("cuda_graph_backend_prefill") is not None:
        return str(args["cuda_graph_backend_prefill"])
    from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_cuda_graph import _graph_config
    prefill = _graph_config(args).get("prefill") if args.get("cuda_graph_config") is not None else None
    backend = prefill.get("backend") if isinstance(prefill, dict) else None
    return backend if isinstance(backend, str) else None


def _graph_not_ok(args):
    backend = _prefill_graph_backend(args)
    return backend is not None and backend not in _GRAPH_OK


def _attn_cp(args):
    return get(args, "attn_cp_size", 1)


def check_dsv4_hook(args, rules, platform, target_cfg, env):
    """apply_deepseek_v4_defaults, validate_deepseek_v41_features, validate_deepseek_v4_cp, in SGLang's order.
    Returns the settings the hook resolves (kv_cache_dtype, max_running_requests)."""
    v41 = target_cfg.get("model_type") == "deepseek_v41"
    device = str(args.get("device") or "cuda").split(":", 1)[0]
    out = {}
    # overrides.py _deepseek_v4_kv_cache_dtype, at the hook's start
    gen = rules["dsv4_hook"]
    kv = get(args, "kv_cache_dtype", "auto")
    resolved_kv = "fp8_e4m3" if kv == "auto" else kv
    if device == "npu" and gen not in _FIRST_GENS:
        resolved_kv = "bfloat16"
    if resolved_kv not in (("fp8_e4m3",) if gen in _FIRST_GENS else ("fp8_e4m3", "bfloat16")):
        raise Refused("DSV4_KV_DTYPE", "%s is not supported for %s: use --kv-cache-dtype fp8_e4m3 or bfloat16."
                      % (resolved_kv, DSV4_ARCH), "kv_cache_dtype")
    if resolved_kv != kv:
        out["kv_cache_dtype"] = resolved_kv
    sm100 = _sm100(platform)
    backend = get(args, "dsv4_attn_backend", "auto")
    if backend == "flashmla_mega" and not (v41 and device == "cuda" and sm100 is not False):
        raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend flashmla_mega requires DeepSeek-V4.1 on SM100/SM103.",
                      "dsv4_attn_backend")
    if backend == "trtllm":
        if device != "cuda" or sm100 is False:
            raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend trtllm requires an SM100/SM103 (Blackwell) GPU.",
                          "dsv4_attn_backend")
        # SGLang reads the dtype the pass above resolved
        if resolved_kv != "fp8_e4m3":
            raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend trtllm requires kv_cache_dtype=fp8_e4m3, got %s."
                          % resolved_kv, "kv_cache_dtype")
        if args.get("enable_hisparse"):
            raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend trtllm does not support enable_hisparse.",
                          "enable_hisparse")
        if _attn_cp(args) > 1 or get(args, "dcp_size", 1) > 1 or args.get("enable_prefill_cp"):
            raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend trtllm does not support context parallelism "
                          "(prefill CP, attention CP, or decode CP).", "dsv4_attn_backend")
        if get(args, "disaggregation_mode", "null") != "null":
            raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend trtllm does not support PD disaggregation yet.",
                          "disaggregation_mode")
        chunk = args.get("chunked_prefill_size")
        if chunk is not None and chunk <= 0:
            raise Refused("DSV4_ATTN_BACKEND", "--dsv4-attn-backend trtllm requires chunked prefill "
                          "(--chunked-prefill-size > 0).", "chunked_prefill_size")
    if args.get("max_running_requests") is None:
        out["max_running_requests"] = 256
    algo = args.get("speculative_algorithm")  # as given: the speculative hook has not normalised it yet
    if algo is not None:
        if gen in _EAGLE_ONLY_GENS and algo != "EAGLE":  # 0.5.12-0.5.15: EAGLE only (DSPARK joins in 0.5.16)
            raise Refused("DSV4_SPECULATIVE", "Only EAGLE speculative algorithm is supported for %s (got %s)."
                          % (DSV4_ARCH, algo), "speculative_algorithm")
        if algo not in ("EAGLE", "DSPARK"):
            raise Refused("DSV4_SPECULATIVE", "Only EAGLE and DSPARK speculative algorithms are supported for %s "
                          "(got %s)." % (DSV4_ARCH, algo), "speculative_algorithm")
        if algo == "EAGLE" and args.get("speculative_eagle_topk") != 1:
            raise Refused("DSV4_SPECULATIVE", "Only EAGLE speculative algorithm with topk == 1 is supported for %s: "
                          "give --speculative-eagle-topk 1." % DSV4_ARCH, "speculative_eagle_topk")
    if gen == "v12" and get(args, "disaggregation_mode", "null") != "null" and get(args, "pp_size", 1) > 1:
        # -- oldnon (session 17) --: 0.5.12's hook, last in apply_deepseek_v4_defaults
        raise Refused("DSV4_PD_PP", "V4 PD disaggregation requires pp_size=1, got pp_size=%s." % get(args, "pp_size", 1),
                      "pp_size")
    if gen in _FIRST_GENS:  # validate_deepseek_v4_cp, at the end of the model-specific adjustments
        _check_cp_first(args, gen)
        return out
    if gen in _OLD_GENS:  # -- dsv4old (session 16) --: no DeepSeek-V4.1 features before 0.5.21
        _check_cp(args, device, gen)
        _check_mega_moe_budget(args, gen, env)
        if gen in ("v14", "v15", "v16", "v17") and args.get("enable_prefill_cp") and \
                args.get("attention_backend") not in ("dsa", "dsv4"):
            # later, in server_args.py: _handle_legacy_cp_arguments had mapped --enable-prefill-cp to the generic
            # --enable-prefill-context-parallel before the model hook (the attention backend not yet dsv4), the hook
            # turned on the DSA alias without clearing it (0.5.18 clears it), and _handle_context_parallelism refuses
            raise legacy_cp_flags_conflict("enable_prefill_cp", " (SGLang %s's DeepSeek-V4 hook turns on the DSA alias "
                                           "of the prefill CP it was given)" % rules["version"])
        return out
    _check_v41_features(args, gen, platform, env, v41, backend)
    _check_cp(args, device, gen)
    return out


def _check_v41_features(args, gen, platform, env, v41, backend):
    """validate_deepseek_v41_features (ROCm-only entries not modelled). 0.5.22 ("v22") refuses any prefill CUDA graph,
    DP attention, the external cache linker and any PD role for the encoder replay and checks its budget here (chunk
    >= 128); 0.5.23 ("v23") takes a breakable prefill graph and checks the budget in the capability hook. 0.5.21
    ("v21") is 0.5.22's encoder replay with the --enable-dp-attention flag, and refuses trtllm outright, DSpark PD
    beyond Mooncake / DP 1 / CP 1, and the decoder replay with any prefill graph or the attention-DP flag."""
    encoder = args.get("enable_encoder_swa_bounded_replay")
    if not v41:
        if encoder:
            raise Refused("ENCODER_REPLAY_MODEL", "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1",
                          "enable_encoder_swa_bounded_replay")
        return
    graph_not_ok = _graph_not_ok(args)
    v21 = gen == "v21"
    v22 = gen in ("v21", "v22")  # 0.5.22's shape, which 0.5.21 shares but where noted
    graph_on = _prefill_graph_backend(args) not in (None, "disabled") if v22 else graph_not_ok
    dp_flag = bool(args.get("enable_dp_attention"))
    if backend == "trtllm" and graph_on and not v21:
        raise Refused("DSV41_UNSUPPORTED", "DeepSeek-V4.1 TRT-LLM requires --cuda-graph-backend-prefill disabled%s"
                      % ("" if v22 else " or breakable"), "cuda_graph_config")
    mode = get(args, "disaggregation_mode", "null")
    if encoder:
        gpus_known = platform.get("gpus_known")
        if v22:
            incompatible = (
                ("prefill CUDA graphs", "cuda_graph_config", graph_on),
                ("DP attention", "enable_dp_attention", dp_flag if v21 else attn_dp_of(args) > 1),
                ("context parallelism", "attn_cp_size", _attn_cp(args) > 1),
                ("external cache linker", "enable_unified_cache_external_linker",
                 args.get("enable_unified_cache_external_linker")),
                ("unified memory", "enable_unified_memory", args.get("enable_unified_memory")),
                ("PD disaggregation", "disaggregation_mode", mode != "null"))
        else:
            incompatible = (
                ("prefill CUDA graphs other than breakable", "cuda_graph_config", graph_not_ok),
                ("context parallelism", "attn_cp_size", _attn_cp(args) > 1),
                ("unified memory", "enable_unified_memory", args.get("enable_unified_memory")),
                ("PD decode", "disaggregation_mode", mode == "decode"))
        for feature, key, on in (
                (("non-CUDA hardware" if v21 else "hardware other than CUDA or gfx950", "device",
                  gpus_known and platform.get("sm") is None),) +
                incompatible + (
                ("mixed prefill/decode", "enable_mixed_chunk", args.get("enable_mixed_chunk")),
                ("LoRA", "enable_lora", args.get("enable_lora")),
                ("radix sessions", "enable_session_radix_cache", args.get("enable_session_radix_cache")))):
            if on:
                raise Refused("ENCODER_REPLAY_UNSUPPORTED", "--enable-encoder-swa-bounded-replay does not support %s "
                              "yet" % feature, key)
        cap, chunk = args.get("max_running_requests"), args.get("chunked_prefill_size")
        if v22 and ((cap is not None and cap <= 0) or (chunk is not None and (not chunk or chunk < 128))):
            # the budget, here in 0.5.22 (an unset cap is the hook's 256, an unset chunk the memory settings')
            raise Refused("ENCODER_REPLAY_BUDGET", "encoder SWA replay requires explicit --max-running-requests and "
                          "--chunked-prefill-size >= 128", "chunked_prefill_size")
    algo = args.get("speculative_algorithm")
    for feature, key, on in (
            ("speculative decoding other than DSpark", "speculative_algorithm",
             algo is not None and str(algo).upper() != "DSPARK"),
            ("HiSparse", "enable_hisparse", args.get("enable_hisparse")),
            ("the trtllm DSv4 attention backend" if v21 else "TRT-LLM with %sSWA bounded replay"
             % ("" if v22 else "encoder "), "dsv4_attn_backend",
             backend == "trtllm" and (v21 or encoder or (v22 and args.get("enable_decoder_swa_bounded_replay")))),
            ("two-batch overlap", "enable_two_batch_overlap", args.get("enable_two_batch_overlap")),
            ("pipeline parallelism", "pp_size", get(args, "pp_size", 1) > 1)):
        if on:
            raise Refused("DSV41_UNSUPPORTED", "DeepSeek-V4.1 does not support %s yet; disable it to serve this model."
                          % feature, key)
    if mode != "null" and algo is not None and v21:
        if str((env or {}).get(RAGGED_VERIFY_ENV, "static")) != "static" or \
                get(args, "disaggregation_transfer_backend", "mooncake") != "mooncake" or \
                get(args, "dp_size", 1) != 1 or dp_flag or _attn_cp(args) != 1 or get(args, "dcp_size", 1) != 1:
            raise Refused("DSV41_UNSUPPORTED", "DeepSeek-V4.1 DSpark PD requires static verify, Mooncake, DP=1 and CP=1. "
                          "Both servers must enable DSpark with the same block size and TP size.", "disaggregation_mode")
    elif mode != "null" and algo is not None:
        cp = args.get("enable_prefill_cp")
        prefill_cp_ok = mode == "prefill" and cp and args.get("cp_strategy") == "interleave"
        if str((env or {}).get(RAGGED_VERIFY_ENV, "static")) != "static" or \
                get(args, "disaggregation_transfer_backend", "mooncake") not in ("mooncake", "nixl") or \
                ((cp or _attn_cp(args) != 1) and not prefill_cp_ok) or get(args, "dcp_size", 1) != 1:
            raise Refused("DSV41_UNSUPPORTED", "DeepSeek-V4.1 DSpark PD requires static verify, Mooncake or NIXL, DCP=1, "
                          "and CP=1 on decode. Prefill CP requires --enable-prefill-cp with the interleave strategy.",
                          "disaggregation_mode")
    if args.get("enable_decoder_swa_bounded_replay"):
        attn_dp = attn_dp_of(args)
        if v21:
            for feature, on in (("the prefill CUDA graph", graph_on), ("DP attention", dp_flag)):
                if on:
                    raise Refused("DSV41_UNSUPPORTED", "--enable-decoder-swa-bounded-replay cannot be combined with %s "
                                  "yet; disable one of them." % feature, "enable_decoder_swa_bounded_replay")
        for feature, on in (
                ("the prefill CUDA graph", graph_not_ok),
                ("DP attention other than attention TP 1 with supported MoE backends",
                 attn_dp > 1 and not (attn_dp == get(args, "tp_size", 1) and _attn_cp(args) == 1 and
                                      (platform.get("sm") is not None or not platform.get("gpus_known")) and
                                      get(args, "moe_a2a_backend", "none") in ("none", "megamoe")))):
            if on:
                raise Refused("DSV41_UNSUPPORTED", "--enable-decoder-swa-bounded-replay cannot be combined with %s yet; "
                              "disable one of them." % feature, "enable_decoder_swa_bounded_replay")


def _check_cp_first(args, gen):
    """validate_deepseek_v4_cp in 0.5.12-0.5.13 (-- oldnon (session 17) --): the legacy DSA prefill CP flag
    (--enable-nsa-prefill-context-parallel; 0.5.13 --enable-dsa-prefill-context-parallel, the NSA name its alias) takes
    the round-robin-split mode only (the default), then a single data-parallel replica and tp <= 8, on every device."""
    nsa = gen in ("v12", "v12.post1")
    if not args.get("enable_nsa_prefill_context_parallel" if nsa else "enable_dsa_prefill_context_parallel"):
        return
    mode = get(args, "nsa_prefill_cp_mode" if nsa else "dsa_prefill_cp_mode", "round-robin-split")
    if mode != "round-robin-split":
        raise Refused("DSV4_CP", "DeepSeekV4 only supports round-robin-split CP mode, got %s: give --%s-prefill-cp-mode "
                      "round-robin-split." % (mode, "nsa" if nsa else "dsa"), "nsa_prefill_cp_mode" if nsa else
                      "dsa_prefill_cp_mode")
    if get(args, "dp_size", 1) != 1:
        raise Refused("DSV4_CP", "For round-robin split mode, dp attention is not supported (DeepSeek-V4 prefill "
                      "CP with --dp-size %s)." % get(args, "dp_size", 1), "dp_size")
    if get(args, "tp_size", 1) > 8:
        raise Refused("MODEL_OVERRIDE_UNSUPPORTED", "Context parallel only supports single machine (tp_size <= 8). "
                      "Cross-machine CP has precision issues.", "tp_size")


def _check_cp(args, device, gen):
    """validate_deepseek_v4_cp (CUDA: the NPU exemptions are not modelled). Before 0.5.21 (_OLD_GENS) only the
    interleave strategy, a single data-parallel replica and tp <= 8 on every device, and the MoE all-to-all backend
    list from 0.5.17 (mori joins in 0.5.19)."""
    if not args.get("enable_prefill_cp"):
        return
    strategy = args.get("cp_strategy")
    if gen in _OLD_GENS:
        if strategy != "interleave":
            raise Refused("DSV4_CP", "DeepSeekV4 only supports interleave CP strategy, got %s: give --cp-strategy "
                          "interleave." % strategy, "cp_strategy")
        if get(args, "dp_size", 1) != 1:
            raise Refused("DSV4_CP", "For round-robin split mode, dp attention is not supported (DeepSeek-V4 prefill "
                          "CP with --dp-size %s)." % get(args, "dp_size", 1), "dp_size")
        if get(args, "tp_size", 1) > 8:
            raise Refused("MODEL_OVERRIDE_UNSUPPORTED", "Context parallel only supports single machine (tp_size <= 8). "
                          "Cross-machine CP has precision issues.", "tp_size")
        supported = None if gen in ("v14", "v15", "v16") else DSV4_CP_A2A if gen in ("v19", "v20") else DSV4_CP_A2A[:3]
        a2a = get(args, "moe_a2a_backend", "none")
        if supported is not None and a2a not in supported:
            raise Refused("DSV4_CP", "DeepSeekV4 CP supports moe_a2a_backend in %s, got %r." % (supported, a2a),
                          "moe_a2a_backend")
        return
    if strategy not in ("interleave", "zigzag"):
        raise Refused("DSV4_CP", "DeepSeekV4 only supports interleave/zigzag CP strategy, got %s: give --cp-strategy "
                      "interleave." % strategy, "cp_strategy")
    npu = device == "npu"
    if strategy == "zigzag" and not npu:
        raise Refused("DSV4_CP", "DeepSeekV4 zigzag CP requires the NPU backend; CUDA/HIP backends reindex with "
                      "interleave order.", "cp_strategy")
    attn_dp, dp = get(args, "attn_dp_size", 1), get(args, "dp_size", 1)
    if attn_dp > 1 and dp > 1:  # model_override_base.py context_parallel_attn_dp_size
        raise Refused("ATTN_DP_SIZE", "--dp-size %s with --attn-dp-size %s: data-parallel replicas combined with "
                      "attention data parallelism are not supported." % (dp, attn_dp), "dp_size")
    if not npu:
        if attn_dp * dp != 1:
            raise Refused("DSV4_CP", "For round-robin split mode, dp attention is not supported (DeepSeek-V4 prefill "
                          "CP with --dp-size / --attn-dp-size %s)." % (attn_dp * dp), "dp_size")
        if get(args, "tp_size", 1) > 8:
            raise Refused("MODEL_OVERRIDE_UNSUPPORTED", "Context parallel only supports single machine (tp_size <= 8). "
                          "Cross-machine CP has precision issues.", "tp_size")
    a2a = get(args, "moe_a2a_backend", "none")
    if a2a not in DSV4_CP_A2A:
        raise Refused("DSV4_CP", "DeepSeekV4 CP supports moe_a2a_backend in %s, got %r." % (DSV4_CP_A2A, a2a),
                      "moe_a2a_backend")


def _check_mega_moe_budget(args, gen, env):
    """validate_deepseek_v4_mega_moe_token_budget (0.5.17-0.5.20; from 0.5.21 rules_moe.check_a2a_token_budgets holds
    DeepSeek-V4 with the other architectures without a fused-MoE fallback): the chunked prefill size as given (the
    data-parallel hook divides it later), split over the CP ranks (prefill CP), the DP ranks (the --enable-dp-attention
    flag, --dp-size) or none, aligned to the attention TP size, within SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK
    (1024 by default in 0.5.17, 8192 later). An unset size is the GPU memory settings' and left to the host."""
    if gen not in ("v17", "v18", "v19", "v20"):
        return
    from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_moe import _env_int
    from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_pd import _env_on
    mega = get(args, "moe_a2a_backend", "none") == "megamoe" or (gen == "v17" and _env_on(env, "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE"))
    chunk = args.get("chunked_prefill_size")
    if not mega or get(args, "disaggregation_mode", "null") == "decode" or chunk is None or \
            (get(args, "pp_size", 1) > 1 and args.get("enable_dynamic_chunking")):
        return
    if chunk <= 0:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "DeepSeekV4 with MegaMoE requires chunked prefill to be enabled: "
                      "--chunked-prefill-size must be positive (got %s)." % chunk, "chunked_prefill_size")
    tp, dp, cp = get(args, "tp_size", 1), get(args, "dp_size", 1), _attn_cp(args)
    if args.get("enable_prefill_cp"):
        local, align = -(-chunk // tp), 1  # validate_deepseek_v4_cp made attn_cp_size tp_size // dp_size (dp 1)
    elif args.get("enable_dp_attention"):
        local, align = chunk // dp, max(tp // dp // cp, 1)
    else:
        local, align = chunk, max(tp // cp, 1)
    if local <= 0:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "DeepSeekV4 with MegaMoE requires a positive effective per-rank chunked "
                      "prefill size (%s)." % local, "chunked_prefill_size")
    need = -(-local // align) * align
    capacity = _env_int(env, _MEGA_MOE_ENV, 1024 if gen == "v17" else 8192)
    if capacity is not None and need > capacity:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "DeepSeekV4 with MegaMoE requires %s to cover each rank's effective "
                      "prefill token budget (%d tokens per rank, over %d)." % (_MEGA_MOE_ENV, need, capacity),
                      "chunked_prefill_size")


@gate("enable_encoder_swa_bounded_replay", context=("max_running_requests", "chunked_prefill_size", "page_size"))
def check_encoder_replay_budget(args, rules, target_cfg):
    """validate_deepseek_v41_encoder_replay_budget (the capability hook, DeepSeek-V4.1 only): 128 replay rows plus
    one page per chunk. The page is the override's 256 (resolve() declares it over a given --page-size, as SGLang's
    override does); an unset request cap is the hook's 256 by then, an unset chunk size the GPU memory settings'
    positive default."""
    if rules["dsv4_hook"] != "v23" or not args.get("enable_encoder_swa_bounded_replay") or target_cfg is None or \
            target_cfg.get("model_type") != "deepseek_v41":
        return
    min_chunk = 128 + (args.get("page_size") or 256)
    cap, chunk = args.get("max_running_requests"), args.get("chunked_prefill_size")
    if (cap is not None and cap <= 0) or (chunk is not None and (not chunk or chunk < min_chunk)):
        raise Refused("ENCODER_REPLAY_BUDGET", "encoder SWA replay requires --max-running-requests > 0 and at least "
                      "%s chunked prefill tokens per attention DP rank (128 replay tokens plus one page)" % min_chunk,
                      "chunked_prefill_size")
