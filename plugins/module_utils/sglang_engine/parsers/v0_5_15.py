# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.15, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.15'
BASE = '0.5.14'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.15 or changed since 0.5.14 (kind, type, choices or dest)
ADDED = {
    '--bf16-gemm-backend': ('store', 'str', ('auto', 'cutedsl'), 'bf16_gemm_backend'),
    '--dcp-size': ('store', 'int', None, 'dcp_size'),
    '--decode-context-parallel-size': ('store', 'int', None, 'dcp_size'),
    '--decoupled-spec-bind-endpoint': ('store', 'str', None, 'decoupled_spec_bind_endpoint'),
    '--decoupled-spec-connect-endpoints': ('store', 'json_list_type', None, 'decoupled_spec_connect_endpoints'),
    '--decoupled-spec-rank': ('store', 'int', None, 'decoupled_spec_rank'),
    '--decoupled-spec-role': ('store', 'str', ('drafter', 'null', 'verifier'), 'decoupled_spec_role'),
    '--dsa-paged-mqa-logits-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutedsl', 'deepgemm',
        ),
        'dsa_paged_mqa_logits_backend',
    ),
    '--enable-linear-replayssm': ('flag', None, None, 'enable_linear_replayssm'),
    '--enable-mamba-cache-stochastic-rounding': ('flag', None, None, 'enable_mamba_cache_stochastic_rounding'),
    '--enable-page-major-kv-layout': ('flag', None, None, 'enable_page_major_kv_layout'),
    '--enable-session-radix-cache': ('flag', None, None, 'enable_session_radix_cache'),
    '--enable-tf32-matmul': ('flag', None, None, 'enable_tf32_matmul'),
    '--enable-unified-memory': ('flag', None, None, 'enable_unified_memory'),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'simm',
        ),
        'hicache_storage_backend',
    ),
    '--linear-attn-backend': ('store', 'str', ('cutedsl', 'flashinfer', 'flashkda', 'triton'), 'linear_attn_backend'),
    '--linear-attn-decode-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'triton',
        ),
        'linear_attn_decode_backend',
    ),
    '--linear-attn-prefill-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'triton',
        ),
        'linear_attn_prefill_backend',
    ),
    '--linear-replayssm-cache-len': ('store', 'int', None, 'linear_replayssm_cache_len'),
    '--mamba-cache-philox-rounds': ('store', 'int', None, 'mamba_cache_philox_rounds'),
    '--min-free-slots-delay': ('store', 'int', None, 'min_free_slots_delay'),
    '--quantization': (
        'store', 'str',
        (
            'auto-round', 'auto-round-int8', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8',
            'gguf', 'gptq', 'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4',
            'modelopt_fp8', 'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'mxfp_w4a8',
            'nvfp4_online', 'petit_nvfp4', 'qoq', 'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant',
            'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'quantization',
    ),
    '--spec-trace-dir': ('store', 'str', None, 'spec_trace_dir'),
    '--speculative-draft-model-quantization': (
        'store', 'str',
        (
            'auto-round', 'auto-round-int8', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8',
            'gguf', 'gptq', 'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4',
            'modelopt_fp8', 'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'mxfp_w4a8',
            'nvfp4_online', 'petit_nvfp4', 'qoq', 'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant',
            'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'speculative_draft_model_quantization',
    ),
}
# flags 0.5.15 no longer has
REMOVED = (
)
