# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Mamba backend hook's flag-only checks (0.5.15-0.5.18 srt/server_args.py _handle_mamba_backend; from 0.5.19
srt/arg_groups/mamba_hook.py handle_mamba_backend). Every release runs the hook for any model, right after the
attention backend hook; each check exists where its flag does (--mamba-cache-philox-rounds and
--enable-mamba-cache-stochastic-rounding from 0.5.15, --mamba-max-states-per-path from 0.5.17). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, is_int
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_platform import sm100_default_attention


@gate("mamba_cache_philox_rounds", "mamba_max_states_per_path", "enable_mamba_cache_stochastic_rounding",
      context=("mamba_ssm_dtype", "mamba_backend"))
def check_mamba_backend_flags(args, rules, platform):
    """In SGLang's order. Stochastic rounding's platform checks after the dtype one (a CUDA platform; SM100 for the
    triton Mamba backend: trait mamba_stochastic_platform_checks) are skipped when the host's GPUs were not given.
    The FlashInfer Mamba backend's import check after them judges the host's install: not modelled."""
    rounds = args.get("mamba_cache_philox_rounds")
    if rounds is not None and rounds < 0:
        raise Refused("MAMBA_FLAGS", "--mamba-cache-philox-rounds must be non-negative, got %s." % rounds,
                      "mamba_cache_philox_rounds")
    states = args.get("mamba_max_states_per_path")
    if states is not None and (states == 0 or states < -1):
        raise Refused("MAMBA_FLAGS", "--mamba-max-states-per-path must be -1 (unlimited) or a positive integer, got "
                      "%s." % states, "mamba_max_states_per_path")
    if args.get("enable_mamba_cache_stochastic_rounding") and args.get("mamba_ssm_dtype") != "float16":
        raise Refused("MAMBA_FLAGS", "Stochastic rounding for the Mamba SSM cache "
                      "(--enable-mamba-cache-stochastic-rounding) requires --mamba-ssm-dtype float16, got %r."
                      % args.get("mamba_ssm_dtype"), "mamba_ssm_dtype")
    if args.get("enable_mamba_cache_stochastic_rounding") and rules["mamba_stochastic_platform_checks"] and \
            platform.get("gpus_known"):
        sm = platform.get("sm")
        if sm is None:
            raise Refused("MAMBA_FLAGS", "Stochastic rounding for the Mamba SSM cache is only supported on NVIDIA CUDA "
                          "platforms.", "enable_mamba_cache_stochastic_rounding")
        if get(args, "mamba_backend", "triton") == "triton" and sm != 100:
            raise Refused("MAMBA_FLAGS", "Stochastic rounding for the Mamba SSM cache with --mamba-backend triton "
                          "requires SM100 (sm_%s here): use --mamba-backend flashinfer." % sm, "mamba_backend")


@gate("enable_int8_mamba_checkpoint", context=("enable_hierarchical_cache", "radix_cache_backend", "enable_lmcache"))
def check_int8_mamba_checkpoint(args, rules):
    """handle_int8_mamba_checkpoint, right after the Mamba backend hook (every release with the flag, 0.5.14 on;
    the LMCache refusal: trait int8_mamba_lmcache_check, 0.5.21 on)."""
    if not args.get("enable_int8_mamba_checkpoint"):
        return
    if args.get("enable_hierarchical_cache"):
        raise Refused("INT8_MAMBA_CHECKPOINT", "--enable-int8-mamba-checkpoint is not supported together with "
                      "--enable-hierarchical-cache.", "enable_hierarchical_cache")
    if args.get("radix_cache_backend") is not None:
        raise Refused("INT8_MAMBA_CHECKPOINT", "--enable-int8-mamba-checkpoint only supports the built-in mamba radix "
                      "cache: omit --radix-cache-backend.", "radix_cache_backend")
    if args.get("enable_lmcache") and rules["int8_mamba_lmcache_check"]:
        raise Refused("INT8_MAMBA_CHECKPOINT", "--enable-int8-mamba-checkpoint is not supported together with "
                      "--enable-lmcache.", "enable_lmcache")


@gate("mamba_backend")
def check_mamba_flashinfer(args, platform):
    """--mamba-backend flashinfer, the Mamba backend hook's last check (every release): refused where FlashInfer is
    not available, as on a host without a visible GPU (has_flashinfer / is_flashinfer_available is false there). On
    a GPU host SGLang imports flashinfer.mamba: the host's install, not modelled."""
    if args.get("mamba_backend") == "flashinfer" and platform.get("gpus_known") and platform.get("sm") is None:
        raise Refused("MAMBA_FLASHINFER", "--mamba-backend flashinfer: the FlashInfer mamba module is not available "
                      "(no FlashInfer on a host without a visible GPU). Use --mamba-backend triton.", "mamba_backend")


def check_mamba_radix_cache(args, rules, r, platform, target_cfg):
    """The model hook's Mamba radix cache (handle_mamba_radix_cache, mamba_hook.py's validators), for the hybrid
    architectures of trait mamba_radix_archs (0.5.14 on; None: not modelled; lazy slots under PD refused
    0.5.17 on, trait mamba_lazy_pd_refused): the radix cache on (not disabled, not
    a PD decode server without its radix cache), --mamba-radix-cache-strategy auto picks extra_buffer with the overlap
    scheduler or paging when the architecture supports it on the triton linear-attention backend, else no_buffer
    (which switches the overlap scheduler off). extra_buffer: the architecture's support, a platform with Mamba
    state snapshots (a CUDA GPU), no lazy slots under PD or with speculation (trait mamba_lazy_spec_refused, 0.5.14-0.5.17);
    no_buffer: page size 1, no overlap, no trtllm_mha. extra_buffer's --mamba-track-interval asserts: at least the draft
    tokens given, a multiple of the page size. Under speculation (the model hook runs before the speculative hooks,
    which write the draft tokens later) an explicit extra_buffer / extra_buffer_lazy is judged on the flags given
    (-- mamba (session 18) --); auto and no_buffer, whose choice and checks read the overlap scheduler, are not.
    Returns the resolved strategy (None: no Mamba radix cache, or not judged)."""
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    if arch not in (rules["mamba_radix_archs"] or ()):
        return None
    strategy = get(args, "mamba_radix_cache_strategy", "auto")
    if args.get("speculative_algorithm") is not None and strategy not in ("extra_buffer", "extra_buffer_lazy"):
        return None
    mode = get(args, "disaggregation_mode", "null")
    if args.get("disable_radix_cache") or (mode == "decode" and not args.get("disaggregation_decode_enable_radix_cache")):
        return None
    page = args.get("page_size")
    supported = get(args, "linear_attn_backend", "triton") == "triton"
    if strategy == "auto":
        strategy = "extra_buffer" if supported and (not r["disable_overlap_schedule"] or (page or 1) > 1) else "no_buffer"
        if strategy == "no_buffer":
            r["disable_overlap_schedule"] = True
    if strategy in ("extra_buffer", "extra_buffer_lazy"):
        if not supported:
            raise Refused("MAMBA_RADIX_CACHE", "--mamba-radix-cache-strategy extra_buffer is not supported for %s on "
                          "the %s linear-attention backend: use no_buffer." % (
                              arch, get(args, "linear_attn_backend", "triton")), "mamba_radix_cache_strategy")
        if platform.get("gpus_known") and platform.get("sm") is None:
            raise Refused("MAMBA_RADIX_CACHE", "The Mamba radix cache's extra_buffer strategy (the default for %s with "
                          "the overlap scheduler) needs a CUDA GPU for its state snapshots: use --mamba-radix-cache-"
                          "strategy no_buffer with --disable-overlap-schedule." % arch, "mamba_radix_cache_strategy")
        if strategy == "extra_buffer_lazy" and mode != "null" and rules["mamba_lazy_pd_refused"]:
            raise Refused("MAMBA_RADIX_CACHE", "extra_buffer_lazy is unsupported under PD disaggregation; use "
                          "--mamba-radix-cache-strategy extra_buffer.", "mamba_radix_cache_strategy")
        _check_lazy_speculation(args, rules, strategy, "mamba_radix_cache_strategy")
        interval = get(args, "mamba_track_interval", 256)
        draft = args.get("speculative_num_draft_tokens")
        if draft is not None and interval < draft:
            raise Refused("MAMBA_RADIX_CACHE", "--mamba-track-interval %s must be at least --speculative-num-draft-tokens "
                          "%s with the extra_buffer Mamba radix cache." % (interval, draft), "mamba_track_interval")
        if page is not None and interval % page:
            raise Refused("MAMBA_RADIX_CACHE", "--mamba-track-interval %s must be a multiple of --page-size %s with the "
                          "extra_buffer Mamba radix cache." % (interval, page), "mamba_track_interval")
        if page is not None:
            # mamba_cache_chunk_size, read next (-- overrides (session 15) --)
            _check_chunk_page((target_cfg or {}).get("mamba_chunk_size", 64), page)
        return strategy
    if page not in (None, 1):
        raise Refused("MAMBA_RADIX_CACHE", "The Mamba radix cache's no_buffer strategy supports page_size 1 only, got "
                      "%s." % page, "page_size")
    if not r["disable_overlap_schedule"]:
        raise Refused("MAMBA_RADIX_CACHE", "The Mamba radix cache's no_buffer strategy does not support the overlap "
                      "scheduler: add --disable-overlap-schedule.", "disable_overlap_schedule")
    if args.get("attention_backend") == "trtllm_mha":
        raise Refused("MAMBA_RADIX_CACHE", "The Mamba radix cache's no_buffer strategy does not support the "
                      "trtllm_mha attention backend.", "attention_backend")
    return strategy


def _check_lazy_speculation(args, rules, strategy, dest):
    """-- mamba (session 18) --: extra_buffer_lazy with speculation (trait mamba_lazy_spec_refused): refused where a
    --speculative-num-draft-tokens is given ("draft_tokens": 0.5.13 _handle_mamba_radix_cache, 0.5.14-0.5.16
    _validate_mamba_extra_buffer, with or without an algorithm), or with DFLASH ("DFLASH": 0.5.17, whose verify
    bypasses the lazy plan); 0.5.18 on, taken. `dest`: the strategy's field (0.5.13 mamba_scheduler_strategy)."""
    how = rules["mamba_lazy_spec_refused"]
    if strategy != "extra_buffer_lazy" or how is None:
        return
    if how == "draft_tokens" and args.get("speculative_num_draft_tokens") is not None:
        why = "speculative decoding (--speculative-num-draft-tokens %s given)" % args["speculative_num_draft_tokens"]
    elif how == "DFLASH" and str(args.get("speculative_algorithm") or "").upper() == "DFLASH":
        why = "DFLASH speculative decoding"
    else:
        return
    raise Refused("MAMBA_RADIX_CACHE", "extra_buffer_lazy is not yet supported with %s: use --%s extra_buffer." % (
        why, dest.replace("_", "-")), dest)


def _check_chunk_page(chunk, page):
    """The extra_buffer Mamba radix cache's chunk: the model's mamba_chunk_size (else FLA's chunk of 64; 0.5.11-0.5.12
    FLA's always) and the page size must divide one another."""
    if is_int(chunk) and chunk > 0 and page > 0 and max(chunk, page) % min(chunk, page):
        raise Refused("MAMBA_CHUNK_PAGE", "For SSM models, either chunk_size or page_size must be divisible by "
                      "the other, got chunk_size=%s, page_size=%s: pick a page size that divides or is a multiple "
                      "of %s." % (chunk, page, chunk), "page_size")


# -- oldgpu (session 17) --
# the architectures of trait mamba_radix_archs whose branch takes the extra_buffer strategy (0.5.11-0.5.13
# _handle_model_specific_adjustments: Qwen3-Next's does, with its own SM100 default; Lfm2's does not)
_LEGACY_EXTRA_BUFFER_ARCHS = ("Qwen3NextForCausalLM",)


def check_mamba_radix_cache_legacy(args, rules, r, platform, target_cfg, asked, result):
    """The Mamba radix cache of 0.5.11-0.5.13 (srt/server_args.py _handle_mamba_radix_cache), from
    _handle_model_specific_adjustments' Qwen3-Next and Lfm2 branches (trait mamba_radix_legacy; the architectures of
    mamba_radix_archs; Lfm2's refuses extra_buffer first, _LEGACY_EXTRA_BUFFER_ARCHS): __post_init__ has already turned
    --mamba-scheduler-strategy auto into no_buffer. extra_buffer (extra_buffer_lazy from 0.5.13): refused with
    --disable-radix-cache, off a CUDA GPU, (0.5.13) lazy with draft tokens given, a --mamba-track-interval below the
    draft tokens given or not a multiple of the page size, a page size and the SSM chunk (0.5.11-0.5.12 FLA's 64; 0.5.13
    the model's mamba_chunk_size, else 64) not dividing one another. no_buffer with the radix cache on: the page size
    becomes 1 (a warning), the overlap scheduler goes off, trtllm_mha (the user's backend: `asked`) switches the
    radix cache off instead; any speculative algorithm is refused there (off ROCm). First, on SM100 with no backend
    given, the branch's default: trtllm_mha where the release's default would be trtllm_mha and the no_buffer radix
    cache without speculation (which needs page size 1) is not in use, else triton (in r). Returns the args as the
    later hooks read them (page size, radix cache)."""
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    how = rules["mamba_radix_legacy"]
    strategy = get(args, "mamba_scheduler_strategy", "auto")
    extra = strategy in ("extra_buffer", "extra_buffer_lazy")
    if arch not in _LEGACY_EXTRA_BUFFER_ARCHS:
        # the Lfm2 branch: no extra_buffer (its SM100 default, flashinfer, is the lfm2 model override's)
        if extra:
            raise Refused("MAMBA_RADIX_CACHE", "mamba extra_buffer is not supported for %s: use "
                          "--mamba-scheduler-strategy no_buffer." % arch, "mamba_scheduler_strategy")
    elif platform.get("sm") == 100 and asked is None:
        paged_one = not extra and not args.get("disable_radix_cache") and args.get("speculative_algorithm") is None
        r["attention_backend"] = "trtllm_mha" if not paged_one and \
            sm100_default_attention(args, rules, target_cfg) == "trtllm_mha" else "triton"
    if extra:
        if args.get("disable_radix_cache"):
            raise Refused("MAMBA_RADIX_CACHE", "mamba extra_buffer is not compatible with --disable-radix-cache: use "
                          "--mamba-scheduler-strategy no_buffer (overlap scheduling works with no_buffer and "
                          "--disable-radix-cache).", "mamba_scheduler_strategy")
        if platform.get("gpus_known") and platform.get("sm") is None:
            raise Refused("MAMBA_RADIX_CACHE", "Mamba extra_buffer is only supported on CUDA and MUSA devices with the "
                          "FLA backend (this host has no visible GPU).", "mamba_scheduler_strategy")
        interval = get(args, "mamba_track_interval", 256)
        draft = args.get("speculative_num_draft_tokens")
        _check_lazy_speculation(args, rules, strategy, "mamba_scheduler_strategy")
        if draft is not None and interval < draft:
            raise Refused("MAMBA_RADIX_CACHE", "--mamba-track-interval %s must be at least "
                          "--speculative-num-draft-tokens %s with the extra_buffer Mamba radix cache." % (
                              interval, draft), "mamba_track_interval")
        page = args.get("page_size")
        if page is not None:
            if interval % page:
                raise Refused("MAMBA_RADIX_CACHE", "--mamba-track-interval %s must be a multiple of --page-size %s with "
                              "the extra_buffer Mamba radix cache." % (interval, page), "mamba_track_interval")
            _check_chunk_page((target_cfg or {}).get("mamba_chunk_size", 64) if how == "model_chunk" else 64, page)
        return args
    if args.get("disable_radix_cache"):
        return args
    page = args.get("page_size")
    if page not in (None, 1):
        result.warn("SGLANG_OVERRIDE", "%s with the radix cache needs page_size 1 in the no_buffer Mamba scheduling mode: "
                    "SGLang sets page_size %s to 1." % (arch, page))
        args = dict(args, page_size=1)
    if args.get("speculative_algorithm") is None:
        r["disable_overlap_schedule"] = True
        if asked == "trtllm_mha":  # the radix cache goes off instead
            r["disable_overlap_schedule"] = False
            args = dict(args, disable_radix_cache=True)
        return args
    raise Refused("MAMBA_RADIX_CACHE", "Speculative decoding for %s is not compatible with the radix cache under "
                  "--mamba-scheduler-strategy no_buffer: use extra_buffer with SGLANG_ENABLE_SPEC_V2=1, or "
                  "--disable-radix-cache." % arch, "mamba_scheduler_strategy")
