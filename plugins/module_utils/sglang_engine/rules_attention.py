# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The attention hooks' flag checks past the backend choice: the linear-attention backend hook (0.5.11-0.5.18
srt/server_args.py _handle_linear_attn_backend, from 0.5.19 srt/arg_groups/attention_hook.py
handle_linear_attn_backend; it runs for any model, right after the Mamba hooks) and the multi-item scoring hook
(_handle_multi_item_scoring / handle_multi_item_scoring, after the KV4 / MXFP8 checks). Each check exists where its
flag does (FlashKDA and ReplaySSM from 0.5.15, --enable-linear-replayssm-spec and SGLANG_RAGGED_VERIFY_MODE from
0.5.17, Helion from 0.5.18: a value a release's parser lacks is refused there first). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get

RAGGED_VERIFY_ENV = "SGLANG_RAGGED_VERIFY_MODE"
RAGGED_VERIFY_MODES = ("static", "cap-accept", "compact")


@gate("linear_attn_decode_backend", "enable_linear_replayssm", "enable_linear_replayssm_spec",
      context=("linear_attn_backend", "mamba_ssm_dtype", "disaggregation_mode", "linear_replayssm_cache_len",
               "speculative_eagle_topk", "speculative_algorithm", "linear_attn_verify_backend"))
def check_linear_attn_backend(args, platform, env, mamba_strategy=None):
    """In SGLang's order. The decode backend: --linear-attn-decode-backend, else FlashInfer on an SM100 host with
    --mamba-ssm-dtype bfloat16 (not with the Helion base), else --linear-attn-backend (FlashKDA, prefill-only,
    inherited as triton). The SM100+ FlashInfer dtype / CUDA 13 checks read torch.cuda on the host itself, not the
    platform facts: not modelled. ReplaySSM's extra_buffer refusal reads the Mamba radix cache strategy the model
    hook resolved (rules_mamba.check_mamba_radix_cache: `mamba_strategy`, None where not modelled)."""
    given = args.get("linear_attn_decode_backend")
    base = get(args, "linear_attn_backend", "triton")
    decode = given
    if decode is None and base != "helion" and platform.get("sm") == 100 and args.get("mamba_ssm_dtype") == "bfloat16":
        decode = "flashinfer"
    decode = decode or base
    if decode == "flashkda":
        if given == "flashkda":
            raise Refused("LINEAR_ATTN_FLAGS", "--linear-attn-decode-backend flashkda is not supported: FlashKDA is "
                          "prefill-only. Use --linear-attn-prefill-backend flashkda (decode stays on triton).",
                          "linear_attn_decode_backend")
        decode = "triton"
    if args.get("enable_linear_replayssm"):
        if decode not in ("triton", "helion"):
            raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm requires the Triton (or, for KDA, Helion) "
                          "linear-attn decode backend, got %r." % decode, "linear_attn_decode_backend")
        if mamba_strategy in ("extra_buffer", "extra_buffer_lazy"):
            raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm requires --mamba-radix-cache-strategy "
                          "no_buffer, got %s (the extra_buffer donation path is not supported)." % mamba_strategy,
                          "mamba_radix_cache_strategy")
        mode = get(args, "disaggregation_mode", "null")
        if mode != "null":
            raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm is not supported under PD disaggregation "
                          "(--disaggregation-mode %s)." % mode, "enable_linear_replayssm")
        length = get(args, "linear_replayssm_cache_len", 16)
        if length < 1:
            raise Refused("LINEAR_ATTN_FLAGS", "--linear-replayssm-cache-len must be >= 1, got %s." % length,
                          "linear_replayssm_cache_len")
    if not args.get("enable_linear_replayssm_spec"):
        return
    topk = args.get("speculative_eagle_topk")
    if topk not in (None, 1):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm-spec requires a linear draft chain "
                      "(--speculative-eagle-topk 1 or unset), got %s." % topk, "speculative_eagle_topk")
    if decode not in ("triton", "flashinfer"):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm-spec requires the triton or flashinfer "
                      "linear-attn decode backend, got %r." % decode, "linear_attn_decode_backend")
    ragged = str((env or {}).get(RAGGED_VERIFY_ENV, "static"))
    if ragged not in RAGGED_VERIFY_MODES:
        raise Refused("RAGGED_VERIFY_MODE", "invalid %s=%r; expected one of %s." % (
            RAGGED_VERIFY_ENV, ragged, ", ".join(RAGGED_VERIFY_MODES)), "env")
    if ragged != "static" and (str(args.get("speculative_algorithm") or "").upper() not in ("DSPARK", "DFLASH") or
                               args.get("linear_attn_verify_backend") not in ("triton", "nv_cutedsl")):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm-spec with %s=%s requires DSPARK or DFLASH and "
                      "--linear-attn-verify-backend triton or nv_cutedsl; use %s=static." % (
                          RAGGED_VERIFY_ENV, ragged, RAGGED_VERIFY_ENV), "enable_linear_replayssm_spec")
    if args.get("disaggregation_mode") == "prefill":
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm-spec is not supported on a PD prefill server.",
                      "disaggregation_mode")
    if args.get("enable_linear_replayssm"):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm-spec and --enable-linear-replayssm are mutually "
                      "exclusive: drop one of them.", "enable_linear_replayssm")


@gate("enable_mis")
def check_multi_item_scoring(args, prefill, decode):
    """--enable-mis asserts FlashInfer for both phases (the resolved backends; every release). A backend left to
    the host (no GPU facts, or an SM100 default not modelled) is not judged."""
    if not args.get("enable_mis") or prefill is None or decode is None:
        return
    if prefill != "flashinfer" or decode != "flashinfer":
        raise Refused("MULTI_ITEM_SCORING_BACKEND", "Multi-item scoring (--enable-mis) requires the flashinfer "
                      "attention backend for both phases (prefill=%s, decode=%s): set --attention-backend "
                      "flashinfer." % (prefill, decode), "attention_backend")
