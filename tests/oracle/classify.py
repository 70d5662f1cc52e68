"""The tests' own reading of SGLang's refusals: raw message (or, for a bare assert, the asserting source
line) -> the stable code the engine must give. Independent of the engine's pattern table
(sglang_engine/messages.py), so the engine is not graded by itself; test_classifier_matches_raw_text
checks each entry against the raw text SGLang gave in the run.

Each entry: (code, regex on the message, regex on the source line of a message-less assert or None).
The first entry whose message regex matches wins; a refusal no entry matches is UNCLASSIFIED, which
always counts as a disagreement.
"""
import os
import re

TABLE = (
    ("PARSE_AMBIGUOUS", r"ambiguous option", None),
    ("PARSE_UNRECOGNIZED", r"unrecognized arguments", None),
    ("PARSE_MISSING_VALUE", r"expected (at least )?one argument", None),
    ("PARSE_INVALID_VALUE", r"argument --[\w-]+: invalid|ignored explicit argument", None),
    ("UNKNOWN_ALGORITHM", r"Unknown speculative algorithm name", None),
    ("DFLASH_DEVICE", r"^DFLASH speculative decoding (is not supported by|only supports CUDA)", None),
    ("DFLASH_DP_ATTENTION", r"^Currently DFLASH speculative decoding does not support dp attention", None),
    ("DFLASH_DP_LM_HEAD", r"^DFLASH with dp attention requires --enable-dp-lm-head", None),
    ("DFLASH_PP", r"^Currently DFLASH speculative decoding only supports pp_size == 1", None),
    ("DFLASH_NO_DRAFT", r"^DFLASH speculative decoding requires setting --speculative-draft-model-path", None),
    ("DFLASH_BLOCK_SIZE_NONPOSITIVE", r"^DFLASH requires --speculative-dflash-block-size to be positive", None),
    ("DFLASH_BLOCK_SIZE_MISMATCH", r"^Both --speculative-num-draft-tokens and --speculative-dflash-block-size are "
                                   r"set but they differ", None),
    ("WINDOW_NONPOSITIVE", r"(^DFLASH requires --speculative-dflash-draft-window-size to be positive|"
                           r"^--speculative-draft-window-size must be positive)", None),
    ("WINDOW_LT_BLOCK", r"draft-window-size must be >= --speculative-num-draft-tokens", None),
    ("SINK_NEGATIVE", r"^--speculative-draft-sink-size must be non-negative", None),
    ("SINK_WITHOUT_WINDOW", r"^--speculative-draft-sink-size requires --speculative-draft-window-size", None),
    ("EAGLE_TRTLLM_TOPK", r"trtllm_mha backend only supports topk = 1", None),
    ("ENV_DP_SPEC_PREFILL", r"DP spec/prefill coordination requires", None),
    ("PP_SPEC_PREFILL_ONLY", r"^PP \+ speculative decoding \(MTP\) is only supported on prefill", None),
    ("PP_SPEC_ENV", r"^SGLANG_ENABLE_PP_SPEC is not compatible", None),
    ("PP_SPECULATIVE", r"^Pipeline parallelism currently only supports EAGLE", None),
    ("EAGLE_PAGE_TREE", r"speculative_eagle_topk > 1 with page_size > 1", None),
    ("TRTLLM_MHA_GPU", r"^TRTLLM MHA backend for (prefill|decode) (requires|is only supported)", None),
    ("TRTLLM_MHA_SM120_FP8", r"^TRTLLM FMHAv2 prefill on SM120 does not support", None),
    ("TRTLLM_MHA_PREFILL_CP", r"^Prefill context parallelism with the TRTLLM MHA prefill backend requires SM100", None),
    ("DETERMINISTIC_ATTENTION_BACKEND", r"^Currently only \[[^]]*\] attention backends are supported for deterministic "
                                        r"inference, but you explicitly specified", None),
    ("DFLASH_DP_DEVICE", r"^DFLASH with dp attention requires CUDA or NPU\.$", None),
    ("DFLASH_DP_CP", r"^DFLASH with dp attention does not support context parallel\.$", None),
    ("REJECTION_SAMPLING_DETERMINISTIC", r"^(Deterministic rejection sampling is currently supported only on CUDA|"
                                         r"--speculative-use-rejection-sampling is incompatible with "
                                         r"--enable-deterministic-inference)", None),
    ("ADAPTIVE_STEPS", r"^--speculative-num-steps=\d+ is not in the adaptive config candidate_steps", None),
    ("REJECTION_SAMPLING_ALGORITHM", r"^--speculative-use-rejection-sampling is only supported for EAGLE", None),
    ("REJECTION_SAMPLING_TOPK", r"^--speculative-use-rejection-sampling requires --speculative-eagle-topk=1", None),
    ("REJECTION_SAMPLING_THRESHOLD", r"^--speculative-use-rejection-sampling is incompatible with "
                                     r"--speculative-accept-threshold-single", None),
    ("FLEX_ATTENTION_SPECULATIVE", r"^Speculative decoding is currently not supported with Flex Attention backend$",
     None),
    ("EAGLE_TOPK_MISSING", r"^'>' not supported between instances of 'NoneType' and 'int'$", None),
    ("EAGLE_PARAMS_PARTIAL", r"^AssertionError$", r"speculative_(num_steps|eagle_topk|num_draft_tokens) is None"),
    ("DP_ATTENTION_TP", r"^AssertionError$", r"tp_size % cfg\.attn_dp_size == 0|tp_size % (self|cfg)\.dp_size == 0"),
    ("CONTEXT_TOO_LONG", r"^Warning: User-specified context_length \(\d+\) is greater than the derived context_length", None),
    ("WATERMARK_ALGORITHM", r"^--enable-watermark supports speculative algorithms", None),
    ("BASE_GPU_ID", r"^base_gpu_id must be non-negative", None),
    ("GPU_ID_STEP", r"^gpu_id_step must be positive$", None),
    ("SSL_PAIR", r"^(--ssl-keyfile requires --ssl-certfile|--ssl-certfile requires --ssl-keyfile|--ssl-ca-certs has no "
                 r"effect without|--ssl-keyfile-password has no effect without|--enable-ssl-refresh requires "
                 r"--ssl-certfile and --ssl-keyfile)", None),
    ("SERVED_MODEL_NAME_COLON", r"^served_model_name cannot contain a colon \(':'\) character", None),
    ("CHUNKED_PREFILL_PAGE", r"^chunked_prefill_size must be divisible by page_size$", None),
    ("WORKER_NUM", r"^(Tokenizer|Detokenizer) worker num must >= 1$|^Multimodal (processor|I/O) worker num must >= 0$",
     None),
    ("NNODES_TP", r"^tp_size must be divisible by number of nodes$", None),
    ("PP_MICRO_BATCH", r"^pp_max_micro_batch_size must be a positive integer or None", None),
    ("MOE_DENSE_TP", r"^moe_dense_tp_size only supports? (None, 1, or tp_size|1 and None) currently$", None),
    ("LORA_MAX_PER_BATCH", r"^max_loras_per_batch must be positive$", None),
    ("LORA_SPECULATIVE", r"^(Currently )?LoRA is only compatible with NGRAM", None),
    ("LORA_TARGET_MODULES", r"^(If 'all' is specified in --lora-target-modules, it should be the only module|When no "
                            r"initial --lora-paths is provided, you need to specify both --max-lora-rank)", None),
    ("LORA_MAX_LOADED", r"^(max_loaded_loras should be greater than or equal to max_loras_per_batch|The number of LoRA "
                        r"paths should not exceed max_loaded_loras)", None),
    ("LORA_DRAIN_THRESHOLD", r"^--lora-drain-wait-threshold must be non-negative\.$", None),
    ("METRICS_BUCKETS", r"^(--(prompt|generation)-tokens-buckets (TSE|default|custom) (rule|base|count|middle)|"
                        r"Unsupported --(prompt|generation)-tokens-buckets rule type)", None),
    ("DP_MULTI_NODE", r"^(multi-node data parallel is not supported unless dp attention!|multi-node data-parallel "
                      r"replicas are not supported)", None),
    ("LORA_OVERLAP_LOADING", r"^Enabling LoRA overlap loading requires pinning LoRA adapter weights", None),
    ("LORA_SPECULATIVE", r"^LoRA with EAGLE/NEXTN/EAGLE3 speculative decoding does not support --speculative-adaptive",
     None),
    ("EXPORT_METRICS_DIR", r"^--export-metrics-to-file-dir is required when --export-metrics-to-file", None),
    ("QUANT_COMMUNICATIONS", r"^Communications quantization is only (used with tp_size != 1|supported for NPU device)$",
     None),
    ("GRPC_PORT", r"^--grpc-port \(\d+\) must differ from --port \(\d+\)$", None),
    ("GC_THRESHOLD", r"^When setting gc_threshold, it must contain 1 to 3 integers\.$", None),
    ("KV_CANARY", r"^--kv-canary-sweep-interval requires --kv-canary in \{log, raise\}$", None),
    ("PRIORITY_SCHEDULE_POLICY", r"^To use priority scheduling, schedule_policy must be 'fcfs' or 'lof'", None),
    ("RETRACTION_PRIORITY", r"^--retraction-policy priority requires --enable-priority-scheduling$", None),
    ("SCHEDULE_CONSERVATIVENESS", r"^schedule_conservativeness must be non-negative$", None),
    ("PD_DECODE_RADIX_BACKEND", r"^--disaggregation-decode-enable-radix-cache currently requires "
                                r"--disaggregation-transfer-backend nixl", None),
    ("PP_SPECULATIVE", r"^Pipeline parallelism is not compatible with overlap schedule, speculative decoding", None),
    ("PD_DECODE_RADIX", r"^--disaggregation-decode-enable-radix-cache is incompatible with speculative decoding", None),
    ("BLOCK_VERIFICATION_ALGORITHM", r"^--speculative-use-block-verification only supports EAGLE", None),
    ("BLOCK_VERIFICATION_DEVICE", r"^--speculative-use-block-verification only supports CUDA", None),
    # validation_hook.py (rules_validation): early validations, aux hidden-state capture, check_server_args, watermark
    ("PREFILL_DECODE_INTERVAL", r"^--prefill-decode-interval(-min-bs)? must be non-negative\.$", None),
    ("RESPONSE_STORE_PD", r"^--enable-response-store is not supported with --disaggregation-mode", None),
    ("SAMPLING_MASK_MAX_TOKENS", r"^--sampling-mask-max-tokens must be positive", None),
    ("AUX_HIDDEN_STATES", r"^--(enable-)?return-aux-hidden-state", None),
    ("CUDA_GRAPH_PADDING_TORCH_COMPILE", r"^--disable-cuda-graph-padding is incompatible with --enable-torch-compile",
     None),
    ("PP_MIN_FREE_SLOTS", r"^--min-free-slots-delay is not supported with pipeline parallelism", None),
    ("MODEL_IMPL_MINDSPORE", r"^MindSpore model impl is only supported on Ascend npu", None),
    ("LOAD_FORMAT_INSTANTTENSOR", r"^InstantTensor requires a CUDA-compatible device", None),
    ("METRICS_CUSTOM_LABELS", r"^Please set --tokenizer-metrics-custom-labels-header when setting", None),
    ("TWO_BATCH_OVERLAP", r"^When enabling two batch overlap(,| without an EP a2a backend)", None),
    ("SAMPLING_BACKEND_DEVICE", r"^--sampling-backend intel_xpu requires --device xpu", None),
    ("WATERMARK_DEVICE", r"^--enable-watermark requires --device cuda", None),
    ("UNO_ARGS", r"^UNO ", None),
    ("PDMUX", r"^PD-Multiplexing is (only supported with pipeline parallelism disabled|not compatible with)", None),
    ("HTTP_WORKER_REUSEPORT", r"^--enable-http-worker-reuseport requires", None),
    ("HTTP2_LIMITS", r"^--http2-(max-concurrent-streams|initial-connection-window-size) must be between", None),
    ("ASR_LIMITS", r"^--asr-max-(buffer-seconds|concurrent-sessions) must be positive", None),
    ("GRPC_ARGS", r"^(--grpc-response-timeout-secs must be positive|--grpc-port / SGLANG_GRPC_PORT \(-?\d+\) must be "
                  r"between|--grpc-port is not supported with|Native gRPC does not yet support|--grpc-port is "
                  r"incompatible with --api-key)", None),
    ("GRPC_SIDECAR", r"^--sidecar(-args requires --sidecar| must not be empty| requires)", None),
    ("TOKENIZER_BATCHING", r"^Cannot enable both --enable-tokenizer-batch-encode and --enable-dynamic-batch", None),
    ("NGRAM_ARGS", r"^(Ngram speculative decoding only supports|--speculative-ngram-external-(sam-budget|corpus-max-tokens) "
                   r"must be positive|speculative_ngram_external_sam_budget must be less than|Currently ngram "
                   r"speculative decoding does not support dp attention)", None),
    ("NGRAM_PAGE_TREE", r"^speculative_eagle_topk\(\d+\) > 1 with page_size\(\d+\) > 1 is unstable", None),
    ("STANDALONE_DP_ATTENTION", r"^Currently standalone speculative decoding does not support dp attention", None),
    ("WATERMARK_CONFLICT", r"^--enable-watermark (is incompatible with|is not supported with)", None),
    ("CACHE_HOST_POOL", r"^--disaggregation-decode-retraction-backup=host_pool (is only supported on a PD decode "
                        r"server|does not support --dcp-size > 1|requires --disable-priority-preemption)", None),
    ("RADIX_EVICTION_TLRU", r"^--radix-eviction-policy tlru (requires non-negative|needs 'threshold' greater)", None),
    ("HICACHE_NO_RADIX", r"^The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive",
     None),
    ("DECODE_OFFLOAD_KVCACHE", r"^The argument(s)? disaggregation-decode-enable-offload-kvcache (is only supported|and "
                               r"disaggregation-decode-retraction-backup=host_pool are mutually exclusive)", None),
    ("SWA_FULL_TOKENS_RATIO", r"^--swa-full-tokens-ratio should be in range \(0, 1\.0\]\.$", None),
    ("SWA_PREFIX_TAILS", r"^--swa-prefix-tails should be a non-negative integer\.$", None),
    ("LMCACHE_CONFLICT", r"^(--enable-lmcache and --enable-(hierarchical-cache|unified-cache-external-linker) are "
                         r"mutually exclusive$|--enable-lmcache requires radix cache to be enabled$|"
                         r"--hicache-host-memory-mode=buffer_only is a HiCache-only mode$)", None),
    ("LMCACHE_UNSUPPORTED", r"^(LMCacheUnifiedRadixCache (does not yet support|currently supports colocated)|"
                            r"--enable-lmcache with --dcp-size > 1 is not supported)", None),
    ("HICACHE_HOST_MEMORY_FRACTION", r"^--hicache-host-memory-fraction must be in \(0, 1\]\.$", None),
    ("PLE_OFFLOAD_CONFLICT", r"^--ple-offload-embedding cannot be combined with --cpu-offload-gb", None),
    ("PD_HOST_RECEIVE_THRESHOLD", r"^(--disaggregation-decode-host-receive-threshold must be between 0 and 1$|"
                                  r"Decode host receive does not yet support|"
                                  r"Decode host KV buffering requires host_pool)", None),
    ("ENCODER_DISAGG", r"^(--enable-prefix-mm-cache requires --encoder-only|Cannot set --encoder-only and "
                       r"(--language-only|--disaggregation-mode prefill/decode) together$)", None),
    ("ENCODER_DISAGG_MODEL", r"^Model type \w+ is not supported for encoder disaggregation", None),
    ("MAMBA_FLAGS", r"^(--mamba-cache-philox-rounds must be non-negative\.$|--mamba-max-states-per-path must be -1 "
                    r"\(unlimited\) or a positive integer|Stochastic rounding for the Mamba SSM cache (requires "
                    r"--mamba-ssm-dtype float16|is only supported on NVIDIA CUDA|with --mamba-backend triton requires "
                    r"SM100))", None),
    ("INT8_MAMBA_CHECKPOINT", r"^--enable-int8-mamba-checkpoint (is not supported together|only supports the built-in)",
     None),
    # the KV dtype / pool hooks of kv_cache_hook.py and the HiCache hook (sglang_engine/rules_cache.py)
    ("PREFILL_ONLY_NO_KV_CACHE", r"^--prefill-only-disable-kv-cache (currently requires|does not currently support|"
                                 r"requires --|is incompatible with)", None),
    ("NVFP4_PREFILL_DEQUANT", r"^(--prefill-kv-cache-dequant-dtype(=\w+)? (applies only with|requires prefill backend)|"
                              r"NVFP4 prefill supports an FP8 E4M3 workspace|Native NVFP4 prefill currently requires "
                              r"SM100|NVFP4 decode requires --decode-attention-backend=trtllm_mha)", None),
    ("KV_CACHE_DTYPE_GPU", r"^(--kv-cache-dtype mxfp8 requires an SM100\+ \(Blackwell\) GPU|KV4 is not tested on "
                           r"non-CUDA platforms\.$|--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120)", None),
    ("KV4_CONFLICT", r"^(FP4 KV cache does not yet support --enable-unified-memory|SM100 native NVFP4 )", None),
    ("KV4_BACKEND", r"^KV4 (FA4 )?(MHA|MLA) expects (decode_)?attention_backend to be one of", None),
    ("HICACHE_LINKER", r"^(--unified-cache-external-linker-config must be a JSON object\.$|--enable-linker-mla-dedup "
                       r"requires the Mooncake linker\.$|--enable-unified-cache-external-linker (requires the default "
                       r"UnifiedRadixCache|and --enable-hierarchical-cache are mutually exclusive|does not use "
                       r"--hicache-storage-backend))", None),
    ("HICACHE_HOST_MEMORY_MODE", r"^--hicache-host-memory-mode buffer_only (requires a storage backend|is not "
                                 r"supported on decode instances)", None),
    ("PAGE_MAJOR_KV_LAYOUT", r"^--enable-page-major-kv-layout(:| without --enable-unified-memory| requires the Triton)", None),
    ("UNIFIED_MEMORY", r"^--enable-unified-memory ", None),
    ("LAYERNORM_SP", r"^(--enable-megamoe-for-layernorm-sp (requires --enable-layernorm-sp|supports only Muse Spark)|"
                     r"--enable-layernorm-sp (is only supported for|requires tp_size > 1|is not compatible with|"
                     r"supports speculative decoding only with Muse Spark DFLASH))", None),
    # parallelism (sglang_engine/rules_parallel.py)
    ("DCP_SIZE", r"^Decode context parallel size \(--dcp-size / --decode-context-parallel-size\) must be >= 1", None),
    ("DCP_PLATFORM", r"^Decode context parallel \(--dcp-size / --decode-context-parallel-size > 1\) (on CUDA platform "
                     r"does not support any speculative|is currently only supported on the AMD HIP)", None),
    ("DCP_PREFILL_CP", r"^--dcp-size > 1 does not support --enable-prefill-cp\.$", None),
    ("DCP_COMM_BACKEND", r"^--dcp-comm-backend (a2a|fi_a2a) only affects the decode context-parallel|^--dcp-comm-backend "
                         r"fi_a2a delegates the exchange to FlashInfer's MNNVL All-to-All kernel", None),
    ("DCP_REPLICATE_Q_PROJ", r"^--dcp-replicate-q-proj (requires --dcp-size > 1|only applies to the a2a/fi_a2a)", None),
    ("DWDP", r"^(dwdp_size \(\d+\) must equal tp_size|DWDP requires --disaggregation-mode null or prefill|EPLB dynamic "
             r"migration conflicts with static DWDP|DWDP does not support speculative decoding|DWDP requires pp_size == 1|"
             r"DWDP's prefetch event protocol does not support two-batch overlap)", None),
    ("ATTN_DP_SIZE", r"^--attn-dp-size must be positive|^--dp-size \d+ with --attn-dp-size \d+: data-parallel replicas", None),
    ("CP_STRATEGY", r"^--cp-strategy must be set when --enable-prefill-cp is enabled\.$", None),
    ("CP_TOPOLOGY", r"^(tp_size must be divisible by (attn_cp_size|(attn_dp|dp)_size \* attn_cp_size|moe_dp_size)|ep_size \* "
                    r"moe_dp_size must be (less than or equal|equal) to tp_size|PP is not supported with context "
                    r"parallelism|attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1)$", None),
    ("SHARED_EXPERTS_TP", r"^--shared-experts-tp-size (\(-?\d+\) must be a positive divisor|is only supported for "
                          r"Kimi-K3|requires an expert-parallel all-to-all)", None),
    ("EP_DISPATCH_ALGORITHM", r"^--ep-dispatch-algorithm (static|lp) picks a different physical replica per rank", None),
    ("EPLB_EP_SIZE", r"^AssertionError$", r"assert .*ep_size > 1"),
    ("KV_SHARDING_PREFILL_ONLY", r"^--enable-kv-cache-sharding is only supported on PD prefill workers", None),
    ("KV_SHARDING_SPECULATIVE", r"^(--enable-kv-cache-sharding does not support speculative decoding\.$|KV sharding "
                                r"supports speculative decoding only for GLM DSA)", None),
    ("KV_SHARDING", r"^(--enable-kv-cache-sharding |KV sharding with trtllm_mla|DSA KV sharding|CP-sharded DSA HiCache)",
     None),
    ("MOE_RUNNER_QUANTIZATION", r"^Invalid quantization '[\w-]+'\. \nFlashInfer (Cutlass|CuteDSL|TRTLLM|TRTLLM routed) MOE "
                                r"(currently )?supports only", None),
    ("MODEL_ARCHITECTURE_FLAG", r"^--(enable-dsa-cache-layer-split is only supported for DSA|enable-cp-decode-attn-tp is "
                                r"only supported for models whose attention)", None),
    ("MOE_NVFP4_ONLINE", r"^--quantization nvfp4_online (is supported only on NVIDIA Blackwell|supports only "
                         r"--moe-runner-backend)", None),
    ("MOE_RUNNER_A2A", r"^flashinfer_cutedsl (supports moe_a2a_backend=|per-token NVFP4 activation requires|FP4 MoE only "
                       r"supports DeepEP low_latency)", None),
    ("MOE_A2A_FLASHINFER", r"^(--flashinfer-a2a-dispatch-type (requires --moe-a2a-backend flashinfer|mxfp8 requires|nvfp4 "
                           r"requires)|Flashinfer MoE A2A (is only supported with|requires --attn-dp-size)|FlashInfer MoE "
                           r"A2A is supported with)", None),
    ("MOE_A2A_MEGAMOE", r"^(FlashInfer MegaMOE (is not validated|currently supports only|is only supported with|a2a backend "
                        r"requires|currently requires an SM100)|--moe-a2a-backend megamoe (has no two-batch|needs a CUDA "
                        r"SM90))", None),
    ("MOE_A2A_DEEPEP_V2", r"^(DeepEP v2 (MoE is not validated for|MoE currently supports only|MoE has not implemented the "
                          r"TBO|MoE has not validated fused|does not forward deterministic)|--deepep-v2-mode direct is "
                          r"NVLink-only)", None),
    ("MOE_A2A_PPLX", r"^moe_a2a_backend='pplx' (only supports low-latency|requires (attention DP|--enable-dp-attention)|is "
                     r"only supported with --moe-runner-backend)", None),
    ("MOE_RUNNER_EP_SIZE", r"^(The expert parallel size must be 1 or the same as the tensor parallel size|FP8/MXFP8 "
                           r"Cutlass MoE is only supported with ep_size == 1)$", None),
    ("ELASTIC_EP", r"^(Elastic EP requires eplb_algorithm|PP size should be set to 1 under elastic EP|--elastic-ep-join-mode "
                   r"requires --elastic-ep-backend|Elastic EP scale-up requires one joining TP group|Elastic EP scale "
                   r"joiners require --elastic-ep-join-rank-offset|--elastic-ep-join-rank-offset is only valid with|elastic "
                   r"EP join rank offset must be >= 0|--max-ep-size (requires --elastic-ep-backend|must be a positive)|"
                   r"--elastic-ep-initial-size is only valid for an Elastic EP)", None),
    # -- moe (session 14) --
    ("LAYERNORM_SP_MUSE", r"^(Muse Spark --enable-layernorm-sp requires (TP4/EP4 or TP8/EP8|serialized NVFP4 weights|"
                          r"--moe-a2a-backend flashinfer|--moe-runner-backend flashinfer_trtllm|SGLANG_MOE_NVFP4_DISPATCH=0)|"
                          r"Muse MegaMoE (prefill requires --moe-a2a-backend none or flashinfer|needs \d+ tokens per rank, "
                          r"exceeding capacity|requires positive prefill and per-rank token budgets|breakable prefill "
                          r"requires (a positive --chunked-prefill-size|the largest prefill capture bucket)|LayerNorm SP "
                          r"requires pipeline parallel size 1)|--enable-megamoe-for-layernorm-sp is incompatible with "
                          r"--enable-mixed-chunk)", None),
    ("MOE_A2A_FLASHINFER_ENV", r"^(SGLANG_MOE_NVFP4_DISPATCH cannot be set together with --flashinfer-a2a-dispatch-type|"
                               r"CuTe DSL NVFP4 W4A16 requires (BF16 FlashInfer MoE dispatch|--flashinfer-a2a-dispatch-type "
                               r"bf16))", None),
    ("MOE_A2A_MEGAMOE_ENV", r"^(FlashInfer MegaMOE NVFP4 W4A16 requires (SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE=bf16|--dtype "
                            r"bfloat16)|SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE( must be one of|=.* is incompatible with "
                            r"SGLANG_FLASHINFER_MEGAMOE_IN_KERNEL_FC2_REDUCE))", None),
    ("MOE_A2A_DISPATCH_BUDGET", r"^(SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK \(default 4096\) must be (>= the per-rank "
                                r"MoRI dispatch tokens|larger or equal to chunked_prefill_size)|"
                                r"SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK \(default 128\) must be >= the per-rank pplx|"
                                r"FlashInfer MoE A2A requires chunked prefill: eager prefill|\w+ with MegaMoE requires "
                                r"(chunked prefill to be enabled|a positive effective per-rank chunked prefill size|"
                                r"SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK to cover (each rank's effective prefill|"
                                r"the largest decode))|DeepEP v2 per-rank (prefill budget|decode CUDA graph) exceeds "
                                r"SGLANG_DEEPEP_V2_NUM_MAX_DISPATCH_TOKENS_PER_RANK|FlashInfer MoE A2A per-rank token budget "
                                r"exceeds its workspace)", None),
    ("MOE_A2A_DEEPEP_V2", r"^DeepEP v2 MoE is not validated as a speculative draft backend", None),
)
_COMPILED = [(code, re.compile(m), re.compile(s) if s else None) for code, m, s in TABLE]


def source_line(answer, source_root):
    """The source line an answer raised at (for message-less asserts), or ''."""
    where = answer.get("where")
    if not where or not source_root:
        return ""
    path = os.path.join(os.path.dirname(source_root), where[0])
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        return lines[where[1] - 1].strip() if 0 < where[1] <= len(lines) else ""
    except OSError:
        return ""


def classify(answer, source_root=None):
    """The code for SGLang's refusal in `answer` (None when it accepted)."""
    msg = answer.get("error")
    if msg is None:
        return None
    line = None
    for code, mrx, srx in _COMPILED:
        if not mrx.search(msg):
            continue
        if srx is None:
            return code
        if line is None:
            line = source_line(answer, source_root)
        if srx.search(line):
            return code
    return "UNCLASSIFIED"
