# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.19, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.19'
BASE = '0.5.18'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.19 or changed since 0.5.18 (kind, type, choices or dest)
ADDED = {
    '--attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'hpc_ops',
            'intel_amx', 'intel_xpu', 'minicpm_flashattn', 'minicpm_flashinfer', 'nsa', 'tokenspeed_mla',
            'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'attention_backend',
    ),
    '--bf16-gemm-backend': (
        'store', 'str',
        (
            'auto', 'cutedsl', 'flashinfer_pr4266', 'gemv', 'torch',
        ),
        'bf16_gemm_backend',
    ),
    '--decode-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'hpc_ops',
            'intel_amx', 'intel_xpu', 'minicpm_flashattn', 'minicpm_flashinfer', 'nsa', 'tokenspeed_mla',
            'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'decode_attention_backend',
    ),
    '--deepep-v2-mode': ('store', 'str', ('direct', 'hybrid'), 'deepep_v2_mode'),
    '--dsv4-prefill-backend': (
        'store', 'str',
        (
            'auto', 'flashmla_sparse', 'flashmla_sparse_q8',
        ),
        'dsv4_prefill_backend',
    ),
    '--enable-dense-mlp-attn-tp': ('flag', None, None, 'enable_dense_mlp_attn_tp'),
    '--enable-layernorm-sp': ('flag', None, None, 'enable_layernorm_sp'),
    '--enable-lean-attention': ('flag', None, None, 'enable_lean_attention'),
    '--enable-shared-experts-attn-tp': ('flag', None, None, 'enable_shared_experts_attn_tp'),
    '--enable-w4a4-mxfp4-megamoe': ('flag', None, None, 'enable_w4a4_mxfp4_megamoe'),
    '--flashinfer-mxfp4-moe-precision': ('store', 'str', ('bf16', 'default', 'fp8'), 'flashinfer_mxfp4_moe_precision'),
    '--gated-launch-port': ('store', 'int', None, 'gated_launch_port'),
    '--hicache-host-memory-mode': ('store', 'str', ('buffer_only', 'cache'), 'hicache_host_memory_mode'),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'shm', 'sim', 'simm',
        ),
        'hicache_storage_backend',
    ),
    '--hicache-storage-prefetch-retry-max-attempts': (
        'store', 'int',
        None,
        'hicache_storage_prefetch_retry_max_attempts',
    ),
    '--hicache-storage-prefetch-retry-poll-interval': (
        'store', 'int',
        None,
        'hicache_storage_prefetch_retry_poll_interval',
    ),
    '--http2-initial-connection-window-size': ('store', 'int', None, 'http2_initial_connection_window_size'),
    '--linear-attn-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'intel_xpu', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_backend',
    ),
    '--linear-attn-decode-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'intel_xpu', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_decode_backend',
    ),
    '--linear-attn-prefill-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'intel_xpu', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_prefill_backend',
    ),
    '--linear-attn-verify-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'intel_xpu', 'nv_cutedsl', 'nvidia_kda', 'ptx_kda',
            'triton',
        ),
        'linear_attn_verify_backend',
    ),
    '--load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'expert_pack', 'fastsafetensors', 'flash_rl', 'gguf', 'layered',
            'mistral', 'npcache', 'presharded', 'private', 'pt', 'remote', 'remote_instance', 'runai_streamer',
            'safetensors', 'sharded_state',
        ),
        'load_format',
    ),
    '--load-publish-endpoint': ('store', 'str', None, 'load_publish_endpoint'),
    '--moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'deepep_v2', 'flashinfer', 'megamoe', 'mooncake', 'mori',
            'nixl', 'none', 'pplx',
        ),
        'moe_a2a_backend',
    ),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'intel_xpu', 'marlin', 'megamoe', 'triton',
            'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--prefill-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'hpc_ops',
            'intel_amx', 'intel_xpu', 'minicpm_flashattn', 'minicpm_flashinfer', 'nsa', 'tokenspeed_mla',
            'torch_native', 'triton', 'trtllm_mha', 'trtllm_mla', 'wave',
        ),
        'prefill_attention_backend',
    ),
    '--prefill-decode-interval': ('store', 'int', None, 'prefill_decode_interval'),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'dots',
            'gemma4', 'glm45', 'gpt-oss', 'hunyuan', 'inkling', 'interns1', 'kimi', 'kimi_k2', 'kimi_k3',
            'ling3', 'mimo', 'minimax', 'minimax-append-think', 'minimax-m3', 'mistral', 'muse', 'nemotron_3',
            'poolside_v1', 'qwen3', 'qwen3-thinking', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--speculative-draft-load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'expert_pack', 'fastsafetensors', 'flash_rl', 'gguf', 'layered',
            'mistral', 'npcache', 'presharded', 'private', 'pt', 'remote', 'remote_instance', 'runai_streamer',
            'safetensors', 'sharded_state',
        ),
        'speculative_draft_load_format',
    ),
    '--speculative-dsa-topk-backend': (
        'store', 'str',
        (
            'flashinfer', 'sgl-kernel', 'torch',
        ),
        'speculative_dsa_topk_backend',
    ),
    '--speculative-moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'deepep_v2', 'flashinfer', 'megamoe', 'mooncake', 'mori',
            'nixl', 'none', 'pplx',
        ),
        'speculative_moe_a2a_backend',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'intel_xpu', 'marlin', 'megamoe', 'triton',
            'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'dots', 'gemma4', 'gigachat3', 'glm', 'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'inkling',
            'interns1', 'kimi_k2', 'kimi_k3', 'lfm2', 'ling3', 'llama3', 'mimo', 'minicpm5', 'minimax-m2',
            'minimax-m3', 'mistral', 'muse', 'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder',
            'spark25', 'step3', 'step3p5', 'trinity',
        ),
        'tool_call_parser',
    ),
}
# flags 0.5.19 no longer has
REMOVED = (
)
