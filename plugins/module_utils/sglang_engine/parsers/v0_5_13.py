# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.13, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.13'
BASE = '0.5.12.post1'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.13 or changed since 0.5.12.post1 (kind, type, choices or dest)
ADDED = {
    '--asr-max-buffer-seconds': ('store', 'int', None, 'asr_max_buffer_seconds'),
    '--asr-max-concurrent-sessions': ('store', 'int', None, 'asr_max_concurrent_sessions'),
    '--attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'intel_amx',
            'intel_xpu', 'nsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'attention_backend',
    ),
    '--decode-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'intel_amx',
            'intel_xpu', 'nsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'decode_attention_backend',
    ),
    '--deepep-dispatcher-output-dtype': (
        'store', 'str',
        (
            'auto', 'bf16', 'fp8', 'int8', 'nvfp4',
        ),
        'deepep_dispatcher_output_dtype',
    ),
    '--disable-attn-tp-gather': ('flag', None, None, 'disable_attn_tp_gather'),
    '--disaggregation-transfer-backend': (
        'store', 'str',
        (
            'ascend', 'fake', 'mooncake', 'mooncake_tcp', 'mori', 'nixl',
        ),
        'disaggregation_transfer_backend',
    ),
    '--dsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'tilelang', 'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--dsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'tilelang', 'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--dsa-prefill-cp-mode': ('store', 'str', ('in-seq-split', 'round-robin-split'), 'dsa_prefill_cp_mode'),
    '--dsa-topk-backend': ('store', 'str', ('flashinfer', 'sgl-kernel', 'torch'), 'dsa_topk_backend'),
    '--enable-deepseek-v4-fp4-indexer': ('flag', None, None, 'enable_deepseek_v4_fp4_indexer'),
    '--enable-dsa-prefill-context-parallel': ('flag', None, None, 'enable_dsa_prefill_context_parallel'),
    '--enable-nsa-prefill-context-parallel': ('flag', None, None, 'enable_dsa_prefill_context_parallel'),
    '--encoder-bootstrap-port': ('store', 'int', None, 'encoder_bootstrap_port'),
    '--encoder-register-urls': ('list', 'str', None, 'encoder_register_urls'),
    '--fp4-gemm-backend': (
        'store', 'str',
        (
            'auto', 'cutlass', 'flashinfer_cudnn', 'flashinfer_cutedsl', 'flashinfer_cutlass',
            'flashinfer_trtllm', 'marlin',
        ),
        'fp4_gemm_runner_backend',
    ),
    '--kv-canary': ('store', 'str', ('log', 'none', 'raise'), 'kv_canary'),
    '--kv-canary-real-data': ('store', 'str', ('all', 'none', 'partial'), 'kv_canary_real_data'),
    '--kv-canary-sweep-interval': ('store', 'int', None, 'kv_canary_sweep_interval'),
    '--lmcache-config-file': ('store', 'str', None, 'lmcache_config_file'),
    '--load-snapshot-publish-interval': ('store', 'int', None, 'load_snapshot_publish_interval'),
    '--mamba-scheduler-strategy': (
        'store', 'str',
        (
            'auto', 'extra_buffer', 'extra_buffer_lazy', 'no_buffer',
        ),
        'mamba_scheduler_strategy',
    ),
    '--mm-attention-backend': (
        'store', 'str',
        (
            'aiter_attn', 'amx_attn', 'ascend_attn', 'fa3', 'fa4', 'flashinfer_cudnn', 'sdpa', 'triton_attn',
            'xpu_attn',
        ),
        'mm_attention_backend',
    ),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_trtllm', 'flashinfer_cutedsl',
            'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'marlin',
            'triton', 'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--nsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'tilelang', 'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--nsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'tilelang', 'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--nsa-prefill-cp-mode': ('store', 'str', ('in-seq-split', 'round-robin-split'), 'dsa_prefill_cp_mode'),
    '--optimistic-prefill-retries': ('store', 'int', None, 'optimistic_prefill_retries'),
    '--prefill-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'intel_amx',
            'intel_xpu', 'nsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'prefill_attention_backend',
    ),
    '--quantization': (
        'store', 'str',
        (
            'auto-round', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8', 'gguf', 'gptq',
            'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4', 'modelopt_fp8',
            'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'petit_nvfp4', 'qoq', 'quark',
            'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'quantization',
    ),
    '--radix-cache-backend': ('store', 'str', None, 'radix_cache_backend'),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'gemma4',
            'glm45', 'gpt-oss', 'hunyuan', 'interns1', 'kimi', 'kimi_k2', 'mimo', 'minimax',
            'minimax-append-think', 'mistral', 'nemotron_3', 'poolside_v1', 'qwen3', 'qwen3-thinking', 'step3',
            'step3p5',
        ),
        'reasoning_parser',
    ),
    '--speculative-draft-model-quantization': (
        'store', 'str',
        (
            'auto-round', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8', 'gguf', 'gptq',
            'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4', 'modelopt_fp8',
            'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'petit_nvfp4', 'qoq', 'quark',
            'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'speculative_draft_model_quantization',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_trtllm', 'flashinfer_cutedsl',
            'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'marlin',
            'triton', 'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'gemma4', 'gigachat3', 'glm', 'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'interns1',
            'kimi_k2', 'lfm2', 'llama3', 'mimo', 'minicpm5', 'minimax-m2', 'mistral', 'poolside_v1', 'pythonic',
            'qwen', 'qwen25', 'qwen3_coder', 'step3', 'step3p5', 'trinity',
        ),
        'tool_call_parser',
    ),
    '--trace-modules': ('store', 'str', None, 'trace_modules'),
}
# flags 0.5.13 no longer has
REMOVED = (
    '--enable-nan-detection',
    '--no-record-nolora-graph',
    '--record-nolora-graph',
)
