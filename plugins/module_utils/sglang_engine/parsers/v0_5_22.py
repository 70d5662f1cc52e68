# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.22, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.22'
BASE = '0.5.21'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'UNO', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.22 or changed since 0.5.21 (kind, type, choices or dest)
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
    '--disaggregation-decode-allocation-policy': (
        'store', 'str',
        (
            'early', 'prefill_complete',
        ),
        'disaggregation_decode_allocation_policy',
    ),
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
    '--enable-dsa-fused-indexer': ('flag', None, None, 'enable_dsa_fused_indexer'),
    '--enable-kv-cache-sharding': ('flag', None, None, 'enable_kv_cache_sharding'),
    '--enable-watermark': ('flag', None, None, 'enable_watermark'),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'npu_memcache',
            'seaweedfs', 'shm', 'sim', 'simm', 'tensorcast',
        ),
        'hicache_storage_backend',
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
    '--no-enable-dsa-fused-indexer': ('flag', None, None, 'enable_dsa_fused_indexer'),
    '--no-speculative-enable-w4a4-mxfp4-megamoe': ('flag', None, None, 'speculative_enable_w4a4_mxfp4_megamoe'),
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
    '--qsa-indexer-dtype': ('store', 'str', ('auto', 'bfloat16', 'fp8_e4m3'), 'qsa_indexer_dtype'),
    '--speculative-draft-load-format': (
        'store', 'str',
        (
            'auto', 'bitsandbytes', 'dummy', 'expert_pack', 'fastsafetensors', 'flash_rl', 'gguf',
            'instanttensor', 'layered', 'mistral', 'npcache', 'presharded', 'private', 'pt', 'remote',
            'remote_instance', 'runai_streamer', 'safetensors', 'sharded_state',
        ),
        'speculative_draft_load_format',
    ),
    '--speculative-enable-w4a4-mxfp4-megamoe': ('flag', None, None, 'speculative_enable_w4a4_mxfp4_megamoe'),
    '--speculative-use-block-verification': ('flag', None, None, 'speculative_use_block_verification'),
    '--watermark-config': ('store', 'str', None, 'watermark_config'),
}
# flags 0.5.22 no longer has
REMOVED = (
    '--cuda-graph-tc-compiler',
)
