# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Refusals of SGLang's serving hook (0.5.23 srt/arg_groups/serving_hook.py; through 0.5.18 srt/server_args.py)
that need flags only, each in every release that has its flag: the HTTP worker and HTTP/2 values of the SSL hook,
the ASR limits, the gRPC / sidecar checks of handle_deprecated_args (right after the SSL pairing, in that order),
and the tokenizer batching choice (after the speculative hook). Not modelled: the SSL files and the granian package
(--enable-http2), which exist on the host only. stdlib only."""
from __future__ import annotations

import json

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, truthy_env

GRPC_ENV = "SGLANG_GRPC_PORT"  # an env that sets the gRPC port without any gate key given
_BAD_JSON = object()


def _json(raw):
    """A JSON-typed flag's value as SGLang's parser decodes it (the engine's parser keeps the text); _BAD_JSON
    where it does not decode (argparse refuses it first: not judged here)."""
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return _BAD_JSON


def _env_int(env, name, default):
    """envs.EnvInt.get(): int(value), the default when unset or not an integer (SGLang warns)."""
    raw = (env or {}).get(name)
    if raw is None:
        return default
    try:
        return int(str(raw))
    except ValueError:
        return default


@gate("enable_http_worker_reuseport", "http2_max_concurrent_streams", "http2_initial_connection_window_size",
      "asr_max_buffer_seconds", "asr_max_concurrent_sessions", "grpc_response_timeout_secs", "grpc_port", "sidecar",
      "sidecar_args", "image_processor_backend", "smg_grpc_mode", "grpc_mode", "port",
      context=("tokenizer_worker_num", "enable_http2", "use_ray", "encoder_only", "api_key", "admin_api_key",
               "disable_fast_image_processor"))
def check_serving(args, env=None, rules=None):
    """The SSL hook's HTTP worker / HTTP/2 values, the ASR limits, then handle_deprecated_args: the image processor
    conflict, the gRPC port (given, else SGLANG_GRPC_PORT, else --port + 10000 for the legacy SMG server: every
    release with --grpc-port, 0.5.16 on), SGLANG_GRPC_WORKER_THREADS, the sidecar and the native server's limits.
    Entered with a gate key given or SGLANG_GRPC_PORT in env (GRPC_ENV)."""
    if args.get("enable_http_worker_reuseport") and (get(args, "tokenizer_worker_num", 1) == 1 or args.get("enable_http2")):
        raise Refused("HTTP_WORKER_REUSEPORT", "--enable-http-worker-reuseport requires --tokenizer-worker-num > 1 and "
                      "has no effect with --enable-http2.", "enable_http_worker_reuseport")
    if args.get("enable_http2"):
        streams = args.get("http2_max_concurrent_streams")
        if streams is not None and not 0 < streams < 2 ** 32:
            raise Refused("HTTP2_LIMITS", "--http2-max-concurrent-streams must be between 1 and 4294967295.",
                          "http2_max_concurrent_streams")
        window = args.get("http2_initial_connection_window_size")
        if window is not None and not 1024 <= window < 2 ** 31:
            raise Refused("HTTP2_LIMITS", "--http2-initial-connection-window-size must be between 1024 and 2147483647.",
                          "http2_initial_connection_window_size")
    for key in ("asr_max_buffer_seconds", "asr_max_concurrent_sessions"):
        v = args.get(key)
        if v is not None and v <= 0:
            raise Refused("ASR_LIMITS", "--%s must be positive, got %s." % (key.replace("_", "-"), v), key)
    # -- specserve (session 14): handle_deprecated_args' image processor conflict (0.5.18 on, with the flag) --
    if args.get("disable_fast_image_processor") and get(args, "image_processor_backend", "auto") not in ("auto", "pil"):
        raise Refused("IMAGE_PROCESSOR_CONFLICT", "--disable-fast-image-processor conflicts with --image-processor-backend=%s."
                      % args.get("image_processor_backend"), "disable_fast_image_processor")
    timeout = args.get("grpc_response_timeout_secs")
    legacy = bool(args.get("smg_grpc_mode") or args.get("grpc_mode"))
    port = args.get("grpc_port")
    # -- specserve (session 14): the port SGLang derives (SGLANG_GRPC_PORT, then the legacy --port + 10000) and the
    # worker threads env, in every release with --grpc-port (handle_deprecated_args; invalid env ints: the default) --
    threads = 4
    if rules is not None and "--grpc-port" in rules["flags"]:
        if port is None:
            port = _env_int(env, "SGLANG_GRPC_PORT", None)
        if port is None and legacy:
            port = get(args, "port", 30000) + 10000
        threads = _env_int(env, "SGLANG_GRPC_WORKER_THREADS", 4)
    elif rules is not None:
        # 0.5.11-0.5.15 (no --grpc-port): the gRPC port is always SGLANG_GRPC_PORT or --port + 10000, range-checked
        # whether or not gRPC serves (so --port above 55535 is refused)
        legacy_port = _env_int(env, "SGLANG_GRPC_PORT", None)
        if legacy_port is None:
            legacy_port = get(args, "port", 30000) + 10000
        if not 1 <= legacy_port <= 65535:
            raise Refused("GRPC_ARGS", "SGLANG_GRPC_PORT (%s) must be between 1 and 65535: SGLang %s derives the gRPC "
                          "port from --port + 10000 unless SGLANG_GRPC_PORT is set." % (legacy_port, rules["version"]),
                          "port")
    if timeout is not None and timeout <= 0:
        raise Refused("GRPC_ARGS", "--grpc-response-timeout-secs must be positive.", "grpc_response_timeout_secs")
    if port is not None and not 1 <= port <= 65535:
        raise Refused("GRPC_ARGS", "--grpc-port (%s) must be between 1 and 65535." % port, "grpc_port")
    if port is not None and threads is not None and threads < 1:
        raise Refused("GRPC_ARGS", "SGLANG_GRPC_WORKER_THREADS (%s) must be >= 1." % threads, "env")
    sidecar = args.get("sidecar")
    if args.get("sidecar_args") is not None:
        if sidecar is None:
            raise Refused("GRPC_SIDECAR", "--sidecar-args requires --sidecar.", "sidecar_args")
        value = _json(args["sidecar_args"])
        if value is not _BAD_JSON and not (isinstance(value, list) and all(isinstance(a, str) for a in value)):
            raise Refused("GRPC_SIDECAR", "--sidecar-args must be a JSON array of strings.", "sidecar_args")
    if sidecar is not None:
        if not str(sidecar).strip():
            raise Refused("GRPC_SIDECAR", "--sidecar must not be empty.", "sidecar")
        if legacy:
            raise Refused("GRPC_SIDECAR", "--sidecar requires SGLang's native gRPC server: drop --smg-grpc-mode / "
                          "--grpc-mode.", "sidecar")
        if port is None:
            raise Refused("GRPC_SIDECAR", "--sidecar requires --grpc-port.", "sidecar")
        if (rules or {}).get("sidecar_rust_server_refused") and truthy_env(env, "SGLANG_RUST_SERVER"):
            # -- new19 (session 17) --: 0.5.22 serving_hook.py handle_deprecated_args
            raise Refused("GRPC_SIDECAR", "--sidecar is not yet supported with SGLANG_RUST_SERVER (Rust-server mode does "
                          "not run the Python sidecar lifecycle).", "sidecar")
    if port is not None and not legacy:
        if args.get("use_ray"):
            raise Refused("GRPC_ARGS", "--grpc-port is not supported with --use-ray.", "grpc_port")
        if args.get("encoder_only"):
            raise Refused("GRPC_ARGS", "--grpc-port is not supported with --encoder-only.", "grpc_port")
        if get(args, "tokenizer_worker_num", 1) > 1:
            raise Refused("GRPC_ARGS", "Native gRPC does not yet support --tokenizer-worker-num > 1.", "grpc_port")
        if args.get("api_key") or args.get("admin_api_key"):
            raise Refused("GRPC_ARGS", "--grpc-port is incompatible with --api-key / --admin-api-key (the gRPC listener "
                          "bypasses the HTTP auth middleware).", "grpc_port")


@gate("enable_tokenizer_batch_encode", context=("enable_dynamic_batch_tokenizer",))
def check_tokenizer_batching(args):
    """handle_tokenizer_batching, after the speculative hook (every release)."""
    if args.get("enable_tokenizer_batch_encode") and args.get("enable_dynamic_batch_tokenizer"):
        raise Refused("TOKENIZER_BATCHING", "Cannot enable both --enable-tokenizer-batch-encode and "
                      "--enable-dynamic-batch-tokenizer: choose one.", "enable_tokenizer_batch_encode")


# -- specserve (session 14) --
def _env_bool(env, name):
    """envs.EnvBool: (is_set, value); a value other than true/1/yes/y/false/0/no/n reads as the default, False."""
    raw = (env or {}).get(name)
    if raw is None:
        return False, False
    return True, str(raw).lower() in ("true", "1", "yes", "y")


@gate("mm_preprocess_cache_size_mb", "mm_process_config")
def check_multimodal(args):
    """handle_multimodal, right before the SSL hook (every release; the cache size from 0.5.18, with its flag)."""
    size = args.get("mm_preprocess_cache_size_mb")
    if size is not None and size < 0:
        raise Refused("MM_CONFIG", "mm_preprocess_cache_size_mb must be non-negative", "mm_preprocess_cache_size_mb")
    cfg = _json(args.get("mm_process_config"))
    if cfg is None or cfg is _BAD_JSON:
        return
    if not isinstance(cfg, dict):
        raise Refused("MM_CONFIG", "mm_process_config must be a dict, but got %s" % type(cfg).__name__,
                      "mm_process_config")
    for key in ("image", "video", "audio"):
        if key in cfg and not isinstance(cfg[key], dict):
            raise Refused("MM_CONFIG", "mm_process_config['%s'] must be a dict, but got %s" % (key, type(cfg[key]).__name__),
                          "mm_process_config")


MM_TRANSPORT_ENV = "SGLANG_USE_CUDA_IPC_TRANSPORT"  # the legacy switch: sets the transport without any gate key given


@gate("mm_feature_transport", "enable_deepseek_v4_fp4_indexer", "keep_mm_feature_on_device",
      context=("encoder_only", "nnodes"))
def check_environment(args, env, rules, platform, r):
    """handle_environment_variables, after the tokenizer batching hook (every release): the multimodal feature
    transport first (cuda_ipc needs CUDA and one node, cuda_vmm CUDA and no pipeline parallelism; an unset one
    follows the legacy SGLANG_USE_CUDA_IPC_TRANSPORT; --encoder-only makes them cpu from 0.5.17, trait
    mm_transport_encoder_cpu), then --enable-deepseek-v4-fp4-indexer's GPU (trait fp4_indexer_sms). CUDA is a GPU
    among the host's facts: with none given the platform checks are skipped. --keep-mm-feature-on-device (0.5.16-0.5.20)
    refuses another transport and means cuda_ipc. Not modelled: the multi-node GB200 auto choice (a multimodal target,
    the IMEX channel on the host)."""
    known = platform.get("gpus_known")
    cuda = platform.get("sm") is not None
    transport = args.get("mm_feature_transport")
    if args.get("keep_mm_feature_on_device"):
        # -- cache (session 16) --: the deprecated flag (0.5.16-0.5.20) takes only cuda_ipc, then means it
        if transport not in (None, "cuda_ipc"):
            raise Refused("MM_FEATURE_TRANSPORT", "--keep-mm-feature-on-device conflicts with --mm-feature-transport=%s. "
                          "Use only --mm-feature-transport=cuda_ipc." % transport, "keep_mm_feature_on_device")
        transport = "cuda_ipc"
    elif transport is None and "--mm-feature-transport" in rules["flags"]:  # the legacy env maps onto it (0.5.16 on)
        is_set, enabled = _env_bool(env, MM_TRANSPORT_ENV)
        if is_set:
            transport = "cuda_ipc" if enabled else "cpu"
    if args.get("encoder_only") and transport in ("cuda_ipc", "cuda_vmm") and rules["mm_transport_encoder_cpu"]:
        transport = "cpu"
    if transport == "cuda_vmm":
        if known and not cuda:
            raise Refused("MM_FEATURE_TRANSPORT", "--mm-feature-transport=cuda_vmm requires NVIDIA CUDA.",
                          "mm_feature_transport")
        if known and r["pp_size"] != 1:
            raise Refused("MM_FEATURE_TRANSPORT", "--mm-feature-transport=cuda_vmm does not support pipeline parallelism.",
                          "mm_feature_transport")
        # -- cache (session 16) --: then the Rust server (trait mm_vmm_refuses_rust_server, 0.5.18-0.5.19)
        if known and rules["mm_vmm_refuses_rust_server"] and truthy_env(env, "SGLANG_RUST_SERVER"):
            raise Refused("MM_FEATURE_TRANSPORT", "--mm-feature-transport=cuda_vmm is not supported with "
                          "SGLANG_RUST_SERVER.", "mm_feature_transport")
    if transport == "cuda_ipc" and known:
        if not cuda:
            raise Refused("MM_FEATURE_TRANSPORT", "--mm-feature-transport=cuda_ipc requires NVIDIA CUDA.",
                          "mm_feature_transport")
        if get(args, "nnodes", 1) != 1:
            raise Refused("MM_FEATURE_TRANSPORT", "--mm-feature-transport=cuda_ipc only supports a single node.",
                          "mm_feature_transport")
    sms = rules["fp4_indexer_sms"]
    if args.get("enable_deepseek_v4_fp4_indexer") and sms and known and platform.get("sm") not in sms:
        raise Refused("FP4_INDEXER_GPU", "--enable-deepseek-v4-fp4-indexer requires SM%s GPUs with FP4 indexer support."
                      % " / SM".join(str(sm) for sm in sms), "enable_deepseek_v4_fp4_indexer")


@gate("default_chat_template_kwargs", "limit_mm_data_per_request", "preferred_sampling_params",
      "optimistic_prefill_attempts", context=("disaggregation_decode_allocation_policy", "disaggregation_mode"))
def check_other_validations(args, rules):
    """handle_other_validations, after the unified pool hook (every release with each flag): the chat template
    kwargs a JSON object (0.5.16 on), prefill_complete's optimistic prefill, the --limit-mm-data-per-request
    modalities, no watermark in --preferred-sampling-params (trait preferred_sampling_watermark_check, 0.5.22 on). Not
    modelled: --skip-tokenizer-init's sampling-params check."""
    kwargs = _json(args.get("default_chat_template_kwargs"))
    if kwargs is not None and kwargs is not _BAD_JSON and not isinstance(kwargs, dict):
        raise Refused("CHAT_TEMPLATE_KWARGS", "--default-chat-template-kwargs must decode to a JSON object",
                      "default_chat_template_kwargs")
    attempts = args.get("optimistic_prefill_attempts")
    if attempts is not None and attempts < 0 and args.get("disaggregation_decode_allocation_policy") == \
            "prefill_complete" and args.get("disaggregation_mode") == "prefill":
        # -- misc (session 15) --: the policy's value exists from 0.5.22. The PD hook turns 0 into 1 and refuses pp > 1
        # and the HiCache setups this function would zero first, so only a negative count is left at or below zero
        raise Refused("PD_PREFILL_COMPLETE", "prefill_complete requires optimistic prefill, but the resolved "
                      "model/cache configuration disabled it (--optimistic-prefill-attempts %s): give a positive count "
                      "or leave it unset." % attempts, "optimistic_prefill_attempts")
    limits = _json(args.get("limit_mm_data_per_request"))
    if isinstance(limits, str) and limits:
        limits = _json(limits)  # a JSON string holding JSON: SGLang decodes it again
    if isinstance(limits, dict) and limits:
        for modality in limits:
            if modality not in ("image", "video", "audio"):
                raise Refused("MM_LIMIT_MODALITY", "Invalid modality '%s' in --limit-mm-data-per-request. Allowed "
                              "modalities are: image, video, audio" % modality, "limit_mm_data_per_request")
    params = _json(args.get("preferred_sampling_params"))
    if isinstance(params, str) and params:
        params = _json(params)
    if rules["preferred_sampling_watermark_check"] and params and isinstance(params, (dict, list, str)) and \
            "watermark" in params:
        raise Refused("PREFERRED_SAMPLING_WATERMARK", "watermark is not supported in --preferred-sampling-params",
                      "preferred_sampling_params")
