# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.12, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.12'
BASE = '0.5.11'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.12 or changed since 0.5.11 (kind, type, choices or dest)
ADDED = {
    '--attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutlass_mla', 'dsv4', 'dual_chunk_flash_attn', 'fa3', 'fa4',
            'flashinfer', 'flashmla', 'flex_attention', 'intel_amx', 'intel_xpu', 'nsa', 'tokenspeed_mla',
            'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'attention_backend',
    ),
    '--decode-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutlass_mla', 'dsv4', 'dual_chunk_flash_attn', 'fa3', 'fa4',
            'flashinfer', 'flashmla', 'flex_attention', 'intel_amx', 'intel_xpu', 'nsa', 'tokenspeed_mla',
            'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'decode_attention_backend',
    ),
    '--detokenizer-worker-num': ('store', 'int', None, 'detokenizer_worker_num'),
    '--enable-deepep-waterfill': ('flag', None, None, 'enable_deepep_waterfill'),
    '--enable-forward-pass-metrics': ('flag', None, None, 'enable_forward_pass_metrics'),
    '--enable-return-indexer-topk': ('flag', None, None, 'enable_return_indexer_topk'),
    '--enable-strict-thinking': ('flag', None, None, 'enable_strict_thinking'),
    '--forward-pass-metrics-ipc-name': ('store', 'str', None, 'forward_pass_metrics_ipc_name'),
    '--forward-pass-metrics-worker-id': ('store', 'str', None, 'forward_pass_metrics_worker_id'),
    '--fp4-gemm-backend': (
        'store', 'str',
        (
            'auto', 'cutlass', 'flashinfer_cudnn', 'flashinfer_cutedsl', 'flashinfer_cutlass',
            'flashinfer_trtllm',
        ),
        'fp4_gemm_runner_backend',
    ),
    '--hierarchical-sparse-attention-extra-config': ('store', 'str', None, 'hisparse_config'),
    '--lora-drain-wait-threshold': ('store', 'float', None, 'lora_drain_wait_threshold'),
    '--lora-target-modules': (
        'list*', 'str',
        (
            'all', 'down_proj', 'embed_tokens', 'gate_proj', 'gate_up_proj', 'k_proj', 'kv_a_proj_with_mqa',
            'kv_b_proj', 'lm_head', 'o_proj', 'q_a_proj', 'q_b_proj', 'q_proj', 'qkv_proj', 'up_proj', 'v_proj',
        ),
        'lora_target_modules',
    ),
    '--model-config-parser': ('store', 'str', None, 'model_config_parser'),
    '--moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'deepep', 'flashinfer', 'megamoe', 'mooncake', 'mori', 'nixl', 'none',
        ),
        'moe_a2a_backend',
    ),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'flashinfer_cutedsl', 'flashinfer_cutlass',
            'flashinfer_mxfp4', 'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'marlin', 'triton',
            'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--prefill-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutlass_mla', 'dsv4', 'dual_chunk_flash_attn', 'fa3', 'fa4',
            'flashinfer', 'flashmla', 'flex_attention', 'intel_amx', 'intel_xpu', 'nsa', 'tokenspeed_mla',
            'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'prefill_attention_backend',
    ),
    '--prefill-delayer-max-delay-ms': ('store', 'float', None, 'prefill_delayer_max_delay_ms'),
    '--prefill-delayer-queue-min-ratio': ('store', 'float', None, 'prefill_delayer_queue_min_ratio'),
    '--prefill-only-disable-kv-cache': ('flag', None, None, 'prefill_only_disable_kv_cache'),
    '--quantization': (
        'store', 'str',
        (
            'auto-round', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8', 'gguf', 'gptq',
            'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4', 'modelopt_fp8',
            'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'petit_nvfp4', 'qoq', 'quark',
            'quark_int4fp8_moe', 'unquant', 'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'quantization',
    ),
    '--reasoning-parser': (
        'store', 'str',
        (
            'auto', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'gemma4', 'glm45', 'gpt-oss', 'hunyuan',
            'interns1', 'kimi', 'kimi_k2', 'mimo', 'minimax', 'minimax-append-think', 'mistral', 'nemotron_3',
            'poolside_v1', 'qwen3', 'qwen3-thinking', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--speculative-algorithm': ('store', 'str', None, 'speculative_algorithm'),
    '--speculative-dflash-draft-window-size': ('store', 'int', None, 'speculative_draft_window_size'),
    '--speculative-draft-model-quantization': (
        'store', 'str',
        (
            'auto-round', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8', 'gguf', 'gptq',
            'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4', 'modelopt_fp8',
            'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'petit_nvfp4', 'qoq', 'quark',
            'quark_int4fp8_moe', 'unquant', 'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'speculative_draft_model_quantization',
    ),
    '--speculative-draft-window-size': ('store', 'int', None, 'speculative_draft_window_size'),
    '--speculative-moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'deepep', 'flashinfer', 'megamoe', 'mooncake', 'mori', 'nixl', 'none',
        ),
        'speculative_moe_a2a_backend',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'flashinfer_cutedsl', 'flashinfer_cutlass',
            'flashinfer_mxfp4', 'flashinfer_trtllm', 'flashinfer_trtllm_routed', 'marlin', 'triton',
            'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--tool-call-parser': (
        'store', 'str',
        (
            'auto', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4', 'gemma4', 'gigachat3', 'glm',
            'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'interns1', 'kimi_k2', 'lfm2', 'llama3', 'mimo',
            'minimax-m2', 'mistral', 'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder', 'step3',
            'step3p5', 'trinity',
        ),
        'tool_call_parser',
    ),
    '--weight-loader-drop-cache-after-load': ('flag', None, None, 'weight_loader_drop_cache_after_load'),
}
# flags 0.5.12 no longer has
REMOVED = (
)
