# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resolution: what SGLang's own argument resolution of a release does to the arguments (refusals,
rewrites, defaults), read from the release table; and requested-vs-resolved overrides. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import dflash_cfg, hybrid_kind, infer_block_size, text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import rules_cache as KV
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_cache import (
    check_cache_compatibility, check_early_cache_flags)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_mamba import (
    check_int8_mamba_checkpoint, check_mamba_backend_flags, check_mamba_flashinfer, check_mamba_radix_cache,
    check_mamba_radix_cache_legacy)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_attention import (
    check_dual_chunk, check_gdn_replayssm_spec_ring, check_linear_attn_backend, check_mla_backends, check_multi_item_scoring,
    resolve_tokenspeed_alias)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_layernorm_sp import check_layernorm_sp
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_pd import (
    check_encoder_disaggregation, check_pd_host_receive, check_pd_prefill_complete, check_pd_roles)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import (
    LONG_CONTEXT_ENV, RESOLVED_KEYS, SPEC_TO_SGLANG, Refused, gate, get, is_int, truthy_env)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import rules_serving as SV
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import rules_speculative as S
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import rules_validation as V
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import rules_lora as L
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import rules_legacy as LG
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import (
    attn_dp_enabled, attn_dp_of, check_attn_dp_sizes, check_attn_dp_width, check_context_parallel,
    EPLB_BALANCEDNESS_ENV, check_expert_pack, check_expert_parallel, check_lm_head_dp, check_parallel_early)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_kv_shard import check_kv_cache_sharding
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_cuda_graph import (
    check_cuda_graph_settings, check_prefill_graph_max_context)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_hisparse import check_hisparse
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_dsv4 import (
    check_dsv4_hook, check_encoder_replay_budget, is_dsv4_target)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_model import (
    check_dllm_model, check_joint_head_checkpoint, check_language_model_only, check_mamba_state,
    check_mimo_v2_fused_qkv, check_mimo_v2_hicache, check_model_capability, check_model_overrides, check_model_specific,
    check_nemotron_h_branch, check_weight_cache, dsa_page_size, model_override_family)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_moe import (
    CUTLASS_MOE_ENV, check_a2a_moe, check_a2a_token_budgets, check_deepep_v2_late, check_megamoe_compat, check_moe_kernel,
    resolved_runner)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_platform import (
    check_deterministic_attention, sm100_default_attention)


def resolve(args, env, rel, draft_cfg, target_cfg, platform, result, tree_flavor):
    """Emulate release `rel`'s argument resolution for the speculative settings. Raises Refused."""
    rules = rel
    version = rel["version"]
    r = dict(zip(RESOLVED_KEYS, map(args.get, RESOLVED_KEYS)))  # device among them, as given
    if r["tp_size"] is None:
        r["tp_size"] = 1
    if r["dp_size"] is None:
        r["dp_size"] = 1
    if r["pp_size"] is None:
        r["pp_size"] = 1
    r["disable_overlap_schedule"] = bool(r["disable_overlap_schedule"])
    r["enable_mixed_chunk"] = bool(r["enable_mixed_chunk"])
    result.resolved = r
    for dest in rules["retired_flag_errors"]:
        if dest in args:  # a retired flag's argparse action (DeprecatedAction with an error message)
            raise Refused("PARSE_RETIRED_FLAG", "--%s is no longer supported in SGLang %s: drop it (see its help for "
                          "the replacement)." % (dest.replace("_", "-"), version), dest)
    if not L.check_lora_paths_action.keys.isdisjoint(args):
        L.check_lora_paths_action(args)  # --lora-paths' argparse action, at parsing (every release)
    if rules["fuseep_mode_env_at_parse"] and "SGLANG_NPU_FUSED_MOE_MODE" in env:
        LG.check_fuseep_mode_env(result.argv, env)  # -- gpu16 (session 17) --: prepare_server_args, after the parse
    if rules["mps_runtime_check"] and str(args.get("device") or "").partition(":")[0] == "mps":
        # -- engfix (session 15) --: resolve_once, before the pipeline (0.5.22 on): validate_mps_runtime needs an
        # available PyTorch MPS device, which a Linux host (every host this collection deploys to) never has
        raise Refused("MPS_RUNTIME", "SGLang %s refuses --device mps on a host without a PyTorch MPS device (Apple "
                      "silicon, Torch >= 2.13): use --device cuda on a GPU host." % version, "device")
    if not check_megamoe_compat.keys.isdisjoint(args):
        check_megamoe_compat(args, rules, platform)  # the pipeline's first hook after the DP spelling (0.5.21 on)
    if not V.load_watermark_config.keys.isdisjoint(args):
        V.load_watermark_config(args)  # handle_watermark_config, before the early validations (0.5.22 on)
    # the resolution pipeline's first validations, before the SSL pairing (0.5.19 on, where their flags exist)
    if not V.check_early.keys.isdisjoint(args) or V.SAMPLING_MASK_ENV in env:
        V.check_early(args, env, rules)
    if not V.check_aux_hidden_state_capture.keys.isdisjoint(args) and V.check_aux_hidden_state_capture(args):
        # the algorithm only names the capture convention: SGLang resets it before any other hook reads it
        r["speculative_algorithm"] = None
        args = dict(args, speculative_algorithm=None)
    if not check_early_cache_flags.keys.isdisjoint(args):
        check_early_cache_flags(args)  # before the SSL check (0.5.20 on, where the flags are)
    if not SV.check_multimodal.keys.isdisjoint(args):
        SV.check_multimodal(args)  # handle_multimodal, right before the SSL hook
    if not _check_ssl.keys.isdisjoint(args):
        _check_ssl(args)  # before the model config is read (every release validates SSL early)
    if not SV.check_serving.keys.isdisjoint(args) or (env and SV.GRPC_ENV in env):
        SV.check_serving(args, env, rules)  # the rest of the SSL hook, the ASR hook, handle_deprecated_args' gRPC checks
    if not resolve_tokenspeed_alias.keys.isdisjoint(args):
        args = resolve_tokenspeed_alias(args, rules, r, result)  # handle_deprecated_args' alias (-- overrides (session 15) --)
    if rules["context_check_at_resolution"] and target_cfg is not None:
        # the model config is read before the other hooks: a context longer than the target's is refused here
        tgt_max = text_cfg(target_cfg).get("max_position_embeddings")
        want = args.get("context_length")
        if want is not None and is_int(tgt_max) and want > tgt_max and not truthy_env(env, LONG_CONTEXT_ENV):
            raise Refused("CONTEXT_TOO_LONG", "context_length %s exceeds the target's max_position_embeddings %s. "
                          "Lower context_length or set env %s=1." % (want, tgt_max, LONG_CONTEXT_ENV), "context_length")
    if not check_expert_pack.keys.isdisjoint(args):
        check_expert_pack(args, rules, env, target_cfg)  # --load-format expert_pack, right before the PD hook
    if not check_pd_prefill_complete.keys.isdisjoint(args):
        check_pd_prefill_complete(args, env)  # the PD hook's first check (0.5.22 on, where the policy is)
    if not check_pd_host_receive.keys.isdisjoint(args):
        check_pd_host_receive(args)  # the PD hook, after the SSL check
    if not check_pd_roles.keys.isdisjoint(args):
        check_pd_roles(args, rules, env)  # the rest of the PD hook
    if r["attention_backend"] is None and str(r["device"] or "").split(":", maxsplit=1)[0] == "cpu" and \
            rules["cpu_default_attention"]:
        r["attention_backend"] = rules["cpu_default_attention"]  # the CPU backends hook, before the ones below
    asked_attention = r["attention_backend"]  # -- model (session 14) --: before the GPU default fills it
    deterministic = not check_deterministic_attention.keys.isdisjoint(args)
    if deterministic and rules["deterministic_before_attention"]:
        # the deterministic-inference hook, right before the attention one (0.5.12 on): it may fill the backend
        check_deterministic_attention(args, rules, r, platform, target_cfg, result)
    if r["attention_backend"] is None:
        if platform.get("sm") == 100:
            r["attention_backend"] = sm100_default_attention(args, rules, target_cfg)
        else:
            r["attention_backend"] = platform.get("default_attention_backend")
    if r["attention_backend"] == "fa3" and args.get("kv_cache_dtype") == "fp8_e5m2":
        # FlashAttention 3 takes fp8_e4m3 only: SGLang warns and switches to triton before the draft backend is
        # chosen (every release 0.5.11-0.5.23; 0.5.23 srt/arg_groups/overrides.py _attention_backend_fa3_fp8_fallback)
        result.warn("SGLANG_OVERRIDE", "FlashAttention3 supports only fp8_e4m3 KV cache among the FP8 types: SGLang "
                    "sets attention_backend to triton for kv_cache_dtype fp8_e5m2.")
        r["attention_backend"] = "triton"
    prefill = r["prefill_attention_backend"] or r["attention_backend"]
    decode = args.get("decode_attention_backend") or r["attention_backend"]
    sm = platform.get("sm")
    if rules["pd_decode_radix_first"]:
        # these releases check PD decode + radix cache in __post_init__ before the attention backends
        raw = args.get("speculative_algorithm")
        if not _check_pd_decode_radix.keys.isdisjoint(args):
            _check_pd_decode_radix(args, rules, raw.upper() if raw and not rules["algorithm_case_sensitive"] else raw,
                                   version)
    if not KV.check_prefill_only_flags.keys.isdisjoint(args):
        KV.check_prefill_only_flags(args, rules)  # right after the PD hook (0.5.23 pipeline: before DCP)
    if not check_parallel_early.keys.isdisjoint(args):
        check_parallel_early(args, rules, platform)  # DCP, DWDP: after PD disaggregation, before the attention hook
    if not check_cuda_graph_settings.keys.isdisjoint(args):
        check_cuda_graph_settings(args, rules)  # the CUDA graph hook, then the memory settings' CPU graph (after DWDP)
    if not check_model_specific.keys.isdisjoint(args):
        check_model_specific(args, rules, target_cfg)  # the model-specific adjustments, before the attention hook
    mamba_strategy = None
    if rules["mamba_radix_archs"] and target_cfg and (target_cfg.get("architectures") or [None])[0] in \
            rules["mamba_radix_archs"]:
        if rules["mamba_radix_legacy"]:  # -- oldgpu (session 17) --: 0.5.11-0.5.13 server_args.py
            args = check_mamba_radix_cache_legacy(args, rules, r, platform, target_cfg, asked_attention, result)
            prefill = r["prefill_attention_backend"] or r["attention_backend"]
            decode = args.get("decode_attention_backend") or r["attention_backend"]
        else:
            mamba_strategy = check_mamba_radix_cache(args, rules, r, platform, target_cfg)  # the model hook, before overrides
    # -- model (session 14) --
    family = model_override_family(rules, target_cfg)
    if family is not None:
        # the architecture's model-override provider, at the end of the same hook: its refusals, then the attention
        # backends it declares (read by every later hook)
        declared = check_model_overrides(family, args, rules, platform, target_cfg, env, asked_attention)
        if declared:
            args = dict(args, **declared)
            for k in ("attention_backend", "prefill_attention_backend"):
                if k in declared:
                    r[k] = declared[k]
            prefill = r["prefill_attention_backend"] or r["attention_backend"]
            decode = args.get("decode_attention_backend") or r["attention_backend"]
    if rules["dsa_page_block_archs"] and target_cfg:  # -- lora (session 17) --: 0.5.11-0.5.12's DSA block: page 64
        dsa_page = dsa_page_size(args, rules, target_cfg)
        if dsa_page is not None:
            args = dict(args, page_size=dsa_page)
    if rules["nemotron_h_branch"]:  # -- mamba (session 16) --: the Nemotron-H branch (0.5.11-0.5.18)
        check_nemotron_h_branch(args, rules, target_cfg, asked_attention)
    if rules["dsv4_hook"] and is_dsv4_target(rules, target_cfg):  # -- dsv4 (session 15) --
        # DeepSeek-V4's override (attention backend dsv4, page 256), then its hook, in the same model hook
        declared = check_dsv4_hook(args, rules, platform, target_cfg, env)
        declared.update(attention_backend="dsv4", page_size=256)
        args = dict(args, **declared)
        r.update((k, declared[k]) for k in ("attention_backend", "max_running_requests") if k in declared)
        prefill = r["prefill_attention_backend"] or r["attention_backend"]
        decode = args.get("decode_attention_backend") or r["attention_backend"]
    if target_cfg and (target_cfg.get("architectures") or [None])[0] in ("MiMoV2ForCausalLM", "MiMoV2FlashForCausalLM"):
        if target_cfg["architectures"][0] == "MiMoV2ForCausalLM":
            check_mimo_v2_fused_qkv(args, rules, target_cfg)  # -- moe (session 16) --: the hook's MiMo V2 branch
        check_mimo_v2_hicache(args, rules, env)  # -- gpu16 (session 17) --: then its HiCache check (0.5.14-0.5.18)
    if not check_mamba_state.keys.isdisjoint(args):  # -- misc (session 15) --: the model hook's last Mamba check
        check_mamba_state(args, rules, target_cfg)
    if not KV.check_nvfp4_prefill_dequant.keys.isdisjoint(args):
        # right before the attention backend hook (0.5.21 on, with its flag): NVFP4 picks the prefill/decode pair
        nvfp4 = KV.check_nvfp4_prefill_dequant(args, rules, platform)
        if nvfp4 is not None:
            r["prefill_attention_backend"] = nvfp4[0]
            args = dict(args, prefill_attention_backend=nvfp4[0], decode_attention_backend=nvfp4[1])
            prefill, decode = nvfp4
    if r["attention_backend"] == "flex_attention" and args.get("speculative_algorithm") is not None:
        # the attention hook, before its trtllm_mha checks (every release 0.5.11-0.5.23: srt/server_args.py, from
        # 0.5.12 srt/arg_groups/attention_hook.py _handle_attention_backend_compatibility): any algorithm name
        raise Refused("FLEX_ATTENTION_SPECULATIVE", "Speculative decoding is not supported with the Flex Attention "
                      "backend (--attention-backend flex_attention): pick another attention backend.",
                      "attention_backend")
    if not check_mla_backends.keys.isdisjoint(args):
        # the same hook's MLA backend checks, before its trtllm_mha ones (-- overrides (session 15) --)
        filled = check_mla_backends(args, rules, platform)
        if filled is not None:  # CuteDSL MLA decodes only: its prefill backend defaults to trtllm_mla
            r["prefill_attention_backend"] = prefill = filled
            args = dict(args, prefill_attention_backend=filled)
    sms = rules["trtllm_mha_sms"]
    if sms and platform.get("gpus_known"):
        # attention hook, before the speculative one: SM-dependent trtllm_mha checks
        for phase, backend in (("prefill", prefill), ("decode", decode)):
            if backend == "trtllm_mha" and sms.get(phase) is not None and sm not in sms[phase]:
                raise Refused("TRTLLM_MHA_GPU", "TRTLLM MHA backend for %s needs an %s GPU in SGLang %s; this host has "
                              "%s. Use flashinfer or triton." % (
                                  phase, "/".join("SM%s" % x for x in sms[phase]), version,
                                  ("sm_%s" % sm) if sm else "no visible GPU"), "attention_backend")
            if phase == "prefill" and backend == "trtllm_mha" and sm == 120 and args.get("kv_cache_dtype") == "fp8_e4m3":
                raise Refused("TRTLLM_MHA_SM120_FP8", "TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV "
                              "cache: use another kv_cache_dtype or attention backend.", "kv_cache_dtype")
        cp = rules["trtllm_mha_prefill_cp"]
        if cp and prefill == "trtllm_mha" and sm != 100 and (get(args, "attn_cp_size", 1) > 1 or (
                cp == "cp_size_or_flag" and (args.get("enable_prefill_cp") or
                                             args.get("enable_prefill_context_parallel")))):
            # next in the same hook (0.5.19 on; 0.5.19 also takes --enable-prefill-cp alone)
            raise Refused("TRTLLM_MHA_PREFILL_CP", "Prefill context parallelism with the TRTLLM MHA prefill backend "
                          "requires an SM100 GPU (this host has %s): use another prefill backend or drop "
                          "--attn-cp-size." % (("sm_%s" % sm) if sm else "no visible GPU"), "attention_backend")
    if rules["intel_xpu_mla_prefill_refused"] and prefill == "intel_xpu":  # -- old-a (session 15) --
        LG.check_intel_xpu_mla_prefill(args, prefill, target_cfg is not None and "kv_lora_rank" in text_cfg(target_cfg))
    if rules["dual_chunk_attention"] and target_cfg is not None:
        check_dual_chunk(r, target_cfg)  # -- gpu16 (session 17) --: the attention hook's dual-chunk pass, next
    if not check_mamba_backend_flags.keys.isdisjoint(args):
        check_mamba_backend_flags(args, rules, platform)  # the Mamba backend hook, right after the attention one
    if not check_mamba_flashinfer.keys.isdisjoint(args):
        check_mamba_flashinfer(args, platform)  # the Mamba backend hook's last check
    if not check_int8_mamba_checkpoint.keys.isdisjoint(args):
        check_int8_mamba_checkpoint(args, rules)
    if not check_linear_attn_backend.keys.isdisjoint(args):
        check_linear_attn_backend(args, platform, env, mamba_strategy)  # the linear-attention hook, after the Mamba ones
    # the KV4 / MXFP8 checks, the prefill-only backend check and the HiCache hook, before the data-parallel hook
    if not KV.check_kv_dtype_platform.keys.isdisjoint(args):
        KV.check_kv_dtype_platform(args, rules, platform, r["attention_backend"], prefill, decode,
                                   mla=target_cfg is not None and "kv_lora_rank" in text_cfg(target_cfg))
    if not check_multi_item_scoring.keys.isdisjoint(args):
        check_multi_item_scoring(args, prefill, decode)  # after the KV4 / MXFP8 checks, before the prefill-only one
    if not KV.check_prefill_only_backend.keys.isdisjoint(args):
        KV.check_prefill_only_backend(args, prefill)
    if not KV.check_hicache_hook.keys.isdisjoint(args):
        KV.check_hicache_hook(args, rules)
    if not check_attn_dp_sizes.keys.isdisjoint(args):
        check_attn_dp_sizes(args)  # the data-parallel hook's first checks (0.5.22 on: --attn-dp-size)
    # data-parallel hook: after the attention backends' checks, before the speculative hook (every release:
    # handle_data_parallelism follows handle_attention_backend_compatibility)
    if args.get("enable_dp_attention") or "attn_dp_size" in args:
        check_attn_dp_width(args, rules, r["tp_size"])
    if not check_lm_head_dp.keys.isdisjoint(args):
        check_lm_head_dp(args, rules)  # the same hook's last checks: the DP / TP-all-to-all LM heads

    # after the data-parallel hook, before the speculative one: context parallelism, KV cache sharding, the MoE
    # kernel, shared-experts TP, EPLB and elastic EP (every release, in this order)
    if not check_context_parallel.keys.isdisjoint(args):
        check_context_parallel(args, r, rules, target_cfg, env)
    if not check_kv_cache_sharding.keys.isdisjoint(args):
        # the chunk size it rounds up to the page is what check_server_args then reads
        args = check_kv_cache_sharding(args, rules, target_cfg, env, platform, prefill) or args
    runner = None
    if not check_moe_kernel.keys.isdisjoint(args) or (rules["cutlass_moe_env"] and CUTLASS_MOE_ENV in env):
        runner = check_moe_kernel(args, rules, platform, target_cfg, env)
    if not check_a2a_moe.keys.isdisjoint(args):
        ep = check_a2a_moe(args, rules, platform, target_cfg, runner or get(args, "moe_runner_backend", "auto"), env)
        if ep is not None:
            args = dict(args, ep_size=ep)  # the a2a backend spans the TP group: EPLB and elastic EP read this size
    if not check_expert_parallel.keys.isdisjoint(args) or (env and EPLB_BALANCEDNESS_ENV in env):
        check_expert_parallel(args, r, rules, target_cfg, env)
    page = get(args, "page_size", 1)
    backends = [r["attention_backend"], args.get("decode_attention_backend"), r["prefill_attention_backend"]]
    if rules["draft_trtllm_sets_page_size"]:
        backends.append(args.get("speculative_draft_attention_backend"))
    if "trtllm_mla" in backends[:2] and page not in (32, 64):
        # -- quant (session 15) --: TensorRT-LLM MLA's page sizes, right before trtllm_mha's (every release: 0.5.23
        # overrides.py _mla_backend_page_constraints, on the attention or decode backend)
        page = 64
    if "trtllm_mha" in backends and page not in (16, 32, 64, 128):
        page = 64  # TensorRT-LLM MHA page sizes (SGLang warns and changes it)
    r["page_size"] = page

    if rules["spec_moe_runner_trtllm_refused"] and args.get("speculative_moe_runner_backend") == "flashinfer_trtllm":
        # -- oldnon (session 17) --: the speculative hook's first check in 0.5.11 (srt/server_args.py
        # _handle_speculative_decoding), with or without an algorithm
        raise Refused("SPEC_MOE_RUNNER_BACKEND", "--speculative-moe-runner-backend flashinfer_trtllm is not supported in "
                      "SGLang %s: use triton or auto." % version, "speculative_moe_runner_backend")
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
    if algo == "EAGLE3" and rules["gemma4_draft_eagle3_refused"]:
        S.check_gemma4_draft(draft_cfg)  # _resolve_speculative_algorithm_alias, first in the speculative hook
    if not rules["pd_decode_radix_first"] and not _check_pd_decode_radix.keys.isdisjoint(args):
        _check_pd_decode_radix(args, rules, algo, version)
    allowed = rules["block_verification_algorithms"]
    if allowed is not None and args.get("speculative_use_block_verification"):
        if algo not in allowed:
            raise Refused("BLOCK_VERIFICATION_ALGORITHM", "--speculative-use-block-verification only supports %s; got "
                          "--speculative-algorithm %s." % (" / ".join(allowed), algo),
                          "speculative_use_block_verification")
        if str(r["device"] or "cuda") != "cuda":
            raise Refused("BLOCK_VERIFICATION_DEVICE", "--speculative-use-block-verification only supports CUDA or ROCm; "
                          "got --device %s." % r["device"], "speculative_use_block_verification")
    window = args.get("speculative_draft_window_size")
    if window is not None:
        if window <= 0 and not rules["window_check_in_dflash"]:
            raise Refused("WINDOW_NONPOSITIVE", "%s must be positive, got %s." % (rules["window_flag"], window),
                          "speculative_draft_window_size")
        if algo not in ("EAGLE", "EAGLE3", "DFLASH"):
            result.warn("WINDOW_NO_EFFECT", "%s has no effect with speculative_algorithm=%s." % (rules["window_flag"], algo))
    sink = args.get("speculative_draft_sink_size")
    if sink is not None:
        if sink < 0:
            raise Refused("SINK_NEGATIVE", "--speculative-draft-sink-size must be non-negative, got %s." % sink,
                          "speculative_draft_sink_size")
        if window is None:
            raise Refused("SINK_WITHOUT_WINDOW", "--speculative-draft-sink-size requires --speculative-draft-window-size.",
                          "speculative_draft_sink_size")
    if not algo_known:
        raise Refused("UNKNOWN_ALGORITHM", "Unknown speculative algorithm name: %s. SGLang %s knows %s; DDTree needs a "
                      "tree-verify build (use verify: tree with a probe)." % (
                          args.get("speculative_algorithm"), version, ", ".join(rules["algorithms"])),
                      "speculative_algorithm")
    if args.get("speculative_skip_dp_mlp_sync") and algo != "EAGLE":
        # -- old-b (session 15) --: every release with the flag (0.5.11-0.5.22; server_args.py, from 0.5.13
        # speculative_hook.py handle_speculative_decoding, once the algorithm is parsed)
        raise Refused("SKIP_DP_MLP_SYNC", "--speculative-skip-dp-mlp-sync is only supported with speculative_algorithm "
                      "== EAGLE, got %s." % algo, "speculative_skip_dp_mlp_sync")
    coordinated = rules["dp_spec_prefill_env_check"]
    if coordinated and truthy_env(env, "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION") and (
            algo not in coordinated or args.get("enable_multi_layer_eagle")):
        raise Refused("ENV_DP_SPEC_PREFILL", "DP spec/prefill coordination requires single-layer %s in SGLang %s: "
                      "remove SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION from env (got algorithm %s)." % (
                          " / ".join(coordinated), version, algo), "env")
    if algo in ("DFLASH", "DDTREE"):
        _resolve_dflash(args, env, version, rules, r, draft_cfg, platform, result, prefill, tree_flavor)
    elif algo in ("EAGLE", "EAGLE3", "STANDALONE"):
        _resolve_eagle(args, rules, r, target_cfg, draft_cfg, result, prefill)
    elif algo == "UNO":  # the dispatcher's UNO branch (rules_speculative)
        S.resolve_uno(args, rules, r, result, prefill, decode)
    elif algo == "NGRAM" and rules["ngram_rules"]:
        S.resolve_ngram(args, rules, r, result)
    elif algo == "DSPARK" and rules["dspark_rules"]:  # specserve (session 14): _handle_dspark's flag checks
        S.resolve_dspark(args, env, rules, r, target_cfg, draft_cfg, result)
    elif algo is not None:
        result.warn("ALGORITHM_NOT_MODELLED", "speculative_algorithm %s is passed through: the static rules cover "
                    "DFLASH and the EAGLE family; check it with mode: installed." % algo)
    if args.get("enable_gdn_replayssm_spec"):  # -- mamba (session 16) --: 0.5.16, right after the speculative hook
        check_gdn_replayssm_spec_ring(args, r)
    if not check_layernorm_sp.keys.isdisjoint(args):
        # right after the speculative hook (0.5.19 on); the Muse Spark checks read the MoE hooks' runner backend
        check_layernorm_sp(args, r, algo, target_cfg, rules, resolved_runner(args, rules, platform), env)
    if not check_a2a_token_budgets.keys.isdisjoint(args):
        check_a2a_token_budgets(args, rules, target_cfg, env, algo)  # right after it (0.5.21 on)
    if not check_weight_cache.keys.isdisjoint(args):  # -- model (session 14) --
        check_weight_cache(args, algo)  # the load-format hook, right before the encoder one
    if not check_language_model_only.keys.isdisjoint(args):  # -- model (session 14) --
        check_language_model_only(args, rules, target_cfg)  # the encoder hook's first check
    if not check_encoder_disaggregation.keys.isdisjoint(args):
        check_encoder_disaggregation(args, rules, target_cfg)  # the encoder hook, right before the KV cache one
    if not V.check_ib_device_blank.keys.isdisjoint(args):
        V.check_ib_device_blank(args)  # the same hook's IB device check (before its architecture check, modelled after)
    if not SV.check_tokenizer_batching.keys.isdisjoint(args):
        SV.check_tokenizer_batching(args)
    if not SV.check_environment.keys.isdisjoint(args) or (env and SV.MM_TRANSPORT_ENV in env):
        SV.check_environment(args, env, rules, platform, r)  # handle_environment_variables, before the KV cache hook
    if not check_cache_compatibility.keys.isdisjoint(args):
        # the KV cache hook, after the speculative one and before check_server_args (every release)
        check_cache_compatibility(args, rules, algo)
    if not KV.check_page_major_layout.keys.isdisjoint(args):
        mla = target_cfg is not None and "kv_lora_rank" in text_cfg(target_cfg)
        # then the unified pool (0.5.15 on, with the flags)
        KV.check_page_major_layout(args, rules, prefill, decode, mla, target_cfg)
        KV.check_unified_memory_pool(args, env, rules, r, prefill, decode, hybrid_kind(target_cfg), mla=mla)
    if deterministic and not rules["deterministic_before_attention"]:
        check_deterministic_attention(args, rules, r, platform, target_cfg, result)  # 0.5.11: after the cache hook
    if not check_dllm_model.keys.isdisjoint(args):
        check_dllm_model(args, rules, target_cfg)  # the dLLM hook, after the unified pool (0.5.11: after deterministic)
    if not SV.check_other_validations.keys.isdisjoint(args):
        SV.check_other_validations(args, rules)  # handle_other_validations, the last resolution hook it models
    if not check_joint_head_checkpoint.keys.isdisjoint(args):  # -- new19 (session 17) --
        check_joint_head_checkpoint(args, rules, target_cfg)  # the model-capability hook: a Clef checkpoint's TP / PP
    if not check_model_capability.keys.isdisjoint(args):  # -- model (session 14) --
        check_model_capability(args, rules, target_cfg)  # the model-capability hook, last before check_server_args
    if not check_encoder_replay_budget.keys.isdisjoint(args):  # -- dsv4 (session 15) --
        check_encoder_replay_budget(args, rules, target_cfg)  # the same hook, DeepSeek-V4.1's replay budget (0.5.23)
    if not check_prefill_graph_max_context.keys.isdisjoint(args):
        check_prefill_graph_max_context(args, rules, r, target_cfg)  # the resolution pipeline's last step (0.5.21 on)
    if not check_deepep_v2_late.keys.isdisjoint(args):
        check_deepep_v2_late(args, rules, algo, env)  # the end of the pipeline (0.5.19 on)
    # check_server_args (after resolution), in its order: the node split, pipeline parallelism, base_gpu_id, the
    # value checks, the watermark last (every release: srt/server_args.py, from 0.5.19 srt/arg_groups/validation_hook.py)
    if not _check_node_split.keys.isdisjoint(args):
        _check_node_split(args, r)
    if not V.check_cuda_graph_padding.keys.isdisjoint(args):
        V.check_cuda_graph_padding(args, rules)
    if rules["pp_speculation_refused"] and r["pp_size"] > 1 and algo is not None:
        raise Refused("PP_SPECULATIVE", "Pipeline parallelism is not compatible with speculative decoding in SGLang %s "
                      "(--pp-size %s with %s)." % (version, r["pp_size"], algo), "pp_size")
    # pipeline parallelism takes only single-layer EAGLE
    if rules["pp_spec_dspark"] == "prefill" and r["pp_size"] > 1 and algo == "DSPARK":
        V.check_pp_dspark(args, env)  # the DSPARK branch of the pipeline-parallel checks (0.5.21 on)
    elif rules["pp_spec_checks"] and r["pp_size"] > 1 and algo is not None and algo != "EAGLE":
        raise Refused("PP_SPECULATIVE", "Pipeline parallelism currently only supports EAGLE (non-multi-layer) "
                      "speculative decoding; got %s with --pp-size %s." % (algo, r["pp_size"]), "pp_size")
    if rules["pp_spec_checks"] and r["pp_size"] > 1 and algo == "EAGLE":
        mode = get(args, "disaggregation_mode", "null")
        if truthy_env(env, "SGLANG_ENABLE_PP_SPEC"):
            if mode != "null" or args.get("speculative_adaptive"):
                raise Refused("PP_SPEC_ENV", "SGLANG_ENABLE_PP_SPEC is not compatible with --disaggregation-mode or "
                              "--speculative-adaptive.", "env")
            if rules["pp_spec_env_attn_dp"] and attn_dp_enabled(args, rules):
                # next (0.5.21 on): every stage rebuilds the same verify batch, which attention DP partitions
                raise Refused("PP_SPEC_ENV", "SGLANG_ENABLE_PP_SPEC is not compatible with attention DP "
                              "(--attn-dp-size %s)." % attn_dp_of(args), "env")
        elif mode != "prefill":
            raise Refused("PP_SPEC_PREFILL_ONLY", "PP + speculative decoding (MTP) is only supported on prefill nodes "
                          "(disaggregation-mode=prefill), unless SGLANG_ENABLE_PP_SPEC=1; drop --pp-size or the "
                          "speculative algorithm.", "pp_size")
    if r["pp_size"] > 1:
        V.check_pp_min_free_slots(args, rules)
    # data-parallel replicas on more than one node: refused unless attention DP (every release; 0.5.22 on, where
    # --enable-dp-attention has become --attn-dp-size, with the message "multi-node data-parallel replicas")
    if r["dp_size"] > 1 and get(args, "nnodes", 1) != 1 and not args.get("enable_dp_attention"):
        raise Refused("DP_MULTI_NODE", "Data-parallel replicas across nodes are not supported (--dp-size %s, --nnodes "
                      "%s): use attention DP." % (r["dp_size"], args["nnodes"]), "dp_size")
    if rules["check_base_gpu_id"] and get(args, "base_gpu_id", 0) < 0:
        raise Refused("BASE_GPU_ID", "base_gpu_id must be non-negative, got --base-gpu-id %s." % args["base_gpu_id"],
                      "base_gpu_id")
    _check_server_args_values(args, r, rules, algo, env, target_cfg)
    if not V.check_watermark.keys.isdisjoint(args):
        V.check_watermark(args, env, r, rules, algo)
    if not V.check_load_publish.keys.isdisjoint(args):
        V.check_load_publish(args)  # check_load_publish_args, the last of check_server_args (0.5.19 on)
    return r


@gate("ssl_keyfile", "ssl_certfile", "ssl_ca_certs", "ssl_keyfile_password", "enable_ssl_refresh")
def _check_ssl(args):
    """The SSL flags' pairing, early in resolution (every release 0.5.11-0.5.23: ServerArgs._handle_ssl_validation,
    from 0.5.19 srt/arg_groups/serving_hook.py handle_ssl_validation). SGLang then checks that the key,
    certificate and CA files exist; those are paths on the host, which the static engine does not judge."""
    key, cert = args.get("ssl_keyfile"), args.get("ssl_certfile")
    if key and not cert:
        raise Refused("SSL_PAIR", "--ssl-keyfile requires --ssl-certfile to be specified as well.", "ssl_certfile")
    if cert and not key:
        raise Refused("SSL_PAIR", "--ssl-certfile requires --ssl-keyfile to be specified as well.", "ssl_keyfile")
    if not key and not cert:
        for flag in ("ssl_ca_certs", "ssl_keyfile_password"):
            if args.get(flag):
                raise Refused("SSL_PAIR", "--%s has no effect without --ssl-certfile and --ssl-keyfile." % (
                    flag.replace("_", "-")), flag)
        if args.get("enable_ssl_refresh"):
            raise Refused("SSL_PAIR", "--enable-ssl-refresh requires --ssl-certfile and --ssl-keyfile to be specified.",
                          "enable_ssl_refresh")


@gate("nnodes", "pp_max_micro_batch_size", context=("ep_join_mode",))
def _check_node_split(args, r):
    """The first two checks of check_server_args, before its pipeline-parallel ones (every release 0.5.11-0.5.23,
    srt/server_args.py, from 0.5.19 srt/arg_groups/validation_hook.py): the TP x PP ranks must split evenly over
    --nnodes (0.5.23 skips it for an elastic-EP joiner, --elastic-ep-join-mode scale), and
    --pp-max-micro-batch-size, when given, must be at least 1."""
    nnodes = get(args, "nnodes", 1)
    if args.get("ep_join_mode") != "scale" and nnodes > 0 and (r["tp_size"] * r["pp_size"]) % nnodes:
        raise Refused("NNODES_TP", "tp_size must be divisible by number of nodes: --tp-size %s x --pp-size %s ranks "
                      "do not split over --nnodes %s." % (r["tp_size"], r["pp_size"], nnodes), "nnodes")
    micro = args.get("pp_max_micro_batch_size")
    if micro is not None and micro < 1:
        raise Refused("PP_MICRO_BATCH", "pp_max_micro_batch_size must be a positive integer (or unset for SGLang to "
                      "compute it), got --pp-max-micro-batch-size %s." % micro, "pp_max_micro_batch_size")


def _check_server_args_values(args, r, rules, algo, env, target_cfg=None):
    """check_server_args' plain value checks, in its order, after the pipeline-parallel ones. Every release
    0.5.11-0.5.23 has each one wherever its flag exists (srt/server_args.py ServerArgs.check_server_args;
    from 0.5.19 srt/arg_groups/validation_hook.py check_server_args), so they are not release traits:
    --detokenizer-worker-num (0.5.12 on) and --retraction-policy (0.5.16 on) are parse errors before.
    The exceptions read the release table: moe_dense_tp_size_any_tp, lora_speculative_algorithms.
    Only the served model name can refuse a validation that sets none of the other checks' flags."""
    if not _check_gpu_steps.keys.isdisjoint(args):
        _check_gpu_steps(args, r, rules)
    # served_model_name defaults to the model path; Run:ai object URIs are exempt (srt/utils/runai_utils.py)
    served = str(get(args, "served_model_name", args.get("model_path")) or "")
    if ":" in served and not served.lower().startswith(("s3://", "gs://", "az://")):
        raise Refused("SERVED_MODEL_NAME_COLON", "served_model_name cannot contain a colon (':'), reserved for "
                      "SGLang's 'model:adapter' LoRA syntax; got %r. Set --served-model-name without one." % served,
                      "served_model_name")
    if not _check_lora.keys.isdisjoint(args):
        _check_lora(args, r, rules, algo, env)
    if not _check_values_after_lora.keys.isdisjoint(args) or (env and LG.LEGACY_GRPC_ENV in env):
        _check_values_after_lora(args, r, rules, target_cfg, env)


@gate("gpu_id_step", "moe_dense_tp_size")
def _check_gpu_steps(args, r, rules):
    """check_server_args' first value checks: --gpu-id-step, --moe-dense-tp-size."""
    if get(args, "gpu_id_step", 1) < 1:
        raise Refused("GPU_ID_STEP", "gpu_id_step must be positive, got --gpu-id-step %s." % args["gpu_id_step"],
                      "gpu_id_step")
    dense = args.get("moe_dense_tp_size")
    if dense is not None and dense != 1 and not (rules["moe_dense_tp_size_any_tp"] and dense == r["tp_size"]):
        # 0.5.11-0.5.12 take 1 only; from 0.5.13 also the TP size (check_server_args, after gpu_id_step)
        raise Refused("MOE_DENSE_TP", "moe_dense_tp_size only supports None or 1%s in SGLang %s, got "
                      "--moe-dense-tp-size %s." % (" or tp_size" if rules["moe_dense_tp_size_any_tp"] else "",
                                                   rules["version"], dense), "moe_dense_tp_size")


@gate("chunked_prefill_size", "tokenizer_worker_num", "detokenizer_worker_num", "mm_processor_worker_num",
      "mm_io_worker_num", "prompt_tokens_buckets", "generation_tokens_buckets", "enable_priority_scheduling",
      "schedule_policy", "retraction_policy", "schedule_conservativeness", "export_metrics_to_file",
      "enable_quant_communications", "grpc_port", "gc_threshold", "kv_canary_sweep_interval", "enable_pdmux",
      *V.check_misc.keys,  # the group it enters between its own checks
      *check_hisparse.keys,  # -- kv (session 14) --: --enable-hisparse, between the retraction and conservativeness checks
      context=("disaggregation_mode", "export_metrics_to_file_dir", "smg_grpc_mode", "grpc_mode", "port", "kv_canary",
               *V.check_misc.context, *check_hisparse.context))
def _check_values_after_lora(args, r, rules, target_cfg=None, env=None):
    """check_server_args' value checks after the LoRA ones, in its order."""
    chunk = args.get("chunked_prefill_size")  # when not given SGLang derives one from the GPU memory (a multiple)
    if chunk is not None and chunk > 0 and get(args, "disaggregation_mode", "null") != "decode" and \
            chunk % r["page_size"]:
        raise Refused("CHUNKED_PREFILL_PAGE", "chunked_prefill_size must be divisible by page_size: --chunked-prefill-"
                      "size %s, page_size %s." % (chunk, r["page_size"]), "chunked_prefill_size")
    if args.get("enable_pdmux"):
        V.check_pdmux(args, r)
    for key, label in (("tokenizer_worker_num", "Tokenizer"), ("detokenizer_worker_num", "Detokenizer")):
        if get(args, key, 1) < 1:
            raise Refused("WORKER_NUM", "%s worker num must be >= 1, got --%s %s." % (
                label, key.replace("_", "-"), args[key]), key)
    for key, label in (("mm_processor_worker_num", "Multimodal processor"), ("mm_io_worker_num", "Multimodal I/O")):
        if get(args, key, 0) < 0:  # flags (and checks) from 0.5.17
            raise Refused("WORKER_NUM", "%s worker num must be >= 0, got --%s %s." % (
                label, key.replace("_", "-"), args[key]), key)
    for key in ("prompt_tokens_buckets", "generation_tokens_buckets"):
        _check_buckets_rule("--" + key.replace("_", "-"), args.get(key))
    priority = bool(args.get("enable_priority_scheduling"))
    if priority and get(args, "schedule_policy", "fcfs") not in ("fcfs", "lof"):
        raise Refused("PRIORITY_SCHEDULE_POLICY", "priority scheduling needs --schedule-policy fcfs or lof, got %r."
                      % args["schedule_policy"], "schedule_policy")
    if args.get("retraction_policy") == "priority" and not priority:
        raise Refused("RETRACTION_PRIORITY", "--retraction-policy priority requires --enable-priority-scheduling.",
                      "retraction_policy")
    if not check_hisparse.keys.isdisjoint(args):
        check_hisparse(args, rules, r, target_cfg)  # validate_hisparse at its legacy slot (rules_hisparse.py)
    if get(args, "schedule_conservativeness", 1.0) < 0:
        raise Refused("SCHEDULE_CONSERVATIVENESS", "schedule_conservativeness must be non-negative, got %s."
                      % args["schedule_conservativeness"], "schedule_conservativeness")
    misc = not V.check_misc.keys.isdisjoint(args)
    if misc:
        V.check_misc(args, r, rules, "before_export")
    # the metrics exporter, communications quantization, the gRPC port, the GC thresholds and the KV canary,
    # in check_server_args' order after the scheduling checks (every release with the flag: --grpc-port from
    # 0.5.16, --kv-canary-sweep-interval from 0.5.13)
    if args.get("export_metrics_to_file") and args.get("export_metrics_to_file_dir") is None:
        raise Refused("EXPORT_METRICS_DIR", "--export-metrics-to-file-dir is required when --export-metrics-to-file "
                      "is enabled.", "export_metrics_to_file_dir")
    if misc:
        V.check_misc(args, r, rules, "after_export")
    if args.get("enable_quant_communications"):
        if r["tp_size"] == 1:
            raise Refused("QUANT_COMMUNICATIONS", "Communications quantization is only used with tp_size != 1: drop "
                          "--enable-quant-communications or raise --tp-size.", "enable_quant_communications")
        if str(r["device"] or "cuda") != "npu":
            raise Refused("QUANT_COMMUNICATIONS", "Communications quantization is only supported for NPU device, got "
                          "--device %s." % (r["device"] or "cuda"), "enable_quant_communications")
    if misc:
        V.check_misc(args, r, rules, "after_quant")
    grpc = args.get("grpc_port")
    if grpc is not None and not (args.get("smg_grpc_mode") or args.get("grpc_mode")) and grpc == get(args, "port", 30000):
        raise Refused("GRPC_PORT", "--grpc-port (%s) must differ from --port (%s)." % (grpc, get(args, "port", 30000)),
                      "grpc_port")
    if env and LG.LEGACY_GRPC_ENV in env and "--grpc-port" not in rules["flags"]:  # -- old-a (session 15) --
        LG.check_legacy_grpc_port(args, env)  # 0.5.11-0.5.15.post1: the env-only native gRPC server
    gc_threshold = args.get("gc_threshold")
    if gc_threshold and not 1 <= len(gc_threshold) <= 3:
        raise Refused("GC_THRESHOLD", "When setting gc_threshold, it must contain 1 to 3 integers; got %s."
                      % len(gc_threshold), "gc_threshold")
    if get(args, "kv_canary_sweep_interval", 0) > 0 and get(args, "kv_canary", "none") == "none":
        raise Refused("KV_CANARY", "--kv-canary-sweep-interval requires --kv-canary in {log, raise}.",
                      "kv_canary_sweep_interval")


@gate("max_loras_per_batch", "enable_lora", "lora_paths", *L.check_lora_moe_runner.keys,
      context=("max_loaded_loras", "enable_lora_overlap_loading", "lora_target_modules", "max_lora_rank",
               "lora_drain_wait_threshold", "lora_use_virtual_experts", "lora_backend", *L.check_lora_moe_runner.context))
def _check_lora(args, r, rules, algo, env):
    """check_lora_server_args, which check_server_args calls right after the served-model-name check (every release
    0.5.11-0.5.23: srt/server_args.py, from 0.5.19 srt/arg_groups/lora_hook.py), in its order. Which speculative
    algorithms LoRA takes is a release trait (lora_speculative_algorithms: only NGRAM through 0.5.18)."""
    per_batch = get(args, "max_loras_per_batch", 8)
    if per_batch <= 0:
        raise Refused("LORA_MAX_PER_BATCH", "max_loras_per_batch must be positive, got --max-loras-per-batch %s."
                      % per_batch, "max_loras_per_batch")
    paths = args.get("lora_paths") or []
    if args.get("enable_lora") or paths:  # --lora-paths alone turns LoRA on
        _check_lora_on(args, r, rules, algo, env, per_batch, paths)
    if not L.check_lora_moe_runner.keys.isdisjoint(args):
        L.check_lora_moe_runner(args, env, algo)  # the last of check_lora_server_args, LoRA on or not (0.5.23)


def _check_lora_on(args, r, rules, algo, env, per_batch, paths):
    """check_lora_server_args with LoRA on, in its order."""
    if not L.check_lora_v2_backend.keys.isdisjoint(args):
        L.check_lora_v2_backend(args, env)  # the triton_v2 backend's modes, first (0.5.23)
    loaded = args.get("max_loaded_loras")
    if args.get("enable_lora_overlap_loading") and (loaded is None or loaded > 2 * per_batch):
        # the adapters are pinned in CPU memory: at most twice the per-batch slots
        raise Refused("LORA_OVERLAP_LOADING", "Enabling LoRA overlap loading requires pinning LoRA adapter weights in "
                      "CPU memory: set --max-loaded-loras to at most %s (2 x --max-loras-per-batch)." % (2 * per_batch),
                      "max_loaded_loras")
    allowed = rules["lora_speculative_algorithms"]
    if algo not in (None, "NGRAM") and algo not in allowed:
        raise Refused("LORA_SPECULATIVE", "LoRA is only compatible with NGRAM%s speculative decoding in SGLang %s, not "
                      "%s." % ("".join(", " + a for a in allowed), rules["version"], algo), "enable_lora")
    if allowed and algo in allowed and r.get("speculative_adaptive"):
        # from 0.5.19 (with the algorithms above): adaptive speculation, where SGLang keeps it on, rebuilds the draft
        # without the LoRA cuda-graph metadata (lora_hook.py check_lora_speculative_compatibility)
        raise Refused("LORA_SPECULATIVE", "LoRA with %s speculative decoding does not support --speculative-adaptive "
                      "in SGLang %s." % (algo, rules["version"]), "speculative_adaptive")
    if allowed and algo in allowed:  # the rest of the list, in its order (0.5.19 on)
        if not L.check_lora_spec_runner.keys.isdisjoint(args):
            L.check_lora_spec_runner(args, env, algo)
        L.check_lora_spec_env(env, algo)
    modules = args.get("lora_target_modules") or []
    if "all" in modules and len(modules) != 1:
        raise Refused("LORA_TARGET_MODULES", "If 'all' is specified in --lora-target-modules, it should be the only "
                      "module specified; got %s." % " ".join(modules), "lora_target_modules")
    if not paths and not (args.get("max_lora_rank") and modules):
        raise Refused("LORA_TARGET_MODULES", "When no initial --lora-paths is provided, you need to specify both "
                      "--max-lora-rank and --lora-target-modules for LoRA initialization.", "max_lora_rank")
    if loaded is not None and (loaded < per_batch or len(paths) > loaded):
        raise Refused("LORA_MAX_LOADED", "--max-loaded-loras %s must be >= --max-loras-per-batch %s and >= the number "
                      "of --lora-paths (%s)." % (loaded, per_batch, len(paths)), "max_loaded_loras")
    if get(args, "lora_drain_wait_threshold", 0.0) < 0:  # flag (and check) from 0.5.12
        raise Refused("LORA_DRAIN_THRESHOLD", "--lora-drain-wait-threshold must be non-negative, got %s."
                      % args["lora_drain_wait_threshold"], "lora_drain_wait_threshold")
    if rules["lora_virtual_experts_triton"] and args.get("lora_use_virtual_experts"):  # -- old-a (session 15) --
        LG.check_lora_virtual_experts(args)


def _check_buckets_rule(flag, rule):
    """validate_buckets_rule for the prompt / generation token histogram buckets (every release 0.5.11-0.5.23,
    check_server_args, after the worker counts): 'default' alone, 'tse <middle> <base> <count>' with base > 1
    and count, middle > 0, or 'custom <value> ...' with distinct non-negative numbers."""
    if not rule:
        return

    def refuse(why):
        raise Refused("METRICS_BUCKETS", "%s %s (got %s)." % (flag, why, " ".join(map(str, rule))), flag[2:].replace("-", "_"))

    kind = rule[0]
    if kind not in ("tse", "default", "custom"):
        refuse("rule type must be one of 'tse', 'default', 'custom'")
    if kind == "tse":
        if len(rule) != 4:
            refuse("TSE rule requires exactly 4 parameters: tse <middle> <base> <count>")
        try:
            middle, base, count = float(rule[1]), float(rule[2]), int(rule[3])
        except ValueError:
            refuse("TSE rule parameters must be: tse <float middle> <float base> <int count>")
        if base <= 1 or count <= 0 or middle <= 0:
            refuse("TSE rule needs base > 1, count > 0 and middle > 0")
    elif kind == "default":
        if len(rule) != 1:
            refuse("default rule takes no values")
    else:
        if len(rule) < 2:
            refuse("custom rule requires at least one bucket value")
        try:
            values = [float(x) for x in rule[1:]]
        except ValueError:
            refuse("custom rule bucket values must be numeric")
        if len(set(values)) != len(values):
            refuse("custom rule bucket values should not contain duplicates")
        if any(x < 0 for x in values):
            refuse("custom rule bucket values should be non-negative")


def _resolve_dflash(args, env, version, rules, r, draft_cfg, platform, result, prefill, tree_flavor):
    device = get(args, "device", platform.get("device", "cuda"))
    allowed = rules["dflash_devices"]
    if allowed is not None and device.split(":")[0] not in allowed:
        raise Refused("DFLASH_DEVICE", "DFLASH speculative decoding is not supported on device %r (SGLang %s needs "
                      "%s)." % (device, version, " or ".join(allowed)), "device")
    # -- engfix (session 15) --: attention DP as the release reads it (an Elastic EP scale joiner counts from 0.5.22;
    # --enable-dp-attention at --dp-size 1 does not: the data-parallel defaults drop it first)
    dp_attn = attn_dp_enabled(args, rules)
    rejected = rules["dp_attention_rejected"]
    if rejected == "non_npu":  # 0.5.20-0.5.22: validated on NPU only
        rejected = device != "npu"
    if rejected and dp_attn:
        raise Refused("DFLASH_DP_ATTENTION", "Currently DFLASH speculative decoding does not support dp attention "
                      "(SGLang %s%s): drop --enable-dp-attention." % (
                          version, " on non-NPU devices" if rules["dp_attention_rejected"] == "non_npu" else ""),
                      "enable_dp_attention")
    if dp_attn and rules["dp_attention_rejected"] is False and device != "npu":
        # _handle_dflash (0.5.23): attention DP takes CUDA, the DP LM head, no context parallelism (its last check,
        # SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION, cannot fire: handle_speculative_decoding refuses DFLASH with it)
        if not device.startswith("cuda"):
            raise Refused("DFLASH_DP_DEVICE", "DFLASH with dp attention requires CUDA or NPU, got --device %s." % device,
                          "device")
        if not args.get("enable_dp_lm_head"):
            raise Refused("DFLASH_DP_LM_HEAD", "DFLASH with dp attention requires --enable-dp-lm-head.",
                          "enable_dp_lm_head")
        if get(args, "attn_cp_size", 1) != 1:
            raise Refused("DFLASH_DP_CP", "DFLASH with dp attention does not support context parallelism (--attn-cp-size "
                          "%s): drop one of them." % args["attn_cp_size"], "attn_cp_size")
    if get(args, "pp_size", 1) != 1:
        raise Refused("DFLASH_PP", "Currently DFLASH speculative decoding only supports pp_size == 1; got "
                      "--pp-size %s." % args["pp_size"], "pp_size")
    if args.get("speculative_draft_model_path") is None:
        raise Refused("DFLASH_NO_DRAFT", "DFLASH speculative decoding requires setting "
                      "--speculative-draft-model-path (speculative.draft_model_path).", "speculative_draft_model_path")
    keep_topk = tree_flavor == "sglang-pr31069"
    for key, label in (("speculative_num_steps", "speculative_num_steps"), ("speculative_eagle_topk", "speculative_eagle_topk")):
        v = args.get(key)
        if key == "speculative_eagle_topk" and keep_topk or key not in rules["dflash_resets"]:
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
            raise Refused("DFLASH_BLOCK_SIZE_NONPOSITIVE", "DFLASH requires --speculative-dflash-block-size to be "
                          "positive, got %s." % dbs, "speculative_dflash_block_size")
        if ndt is not None and ndt != dbs:
            raise Refused("DFLASH_BLOCK_SIZE_MISMATCH", "Both --speculative-num-draft-tokens (%s) and "
                          "--speculative-dflash-block-size (%s) are set but they differ; for DFLASH they must match: "
                          "keep one." % (ndt, dbs), "speculative_num_draft_tokens")
        ndt = dbs
    window = args.get("speculative_draft_window_size")
    if window is not None and window <= 0 and rules["window_check_in_dflash"]:
        raise Refused("WINDOW_NONPOSITIVE", "%s must be positive, got %s." % (rules["window_flag"], window),
                      "speculative_draft_window_size")
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
    if window is not None and ndt is not None and window < ndt:
        raise Refused("WINDOW_LT_BLOCK", "%s must be >= --speculative-num-draft-tokens (block_size): window_size=%s, "
                      "block_size=%s." % (rules["window_flag"], window, ndt), "speculative_draft_window_size")
    # draft attention backend (docs/sglang.md, draft attention backend)
    # SGLang takes the explicit flag, else the target's prefill backend, and validates either one.
    explicit = args.get("speculative_draft_attention_backend")
    fallback = "flashinfer"
    chosen = explicit if explicit is not None else prefill
    how = "speculative_draft_attention_backend" if explicit is not None else \
        "the target's prefill attention backend (inherited by the draft)"
    if not rules["draft_backend_at_resolution"]:
        # the draft worker picks (and falls back) at start: argument resolution leaves the flag as given
        r["speculative_draft_attention_backend"] = explicit
        chosen = None if chosen is None or chosen in rules["draft_backends"] else chosen
        if chosen is not None:
            result.warn("SGLANG_OVERRIDE", "DFLASH draft worker does not support attention_backend %r from %s (SGLang "
                        "%s accepts %s); its worker falls back to %r at start." % (
                            chosen, how, version, ", ".join(rules["draft_backends"]), fallback))
    elif chosen is None:
        r["speculative_draft_attention_backend"] = None  # GPU-dependent default, decided on the host
    elif chosen not in rules["draft_backends"]:
        accepted = ", ".join(rules["draft_backends"])
        result.warn("SGLANG_OVERRIDE", "DFLASH draft worker does not support attention_backend %r from %s (SGLang %s "
                    "accepts %s); SGLang falls back to %r." % (chosen, how, version, accepted, fallback))
        r["speculative_draft_attention_backend"] = fallback
    elif chosen == "trtllm_mha":
        ok = False
        if draft_cfg is not None:
            t = text_cfg(draft_cfg)
            lt = draft_cfg.get("layer_types", dflash_cfg(draft_cfg).get("layer_types"))
            nl = t.get("num_hidden_layers")
            ok = (isinstance(lt, list) and lt and len(lt) == nl and set(lt) == {"sliding_attention"}) or \
                t.get("is_causal") is True
        if not ok:
            fb = "fa4" if platform.get("sm") == 100 and rules["dflash_trtllm_draft_sm100_fa4"] else fallback
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


def _resolve_eagle(args, rules, r, target_cfg, draft_cfg, result, prefill):
    if r["speculative_algorithm"] == "STANDALONE" and attn_dp_enabled(args, rules):
        # the EAGLE-family hook's first check (every release 0.5.11-0.5.23)
        raise Refused("STANDALONE_DP_ATTENTION", "Currently standalone speculative decoding does not support dp "
                      "attention: drop --enable-dp-attention.", "enable_dp_attention")
    if args.get("max_running_requests") is None:
        r["max_running_requests"] = 48
        result.warn("SGLANG_DEFAULT", "max_running_requests is not set: SGLang resets it to 48 for speculative decoding.")
    steps, topk, ndt = (args.get("speculative_num_steps"), args.get("speculative_eagle_topk"),
                        args.get("speculative_num_draft_tokens"))
    iquest = rules["iquest_mtp_draft"] and S.resolve_iquest_mtp_draft(args, target_cfg, draft_cfg, result)
    if iquest:  # -- misc (session 15) --: the IQuest Q1 MTP draft sets all three (before the automatic choice)
        steps, topk, ndt = iquest
    arch = None
    if target_cfg:
        archs = target_cfg.get("architectures") or [None]
        arch = archs[0]
    cands = rules["adaptive_candidate_steps"]
    if cands and args.get("speculative_adaptive") and r["speculative_algorithm"] in ("EAGLE", "EAGLE3") and \
            topk in (None, 1) and not any(args.get(k) for k in _ADAPTIVE_OFF):
        # --speculative-adaptive, where SGLang keeps it on (adaptive_unsupported_reason): its default config's
        # candidate steps decide num_steps (srt/arg_groups/speculative_hook.py _init_adaptive_speculative_params)
        topk = 1 if topk is None else topk
        r["speculative_adaptive"] = True  # kept on (check_lora_server_args reads it)
        if steps is None:
            steps = cands[len(cands) // 2]
        if steps not in cands:
            raise Refused("ADAPTIVE_STEPS", "--speculative-num-steps=%s is not in the adaptive config candidate_steps "
                          "%s (SGLang %s default config). Pass one of those values."
                          % (steps, list(cands), rules["version"]), "speculative_num_steps")
        ndt = steps + 1
    if steps is None:
        if topk is not None or ndt is not None:
            raise Refused("EAGLE_PARAMS_PARTIAL", "EAGLE: set --speculative-num-steps together with "
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
    if steps is not None and topk is None and "trtllm_mha" in (prefill, r.get("attention_backend")):
        raise Refused("EAGLE_TOPK_MISSING", "EAGLE with --speculative-num-steps needs --speculative-eagle-topk "
                      "(SGLang fails comparing None).", "speculative_eagle_topk")
    if topk is not None and topk > 1 and "trtllm_mha" in (prefill, r.get("attention_backend")):
        raise Refused("EAGLE_TRTLLM_TOPK", "trtllm_mha backend only supports topk = 1 for speculative decoding.",
                      "speculative_eagle_topk")
    if args.get("speculative_use_rejection_sampling") or (
            rules["block_verification_enables_rejection"] and args.get("speculative_use_block_verification")
            and r["speculative_algorithm"] in ("EAGLE", "EAGLE3")):
        # block verification turns rejection sampling on for EAGLE / EAGLE3 (0.5.22 on, handle_speculative_decoding)
        # the EAGLE-family hook, right after the trtllm_mha check (srt/arg_groups/speculative_hook.py, every
        # release with the flag); outside this hook (DFLASH) the flag is not checked at argument time
        if r["speculative_algorithm"] not in ("EAGLE", "EAGLE3"):
            raise Refused("REJECTION_SAMPLING_ALGORITHM", "--speculative-use-rejection-sampling is only supported for "
                          "EAGLE / EAGLE3 / NEXTN, not %s." % r["speculative_algorithm"],
                          "speculative_use_rejection_sampling")
        if topk != 1:
            raise Refused("REJECTION_SAMPLING_TOPK", "--speculative-use-rejection-sampling requires "
                          "--speculative-eagle-topk=1 (got %s)." % topk, "speculative_eagle_topk")
        deterministic = rules["rejection_sampling_deterministic"]
        if deterministic == "cuda" and args.get("enable_deterministic_inference") and \
                not str(r["device"] or "cuda").startswith("cuda"):
            # next in the hook (0.5.23): the draft proposal sampling uses a Triton hash kernel
            raise Refused("REJECTION_SAMPLING_DETERMINISTIC", "Deterministic rejection sampling is supported only on "
                          "CUDA devices, got --device %s: drop --enable-deterministic-inference or "
                          "--speculative-use-rejection-sampling." % r["device"], "enable_deterministic_inference")
        if get(args, "speculative_accept_threshold_single", 1.0) != 1.0 or \
                get(args, "speculative_accept_threshold_acc", 1.0) != 1.0:
            # next in the same hook (every release with the flag, 0.5.14 on): rejection sampling ignores them
            raise Refused("REJECTION_SAMPLING_THRESHOLD", "--speculative-use-rejection-sampling is incompatible with "
                          "--speculative-accept-threshold-single / --speculative-accept-threshold-acc: drop them.",
                          "speculative_accept_threshold_single")
        if deterministic == "refused" and args.get("enable_deterministic_inference"):
            # next in the hook (0.5.14-0.5.22): its sampling kernel is not batch-invariant
            raise Refused("REJECTION_SAMPLING_DETERMINISTIC", "--speculative-use-rejection-sampling is incompatible with "
                          "--enable-deterministic-inference in SGLang %s: drop one of them." % rules["version"],
                          "enable_deterministic_inference")
    if steps is not None and topk is None:
        # the first comparison of the missing topk (the paged-tree check) raises a TypeError
        raise Refused("EAGLE_TOPK_MISSING", "EAGLE with --speculative-num-steps needs --speculative-eagle-topk "
                      "(SGLang fails comparing None).", "speculative_eagle_topk")
    if topk == 1 and steps is not None and ndt != steps + 1:
        result.warn("SGLANG_OVERRIDE", "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 (%s) "
                    "when speculative_eagle_topk == 1." % (steps + 1))
        ndt = steps + 1
    r["speculative_num_steps"], r["speculative_eagle_topk"], r["speculative_num_draft_tokens"] = steps, topk, ndt
    if topk is not None and topk > 1 and r.get("page_size", 1) > 1 and r.get("attention_backend") not in \
            rules["eagle_paged_tree_backends"]:
        raise Refused("EAGLE_PAGE_TREE", "speculative_eagle_topk > 1 with page_size > 1 (%s) is only supported on "
                      "%s; got attention_backend=%r. Use page_size 1 or one of those backends." % (
                          r["page_size"], ", ".join(rules["eagle_paged_tree_backends"]), r.get("attention_backend")),
                      "speculative_eagle_topk")
    late = rules["adaptive_steps_after_eagle"]
    if late and args.get("speculative_adaptive") and r["speculative_algorithm"] in ("EAGLE", "EAGLE3") and \
            topk == 1 and not any(args.get(k) for k in _ADAPTIVE_OFF):
        # 0.5.13: --speculative-adaptive's initial steps checked after the EAGLE-family hook, against the resolved
        # num_steps (srt/arg_groups/speculative_hook.py handle_speculative_decoding, validate_adaptive_initial_steps)
        r["speculative_adaptive"] = True
        if steps not in late:
            raise Refused("ADAPTIVE_STEPS", "--speculative-num-steps=%s is not in the adaptive config candidate_steps "
                          "%s (SGLang %s default config). Pass one of those values." % (
                              steps, list(late), rules["version"]), "speculative_num_steps")


# what switches --speculative-adaptive off (adaptive_unsupported_reason, besides the algorithm and topk)
_ADAPTIVE_OFF = ("enable_dp_attention", "enable_multi_layer_eagle", "enable_two_batch_overlap", "enable_pdmux")


def _norm_allow(allow):
    out = set()
    for a in allow or ():
        a = str(a)
        out.add(a)
        out.add(SPEC_TO_SGLANG.get(a, a))
        out.add("speculative_" + a)
    return out


def requested_fields(args):
    return {k: v for k, v in zip(RESOLVED_KEYS, map(args.get, RESOLVED_KEYS)) if v is not None}


_RESOLVED_SET = frozenset(RESOLVED_KEYS)


def record_overrides(result, requested, resolved, allow_overrides=()):
    """Record every requested field the resolution changed; a speculative one is an error unless allowed."""
    _record_overrides(result, requested.get, sorted(requested), resolved, allow_overrides)


def record_arg_overrides(result, args, resolved, allow_overrides=()):
    """record_overrides(result, requested_fields(args), ...) read from the parsed args directly."""
    _record_overrides(result, args.get, sorted(_RESOLVED_SET.intersection(args)), resolved, allow_overrides)


def _record_overrides(result, want_of, fields, resolved, allow_overrides):
    """`fields` in sorted order; want_of(field) the requested value (None: not requested). The allowed set is
    normalised only when a speculative field changed."""
    allow = None
    for field in fields:
        want = want_of(field)
        if want is None or field not in resolved:
            continue
        got = resolved[field]
        if want == got:
            continue
        if field == "speculative_algorithm" and isinstance(want, str) and isinstance(got, str) and want.upper() == got:
            continue
        if isinstance(want, (int, float)) and isinstance(got, (int, float)) and float(want) == float(got):
            continue
        if field == "speculative_draft_model_path" and got is not None:
            continue
        result.overrides.append({"field": field, "requested": want, "resolved": got})
        if field.startswith("speculative_"):
            if allow is None:
                allow = _norm_allow(allow_overrides)
            if field not in allow:
                result.error("SPEC_OVERRIDDEN", "SGLang would silently change %s from %r to %r. Ask for %r instead, or "
                             "list %s in allow_overrides to accept it." % (field, want, got, got, field), field=field,
                             stage="policy")


@gate("disaggregation_decode_enable_radix_cache", context=("disaggregation_mode", "disaggregation_transfer_backend"))
def _check_pd_decode_radix(args, rules, algo, version):
    """PD decode with a radix cache: (0.5.11) its transfer backend, then which speculative algorithms it takes."""
    if rules["pd_decode_radix_needs_nixl"] and args.get("disaggregation_mode") == "decode" and \
            args.get("disaggregation_decode_enable_radix_cache") and args.get("disaggregation_transfer_backend") != "nixl":
        raise Refused("PD_DECODE_RADIX_BACKEND", "--disaggregation-decode-enable-radix-cache currently requires "
                      "--disaggregation-transfer-backend nixl (SGLang %s)." % version, "disaggregation_transfer_backend")
    allowed = rules["pd_decode_radix_algorithms"]
    if allowed is not None and args.get("disaggregation_mode") == "decode" and \
            args.get("disaggregation_decode_enable_radix_cache") and algo is not None and algo not in allowed:
        raise Refused("PD_DECODE_RADIX", "--disaggregation-decode-enable-radix-cache is incompatible with speculative "
                      "decoding (--speculative-algorithm %s) in SGLang %s; %s." % (
                          algo, version, ("it works with %s only" % ", ".join(allowed)) if allowed else
                          "drop one of them"),
                      "disaggregation_decode_enable_radix_cache")
