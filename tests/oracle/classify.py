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
    ("DLLM_MODEL", r"^Unknown diffusion LLM: ", None),  # -- engfix (session 15) --
    # -- engfix (session 15) --: the data-parallel hook's DP LM head check (every release)
    # -- engfix (session 15) --: resolve_once's validate_mps_runtime (0.5.22 on; on this Linux host: no MPS device)
    ("MPS_RUNTIME", r"^The (standard )?SGLang MPS (backend|model path) requires", None),
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
    ("SKIP_DP_MLP_SYNC", r"^--speculative-skip-dp-mlp-sync is only supported with speculative_algorithm == EAGLE",
     None),  # -- old-b (session 15) --
    ("PD_DECODE_DCP", r"^PD decode DCP (requires --disaggregation-transfer-backend (mooncake or nixl|mooncake, nixl, or "
     r"fake for)|currently requires chunk cache)", None),
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
    # -- engfix (session 15) --: --dp-size 0 with --enable-dp-attention divides by zero on the same assert (0.5.11-0.5.21)
    ("DP_ATTENTION_TP", r"^(AssertionError|integer modulo by zero)$",
     r"tp_size % cfg\.attn_dp_size == 0|tp_size % (self|cfg)\.dp_size == 0"),
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
    # -- moe18 (session 18) --: and 0.5.12-0.5.13's two-batch overlap with fused shared experts
    ("TWO_BATCH_OVERLAP", r"^(When enabling two batch overlap(,| without an EP a2a backend)|--enable-two-batch-overlap "
                          r"and --enforce-shared-experts-fusion cannot be used together)", None),
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
    ("GRPC_SIDECAR", r"^--sidecar(-args requires --sidecar| must not be empty| requires| is not yet supported with "
                     r"SGLANG_RUST_SERVER)", None),
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
    # -- misc (session 15) --: handle_encoder_disaggregation's Muse Spark check (0.5.23)
    # -- oldnon (session 17) --: 0.5.11-0.5.12.post1 _handle_encoder_disaggregation, 0.5.11's speculative hook
    ("ENCODER_DISAGG", r"^requires at least one encoder urls to be set via --encoder-urls$", None),
    ("SPEC_MOE_RUNNER_BACKEND", r"^Currently speculative MoE runner backend doesn't support flashinfer_trtllm", None),
    ("ENCODER_DISAGG", r"^Muse language-only servers do not load local encoders; --enable-adaptive-dispatch-to-encoder "
                       r"is not supported\.$", None),
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
                                 r"supported on decode instances|does not support --hicache-write-policy write_back)", None),
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
    ("CP_STRATEGY", r"^(--cp-strategy must be set when --enable-prefill-cp is enabled\.$|--enable-prefill-context-parallel and "
     r"--enable-nsa-prefill-context-parallel are mutually exclusive)", None),
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
    # -- misc (session 15) --: handle_model_specific_adjustments' Intern-S2-Mobius branch (0.5.18 on)
    ("MODEL_ARCHITECTURE_FLAG", r"^Intern-S2-Mobius does not support: (pipeline parallelism \(--pp-size must be 1\)|expert "
                                r"parallelism \(--ep-size must be 1\))(; expert parallelism \(--ep-size must be 1\))?\.$", None),
    # -- misc (session 15) --: handle_mamba_radix_cache on a target without Mamba state (0.5.21 on)
    ("MAMBA_RADIX_CACHE", r"^--mamba-radix-cache-strategy extra_buffer(_lazy)? needs mamba state, got \w+\.$", None),
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
                   r"--elastic-ep-initial-size is only valid for an Elastic EP|--elastic-ep-rejoin \(deprecated\) "
                   r"conflicts with --elastic-ep-join-mode|Elastic EP rejoin requires elastic_ep_backend)", None),  # the last two: old-b
    # -- parallel (session 14) --
    # the elastic EP scale-up checks (--max-ep-size above --tp-size; parallel_hook.py handle_elastic_ep, 0.5.16 on)
    ("ELASTIC_EP", r"^(Invalid attention topology: tp_size=|EP size -?\d+ must be divisible by attention replica size|"
                   r"Elastic EP scale-up (with attention TP greater than one requires|requires (--load-balance-method "
                   r"round_robin|--pp-size 1|--dcp-size to divide|attention DP|--enable-dp-attention|--enable-dp-lm-head|"
                   r"--attn-cp-size 1|--moe-dp-size 1|ep_size == tp_size|dp_size == tp_size|attn_dp_size == tp_size|"
                   r"--moe-a2a-backend nixl))|--elastic-ep-scale-timeout must be greater than zero|Elastic EP runtime "
                   r"scale-up (currently requires --tokenizer-worker-num 1|does not support --(use-ray|enable-elastic-"
                   r"expert-backup)|requires (--elastic-ep-backend mooncake|prefill CUDA graph to be disabled|decode and "
                   r"prefill CUDA graphs)|supports decode CUDA graph backend)|Elastic EP scale joiners require "
                   r"--elastic-ep-initial-size|--elastic-ep-initial-size cannot exceed the current EP size|Elastic EP "
                   r"joining group exceeds --max-ep-size|A single-rank Elastic EP joining group requires|The primary "
                   r"--elastic-ep-initial-size must equal|Elastic EP CUDA graph recapture (requires CUDA|does not support))",
     None),
    ("ELASTIC_EP", r"^AssertionError$", r"assert (cfg|self|server_args)\.elastic_ep_initial_size > 0"),
    # --enable-aiter-allreduce-fusion with attention CP or MoE DP (handle_context_parallelism)
    ("CP_AITER_FUSION", r"^Aiter allreduce fusion is not supported with context parallelism$", None),
    # --load-format expert_pack (expert_pack_hook.py, 0.5.19 on): every error found, raised together
    ("EXPERT_PACK", r"^Invalid expert_pack configuration:", None),
    # the context-parallel hook's model checks (handle_context_parallelism, _boundary_parallelism_overrides)
    ("CP_MODEL", r"^(Nemotron-H does not support --attn-cp-size > 1|LongCat-Flash does not support --enable-prefill-cp "
                 r"with --attn-cp-size > 1|DeepSeek V3\.2 prefill CP does not support --cp-strategy zigzag|MiMo V2 "
                 r"(prefill CP|CP-v2) only supports (--cp-strategy zigzag|text inference; add --language-only))", None),
    # -- moe (session 16) --: the model hook's MiMo V2 branch (handle_model_specific_adjustments, every release)
    ("MIMO_V2_ATTN_TP", r"^MiMoV2ForCausalLM requires effective attention TP size \d+ because its fused qkv_proj weights "
                        r"are TP=\d+-interleaved; got \d+ \(tp_size=\d+, (dp_size=\d+, enable_dp_attention=(True|False)|"
                        r"attn_dp_size=\d+), attn_cp_size=\d+\)", None),
    # -- gpu16 (session 17) --: the deprecated SGLANG_CUTLASS_MOE's assert (0.5.11-0.5.17 handle_moe_kernel_config)
    ("CUTLASS_MOE_ENV", r"^cutlass MoE is only supported with fp8/mxfp8 quantization$", None),
    ("DUAL_CHUNK_ATTENTION", r"^Dual chunk attention is enabled, but attention backend is set to \w+\. Please set it to "
                             r"'dual_chunk_flash_attn'\.$", None),  # the attention hook's dual-chunk pass (0.5.11-0.5.19)
    # -- gpu16 (session 17) --: _handle_cache_compatibility's first check (0.5.15-0.5.16 server_args.py)
    ("SESSION_RADIX_CACHE", r"^--enable-session-radix-cache requires --radix-eviction-policy priority$", None),
    # -- gpu16 (session 17) --: the same branch's HiCache check (0.5.14-0.5.18 server_args.py)
    ("MIMO_V2_HICACHE", r"^Hierarchical cache for MiMoV2 requires the unified radix tree\. Set "
                        r"SGLANG_ENABLE_UNIFIED_RADIX_TREE=1", None),
    # CP-TP group sharing (cp_tp_group_sharing_hook.py resolve_cp_tp_group_sharing)
    ("CP_TP_SHARING", r"^(CP-TP group sharing requires --(attn-cp-size == --tp-size|cp-strategy)|--speculative-algorithm "
                      r"is not supported with CP-TP group sharing|CP/TP group sharing only supports|--[\w -=>!]+ is not "
                      r"supported with CP-TP group sharing|SGLANG_DISAGG_STAGING_BUFFER is not supported with CP-TP group "
                      r"sharing|\w+=\d+ must be divisible by --tp-size=\d+\.$)", None),
    # -- specserve (session 14): serving_hook.py --
    ("MM_CONFIG", r"^(mm_preprocess_cache_size_mb must be non-negative$|mm_process_config(\['(image|video|audio)'\])? must "
                  r"be a dict, but got)", None),
    ("IMAGE_PROCESSOR_CONFLICT", r"^--disable-fast-image-processor conflicts with --image-processor-backend=", None),
    ("GRPC_ARGS", r"^(SGLANG_GRPC_WORKER_THREADS \(-?\d+\) must be >= 1|SGLANG_GRPC_PORT \(-?\d+\) must be between 1 and "
                  r"65535)$", None),
    ("GRPC_SIDECAR", r"^--sidecar-args must be a JSON array of strings\.$", None),
    ("MM_FEATURE_TRANSPORT", r"^--mm-feature-transport=cuda_(vmm|ipc) (requires NVIDIA CUDA\.|does not support pipeline "
                             r"parallelism\.|only supports a single node\.|is not supported with SGLANG_RUST_SERVER\.)$",
     None),
    # -- cache (session 16) --: --keep-mm-feature-on-device with another transport (0.5.16-0.5.20)
    ("MM_FEATURE_TRANSPORT", r"^--keep-mm-feature-on-device conflicts with --mm-feature-transport=\w+\. Use only "
                             r"--mm-feature-transport=cuda_ipc\.$", None),
    ("FP4_INDEXER_GPU", r"^--enable-deepseek-v4-fp4-indexer requires SM100", None),
    ("CHAT_TEMPLATE_KWARGS", r"^--default-chat-template-kwargs must decode to a JSON object$", None),
    ("MM_LIMIT_MODALITY", r"^Invalid modality '[^']*' in --limit-mm-data-per-request", None),
    ("PREFERRED_SAMPLING_WATERMARK", r"^watermark is not supported in --preferred-sampling-params$", None),
    # speculative_hook.py
    ("GEMMA4_DRAFT_ALGORITHM", r"^Gemma4AssistantForCausalLM draft requires --speculative-algorithm NEXTN or EAGLE", None),
    ("DSPARK_ARGS", r"^(DSpark speculative decoding only supports (CUDA|CUDA or NPU|CUDA, NPU or XPU) device\.$|DSpark with dp "
                    r"attention requires --enable-dp-lm-head\.$|Currently DSpark speculative decoding only supports "
                    r"pp_size == 1\.$|DSpark pipeline parallelism requires PD prefill;|DSpark dense speculative decoding "
                    r"requires setting --speculative-draft-model-path\.$|DSpark requires --speculative-dspark-block-size "
                    r"to be positive|DSpark speculative_num_draft_tokens must equal gamma \+ 1)", None),
    ("DSPARK_ARGS", r"^(DSpark with dp attention (supports moe_a2a_backend|only supports the built-in TP MoE)|DSpark (DP MoE "
                    r"or prefill coordination|with dp attention \+ moe_a2a_backend='\w+') requires "
                    r"SGLANG_RAGGED_VERIFY_MODE=static\.$|DSpark with dp attention does not support context parallel|DSpark "
                    r"ignores --speculative-moe-a2a-backend|DSpark speculative_num_draft_tokens must be >= 2)", None),
    # -- attn (session 14) --
    ("LINEAR_ATTN_FLAGS", r"^(--linear-attn-decode-backend flashkda is not supported: FlashKDA is prefill-only|"
                          r"--enable-linear-replayssm requires (the Triton linear-attn decode backend|Triton, or Helion "
                          r"for KDA)|--enable-linear-replayssm is not supported under PD disaggregation|"
                          r"--enable-linear-replayssm requires --mamba-radix-cache-strategy no_buffer \(the default\)|"
                          r"--linear-replayssm-cache-len must be >= 1|--enable-linear-replayssm-spec (requires a linear "
                          r"draft chain|requires the triton or flashinfer linear-attn decode backend|with "
                          r"SGLANG_RAGGED_VERIFY_MODE=[\w-]+ requires the KDA|is not supported on a PD prefill server|"
                          r"and --enable-linear-replayssm are mutually exclusive))", None),
    # -- mamba (session 16) --: 0.5.16's --enable-gdn-replayssm-spec (srt/server_args.py _handle_linear_attn_backend)
    ("LINEAR_ATTN_FLAGS", r"^(--enable-gdn-replayssm-spec (requires a linear draft chain \(--speculative-eagle-topk in|"
                          r"requires the Triton linear-attn decode backend|is not yet compatible with mamba extra_buffer|"
                          r"is not supported under PD disaggregation yet|and --enable-linear-replayssm are mutually "
                          r"exclusive|requires --mamba-ssm-dtype float32, got)|--linear-replayssm-cache-len must be a "
                          r"power of two for the circular spec-verify ring|--linear-replayssm-cache-len must be >= 2 \* the maximum "
                          r"speculative draft-token count for the spec-verify ring)", None),
    # 0.5.15 srt/server_args.py _handle_linear_attn_backend: --enable-linear-replayssm with an extra_buffer strategy
    # builds its message from self.mamba_scheduler_strategy, which 0.5.15's ServerArgs lacks (the refusal it gives)
    ("LINEAR_ATTN_FLAGS", r"^'ServerArgs' object has no attribute 'mamba_scheduler_strategy'$", None),
    ("RAGGED_VERIFY_MODE", r"^invalid SGLANG_RAGGED_VERIFY_MODE=", None),
    ("MULTI_ITEM_SCORING_BACKEND", r"^Multi-item scoring requires flashinfer attention backend for custom attention "
                                   r"mask support", None),
    ("DETERMINISTIC_MLA_BACKEND", r"^(Currently only \[.*\] attention backends are supported for deterministic "
                                  r"inference with (DeepSeek|absorbed-MLA) models\. But you're using|Deterministic "
                                  r"inference with (DeepSeek|absorbed-MLA) models on the fa4 attention backend requires "
                                  r"SM100/SM110)", None),
    ("MAMBA_FLASHINFER", r"^FlashInfer mamba module not available, please check (the )?[Ff]lash[Ii]nfer installation",
     None),
    ("MAMBA_RADIX_CACHE", r"^(extra_buffer is not supported for \w+; use no_buffer\.|extra_buffer requires platform "
                          r"support for Mamba cache state snapshots\.|extra_buffer needs CUDA(/[A-Za-z]+)+ \(FLA\)\.|"
                          r"extra_buffer_lazy unsupported under PD disaggregation; use --mamba-radix-cache-strategy "
                          r"extra_buffer\.|extra_buffer_lazy unsupported with (spec\.|\w+; use --mamba-radix-cache-"
                          r"strategy extra_buffer\.)|no_buffer only supports page_size=1\.|no_buffer do not support "
                          r"overlap schedule\. Try to set disable_overlap_schedule=True\.|no_buffer do not support "
                          r"trtllm_mha attention backend\.)$", None),
    ("MAMBA_RADIX_CACHE", r"^AssertionError$", r"^assert (view|self)\.mamba_track_interval (>= (view|self)\."
                                               r"speculative_num_draft_tokens|% (view|self)\.page_size == 0)$"),
    ("PD_PREFILL_COMPLETE", r"^--disaggregation-decode-allocation-policy prefill_complete does not yet support ", None),
    # -- misc (session 15) --: handle_other_validations (0.5.22 on)
    ("PD_PREFILL_COMPLETE", r"^prefill_complete requires optimistic prefill, but the resolved model/cache configuration "
                            r"disabled it\.$", None),
    ("PD_DECODE_RADIX_CONFLICT", r"^--disaggregation-decode-enable-radix-cache is incompatible with (--enable-hisparse|"
                                 r"--disaggregation-transfer-backend fake)$", None),
    ("PD_DECODE_RADIX_BACKEND", r"^--disaggregation-decode-enable-radix-cache currently requires "
                                r"--disaggregation-transfer-backend in \('nixl', 'mooncake'\), but got", None),
    ("PD_PREFILL_FAKE", r"^Prefill server does not support 'fake' as the transfer backend$", None),
    ("PD_RUST_BOOTSTRAP_PORT", r"^SGLANG_RUST_SERVER serves the PD KV bootstrap registry on the api port itself; "
                               r"--disaggregation-bootstrap-port \d+ conflicts with --port", None),
    ("PD_STAGING_BUFFER", r"^SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake'", None),
    ("PD_ROLE_SWITCH", r"^--enable-pd-role-switch does not rebuild role-specific state for the following features: ",
     None),
    # -- validation (session 14) --
    ("LORA_PATHS_JSON", r"looks like a JSON str, but it does not contain 'lora_name' and 'lora_path' keys\.$", None),
    ("LORA_V2_MODE", r"^(--lora-backend triton_v2|--moe-runner-backend lora_\w+) does not yet support (DP-attention with "
                     r"--attn-dp-size > 1|PD-multiplexing|two-batch overlap|SGLANG_EXPERIMENTAL_LORA_OPTI|ROCm)$", None),
    ("LORA_MOE_RUNNER", r"^(--speculative-moe-runner-backend lora_\w+ is not supported: the LoRA MoE runner serves "
                        r"adapter traffic|--moe-runner-backend lora_\w+ (requires --enable-lora \(or --lora-paths\)|"
                        r"requires --lora-backend triton_v2|supports unquantized BF16, 128-block FP8 and ModelOpt NVFP4|"
                        r"cannot run ModelOpt NVFP4 MoE|requires Standard dispatch, got|does not yet support elastic EP|"
                        r"currently requires trivial expert placement))", None),
    ("LORA_SPECULATIVE", r"^LoRA with EAGLE/NEXTN/EAGLE3 speculative decoding does not support (the experimental_sgl_"
                         r"trtllm MoE runner|SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1)", None),
    ("WATERMARK_CONFIG", r"^(--watermark-config requires --enable-watermark$|watermark (key_b requires a server key|"
                         r"mixing_probability must be strictly between 0 and 1|mixing_probability requires key_b|"
                         r"max_probability must be greater than 0 and at most 1|default_enabled and enforce_all require "
                         r"a server key)$|watermark config (exceeds 4096 bytes|must be a JSON object|contains unknown "
                         r"fields|context_window must be an integer|\w+ must be a (number|boolean))|failed to read "
                         r"watermark config JSON$|watermark key must)", None),
    ("LOAD_PUBLISH", r"^(--load-publish-endpoint requires --kv-events-config|--kv-events-config is not parseable:|"
                     r"--load-publish-endpoint needs an active --kv-events-config publisher|--load-publish-endpoint(=auto "
                     r"needs a bindable|=.* needs a routable tcp://|=.* is not a bindable tcp://| range \[\d+, \d+\) "
                     r"overlaps the kv-events range)|load port range from \d+ would run past the u16 ceiling$)", None),
    ("SAMPLING_MASK_ENV", r"^SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS is no longer supported\. Unset it", None),
    # -- cache (session 16) --: _handle_expert_distribution_metrics (0.5.18 server_args.py, 0.5.19-0.5.20 parallel_hook.py)
    ("EPLB_BALANCEDNESS_ENV", r"^SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC is no longer supported\. Use "
                              r"--expert-balancedness-report-mode", None),
    ("PP_SPEC_ENV", r"^SGLANG_ENABLE_PP_SPEC does not support DSPARK PD prefill$", None),
    ("IB_DEVICE", r"^No valid IB devices specified$", None),
    # -- misc (session 15) --: speculative_hook.py _handle_iquest_q1_mtp_draft (0.5.21 on)
    ("IQUEST_MTP_DRAFT", r"^(IQuest Q1 requires an independent (draft model path|MTP draft checkpoint)|MTP draft hidden size "
     r"and vocabulary must match the target|MTP draft target layer count must match the target|MTP uses its own "
     r"full-vocabulary embedding and head|MTP requires positive speculative_num_steps|MTP requires "
     r"--speculative-eagle-topk 1|MTP verification width must equal draft steps \+ 1)\.$", None),
    ("PARSE_RETIRED_FLAG", r"^sglang serve: error: --enable-expert-distribution-metrics is no longer supported\.", None),
    # -- model (session 14) --
    ("MODEL_OVERRIDE_UNSUPPORTED", r"^(IQuestQ1 (applies its attention sink from the softmax LSE|requires FA3 attention "
     r"for the MTP draft|does not support context parallelism|speculative decoding requires --speculative-eagle-topk 1)|"
     r"IQuest Q1 (MTP requires serial EAGLE or NEXTN|MTP drafting does not support multi-layer EAGLE|does not support DP "
     r"attention|does not support pipeline parallelism)|MiniCPM does not support DP attention|MiniCPM SALA does not "
     r"support hierarchical cache|MiniCPM sparse attention does not support PD disaggregation|ERNIE 4\.5 VL MoE does not "
     r"support DP attention|MossVLForConditionalGeneration requires flashinfer prefill attention backend|"
     r"--enable-prefill-cp is not supported for HYV4 because|--dcp-size > 1 is not supported for HYV4 because|DSA DCP does "
     r"not support (HiSparse or HiCache|PD disaggregation)|DSA DCP requires --speculative-eagle-topk 1|Context parallel "
     r"only supports single machine \(tp_size <= 8\)|--dcp-size > 1 is not supported for DSA with index_kpool=|"
     r"interleave DSA CP does not support DP attention|The [\w/]+ DSA prefill/decode kernels only support an fp8_e4m3 "
     r"KV cache on ROCm/HIP|"
     r"--enable-two-batch-overlap is not supported with DSA index-topk "
     r"sharing|Learnable DSA attention sinks require a bfloat16 KV cache|DeepSeek DSA only supports bf16/bfloat16 or "
     r"fp8_e4m3|The [\w/]+ DSA backend is only supported on ROCm/HIP|CUDA TileLang FP8 KV (requires both DSA backends|does "
     r"not support --dcp-size|requires SM89)|\w+ uses learnable attention sinks and requires --dsa-|CP is only supported "
     r"for prefill when PD disaggregation|--enable-dsa-cache-layer-split (is not supported on decode workers|is only "
     r"supported on PD prefill workers|requires --enable-prefill-cp and --cp-strategy interleave|currently only supports "
     r"the mooncake transfer backend|is not supported with pipeline parallelism)|GptOssForCausalLM requires one of \[|"
     r"Triton kernel MoE is only supported when ep_size == 1|fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is "
     r"required for Llama4 model|Gemma4 only supports [\w, ]+ attention backend, got prefill=|One of the attention "
     r"backends in \[.*\] is required for \w+, but got|FlashInfer backend can significantly degrade the performance of "
     r"Olmo3|\w+ does not support triton attention backend, ?as the first layer might not be an attention layer)", None),
    ("WEIGHT_CACHE_SPECULATIVE", r"^--weight-cache-mode is not supported together with speculative decoding "
     r"\(--speculative-algorithm\)", None),
    ("LANGUAGE_MODEL_ONLY", r"^--language-model-only (cannot be combined with --|is incompatible with --disaggregation-mode "
     r"prefill/decode|does not support \[)", None),
    ("ENCODER_REPLAY_MODEL", r"^--enable-encoder-swa-bounded-replay requires DeepSeek-V4\.1$", None),
    # -- new19 (session 17) --: model_hook.py handle_model_capability_adjustments (0.5.22 Clef; 0.5.23 Clef or Kev)
    ("JOINT_HEAD_PARALLEL", r"^(Clef|Kev) checkpoints are served with --tp-size 1 and --pp-size 1", None),
    # -- dsv4 (session 15) --: arg_groups/deepseek_v4_hook.py, overrides.py _deepseek_v4_kv_cache_dtype
    ("DSV4_KV_DTYPE", r"^\w+ is not supported for DeepseekV4ForCausalLM$", None),
    ("DSV4_ATTN_BACKEND", r"^--dsv4-attn-backend (flashmla_mega requires DeepSeek-V4\.1 on SM100/SM103\.|trtllm requires "
     r"an SM100/SM103|trtllm requires kv_cache_dtype=fp8_e4m3|trtllm does not support (enable_hisparse|context "
     r"parallelism|PD disaggregation)|trtllm requires chunked prefill)", None),
    ("DSV4_SPECULATIVE", r"^Only EAGLE (and DSPARK speculative algorithms are|speculative algorithm with topk == 1 is|"
     r"speculative algorithm is) supported for DeepseekV4ForCausalLM$", None),
    ("DSV4_CP", r"^(DeepSeekV4 only supports interleave(/zigzag)? CP strategy, got|DeepSeekV4 zigzag CP requires the NPU "
     r"backend|For round-robin split mode, dp attention is not supported\.$|DeepSeekV4 CP supports moe_a2a_backend in|"
     r"DeepSeekV4 only supports round-robin-split CP mode, got)", None),
    # -- oldnon (session 17) --: 0.5.11's DSA block (prefill CP on one machine of exactly 8 GPUs)
    ("MODEL_OVERRIDE_UNSUPPORTED", r"^Current multi-machine CP support suffers from precision issues\. So context parallel "
                                   r"only support Single machine\(tp_size == 8\)$", None),
    # -- oldnon (session 17) --: 0.5.12's apply_deepseek_v4_defaults
    ("DSV4_PD_PP", r"^V4 PD disaggregation requires pp_size=1, got pp_size=\d+\.$", None),
    ("ENCODER_REPLAY_UNSUPPORTED", r"^--enable-encoder-swa-bounded-replay does not support .* yet$", None),
    ("ENCODER_REPLAY_BUDGET", r"^encoder SWA replay requires (--max-running-requests > 0 and at least \d+ chunked|explicit "
     r"--max-running-requests and --chunked-prefill-size >= 128$)", None),
    ("DSV41_UNSUPPORTED", r"^(DeepSeek-V4\.1 does not support .* yet; disable it to serve this model\.$|DeepSeek-V4\.1 "
     r"TRT-LLM requires --cuda-graph-backend-prefill|DeepSeek-V4\.1 DSpark PD requires static verify|"
     r"--enable-decoder-swa-bounded-replay cannot be combined with .* yet; disable one of them\.$)", None),
    # -- kv (session 14) --
    # KV cache sharding's chunk-size rounding (kv_shard_hook.py handle_kv_cache_sharding), the chain's other code
    ("KV_SHARDING", r"^(Cannot safely auto-round --chunked-prefill-size for KV sharding|Auto-rounding "
                    r"--chunked-prefill-size for KV sharding would consume)", None),
    # the CUDA graph hook, the memory settings' CPU graph, the offload check, the HiCache host-receive layout
    ("CUDA_GRAPH_CONFIG", r"^--cuda-graph-config\[\w+\]\.backend='[^']*' not allowed; allowed:", None),
    ("CUDA_GRAPH_BATCH_SIZES", r"should contain positive batch sizes$", None),
    ("CUDA_GRAPH_PREFILL_MAX_CONTEXT", r"^(--cuda-graph-prefill-max-context (must be a positive integer|exceeds the model "
                                       r"context length)|page_size must be resolved before prefill CUDA graph max context)",
     None),
    ("PLE_OFFLOAD_BACKEND", r"^--ple-offload-backend file requires --ple-offload-embedding", None),
    ("HICACHE_HOST_RECEIVE_LAYOUT", r"^The resolved HiCache storage layout '\w+' cannot share the layer_first decode "
                                    r"host pool", None),
    # --enable-hisparse (hisparse_hook.py validate_hisparse, check_server_args' legacy slot)
    ("HISPARSE_MODEL", r"^--enable-hisparse is only supported for DSA", None),
    ("HISPARSE_RADIX_CACHE", r"^Hierarchical sparse attention currently requires --disable-radix-cache", None),
    ("HISPARSE_CONFLICT", r"^(--enable-hisparse does not support --enable-mixed-chunk|The minimal HiSparse spec "
                          r"integration supports linear speculation only|HiSparse speculative decoding uses statically "
                          r"sized swap state)", None),
    ("HISPARSE_KV_DTYPE", r"^HiSparse requires (one of \(.*\) KV cache dtypes|bfloat16 (or fp8_e4m3 )?KV cache)", None),
    ("HISPARSE_DSA_BACKEND", r"^HiSparse (supports DSA (prefill|decode) backend\(s\)|with --kv-cache-dtype=\w+ requires "
                             r"--(nsa|dsa)-(prefill|decode)-backend in|requires flashmla_sparse NSA)", None),
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
                                r"exceeds its workspace|FlashInfer MoE A2A with flashinfer_cutedsl requires "
                                r"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK \* ep_size to cover)", None),
    ("MOE_A2A_DEEPEP_V2", r"^DeepEP v2 MoE is not validated as a speculative draft backend", None),
    # -- quant (session 15) --
    # model_overrides/kimi_k3.py, minimax_m3.py, nemotron_h.py (its relu2 assert read from the source line),
    # qwen3_moe.py, qwen4_exp.py
    ("MODEL_OVERRIDE_UNSUPPORTED", r"^(Kimi-K3 DCP (\+ DSPARK currently requires SGLANG_RAGGED_VERIFY_MODE=static; "
     r"compact/cap-accept|with decode_attention_backend='(cutedsl_mla|aiter)' requires)|Decode attention backend for "
     r"Kimi-K3 DCP must be|M3\.1 NVFP4 (only supports DSPARK or DFLASH speculation|\w+ requires "
     r"(MiniMaxM3SparseForConditionalGeneration|Blackwell$|SGLANG_RAGGED_VERIFY_MODE=static$|PP=1$)|DFLASH currently "
     r"requires colocated serving|requires --page-size 128|flashinfer_trtllm_routed requires --moe-a2a-backend none or "
     r"megamoe|requires --moe-a2a-backend megamoe|requires --kv-cache-dtype fp8_e4m3)|flashinfer_trtllm routes inside "
     r"the kernel and does not support EPLB|flashinfer_cutedsl without an a2a backend does not migrate its expert scales|"
     r"EPLB and redundant experts need the same routed expert count|W4A16_NVFP4 MoE layers require --moe-"
     r"(a2a-backend=none\.|runner-backend=marlin)|Qwen4-Exp (PD with MORI requires --pp-size 1|does not support "
     r"--enable-unified-memory)|--qsa-indexer-dtype fp8_e4m3 requires (a CUDA SM90/SM100 GPU|the compressed QSA "
     r"indexer))", None),
    ("MODEL_OVERRIDE_UNSUPPORTED", r"^AssertionError$", r'^assert (language_config|model_config\.hf_config)\.mlp_hidden_act == "relu2"'),
    # -- overrides (session 15) --
    ("MLA_BACKEND_GPU", r"^(TRTLLM MLA|tokenspeed_mla|CuteDSL MLA) backend is only supported on Blackwell GPUs", None),
    ("MLA_BACKEND_KV_DTYPE", r"^(TensorRT-LLM MLA backend only supports kv-cache-dtype of|tokenspeed_mla backend requires "
                             r"kv-cache-dtype=fp8_e4m3|CuteDSL MLA backend only supports kv-cache-dtype of)", None),
    ("CUTEDSL_MLA_PREFILL", r"^CuteDSL MLA only supports decoding for now", None),
    ("LM_HEAD_DP", r"^(--enable-(dp-lm-head requires attention DP|tp-lm-head-all-to-all (requires attention DP|uses a "
                   r"TP-sharded LM head and is incompatible with --enable-dp-lm-head|currently requires (tp_size == "
                   r"(attn_)?dp_size|attn_cp_size == 1)))|Please enable dp attention when setting "
                   r"enable_(dp_lm_head|tp_lm_head_all_to_all))", None),
    ("MODEL_OVERRIDE_UNSUPPORTED", r"^CUDA TileLang FP8 KV does not support HiSparse", None),
    ("MAMBA_CHUNK_PAGE", r"^For SSM models, either chunk_size or page_size must be divisible by the other", None),
    # -- oldgpu (session 17) --: 0.5.11-0.5.13 srt/server_args.py _handle_mamba_radix_cache (the Qwen3-Next branch)
    ("MAMBA_CHUNK_PAGE", r"^For SSM models with extra buffer, either FLA_CHUNK_SIZE or page_size must be divisible by the "
                         r"other", None),
    ("MAMBA_RADIX_CACHE", r"^(mamba extra_buffer is not supported for \w+ model$|mamba extra_buffer is not compatible "
                          r"with --disable-radix-cache|Mamba extra_buffer is only "
                          r"supported on CUDA and MUSA (and NPU )?devices with FLA backend$|extra_buffer_lazy is not yet "
                          r"supported with speculative decoding\.|mamba_track_interval \d+ must be (greater than or equal "
                          r"to speculative_num_draft_tokens \d+|divisible by page_size \d+)$|Speculative decoding for \w+ is "
                          r"not compatible with radix cache when using --mamba-scheduler-strategy no_buffer\.)", None),
    # -- old-a (session 15) --: the older releases' srt/server_args.py (sglang_engine/rules_legacy.py)
    ("INTEL_XPU_MLA_PREFILL", r"^intel_xpu backend is only supported on decode for MLA models", None),
    ("ASCEND_FUSE_MODE", r"^(Wrong value of fuse_mode=-?\d+, the NPU only support 1 or 2|When fuse_mode is set to 2, the "
                         r"NPU supports only ModelSlim quantization|Wrong value of SGLANG_NPU_FUSED_MOE_MODE=-?\d+, the NPU "
                         r"only supports 1 or 2)", None),  # the last: -- gpu16 (session 17) --
    ("ELASTIC_EP", r"^(Elastic EP rejoin requires elastic_ep_backend to be set|--elastic-ep-rejoin \(deprecated\) "
                   r"conflicts with --elastic-ep-join-mode)", None),
    ("LORA_VIRTUAL_EXPERTS", r"^--lora-use-virtual-experts requires --lora-backend triton", None),
    ("GRPC_PORT", r"^SGLANG_GRPC_PORT \(\d+\) must differ from --port \(\d+\)$", None),
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
