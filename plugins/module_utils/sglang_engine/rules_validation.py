# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Refusals of SGLang's validation hook (0.5.23 srt/arg_groups/validation_hook.py; through 0.5.18 the same
checks in srt/server_args.py) that need flags only: the early validations the resolution pipeline runs before
the SSL check (prefill-decode interval, response store, sampling mask, aux hidden-state capture), the plain
check_server_args checks beside the ones resolve._check_server_args_values holds, and the watermark checks.
Each group is gated (common.gate): a validation that sets none of its keys skips it with one set operation.
Per-release differences are traits (releases.py). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, truthy_env

AUX_CAPTURE_METHODS = ("EAGLE3", "DFLASH", "DSPARK")


@gate("prefill_decode_interval", "prefill_decode_interval_min_bs", "enable_response_store", "sampling_mask_max_tokens",
      context=("disaggregation_mode",))
def check_early(args):
    """validate_prefill_decode_interval, validate_response_store, validate_sampling_mask_max_tokens: the first
    hooks of the resolution pipeline, before the SSL pairing (0.5.19 on, where the flags exist: each check is in
    every release with its flag). The env half of the sampling-mask hook (SGLANG_DISAGGREGATION_SAMPLING_MASK_
    MAX_TOKENS set at all) is not modelled: the engine refuses that env name earlier as a secret (ENV_SECRET)."""
    interval = args.get("prefill_decode_interval")
    if interval is not None and interval < 0:
        raise Refused("PREFILL_DECODE_INTERVAL", "--prefill-decode-interval must be non-negative, got %s." % interval,
                      "prefill_decode_interval")
    if get(args, "prefill_decode_interval_min_bs", 0) < 0:
        raise Refused("PREFILL_DECODE_INTERVAL", "--prefill-decode-interval-min-bs must be non-negative, got %s."
                      % args["prefill_decode_interval_min_bs"], "prefill_decode_interval_min_bs")
    if args.get("enable_response_store") and get(args, "disaggregation_mode", "null") != "null":
        raise Refused("RESPONSE_STORE_PD", "--enable-response-store is not supported with --disaggregation-mode %s: "
                      "response storage stays off in PD mode." % args["disaggregation_mode"], "enable_response_store")
    mask = args.get("sampling_mask_max_tokens")
    if mask is not None and mask <= 0:
        raise Refused("SAMPLING_MASK_MAX_TOKENS", "--sampling-mask-max-tokens must be positive, got %s." % mask,
                      "sampling_mask_max_tokens")


@gate("enable_return_aux_hidden_states", "return_aux_hidden_state_layer_ids",
      context=("speculative_algorithm", "speculative_draft_model_path", "pp_size"))
def check_aux_hidden_state_capture(args):
    """handle_aux_hidden_state_capture (0.5.23, where the flags exist), right after the early validations and
    before anything reads the speculative algorithm. Returns True when the capture is on: SGLang then resets
    speculative_algorithm to None (the algorithm only names the capture convention; no speculation runs)."""
    layer_ids = args.get("return_aux_hidden_state_layer_ids")
    if not args.get("enable_return_aux_hidden_states"):
        if layer_ids is not None:
            raise Refused("AUX_HIDDEN_STATES", "--return-aux-hidden-state-layer-ids requires "
                          "--enable-return-aux-hidden-states.", "return_aux_hidden_state_layer_ids")
        return False
    method = str(args.get("speculative_algorithm") or "").upper()
    if method not in AUX_CAPTURE_METHODS:
        raise Refused("AUX_HIDDEN_STATES", "--enable-return-aux-hidden-states needs --speculative-algorithm %s to name "
                      "the capture convention, got %s." % (" / ".join(AUX_CAPTURE_METHODS),
                                                           args.get("speculative_algorithm")), "speculative_algorithm")
    if args.get("speculative_draft_model_path") is not None:
        raise Refused("AUX_HIDDEN_STATES", "--enable-return-aux-hidden-states captures without a draft: drop "
                      "--speculative-draft-model-path.", "speculative_draft_model_path")
    if get(args, "pp_size", 1) != 1:
        raise Refused("AUX_HIDDEN_STATES", "--enable-return-aux-hidden-states only supports --pp-size 1 (the capture "
                      "hooks see the last pipeline rank's layers only).", "pp_size")
    if method != "EAGLE3" and not layer_ids:
        raise Refused("AUX_HIDDEN_STATES", "--enable-return-aux-hidden-states with %s requires "
                      "--return-aux-hidden-state-layer-ids." % method, "return_aux_hidden_state_layer_ids")
    if layer_ids is not None:
        if any(i < 0 for i in layer_ids):
            raise Refused("AUX_HIDDEN_STATES", "--return-aux-hidden-state-layer-ids must be non-negative, got %s."
                          % list(layer_ids), "return_aux_hidden_state_layer_ids")
        if len(set(layer_ids)) != len(layer_ids):
            raise Refused("AUX_HIDDEN_STATES", "--return-aux-hidden-state-layer-ids must not repeat a layer, got %s."
                          % list(layer_ids), "return_aux_hidden_state_layer_ids")
    return True


def check_pdmux(args, r):
    """check_server_args' PD-Multiplexing checks, right after the chunked-prefill one (every release 0.5.11-0.5.23).
    The caller runs it when --enable-pdmux is given. Unset, --chunked-prefill-size takes a positive default."""
    if r["pp_size"] != 1:
        raise Refused("PDMUX", "PD-Multiplexing is only supported with --pp-size 1.", "enable_pdmux")
    if get(args, "chunked_prefill_size", 0) != -1:
        raise Refused("PDMUX", "PD-Multiplexing is not compatible with chunked prefill: set --chunked-prefill-size -1.",
                      "chunked_prefill_size")
    if get(args, "disaggregation_mode", "null") != "null":
        raise Refused("PDMUX", "PD-Multiplexing is not compatible with --disaggregation-mode.", "enable_pdmux")
    if not r.get("disable_overlap_schedule"):
        raise Refused("PDMUX", "PD-Multiplexing is not compatible with the overlap schedule: add "
                      "--disable-overlap-schedule.", "disable_overlap_schedule")


@gate("disable_cuda_graph_padding", "enable_torch_compile")
def check_cuda_graph_padding(args, rules):
    """check_server_args, right after the micro-batch size check, before the pipeline-parallel ones (0.5.12 on:
    cuda_graph_padding_torch_compile_check)."""
    if rules["cuda_graph_padding_torch_compile_check"] and args.get("disable_cuda_graph_padding") and \
            args.get("enable_torch_compile"):
        raise Refused("CUDA_GRAPH_PADDING_TORCH_COMPILE", "--disable-cuda-graph-padding is incompatible with "
                      "--enable-torch-compile (one compilation per batch size stalls start-up for minutes): drop one.",
                      "disable_cuda_graph_padding")


def check_pp_min_free_slots(args, rules):
    """The last assert of the pipeline-parallel checks (check_pipeline_parallel_compat; 0.5.18 on:
    pp_min_free_slots_check). The caller runs it for pp_size > 1 once the speculative pp checks passed."""
    if rules["pp_min_free_slots_check"] and args.get("min_free_slots_delay") is not None:
        raise Refused("PP_MIN_FREE_SLOTS", "--min-free-slots-delay is not supported with pipeline parallelism (the "
                      "allocatable slots per micro-batch are bounded by --pp-max-micro-batch-size).", "min_free_slots_delay")


@gate("model_impl", "load_format", "enable_two_batch_overlap", "sampling_backend", "tokenizer_metrics_allowed_custom_labels",
      context=("device", "tokenizer_metrics_custom_labels_header", "moe_a2a_backend", "enable_dp_attention", "dp_size",
               "attn_dp_size"))
def check_misc(args, r, rules, stage):
    """check_server_args' checks around the metrics exporter, in its order: stage "before_export" runs after the
    schedule conservativeness (the MindSpore impl, InstantTensor, the custom metric labels; each in every release
    with its flag or choice), stage "after_export" after the export dir check (two-batch overlap without an EP
    all-to-all backend: refused, or with attention DP only, trait tbo_none_a2a), and stage "after_quant" after the
    communications quantization checks (the intel_xpu sampling backend needs --device xpu: its choice from
    0.5.21, the check with it)."""
    device = str(r.get("device") or "cuda")
    if stage == "before_export":
        if args.get("model_impl") == "mindspore" and device != "npu":
            raise Refused("MODEL_IMPL_MINDSPORE", "--model-impl mindspore is only supported on Ascend NPU.", "model_impl")
        if args.get("load_format") == "instanttensor" and device != "cuda":
            raise Refused("LOAD_FORMAT_INSTANTTENSOR", "--load-format instanttensor requires a CUDA-compatible device, "
                          "got --device %s." % device, "load_format")
        if args.get("tokenizer_metrics_allowed_custom_labels") and not get(
                args, "tokenizer_metrics_custom_labels_header", "x-custom-labels"):
            raise Refused("METRICS_CUSTOM_LABELS", "--tokenizer-metrics-allowed-custom-labels needs "
                          "--tokenizer-metrics-custom-labels-header.", "tokenizer_metrics_custom_labels_header")
    elif stage == "after_export":
        how = rules["tbo_none_a2a"]
        if how == "attn_dp":
            attn_dp = (bool(args.get("enable_dp_attention")) and get(args, "dp_size", 1) > 1) or \
                get(args, "attn_dp_size", 1) > 1
        else:
            attn_dp = how == "dp_attention_flag" and bool(args.get("enable_dp_attention"))
        if args.get("enable_two_batch_overlap") and get(args, "moe_a2a_backend", "none") == "none" and not attn_dp:
            raise Refused("TWO_BATCH_OVERLAP", "--enable-two-batch-overlap without an EP all-to-all backend "
                          "(--moe-a2a-backend none) %s in SGLang %s." % (
                              "is refused" if how == "refused" else "requires attention DP", rules["version"]),
                          "enable_two_batch_overlap")
    elif args.get("sampling_backend") == "intel_xpu" and device != "xpu":
        raise Refused("SAMPLING_BACKEND_DEVICE", "--sampling-backend intel_xpu requires --device xpu, got --device %s."
                      % device, "sampling_backend")


@gate("enable_watermark", context=("device", "enable_custom_logit_processor", "dllm_algorithm", "disaggregation_mode",
                                   "speculative_use_rejection_sampling"))
def check_watermark(args, env, r, rules, algo):
    """check_watermark_server_args, the last of check_server_args (0.5.22 on: watermark_algorithms). The key,
    window and probability checks read --watermark-config, a file on the host (its loader runs at the start of
    resolution): not modelled; their defaults pass."""
    allowed = rules["watermark_algorithms"]
    if allowed is None or not args.get("enable_watermark"):
        return
    device = str(r.get("device") or "cuda")
    if device != "cuda":
        raise Refused("WATERMARK_DEVICE", "--enable-watermark requires --device cuda, got %s." % device, "device")
    if args.get("enable_custom_logit_processor"):
        raise Refused("WATERMARK_CONFLICT", "--enable-watermark is incompatible with --enable-custom-logit-processor.",
                      "enable_custom_logit_processor")
    if args.get("dllm_algorithm") is not None:
        raise Refused("WATERMARK_CONFLICT", "--enable-watermark is not supported with diffusion LLM (--dllm-algorithm).",
                      "dllm_algorithm")
    if get(args, "disaggregation_mode", "null") != "null":
        raise Refused("WATERMARK_CONFLICT", "--enable-watermark is not supported with PD disaggregation.",
                      "disaggregation_mode")
    if algo is not None and algo not in allowed:
        raise Refused("WATERMARK_ALGORITHM", "--enable-watermark supports speculative algorithms %s, got %r." % (
            ", ".join(allowed), algo), "enable_watermark")
    if r["pp_size"] > 1 and algo is not None:
        raise Refused("WATERMARK_CONFLICT", "--enable-watermark is not supported with pipeline-parallel speculative "
                      "decoding.", "pp_size")
    if args.get("speculative_use_rejection_sampling"):
        raise Refused("WATERMARK_CONFLICT", "--enable-watermark is incompatible with "
                      "--speculative-use-rejection-sampling.", "speculative_use_rejection_sampling")
    if truthy_env(env, "SGLANG_RUST_SERVER"):
        raise Refused("WATERMARK_CONFLICT", "--enable-watermark is not supported with SGLANG_RUST_SERVER.", "env")
