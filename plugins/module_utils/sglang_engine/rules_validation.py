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

import ipaddress
import json

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, truthy_env
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import attn_dp_enabled

AUX_CAPTURE_METHODS = ("EAGLE3", "DFLASH", "DSPARK")


@gate("prefill_decode_interval", "prefill_decode_interval_min_bs", "enable_response_store", "sampling_mask_max_tokens",
      context=("disaggregation_mode",))
def check_early(args, env, rules):
    """validate_prefill_decode_interval, validate_response_store, validate_sampling_mask_max_tokens: the first
    hooks of the resolution pipeline, before the SSL pairing (0.5.19 on, where the flags exist: each check is in
    every release with its flag). The caller also enters it when env holds SGLANG_DISAGGREGATION_SAMPLING_MASK_
    MAX_TOKENS (the sampling-mask hook refuses it set at all, 0.5.20 on)."""
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
    check_sampling_mask_env(env, rules)
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
               "attn_dp_size", "ep_join_mode", "enforce_shared_experts_fusion", "enable_deepep_waterfill",
               "enable_waterfill"))
def check_misc(args, r, rules, stage):
    """check_server_args' checks around the metrics exporter, in its order: stage "before_export" runs after the
    schedule conservativeness (the MindSpore impl, InstantTensor, the custom metric labels; each in every release
    with its flag or choice), stage "after_export" after the export dir check (two-batch overlap without an EP
    all-to-all backend: refused, or with attention DP only, trait tbo_none_a2a; then with fused shared experts, trait
    tbo_shared_fusion_refused), and stage "after_quant" after the
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
        # attention DP as the hooks read it after the data-parallel defaults (attn_dp_enabled_of from 0.5.22)
        attn_dp = how == "attn_dp" and attn_dp_enabled(args, rules)
        # -- moe18 (session 18) --: the a2a backend after the MoE hook: DeepEP Waterfill (0.5.12-0.5.15
        # --enable-deepep-waterfill, 0.5.16 on --enable-waterfill unless megamoe) forces deepep
        a2a = get(args, "moe_a2a_backend", "none")
        waterfill = args.get("enable_deepep_waterfill") or (args.get("enable_waterfill") and a2a != "megamoe")
        if waterfill:
            a2a = "deepep"
        if args.get("enable_two_batch_overlap") and a2a == "none" and not attn_dp:
            raise Refused("TWO_BATCH_OVERLAP", "--enable-two-batch-overlap without an EP all-to-all backend "
                          "(--moe-a2a-backend none) %s in SGLang %s." % (
                              "is refused" if how == "refused" else "requires attention DP", rules["version"]),
                          "enable_two_batch_overlap")
        # -- moe18 (session 18) --: 0.5.12-0.5.13 check_server_args: no two-batch overlap with fused shared experts
        # (--enforce-shared-experts-fusion, or the one DeepEP Waterfill sets in _handle_a2a_moe)
        if rules["tbo_shared_fusion_refused"] and args.get("enable_two_batch_overlap") and (
                args.get("enforce_shared_experts_fusion") or args.get("enable_deepep_waterfill")):
            raise Refused("TWO_BATCH_OVERLAP", "--enable-two-batch-overlap and --enforce-shared-experts-fusion cannot "
                          "be used together (DeepEP Waterfill enforces shared experts fusion) in SGLang %s."
                          % rules["version"], "enable_two_batch_overlap")
    elif args.get("sampling_backend") == "intel_xpu" and device != "xpu":
        raise Refused("SAMPLING_BACKEND_DEVICE", "--sampling-backend intel_xpu requires --device xpu, got --device %s."
                      % device, "sampling_backend")


@gate("enable_watermark", "watermark_config", context=("device", "enable_custom_logit_processor", "dllm_algorithm",
                                                       "disaggregation_mode", "speculative_use_rejection_sampling"))
def check_watermark(args, env, r, rules, algo):
    """check_watermark_server_args, the last of check_server_args (0.5.22 on: watermark_algorithms). The key,
    window and probability checks read --watermark-config, a file on the host (its loader runs at the start of
    resolution): not modelled; their defaults pass."""
    allowed = rules["watermark_algorithms"]
    if allowed is None:
        return
    if args.get("watermark_config") is not None and not args.get("enable_watermark"):
        raise Refused("WATERMARK_CONFIG", "--watermark-config requires --enable-watermark.", "watermark_config")
    if not args.get("enable_watermark"):
        return
    device = str(r.get("device") or "cuda")
    if device != "cuda":
        raise Refused("WATERMARK_DEVICE", "--enable-watermark requires --device cuda, got %s." % device, "device")
    if args.get("watermark_config") is not None:
        check_watermark_config_values(args)
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


# -- validation (session 14) --
SAMPLING_MASK_ENV = "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS"
_WATERMARK_FIELDS = ("key", "key_b", "context_window", "mixing_probability", "max_probability", "default_enabled",
                     "enforce_all")


def check_sampling_mask_env(env, rules):
    """validate_sampling_mask_max_tokens' first check (0.5.20 on: trait sampling_mask_env_refused), after the
    response-store check: the retired env name set at all refuses the start."""
    if rules["sampling_mask_env_refused"] and SAMPLING_MASK_ENV in env:
        raise Refused("SAMPLING_MASK_ENV", "%s is no longer supported: unset it (sampling masks for disaggregated "
                      "serving take SGLANG_ENABLE_DISAGG_SAMPLING_MASK=1 and --sampling-mask-max-tokens)."
                      % SAMPLING_MASK_ENV, "env")


def _watermark_key_error(value):
    """parse_watermark_key's refusal for a config key, or None."""
    if not isinstance(value, str):
        return "watermark key must be a hex string"
    digits = value[2:] if value.lower().startswith("0x") else value
    if not 1 <= len(digits) <= 16:
        return "watermark key must contain 1 to 16 hex digits"
    if any(c not in "0123456789abcdefABCDEF" for c in digits):
        return "watermark key must contain only hex digits"
    return None


@gate("watermark_config")
def load_watermark_config(args):
    """handle_watermark_config (0.5.22 on, where --watermark-config exists), after the mega-MoE hook and before the
    early validations: an inline JSON object (the value starts with '{') is checked as load_watermark_config
    does; a file path is read on the host (not modelled: None). Returns the fields the config sets."""
    source = args.get("watermark_config")
    if source is None or not str(source).lstrip().startswith("{"):
        return None

    def refuse(why):
        raise Refused("WATERMARK_CONFIG", "--watermark-config: %s." % why, "watermark_config")

    if len(str(source).encode("utf-8")) > 4096:
        refuse("watermark config exceeds 4096 bytes")
    try:
        raw = json.loads(source)
    except ValueError:
        refuse("failed to read watermark config JSON")
    if not isinstance(raw, dict):
        refuse("watermark config must be a JSON object")
    if set(raw) - set(_WATERMARK_FIELDS):
        refuse("watermark config contains unknown fields")
    for name in ("key", "key_b"):
        if raw.get(name) is not None:
            why = _watermark_key_error(raw[name])
            if why:
                refuse(why)
    window = raw.get("context_window")
    if window is not None and (isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= 64):
        refuse("watermark config context_window must be an integer from 1 to 64")
    for name in ("mixing_probability", "max_probability"):
        value = raw.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            refuse("watermark config %s must be a number" % name)
    for name in ("default_enabled", "enforce_all"):
        if raw.get(name) is not None and not isinstance(raw[name], bool):
            refuse("watermark config %s must be a boolean" % name)
    return {k: v for k, v in raw.items() if v is not None}


@gate("watermark_config")
def check_watermark_config_values(args):
    """check_watermark_server_args' config checks, right after the device one (0.5.22 on): the values an inline
    --watermark-config sets over the defaults (context window 4, mixing probability 0.5, max probability 1.0)."""
    cfg = load_watermark_config(args) or {}
    key, key_b = cfg.get("key"), cfg.get("key_b")
    mixing = cfg.get("mixing_probability", 0.5)
    if key_b is not None and key is None:
        raise Refused("WATERMARK_CONFIG", "watermark key_b requires a server key (--watermark-config).",
                      "watermark_config")
    if not 0 < mixing < 1:
        raise Refused("WATERMARK_CONFIG", "watermark mixing_probability must be strictly between 0 and 1, got %s."
                      % mixing, "watermark_config")
    if key_b is None and mixing != 0.5:
        raise Refused("WATERMARK_CONFIG", "watermark mixing_probability requires key_b (--watermark-config).",
                      "watermark_config")
    if not 0 < cfg.get("max_probability", 1.0) <= 1:
        raise Refused("WATERMARK_CONFIG", "watermark max_probability must be greater than 0 and at most 1, got %s."
                      % cfg["max_probability"], "watermark_config")
    if (cfg.get("default_enabled") or cfg.get("enforce_all")) and key is None:
        raise Refused("WATERMARK_CONFIG", "watermark default_enabled and enforce_all require a server key "
                      "(--watermark-config).", "watermark_config")


@gate("load_publish_endpoint", context=("kv_events_config", "dp_size", "enable_dp_attention", "attn_dp_size"))
def check_load_publish(args):
    """check_load_publish_args, after the watermark checks at the end of check_server_args (0.5.19 on, where
    --load-publish-endpoint exists): an endpoint other than off needs a parseable --kv-events-config (JSON) with
    an active publisher and an endpoint, then a load port range resolve_load_pub_range can place (wildcard-host
    tcp:// addresses, clear of the KV event and replay ranges, under the u16 ceiling)."""
    mode = str(args.get("load_publish_endpoint") or "").strip()
    if not mode or mode.lower() == "off":
        return
    source = args.get("kv_events_config")
    if not source:
        raise Refused("LOAD_PUBLISH", "--load-publish-endpoint requires --kv-events-config: routers discover the load "
                      "range through /server_info's kv_events block.", "kv_events_config")
    try:
        cfg = json.loads(source)
    except ValueError:
        cfg = None
    if not isinstance(cfg, dict) or any(not isinstance(cfg[k], str) for k in ("publisher", "endpoint") if k in cfg):
        raise Refused("LOAD_PUBLISH", "--kv-events-config is not parseable: give a JSON object.", "kv_events_config")
    if cfg.get("publisher", "null") == "null" or not cfg.get("endpoint", "tcp://*:5557"):
        raise Refused("LOAD_PUBLISH", "--load-publish-endpoint needs an active --kv-events-config publisher; got "
                      "publisher='null' or an empty endpoint.", "kv_events_config")
    why = _load_pub_range_reason(cfg.get("endpoint", "tcp://*:5557"), cfg.get("replay_endpoint"), mode,
                                 get(args, "dp_size", 1) * (1 if args.get("enable_dp_attention") else
                                                            get(args, "attn_dp_size", 1)))
    if why:
        raise Refused("LOAD_PUBLISH", why + ".", "load_publish_endpoint")


def _tcp_address(endpoint):
    """NetworkAddress.parse of a tcp:// endpoint: (host, port), or None."""
    if not endpoint or not str(endpoint).startswith("tcp://"):
        return None
    addr = str(endpoint)[len("tcp://"):]
    if addr.startswith("["):
        close = addr.find("]")
        host, rest = addr[1:close], addr[close + 1:]
        if close == -1 or not _is_ipv6(host) or not rest.startswith(":") or len(rest) < 2:
            return None
        port = rest[1:]
    else:
        if ":" not in addr:
            return None
        host, port = addr.rsplit(":", 1)
        if not host or (":" in host and _is_ipv6(host)):
            return None
    try:
        port = int(port)
    except ValueError:
        return None
    return (host, port) if 0 <= port <= 65535 else None


def _is_ipv6(host):
    try:
        ipaddress.IPv6Address(host)
    except ValueError:
        return False
    return True


def _tcp_port(endpoint):
    addr = _tcp_address(endpoint)
    return addr[1] if addr and 0 < addr[1] <= 65535 else None


def _bindable(endpoint):
    addr = _tcp_address(endpoint)
    return addr if addr and addr[0] in ("*", "0.0.0.0", "::") and 0 < addr[1] <= 65535 else None


def _load_pub_range_reason(kv_endpoint, replay_endpoint, mode, dp_size):
    """resolve_load_pub_range's reason (0.5.19-0.5.23, srt/disaggregation/kv_events.py), or None."""
    if dp_size < 1:
        return None
    if mode.lower() == "auto":
        resolved = _bindable(kv_endpoint)
        if resolved is None:
            return "--load-publish-endpoint=auto needs a bindable wildcard-host tcp:// --kv-events-config endpoint " \
                   "to pack after; %r is not one" % kv_endpoint
        base = resolved[1] + dp_size
        replay = _tcp_port(replay_endpoint)
        if replay is not None and base < replay + dp_size and replay < base + dp_size:
            base = replay + dp_size
    else:
        if _tcp_port(kv_endpoint) is None:
            return "--load-publish-endpoint=%r needs a routable tcp:// --kv-events-config endpoint (endpoint %r)" % (
                mode, kv_endpoint)
        resolved = _bindable(mode)
        if resolved is None:
            return "--load-publish-endpoint=%r is not a bindable tcp:// address (a concrete host would be connected " \
                   "to, not bound)" % mode
        base = resolved[1]
        for port in (_tcp_port(kv_endpoint), _tcp_port(replay_endpoint)):
            if port is not None and base < port + dp_size and port < base + dp_size:
                return "--load-publish-endpoint range [%s, %s) overlaps the kv-events range [%s, %s)" % (
                    base, base + dp_size, port, port + dp_size)
    if base + dp_size - 1 > 65535:
        return "load port range from %s would run past the u16 ceiling" % base
    return None


def check_pp_dspark(args, env):
    """DSPARK with pp_size > 1 (trait pp_spec_dspark "prefill", 0.5.21 on): check_pipeline_parallel_compat's DSPARK
    branch takes a PD prefill server without SGLANG_ENABLE_PP_SPEC. Its PD-prefill assert is shadowed: the DSPARK
    hook (rules_speculative.resolve_dspark) refuses pp > 1 off a PD prefill server first, as it refuses any pp > 1
    in 0.5.16-0.5.20."""
    if truthy_env(env, "SGLANG_ENABLE_PP_SPEC"):
        raise Refused("PP_SPEC_ENV", "SGLANG_ENABLE_PP_SPEC does not support DSPARK PD prefill: remove it from env.",
                      "env")


@gate("disaggregation_ib_device", context=("disaggregation_transfer_backend", "disaggregation_mode",
                                           "encoder_transfer_backend"))
def check_ib_device_blank(args):
    """validate_ib_devices' first check (every release 0.5.11-0.5.23), which the encoder-disaggregation hook runs
    for a mooncake PD server (or a mooncake encoder transfer): a --disaggregation-ib-device of blanks names no
    device. Everything after it reads /sys/class/infiniband on the host: not modelled."""
    value = args.get("disaggregation_ib_device")
    mooncake = (get(args, "disaggregation_transfer_backend", "mooncake") == "mooncake" and
                get(args, "disaggregation_mode", "null") in ("prefill", "decode")) or \
        args.get("encoder_transfer_backend") == "mooncake"
    if mooncake and value is not None and not str(value).strip():
        raise Refused("IB_DEVICE", "No valid IB devices specified: --disaggregation-ib-device %r names none." % value,
                      "disaggregation_ib_device")
