# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.14, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.14'
BASE = '0.5.13.post1'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.14 or changed since 0.5.13.post1 (kind, type, choices or dest)
ADDED = {
    '--attention-context-parallel-size': ('store', 'int', None, 'attn_cp_size'),
    '--attn-cp-size': ('store', 'int', None, 'attn_cp_size'),
    '--cp-strategy': ('store', 'str', ('interleave', 'zigzag'), 'cp_strategy'),
    '--cuda-graph-backend-decode': (
        'store', 'str',
        (
            'breakable', 'disabled', 'full', 'tc_piecewise',
        ),
        'cuda_graph_backend_decode',
    ),
    '--cuda-graph-backend-prefill': (
        'store', 'str',
        (
            'breakable', 'disabled', 'full', 'tc_piecewise',
        ),
        'cuda_graph_backend_prefill',
    ),
    '--cuda-graph-bs': ('list', 'int', None, 'cuda_graph_bs_decode'),
    '--cuda-graph-bs-decode': ('list', 'int', None, 'cuda_graph_bs_decode'),
    '--cuda-graph-bs-prefill': ('list', 'int', None, 'cuda_graph_bs_prefill'),
    '--cuda-graph-config': ('store', 'parse_cuda_graph_config_arg', None, 'cuda_graph_config'),
    '--cuda-graph-max-bs': ('store', 'int', None, 'cuda_graph_max_bs_decode'),
    '--cuda-graph-max-bs-decode': ('store', 'int', None, 'cuda_graph_max_bs_decode'),
    '--cuda-graph-max-bs-prefill': ('store', 'int', None, 'cuda_graph_max_bs_prefill'),
    '--cuda-graph-tc-compiler': ('store', 'str', ('eager', 'inductor'), 'cuda_graph_tc_compiler'),
    '--data-parallel-size': ('store', 'int', None, 'dp_size'),
    '--disable-decode-cuda-graph': ('flag', None, None, 'disable_decode_cuda_graph'),
    '--disable-piecewise-cuda-graph': ('flag', None, None, 'cuda_graph_backend_prefill'),
    '--disable-prefill-cuda-graph': ('flag', None, None, 'disable_prefill_cuda_graph'),
    '--disaggregation-decode-extra-slots': ('store', 'int', None, 'disaggregation_decode_extra_slots'),
    '--dp-size': ('store', 'int', None, 'dp_size'),
    '--enable-breakable-cuda-graph': ('flag', None, None, 'cuda_graph_backend_prefill'),
    '--enable-int8-mamba-checkpoint': ('flag', None, None, 'enable_int8_mamba_checkpoint'),
    '--enable-prefill-cp': ('flag', None, None, 'enable_prefill_cp'),
    '--enforce-piecewise-cuda-graph': ('flag', None, None, 'cuda_graph_backend_prefill'),
    '--ep': ('store', 'int', None, 'ep_size'),
    '--ep-dispatch-algorithm': ('store', 'str', ('dynamic', 'fake', 'lp', 'static'), 'ep_dispatch_algorithm'),
    '--ep-size': ('store', 'int', None, 'ep_size'),
    '--expert-distribution-recorder-mode': (
        'store', 'str',
        (
            'per_pass', 'per_token', 'stat', 'stat_approx',
        ),
        'expert_distribution_recorder_mode',
    ),
    '--expert-parallel-size': ('store', 'int', None, 'ep_size'),
    '--flashinfer-allreduce-fusion-backend': (
        'store', 'str',
        (
            'auto', 'mnnvl', 'trtllm',
        ),
        'flashinfer_allreduce_fusion_backend',
    ),
    '--int8-mamba-ckpt-size': ('store', 'int', None, 'int8_mamba_ckpt_size'),
    '--lora-target-modules': (
        'list*', 'str',
        (
            'all', 'down_proj', 'embed_tokens', 'gate_proj', 'gate_up_proj', 'k_proj', 'kv_a_proj_with_mqa',
            'kv_b_proj', 'lm_head', 'o_proj', 'q_a_proj', 'q_b_proj', 'q_proj', 'qkv_proj', 'up_proj', 'v_proj',
            'weights_proj', 'wk', 'wq_b',
        ),
        'lora_target_modules',
    ),
    '--mamba-radix-cache-strategy': (
        'store', 'str',
        (
            'auto', 'extra_buffer', 'extra_buffer_lazy', 'no_buffer',
        ),
        'mamba_radix_cache_strategy',
    ),
    '--mamba-scheduler-strategy': ('store', 'str', None, 'mamba_radix_cache_strategy'),
    '--moe-data-parallel-size': ('store', 'int', None, 'moe_dp_size'),
    '--moe-dp-size': ('store', 'int', None, 'moe_dp_size'),
    '--piecewise-cuda-graph-compiler': ('store', 'str', ('eager', 'inductor'), 'cuda_graph_tc_compiler'),
    '--piecewise-cuda-graph-max-tokens': ('store', 'int', None, 'cuda_graph_max_bs_prefill'),
    '--piecewise-cuda-graph-tokens': ('list', 'int', None, 'cuda_graph_bs_prefill'),
    '--pipeline-parallel-size': ('store', 'int', None, 'pp_size'),
    '--pp-size': ('store', 'int', None, 'pp_size'),
    '--quantization': (
        'store', 'str',
        (
            'auto-round', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8', 'gguf', 'gptq',
            'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4', 'modelopt_fp8',
            'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'nvfp4_online', 'petit_nvfp4', 'qoq',
            'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'quantization',
    ),
    '--speculative-draft-model-quantization': (
        'store', 'str',
        (
            'auto-round', 'awq', 'awq_marlin', 'bitsandbytes', 'compressed-tensors', 'fp8', 'gguf', 'gptq',
            'gptq_marlin', 'marlin', 'mlx_q4', 'mlx_q8', 'modelopt', 'modelopt_fp4', 'modelopt_fp8',
            'modelopt_mixed', 'modelslim', 'moe_wna16', 'mxfp4', 'mxfp8', 'nvfp4_online', 'petit_nvfp4', 'qoq',
            'quark', 'quark_int4fp8_moe', 'quark_mxfp4', 'unquant', 'w4afp8', 'w8a8_fp8', 'w8a8_int8',
        ),
        'speculative_draft_model_quantization',
    ),
    '--speculative-use-rejection-sampling': ('flag', None, None, 'speculative_use_rejection_sampling'),
    '--tensor-parallel-size': ('store', 'int', None, 'tp_size'),
    '--tp-size': ('store', 'int', None, 'tp_size'),
}
# flags 0.5.14 no longer has
REMOVED = (
    '--custom-sigquit-handler',
    '--debug-tensor-dump-inject',
    '--enable-piecewise-cuda-graph',
    '--hybrid-kvcache-ratio',
)
