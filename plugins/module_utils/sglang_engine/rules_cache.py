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

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get


@gate("disaggregation_decode_retraction_backup", "disaggregation_decode_host_receive_threshold",
      "radix_eviction_policy", "enable_hierarchical_cache", "disaggregation_decode_enable_offload_kvcache",
      "swa_full_tokens_ratio", "swa_prefix_tails", "enable_lmcache",
      context=("disaggregation_mode", "dcp_size", "enable_priority_scheduling", "disable_priority_preemption",
               "radix_eviction_policy_config", "disable_radix_cache", "hicache_storage_backend",
               "enable_unified_cache_external_linker", "enable_dp_attention", "dp_size", "attn_dp_size",
               "enable_streaming_session", "hicache_host_memory_mode",
               "disaggregation_decode_enable_radix_cache"))
def check_cache_compatibility(args, rules, algo):
    """In SGLang's order: the host-pool retraction backup, the T-LRU eviction config, hierarchical cache
    without a radix cache, decode KV offload, the SWA ratio and prefix tails, LMCache."""
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


@gate("hicache_host_memory_fraction", "ple_offload_embedding", context=("cpu_offload_gb", "offload_group_size"))
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
