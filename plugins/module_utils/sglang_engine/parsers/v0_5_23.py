# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.23, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.23'
BASE = '0.5.20'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'UNO', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.23 or changed since 0.5.20 (kind, type, choices or dest)
ADDED = {
    '--attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'dsa', 'dsv4', 'fa3', 'fa4', 'flashinfer',
            'flashmla', 'flex_attention', 'hpc_ops', 'intel_amx', 'intel_xpu', 'llada2_cfg_flashinfer',
            'minicpm_flashattn', 'minicpm_flashinfer', 'nsa', 'qsa', 'tokenspeed_mla', 'torch_native', 'triton',
            'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'attention_backend',
    ),
    '--attention-data-parallel-size': ('store', 'int', None, 'attn_dp_size'),
    '--attn-dp-size': ('store', 'int', None, 'attn_dp_size'),
    '--boundary-reduction': ('store', 'str', ('ar', 'auto', 'rs', 'rs+rsv', 'rsv'), 'boundary_reduction'),
    '--constrained-json-max-whitespace-cnt': ('store', 'int', None, 'constrained_json_max_whitespace_cnt'),
    '--context-bucket': ('store', 'human_readable_int', None, 'cuda_graph_prefill_max_context'),
    '--cuda-graph-backend-decode': (
        'store', 'parse_cuda_graph_backend_arg',
        (
            'breakable', 'disabled', 'full',
        ),
        'cuda_graph_backend_decode',
    ),
    '--cuda-graph-backend-prefill': (
        'store', 'parse_cuda_graph_backend_arg',
        (
            'breakable', 'disabled', 'full',
        ),
        'cuda_graph_backend_prefill',
    ),
    '--cuda-graph-max-seq-len-prefill': ('store', 'int', None, 'cuda_graph_max_seq_len_prefill'),
    '--cuda-graph-prefill-max-context': ('store', 'human_readable_int', None, 'cuda_graph_prefill_max_context'),
    '--decode-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'dsa', 'dsv4', 'fa3', 'fa4', 'flashinfer',
            'flashmla', 'flex_attention', 'hpc_ops', 'intel_amx', 'intel_xpu', 'llada2_cfg_flashinfer',
            'minicpm_flashattn', 'minicpm_flashinfer', 'nsa', 'qsa', 'tokenspeed_mla', 'torch_native', 'triton',
            'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'decode_attention_backend',
    ),
    '--disable-aiter-allreduce-fusion-in-decode': ('flag', None, None, 'disable_aiter_allreduce_fusion_in_decode'),
    '--disable-aiter-allreduce-fusion-in-prefill': ('flag', None, None, 'disable_aiter_allreduce_fusion_in_prefill'),
    '--disaggregation-decode-allocation-policy': (
        'store', 'str',
        (
            'early', 'prefill_complete',
        ),
        'disaggregation_decode_allocation_policy',
    ),
    '--disaggregation-decode-host-receive-threshold': (
        'store', 'float',
        None,
        'disaggregation_decode_host_receive_threshold',
    ),
    '--disaggregation-decode-retraction-backup': (
        'store', 'str',
        (
            'cpu_tensor', 'host_pool', 'none',
        ),
        'disaggregation_decode_retraction_backup',
    ),
    '--disaggregation-enable-kv-checksum': ('flag', None, None, 'disaggregation_enable_kv_checksum'),
    '--dsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'intel_xpu', 'tilelang', 'triton', 'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--dsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'intel_xpu', 'tilelang', 'triton', 'triton_sparse_mla', 'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--dsa-triton-union': ('store', 'int', ('0', '2', '4'), 'dsa_triton_union'),
    '--dsv4-attn-backend': ('store', 'str', ('auto', 'flashmla', 'flashmla_mega', 'trtllm'), 'dsv4_attn_backend'),
    '--enable-amd-monokernel': ('flag', None, None, 'enable_amd_monokernel'),
    '--enable-decoder-swa-bounded-replay': ('flag', None, None, 'enable_decoder_swa_bounded_replay'),
    '--enable-dsa-fused-indexer': ('flag', None, None, 'enable_dsa_fused_indexer'),
    '--enable-encoder-swa-bounded-replay': ('flag', None, None, 'enable_encoder_swa_bounded_replay'),
    '--enable-hicache': ('flag', None, None, 'enable_hierarchical_cache'),
    '--enable-http-worker-reuseport': ('flag', None, None, 'enable_http_worker_reuseport'),
    '--enable-kv-cache-sharding': ('flag', None, None, 'enable_kv_cache_sharding'),
    '--enable-linker-mla-dedup': ('flag', None, None, 'enable_linker_mla_dedup'),
    '--enable-megamoe-for-layernorm-sp': ('flag', None, None, 'enable_megamoe_for_layernorm_sp'),
    '--enable-nvidia-megakernel': ('flag', None, None, 'enable_nvidia_megakernel'),
    '--enable-paged-experts': ('flag', None, None, 'enable_paged_experts'),
    '--enable-pd-role-switch': ('flag', None, None, 'enable_pd_role_switch'),
    '--enable-return-aux-hidden-states': ('flag', None, None, 'enable_return_aux_hidden_states'),
    '--enable-watermark': ('flag', None, None, 'enable_watermark'),
    '--flashinfer-allreduce-fusion-backend': (
        'store', 'str',
        (
            'auto', 'cutedsl', 'mnnvl', 'trtllm',
        ),
        'flashinfer_allreduce_fusion_backend',
    ),
    '--grpc-response-timeout-secs': ('store', 'int', None, 'grpc_response_timeout_secs'),
    '--hicache-host-memory-fraction': ('store', 'float', None, 'hicache_host_memory_fraction'),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'npu_memcache',
            'seaweedfs', 'shm', 'sim', 'simm', 'tensorcast',
        ),
        'hicache_storage_backend',
    ),
    '--kv-cache-dtype': (
        'store', 'str',
        (
            'auto', 'bf16', 'bfloat16', 'fp4_mx_block16', 'fp8_e4m3', 'fp8_e5m2', 'mxfp8', 'nvfp4',
        ),
        'kv_cache_dtype',
    ),
    '--load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'expert_pack', 'fastsafetensors', 'flash_rl', 'gguf',
            'instanttensor', 'layered', 'mistral', 'npcache', 'presharded', 'private', 'pt', 'remote',
            'remote_instance', 'runai_streamer', 'safetensors', 'sharded_state',
        ),
        'load_format',
    ),
    '--lora-backend': ('store', 'str', ('ascend', 'csgmv', 'torch_native', 'triton', 'triton_v2'), 'lora_backend'),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_megamoe', 'flashinfer_mxfp4',
            'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'intel_xpu', 'lora_cutedsl',
            'lora_marlin', 'lora_triton', 'marlin', 'megamoe', 'triton', 'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--monokernel-backend': ('store', None, ('amd',), 'enable_amd_monokernel'),
    '--no-enable-decoder-swa-bounded-replay': ('flag', None, None, 'enable_decoder_swa_bounded_replay'),
    '--no-enable-dsa-fused-indexer': ('flag', None, None, 'enable_dsa_fused_indexer'),
    '--no-enable-fused-qk-norm-rope': ('flag', None, None, 'enable_fused_qk_norm_rope'),
    '--no-enable-tf32-matmul': ('flag', None, None, 'enable_tf32_matmul'),
    '--no-mm-enable-dp-encoder': ('flag', None, None, 'mm_enable_dp_encoder'),
    '--no-speculative-enable-w4a4-mxfp4-megamoe': ('flag', None, None, 'speculative_enable_w4a4_mxfp4_megamoe'),
    '--otlp-service-name': ('store', 'str', None, 'otlp_service_name'),
    '--paged-experts-num-resident': ('store', 'int', None, 'paged_experts_num_resident'),
    '--prefill-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'dsa', 'dsv4', 'fa3', 'fa4', 'flashinfer',
            'flashmla', 'flex_attention', 'hpc_ops', 'intel_amx', 'intel_xpu', 'llada2_cfg_flashinfer',
            'minicpm_flashattn', 'minicpm_flashinfer', 'nsa', 'qsa', 'tokenspeed_mla', 'torch_native', 'triton',
            'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'prefill_attention_backend',
    ),
    '--prefill-decode-interval-min-bs': ('store', 'int', None, 'prefill_decode_interval_min_bs'),
    '--prefill-kv-cache-dequant-dtype': (
        'store', 'str',
        (
            'auto', 'fp8_e4m3', 'nvfp4',
        ),
        'prefill_kv_cache_dequant_dtype',
    ),
    '--qsa-indexer-dtype': ('store', 'str', ('auto', 'bfloat16', 'fp8_e4m3'), 'qsa_indexer_dtype'),
    '--radix-eviction-policy': ('store', 'str', ('lfu', 'lru', 'priority', 'slru', 'tlru'), 'radix_eviction_policy'),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'beam', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4',
            'deepseek-v41', 'dots', 'gemma4', 'gigachat35', 'glm45', 'gpt-oss', 'granite_thinking_parser',
            'hunyuan', 'inkling', 'interns1', 'iquest_q1', 'k2_horizon', 'kimi', 'kimi_k2', 'kimi_k3', 'ling3',
            'mimo', 'minimax', 'minimax-append-think', 'minimax-m3', 'mistral', 'muse', 'nanbeige',
            'nemotron_3', 'poolside_v1', 'qwen3', 'qwen3-thinking', 'response_template', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--return-aux-hidden-state-layer-ids': ('list', 'int', None, 'return_aux_hidden_state_layer_ids'),
    '--sampling-backend': ('store', 'str', ('ascend', 'flashinfer', 'intel_xpu', 'pytorch'), 'sampling_backend'),
    '--schedule-policy': (
        'store', 'str',
        (
            'dfs-weight', 'fcfs', 'hrrn', 'lof', 'lpm', 'priority', 'random', 'routing-key',
            'shortest-prefill-first',
        ),
        'schedule_policy',
    ),
    '--shared-experts-tp-size': ('store', 'int', None, 'shared_experts_tp_size'),
    '--speculative-draft-load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'expert_pack', 'fastsafetensors', 'flash_rl', 'gguf',
            'instanttensor', 'layered', 'mistral', 'npcache', 'presharded', 'private', 'pt', 'remote',
            'remote_instance', 'runai_streamer', 'safetensors', 'sharded_state',
        ),
        'speculative_draft_load_format',
    ),
    '--speculative-draft-sink-size': ('store', 'int', None, 'speculative_draft_sink_size'),
    '--speculative-enable-w4a4-mxfp4-megamoe': ('flag', None, None, 'speculative_enable_w4a4_mxfp4_megamoe'),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_megamoe', 'flashinfer_mxfp4',
            'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'intel_xpu', 'lora_cutedsl',
            'lora_marlin', 'lora_triton', 'marlin', 'megamoe', 'triton', 'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--speculative-use-block-verification': ('flag', None, None, 'speculative_use_block_verification'),
    '--swa-prefix-tails': ('store', 'int', None, 'swa_prefix_tails'),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'beam', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32',
            'deepseekv4', 'deepseekv41', 'dots', 'gemma4', 'gigachat3', 'gigachat35', 'glm', 'glm45', 'glm47',
            'gpt-oss', 'hermes', 'hunyuan', 'inkling', 'interns1', 'iquest_q1', 'k2_horizon', 'kimi_k2',
            'kimi_k3', 'lfm2', 'ling3', 'llama3', 'mimo', 'minicpm5', 'minimax-m2', 'minimax-m3', 'mistral',
            'muse', 'nanbeige', 'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder', 'response_template',
            'spark25', 'step3', 'step3p5', 'trinity',
        ),
        'tool_call_parser',
    ),
    '--trust-request-chat-template': ('flag', None, None, 'trust_request_chat_template'),
    '--unified-cache-external-linker-backend': (
        'store', 'str',
        (
            'dynamic', 'mooncake', 'mori',
        ),
        'unified_cache_external_linker_backend',
    ),
    '--unified-cache-external-linker-config': ('store', 'loads', None, 'unified_cache_external_linker_config'),
    '--watermark-config': ('store', 'str', None, 'watermark_config'),
}
# flags 0.5.23 no longer has
REMOVED = (
    '--cuda-graph-tc-compiler',
    '--elastic-ep-rejoin',
    '--keep-mm-feature-on-device',
    '--speculative-skip-dp-mlp-sync',
)
