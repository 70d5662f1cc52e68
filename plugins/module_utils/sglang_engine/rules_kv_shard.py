# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""--enable-kv-cache-sharding (0.5.22 on; srt/arg_groups/kv_shard_hook.py handle_kv_cache_sharding), which runs right
after context parallelism and before the MoE kernel checks. PD prefill workers only (KV_SHARDING_PREFILL_ONLY), then
speculative decoding (0.5.22: none; 0.5.23: GLM DSA single-layer NextN EAGLE only, the trait kv_sharding_spec_arch:
KV_SHARDING_SPECULATIVE), then the rest of the chain in SGLang's order, one code for all of it (KV_SHARDING): the
cache extensions, DCP, HiCache storage (0.5.22: any HiCache), the target's attention kind (encoder-decoder, chunked
attention), the prefill attention backend (fa3, or trtllm_mla on an MLA model with plain TP), the PD transfer
backend, the GQA / MLA sharding axis, the page size, chunked prefill and the rounding of a chunk size that is no
multiple of the page (which needs the device memory when --mem-fraction-static is not given).

Every check of the chain raises the same code, so the chain refuses when any check surely refuses; a check whose
inputs the engine does not know (an unread config, a DSA target, a prefill backend left to the host, a page size an
MLA backend rewrites, the GPU's memory) only keeps it from saying the chain passes: then it is not modelled (the
host's SGLang answers it: mode installed). stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, truthy_env
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import attn_dp_of

# model_config.is_encoder_decoder_model (0.5.22-0.5.23 srt/configs/model_config.py)
_ENCODER_DECODER_ARCHS = ("WhisperForConditionalGeneration", "MllamaForConditionalGeneration",
                          "MossVLForConditionalGeneration")
# is_deepseek_dsa: one of these architectures with an index_topk (srt/configs/model_config.py)
_DSA_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLMNextN", "MistralLarge3ForCausalLM",
              "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM", "GlmMoeDsaForCausalLMNextN",
              "Glm5NextForConditionalGenerationNextN", "Glm5NextForConditionalGeneration", "LongcatFlashForCausalLM",
              "LongcatFlashForCausalLMNextN", "Dots3NoteForCausalLM", "Dots3NoteForCausalLMNextN", "HYV4ForCausalLM",
              "HYV4ForCausalLMNextN")
# the backends whose page-size constraints SGLang applies besides trtllm_mha's (overrides.py
# _mla_backend_page_constraints, _fa4_page_constraint, _intel_xpu_page_constraint): with one of them a page size of
# 1 may become 64 or 128, which the engine does not follow
_PAGE_REWRITING = ("flashmla", "trtllm_mla", "cutedsl_mla", "hpc_ops", "fa4", "intel_xpu")
# a bound on any GPU's memory (MiB): a rounding that needs more than this always consumes all of it
_GPU_MEMORY_BOUND_MIB = 1024 * 1024


@gate("enable_kv_cache_sharding",
      context=("disaggregation_mode", "speculative_algorithm", "speculative_eagle_topk", "enable_prefill_cp",
               "attn_cp_size", "dllm_algorithm", "radix_cache_backend", "disable_radix_cache",
               "enable_unified_cache_external_linker", "enable_streaming_session", "enable_session_radix_cache",
               "enable_flexkv", "enable_unified_memory", "dcp_size", "enable_hierarchical_cache",
               "hicache_storage_backend", "enable_lmcache", "enable_hisparse", "enable_dynamic_chunking", "pp_size",
               "enable_two_batch_overlap", "prefill_attention_backend", "attention_backend", "decode_attention_backend",
               "speculative_draft_attention_backend", "disable_chunked_prefix_cache", "disaggregation_transfer_backend",
               "tp_size", "attn_dp_size", "enable_dp_attention", "dp_size", "page_size", "chunked_prefill_size",
               "mem_fraction_static", "hicache_host_memory_mode", "hicache_io_backend", "hicache_mem_layout", "device",
               "cp_strategy", "dsa_prefill_backend", "dsa_decode_backend", "kv_cache_dtype",
               "enable_dsa_cache_layer_split"))
def check_kv_cache_sharding(args, rules, target_cfg, env=None, platform=None, prefill=None):
    """Raises Refused; returns the arguments with the chunk size SGLang rounds up to the page, or None."""
    if not args.get("enable_kv_cache_sharding"):
        return None
    if get(args, "disaggregation_mode", "null") != "prefill":
        raise Refused("KV_SHARDING_PREFILL_ONLY", "--enable-kv-cache-sharding is only supported on PD prefill workers "
                      "(--disaggregation-mode prefill).", "enable_kv_cache_sharding")
    algo = args.get("speculative_algorithm")
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    if algo is not None:
        allowed = rules["kv_sharding_spec_arch"]
        if allowed is None or algo != "EAGLE" or (target_cfg is not None and arch != allowed) or \
                get(args, "speculative_eagle_topk", 1) != 1:
            raise Refused("KV_SHARDING_SPECULATIVE", "--enable-kv-cache-sharding does not support speculative decoding "
                          "%s(got --speculative-algorithm %s)." % (
                              "" if allowed is None else "except single-layer NextN EAGLE with topk 1 on %s " % allowed,
                              algo), "enable_kv_cache_sharding")
        return None  # the GLM DSA MTP path: not modelled further
    env = env or {}
    platform = platform or {}
    chain = _Chain()
    _flag_checks(chain, args, rules, env, target_cfg)
    page = _backend_and_axis(chain, args, rules, target_cfg, env, platform, prefill)
    rounded = _page_and_chunk(chain, args, platform, page)
    if chain.refusal is not None:
        raise Refused("KV_SHARDING", chain.refusal, "enable_kv_cache_sharding")
    if rounded is None:
        return None
    # whether or not an unknown check refuses, check_server_args never sees the chunk size unrounded
    return dict(args, chunked_prefill_size=rounded)


class _Chain(object):
    """The first sure refusal of the chain (message), and whether some check's inputs were unknown."""
    __slots__ = ("refusal", "unknown")

    def __init__(self):
        self.refusal = None
        self.unknown = False

    def refuse(self, message):
        if self.refusal is None:
            self.refusal = message


def _flag_checks(chain, args, rules, env, target_cfg):
    """The chain's checks on flags, env and the target's kind, before the attention backend (SGLang's order)."""
    if args.get("dllm_algorithm") is not None:
        chain.refuse("--enable-kv-cache-sharding does not support diffusion language models (--dllm-algorithm).")
    if args.get("radix_cache_backend") is not None:
        chain.refuse("--enable-kv-cache-sharding requires the built-in UnifiedRadixCache: drop --radix-cache-backend.")
    core = env.get("SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND")
    if core is None:
        core = rules["kv_sharding_tree_core_default"]  # 0.5.23 sets python when the env is unset; 0.5.22 reads rust
    if not args.get("disable_radix_cache") and core != "python":
        chain.refuse("--enable-kv-cache-sharding requires the Python UnifiedTreeCore (SGLANG_UNIFIED_RADIX_TREE_CORE_"
                     "BACKEND=python), got %r; or --disable-radix-cache." % core)
    for key, what in (("enable_unified_cache_external_linker", "--enable-unified-cache-external-linker"),
                      ("enable_streaming_session", "streaming sessions"),
                      ("enable_session_radix_cache", "session radix cache"), ("enable_flexkv", "--enable-flexkv"),
                      ("enable_unified_memory", "--enable-unified-memory")):
        if args.get(key):
            chain.refuse("--enable-kv-cache-sharding does not support %s." % what)
    if get(args, "dcp_size", 1) > 1:
        chain.refuse("--enable-kv-cache-sharding and decode context parallelism (--dcp-size) are mutually exclusive.")
    hicache = args.get("enable_hierarchical_cache")
    if hicache and (rules["kv_sharding_refuses_hicache"] or args.get("hicache_storage_backend") is not None):
        chain.refuse("--enable-kv-cache-sharding does not support %s." % (
            "--enable-hierarchical-cache" if rules["kv_sharding_refuses_hicache"] else "--hicache-storage-backend"))
    if hicache and (target_cfg is None or _is_dsa(target_cfg)):
        if target_cfg is None or rules["kv_sharding_dsa"] != "checked":
            chain.unknown = True
        elif get(args, "hicache_host_memory_mode", "cache") != "cache":
            chain.refuse("CP-sharded DSA HiCache requires host memory mode cache.")
        else:
            # the HiCache hook's layout / I/O normalisation first (hicache_hook.py resolve_layout_io_compatibility)
            io, layout = get(args, "hicache_io_backend", "kernel"), get(args, "hicache_mem_layout", "layer_first")
            if layout == "page_first_direct" and io == "kernel":
                io = "direct"
            if io != "kernel" or layout not in ("layer_first", "page_first"):
                chain.refuse("CP-sharded DSA HiCache requires kernel I/O with layer_first or page_first (got %s I/O, "
                             "%s layout)." % (io, layout))
    if args.get("enable_lmcache"):
        chain.refuse("--enable-kv-cache-sharding does not support --enable-lmcache.")
    if args.get("enable_hisparse"):
        chain.refuse("--enable-kv-cache-sharding does not support --enable-hisparse.")
    if args.get("enable_dynamic_chunking") and get(args, "pp_size", 1) > 1:
        chain.refuse("--enable-kv-cache-sharding does not support --enable-dynamic-chunking with pipeline parallelism.")
    if args.get("enable_two_batch_overlap"):
        chain.refuse("--enable-kv-cache-sharding does not support --enable-two-batch-overlap.")
    if target_cfg is None:
        chain.unknown = True
        return
    archs = target_cfg.get("architectures") or []
    if any(a in _ENCODER_DECODER_ARCHS for a in archs):
        chain.refuse("--enable-kv-cache-sharding does not support encoder-decoder models (%s)." % archs[0])
    if text_cfg(target_cfg).get("attention_chunk_size") is not None:
        chain.refuse("--enable-kv-cache-sharding does not support chunked/local-attention models yet.")


def _is_dsa(cfg):
    archs = cfg.get("architectures") or [None]
    return archs[0] in _DSA_ARCHS and text_cfg(cfg).get("index_topk") is not None


def _backend_and_axis(chain, args, rules, target_cfg, env, platform, prefill):
    """validate_kv_shard_attention_backend, the transfer backend, the staging env and the sharding axis (GQA: prefill
    CP; MLA: plain TP). Returns the page size SGLang resolved, or None when a backend may rewrite it."""
    mla = None if target_cfg is None else "kv_lora_rank" in text_cfg(target_cfg)
    cp = get(args, "attn_cp_size", 1)
    dsa = target_cfg is not None and _is_dsa(target_cfg)
    if target_cfg is None or (dsa and rules["kv_sharding_dsa"] != "checked" and not mla):
        chain.unknown = True
    elif dsa and rules["kv_sharding_dsa"] == "checked":
        _dsa_backend(chain, args, target_cfg, prefill)
    elif mla and args.get("prefill_attention_backend") is None and args.get("attention_backend") is None and \
            platform.get("no_gpu") is not True:
        chain.unknown = True  # an MLA target's default backend on a GPU is the host's
    elif prefill is None:
        chain.unknown = True
    elif prefill != "fa3":
        if prefill != "trtllm_mla":
            chain.refuse("--enable-kv-cache-sharding currently requires the fa3 prefill attention backend, or "
                         "trtllm_mla for plain-TP MLA; got %r." % prefill)
        elif not mla:
            chain.refuse("KV sharding with trtllm_mla requires an MLA model.")
        elif cp > 1:
            chain.refuse("KV sharding with trtllm_mla only supports plain-TP MLA (attn_cp_size must be 1).")
        elif args.get("disable_chunked_prefix_cache"):
            chain.refuse("KV sharding with trtllm_mla requires chunked prefix caching.")
    if get(args, "disaggregation_transfer_backend", "mooncake") not in ("mooncake", "nixl"):
        chain.refuse("--enable-kv-cache-sharding currently only supports the mooncake and nixl transfer backends; got "
                     "--disaggregation-transfer-backend %r." % args["disaggregation_transfer_backend"])
    if truthy_env(env, "SGLANG_DISAGG_STAGING_BUFFER"):
        chain.refuse("--enable-kv-cache-sharding is incompatible with SGLANG_DISAGG_STAGING_BUFFER.")
    if mla is None:
        chain.unknown = True
    elif mla:
        if dsa and rules["kv_sharding_dsa"] == "refused":
            chain.refuse("--enable-kv-cache-sharding does not support DSA models yet (indexer buffers are not striped).")
        elif cp <= 1:
            if attn_dp_of(args) > 1:
                chain.refuse("--enable-kv-cache-sharding for MLA models without prefill CP needs plain TP attention; "
                             "set --attn-dp-size=1.")
            elif get(args, "tp_size", 1) <= 1:
                chain.refuse("--enable-kv-cache-sharding for MLA models without prefill CP needs tp_size > 1.")
    elif not args.get("enable_prefill_cp") or cp <= 1:
        chain.refuse("--enable-kv-cache-sharding for GQA models shards across attention-CP ranks and requires "
                     "--enable-prefill-cp with attn_cp_size > 1.")
    page = get(args, "page_size", 1)
    backends = (args.get("attention_backend"), args.get("decode_attention_backend"), prefill,
                args.get("prefill_attention_backend"), args.get("speculative_draft_attention_backend"))
    if "trtllm_mha" in backends and page not in (16, 32, 64, 128):
        page = 64  # SGLang's TensorRT-LLM MHA page sizes, as resolve() applies them
    if page <= 1 and any(b in _PAGE_REWRITING for b in backends):
        return None
    return page


# the architectures whose DSA defaults (KV dtype, DSA backends, page size) the model-specific hook fills (0.5.23
# model_hook.py): for them an unset value is the host's; for the others (the NextN heads) it stays unset
_DSA_DEFAULTS_ARCHS = ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "MistralLarge3ForCausalLM",
                       "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM", "Glm5NextForConditionalGeneration",
                       "HYV4ForCausalLM", "HYV4ForCausalLMNextN", "LongcatFlashForCausalLM", "Dots3NoteForCausalLM")


def _dsa_backend(chain, args, target_cfg, prefill):
    """validate_kv_shard_attention_backend on a DSA target (0.5.23): the dsa backend, then its topology, kernels and
    KV layout, then the transfer and indexer layout."""
    if prefill is None:
        chain.unknown = True
        return
    if prefill != "dsa":
        chain.refuse("DSA KV sharding requires the dsa attention backend (got %r)." % prefill)
        return
    if str(args.get("device") or "cuda") != "cuda" or not args.get("enable_prefill_cp") or \
            get(args, "attn_cp_size", 1) <= 1 or args.get("cp_strategy") != "interleave" or get(args, "pp_size", 1) != 1:
        chain.refuse("DSA KV sharding requires CUDA interleave prefill CP > 1 and PP1.")
        return
    filled = ((target_cfg.get("architectures") or [None])[0]) in _DSA_DEFAULTS_ARCHS
    values = [args.get("dsa_prefill_backend"), args.get("dsa_decode_backend"), args.get("kv_cache_dtype"),
              args.get("page_size")]
    if None in values and filled:
        chain.unknown = True  # the model-specific hook's DSA defaults
    elif values != ["trtllm", "trtllm", "fp8_e4m3", 64]:
        chain.refuse("DSA KV sharding requires TRTLLM prefill/decode with fp8_e4m3 KV and page size 64.")
        return
    t = text_cfg(target_cfg)
    if get(args, "disaggregation_transfer_backend", "mooncake") != "mooncake" or \
            args.get("enable_dsa_cache_layer_split") or t.get("index_kpool", 1) != 1 or t.get("index_kpool_compress"):
        chain.refuse("DSA KV sharding requires Mooncake, uncompressed index_kpool=1 and no DSA cache layer splitting.")


def _page_and_chunk(chain, args, platform, page):
    """The page size, chunked prefill and the chunk-size rounding; returns the rounded chunk size (or None)."""
    if page is None:
        chain.unknown = True
        return None
    if page <= 1:
        chain.refuse("--enable-kv-cache-sharding requires a real page size (--page-size 64 recommended).")
        return None
    chunk = args.get("chunked_prefill_size")
    no_gpu = platform.get("no_gpu") is True
    if chunk is None:
        # handle_gpu_memory_settings: 2048, 4096, 8192 or 16384 by the GPU's memory, 4096 without one
        if no_gpu:
            chunk = 4096
        elif 2048 % page == 0:
            return None
        else:
            chain.unknown = True
            return None
    if chunk <= 0:
        chain.refuse("--enable-kv-cache-sharding requires chunked prefill (--chunked-prefill-size > 0).")
        return None
    if chunk % page == 0:
        return None
    rounded = (chunk + page - 1) // page * page
    delta_mib = 1.5 * (max(rounded, 2048) - max(chunk, 2048))
    if args.get("mem_fraction_static") is None and delta_mib > 0:
        if no_gpu:
            chain.refuse("Cannot safely auto-round --chunked-prefill-size %s for KV sharding without a known "
                         "device-memory capacity; pass a multiple of page_size (%s)." % (chunk, page))
            return None
        if delta_mib > _GPU_MEMORY_BOUND_MIB and platform.get("gpus_known"):
            chain.refuse("Auto-rounding --chunked-prefill-size %s for KV sharding would consume all automatically "
                         "reserved GPU memory; pass a smaller multiple of %s." % (chunk, page))
            return None
        chain.unknown = True  # the corrected memory fraction: the GPU's memory and SGLang's default fraction
    return rounded
