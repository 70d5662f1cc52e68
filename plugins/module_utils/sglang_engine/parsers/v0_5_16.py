# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.16, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.16'
BASE = '0.5.15.post1'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.16 or changed since 0.5.15.post1 (kind, type, choices or dest)
ADDED = {
    '--default-chat-template-kwargs': ('store', 'loads', None, 'default_chat_template_kwargs'),
    '--dllm-fdfo': ('flag', None, None, 'dllm_fdfo'),
    '--dsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'flashmla_sparse_q8', 'tilelang',
            'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--dsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'flashmla_sparse_q8', 'tilelang',
            'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--elastic-ep-initial-size': ('store', 'int', None, 'elastic_ep_initial_size'),
    '--elastic-ep-join-mode': ('store', 'str', ('recover', 'scale'), 'ep_join_mode'),
    '--elastic-ep-join-rank-offset': ('store', 'int', None, 'ep_join_rank_offset'),
    '--elastic-ep-scale-timeout': ('store', 'float', None, 'elastic_ep_scale_timeout'),
    '--enable-dsa-cache-layer-split': ('flag', None, None, 'enable_dsa_cache_layer_split'),
    '--enable-flexkv': ('flag', None, None, 'enable_flexkv'),
    '--enable-gdn-replayssm-spec': ('flag', None, None, 'enable_gdn_replayssm_spec'),
    '--enable-scattered-sconv': ('flag', None, None, 'enable_scattered_sconv'),
    '--enable-waterfill': ('flag', None, None, 'enable_waterfill'),
    '--flexkv-config-file': ('store', 'str', None, 'flexkv_config_file'),
    '--fp4-gemm-backend': (
        'store', 'str',
        (
            'auto', 'flashinfer_cudnn', 'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_trtllm',
            'marlin',
        ),
        'fp4_gemm_runner_backend',
    ),
    '--fuseep-mode': ('store', 'int', ('1', '2'), 'fuseep_mode'),
    '--grpc-http-sidecar-port': ('store', 'int', None, 'smg_http_sidecar_port'),
    '--grpc-port': ('store', 'int', None, 'grpc_port'),
    '--kv-cache-dtype': (
        'store', 'str',
        (
            'auto', 'bf16', 'bfloat16', 'fp4_e2m1', 'fp4_mx_block16', 'fp8_e4m3', 'fp8_e5m2', 'mxfp8', 'nvfp4',
        ),
        'kv_cache_dtype',
    ),
    '--lora-target-modules': (
        'list*', 'str',
        (
            'all', 'down_proj', 'embed_tokens', 'gate_proj', 'gate_up_proj', 'k_proj', 'kv_a_proj_with_mqa',
            'kv_b_proj', 'lm_head', 'o_proj', 'q_a_proj', 'q_b_proj', 'q_proj', 'qkv_proj', 'qkvr', 'up_proj',
            'v_proj', 'weights_proj', 'wk', 'wo_ud', 'wq_b',
        ),
        'lora_target_modules',
    ),
    '--max-ep-size': ('store', 'int', None, 'max_ep_size'),
    '--mm-feature-transport': ('store', 'str', ('cpu', 'cuda_ipc'), 'mm_feature_transport'),
    '--moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'flashinfer', 'megamoe', 'mooncake', 'mori', 'nixl', 'none',
        ),
        'moe_a2a_backend',
    ),
    '--moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'humming', 'marlin', 'triton', 'triton_kernel',
        ),
        'moe_runner_backend',
    ),
    '--no-dllm-fdfo': ('flag', None, None, 'dllm_fdfo'),
    '--nsa-decode-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'flashmla_sparse_q8', 'tilelang',
            'trtllm',
        ),
        'dsa_decode_backend',
    ),
    '--nsa-prefill-backend': (
        'store', 'str',
        (
            'aiter', 'fa3', 'flashmla_auto', 'flashmla_kv', 'flashmla_sparse', 'flashmla_sparse_q8', 'tilelang',
            'trtllm',
        ),
        'dsa_prefill_backend',
    ),
    '--optimistic-prefill-attempts': ('store', 'int', None, 'optimistic_prefill_attempts'),
    '--quantization': (
        'store', 'str',
        (
            'auto-round', 'auto-round-int8', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8',
            'gguf', 'gptq', 'gptq_marlin', 'humming', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4',
            'modelopt_fp8', 'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'mxfp_w4a8',
            'nvfp4_online', 'petit_nvfp4', 'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8',
            'w8a8_fp8', 'w8a8_int8',
        ),
        'quantization',
    ),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4', 'gemma4',
            'glm45', 'gpt-oss', 'hunyuan', 'inkling', 'interns1', 'kimi', 'kimi_k2', 'mimo', 'minimax',
            'minimax-append-think', 'minimax-m3', 'mistral', 'nemotron_3', 'poolside_v1', 'qwen3',
            'qwen3-thinking', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--retraction-policy': ('store', 'str', ('length', 'priority'), 'retraction_policy'),
    '--sidecar': ('store', 'str', None, 'sidecar'),
    '--sidecar-args': ('store', 'json_list_type', None, 'sidecar_args'),
    '--smg-grpc-mode': ('flag', None, None, 'smg_grpc_mode'),
    '--smg-http-sidecar-port': ('store', 'int', None, 'smg_http_sidecar_port'),
    '--speculative-draft-model-quantization': (
        'store', 'str',
        (
            'auto-round', 'auto-round-int8', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8',
            'gguf', 'gptq', 'gptq_marlin', 'humming', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4',
            'modelopt_fp8', 'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'mxfp_w4a8',
            'nvfp4_online', 'petit_nvfp4', 'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8',
            'w8a8_fp8', 'w8a8_int8',
        ),
        'speculative_draft_model_quantization',
    ),
    '--speculative-dspark-align-verify-tokens-to-graph-tier': (
        'flag', None,
        None,
        'speculative_dspark_align_verify_tokens_to_graph_tier',
    ),
    '--speculative-dspark-block-size': ('store', 'int', None, 'speculative_dspark_block_size'),
    '--speculative-dspark-confidence-sts-path': ('store', 'str', None, 'speculative_dspark_confidence_sts_path'),
    '--speculative-dspark-sps-table-path': ('store', 'str', None, 'speculative_dspark_sps_table_path'),
    '--speculative-moe-a2a-backend': (
        'store', 'str',
        (
            'ascend_fuseep', 'ascend_tp', 'deepep', 'flashinfer', 'megamoe', 'mooncake', 'mori', 'nixl', 'none',
        ),
        'speculative_moe_a2a_backend',
    ),
    '--speculative-moe-runner-backend': (
        'store', 'str',
        (
            'aiter', 'auto', 'cutlass', 'deep_gemm', 'experimental_sgl_marlin', 'experimental_sgl_trtllm',
            'flashinfer_cutedsl', 'flashinfer_cutlass', 'flashinfer_mxfp4', 'flashinfer_trtllm',
            'flashinfer_trtllm_routed', 'humming', 'marlin', 'triton', 'triton_kernel',
        ),
        'speculative_moe_runner_backend',
    ),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'gemma4', 'gigachat3', 'glm', 'glm45', 'glm47', 'gpt-oss', 'hermes', 'hunyuan', 'inkling',
            'interns1', 'kimi_k2', 'lfm2', 'llama3', 'mimo', 'minicpm5', 'minimax-m2', 'minimax-m3', 'mistral',
            'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder', 'step3', 'step3p5', 'trinity',
        ),
        'tool_call_parser',
    ),
}
# flags 0.5.16 no longer has
REMOVED = (
    '--enable-deepep-waterfill',
    '--optimistic-prefill-retries',
)
