# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang 0.5.21, captured from its real `sglang serve` parser (ServerArgs.add_cli_args)
in its own CPU kit by tools/sglang-release. Regenerate, never hand-edit. stdlib only."""

VERSION = '0.5.21'
BASE = '0.5.20'
# SpeculativeAlgorithm members (empty: the parser choices are the list)
ALGORITHMS = ('DFLASH', 'UNO', 'DSPARK', 'EAGLE', 'EAGLE3', 'FROZEN_KV_MTP', 'STANDALONE', 'NGRAM')
# flags new in 0.5.21 or changed since 0.5.20 (kind, type, choices or dest)
ADDED = {
    '--boundary-reduction': ('store', 'str', ('ar', 'auto', 'rs', 'rs+rsv', 'rsv'), 'boundary_reduction'),
    '--constrained-json-max-whitespace-cnt': ('store', 'int', None, 'constrained_json_max_whitespace_cnt'),
    '--context-bucket': ('store', 'human_readable_int', None, 'cuda_graph_prefill_max_context'),
    '--cuda-graph-max-seq-len-prefill': ('store', 'int', None, 'cuda_graph_max_seq_len_prefill'),
    '--cuda-graph-prefill-max-context': ('store', 'human_readable_int', None, 'cuda_graph_prefill_max_context'),
    '--disable-aiter-allreduce-fusion-in-decode': ('flag', None, None, 'disable_aiter_allreduce_fusion_in_decode'),
    '--disable-aiter-allreduce-fusion-in-prefill': ('flag', None, None, 'disable_aiter_allreduce_fusion_in_prefill'),
    '--disaggregation-decode-host-receive-threshold': (
        'store', 'float',
        None,
        'disaggregation_decode_host_receive_threshold',
    ),
    '--disaggregation-decode-retraction-backup': (
        'store', 'str',
        (
            'cpu_tensor', 'host_pool', 'none',
        ),
        'disaggregation_decode_retraction_backup',
    ),
    '--disaggregation-enable-kv-checksum': ('flag', None, None, 'disaggregation_enable_kv_checksum'),
    '--enable-decoder-swa-bounded-replay': ('flag', None, None, 'enable_decoder_swa_bounded_replay'),
    '--enable-encoder-swa-bounded-replay': ('flag', None, None, 'enable_encoder_swa_bounded_replay'),
    '--enable-linker-mla-dedup': ('flag', None, None, 'enable_linker_mla_dedup'),
    '--enable-pd-role-switch': ('flag', None, None, 'enable_pd_role_switch'),
    '--flashinfer-allreduce-fusion-backend': (
        'store', 'str',
        (
            'auto', 'cutedsl', 'mnnvl', 'trtllm',
        ),
        'flashinfer_allreduce_fusion_backend',
    ),
    '--grpc-response-timeout-secs': ('store', 'int', None, 'grpc_response_timeout_secs'),
    '--hicache-host-memory-fraction': ('store', 'float', None, 'hicache_host_memory_fraction'),
    '--hicache-storage-backend': (
        'store', 'str',
        (
            'aibrix', 'dynamic', 'eic', 'file', 'hf3fs', 'mooncake', 'mori', 'nixl', 'npu_memcache', 'shm',
            'sim', 'simm', 'tensorcast',
        ),
        'hicache_storage_backend',
    ),
    '--kv-cache-dtype': (
        'store', 'str',
        (
            'auto', 'bf16', 'bfloat16', 'fp4_mx_block16', 'fp8_e4m3', 'fp8_e5m2', 'mxfp8', 'nvfp4',
        ),
        'kv_cache_dtype',
    ),
    '--otlp-service-name': ('store', 'str', None, 'otlp_service_name'),
    '--prefill-kv-cache-dequant-dtype': (
        'store', 'str',
        (
            'auto', 'fp8_e4m3', 'nvfp4',
        ),
        'prefill_kv_cache_dequant_dtype',
    ),
    '--radix-eviction-policy': ('store', 'str', ('lfu', 'lru', 'priority', 'slru', 'tlru'), 'radix_eviction_policy'),
    '--reasoning-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseek-r1', 'deepseek-v3', 'deepseek-v4',
            'deepseek-v41', 'dots', 'gemma4', 'gigachat35', 'glm45', 'gpt-oss', 'granite_thinking_parser',
            'hunyuan', 'inkling', 'interns1', 'iquest_q1', 'k2_horizon', 'kimi', 'kimi_k2', 'kimi_k3', 'ling3',
            'mimo', 'minimax', 'minimax-append-think', 'minimax-m3', 'mistral', 'muse', 'nanbeige',
            'nemotron_3', 'poolside_v1', 'qwen3', 'qwen3-thinking', 'step3', 'step3p5',
        ),
        'reasoning_parser',
    ),
    '--sampling-backend': ('store', 'str', ('ascend', 'flashinfer', 'intel_xpu', 'pytorch'), 'sampling_backend'),
    '--schedule-policy': (
        'store', 'str',
        (
            'dfs-weight', 'fcfs', 'hrrn', 'lof', 'lpm', 'priority', 'random', 'routing-key',
            'shortest-prefill-first',
        ),
        'schedule_policy',
    ),
    '--shared-experts-tp-size': ('store', 'int', None, 'shared_experts_tp_size'),
    '--speculative-draft-sink-size': ('store', 'int', None, 'speculative_draft_sink_size'),
    '--swa-prefix-tails': ('store', 'int', None, 'swa_prefix_tails'),
    '--tool-call-parser': (
        'store', 'str',
        (
            'apertus2509', 'auto', 'cohere_command4', 'deepseekv3', 'deepseekv31', 'deepseekv32', 'deepseekv4',
            'deepseekv41', 'dots', 'gemma4', 'gigachat3', 'gigachat35', 'glm', 'glm45', 'glm47', 'gpt-oss',
            'hermes', 'hunyuan', 'inkling', 'interns1', 'iquest_q1', 'k2_horizon', 'kimi_k2', 'kimi_k3', 'lfm2',
            'ling3', 'llama3', 'mimo', 'minicpm5', 'minimax-m2', 'minimax-m3', 'mistral', 'muse', 'nanbeige',
            'poolside_v1', 'pythonic', 'qwen', 'qwen25', 'qwen3_coder', 'spark25', 'step3', 'step3p5',
            'trinity',
        ),
        'tool_call_parser',
    ),
    '--trust-request-chat-template': ('flag', None, None, 'trust_request_chat_template'),
}
# flags 0.5.21 no longer has
REMOVED = (
    '--elastic-ep-rejoin',
    '--keep-mm-feature-on-device',
)
