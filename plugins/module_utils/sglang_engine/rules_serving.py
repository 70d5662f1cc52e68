# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Refusals of SGLang's serving hook (0.5.23 srt/arg_groups/serving_hook.py; through 0.5.18 srt/server_args.py)
that need flags only, each in every release that has its flag: the HTTP worker and HTTP/2 values of the SSL hook,
the ASR limits, the gRPC / sidecar checks of handle_deprecated_args (right after the SSL pairing, in that order),
and the tokenizer batching choice (after the speculative hook). Not modelled: the SSL files and the granian package
(--enable-http2), which exist on the host only. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get


@gate("enable_http_worker_reuseport", "http2_max_concurrent_streams", "http2_initial_connection_window_size",
      "asr_max_buffer_seconds", "asr_max_concurrent_sessions", "grpc_response_timeout_secs", "grpc_port", "sidecar",
      "sidecar_args", context=("tokenizer_worker_num", "enable_http2", "smg_grpc_mode", "grpc_mode", "use_ray",
                               "encoder_only", "api_key", "admin_api_key"))
def check_serving(args):
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
    timeout = args.get("grpc_response_timeout_secs")
    if timeout is not None and timeout <= 0:
        raise Refused("GRPC_ARGS", "--grpc-response-timeout-secs must be positive.", "grpc_response_timeout_secs")
    legacy = bool(args.get("smg_grpc_mode") or args.get("grpc_mode"))
    port = args.get("grpc_port")
    if port is not None and not 1 <= port <= 65535:
        raise Refused("GRPC_ARGS", "--grpc-port (%s) must be between 1 and 65535." % port, "grpc_port")
    sidecar = args.get("sidecar")
    if args.get("sidecar_args") is not None and sidecar is None:
        raise Refused("GRPC_SIDECAR", "--sidecar-args requires --sidecar.", "sidecar_args")
    if sidecar is not None:
        if not str(sidecar).strip():
            raise Refused("GRPC_SIDECAR", "--sidecar must not be empty.", "sidecar")
        if legacy:
            raise Refused("GRPC_SIDECAR", "--sidecar requires SGLang's native gRPC server: drop --smg-grpc-mode / "
                          "--grpc-mode.", "sidecar")
        if port is None:
            raise Refused("GRPC_SIDECAR", "--sidecar requires --grpc-port.", "sidecar")
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
