# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.23, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.23'
BASE = '0.5.22'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'UNO', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.23 or changed since 0.5.22 (kind, type, choices or dest)
ADDED = {
    '--dsv4-attn-backend': ('store', 'str', ('auto', 'flashmla', 'flashmla_mega', 'trtllm'), 'dsv4_attn_backend'),
    '--enable-amd-monokernel': ('flag', None, None, 'enable_amd_monokernel'),
    '--enable-hicache': ('flag', None, None, 'enable_hierarchical_cache'),
    '--enable-http-worker-reuseport': ('flag', None, None, 'enable_http_worker_reuseport'),
    '--enable-megamoe-for-layernorm-sp': ('flag', None, None, 'enable_megamoe_for_layernorm_sp'),
    '--enable-nvidia-megakernel': ('flag', None, None, 'enable_nvidia_megakernel'),
    '--enable-paged-experts': ('flag', None, None, 'enable_paged_experts'),
    '--enable-return-aux-hidden-states': ('flag', None, None, 'enable_return_aux_hidden_states'),
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
    '--no-enable-fused-qk-norm-rope': ('flag', None, None, 'enable_fused_qk_norm_rope'),
    '--no-enable-tf32-matmul': ('flag', None, None, 'enable_tf32_matmul'),
    '--no-mm-enable-dp-encoder': ('flag', None, None, 'mm_enable_dp_encoder'),
    '--paged-experts-num-resident': ('store', 'int', None, 'paged_experts_num_resident'),
    '--prefill-decode-interval-min-bs': ('store', 'int', None, 'prefill_decode_interval_min_bs'),
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
    '--unified-cache-external-linker-backend': (
        'store', 'str',
        (
            'dynamic', 'mooncake', 'mori',
        ),
        'unified_cache_external_linker_backend',
    ),
    '--unified-cache-external-linker-config': ('store', 'loads', None, 'unified_cache_external_linker_config'),
}
# flags 0.5.23 no longer has
REMOVED = (
    '--speculative-skip-dp-mlp-sync',
)
