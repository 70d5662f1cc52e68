# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.18, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.18'
BASE = '0.5.17'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.18 or changed since 0.5.17 (kind, type, choices or dest)
ADDED = {
    '--allowed-media-domains': ('list', 'str', None, 'allowed_media_domains'),
    '--c128-page-size': ('store', 'int', None, 'c128_page_size'),
    '--disaggregation-decode-retraction-backup': (
        'store', 'str',
        (
            'cpu_tensor', 'host_pool',
        ),
        'disaggregation_decode_retraction_backup',
    ),
    '--enable-tp-lm-head-all-to-all': ('flag', None, None, 'enable_tp_lm_head_all_to_all'),
    '--expert-balancedness-report-mode': (
        'store', 'str',
        (
            'both', 'off', 'prometheus', 'server_log',
        ),
        'expert_balancedness_report_mode',
    ),
    '--fp8-gemm-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'flashinfer_cutedsl', 'flashinfer_cutlass',
            'flashinfer_deepgemm', 'flashinfer_trtllm', 'triton',
        ),
        'fp8_gemm_runner_backend',
    ),
    '--http2-max-concurrent-streams': ('store', 'int', None, 'http2_max_concurrent_streams'),
    '--image-processor-backend': ('store', 'str', ('auto', 'pil', 'torchvision'), 'image_processor_backend'),
    '--language-model-only': ('flag', None, None, 'language_model_only'),
    '--linear-attn-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_backend',
    ),
    '--linear-attn-decode-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_decode_backend',
    ),
    '--linear-attn-prefill-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_prefill_backend',
    ),
    '--linear-attn-verify-backend': (
        'store', 'str',
        (
            'cutedsl', 'flashinfer', 'flashkda', 'helion', 'nv_cutedsl', 'nvidia_kda', 'ptx_kda', 'triton',
        ),
        'linear_attn_verify_backend',
    ),
    '--media-url-max-file-size-mb': ('store', 'int', None, 'media_url_max_file_size_mb'),
    '--mlx-enable-sampling': ('flag', None, None, 'mlx_enable_sampling'),
    '--mm-feature-transport': ('store', 'str', ('cpu', 'cuda_ipc', 'cuda_vmm'), 'mm_feature_transport'),
    '--mm-global-cache-backend': ('store', 'str', ('mooncake',), 'mm_global_cache_backend'),
    '--mm-preprocess-cache-size-mb': ('store', 'int', None, 'mm_preprocess_cache_size_mb'),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'marlin', 'megamoe', 'triton', 'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--no-enable-tp-lm-head-all-to-all': ('flag', None, None, 'enable_tp_lm_head_all_to_all'),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'gemma4',
            'glm45', 'gpt-oss', 'hunyuan', 'inkling', 'interns1', 'kimi', 'kimi_k2', 'kimi_k3', 'mimo',
            'minimax', 'minimax-append-think', 'minimax-m3', 'mistral', 'muse', 'nemotron_3', 'poolside_v1',
            'qwen3', 'qwen3-thinking', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--speculative-draft-kv-cache-dtype': (
        'store', 'str',
        (
            'auto', 'bf16', 'bfloat16', 'fp8_e4m3', 'fp8_e5m2',
        ),
        'speculative_draft_kv_cache_dtype',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'hpc_ops', 'humming', 'marlin', 'megamoe', 'triton', 'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--startup-weight-load-mode': ('store', 'str', ('overlap', 'serial'), 'startup_weight_load_mode'),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'gemma4', 'gigachat3', 'glm', 'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'inkling',
            'interns1', 'kimi_k2', 'kimi_k3', 'lfm2', 'llama3', 'mimo', 'minicpm5', 'minimax-m2', 'minimax-m3',
            'mistral', 'muse', 'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder', 'step3', 'step3p5',
            'trinity',
        ),
        'tool_call_parser',
    ),
    '--trust-mm-content-hashes': ('flag', None, None, 'trust_mm_content_hashes'),
}
# flags 0.5.18 no longer has
REMOVED = (
    '--torchao-config',
)
