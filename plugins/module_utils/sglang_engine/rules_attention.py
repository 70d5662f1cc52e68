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


@gate("linear_attn_decode_backend", "enable_linear_replayssm", "enable_linear_replayssm_spec", "enable_gdn_replayssm_spec",
      context=("linear_attn_backend", "mamba_ssm_dtype", "disaggregation_mode", "linear_replayssm_cache_len",
               "speculative_eagle_topk", "speculative_algorithm", "linear_attn_verify_backend", "disable_radix_cache",
               "mamba_radix_cache_strategy"))
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
        if _mamba_extra_buffer(args, mamba_strategy):
            raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm requires --mamba-radix-cache-strategy "
                          "no_buffer, got %s (the extra_buffer donation path is not supported)." % (
                              mamba_strategy or args.get("mamba_radix_cache_strategy")), "mamba_radix_cache_strategy")
        mode = get(args, "disaggregation_mode", "null")
        if mode != "null":
            raise Refused("LINEAR_ATTN_FLAGS", "--enable-linear-replayssm is not supported under PD disaggregation "
                          "(--disaggregation-mode %s)." % mode, "enable_linear_replayssm")
        length = get(args, "linear_replayssm_cache_len", 16)
        if length < 1:
            raise Refused("LINEAR_ATTN_FLAGS", "--linear-replayssm-cache-len must be >= 1, got %s." % length,
                          "linear_replayssm_cache_len")
    if args.get("enable_gdn_replayssm_spec"):
        _check_gdn_replayssm_spec(args, decode, mamba_strategy)
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


# -- mamba (session 16) --
def _mamba_extra_buffer(args, mamba_strategy):
    """SGLang's enable_mamba_extra_buffer() / mamba_extra_buffer_of() as the linear-attention hook reads it: the radix
    cache on and an extra_buffer strategy, the one the Mamba radix cache resolved, else the one given (a target
    without that hook keeps it: found by a sweep case, a dense target with --enable-linear-replayssm and
    --mamba-radix-cache-strategy extra_buffer, which 0.5.16-0.5.20 refuse; 0.5.21 on refuse the strategy first)."""
    strategy = mamba_strategy or args.get("mamba_radix_cache_strategy")
    return not args.get("disable_radix_cache") and strategy in ("extra_buffer", "extra_buffer_lazy")


def _check_gdn_replayssm_spec(args, decode, mamba_strategy):
    """The --enable-gdn-replayssm-spec of 0.5.16 (its own dest there; 0.5.17 on it is a deprecated alias of
    --enable-linear-replayssm-spec) in srt/server_args.py _handle_linear_attn_backend, in SGLang's order. The extra_buffer
    refusal reads enable_mamba_extra_buffer() (_mamba_extra_buffer). The ring check after speculative decoding is check_gdn_replayssm_spec_ring."""
    topk = args.get("speculative_eagle_topk")
    if topk not in (None, 1):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-gdn-replayssm-spec requires a linear draft chain "
                      "(--speculative-eagle-topk 1 or unset), got %s." % topk, "speculative_eagle_topk")
    if decode != "triton":
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-gdn-replayssm-spec requires the Triton linear-attn decode "
                      "backend, got %r." % decode, "linear_attn_decode_backend")
    if _mamba_extra_buffer(args, mamba_strategy):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-gdn-replayssm-spec is not yet compatible with the Mamba "
                      "extra_buffer radix cache: use --disable-radix-cache or --mamba-radix-cache-strategy no_buffer.",
                      "mamba_radix_cache_strategy")
    mode = get(args, "disaggregation_mode", "null")
    if mode != "null":
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-gdn-replayssm-spec is not supported under PD disaggregation "
                      "(--disaggregation-mode %s)." % mode, "enable_gdn_replayssm_spec")
    length = get(args, "linear_replayssm_cache_len", 16)
    if length < 1:
        raise Refused("LINEAR_ATTN_FLAGS", "--linear-replayssm-cache-len must be >= 1, got %s." % length,
                      "linear_replayssm_cache_len")
    if args.get("enable_linear_replayssm"):
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-gdn-replayssm-spec and --enable-linear-replayssm are mutually "
                      "exclusive: drop one of them.", "enable_linear_replayssm")
    if length & (length - 1):
        raise Refused("LINEAR_ATTN_FLAGS", "--linear-replayssm-cache-len must be a power of two for the circular "
                      "spec-verify ring, got %s." % length, "linear_replayssm_cache_len")
    dtype = args.get("mamba_ssm_dtype")
    if dtype is not None and dtype != "float32":
        raise Refused("LINEAR_ATTN_FLAGS", "--enable-gdn-replayssm-spec requires --mamba-ssm-dtype float32, got %r."
                      % dtype, "mamba_ssm_dtype")


def check_gdn_replayssm_spec_ring(args, r):
    """In 0.5.16, srt/server_args.py _validate_gdn_replayssm_spec_ring right after the speculative hook: the spec-verify
    ring (--linear-replayssm-cache-len) holds at least twice the resolved draft-token count. The adaptive maximum
    (--speculative-adaptive's candidate steps from its config file) is not judged."""
    drafts = r.get("speculative_num_draft_tokens")
    if not args.get("enable_gdn_replayssm_spec") or drafts is None or args.get("speculative_adaptive"):
        return
    length = get(args, "linear_replayssm_cache_len", 16)
    if length < 2 * drafts:
        raise Refused("LINEAR_ATTN_FLAGS", "--linear-replayssm-cache-len must be >= 2 * the maximum speculative "
                      "draft-token count for the spec-verify ring, got %s < %s." % (length, 2 * drafts),
                      "linear_replayssm_cache_len")


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


@gate("attention_backend", "decode_attention_backend", "prefill_attention_backend", context=("kv_cache_dtype",))
def check_mla_backends(args, rules, platform):
    """The attention hook's MLA backend checks, right after the page-size snaps (overrides.py
    _mla_kv_cache_dtype_checks, then _cutedsl_prefill_backend_fill; 0.5.11-0.5.14 srt/server_args.py
    _handle_attention_backend_compatibility; trait mla_backend_checks: tokenspeed MLA from 0.5.12, CuteDSL MLA from
    0.5.13): TRTLLM MLA (and, where the release has it, tokenspeed MLA) as the attention or
    decode backend needs a Blackwell GPU (SM10x-SM12x) and one of its KV cache dtypes; CuteDSL MLA as any of the three
    is decode-only, SM10x-only, with its own dtypes. A host without a visible GPU is no Blackwell one; with no GPU facts
    the GPU checks are left to the host. Returns the prefill backend CuteDSL fills in (trtllm_mla), else None."""
    how = rules["mla_backend_checks"]
    if how is None:
        return None
    attn, decode, prefill = args.get("attention_backend"), args.get("decode_attention_backend"), \
        args.get("prefill_attention_backend")
    if prefill is not None and prefill == decode:
        attn = prefill  # _attention_backend_default: a matching prefill / decode pair overrides the attention backend
    sm = platform.get("sm")
    known = platform.get("gpus_known")
    kv = get(args, "kv_cache_dtype", "auto")
    for name, label, kvs in (("trtllm_mla", "TRTLLM MLA", how["trtllm_kv"]),
                             ("tokenspeed_mla", "tokenspeed_mla", how["tokenspeed_kv"])):
        if kvs is None or name not in (attn, decode):
            continue
        if known and (sm is None or sm // 10 not in (10, 11, 12)):
            raise Refused("MLA_BACKEND_GPU", "%s backend is only supported on Blackwell GPUs (SM100/SM12x); this host "
                          "has %s. Please use a different backend." % (label, ("sm_%s" % sm) if sm else "no visible GPU"),
                          "attention_backend" if attn == name else "decode_attention_backend")
        if kv not in kvs:
            raise Refused("MLA_BACKEND_KV_DTYPE", "%s backend only supports kv-cache-dtype of %s; got %s." % (
                label, ", ".join(kvs), kv), "kv_cache_dtype")
    if how["cutedsl_kv"] is None or "cutedsl_mla" not in (attn, decode, prefill):
        return None
    if prefill == "cutedsl_mla":
        raise Refused("CUTEDSL_MLA_PREFILL", "CuteDSL MLA only supports decoding for now: pick another "
                      "--prefill-attention-backend.", "prefill_attention_backend")
    if known and (sm is None or sm // 10 != 10):
        raise Refused("MLA_BACKEND_GPU", "CuteDSL MLA backend is only supported on Blackwell GPUs (SM100); this host has "
                      "%s. Please use a different backend." % (("sm_%s" % sm) if sm else "no visible GPU"),
                      "attention_backend" if attn == "cutedsl_mla" else "decode_attention_backend")
    if kv not in how["cutedsl_kv"]:
        raise Refused("MLA_BACKEND_KV_DTYPE", "CuteDSL MLA backend only supports kv-cache-dtype of %s; got %s." % (
            ", ".join(how["cutedsl_kv"]), kv), "kv_cache_dtype")
    return "trtllm_mla" if prefill is None else None


_ALIASED_BACKENDS = ("attention_backend", "decode_attention_backend", "prefill_attention_backend",
                     "speculative_draft_attention_backend")


@gate(*_ALIASED_BACKENDS, context=("kv_cache_dtype",))
def resolve_tokenspeed_alias(args, rules, r, result):
    """handle_deprecated_args' attention-backend alias (trait tokenspeed_mla_alias, where tokenspeed_mla is a deprecated
    name of cutedsl_mla): every backend given as tokenspeed_mla becomes cutedsl_mla, a prefill one trtllm_mla (CuteDSL
    MLA decodes only), and tokenspeed MLA as the attention or decode backend keeps the FP8 KV cache it implied. Returns
    the args as SGLang's later hooks read them (the same dict when nothing is renamed)."""
    if not rules["tokenspeed_mla_alias"]:
        return args
    renamed = {k: "cutedsl_mla" for k in _ALIASED_BACKENDS if args.get(k) == "tokenspeed_mla"}
    if not renamed:
        return args
    if "prefill_attention_backend" in renamed:
        renamed["prefill_attention_backend"] = "trtllm_mla"
    if ("attention_backend" in renamed or "decode_attention_backend" in renamed) and \
            get(args, "kv_cache_dtype", "auto") != "fp8_e4m3":
        result.warn("SGLANG_OVERRIDE", "tokenspeed_mla is a deprecated name of cutedsl_mla and required FP8 KV: SGLang "
                    "sets kv_cache_dtype to fp8_e4m3 (was %s)." % get(args, "kv_cache_dtype", "auto"))
        renamed["kv_cache_dtype"] = "fp8_e4m3"
    result.warn("SGLANG_OVERRIDE", "tokenspeed_mla is deprecated: SGLang uses %s." % ", ".join(
        "%s=%s" % (k, v) for k, v in sorted(renamed.items()) if k != "kv_cache_dtype"))
    for k in ("attention_backend", "prefill_attention_backend", "speculative_draft_attention_backend"):
        if k in renamed:
            r[k] = renamed[k]
    return dict(args, **renamed)


# -- gpu16 (session 17) --
def check_dual_chunk(r, target_cfg):
    """The attention hook's dual-chunk pass (0.5.11-0.5.19; from 0.5.15 arg_groups/overrides.py
    _attention_backend_dual_chunk, after the intel_xpu MLA prefill check; trait dual_chunk_attention): a target whose
    config has dual_chunk_attention_config takes the dual_chunk_flash_attn backend only, and the attention backend is
    filled by then (the hook's default pass runs first); with it SGLang turns mixed chunked prefill off (and the radix
    cache). `r`: the resolved settings. A default the engine does not resolve (a GPU's, None here) is never
    dual_chunk_flash_attn: the default pass picks a general backend (fa3 on Hopper), so it is refused the same."""
    if target_cfg.get("dual_chunk_attention_config") is None:
        return
    if r.get("attention_backend") != "dual_chunk_flash_attn":
        raise Refused("DUAL_CHUNK_ATTENTION", "Dual chunk attention is enabled (the target's dual_chunk_attention_config), "
                      "but the attention backend is %s: set --attention-backend dual_chunk_flash_attn."
                      % (r.get("attention_backend") or "this GPU's default"), "attention_backend")
    r["enable_mixed_chunk"] = False
