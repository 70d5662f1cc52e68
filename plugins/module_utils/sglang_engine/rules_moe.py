# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""MoE checks of SGLang's argument resolution: the MoE kernel (runner backend) checks and the all-to-all (a2a)
backend checks, in SGLang's order after context parallelism and KV cache sharding, before shared-experts TP, EPLB and
elastic EP (0.5.23 srt/arg_groups/moe_hook.py handle_moe_kernel_config then handle_a2a_moe, with the quantization-driven
runner resolution of srt/arg_groups/overrides.py _moe_runner_backend_quant_constraints; through 0.5.18
ServerArgs._handle_moe_kernel_config and _handle_a2a_moe). Every list that changed between releases is a trait
(releases.py, moe_* and a2a_*). The per-rank dispatch token budgets of mori, pplx, DeepEP v2, FlashInfer A2A and
MegaMoE, and the FlashInfer A2A / MegaMOE environment checks, are judged on the sizes and env the spec gives (session
14). Not modelled (the host's SGLang answers them: mode installed): the checks that read a checkpoint's quantization
metadata (a target config.json with a quantization_config) and the budgets of an unset chunked prefill size or decode
graph batch size (SGLang derives them from the GPU memory). stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import (
    MAX_PREFILL_TOKENS, Refused, gate, get, is_int, truthy_env)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import attn_dp_of
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_legacy import check_ascend_fuse_mode
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_speculative import _env_bool

CUTLASS_MOE_ENV = "SGLANG_CUTLASS_MOE"  # -- gpu16 (session 17) --: the deprecated env, read by handle_moe_kernel_config

_FLASHINFER_CUTLASS_QUANT = ("modelopt_fp4", "modelopt_fp8", "modelopt_mixed", None)
_MXFP8_DEFAULT = "flashinfer_trtllm"


def _sm(platform):
    """(gpus known, SM number or None) of the platform the engine was given."""
    return bool(platform.get("gpus_known")), platform.get("sm")


def _quant_metadata(target_cfg):
    """True when the target's config.json carries quantization metadata (NVFP4 MoE layers, FP4 experts): SGLang reads
    it in checks the engine does not model."""
    return target_cfg is None or "quantization_config" in target_cfg or \
        "quantization_config" in (target_cfg.get("text_config") or {})


def _runner_of(args, rules, platform):
    """The runner backend after the quantization-driven resolution (0.5.23 overrides.py
    _moe_runner_backend_quant_constraints, through 0.5.14 the head of _handle_moe_kernel_config). Raises for
    --quantization nvfp4_online off SM100 and with a runner it does not take."""
    runner = get(args, "moe_runner_backend", "auto")
    quant = args.get("quantization")
    known, sm = _sm(platform)
    if quant == "nvfp4_online" and rules["moe_nvfp4_online_runners"] is not None:
        if known and sm not in (100, 103):
            raise Refused("MOE_NVFP4_ONLINE", "--quantization nvfp4_online is supported only on NVIDIA Blackwell "
                          "SM100/SM103 GPUs (this host: %s)." % (("sm_%s" % sm) if sm else "no visible GPU"),
                          "quantization")
        if runner == "auto":
            runner = "flashinfer_trtllm"
        elif runner not in rules["moe_nvfp4_online_runners"]:
            raise Refused("MOE_NVFP4_ONLINE", "--quantization nvfp4_online supports only --moe-runner-backend %s "
                          "(got %s)." % (" or ".join(rules["moe_nvfp4_online_runners"]), runner), "moe_runner_backend")
    if quant == "mxfp8":
        megamoe = get(args, "moe_a2a_backend", "none") == "flashinfer_megamoe" and rules["a2a_flashinfer_megamoe"]
        default = "flashinfer_megamoe" if megamoe else _MXFP8_DEFAULT
        if runner == "auto" or runner not in rules["moe_mxfp8_runners"]:
            runner = default  # SGLang warns and overrides an explicit runner mxfp8 does not take
    if runner == "auto" and quant == "modelopt_fp4" and known and sm in rules["moe_fp4_cutlass_sms"]:
        runner = "flashinfer_cutlass"
    return runner


def resolved_runner(args, rules, platform):
    """The runner backend once the MoE hooks ran (the layernorm SP hook reads it): _runner_of's, then FlashInfer A2A
    with a dispatch type turns flashinfer_trtllm into flashinfer_trtllm_routed (handle_a2a_moe)."""
    runner = _runner_of(args, rules, platform)
    if runner == "flashinfer_trtllm" and get(args, "moe_a2a_backend", "none") == "flashinfer" and \
            args.get("flashinfer_a2a_dispatch_type") is not None and rules["a2a_flashinfer_dispatch_type"]:
        runner = "flashinfer_trtllm_routed"
    return runner


@gate("moe_runner_backend", "quantization",
      context=("ep_size", "tp_size", "moe_a2a_backend"))
def check_moe_kernel(args, rules, platform, target_cfg, env):
    """handle_moe_kernel_config: the runner each quantization takes, its EP size and a2a backend. Returns the
    resolved runner backend (the a2a checks read it)."""
    runner = _runner_of(args, rules, platform)
    quant = args.get("quantization")
    ep, tp = get(args, "ep_size", 1), get(args, "tp_size", 1)
    a2a = get(args, "moe_a2a_backend", "none")
    if runner == "flashinfer_cutlass":
        if quant not in _FLASHINFER_CUTLASS_QUANT:
            raise Refused("MOE_RUNNER_QUANTIZATION", "Invalid quantization %r: FlashInfer Cutlass MoE "
                          "(--moe-runner-backend flashinfer_cutlass) supports only modelopt_fp4, modelopt_fp8, "
                          "modelopt_mixed or bfloat16 (no --quantization)." % quant, "quantization")
        if ep not in (1, tp):
            raise Refused("MOE_RUNNER_EP_SIZE", "The expert parallel size must be 1 or the same as the tensor parallel "
                          "size with --moe-runner-backend flashinfer_cutlass (--ep-size %s, --tp-size %s)." % (ep, tp),
                          "ep_size")
    if runner == "flashinfer_cutedsl":
        if quant not in rules["moe_cutedsl_quant"] and not _quant_metadata(target_cfg):
            raise Refused("MOE_RUNNER_QUANTIZATION", "Invalid quantization %r: FlashInfer CuteDSL MoE "
                          "(--moe-runner-backend flashinfer_cutedsl) supports only %s (or a hybrid NVFP4 checkpoint)."
                          % (quant, ", ".join(rules["moe_cutedsl_quant"])), "quantization")
        if ep not in (1, tp):
            raise Refused("MOE_RUNNER_EP_SIZE", "The expert parallel size must be 1 or the same as the tensor parallel "
                          "size with --moe-runner-backend flashinfer_cutedsl (--ep-size %s, --tp-size %s)." % (ep, tp),
                          "ep_size")
        if a2a not in rules["moe_cutedsl_a2a"]:
            raise Refused("MOE_RUNNER_A2A", "flashinfer_cutedsl supports --moe-a2a-backend %s, got %s."
                          % (", ".join(rules["moe_cutedsl_a2a"]), a2a), "moe_a2a_backend")
        if rules["moe_cutedsl_deepep_per_token"] and a2a == "deepep" and (
                quant == "nvfp4_online" or truthy_env(env, "SGLANG_FLASHINFER_NVFP4_PER_TOKEN_ACTIVATION")):
            raise Refused("MOE_RUNNER_A2A", "flashinfer_cutedsl per-token NVFP4 activation requires "
                          "--moe-a2a-backend none or flashinfer.", "moe_a2a_backend")
    if runner in rules["moe_trtllm_runners"] and quant not in rules["moe_trtllm_quant"]:
        raise Refused("MOE_RUNNER_QUANTIZATION", "Invalid quantization %r: FlashInfer TRTLLM MoE (--moe-runner-backend "
                      "%s) supports only %s." % (quant, runner, _quant_list(rules["moe_trtllm_quant"])), "quantization")
    if runner == "flashinfer_trtllm_routed" and quant not in rules["moe_routed_quant"]:
        raise Refused("MOE_RUNNER_QUANTIZATION", "Invalid quantization %r: FlashInfer TRTLLM routed MoE "
                      "(--moe-runner-backend flashinfer_trtllm_routed) supports only %s."
                      % (quant, _quant_list(rules["moe_routed_quant"])), "quantization")
    if rules["cutlass_moe_env"] and _env_bool(env, CUTLASS_MOE_ENV):
        # -- gpu16 (session 17) --: the deprecated SGLANG_CUTLASS_MOE (0.5.11-0.5.17: srt/server_args.py, from 0.5.15
        # arg_groups/overrides.py _cutlass_moe_env_override) asserts an fp8 / mxfp8 quantization and sets the cutlass
        # runner; a checkpoint's own quantization (no --quantization) is not judged
        if quant is None and (target_cfg is None or "quantization_config" in target_cfg):
            return runner
        if quant not in ("fp8", "mxfp8"):
            raise Refused("CUTLASS_MOE_ENV", "SGLANG_CUTLASS_MOE: cutlass MoE is only supported with fp8/mxfp8 "
                          "quantization, got %r." % quant, "env." + CUTLASS_MOE_ENV)
        runner = "cutlass"
    if runner == "cutlass" and quant in ("fp8", "mxfp8") and ep != 1:
        raise Refused("MOE_RUNNER_EP_SIZE", "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1 (--ep-size %s)."
                      % ep, "ep_size")
    return runner


def _quant_list(quants):
    return ", ".join("bfloat16 (no --quantization)" if q is None else q for q in quants)


def _attn_dp_spans_tp(args, topology, tp, attn_dp):
    """Whether attention DP covers every TP rank, as the release asks it: 'dp' (--enable-dp-attention with --dp-size
    equal to --tp-size) or 'attn_dp' (an attention DP size > 1 equal to --tp-size)."""
    if topology == "dp":
        return bool(args.get("enable_dp_attention")) and get(args, "dp_size", 1) == tp
    return attn_dp > 1 and attn_dp == tp


@gate("moe_a2a_backend", context=("enable_two_batch_overlap", "enable_single_batch_overlap"))
def check_megamoe_compat(args, rules, platform):
    """--moe-a2a-backend megamoe, first in the resolution pipeline (0.5.21 on, arg_groups/mega_moe_hook.py
    check_mega_moe_compat): no two-batch / single-batch overlap, an SM90 or SM100 GPU."""
    if args["moe_a2a_backend"] != "megamoe" or not rules["a2a_megamoe_compat"]:
        return
    if args.get("enable_two_batch_overlap") or args.get("enable_single_batch_overlap"):
        raise Refused("MOE_A2A_MEGAMOE", "--moe-a2a-backend megamoe has no two-batch / single-batch overlap "
                      "decomposition: drop --enable-two-batch-overlap and --enable-single-batch-overlap.",
                      "moe_a2a_backend")
    known, sm = _sm(platform)
    if known and sm not in (90, 100, 103):
        raise Refused("MOE_A2A_MEGAMOE", "--moe-a2a-backend megamoe needs a CUDA SM90 or SM100-class GPU (this host: "
                      "%s)." % (("sm_%s" % sm) if sm else "no visible GPU"), "moe_a2a_backend")


@gate("moe_a2a_backend", "flashinfer_a2a_dispatch_type", "enable_waterfill", "enable_deepep_waterfill",
      context=("tp_size", "dp_size", "attn_dp_size", "enable_dp_attention", "deepep_mode", "moe_runner_backend",
               "quantization", "enable_two_batch_overlap", "enable_single_batch_overlap",
               "enforce_shared_experts_fusion", "deepep_v2_mode", "nnodes", "enable_deterministic_inference",
               "enable_layernorm_sp", "dtype", "chunked_prefill_size", "disaggregation_mode",
               "cuda_graph_max_bs_decode"))
def check_a2a_moe(args, rules, platform, target_cfg, runner, env):
    """handle_a2a_moe (runner: check_moe_kernel's resolved runner backend). Returns the EP size SGLang sets: the
    TP size for an a2a backend that spans the TP group (rules['a2a_ep_backends']), else None (unchanged)."""
    a2a = get(args, "moe_a2a_backend", "none")
    if args.get("enable_waterfill") and a2a not in ("deepep", "megamoe"):
        a2a = "deepep"  # 0.5.16 on (the flag's first release): Waterfill forces the DeepEP backend
    if args.get("enable_deepep_waterfill") and a2a != "deepep":
        a2a = "deepep"  # 0.5.12-0.5.15's spelling, DeepEP only
    tp = get(args, "tp_size", 1)
    attn_dp = attn_dp_of(args)
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    dispatch = args.get("flashinfer_a2a_dispatch_type")
    if a2a != "flashinfer" and dispatch not in (None, "auto"):
        raise Refused("MOE_A2A_FLASHINFER", "--flashinfer-a2a-dispatch-type requires --moe-a2a-backend flashinfer.",
                      "flashinfer_a2a_dispatch_type")
    if a2a == "flashinfer_megamoe" and rules["a2a_flashinfer_megamoe"]:
        _check_flashinfer_megamoe(args, rules, platform, target_cfg, arch, runner, tp, attn_dp, env)
    if a2a == "deepep" and runner == "flashinfer_cutedsl" and get(args, "deepep_mode", "auto") == "normal" and \
            rules["a2a_deepep_cutedsl_low_latency"]:
        raise Refused("MOE_RUNNER_A2A", "flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch: pass "
                      "--deepep-mode low_latency or auto.", "deepep_mode")
    if a2a == "deepep_v2" and rules["a2a_deepep_v2_archs"] is not None:
        _check_deepep_v2(args, rules, target_cfg, arch, runner)
    if a2a == "ascend_fuseep" and rules["a2a_ascend_fuse_mode"]:  # -- old-a (session 15) --: after nixl, before flashinfer
        check_ascend_fuse_mode(args, env)
    if a2a == "flashinfer":
        _check_flashinfer_a2a(args, rules, target_cfg, runner, tp, attn_dp, dispatch, env)
    if a2a == "mori":  # -- moe (session 14) --: its dispatch buffer (every release)
        chunk = _chunk_per_dp_rank(args, attn_dp)
        capacity = _env_int(env, "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK", 4096)
        if chunk is not None and chunk > 0 and get(args, "disaggregation_mode", "null") != "decode" and \
                capacity is not None and chunk > capacity:
            raise Refused("MOE_A2A_DISPATCH_BUDGET", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must "
                          "cover the per-rank MoRI dispatch tokens (the chunked prefill size per DP rank, %s)." % chunk,
                          "chunked_prefill_size")
    if a2a == "pplx" and rules["a2a_pplx"]:
        if get(args, "deepep_mode", "auto") == "normal":
            raise Refused("MOE_A2A_PPLX", "--moe-a2a-backend pplx only supports low-latency mode: set --deepep-mode "
                          "low_latency or auto.", "deepep_mode")
        if attn_dp < 2:  # 0.5.17-0.5.21: --enable-dp-attention with --dp-size >= 2, the same width
            raise Refused("MOE_A2A_PPLX", "--moe-a2a-backend pplx requires attention DP with at least 2 groups "
                          "(got %s)." % attn_dp, "moe_a2a_backend")
        if runner not in ("deep_gemm", "auto"):
            raise Refused("MOE_A2A_PPLX", "--moe-a2a-backend pplx is only supported with --moe-runner-backend "
                          "deep_gemm (or auto), got %s." % runner, "moe_runner_backend")
        chunk = _chunk_per_dp_rank(args, attn_dp)  # -- moe (session 14) --: its dispatch buffer
        capacity = _env_int(env, "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK", 128)
        if chunk is not None and chunk > 0 and get(args, "disaggregation_mode", "null") != "decode" and \
                capacity is not None:
            need = max(chunk, get(args, "cuda_graph_max_bs_decode", 0))
            if need > capacity:
                raise Refused("MOE_A2A_DISPATCH_BUDGET", "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 128) "
                              "must cover the per-rank pplx dispatch tokens (%s)." % need, "chunked_prefill_size")
    return tp if a2a in rules["a2a_ep_backends"] else None


def _check_flashinfer_a2a(args, rules, target_cfg, runner, tp, attn_dp, dispatch, env):
    """The FlashInfer A2A backend: its attention-DP topology, its dispatch type (0.5.20 on), its runners."""
    topology = rules["a2a_flashinfer_topology"]
    # (0.5.23: Muse Spark's prefill sequence parallelism is the one exception, with --enable-layernorm-sp, no
    # attention DP and TP4/EP4 or TP8/EP8: the A2A backend sets the EP size to the TP size)
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    muse = rules["layernorm_sp_muse"] and (target_cfg is None or arch == "MuseSparkForConditionalGeneration")
    if topology is not None and not _attn_dp_spans_tp(args, topology, tp, attn_dp) and not (
            args.get("enable_layernorm_sp") and muse and attn_dp == 1 and tp in (4, 8)):
        raise Refused("MOE_A2A_FLASHINFER", "FlashInfer MoE A2A requires attention DP over every TP rank: the "
                      "attention DP size (%s) equal to --tp-size (%s)." % (attn_dp, tp), "moe_a2a_backend")
    # -- moe (session 14) --
    # CuTe DSL NVFP4 W4A16 (0.5.19 on): BF16 dispatch, neither the NVFP4 dispatch env nor an NVFP4 dispatch type
    w4a16 = rules["a2a_cutedsl_w4a16"] and runner == "flashinfer_cutedsl" and \
        truthy_env(env, "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16")
    if w4a16 and truthy_env(env, "SGLANG_MOE_NVFP4_DISPATCH"):
        raise Refused("MOE_A2A_FLASHINFER_ENV", "CuTe DSL NVFP4 W4A16 requires BF16 FlashInfer MoE dispatch: unset "
                      "SGLANG_MOE_NVFP4_DISPATCH.", "env.SGLANG_MOE_NVFP4_DISPATCH")
    if dispatch is not None and rules["a2a_flashinfer_dispatch_type"]:
        if runner == "flashinfer_trtllm":
            runner = "flashinfer_trtllm_routed"  # A2A dispatch provides the top-k ids (SGLang warns)
        if w4a16 and dispatch in ("auto", "nvfp4"):
            raise Refused("MOE_A2A_FLASHINFER_ENV", "CuTe DSL NVFP4 W4A16 requires --flashinfer-a2a-dispatch-type bf16.",
                          "flashinfer_a2a_dispatch_type")
        if "SGLANG_MOE_NVFP4_DISPATCH" in (env or {}):
            raise Refused("MOE_A2A_FLASHINFER_ENV", "SGLANG_MOE_NVFP4_DISPATCH cannot be set together with "
                          "--flashinfer-a2a-dispatch-type.", "flashinfer_a2a_dispatch_type")
        quant = args.get("quantization")
        if dispatch == "auto":
            dispatch = "mxfp8" if quant == "mxfp8" else "nvfp4" if quant == "modelopt_fp4" else "bf16"
        if dispatch == "mxfp8" and quant != "mxfp8":
            raise Refused("MOE_A2A_FLASHINFER", "--flashinfer-a2a-dispatch-type mxfp8 requires --quantization mxfp8.",
                          "flashinfer_a2a_dispatch_type")
        if dispatch == "mxfp8" and runner != "flashinfer_trtllm_routed":
            raise Refused("MOE_A2A_FLASHINFER", "--flashinfer-a2a-dispatch-type mxfp8 requires --moe-runner-backend "
                          "flashinfer_trtllm_routed.", "flashinfer_a2a_dispatch_type")
        if dispatch == "nvfp4" and quant != "modelopt_fp4" and not _quant_metadata(target_cfg):
            raise Refused("MOE_A2A_FLASHINFER", "--flashinfer-a2a-dispatch-type nvfp4 requires NVFP4/modelopt-FP4 "
                          "quantization.", "flashinfer_a2a_dispatch_type")
    if runner not in rules["a2a_flashinfer_runners"]:
        raise Refused("MOE_A2A_FLASHINFER", "FlashInfer MoE A2A is supported with --moe-runner-backend %s only "
                      "(got %s)."
                      % (", ".join(rules["a2a_flashinfer_runners"]), runner), "moe_runner_backend")


def _check_flashinfer_megamoe(args, rules, platform, target_cfg, arch, runner, tp, attn_dp, env):
    """--moe-a2a-backend flashinfer_megamoe (0.5.20 on): validated architectures, quantization, attention DP over
    every TP rank, its own runner, an SM100 GPU."""
    if target_cfg is None:
        return
    if arch not in rules["a2a_flashinfer_megamoe"]:
        raise Refused("MOE_A2A_MEGAMOE", "FlashInfer MegaMOE is not validated for the target architecture %s." % arch,
                      "moe_a2a_backend")
    quant = args.get("quantization")
    if quant not in ("mxfp8", "modelopt_fp4") and not _quant_metadata(target_cfg) and not (
            quant == "nvfp4_online" and truthy_env(env, "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16")):
        raise Refused("MOE_A2A_MEGAMOE", "FlashInfer MegaMOE supports only MXFP8, ModelOpt NVFP4 or FP4-expert "
                      "checkpoints (got --quantization %s)." % args.get("quantization"), "quantization")
    if rules["a2a_megamoe_envs"]:
        _check_flashinfer_megamoe_envs(args, rules, target_cfg, env)
    if not _attn_dp_spans_tp(args, rules["a2a_megamoe_topology"], tp, attn_dp):
        raise Refused("MOE_A2A_MEGAMOE", "FlashInfer MegaMOE is only supported with the attention DP size (%s) equal "
                      "to --tp-size (%s)." % (attn_dp, tp), "moe_a2a_backend")
    if runner not in ("auto", "flashinfer_megamoe"):
        raise Refused("MOE_A2A_MEGAMOE", "FlashInfer MegaMOE a2a backend requires --moe-runner-backend "
                      "flashinfer_megamoe (got %s)." % runner, "moe_runner_backend")
    known, sm = _sm(platform)
    if known and sm not in (100, 103):
        raise Refused("MOE_A2A_MEGAMOE", "FlashInfer MegaMOE currently requires an SM100-family CUDA GPU (this host: "
                      "%s)." % (("sm_%s" % sm) if sm else "no visible GPU"), "moe_a2a_backend")


def _check_deepep_v2(args, rules, target_cfg, arch, runner):
    """--moe-a2a-backend deepep_v2 (0.5.19 on): registered architectures, the deep_gemm runner, no overlap, no fused
    shared experts, hybrid mode across nodes."""
    if target_cfg is not None and arch not in rules["a2a_deepep_v2_archs"]:
        raise Refused("MOE_A2A_DEEPEP_V2", "DeepEP v2 MoE is not validated for the target architecture %r." % arch,
                      "moe_a2a_backend")
    if rules["a2a_deepep_v2_deterministic"] and args.get("enable_deterministic_inference"):
        raise Refused("MOE_A2A_DEEPEP_V2", "DeepEP v2 does not forward deterministic=True: drop "
                      "--enable-deterministic-inference or use --moe-a2a-backend deepep.",
                      "enable_deterministic_inference")
    if runner not in ("auto", "deep_gemm"):
        raise Refused("MOE_A2A_DEEPEP_V2", "DeepEP v2 MoE currently supports only --moe-runner-backend deep_gemm "
                      "(got %s)." % runner, "moe_runner_backend")
    if args.get("enable_two_batch_overlap") or args.get("enable_single_batch_overlap"):
        raise Refused("MOE_A2A_DEEPEP_V2", "DeepEP v2 MoE has no two-batch / single-batch overlap hooks yet: drop "
                      "--enable-two-batch-overlap and --enable-single-batch-overlap.", "moe_a2a_backend")
    if args.get("enforce_shared_experts_fusion"):
        raise Refused("MOE_A2A_DEEPEP_V2", "DeepEP v2 MoE has not validated fused shared experts: drop "
                      "--enforce-shared-experts-fusion.", "enforce_shared_experts_fusion")
    if rules["a2a_deepep_v2_direct_nodes"] and get(args, "deepep_v2_mode", "direct") == "direct" and \
            get(args, "nnodes", 1) > 1:
        raise Refused("MOE_A2A_DEEPEP_V2", "--deepep-v2-mode direct is NVLink-only and cannot run across nodes "
                      "(--nnodes %s): pass --deepep-v2-mode hybrid." % args.get("nnodes"), "deepep_v2_mode")


# -- moe (session 14) --
def _check_flashinfer_megamoe_envs(args, rules, target_cfg, env):
    """validate_flashinfer_megamoe_envs (0.5.20 on), then (0.5.23) the NVFP4 W4A16 BF16 model dtype: after the
    architecture and quantization checks, before the attention-DP one."""
    combine = str((env or {}).get("SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE", "bf16")).strip().lower()
    w4a16 = truthy_env(env, "SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16")
    if rules["a2a_megamoe_w4a16"] and w4a16 and combine != "bf16":
        raise Refused("MOE_A2A_MEGAMOE_ENV", "FlashInfer MegaMOE NVFP4 W4A16 requires "
                      "SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE=bf16.", "env.SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE")
    if combine not in ("bf16", "mxfp8", "nvfp4"):
        raise Refused("MOE_A2A_MEGAMOE_ENV", "SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE must be one of bf16, mxfp8 or "
                      "nvfp4 (got %r)." % combine, "env.SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE")
    if combine != "bf16" and truthy_env(env, "SGLANG_FLASHINFER_MEGAMOE_IN_KERNEL_FC2_REDUCE"):
        raise Refused("MOE_A2A_MEGAMOE_ENV", "SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE=%r is incompatible with "
                      "SGLANG_FLASHINFER_MEGAMOE_IN_KERNEL_FC2_REDUCE=1." % combine,
                      "env.SGLANG_FLASHINFER_MEGAMOE_IN_KERNEL_FC2_REDUCE")
    if rules["a2a_megamoe_w4a16"] and w4a16:
        dtype = get(args, "dtype", "auto")
        if dtype == "auto":  # the checkpoint's (a float32 one is cast down: not judged)
            dtype = str((target_cfg or {}).get("torch_dtype") or (target_cfg or {}).get("dtype") or "bfloat16")
            dtype = "float16" if dtype in ("float16", "half") else "bfloat16"
        if dtype in ("float16", "half", "float32", "float"):
            raise Refused("MOE_A2A_MEGAMOE_ENV", "FlashInfer MegaMOE NVFP4 W4A16 requires --dtype bfloat16 (got %s)."
                          % dtype, "dtype")


def _env_int(env, name, default):
    """An integer environment setting SGLang reads (EnvInt), None when it does not parse (SGLang answers)."""
    try:
        return int(str((env or {}).get(name, default)).strip())
    except ValueError:
        return None


def _chunk_per_dp_rank(args, attn_dp):
    """The chunked prefill size the MoE checks read: the one given, divided by the attention-DP size under attention
    DP (the data-parallel hook); None when not given (SGLang derives it from the GPU memory)."""
    chunk = args.get("chunked_prefill_size")
    if chunk is None:
        return None
    return chunk // attn_dp if attn_dp > 1 else chunk


# MoE blocks with no fused-MoE fallback under --moe-a2a-backend megamoe (0.5.23 mega_moe_hook.py)
_MEGAMOE_NO_FALLBACK_ARCHS = ("DeepseekV4ForCausalLM", "InternS2PreviewForConditionalGeneration", "MellumForCausalLM",
                              "Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM", "Qwen3NextForCausalLM",
                              "Qwen3VLMoeForConditionalGeneration", "Qwen3_5MoeForCausalLM",
                              "Qwen3_5MoeForConditionalGeneration")


@gate("moe_a2a_backend",
      context=("chunked_prefill_size", "disaggregation_mode", "tp_size", "dp_size", "attn_dp_size", "enable_dp_attention",
               "enable_waterfill", "encoder_only", "quantization", "pp_size", "enable_dynamic_chunking",
               "enable_prefill_cp", "attn_cp_size", "cuda_graph_max_bs_decode", "max_running_requests",
               "disable_cuda_graph", "cuda_graph_backend_decode", "disable_decode_cuda_graph", "moe_runner_backend",
               "max_prefill_tokens", "ep_size"))
def check_a2a_token_budgets(args, rules, target_cfg, env, algo=None):
    """The per-rank token budgets checked right after the layernorm SP hook: the CuteDSL A2A dispatch budget
    (validate_cutedsl_a2a_token_budget, trait cutedsl_a2a_token_budget), FlashInfer A2A needs chunked prefill
    (validate_flashinfer_a2a_token_budget, 0.5.22 on), then MegaMoE's prefill budget on an architecture without a
    fused-MoE fallback (validate_mega_moe_token_budget_for_model, 0.5.21 on): its largest decode graph, then its
    prefill chunk. Only given sizes are judged (an unset chunked prefill size or decode graph batch size is derived
    from the GPU memory); the FlashInfer workspace size is not modelled."""
    a2a = get(args, "moe_a2a_backend", "none")
    if args.get("enable_waterfill") and a2a not in ("deepep", "megamoe"):
        a2a = "deepep"
    attn_dp = attn_dp_of(args)
    chunk = _chunk_per_dp_rank(args, attn_dp)
    mode = get(args, "disaggregation_mode", "null")
    # -- new19 (session 17) --: FlashInfer A2A with the CuteDSL runner given: its dispatcher's per-rank budget (the
    # env, else 1024) times the EP size (the TP size under the a2a backend: resolve.py) must cover the largest CuteDSL
    # forward, at least --max-prefill-tokens (the piecewise prefill and decode graphs can only raise it: not judged)
    max_prefill = get(args, "max_prefill_tokens", MAX_PREFILL_TOKENS)
    how = rules["cutedsl_a2a_token_budget"]
    if how and a2a == "flashinfer" and args.get("moe_runner_backend") == "flashinfer_cutedsl" \
            and is_int(max_prefill) and max_prefill > 0 and mode != "decode":
        if how == "int_env_var":  # -- moe18 (session 18) --: 0.5.13-0.5.16 get_int_env_var (0 kept, else 1024)
            per_rank = _env_int(env, "SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK", 1024)
            if per_rank is None:
                per_rank = 1024
        else:  # "envs": unset or 0 is 1024; a value that does not parse is SGLang's to answer
            per_rank = _env_int(env, "SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK", 0)
            per_rank = per_rank or (None if per_rank is None else 1024)
        ep = get(args, "ep_size", 1)
        if per_rank is not None and is_int(ep) and per_rank * ep < max_prefill:
            raise Refused("MOE_A2A_DISPATCH_BUDGET", "FlashInfer MoE A2A with flashinfer_cutedsl requires "
                          "SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK (%d) * ep_size (%d) to cover the largest "
                          "CuteDSL MoE forward (at least --max-prefill-tokens %d): set it to %d or lower "
                          "--max-prefill-tokens." % (per_rank, ep, max_prefill, -(-max_prefill // ep)), "env")
    if a2a == "flashinfer" and rules["a2a_flashinfer_chunked_prefill"] and mode != "decode" and \
            chunk is not None and chunk <= 0:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "FlashInfer MoE A2A requires chunked prefill: --chunked-prefill-size "
                      "must be > 0 (per DP rank: %s)." % chunk, "chunked_prefill_size")
    if a2a == "flashinfer" and rules["a2a_flashinfer_chunked_prefill"] and \
            "SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK" not in (env or {}):
        # its workspace, sized from the prefill buffer (at least 4096 tokens), against the largest decode graph
        graph = _decode_graph_tokens(args, attn_dp, algo, ceil_align_requests=False) if mode != "prefill" else None
        workspace = max(chunk if chunk is not None and chunk > 0 else 0, 4096)
        if graph is not None and chunk is not None and graph > workspace:
            raise Refused("MOE_A2A_DISPATCH_BUDGET", "FlashInfer MoE A2A per-rank token budget (%d tokens of the largest "
                          "decode graph) exceeds its workspace (%d)." % (graph, workspace), "cuda_graph_max_bs_decode")
    if a2a != "megamoe" or not rules["megamoe_token_budget"] or args.get("encoder_only") or target_cfg is None:
        return
    arch = (target_cfg.get("architectures") or [None])[0]
    if arch not in _MEGAMOE_NO_FALLBACK_ARCHS and args.get("quantization") not in ("modelopt_fp4", "minimax_m3_nvfp4"):
        return  # (an FP4 checkpoint's own quant_algo too: read by the host's SGLang)
    label = arch
    capacity = _env_int(env, "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK", 8192)
    graph = _decode_graph_tokens(args, attn_dp, algo, ceil_align_requests=True)
    if mode != "prefill" and graph is not None and capacity is not None and graph > capacity:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "%s with MegaMoE needs %d tokens per rank for its largest decode graph, "
                      "over SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK (%d)." % (label, graph, capacity),
                      "cuda_graph_max_bs_decode")
    if mode == "decode" or chunk is None or (get(args, "pp_size", 1) > 1 and args.get("enable_dynamic_chunking")):
        return
    if chunk <= 0:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "%s with MegaMoE requires chunked prefill: --chunked-prefill-size must "
                      "be positive (per DP rank: %s)." % (label, chunk), "chunked_prefill_size")
    tp, cp = get(args, "tp_size", 1), get(args, "attn_cp_size", 1)
    if args.get("enable_prefill_cp"):
        local, align = -(-chunk // cp), 1
    elif attn_dp > 1:
        local, align = chunk // attn_dp, max(tp // attn_dp // cp, 1)
    else:
        local, align = chunk, max(tp // cp, 1)
    if local <= 0:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "%s with MegaMoE requires a positive effective per-rank chunked prefill "
                      "size (%s)." % (label, local), "chunked_prefill_size")
    need = -(-local // align) * align
    if capacity is not None and need > capacity:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "%s with MegaMoE needs %d prefill tokens per rank, over "
                      "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK (%d)." % (label, need, capacity),
                      "chunked_prefill_size")


@gate("moe_a2a_backend", "speculative_moe_a2a_backend",
      context=("chunked_prefill_size", "max_prefill_tokens", "disaggregation_mode", "tp_size", "dp_size", "attn_dp_size",
               "enable_dp_attention", "pp_size", "enable_dynamic_chunking", "cuda_graph_max_bs_decode",
               "max_running_requests", "disable_cuda_graph", "cuda_graph_backend_decode", "disable_decode_cuda_graph"))
def check_deepep_v2_late(args, rules, algo, env):
    """The DeepEP v2 checks at the end of the resolution pipeline (0.5.19 on, after the KV sharding re-run): no DeepEP v2
    speculative draft backend (validate_deepep_v2_speculative_draft), then its per-rank prefill dispatch budget on a
    given chunked prefill size (validate_deepep_v2_dispatch_token_budget; 0.5.22 on the chunk is scattered over the
    TP ranks of a DP group, trait a2a_deepep_v2_prefill_scatter), then its decode graph on a given
    --cuda-graph-max-bs-decode."""
    if rules["a2a_deepep_v2_archs"] is None:
        return
    a2a = get(args, "moe_a2a_backend", "none")
    draft = args.get("speculative_moe_a2a_backend")
    if draft is None and algo is not None and algo != "NGRAM":
        draft = a2a
    if draft == "deepep_v2":
        raise Refused("MOE_A2A_DEEPEP_V2", "DeepEP v2 MoE is not validated as a speculative draft backend: select "
                      "another --speculative-moe-a2a-backend.", "speculative_moe_a2a_backend")
    if a2a != "deepep_v2":
        return
    attn_dp = attn_dp_of(args)
    chunk = _chunk_per_dp_rank(args, attn_dp)
    mode = get(args, "disaggregation_mode", "null")
    capacity = _env_int(env, "SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK", 128)
    if capacity is None:
        return
    if chunk is not None and mode != "decode" and not (get(args, "pp_size", 1) > 1 and args.get("enable_dynamic_chunking")):
        ceiling = chunk if chunk > 0 else get(args, "max_prefill_tokens", MAX_PREFILL_TOKENS)
        if rules["a2a_deepep_v2_prefill_scatter"]:
            ceiling = -(-ceiling // max(1, get(args, "tp_size", 1) // attn_dp))
        if ceiling > capacity:
            raise Refused("MOE_A2A_DISPATCH_BUDGET", "DeepEP v2 per-rank prefill budget (%d tokens) exceeds "
                          "SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK (%d): lower --chunked-prefill-size."
                          % (ceiling, capacity), "chunked_prefill_size")
    graph = _decode_graph_tokens(args, attn_dp, algo, ceil_align_requests=False)
    if mode != "prefill" and graph is not None and graph > capacity:
        raise Refused("MOE_A2A_DISPATCH_BUDGET", "DeepEP v2 per-rank decode CUDA graph (%d tokens) exceeds "
                      "SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK (%d): lower --cuda-graph-max-bs-decode."
                      % (graph, capacity), "cuda_graph_max_bs_decode")


def _decode_graph_tokens(args, attn_dp, algo, ceil_align_requests):
    """The tokens of the largest decode CUDA graph on one rank, from a given --cuda-graph-max-bs-decode (capped by the
    per-rank request pool), without speculation and with the decode graph on; None when the flags do not fix it."""
    max_bs = args.get("cuda_graph_max_bs_decode")
    if max_bs is None or algo is not None or args.get("disable_cuda_graph") or args.get("disable_decode_cuda_graph") or \
            args.get("cuda_graph_backend_decode") == "disabled":
        return None
    mrr = args.get("max_running_requests")
    if mrr is not None:
        if ceil_align_requests:  # mega_moe_hook.py: ceil_align(requests per DP rank, TP ranks per DP rank)
            step = max(get(args, "tp_size", 1) // attn_dp, 1)
            per_rank = -(-(mrr // attn_dp) // step) * step
        else:
            per_rank = max(1, mrr // attn_dp)
        max_bs = min(max_bs, per_rank)
    return max_bs
