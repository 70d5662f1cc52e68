# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SGLang error text -> the engine's stable codes, for the installed mode (the host's SGLang answers in
text). The differential tests classify SGLang's messages with a table of their own. stdlib only."""
from __future__ import annotations

import re


def code_for_sglang_message(message, parse=False):
    """Map an error text from SGLang (or argparse) onto the engine's stable code."""
    for code, rx in _SGLANG_MESSAGES:
        if re.search(rx, message):
            return code
    return "PARSE_ERROR" if parse else "SGLANG_REJECTED"


_SGLANG_MESSAGES = (
    ("PARSE_AMBIGUOUS", r"ambiguous option"),
    ("PARSE_UNRECOGNIZED", r"unrecognized arguments"),
    ("PARSE_MISSING_VALUE", r"expected (at least )?one argument"),
    ("PARSE_INVALID_VALUE", r"invalid (int|float|choice|human_readable_int)|ignored explicit argument"),
    ("UNKNOWN_ALGORITHM", r"Unknown speculative algorithm name"),
    ("DFLASH_DEVICE", r"DFLASH speculative decoding (is not supported by|only supports CUDA)"),
    ("DFLASH_DP_ATTENTION", r"DFLASH speculative decoding does not support dp attention"),
    ("DFLASH_DP_LM_HEAD", r"DFLASH with dp attention requires --enable-dp-lm-head"),
    ("MPS_RUNTIME", r"^The (standard )?SGLang MPS (backend|model path) requires"),  # hardware_backend/mps/runtime.py
    ("DLLM_MODEL", r"^Unknown diffusion LLM: "),  # -- engfix (session 15) --: dllm/config.py DllmConfig.from_server_args
    ("DFLASH_PP", r"DFLASH speculative decoding only supports pp_size == 1"),
    ("DFLASH_NO_DRAFT", r"DFLASH speculative decoding requires setting --speculative-draft-model-path"),
    ("DFLASH_BLOCK_SIZE_NONPOSITIVE", r"dflash-block-size to be positive"),
    ("DFLASH_BLOCK_SIZE_MISMATCH", r"are set but they differ"),
    ("WINDOW_NONPOSITIVE", r"window-size (must be positive|to be positive)"),
    ("WINDOW_LT_BLOCK", r"window-size must be >="),
    ("SINK_NEGATIVE", r"sink-size must be non-negative"),
    ("SINK_WITHOUT_WINDOW", r"sink-size requires"),
    ("EAGLE_TRTLLM_TOPK", r"trtllm_mha backend only supports topk = 1"),
    ("ENV_DP_SPEC_PREFILL", r"DP spec/prefill coordination requires"),
    ("PP_SPEC_PREFILL_ONLY", r"PP \+ speculative decoding \(MTP\) is only supported on prefill"),
    ("PP_SPEC_ENV", r"SGLANG_ENABLE_PP_SPEC is not compatible"),
    ("PP_SPECULATIVE", r"Pipeline parallelism currently only supports EAGLE"),
    ("EAGLE_PAGE_TREE", r"speculative_eagle_topk > 1 with page_size > 1"),
    ("SKIP_DP_MLP_SYNC", r"--speculative-skip-dp-mlp-sync is only supported with"),  # -- old-b (session 15) --
    ("PD_DECODE_DCP", r"PD decode DCP (requires --disaggregation-transfer-backend|currently requires chunk cache)"),
    ("TRTLLM_MHA_GPU", r"TRTLLM MHA backend for (prefill|decode)"),
    ("TRTLLM_MHA_SM120_FP8", r"TRTLLM FMHAv2 prefill on SM120"),
    ("TRTLLM_MHA_PREFILL_CP", r"Prefill context parallelism with the TRTLLM MHA prefill backend requires SM100"),
    ("DETERMINISTIC_ATTENTION_BACKEND", r"attention backends are supported for deterministic inference, but you"),
    ("DFLASH_DP_DEVICE", r"DFLASH with dp attention requires CUDA or NPU"),
    ("DFLASH_DP_CP", r"DFLASH with dp attention does not support context parallel"),
    ("REJECTION_SAMPLING_DETERMINISTIC", r"Deterministic rejection sampling is currently supported only on CUDA|"
     r"rejection-sampling is incompatible with --enable-deterministic-inference"),
    ("MEMORY_WEIGHTS_EXCEED_BUDGET", r"Loaded weights leave no GPU memory for the KV cache|Not enough memory\. Please "
     r"try to increase --mem-fraction-static"),
    ("CONTEXT_TOO_LONG", r"User-specified context_length \(\d+\) is greater than the derived"),
    ("WATERMARK_ALGORITHM", r"enable-watermark supports speculative algorithms"),
    ("BASE_GPU_ID", r"base_gpu_id must be non-negative"),
    ("GPU_ID_STEP", r"gpu_id_step must be positive"),
    ("SSL_PAIR", r"--ssl-(keyfile|certfile) requires --ssl-|has no effect without --ssl-certfile and --ssl-keyfile|"
     r"--enable-ssl-refresh requires --ssl-certfile"),
    ("SERVED_MODEL_NAME_COLON", r"served_model_name cannot contain a colon"),
    ("CHUNKED_PREFILL_PAGE", r"chunked_prefill_size must be divisible by page_size"),
    ("WORKER_NUM", r"(Tokenizer|Detokenizer) worker num must >= 1|Multimodal (processor|I/O) worker num must >= 0"),
    ("NNODES_TP", r"tp_size must be divisible by number of nodes"),
    ("PP_MICRO_BATCH", r"pp_max_micro_batch_size must be a positive integer"),
    ("MOE_DENSE_TP", r"moe_dense_tp_size only support"),
    ("LORA_MAX_PER_BATCH", r"max_loras_per_batch must be positive"),
    ("LORA_SPECULATIVE", r"LoRA is only compatible with NGRAM"),
    ("LORA_TARGET_MODULES", r"'all' is specified in --lora-target-modules|specify both --max-lora-rank and "
     r"--lora-target-modules"),
    ("LORA_MAX_LOADED", r"max_loaded_loras should be greater than or equal|should not exceed max_loaded_loras"),
    ("LORA_DRAIN_THRESHOLD", r"lora-drain-wait-threshold must be non-negative"),
    ("METRICS_BUCKETS", r"-tokens-buckets (TSE|default|custom) (rule|base|count|middle)|-tokens-buckets rule type"),
    ("DP_MULTI_NODE", r"multi-node data parallel is not supported|multi-node data-parallel replicas are not supported"),
    ("LORA_OVERLAP_LOADING", r"Enabling LoRA overlap loading requires pinning"),
    ("LORA_SPECULATIVE", r"LoRA with EAGLE/NEXTN/EAGLE3 speculative decoding does not support --speculative-adaptive"),
    ("EXPORT_METRICS_DIR", r"export-metrics-to-file-dir is required"),
    ("QUANT_COMMUNICATIONS", r"Communications quantization is only"),
    ("GRPC_PORT", r"--grpc-port \(\d+\) must differ from --port"),
    ("GC_THRESHOLD", r"gc_threshold, it must contain 1 to 3 integers"),
    ("KV_CANARY", r"kv-canary-sweep-interval requires --kv-canary"),
    ("PRIORITY_SCHEDULE_POLICY", r"To use priority scheduling, schedule_policy must be"),
    ("RETRACTION_PRIORITY", r"retraction-policy priority requires --enable-priority-scheduling"),
    ("SCHEDULE_CONSERVATIVENESS", r"schedule_conservativeness must be non-negative"),
    ("PD_DECODE_RADIX_BACKEND", r"decode-enable-radix-cache currently requires --disaggregation-transfer-backend"),
    ("PP_SPECULATIVE", r"Pipeline parallelism is not compatible with overlap schedule, speculative"),
    ("PD_DECODE_RADIX", r"disaggregation-decode-enable-radix-cache is incompatible with speculative"),
    ("BLOCK_VERIFICATION_ALGORITHM", r"use-block-verification only supports EAGLE"),
    ("BLOCK_VERIFICATION_DEVICE", r"use-block-verification only supports CUDA"),
    ("ADAPTIVE_STEPS", r"is not in the adaptive config candidate_steps"),
    ("REJECTION_SAMPLING_ALGORITHM", r"use-rejection-sampling is only supported for"),
    ("REJECTION_SAMPLING_TOPK", r"use-rejection-sampling requires --speculative-eagle-topk=1"),
    ("REJECTION_SAMPLING_THRESHOLD", r"use-rejection-sampling is incompatible with --speculative-accept-threshold"),
    ("FLEX_ATTENTION_SPECULATIVE", r"Speculative decoding is currently not supported with Flex Attention"),
    ("CACHE_HOST_POOL", r"retraction-backup=host_pool (is only supported on a PD decode|does not support --dcp-size|"
                        r"requires --disable-priority-preemption)"),
    ("RADIX_EVICTION_TLRU", r"radix-eviction-policy tlru (requires non-negative|needs 'threshold' greater)"),
    ("HICACHE_NO_RADIX", r"enable-hierarchical-cache and disable-radix-cache are mutually exclusive"),
    ("DECODE_OFFLOAD_KVCACHE", r"disaggregation-decode-enable-offload-kvcache (is only supported|and "
                               r"disaggregation-decode-retraction-backup=host_pool are mutually)"),
    ("SWA_FULL_TOKENS_RATIO", r"swa-full-tokens-ratio should be in range"),
    ("SWA_PREFIX_TAILS", r"swa-prefix-tails should be a non-negative"),
    ("LMCACHE_CONFLICT", r"enable-lmcache and --enable-(hierarchical-cache|unified-cache-external-linker) are mutually|"
                         r"enable-lmcache requires radix cache|buffer_only is a HiCache-only mode"),
    ("LMCACHE_UNSUPPORTED", r"LMCacheUnifiedRadixCache (does not yet support|currently supports colocated)|"
                            r"enable-lmcache with --dcp-size > 1 is not supported"),
    ("HICACHE_HOST_MEMORY_FRACTION", r"hicache-host-memory-fraction must be in"),
    ("PLE_OFFLOAD_CONFLICT", r"ple-offload-embedding cannot be combined with"),
    ("PD_HOST_RECEIVE_THRESHOLD", r"host-receive-threshold must be between 0 and 1|Decode host receive does not yet "
                                  r"support|Decode host KV buffering requires host_pool"),
    # -- oldnon (session 17) --: 0.5.11-0.5.12.post1 _handle_encoder_disaggregation; 0.5.11's speculative hook; the attention
    # hook's dual chunk attention check (0.5.11-0.5.15.post1 modelled)
    ("ENCODER_DISAGG", r"requires at least one encoder urls to be set via --encoder-urls"),
    ("SPEC_MOE_RUNNER_BACKEND", r"speculative MoE runner backend doesn't support flashinfer_trtllm"),
    ("ENCODER_DISAGG", r"enable-prefix-mm-cache requires --encoder-only|Cannot set --encoder-only and|Muse language-only "
                       r"servers do not load local encoders"),
    ("ENCODER_DISAGG_MODEL", r"is not supported for encoder disaggregation"),
    ("MAMBA_FLAGS", r"mamba-cache-philox-rounds must be non-negative|mamba-max-states-per-path must be -1|"
                    r"Stochastic rounding for the Mamba SSM cache (requires --mamba-ssm-dtype float16|is only supported on "
                    r"NVIDIA CUDA|with --mamba-backend triton requires SM100)"),
    ("LAYERNORM_SP", r"enable-megamoe-for-layernorm-sp (requires --enable-layernorm-sp|supports only Muse)|"
                     r"enable-layernorm-sp (is only supported for|requires tp_size > 1|is not compatible with|"
                     r"supports speculative decoding only with)"),
    ("MOE_RUNNER_QUANTIZATION", r"FlashInfer (Cutlass|CuteDSL|TRTLLM|TRTLLM routed) MOE (currently )?supports only"),
    ("MOE_RUNNER_EP_SIZE", r"expert parallel size must be 1 or the same as the tensor parallel|FP8/MXFP8 Cutlass MoE is "
                           r"only supported with ep_size == 1"),
    ("MODEL_ARCHITECTURE_FLAG", r"enable-dsa-cache-layer-split is only supported for DSA|enable-cp-decode-attn-tp is "
                                r"only supported for models|Intern-S2-Mobius does not support"),
    ("MOE_NVFP4_ONLINE", r"quantization nvfp4_online (is supported only on|supports only --moe-runner-backend)"),
    ("MOE_RUNNER_A2A", r"flashinfer_cutedsl (supports moe_a2a_backend=|per-token NVFP4 activation|FP4 MoE only supports "
                       r"DeepEP low_latency)"),
    ("MOE_A2A_FLASHINFER", r"flashinfer-a2a-dispatch-type (requires --moe-a2a-backend|mxfp8 requires|nvfp4 requires)|"
                           r"Flashinfer MoE A2A (is only supported|requires --attn-dp-size)|FlashInfer MoE A2A is supported"),
    ("MOE_A2A_MEGAMOE", r"FlashInfer MegaMOE (is not validated|currently supports only|is only supported with|a2a backend "
                        r"requires|currently requires an SM100)|moe-a2a-backend megamoe (has no two-batch|needs a CUDA)"),
    ("MOE_A2A_DEEPEP_V2", r"DeepEP v2 (MoE is not validated|MoE currently supports only|MoE has not implemented|MoE has not "
                          r"validated fused|does not forward deterministic)|deepep-v2-mode direct is NVLink-only"),
    ("MOE_A2A_PPLX", r"moe_a2a_backend='pplx' (only supports low-latency|requires|is only supported with)"),
    ("EAGLE_PARAMS_PARTIAL", r"^AssertionError$|^$"),
    ("EAGLE_TOPK_MISSING", r"'>' not supported between instances of 'NoneType'"),
    # the KV dtype / pool hooks (rules_cache.py), the Mamba int8 checkpoint (rules_mamba.py)
    ("PREFILL_ONLY_NO_KV_CACHE", r"--prefill-only-disable-kv-cache (currently requires|does not currently support|"
     r"requires --|is incompatible with)"),
    ("NVFP4_PREFILL_DEQUANT", r"--prefill-kv-cache-dequant-dtype(=\w+)? (applies only|requires prefill)|NVFP4 prefill "
     r"supports an FP8|Native NVFP4 prefill currently requires SM100|NVFP4 decode requires --decode-attention-backend"),
    ("KV_CACHE_DTYPE_GPU", r"--kv-cache-dtype mxfp8 requires an SM100|KV4 is not tested on non-CUDA|"
     r"--kv-cache-dtype=nvfp4 requires Blackwell"),
    ("KV4_CONFLICT", r"FP4 KV cache does not yet support --enable-unified-memory|SM100 native NVFP4 "),
    ("KV4_BACKEND", r"KV4 (FA4 )?(MHA|MLA) expects"),
    ("HICACHE_LINKER", r"--unified-cache-external-linker-config must be a JSON object|--enable-linker-mla-dedup requires|"
     r"--enable-unified-cache-external-linker (requires the default|and --enable-hierarchical-cache|does not use)"),
    ("HICACHE_HOST_MEMORY_MODE", r"--hicache-host-memory-mode buffer_only (requires a storage|is not supported on decode|"
     r"does not support --hicache-write-policy write_back)"),
    ("PAGE_MAJOR_KV_LAYOUT", r"--enable-page-major-kv-layout"),
    ("MODEL_OVERRIDE_UNSUPPORTED", r"^Qwen4-Exp does not support --enable-unified-memory"),  # -- quant (session 15) --
    ("UNIFIED_MEMORY", r"--enable-unified-memory "),
    ("INT8_MAMBA_CHECKPOINT", r"--enable-int8-mamba-checkpoint (is not supported|only supports)"),
    # -- parallel (session 14) --: elastic EP (rules_parallel.py), the scale-up checks among them; Aiter fusion with CP
    ("ELASTIC_EP", r"Elastic EP (requires eplb_algorithm|scale-up|runtime scale-up|scale joiners|joining group|CUDA "
                   r"graph recapture)|elastic EP join rank offset|PP size should be set to 1 under elastic EP|"
                   r"--elastic-ep-(join-mode requires|join-rank-offset is only valid|initial-size (is only valid|cannot "
                   r"exceed)|scale-timeout must be)|--max-ep-size (requires|must be a positive)|single-rank Elastic EP|"
                   r"primary --elastic-ep-initial-size|Invalid attention topology|must be divisible by attention "
                   r"replica size|--elastic-ep-rejoin \(deprecated\) conflicts|Elastic EP rejoin requires"),
    ("CP_AITER_FUSION", r"Aiter allreduce fusion is not supported with context parallelism"),
    ("EXPERT_PACK", r"Invalid expert_pack configuration"),
    ("CP_MODEL", r"Nemotron-H does not support --attn-cp-size|LongCat-Flash does not support --enable-prefill-cp|"
                 r"DeepSeek V3\.2 prefill CP does not support|MiMo V2 (prefill CP|CP-v2) only supports (--cp-strategy|text "
                 r"inference)"),
    # -- moe (session 16) --
    ("MIMO_V2_ATTN_TP", r"MiMoV2ForCausalLM requires effective attention TP size"),
    ("MIMO_V2_HICACHE", r"Hierarchical cache for MiMoV2 requires the unified radix tree"),  # -- gpu16 (session 17) --
    ("SESSION_RADIX_CACHE", r"--enable-session-radix-cache requires --radix-eviction-policy priority"),  # -- gpu16 --
    ("CUTLASS_MOE_ENV", r"cutlass MoE is only supported with fp8/mxfp8 quantization"),  # -- gpu16 (session 17) --
    ("DUAL_CHUNK_ATTENTION", r"Dual chunk attention is enabled"),  # -- gpu16 (session 17) --
    ("CP_TP_SHARING", r"CP-TP group sharing|CP/TP group sharing only supports"),
    # -- specserve (session 14): serving_hook.py (rules_serving.py) --
    ("HTTP2_LIMITS", r"--http2-(max-concurrent-streams|initial-connection-window-size) must be between"),
    ("MM_CONFIG", r"mm_preprocess_cache_size_mb must be non-negative|mm_process_config(\['\w+'\])? must be a dict"),
    ("IMAGE_PROCESSOR_CONFLICT", r"--disable-fast-image-processor conflicts with --image-processor-backend"),
    ("GRPC_ARGS", r"SGLANG_GRPC_WORKER_THREADS \(-?\d+\) must be >= 1|SGLANG_GRPC_PORT \(-?\d+\) must be "
     r"between|--grpc-port is not supported with"),
    ("GRPC_SIDECAR", r"--sidecar-args must be a JSON array of strings|--sidecar requires SGLang's native gRPC|"
                     r"--sidecar is not yet supported with SGLANG_RUST_SERVER"),
    ("MM_FEATURE_TRANSPORT", r"--mm-feature-transport=cuda_(ipc|vmm) (requires NVIDIA CUDA|does not support pipeline|only "
     r"supports a single node|is not supported with SGLANG_RUST_SERVER)|--keep-mm-feature-on-device conflicts with --mm-feature-transport="),
    ("FP4_INDEXER_GPU", r"--enable-deepseek-v4-fp4-indexer requires SM100"),
    ("CHAT_TEMPLATE_KWARGS", r"--default-chat-template-kwargs must decode to a JSON object"),
    ("MM_LIMIT_MODALITY", r"Invalid modality '.*' in --limit-mm-data-per-request"),
    ("PREFERRED_SAMPLING_WATERMARK", r"watermark is not supported in --preferred-sampling-params"),
    ("GEMMA4_DRAFT_ALGORITHM", r"Gemma4AssistantForCausalLM draft requires --speculative-algorithm NEXTN or EAGLE"),
    ("DSPARK_ARGS", r"DSpark speculative decoding only supports|DSpark with dp attention requires --enable-dp-lm-head|"
     r"DSpark speculative decoding only supports pp_size == 1|DSpark pipeline parallelism requires PD prefill|DSpark dense "
     r"speculative decoding requires setting|DSpark requires --speculative-dspark-block-size to be positive|DSpark "
     r"speculative_num_draft_tokens must equal gamma|DSpark with dp attention (supports moe_a2a_backend|only supports the "
     r"built-in TP MoE|\+ moe_a2a_backend|does not support context parallel)|DSpark DP MoE or prefill coordination requires|"
     r"DSpark ignores --speculative-moe-a2a-backend|DSpark speculative_num_draft_tokens must be >= 2"),
    # -- attn (session 14) --
    ("LINEAR_ATTN_FLAGS", r"--linear-attn-decode-backend flashkda is not supported|--enable-linear-replayssm "
     r"(requires (the Triton|Triton, or Helion|--mamba-(radix-cache|scheduler)-strategy no_buffer)|is not supported "
     r"under PD)|--linear-replayssm-cache-len must be >= 1|"
     r"--enable-linear-replayssm-spec (requires a linear draft chain|requires the triton or flashinfer|with "
     r"SGLANG_RAGGED_VERIFY_MODE|is not supported on a PD prefill|and --enable-linear-replayssm are mutually)|"
     # -- mamba (session 16) --: 0.5.16's --enable-gdn-replayssm-spec
     r"--enable-gdn-replayssm-spec (requires (a linear draft chain|the Triton linear-attn|--mamba-ssm-dtype float32)|"
     r"is not (yet compatible with mamba extra_buffer|supported under PD)|and --enable-linear-replayssm are mutually)|"
     r"--linear-replayssm-cache-len must be (a power of two|>= 2 \* the maximum speculative)|"
     # 0.5.15's message for the extra_buffer refusal reads a field ServerArgs does not have: this AttributeError
     r"'ServerArgs' object has no attribute 'mamba_scheduler_strategy'"),
    # -- quant (session 15) --: model_overrides/kimi_k3.py, minimax_m3.py, nemotron_h.py, qwen3_moe.py, qwen4_exp.py
    ("MODEL_OVERRIDE_UNSUPPORTED", r"Kimi-K3 DCP (\+ DSPARK currently requires|with decode_attention_backend=)|Decode "
     r"attention backend for Kimi-K3 DCP must be|M3\.1 NVFP4 |flashinfer_trtllm routes inside the kernel and does not "
     r"support EPLB|flashinfer_cutedsl without an a2a backend does not migrate|EPLB and redundant experts need the same "
     r"routed expert count|W4A16_NVFP4 MoE layers require|Qwen4-Exp (PD with MORI requires|does not support "
     r"--enable-unified-memory)|--qsa-indexer-dtype fp8_e4m3 requires|Nemotron-H with ModelOpt quantization"),
    ("RAGGED_VERIFY_MODE", r"invalid SGLANG_RAGGED_VERIFY_MODE"),
    ("MULTI_ITEM_SCORING_BACKEND", r"Multi-item scoring requires flashinfer attention backend"),
    ("DETERMINISTIC_MLA_BACKEND", r"attention backends are supported for deterministic inference with (DeepSeek|"
     r"absorbed-MLA) models|Deterministic inference with (DeepSeek|absorbed-MLA) models on the fa4"),
    ("MAMBA_FLASHINFER", r"FlashInfer mamba module not available"),
    ("MAMBA_RADIX_CACHE", r"^extra_buffer (is not supported for|requires platform support|needs CUDA)|"
     r"extra_buffer_lazy unsupported (under PD|with )|^no_buffer (only supports page_size|do not support)|"
     r"mamba-radix-cache-strategy extra_buffer(_lazy)? needs mamba state"),
    ("PD_PREFILL_COMPLETE", r"prefill_complete does not yet support|prefill_complete requires optimistic prefill"),
    ("PD_DECODE_RADIX_CONFLICT", r"disaggregation-decode-enable-radix-cache is incompatible with --(enable-hisparse|"
     r"disaggregation-transfer-backend fake)"),
    ("PD_PREFILL_FAKE", r"Prefill server does not support 'fake'"),
    ("PD_RUST_BOOTSTRAP_PORT", r"SGLANG_RUST_SERVER serves the PD KV bootstrap registry"),
    ("PD_STAGING_BUFFER", r"SGLANG_DISAGG_STAGING_BUFFER requires"),
    ("PD_ROLE_SWITCH", r"enable-pd-role-switch does not rebuild role-specific state"),
    # -- validation (session 14) --
    ("LORA_PATHS_JSON", r"looks like a JSON str, but it does not contain 'lora_name' and 'lora_path'"),
    ("LORA_V2_MODE", r"(--lora-backend triton_v2|--moe-runner-backend lora_\w+) does not yet support (DP-attention|"
                     r"PD-multiplexing|two-batch overlap|SGLANG_EXPERIMENTAL_LORA_OPTI|ROCm)"),
    ("LORA_MOE_RUNNER", r"--speculative-moe-runner-backend lora_\w+ is not supported|--moe-runner-backend lora_\w+ "
                        r"(requires --enable-lora|requires --lora-backend|supports unquantized|cannot run ModelOpt|"
                        r"requires Standard dispatch|does not yet support elastic EP|currently requires trivial)"),
    ("LORA_SPECULATIVE", r"LoRA with EAGLE/NEXTN/EAGLE3 speculative decoding does not support"),
    ("WATERMARK_CONFIG", r"--watermark-config requires --enable-watermark|watermark (key_b requires|mixing_probability|"
                         r"max_probability|default_enabled and enforce_all|config |key must)|failed to read watermark "
                         r"config"),
    ("LOAD_PUBLISH", r"--load-publish-endpoint( requires --kv-events-config| needs an active|=auto needs|=.* needs a "
                     r"routable|=.* is not a bindable| range \[)|--kv-events-config is not parseable|load port range from"),
    ("SAMPLING_MASK_ENV", r"SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS is no longer supported"),
    ("EPLB_BALANCEDNESS_ENV", r"SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC is no longer supported"),  # -- cache (session 16) --
    ("PP_SPEC_ENV", r"SGLANG_ENABLE_PP_SPEC does not support DSPARK"),
    ("PARSE_RETIRED_FLAG", r"error: --[\w-]+ is no longer supported\."),
    ("IB_DEVICE", r"No valid IB devices specified|InfiniBand sysfs path not found|No IB devices found|Invalid IB devices? "
                  r"(specified|format)|No valid GPU mappings found in IB device JSON"),
    # -- misc (session 15) --
    ("IQUEST_MTP_DRAFT", r"IQuest Q1 requires an independent (draft model path|MTP draft)|MTP draft (hidden size and "
                         r"vocabulary|target layer count) must match|MTP uses its own full-vocabulary|MTP requires "
                         r"(positive speculative_num_steps|--speculative-eagle-topk 1)|MTP verification width must"),
    # -- model (session 14) --
    ("MODEL_OVERRIDE_UNSUPPORTED", r"IQuestQ1 (applies its attention sink|requires FA3 attention for the MTP|does not "
     r"support context|speculative decoding requires)|IQuest Q1 (MTP requires serial|MTP drafting does not|does not "
     r"support (DP attention|pipeline))|MiniCPM (does not support DP attention|SALA does not support hierarchical|sparse "
     r"attention does not support PD)|ERNIE 4\.5 VL MoE does not support DP attention|MossVLForConditionalGeneration "
     r"requires flashinfer prefill|--enable-prefill-cp is not supported for HYV4|--dcp-size > 1 is not supported for (HYV4|DSA "
     r"with index_kpool)|DSA DCP (does not support|requires)|Context parallel only supports single machine|"
     r"interleave DSA CP does not support DP attention|DSA prefill/decode kernels only support an fp8_e4m3 KV cache|"
     r"--enable-two-batch-overlap is not supported with DSA|Learnable "
     r"DSA attention sinks require|DeepSeek DSA only supports bf16|DSA backend is only supported on ROCm|CUDA TileLang FP8 "
     r"KV (requires|does not support)|uses learnable attention sinks and requires|CP is only supported for prefill when PD|"
     r"--enable-dsa-cache-layer-split (is not supported on decode|is only supported on PD prefill|requires --enable-prefill"
     r"|currently only supports the mooncake|is not supported with pipeline)|GptOssForCausalLM requires one of|Triton kernel "
     r"MoE is only supported when ep_size == 1|is required for Llama4 model|Gemma4 only supports|One of the attention "
     r"backends in .* is required for|FlashInfer backend can significantly degrade|does not support triton attention "
     r"backend, ?as the first layer"),
    ("WEIGHT_CACHE_SPECULATIVE", r"--weight-cache-mode is not supported together with speculative decoding"),
    ("ATTN_DP_SIZE", r"data-parallel replicas combined with attention data parallelism are not supported"),
    ("LANGUAGE_MODEL_ONLY", r"--language-model-only (cannot be combined with|is incompatible with --disaggregation-mode|does "
     r"not support)"),
    ("ENCODER_REPLAY_MODEL", r"--enable-encoder-swa-bounded-replay requires DeepSeek-V4\.1"),
    ("JOINT_HEAD_PARALLEL", r"(Clef|Kev) checkpoints are served with --tp-size 1 and --pp-size 1"),  # -- new19 (session 17) --
    # -- dsv4 (session 15) --: arg_groups/deepseek_v4_hook.py (rules_dsv4.py)
    ("DSV4_KV_DTYPE", r"is not supported for DeepseekV4ForCausalLM"),
    ("DSV4_ATTN_BACKEND", r"--dsv4-attn-backend (flashmla_mega|trtllm) (requires|does not support)"),
    ("DSV4_SPECULATIVE", r"Only EAGLE (and DSPARK speculative algorithms|speculative algorithm with topk == 1|speculative "
     r"algorithm) (are|is) supported for"),
    ("DSV4_CP", r"DeepSeekV4 (only supports (interleave(/zigzag)? CP|round-robin-split CP mode)|zigzag CP requires the NPU|CP "
     r"supports moe_a2a_backend)|For round-robin split mode, dp attention is not supported"),
    ("DSV4_PD_PP", r"V4 PD disaggregation requires pp_size=1"),  # -- oldnon (session 17) --: 0.5.12's hook
    ("MODEL_OVERRIDE_UNSUPPORTED", r"So context parallel only support Single machine\(tp_size == 8\)"),  # 0.5.11's DSA block
    ("ENCODER_REPLAY_UNSUPPORTED", r"--enable-encoder-swa-bounded-replay does not support .* yet"),
    ("ENCODER_REPLAY_BUDGET", r"encoder SWA replay requires (--max-running-requests > 0|explicit --max-running-requests)"),
    ("DSV41_UNSUPPORTED", r"DeepSeek-V4\.1 (does not support .* yet|TRT-LLM requires --cuda-graph-backend-prefill|DSpark PD "
     r"requires)|--enable-decoder-swa-bounded-replay cannot be combined with"),
    # -- kv (session 14) --
    # KV cache sharding (rules_kv_shard.py): PD prefill only, speculation, then one code for the rest of the chain
    ("KV_SHARDING_PREFILL_ONLY", r"--enable-kv-cache-sharding is only supported on PD prefill workers"),
    ("KV_SHARDING_SPECULATIVE", r"--enable-kv-cache-sharding does not support speculative decoding|KV sharding supports "
     r"speculative decoding only for GLM DSA"),
    ("KV_SHARDING", r"--enable-kv-cache-sharding |KV sharding with trtllm_mla|DSA KV sharding|CP-sharded DSA HiCache|"
     r"auto-round --chunked-prefill-size for KV sharding|Auto-rounding --chunked-prefill-size for KV sharding"),
    # rules_cuda_graph.py; the offload and HiCache host-receive checks (rules_cache.py)
    ("CUDA_GRAPH_CONFIG", r"--cuda-graph-config\[\w+\]\.backend=.* not allowed"),
    ("CUDA_GRAPH_BATCH_SIZES", r"should contain positive batch sizes"),
    ("CUDA_GRAPH_PREFILL_MAX_CONTEXT", r"--cuda-graph-prefill-max-context (must be a positive|exceeds the model)|page_size "
     r"must be resolved before prefill CUDA graph"),
    ("PLE_OFFLOAD_BACKEND", r"--ple-offload-backend file requires --ple-offload-embedding"),
    ("HICACHE_HOST_RECEIVE_LAYOUT", r"cannot share the layer_first decode host pool"),
    # rules_hisparse.py
    ("HISPARSE_MODEL", r"--enable-hisparse is only supported for DSA"),
    ("HISPARSE_RADIX_CACHE", r"Hierarchical sparse attention currently requires --disable-radix-cache"),
    ("HISPARSE_CONFLICT", r"--enable-hisparse does not support --enable-mixed-chunk|minimal HiSparse spec integration|"
     r"HiSparse speculative decoding uses statically sized"),
    ("HISPARSE_KV_DTYPE", r"HiSparse requires (one of .* KV cache dtypes|bfloat16 (or fp8_e4m3 )?KV cache)"),
    ("HISPARSE_DSA_BACKEND", r"HiSparse (supports DSA (prefill|decode) backend|with --kv-cache-dtype=\w+ requires --|"
     r"requires flashmla_sparse NSA)"),
    # -- moe (session 14) --
    ("LAYERNORM_SP_MUSE", r"Muse Spark --enable-layernorm-sp requires|Muse MegaMoE (prefill requires|needs \d+ tokens per "
                          r"rank|requires positive prefill|breakable prefill requires|LayerNorm SP requires)|"
                          r"enable-megamoe-for-layernorm-sp is incompatible with --enable-mixed-chunk"),
    ("MOE_A2A_FLASHINFER_ENV", r"SGLANG_MOE_NVFP4_DISPATCH cannot be set together|CuTe DSL NVFP4 W4A16 requires"),
    ("MOE_A2A_MEGAMOE_ENV", r"FlashInfer MegaMOE NVFP4 W4A16 requires|SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE"),
    # -- old-a (session 15) --: the older releases' srt/server_args.py (rules_legacy.py)
    ("INTEL_XPU_MLA_PREFILL", r"intel_xpu backend is only supported on decode for MLA models"),
    ("ASCEND_FUSE_MODE", r"Wrong value of (fuse_mode|SGLANG_NPU_FUSED_MOE_MODE)=|When fuse_mode is set to 2, the NPU "
                         r"supports only ModelSlim"),
    ("ELASTIC_EP", r"Elastic EP rejoin requires elastic_ep_backend|--elastic-ep-rejoin \(deprecated\) conflicts"),
    ("LORA_VIRTUAL_EXPERTS", r"--lora-use-virtual-experts requires --lora-backend triton"),
    ("GRPC_PORT", r"SGLANG_GRPC_PORT \(\d+\) must differ from --port"),
    ("MOE_A2A_DISPATCH_BUDGET", r"SGLANG_(MORI|PPLX)_NUM_MAX_DISPATCH_TOKENS_PER_RANK \(default \d+\) must be|"
                                r"FlashInfer MoE A2A requires chunked prefill|with MegaMoE requires (chunked prefill to be|"
                                r"a positive effective per-rank|SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK to cover)|"
                                r"DeepEP v2 per-rank (prefill budget|decode CUDA graph) exceeds|FlashInfer MoE A2A per-rank "
                                r"token budget exceeds|FlashInfer MoE A2A with flashinfer_cutedsl requires"),
    # -- overrides (session 15) --
    ("MLA_BACKEND_GPU", r"(TRTLLM MLA|tokenspeed_mla|CuteDSL MLA) backend is only supported on Blackwell GPUs"),
    ("MLA_BACKEND_KV_DTYPE", r"TensorRT-LLM MLA backend only supports kv-cache-dtype|tokenspeed_mla backend requires "
                             r"kv-cache-dtype=fp8_e4m3|CuteDSL MLA backend only supports kv-cache-dtype"),
    ("CUTEDSL_MLA_PREFILL", r"CuteDSL MLA only supports decoding"),
    ("LM_HEAD_DP", r"--enable-(dp-lm-head requires attention DP|tp-lm-head-all-to-all (requires attention DP|uses a "
                   r"TP-sharded LM head|currently requires (tp_size == (attn_)?dp_size|attn_cp_size == 1)))|"
                   r"Please enable dp attention when setting enable_(dp_lm_head|tp_lm_head_all_to_all)"),
    ("MODEL_OVERRIDE_UNSUPPORTED", r"CUDA TileLang FP8 KV does not support HiSparse"),
    ("MAMBA_CHUNK_PAGE", r"For SSM models, either chunk_size or page_size must be divisible"),
    # -- oldgpu (session 17) --: 0.5.11-0.5.13 srt/server_args.py _handle_mamba_radix_cache
    ("MAMBA_CHUNK_PAGE", r"For SSM models with extra buffer, either FLA_CHUNK_SIZE or page_size must be divisible"),
    ("MAMBA_RADIX_CACHE", r"mamba extra_buffer is not (compatible with --disable-radix-cache|supported for \w+ model)|"
     r"Mamba extra_buffer is only "
     r"supported on CUDA|extra_buffer_lazy is not yet supported with speculative|mamba_track_interval \d+ must be "
     r"(greater than or equal to|divisible by)|Speculative decoding for \w+ is not compatible with radix cache"),
)
