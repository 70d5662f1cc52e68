# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.20, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.20'
BASE = '0.5.19'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'UNO', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.20 or changed since 0.5.19 (kind, type, choices or dest)
ADDED = {
    '--attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'dsa', 'dsv4', 'fa3', 'fa4', 'flashinfer',
            'flashmla', 'flex_attention', 'hpc_ops', 'intel_amx', 'intel_xpu', 'minicpm_flashattn',
            'minicpm_flashinfer', 'nsa', 'qsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha',
            'trtllm_mla', 'wave',
        ),
        'attention_backend',
    ),
    '--bf16-gemm-backend': ('store', 'str', ('auto', 'cutedsl', 'gemv', 'torch'), 'bf16_gemm_backend'),
    '--decode-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'dsa', 'dsv4', 'fa3', 'fa4', 'flashinfer',
            'flashmla', 'flex_attention', 'hpc_ops', 'intel_amx', 'intel_xpu', 'minicpm_flashattn',
            'minicpm_flashinfer', 'nsa', 'qsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha',
            'trtllm_mla', 'wave',
        ),
        'decode_attention_backend',
    ),
    '--dsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'tilelang', 'triton', 'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--dsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'tilelang', 'triton', 'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--dsv4-attn-backend': ('store', 'str', ('auto', 'flashmla', 'trtllm'), 'dsv4_attn_backend'),
    '--enable-response-store': ('flag', None, None, 'enable_response_store'),
    '--enable-unified-cache-external-linker': ('flag', None, None, 'enable_unified_cache_external_linker'),
    '--flashinfer-a2a-dispatch-type': (
        'store', 'str',
        (
            'auto', 'bf16', 'mxfp8', 'nvfp4',
        ),
        'flashinfer_a2a_dispatch_type',
    ),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'npu_memcache', 'shm',
            'sim', 'simm',
        ),
        'hicache_storage_backend',
    ),
    '--moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'deepep_v2', 'flashinfer', 'flashinfer_megamoe', 'megamoe',
            'mooncake', 'mori', 'nixl', 'none', 'pplx',
        ),
        'moe_a2a_backend',
    ),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_megamoe', 'flashinfer_mxfp4',
            'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'intel_xpu', 'marlin',
            'megamoe', 'triton', 'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--no-ple-offload-embedding': ('flag', None, None, 'ple_offload_embedding'),
    '--ple-offload-backend': ('store', 'str', ('file', 'pinned'), 'ple_offload_backend'),
    '--ple-offload-dir': ('store', 'str', None, 'ple_offload_dir'),
    '--ple-offload-embedding': ('flag', None, None, 'ple_offload_embedding'),
    '--prefill-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'dsa', 'dsv4', 'fa3', 'fa4', 'flashinfer',
            'flashmla', 'flex_attention', 'hpc_ops', 'intel_amx', 'intel_xpu', 'minicpm_flashattn',
            'minicpm_flashinfer', 'nsa', 'qsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha',
            'trtllm_mla', 'wave',
        ),
        'prefill_attention_backend',
    ),
    '--quantization': (
        'store', 'str',
        (
            'auto-round', 'auto-round-int8', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8',
            'gguf', 'gptq', 'gptq_marlin', 'humming', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4',
            'modelopt_fp8', 'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'mxfp_w4a8',
            'nvfp4_online', 'petit_nvfp4', 'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8',
            'w8a8_fp8', 'w8a8_int8',
        ),
        'quantization',
    ),
    '--radix-eviction-policy-config': ('store', 'loads', None, 'radix_eviction_policy_config'),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'dots',
            'gemma4', 'glm45', 'gpt-oss', 'granite_thinking_parser', 'hunyuan', 'inkling', 'interns1',
            'k2_horizon', 'kimi', 'kimi_k2', 'kimi_k3', 'ling3', 'mimo', 'minimax', 'minimax-append-think',
            'minimax-m3', 'mistral', 'muse', 'nanbeige', 'nemotron_3', 'poolside_v1', 'qwen3', 'qwen3-thinking',
            'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--return-input-ids': ('flag', None, None, 'return_input_ids'),
    '--return-output-ids': ('flag', None, None, 'return_output_ids'),
    '--sampling-mask-max-tokens': ('store', 'int', None, 'sampling_mask_max_tokens'),
    '--schedule-policy': (
        'store', 'str',
        (
            'dfs-weight', 'fcfs', 'hrrn', 'lof', 'lpm', 'priority', 'random', 'routing-key',
        ),
        'schedule_policy',
    ),
    '--speculative-domino-candidate-pool-size': ('store', 'int', None, 'speculative_domino_candidate_pool_size'),
    '--speculative-draft-model-quantization': (
        'store', 'str',
        (
            'auto-round', 'auto-round-int8', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8',
            'gguf', 'gptq', 'gptq_marlin', 'humming', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4',
            'modelopt_fp8', 'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'mxfp_w4a8',
            'nvfp4_online', 'petit_nvfp4', 'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8',
            'w8a8_fp8', 'w8a8_int8',
        ),
        'speculative_draft_model_quantization',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_megamoe', 'flashinfer_mxfp4',
            'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'intel_xpu', 'marlin',
            'megamoe', 'triton', 'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'dots', 'gemma4', 'gigachat3', 'glm', 'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'inkling',
            'interns1', 'k2_horizon', 'kimi_k2', 'kimi_k3', 'lfm2', 'ling3', 'llama3', 'mimo', 'minicpm5',
            'minimax-m2', 'minimax-m3', 'mistral', 'muse', 'nanbeige', 'poolside_v1', 'pythonic', 'qwen',
            'qwen25', 'qwen3_coder', 'spark25', 'step3', 'step3p5', 'trinity',
        ),
        'tool_call_parser',
    ),
    '--unified-cache-external-linker-backend': (
        'store', 'str',
        (
            'mooncake', 'mori',
        ),
        'unified_cache_external_linker_backend',
    ),
    '--uno-lora-path': ('store', 'str', None, 'uno_lora_path'),
}
# flags 0.5.20 no longer has
REMOVED = (
    '--collect-tokens-histogram',
    '--cuda-graph-bs',
    '--cuda-graph-max-bs',
    '--disable-piecewise-cuda-graph',
    '--dsa-prefill-cp-mode',
    '--enable-breakable-cuda-graph',
    '--enable-dsa-prefill-context-parallel',
    '--enable-expert-distribution-metrics',
    '--enable-gdn-replayssm-spec',
    '--enable-nsa-prefill-context-parallel',
    '--enable-prefill-context-parallel',
    '--enforce-piecewise-cuda-graph',
    '--mamba-scheduler-strategy',
    '--nsa-decode-backend',
    '--nsa-prefill-backend',
    '--nsa-prefill-cp-mode',
    '--piecewise-cuda-graph-compiler',
    '--piecewise-cuda-graph-max-tokens',
    '--piecewise-cuda-graph-tokens',
    '--prefill-cp-mode',
    '--prefill-round-robin-balance',
    '--speculative-dflash-draft-window-size',
    '--stream-output',
)
