# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.17, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.17'
BASE = '0.5.16'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.17 or changed since 0.5.16 (kind, type, choices or dest)
ADDED = {
    '--attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'hpc_ops',
            'intel_amx', 'intel_xpu', 'nsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha',
            'trtllm_mla', 'wave',
        ),
        'attention_backend',
    ),
    '--bf16-gemm-backend': ('store', 'str', ('auto', 'cutedsl', 'torch'), 'bf16_gemm_backend'),
    '--dcp-comm-backend': ('store', 'str', ('a2a', 'ag_rs', 'fi_a2a'), 'dcp_comm_backend'),
    '--dcp-replicate-q-proj': ('flag', None, None, 'dcp_replicate_q_proj'),
    '--decode-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'hpc_ops',
            'intel_amx', 'intel_xpu', 'nsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha',
            'trtllm_mla', 'wave',
        ),
        'decode_attention_backend',
    ),
    '--dsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'tilelang', 'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--dsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'tilelang', 'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--dwdp-size': ('store', 'int', None, 'dwdp_size'),
    '--enable-cp-decode-attn-tp': ('flag', None, None, 'enable_cp_decode_attn_tp'),
    '--enable-gdn-replayssm-spec': ('flag', None, None, 'enable_linear_replayssm_spec'),
    '--enable-linear-replayssm-spec': ('flag', None, None, 'enable_linear_replayssm_spec'),
    '--encoder-transfer-backend': (
        'store', 'str',
        (
            'auto', 'mooncake', 'zmq_to_scheduler', 'zmq_to_tokenizer',
        ),
        'encoder_transfer_backend',
    ),
    '--flashinfer-autotune-skip-ops': ('list', 'str', None, 'flashinfer_autotune_skip_ops'),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'shm', 'simm',
        ),
        'hicache_storage_backend',
    ),
    '--linear-attn-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_backend',
    ),
    '--linear-attn-decode-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_decode_backend',
    ),
    '--linear-attn-prefill-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_prefill_backend',
    ),
    '--linear-attn-verify-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'nv_cutedsl', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_verify_backend',
    ),
    '--load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'fastsafetensors', 'flash_rl', 'gguf', 'layered', 'mistral',
            'npcache', 'presharded', 'private', 'pt', 'remote', 'remote_instance', 'runai_streamer',
            'safetensors', 'sharded_state',
        ),
        'load_format',
    ),
    '--mamba-max-states-per-path': ('store', 'int', None, 'mamba_max_states_per_path'),
    '--mm-io-worker-num': ('store', 'int', None, 'mm_io_worker_num'),
    '--mm-processor-worker-num': ('store', 'int', None, 'mm_processor_worker_num'),
    '--moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'flashinfer', 'megamoe', 'mooncake', 'mori', 'nixl', 'none',
            'pplx',
        ),
        'moe_a2a_backend',
    ),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'marlin', 'triton', 'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--no-dcp-replicate-q-proj': ('flag', None, None, 'dcp_replicate_q_proj'),
    '--nsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'tilelang', 'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--nsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashinfer_sparse_mla', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse',
            'flashmla_sparse_q8', 'tilelang', 'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--prefill-attention-backend': (
        'store', 'str',
        (
            'aiter', 'ascend', 'compressed', 'cutedsl_mla', 'cutlass_mla', 'dsa', 'dsv4',
            'dual_chunk_flash_attn', 'fa3', 'fa4', 'flashinfer', 'flashmla', 'flex_attention', 'hpc_ops',
            'intel_amx', 'intel_xpu', 'nsa', 'tokenspeed_mla', 'torch_native', 'triton', 'trtllm_mha',
            'trtllm_mla', 'wave',
        ),
        'prefill_attention_backend',
    ),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'gemma4',
            'glm45', 'gpt-oss', 'hunyuan', 'inkling', 'interns1', 'kimi', 'kimi_k2', 'kimi_k3', 'mimo',
            'minimax', 'minimax-append-think', 'minimax-m3', 'mistral', 'nemotron_3', 'poolside_v1', 'qwen3',
            'qwen3-thinking', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--return-hidden-states-mode': ('store', 'str', ('full', 'last'), 'return_hidden_states_mode'),
    '--speculative-draft-load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'fastsafetensors', 'flash_rl', 'gguf', 'layered', 'mistral',
            'npcache', 'presharded', 'private', 'pt', 'remote', 'remote_instance', 'runai_streamer',
            'safetensors', 'sharded_state',
        ),
        'speculative_draft_load_format',
    ),
    '--speculative-moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'flashinfer', 'megamoe', 'mooncake', 'mori', 'nixl', 'none',
            'pplx',
        ),
        'speculative_moe_a2a_backend',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'marlin', 'triton', 'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'gemma4', 'gigachat3', 'glm', 'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'inkling',
            'interns1', 'kimi_k2', 'kimi_k3', 'lfm2', 'llama3', 'mimo', 'minicpm5', 'minimax-m2', 'minimax-m3',
            'mistral', 'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder', 'step3', 'step3p5',
            'trinity',
        ),
        'tool_call_parser',
    ),
    '--weight-cache-mode': ('store', 'str', ('client', 'daemon', 'off'), 'weight_cache_mode'),
    '--weight-cache-socket': ('store', 'str', None, 'weight_cache_socket'),
    '--weight-cache-timeout': ('store', 'int', None, 'weight_cache_timeout'),
}
# flags 0.5.17 no longer has
REMOVED = (
)
