# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The KV cache flags' compatibility checks SGLang runs late in its resolution: _handle_cache_compatibility
(0.5.11-0.5.18 srt/server_args.py; from 0.5.19 srt/arg_groups/kv_cache_hook.py handle_cache_compatibility).
Every release runs it after the speculative hook (and the load-format, encoder, tokenizer and environment
hooks), before check_server_args: resolve() calls it there. stdlib only.

Which checks a release has follows its flags (a flag the release lacks is a parse error first):
host-pool retraction backup from 0.5.18, the T-LRU eviction config and --swa-prefix-tails from 0.5.21. The
one exception is --enable-lmcache, whose flag is older than its checks: the trait lmcache_cache_checks
(0.5.21 on)."""
from __future__ import annotations

import json

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, is_int, truthy_env
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_cuda_graph import _graph_config
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import prefill_cp_on


@gate("disaggregation_decode_retraction_backup", "disaggregation_decode_host_receive_threshold",
      "radix_eviction_policy", "enable_hierarchical_cache", "disaggregation_decode_enable_offload_kvcache",
      "swa_full_tokens_ratio", "swa_prefix_tails", "enable_lmcache", "enable_session_radix_cache",
      context=("disaggregation_mode", "dcp_size", "enable_priority_scheduling", "disable_priority_preemption",
               "radix_eviction_policy_config", "disable_radix_cache", "hicache_storage_backend",
               "enable_unified_cache_external_linker", "enable_dp_attention", "dp_size", "attn_dp_size",
               "enable_streaming_session", "hicache_host_memory_mode",
               "disaggregation_decode_enable_radix_cache"))
def check_cache_compatibility(args, rules, algo):
    """In SGLang's order: the session radix cache's eviction policy (trait session_radix_needs_priority,
    0.5.15-0.5.16), the host-pool retraction backup, the T-LRU eviction config, hierarchical cache
    without a radix cache, decode KV offload, the SWA ratio and prefix tails, LMCache."""
    if rules["session_radix_needs_priority"] and args.get("enable_session_radix_cache") and \
            get(args, "radix_eviction_policy", "lru") != "priority":
        # -- gpu16 (session 17) --: 0.5.15-0.5.16 srt/server_args.py _handle_cache_compatibility, its first check
        raise Refused("SESSION_RADIX_CACHE", "--enable-session-radix-cache requires --radix-eviction-policy priority.",
                      "radix_eviction_policy")
    mode = get(args, "disaggregation_mode", "null")
    # a decode host-receive threshold below 1 sets the host-pool backup (the PD hook, 0.5.21 on)
    host_pool = args.get("disaggregation_decode_retraction_backup") == "host_pool" or \
        get(args, "disaggregation_decode_host_receive_threshold", 1) < 1
    if host_pool:
        if mode != "decode":
            raise Refused("CACHE_HOST_POOL", "--disaggregation-decode-retraction-backup=host_pool is only supported on "
                          "a PD decode server (--disaggregation-mode decode).",
                          "disaggregation_decode_retraction_backup")
        if get(args, "dcp_size", 1) > 1:
            raise Refused("CACHE_HOST_POOL", "--disaggregation-decode-retraction-backup=host_pool does not support "
                          "--dcp-size > 1.", "disaggregation_decode_retraction_backup")
        if args.get("enable_priority_scheduling") and not args.get("disable_priority_preemption"):
            raise Refused("CACHE_HOST_POOL", "--disaggregation-decode-retraction-backup=host_pool requires "
                          "--disable-priority-preemption when priority scheduling is enabled.",
                          "disable_priority_preemption")
    if args.get("radix_eviction_policy") == "tlru":
        config = args.get("radix_eviction_policy_config") or {}
        if isinstance(config, str):
            try:
                config = json.loads(config)
            except ValueError:
                config = None  # SGLang's parser refuses it (json.loads as the flag's type): not judged here
        if isinstance(config, dict):
            threshold, estimate = config.get("threshold", 0), config.get("next_prompt_estimate", 0)
            if threshold < 0 or estimate < 0:
                raise Refused("RADIX_EVICTION_TLRU", "--radix-eviction-policy tlru requires non-negative 'threshold' "
                              "and 'next_prompt_estimate' in --radix-eviction-policy-config, got %s and %s."
                              % (threshold, estimate), "radix_eviction_policy_config")
            if threshold <= estimate:
                raise Refused("RADIX_EVICTION_TLRU", "--radix-eviction-policy tlru needs 'threshold' greater than "
                              "'next_prompt_estimate' in --radix-eviction-policy-config, got %s <= %s."
                              % (threshold, estimate), "radix_eviction_policy_config")
    hicache = args.get("enable_hierarchical_cache")
    # the PD hook (earlier, every release) sets a decode server's radix cache from
    # --disaggregation-decode-enable-radix-cache alone, whatever --disable-radix-cache says
    no_radix = not args.get("disaggregation_decode_enable_radix_cache") if mode == "decode" else \
        args.get("disable_radix_cache")
    if hicache and no_radix:
        raise Refused("HICACHE_NO_RADIX", "--enable-hierarchical-cache and --disable-radix-cache are mutually "
                      "exclusive: use only one of them.", "disable_radix_cache")
    if args.get("disaggregation_decode_enable_offload_kvcache"):
        if mode != "decode":
            raise Refused("DECODE_OFFLOAD_KVCACHE", "--disaggregation-decode-enable-offload-kvcache is only supported "
                          "for the decode side (--disaggregation-mode decode).",
                          "disaggregation_decode_enable_offload_kvcache")
        if args.get("hicache_storage_backend") is None:
            raise Refused("DECODE_OFFLOAD_KVCACHE", "--disaggregation-decode-enable-offload-kvcache is only supported "
                          "when --hicache-storage-backend is given.", "hicache_storage_backend")
        if host_pool:
            raise Refused("DECODE_OFFLOAD_KVCACHE", "--disaggregation-decode-enable-offload-kvcache and "
                          "--disaggregation-decode-retraction-backup=host_pool are mutually exclusive: both build a "
                          "decode host pool.", "disaggregation_decode_retraction_backup")
    ratio = args.get("swa_full_tokens_ratio")
    if ratio is not None and not 0 < ratio <= 1.0:
        raise Refused("SWA_FULL_TOKENS_RATIO", "--swa-full-tokens-ratio should be in range (0, 1.0], got %s." % ratio,
                      "swa_full_tokens_ratio")
    tails = args.get("swa_prefix_tails")
    if tails is not None and tails < 0:
        raise Refused("SWA_PREFIX_TAILS", "--swa-prefix-tails should be a non-negative integer, got %s." % tails,
                      "swa_prefix_tails")
    if args.get("enable_lmcache") and rules["lmcache_cache_checks"]:
        if hicache:
            raise Refused("LMCACHE_CONFLICT", "--enable-lmcache and --enable-hierarchical-cache are mutually "
                          "exclusive.", "enable_lmcache")
        if args.get("enable_unified_cache_external_linker"):
            raise Refused("LMCACHE_CONFLICT", "--enable-lmcache and --enable-unified-cache-external-linker are "
                          "mutually exclusive.", "enable_lmcache")
        if no_radix:
            raise Refused("LMCACHE_CONFLICT", "--enable-lmcache requires the radix cache: drop --disable-radix-cache.",
                          "disable_radix_cache")
        # then what LMCacheUnifiedRadixCache does not support yet (NotImplementedError in SGLang)
        attn_dp = (args.get("enable_dp_attention") and get(args, "dp_size", 1) > 1) or get(args, "attn_dp_size", 1) > 1
        for what, bad in (("speculative decoding", algo is not None), ("DP attention", attn_dp),
                          ("--dcp-size > 1", get(args, "dcp_size", 1) > 1),
                          ("streaming sessions", args.get("enable_streaming_session"))):
            if bad:
                raise Refused("LMCACHE_UNSUPPORTED", "--enable-lmcache does not support %s yet." % what,
                              "enable_lmcache")
        if args.get("hicache_host_memory_mode") == "buffer_only":
            raise Refused("LMCACHE_CONFLICT", "--hicache-host-memory-mode=buffer_only is a HiCache-only mode (not "
                          "with --enable-lmcache).", "hicache_host_memory_mode")
        if mode != "null":
            raise Refused("LMCACHE_UNSUPPORTED", "--enable-lmcache supports colocated prefill/decode scheduling only "
                          "(no --disaggregation-mode).", "enable_lmcache")


@gate("hicache_host_memory_fraction", "ple_offload_embedding", "ple_offload_backend",
      context=("cpu_offload_gb", "offload_group_size"))
def check_early_cache_flags(args):
    """The two flag-only hooks SGLang runs before the SSL check (from 0.5.20, srt/arg_groups/pipeline.py:
    handle_hicache_ratio_default in hicache_hook.py, then handle_offload_compatibility in memory_hook.py); each
    check exists where its flag does (--hicache-host-memory-fraction from 0.5.21, --ple-offload-embedding from
    0.5.20)."""
    fraction = args.get("hicache_host_memory_fraction")
    if fraction is not None and not 0 < fraction <= 1:
        raise Refused("HICACHE_HOST_MEMORY_FRACTION", "--hicache-host-memory-fraction must be in (0, 1], got %s."
                      % fraction, "hicache_host_memory_fraction")
    offload = get(args, "cpu_offload_gb", 0) > 0 or get(args, "offload_group_size", 0) > 0
    if args.get("ple_offload_embedding") and offload:
        raise Refused("PLE_OFFLOAD_CONFLICT", "--ple-offload-embedding cannot be combined with --cpu-offload-gb or "
                      "--offload-group-size: generic layer offload would stage the pinned PLE embedding back to the "
                      "device.", "ple_offload_embedding")
    # -- kv (session 14) --: next in handle_offload_compatibility (0.5.20 on, its flags): an explicit
    # --no-ple-offload-embedding (the default None lets the model overrides decide)
    if args.get("ple_offload_backend") == "file" and args.get("ple_offload_embedding") is False:
        raise Refused("PLE_OFFLOAD_BACKEND", "--ple-offload-backend file requires --ple-offload-embedding: the "
                      "file-backed table is the offloaded table.", "ple_offload_backend")


# 0.5.23 srt/arg_groups/kv_cache_hook.py: the backends each FP4 attention path takes (the decode side with fa4
# prefill, else the base --attention-backend; the FP4 KV cache dtypes are trait kv4_dtypes)
KV4_FA4_MHA_DECODE = ("triton", "torch_native", "flex_attention")
KV4_MHA_BACKENDS = ("triton", "torch_native", "flex_attention", "trtllm_mha")
# the NVFP4 prefill dequant dtype -> the prefill backend that reads it (handle_nvfp4_prefill_kv_dequant_dtype)
NVFP4_PREFILL_BACKEND = {"fp8_e4m3": "flashinfer", "nvfp4": "trtllm_mha"}
NVFP4_NATIVE_SPEC = ("EAGLE", "EAGLE3", "NEXTN", "NGRAM")


def _platform_sm(platform):
    """(cuda, sm) as SGLang's get_platform() would see the host: cuda None when the GPUs were not given."""
    if not platform.get("gpus_known"):
        return None, None
    sm = platform.get("sm")
    return sm is not None, sm


@gate("prefill_only_disable_kv_cache",
      context=("is_embedding", "kv_cache_dtype", "chunked_prefill_size", "disable_radix_cache", "attn_cp_size",
               "enable_prefill_cp", "enable_prefill_context_parallel", "enable_dsa_prefill_context_parallel",
               "enable_hisparse"))
def check_prefill_only_flags(args, rules):
    """validate_prefill_only_disable_kv_cache_args (the flag from 0.5.12): right after the PD hook, before decode
    context parallelism (0.5.23 srt/arg_groups/pipeline.py; 0.5.12-0.5.18 srt/server_args.py, first in __post_init__
    after the PD hook). The flag's preconditions, in SGLang's order: the FP4 KV dtypes of the release (trait kv4_dtypes:
    fp4_e2m1 to 0.5.15.post1) and MXFP8 (0.5.16 on), prefill CP as the release reads its flags (trait
    dsa_prefill_cp_flags: --enable-prefill-context-parallel to 0.5.13.post1, rules_parallel.prefill_cp_on)."""
    if not args.get("prefill_only_disable_kv_cache"):
        return
    if not args.get("is_embedding"):
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache currently requires --is-embedding.",
                      "is_embedding")
    dtype = args.get("kv_cache_dtype")
    if dtype in rules["kv4_dtypes"] or dtype == "mxfp8":
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache does not support --kv-cache-dtype "
                      "%s (its pool has a separate allocation path)." % dtype, "kv_cache_dtype")
    if args.get("chunked_prefill_size") != -1:
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache requires --chunked-prefill-size -1.",
                      "chunked_prefill_size")
    if not args.get("disable_radix_cache"):
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache requires --disable-radix-cache.",
                      "disable_radix_cache")
    if get(args, "attn_cp_size", 1) > 1:
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache is incompatible with "
                      "--attn-cp-size > 1.", "attn_cp_size")
    if prefill_cp_on(args, rules["dsa_prefill_cp_flags"]):
        key = "enable_prefill_cp" if args.get("enable_prefill_cp") else "enable_prefill_context_parallel" \
            if args.get("enable_prefill_context_parallel") else "enable_dsa_prefill_context_parallel"
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache is incompatible with prefill "
                      "context parallelism (--%s)." % key.replace("_", "-"), key)
    if args.get("enable_hisparse"):
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache is incompatible with "
                      "--enable-hisparse.", "enable_hisparse")


@gate("prefill_only_disable_kv_cache")
def check_prefill_only_backend(args, prefill):
    """handle_prefill_only_disable_kv_cache: after the attention backends settle (after the KV4 / MXFP8 checks,
    before the HiCache hook): the FA prefill backends only."""
    if args.get("prefill_only_disable_kv_cache") and prefill not in ("fa3", "fa4"):
        raise Refused("PREFILL_ONLY_NO_KV_CACHE", "--prefill-only-disable-kv-cache requires the FA prefill backend "
                      "(fa3/fa4), got %r." % prefill, "attention_backend")


@gate("kv_cache_dtype", "prefill_kv_cache_dequant_dtype",
      context=("attention_backend", "prefill_attention_backend", "decode_attention_backend"))
def check_nvfp4_prefill_dequant(args, rules, platform):
    """handle_nvfp4_prefill_kv_dequant_dtype (0.5.21 on, with its flag: trait nvfp4_prefill_dequant), right before
    the attention backend hook. Returns the (prefill, decode) backends NVFP4 selects, or None when the KV cache is
    not NVFP4 (or the release has no such hook)."""
    if not rules["nvfp4_prefill_dequant"]:
        return None
    requested = get(args, "prefill_kv_cache_dequant_dtype", "auto")
    if args.get("kv_cache_dtype") != "nvfp4":
        if requested != "auto":
            raise Refused("NVFP4_PREFILL_DEQUANT", "--prefill-kv-cache-dequant-dtype applies only with "
                          "--kv-cache-dtype nvfp4.", "prefill_kv_cache_dequant_dtype")
        return None
    cuda, sm = _platform_sm(platform)
    explicit_prefill = args.get("prefill_attention_backend")
    if requested == "auto":
        explicit = explicit_prefill or args.get("attention_backend")
        if explicit in ("flashinfer", "trtllm_mha"):
            requested = "fp8_e4m3" if explicit == "flashinfer" else "nvfp4"
        elif explicit is not None:
            raise Refused("NVFP4_PREFILL_DEQUANT", "NVFP4 prefill takes an FP8 E4M3 workspace (flashinfer) or native "
                          "NVFP4 (trtllm_mha); backend %r provides neither." % explicit, "attention_backend")
        else:
            requested = "nvfp4" if sm == 100 else "fp8_e4m3"
    if requested == "nvfp4" and sm != 100 and cuda is not None:
        raise Refused("NVFP4_PREFILL_DEQUANT", "Native NVFP4 prefill requires SM100: use "
                      "--prefill-kv-cache-dequant-dtype fp8_e4m3 on this platform.", "prefill_kv_cache_dequant_dtype")
    target = NVFP4_PREFILL_BACKEND[requested]
    if explicit_prefill is not None and explicit_prefill != target:
        raise Refused("NVFP4_PREFILL_DEQUANT", "--prefill-kv-cache-dequant-dtype %s requires prefill backend %r, but "
                      "--prefill-attention-backend %r was set: drop the backend option." % (
                          requested, target, explicit_prefill), "prefill_attention_backend")
    decode = args.get("decode_attention_backend")
    if decode not in (None, "trtllm_mha"):
        raise Refused("NVFP4_PREFILL_DEQUANT", "NVFP4 decode requires --decode-attention-backend trtllm_mha, got %r: "
                      "drop the backend option." % decode, "decode_attention_backend")
    return target, "trtllm_mha"


@gate("kv_cache_dtype",
      context=("enable_unified_memory", "speculative_algorithm", "speculative_ngram_max_bfs_breadth",
               "speculative_draft_attention_backend", "disaggregation_mode", "enable_hierarchical_cache",
               "enable_lmcache"))
def check_kv_dtype_platform(args, rules, platform, attention, prefill, decode, mla=False):
    """handle_kv4_compatibility then handle_mxfp8_kv_cache_compatibility: after the Mamba and linear-attention
    hooks (0.5.23 srt/arg_groups/pipeline.py). `attention`, `prefill`, `decode`: the resolved backends. MHA
    targets only (the MLA branches are not modelled). Skipped when the host's GPUs were not given. The unified
    memory refusal and the SM100 native-NVFP4 checks: trait kv4_unified_sm100_checks (0.5.21 on); MXFP8's check
    exists where its dtype does (0.5.16 on)."""
    dtype = args.get("kv_cache_dtype")
    cuda, sm = _platform_sm(platform)
    # -- old-a (session 15) --: the FP4 KV dtypes the hook checks are a release trait (0.5.11-0.5.15.post1: fp4_e2m1)
    if cuda is None or dtype not in rules["kv4_dtypes"] + ("mxfp8",):
        return
    if dtype == "mxfp8":
        if sm is None or sm < 100:
            raise Refused("KV_CACHE_DTYPE_GPU", "--kv-cache-dtype mxfp8 requires an SM100+ (Blackwell) GPU.",
                          "kv_cache_dtype")
        return
    if not cuda:
        raise Refused("KV_CACHE_DTYPE_GPU", "FP4 KV cache (--kv-cache-dtype %s) is not tested on non-CUDA "
                      "platforms." % dtype, "kv_cache_dtype")
    if dtype == "nvfp4" and sm not in (100, 120):
        raise Refused("KV_CACHE_DTYPE_GPU", "--kv-cache-dtype nvfp4 requires Blackwell SM100 or SM120 (use "
                      "fp4_mx_block16 elsewhere).", "kv_cache_dtype")
    newer = rules["kv4_unified_sm100_checks"]
    if newer and args.get("enable_unified_memory"):
        raise Refused("KV4_CONFLICT", "FP4 KV cache does not support --enable-unified-memory yet.",
                      "enable_unified_memory")
    native = newer and dtype == "nvfp4" and sm == 100 and "trtllm_mha" in (prefill, decode)
    if native:
        _check_sm100_nvfp4(args)
    if prefill != decode and prefill != "fa4":
        return  # a mixed pair: SGLang warns only
    if mla:
        # -- kv (session 14) --: the MLA branches (use_mla_backend), one list for the FA4 decode and the attention
        # backend (trait kv4_mla_backends); an MLA target's default backend is the host's
        allowed = rules["kv4_mla_backends"]
        backend, flag = (decode, "decode_attention_backend") if prefill == "fa4" else (attention, "attention_backend")
        if prefill != "fa4":  # -- old-a (session 15) --: the attention backend's list adds flashmla to 0.5.15.post1
            allowed = allowed + rules["kv4_mla_attention_extra"]
        if backend is not None and backend not in allowed:
            raise Refused("KV4_BACKEND", "KV4 with an MLA model expects --%s in %s, got %r." % (
                flag.replace("_", "-"), list(allowed), backend), flag)
        return
    if prefill == "fa4":
        if decode not in KV4_FA4_MHA_DECODE:
            raise Refused("KV4_BACKEND", "KV4 with fa4 prefill expects a decode backend in %s, got %r."
                          % (list(KV4_FA4_MHA_DECODE), decode), "decode_attention_backend")
    elif attention not in KV4_MHA_BACKENDS:
        raise Refused("KV4_BACKEND", "KV4 expects --attention-backend in %s, got %r." % (
            list(KV4_MHA_BACKENDS), attention), "attention_backend")


def _check_sm100_nvfp4(args):
    """The SM100 native-NVFP4 (trtllm_mha) checks of handle_kv4_compatibility, in its order."""
    raw = args.get("speculative_algorithm")
    algo = raw.upper() if raw is not None else None
    if algo in ("DFLASH", "DSPARK") or (algo is not None and algo not in NVFP4_NATIVE_SPEC):
        raise Refused("KV4_CONFLICT", "SM100 native NVFP4 speculative decoding supports EAGLE, EAGLE3, NEXTN and "
                      "breadth-1 NGRAM; got %s." % algo, "speculative_algorithm")
    if algo == "NGRAM" and get(args, "speculative_ngram_max_bfs_breadth", 10) != 1:
        raise Refused("KV4_CONFLICT", "SM100 native NVFP4 NGRAM requires --speculative-ngram-max-bfs-breadth 1.",
                      "speculative_ngram_max_bfs_breadth")
    draft = args.get("speculative_draft_attention_backend")
    if algo not in (None, "NGRAM") and draft is not None and draft != "trtllm_mha":
        raise Refused("KV4_CONFLICT", "SM100 native NVFP4 speculative decoding requires "
                      "--speculative-draft-attention-backend trtllm_mha, got %r." % draft,
                      "speculative_draft_attention_backend")
    if get(args, "disaggregation_mode", "null") != "null":
        raise Refused("KV4_CONFLICT", "SM100 native NVFP4 with trtllm_mha does not support PD disaggregation yet.",
                      "disaggregation_mode")
    if args.get("enable_hierarchical_cache") or args.get("enable_lmcache"):
        raise Refused("KV4_CONFLICT", "SM100 native NVFP4 with trtllm_mha does not support hierarchical KV cache or "
                      "LMCache yet.", "enable_hierarchical_cache")


@gate("unified_cache_external_linker_config", "enable_linker_mla_dedup", "enable_unified_cache_external_linker",
      "hicache_host_memory_mode", "disaggregation_decode_host_receive_threshold",
      context=("unified_cache_external_linker_backend", "disable_radix_cache", "radix_cache_backend",
               "enable_hierarchical_cache", "hicache_storage_backend", "disaggregation_decode_enable_offload_kvcache",
               "disaggregation_mode", "disaggregation_decode_retraction_backup", "hicache_io_backend", "dcp_size",
               "hicache_write_policy"))
def check_hicache_hook(args, rules):
    """handle_hicache (0.5.23 srt/arg_groups/hicache_hook.py), after the prefill-only backend check and before the
    data-parallel hook: the external linker's conflicts (the config type and the radix cache it needs: trait
    hicache_linker_radix_checks, 0.5.23), then the host memory mode of an active HiCache (0.5.19 on, its flag)."""
    radix_checks = rules["hicache_linker_radix_checks"]
    config = args.get("unified_cache_external_linker_config")
    if radix_checks and config is not None and not isinstance(config, dict):
        raise Refused("HICACHE_LINKER", "--unified-cache-external-linker-config must be a JSON object.",
                      "unified_cache_external_linker_config")
    linker = args.get("enable_unified_cache_external_linker")
    if args.get("enable_linker_mla_dedup") and (
            not linker or get(args, "unified_cache_external_linker_backend", "mooncake") != "mooncake"):
        raise Refused("HICACHE_LINKER", "--enable-linker-mla-dedup requires the Mooncake linker.",
                      "enable_linker_mla_dedup")
    if linker:
        if radix_checks and (args.get("disable_radix_cache") or args.get("radix_cache_backend") is not None):
            raise Refused("HICACHE_LINKER", "--enable-unified-cache-external-linker requires the default radix cache "
                          "(no --disable-radix-cache, no --radix-cache-backend).", "enable_unified_cache_external_linker")
        if args.get("enable_hierarchical_cache"):
            raise Refused("HICACHE_LINKER", "--enable-unified-cache-external-linker and --enable-hierarchical-cache "
                          "are mutually exclusive.", "enable_unified_cache_external_linker")
        if args.get("hicache_storage_backend") is not None:
            raise Refused("HICACHE_LINKER", "--enable-unified-cache-external-linker does not use "
                          "--hicache-storage-backend.", "hicache_storage_backend")
        return
    mode = get(args, "disaggregation_mode", "null")
    active = args.get("enable_hierarchical_cache") or args.get("disaggregation_decode_enable_offload_kvcache") or (
        mode == "decode" and args.get("disaggregation_decode_retraction_backup") in (None, "host_pool"))
    if active and args.get("hicache_host_memory_mode") == "buffer_only":
        if args.get("hicache_storage_backend") is None:
            raise Refused("HICACHE_HOST_MEMORY_MODE", "--hicache-host-memory-mode buffer_only requires "
                          "--hicache-storage-backend (host memory only stages to storage).", "hicache_storage_backend")
        # -- cache (session 16) --: then write_back (0.5.19-0.5.21; 0.5.22 on resolves it to write_through)
        if rules["hicache_buffer_refuses_write_back"] and args.get("hicache_write_policy") == "write_back":
            raise Refused("HICACHE_HOST_MEMORY_MODE", "--hicache-host-memory-mode buffer_only does not support "
                          "--hicache-write-policy write_back.", "hicache_write_policy")
        if mode == "decode":
            raise Refused("HICACHE_HOST_MEMORY_MODE", "--hicache-host-memory-mode buffer_only is not supported on "
                          "decode instances.", "hicache_host_memory_mode")
    # -- kv (session 14) --: decode host receive shares a layer_first host pool with KV transfer; SGLang sets that
    # layout, then the Mooncake / Ascend MemCache storage backend moves it to page_first(_direct) (trait
    # hicache_host_receive: "gt0" 0.5.21, a threshold above 0 turns it on; "lt1" from 0.5.22, below 1)
    receive = rules["hicache_host_receive"]
    threshold = args.get("disaggregation_decode_host_receive_threshold")
    if active and receive and threshold is not None and (threshold > 0 if receive == "gt0" else threshold < 1) and \
            args.get("hicache_storage_backend") in ("mooncake", "npu_memcache") and \
            args.get("hicache_io_backend") in (None, "direct", "kernel") and \
            not (receive == "lt1" and args.get("hicache_storage_backend") == "mooncake" and get(args, "dcp_size", 1) > 1):
        raise Refused("HICACHE_HOST_RECEIVE_LAYOUT", "The %s HiCache storage backend moves the host pool to a page-first "
                      "layout, which cannot share the layer_first decode host pool KV transfer uses "
                      "(--disaggregation-decode-host-receive-threshold %s)." % (args["hicache_storage_backend"], threshold),
                      "hicache_storage_backend")


# handle_page_major_kv_layout's allowed attention backends of an MHA target under the unified pool, and the
# linear-attention ones
PAGE_MAJOR_MHA_BACKENDS = ("triton", "fa3", "fa4", "flashinfer", "trtllm_mha")
PAGE_MAJOR_LINEAR_DECODE = ("triton", "flashinfer")
# handle_unified_memory_pool: the MHA backends whose speculative verify ids are translation-audited
UNIFIED_MHA_AUDITED = ("triton", "flashinfer", "fa3", "trtllm_mha")


@gate("enable_page_major_kv_layout", "enable_unified_memory",
      context=("linear_attn_backend", "linear_attn_decode_backend", "linear_attn_prefill_backend", "mamba_backend"))
def check_page_major_layout(args, rules, prefill, decode, mla=False, target_cfg=None):
    """handle_page_major_kv_layout, right after the KV cache compatibility hook (--enable-unified-memory implies
    the layout; trait unified_pool, releases.py). MHA targets (the MLA allow-lists are not modelled); 0.5.19-0.5.22
    refuse one whose K and V rows differ in width (uniform_kv_rows: kv_rows_asymmetric). From 0.5.17 the Mamba
    backend check after the linear-attention ones is not reached: --mamba-backend flashinfer is refused by the Mamba
    hook first where FlashInfer's Mamba is missing."""
    um = rules["unified_pool"]
    unified = args.get("enable_unified_memory")
    if um is None or not (args.get("enable_page_major_kv_layout") or unified):
        return
    if not unified and um["page_major_needs_unified"]:
        raise Refused("PAGE_MAJOR_KV_LAYOUT", "--enable-page-major-kv-layout without --enable-unified-memory is "
                      "temporarily unsupported.", "enable_page_major_kv_layout")
    if um["uniform_kv_rows"] and not mla and kv_rows_asymmetric(target_cfg):  # -- new19 (session 17) --
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory requires uniform K/V rows (head_dim == v_head_dim "
                      "and swa_head_dim == swa_v_head_dim): run this model without --enable-unified-memory.",
                      "enable_unified_memory")
    allowed = um["page_major_backends"] if unified else ("triton",)
    # -- kv (session 14) --: an MLA target's own allow-list (0.5.17 on) is not modelled (0.5.17-0.5.18 refuse its unified
    # DCP / PD first); 0.5.15-0.5.16 hold it to triton like any target
    bad = [] if mla and um["page_major_mla_own_list"] else \
        sorted({b for b in (prefill, decode) if b is not None} - set(allowed))
    if bad:
        raise Refused("PAGE_MAJOR_KV_LAYOUT", "--enable-page-major-kv-layout: attention backends %s are not in %s."
                      % (bad, list(allowed)), "attention_backend")
    base = get(args, "linear_attn_backend", "triton")
    linear_prefill = um["page_major_linear_prefill"]
    if linear_prefill is None:  # 0.5.15-0.5.16: every linear-attention and Mamba backend triton
        if {base, args.get("linear_attn_decode_backend"), args.get("linear_attn_prefill_backend"),
                get(args, "mamba_backend", "triton")} - {None, "triton"}:
            raise Refused("PAGE_MAJOR_KV_LAYOUT", "--enable-page-major-kv-layout requires the triton linear-attention "
                          "and Mamba backends.", "linear_attn_backend")
        return
    if get(args, "linear_attn_decode_backend", base) not in PAGE_MAJOR_LINEAR_DECODE:
        raise Refused("PAGE_MAJOR_KV_LAYOUT", "--enable-page-major-kv-layout: the linear-attention decode backend "
                      "must be one of %s." % list(PAGE_MAJOR_LINEAR_DECODE), "linear_attn_decode_backend")
    if get(args, "linear_attn_prefill_backend", base) not in linear_prefill:
        raise Refused("PAGE_MAJOR_KV_LAYOUT", "--enable-page-major-kv-layout: the linear-attention prefill backend "
                      "must be one of %s." % list(linear_prefill), "linear_attn_prefill_backend")


def kv_rows_asymmetric(target_cfg):
    """srt/configs/model_config.py has_asymmetric_kv for an MHA target (the MLA architectures rewrite these): head_dim
    (else hidden_size // num_attention_heads) against v_head_dim (None or 0: head_dim), swa_head_dim (None: head_dim)
    against swa_v_head_dim (None: swa_head_dim), from the text config. False when not given."""
    if not target_cfg:
        return False
    tc = text_cfg(target_cfg)
    head = tc.get("head_dim")
    if head is None:
        if not is_int(tc.get("hidden_size")) or not is_int(tc.get("num_attention_heads")) or not tc["num_attention_heads"]:
            return False
        head = tc["hidden_size"] // tc["num_attention_heads"]
    v = tc.get("v_head_dim") or head
    swa = tc.get("swa_head_dim")
    swa = head if swa is None else swa
    swa_v = tc.get("swa_v_head_dim")
    swa_v = swa if swa_v is None else swa_v
    return head != v or swa != swa_v


@gate("enable_unified_memory",
      context=("disaggregation_mode", "disaggregation_transfer_backend", "pp_size", "enable_hisparse",
               "disaggregation_decode_enable_offload_kvcache", "hicache_storage_backend",
               "disaggregation_decode_retraction_backup", "disaggregation_decode_enable_radix_cache",
               "speculative_draft_attention_backend", "enable_two_batch_overlap", "enable_lmcache",
               "enable_unified_cache_external_linker", "enable_hierarchical_cache", "dcp_size",
               "disable_cuda_graph", "cuda_graph_config", "cuda_graph_backend_prefill", "moe_a2a_backend", "deepep_mode",
               "enable_prefill_cp", "enable_mis"))
def check_unified_memory_pool(args, env, rules, r, prefill, decode, hybrid, mla=False):
    """handle_unified_memory_pool (right after the page-major layout hook), in SGLang's order; what each release
    checks is trait unified_pool (releases.py). `r`: the resolved settings (speculative algorithm and topk after
    the speculative hook); `hybrid`: the target's hybrid kind (checks.hybrid_kind: None, "swa" or "mamba")."""
    um = rules["unified_pool"]
    if um is None or not args.get("enable_unified_memory"):
        return
    algo = r.get("speculative_algorithm")
    mode = get(args, "disaggregation_mode", "null")
    if mode != "null":
        if um["pd"] is None:
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory does not support PD disaggregation in SGLang %s."
                          % rules["version"], "disaggregation_mode")
        _check_unified_pd(args, env, um, r, algo, hybrid, mla)
    if algo not in um["algorithms"]:
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory supports --speculative-algorithm %s only in SGLang %s, "
                      "got %r." % (" / ".join(a for a in um["algorithms"] if a), rules["version"], algo),
                      "speculative_algorithm")
    if (um["eagle"] or algo == "DSPARK") and r.get("speculative_eagle_topk") not in (None, 1):
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory supports a linear draft chain only "
                      "(--speculative-eagle-topk 1), got %r." % r.get("speculative_eagle_topk"), "speculative_eagle_topk")
    backends = {b for b in (prefill, decode) if b is not None}
    rails = um["eagle"]
    if algo in ("EAGLE", "EAGLE3"):
        if hybrid is None:
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with EAGLE/EAGLE3 requires a hybrid-SWA or "
                          "Mamba-hybrid target (the draft's KV lives inside the target's pool).", "enable_unified_memory")
        if None in (prefill, decode) or not backends <= set(rails):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with EAGLE/EAGLE3 requires the target on %s, got "
                          "%s." % (list(rails), sorted(backends)), "attention_backend")
        draft = args.get("speculative_draft_attention_backend")
        if not ({draft} if draft else backends) <= set(rails):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with EAGLE/EAGLE3 runs the draft on the MHA rails "
                          "%s: set --speculative-draft-attention-backend to one of them." % list(rails),
                          "speculative_draft_attention_backend")
    if algo == "DSPARK" and um["dspark_backends"]:  # -- new19 (session 17) --: DSPARK's verify rails (0.5.18 on)
        allowed = set(um["dspark_backends"]) - ({"flashinfer"} if rails and get(args, "dcp_size", 1) > 1 else set())
        if not backends <= allowed:
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory + DSPARK requires spec-verify-audited attention "
                          "backends %s for prefill and decode, got %s." % (sorted(allowed), sorted(backends)),
                          "attention_backend")
    if algo == "DFLASH":
        allowed = set(rails) - ({"flashinfer"} if get(args, "dcp_size", 1) > 1 else set())
        if not backends <= allowed:
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with DFLASH requires attention backends in %s for "
                          "prefill and decode, got %s." % (sorted(allowed), sorted(backends)), "attention_backend")
    # in SGLang's order; through 0.5.20 HiCache and LMCache in one assert (um["hicache"])
    for key, what, checked in (("enable_two_batch_overlap", "--enable-two-batch-overlap", um["tbo"]),
                               ("enable_hierarchical_cache", "--enable-hierarchical-cache", um["hicache"]),
                               ("enable_lmcache", "--enable-lmcache", True),
                               ("enable_unified_cache_external_linker", "--enable-unified-cache-external-linker",
                                um["linker"])):
        if checked and args.get(key):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory does not support %s." % what, key)
    if algo in ("EAGLE", "EAGLE3") and args.get("enable_hierarchical_cache"):
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with EAGLE/EAGLE3 does not support "
                      "--enable-hierarchical-cache.", "enable_hierarchical_cache")
    if get(args, "dcp_size", 1) > 1:
        # through 0.5.19 refused; then _validate_unified_memory_dcp: MLA targets only (an MHA one fails its first assert)
        dcp_backends = rules["unified_dcp_mla_backends"]
        if dcp_backends is None or not mla:
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with --dcp-size > 1 supports MLA models only.",
                          "dcp_size")
        # -- kv (session 14) --: the MLA path's next checks (0.5.20 on: trait unified_dcp_mla_backends)
        if hybrid == "swa":
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with --dcp-size > 1 does not support hybrid "
                          "sliding-window models.", "dcp_size")
        if mode != "null":
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with --dcp-size > 1 does not support PD "
                          "disaggregation.", "disaggregation_mode")
        if None not in (prefill, decode) and not backends <= set(dcp_backends):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with --dcp-size > 1 requires %s for the "
                          "full-attention layers, got %s." % (sorted(dcp_backends), sorted(backends)), "attention_backend")
    if um["piecewise_prefill"] == "flag":
        # -- cache (session 18) --: 0.5.19 kv_cache_hook.py: any prefill graph left on while the flag was given (its
        # value may be "disabled" and --cuda-graph-config's prefill backend win); --enable-mis disabled it before
        given = args.get("cuda_graph_backend_prefill")
        if isinstance(given, str) and not args.get("enable_mis") and \
                _prefill_graph_backend(args, mla) not in (None, "disabled"):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory supports decode cuda-graph capture only; prefill "
                          "capture is not wired: got --cuda-graph-backend-prefill %r, pass "
                          "--cuda-graph-backend-prefill disabled." % given, "cuda_graph_backend_prefill")
    elif um["piecewise_prefill"] and _prefill_graph_backend(args, mla) == "tc_piecewise":
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory supports monolithic (decode) cuda-graph capture only: "
                      "the prefill CUDA graph is tc_piecewise; pass --cuda-graph-backend-prefill disabled.",
                      "cuda_graph_backend_prefill")
    if um["trtllm_decode_graph"] and decode == "trtllm_mha" and not args.get("disable_cuda_graph"):
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory does not support decode CUDA graphs with the "
                      "trtllm_mha attention backend yet: pass --disable-cuda-graph or another decode backend.",
                      "attention_backend")


def _prefill_graph_backend(args, mla):
    """The prefill CUDA graph backend when the unified pool reads it (0.5.15-0.5.18 srt/server_args.py, 0.5.19
    arg_groups/kv_cache_hook.py), where the user
    set it: --cuda-graph-config's prefill backend, else --cuda-graph-backend-prefill (_parse_cuda_graph_config; a set
    backend skips the compatibility cascade). The hooks between them then disable it for DeepEP's normal mode
    (_handle_a2a_moe); torch_native / flex attention do too, but the page-major layout the pool implies refuses those
    first. None where the engine cannot tell: nothing set (the default, breakable on CUDA and tc_piecewise elsewhere, goes
    through _apply_cuda_graph_compatibility's cascade: not modelled), a deprecated alias of the flag (the parse keeps no
    constant), an MLA target's prefill CP (the DSA block may disable it)."""
    phase = _graph_config(args).get("prefill")
    if isinstance(phase, dict) and "backend" in phase:
        backend = phase["backend"]
    else:
        backend = args.get("cuda_graph_backend_prefill")
        if not isinstance(backend, str):
            return None
    if get(args, "moe_a2a_backend", "none") == "deepep" and args.get("deepep_mode") == "normal":
        return "disabled"
    if mla and args.get("enable_prefill_cp"):
        return None
    return backend


def _check_unified_pd(args, env, um, r, algo, hybrid, mla=False):
    """handle_unified_memory_pool's PD disaggregation branch (0.5.18 on)."""
    transfer = get(args, "disaggregation_transfer_backend", "mooncake")
    if transfer != "mooncake":
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with PD disaggregation supports only the mooncake "
                      "transfer backend, got %r." % transfer, "disaggregation_transfer_backend")
    if r["pp_size"] != 1:
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with PD disaggregation does not support pipeline "
                      "parallelism.", "pp_size")
    later = um["pd"] != "v18"  # 0.5.21 on: speculation, decode offload and the host-pool backup
    if later and algo is not None:
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with PD disaggregation does not support "
                      "speculative decoding with the Mooncake transfer backend.", "speculative_algorithm")
    if truthy_env(env, "SGLANG_DISABLE_LAZY_COMPACTION"):
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with PD disaggregation requires lazy compaction: "
                      "unset SGLANG_DISABLE_LAZY_COMPACTION.", "env")
    if args.get("enable_hisparse"):
        raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with PD disaggregation is not compatible with "
                      "--enable-hisparse.", "enable_hisparse")
    if not later:
        return
    if args.get("disaggregation_decode_enable_offload_kvcache"):
        if args.get("hicache_storage_backend") != "file":
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory with decode KV offload supports "
                          "--hicache-storage-backend file only.", "hicache_storage_backend")
        if mla:  # -- kv (session 14) --: before the hybrid checks
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory decode KV offload does not support MLA models "
                          "yet.", "disaggregation_decode_enable_offload_kvcache")
        if hybrid is not None:
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory decode KV offload does not support hybrid (%s) "
                          "models." % hybrid, "disaggregation_decode_enable_offload_kvcache")
    if args.get("disaggregation_decode_retraction_backup") == "host_pool":
        if um["pd"] == "v21" and args.get("disaggregation_decode_enable_radix_cache"):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory host-pool decode retraction does not support "
                          "--disaggregation-decode-enable-radix-cache.", "disaggregation_decode_retraction_backup")
        if hybrid == "mamba" or (um["pd"] == "v21" and hybrid is not None):
            raise Refused("UNIFIED_MEMORY", "--enable-unified-memory host-pool decode retraction does not support "
                          "hybrid (%s) models." % hybrid, "disaggregation_decode_retraction_backup")
