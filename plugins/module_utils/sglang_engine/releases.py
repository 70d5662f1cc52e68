# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The release table: every difference between SGLang releases the engine knows, in one place.

Rendering, parsing, resolution, config checks, GPU checks, the smoke decode's meta_info reader and
the weights role's drafter check read their per-release behaviour from here; no other module branches
on a version string. docs/sglang-releases.md explains each trait with its source (release, file).

A release entry lists only what changed against the release before it in ORDER; `release(v)` returns
the merged traits. The parser table of a release comes from parsers/ (captured from that release's
real parser by tools/sglang-release); `parser` here names it.

Adding a release: `tools/sglang-release add X.Y.Z` (captures the parser in the release's CPU kit,
writes parsers/vX_Y_Z.py and a stub entry here inheriting the previous release's traits), then review
the diff and run `make oracle-releases RELEASES=X.Y.Z`.

stdlib only.
"""
from __future__ import annotations

import re

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import parsers

ADD_RELEASE_COMMAND = "tools/sglang-release add <version>"

# Flags that were renamed (old -> new); a release without the old one gets the new one as a hint.
RENAMED = {
    "--speculative-dflash-draft-window-size": "--speculative-draft-window-size",
    "--mamba-scheduler-strategy": "--mamba-radix-cache-strategy",
    "--cuda-graph-max-bs": "--cuda-graph-max-bs-decode",
    "--cuda-graph-bs": "--cuda-graph-bs-decode",
}

# argparse dests older parsers use for ServerArgs fields (ServerArgs.from_cli_args maps them: 0.5.11 and
# 0.5.12 name --tp-size/--dp-size/--pp-size tensor_parallel_size, data_parallel_size, pipeline_parallel_size),
# and 0.5.11's name of the DFLASH window (speculative_dflash_draft_window_size: the same checks, under its flag).
DEST_ALIASES = {"tensor_parallel_size": "tp_size", "data_parallel_size": "dp_size", "pipeline_parallel_size": "pp_size",
                "speculative_dflash_draft_window_size": "speculative_draft_window_size",
                # the same for --ep-size, --attn-cp-size and --moe-dp-size (0.5.11-0.5.13)
                "expert_parallel_size": "ep_size", "attention_context_parallel_size": "attn_cp_size",
                "moe_data_parallel_size": "moe_dp_size"}

# --encoder-only architectures (_handle_encoder_disaggregation's list; 0.5.11's, then what each release adds)
_ENCODER_ARCHS_V1 = ("Qwen2VLForConditionalGeneration", "Qwen3VLForConditionalGeneration",
                     "Qwen2_5_VLForConditionalGeneration", "Qwen3VLMoeForConditionalGeneration",
                     "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",
                     "Qwen3OmniMoeForConditionalGeneration", "Qwen2AudioForConditionalGeneration",
                     "Qwen2_5OmniForConditionalGeneration", "KimiVLForConditionalGeneration",
                     "KimiK25ForConditionalGeneration")

# -- misc (session 15) --: arg_groups/overrides.py _MAMBA_RADIX_CACHE_ARCHS (the model hook's Mamba radix cache), 0.5.21
# and 0.5.22; 0.5.23 adds MiniCPM-V 4.7
_MAMBA_STATE_ARCHS_0_5_21 = (
    "BailingMoeV2_5ForCausalLM", "BailingMoeV3ForCausalLM", "BailingMoeV3VLForConditionalGeneration", "FalconH1ForCausalLM",
    "Glm5NextForConditionalGeneration", "InternS2MobiusForConditionalGeneration", "InternS2PreviewForConditionalGeneration",
    "JetNemotronForCausalLM", "JetVLMForConditionalGeneration", "KimiK3ForConditionalGeneration", "KimiLinearForCausalLM",
    "Lfm2ForCausalLM", "Lfm2MoeForCausalLM", "MiniCPMV4_6ForConditionalGeneration", "NemotronHForCausalLM",
    "NemotronHPuzzleForCausalLM", "NemotronH_Omni_Reasoning_V3", "Qwen3NextForCausalLM", "Qwen3_5ForCausalLM",
    "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration",
    "Qwen4ExpForConditionalGeneration", "ZayaForCausalLM")
_ENCODER_ARCHS_0_5_12 = _ENCODER_ARCHS_V1 + ("InternS2PreviewForConditionalGeneration",)
_ENCODER_ARCHS_0_5_13 = _ENCODER_ARCHS_0_5_12 + ("MiMoV2ForCausalLM",)
_ENCODER_ARCHS_0_5_17 = _ENCODER_ARCHS_0_5_13 + ("KimiK3ForConditionalGeneration",)
_ENCODER_ARCHS_0_5_19 = _ENCODER_ARCHS_0_5_17 + ("Dots3NoteForCausalLM",)
_ENCODER_ARCHS_0_5_20 = _ENCODER_ARCHS_0_5_19 + ("Glm5NextForConditionalGeneration",)
_ENCODER_ARCHS_0_5_23 = _ENCODER_ARCHS_0_5_20 + (
    "MiniMaxM3SparseForConditionalGeneration", "MuseSparkForConditionalGeneration")

_ALGOS_V1 = ("DFLASH", "EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM")

# /metrics names every release from 0.5.11 exports (the `metrics` trait adds or renames per release)
_QUEUED_V1 = ("sglang:num_queue_reqs", "sglang:num_grammar_queue_reqs", "sglang:num_decode_prealloc_queue_reqs",
              "sglang:num_decode_transfer_queue_reqs")
_METRICS_V1 = {
    "accept_length": ("sglang:spec_accept_length",),
    "throughput": ("sglang:gen_throughput",),
    "running": ("sglang:num_running_reqs",),
    "queued": _QUEUED_V1,
    # share of the KV cache pool in use (0 to 1), per scheduler
    "kv_cache_usage": ("sglang:token_usage",),
    "requests_total": ("sglang:num_requests_total",),
    # aborted requests, and the PD transfers that failed (each fails its request)
    "errors_total": ("sglang:num_aborted_requests_total", "sglang:num_bootstrap_failed_reqs_total",
                     "sglang:num_transfer_failed_reqs_total"),
    "generation_tokens_total": ("sglang:generation_tokens_total",),
    "verify_calls_total": (),
    # by endpoint, method and status_code: its 5xx answers count as errors
    "http_responses_total": ("sglang:http_responses_total",),
}

# Traits (see docs/sglang-releases.md):
#   parser                   release whose captured table this release uses (itself once captured)
#   parser_derived           None, or how the table is derived from `parser` (drop/add/choices) while
#                            no capture exists; a derived table tolerates flags it does not list
#   window_flag              the flag the renderer writes for speculative.draft_window_size
#   deprecated               flag -> replacement, printed by SGLang's parser (startup continues)
#   algorithms               accepted --speculative-algorithm names; algorithm_case_sensitive
#   draft_backends           draft attention backends DFLASH accepts (others fall back, with a warning)
#   dflash_devices           None (no device check) or the devices DFLASH accepts; dflash_device_message
#   dp_attention_rejected    DFLASH refuses --enable-dp-attention: True, "non_npu" (on every device but NPU), or
#                            False (accepted with --enable-dp-lm-head)
#   dflash_overlap_off       DFLASH forces the overlap scheduler off (V1 worker)
#   dflash_mixed_chunk_off   DFLASH forces mixed chunked prefill off
#   dflash_resets            the fields DFLASH resets to 1 with a warning (num_steps, eagle_topk)
#   trtllm_mha_sms           {phase: SMs} trtllm_mha accepts at argument resolution (None: not checked there)
#   draft_trtllm_sets_page_size  a trtllm_mha draft backend also moves the target page size to 64
#   draft_backend_at_resolution  the draft attention backend is resolved (and falls back) at argument time;
#                            else the draft worker picks it at start and resolution leaves it as given
#   dp_spec_prefill_env_check    None, or the algorithms SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION accepts (single-layer)
#   pd_decode_radix_needs_nixl   PD decode radix cache requires --disaggregation-transfer-backend nixl
#   pp_speculation_refused   pp > 1 refuses every speculative algorithm
#   dp_attention_tp_divisible   --enable-dp-attention asserts tp_size % dp_size == 0 (parallel hook)
#   cpu_default_attention    attention backend --device cpu resolves to when none is given (None: not modelled)
#   pd_decode_radix_algorithms  algorithms PD decode with radix cache accepts (None: no check)
#   block_verification_algorithms  algorithms --speculative-use-block-verification accepts (None: no flag)
#   eagle_paged_tree_backends  attention backends EAGLE topk > 1 accepts with page_size > 1
#   check_base_gpu_id        check_server_args asserts base_gpu_id >= 0
#   context_check_at_resolution  a context_length above the target's is refused at argument time (else at load)
#   watermark_algorithms     algorithms --enable-watermark accepts (check_server_args; None: not checked)
#   pp_spec_checks           check_server_args refuses pp > 1 with speculation other than EAGLE
#   pp_spec_dspark           DSPARK with pp > 1: False (not checked), "prefill"
#                            (check_pipeline_parallel_compat's DSPARK branch: PD prefill only, no SGLANG_ENABLE_PP_SPEC)
#   pp_spec_env_attn_dp      SGLANG_ENABLE_PP_SPEC with pp > 1 refuses attention DP (rules_parallel.attn_dp_enabled)
#   sampling_mask_env_refused  SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS set at all refuses the start
#   retired_flag_errors      dests of retired flags whose DeprecatedAction stops the parse with an error message
#   trtllm_mha_prefill_sm120, fa4_sm120   sm_120 paths
#   hybrid_gdn_sm120_backends   None, or the backends hybrid GDN models may use on Blackwell
#   mask_token_id_top_level  parse_dflash_draft_config reads mask_token_id at the top level too
#   draft_archs              DFLASH draft architectures the release registers
#   adaptive_candidate_steps  None (--speculative-adaptive not modelled), or the candidate num_steps of the
#                            release's default adaptive config (srt/speculative/adaptive_spec_params.py)
#   adaptive_steps_after_eagle  None, or (0.5.13) the candidate steps the resolved num_steps is checked against
#                            after the EAGLE-family hook
#   meta_info                /generate meta_info names of the draft count fields (correct, proposed)
#   kv_budget_message        what the release prints when the weights leave no room for the KV cache
#   metrics_flag             the flag that turns on GET /metrics (Prometheus text); spec.enable_metrics renders it
#   metrics                  /metrics names per figure metrics.py reads (samples of every name are summed, the
#                            accept length averaged): accept_length, throughput, running, queued, kv_cache_usage
#                            (the monitoring rules' KV cache share; status does not read it), requests_total,
#                            errors_total, generation_tokens_total, verify_calls_total (() where the release has
#                            none), http_responses_total (its status_code 5xx samples count as errors)
#   moe_dense_tp_size_any_tp  check_server_args takes --moe-dense-tp-size equal to --tp-size (else 1 only)
#   lora_speculative_algorithms  speculative algorithms LoRA accepts besides NGRAM (check_lora_server_args)
#   encoder_disagg_archs     target architectures --encoder-only accepts (rules_pd.py)
#   lmcache_cache_checks     the KV cache hook checks --enable-lmcache's conflicts (rules_cache.py)
#   unified_pool             None (no --enable-unified-memory), or what handle_page_major_kv_layout and
#                            handle_unified_memory_pool check (rules_cache.py): page_major_needs_unified,
#                            page_major_backends (MHA, unified), page_major_linear_prefill (None: every linear and Mamba
#                            backend triton), pd (None: refused; "v18", "v21", "v22": the PD branch's checks),
#                            algorithms, eagle (the EAGLE / DFLASH rails, None before 0.5.22), tbo, hicache (HiCache
#                            refused with LMCache), linker, trtllm_decode_graph, page_major_mla_own_list (an MLA
#                            target has its own page-major list, 0.5.17 on: not modelled), dspark_backends (the
#                            target backends DSPARK's verify is audited on, 0.5.18 on; under --dcp-size > 1 without
#                            flashinfer from 0.5.22, as eagle's DFLASH rails), uniform_kv_rows (the page-major hook
#                            refuses an MHA target whose K and V rows differ in width, 0.5.19-0.5.22)
#   nvfp4_prefill_dequant    handle_nvfp4_prefill_kv_dequant_dtype runs (rules_cache.py)
#   kv4_unified_sm100_checks the KV4 hook refuses --enable-unified-memory and has the SM100 native-NVFP4 checks
#   int8_mamba_lmcache_check handle_int8_mamba_checkpoint refuses --enable-lmcache
#   hicache_linker_radix_checks  handle_hicache checks the linker config type and the radix cache the linker needs
#   mamba_radix_legacy       None (the model hook, 0.5.14 on), or 0.5.11-0.5.13 server_args.py _handle_mamba_radix_cache
#                            (rules_mamba.py check_mamba_radix_cache_legacy): "fla_chunk" (the page size checked against
#                            FLA's chunk of 64) or "model_chunk" (the model's mamba_chunk_size, else 64; extra_buffer_lazy)
#   mamba_lazy_pd_refused    --mamba-radix-cache-strategy extra_buffer_lazy refused under PD disaggregation (rules_mamba.py)
#   mamba_lazy_spec_refused  extra_buffer_lazy refused with speculation (rules_mamba.py): "draft_tokens" (draft tokens
#                            given), "DFLASH" (that algorithm), None
#   mamba_stochastic_platform_checks  the Mamba hook checks --enable-mamba-cache-stochastic-rounding's platform (CUDA;
#                            SM100 for the triton Mamba backend) after its dtype (rules_mamba.py)
#   verified                 its differential tests against its own resolver pass (make oracle samples these)
#   dcp_hip_only             --dcp-size > 1 only on HIP, or on CUDA without speculation (0.5.15-0.5.16)
#   dcp_refuses_prefill_cp   --dcp-size > 1 refuses --enable-prefill-cp (DCP validation)
#   dcp_comm_backend_by_platform  an unset --dcp-comm-backend resolves by platform (CUDA: a2a/fi_a2a, else ag_rs);
#                            before, the field's default ag_rs
#   cp_divisor_attn_dp       the attention-CP divisibility check divides by the attention DP width (else --dp-size)
#   ep_dispatch_rank_invariant  --ep-dispatch-algorithm static / lp refused without an a2a backend
#   kv_sharding_spec_arch    None (--enable-kv-cache-sharding refuses speculation), or the one target architecture
#                            whose single-layer NextN EAGLE it takes
#   kv_sharding_tree_core_default  the radix tree core --enable-kv-cache-sharding reads when
#                            SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND is unset ("rust": refused without --disable-radix-cache)
#   kv4_mla_backends         the backends an FP4 KV cache takes on an MLA model (attention, or decode with fa4 prefill)
#   cuda_graph_backends      None (no check), or the backends each --cuda-graph-config phase takes
#   hisparse_models          the sparse families --enable-hisparse takes: "dsa", "v4" (DeepSeek V4), "m3" (MiniMax M3)
#   hisparse_spec_checks     --enable-hisparse refuses mixed chunk, a top-k > 1 draft and adaptive speculation
#   hisparse_dsa_checks      how --enable-hisparse checks a DSA target: its KV dtypes, the DSA prefill / decode backends per
#                            dtype ("*": the others), and whether the backends come first
#   unified_dcp_mla_backends  None (--enable-unified-memory refuses --dcp-size > 1), or the backends an MLA target takes
#   prefill_graph_max_context  finalize_cuda_graph_prefill_max_context checks the prefill graph's max context size
#   hicache_host_receive     None, or when --disaggregation-decode-host-receive-threshold turns the decode host receive
#                            on ("gt0": above 0; "lt1": below 1), whose layer_first host pool a Mooncake storage refuses
#   kv_sharding_dsa          a DSA target under --enable-kv-cache-sharding: "refused" (0.5.22, in the MLA branch) or
#                            "checked" (0.5.23: the dsa attention backend and its settings)
#   kv_sharding_refuses_hicache  --enable-kv-cache-sharding refuses any --enable-hierarchical-cache (else only with
#                            --hicache-storage-backend)
#   hicache_buffer_refuses_write_back  --hicache-host-memory-mode buffer_only refuses --hicache-write-policy write_back
#                            (else resolves it to write_through, not modelled)
#   eplb_balancedness_env_refused  SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC in the environment is refused
#   mm_vmm_refuses_rust_server  --mm-feature-transport=cuda_vmm refuses a truthy SGLANG_RUST_SERVER
#   sm100_default_attention  None (the SM100 default attention backend not modelled), or {"dflash_topk_one": DFLASH
#                            counts as top-k one, "asymmetric_fa4": fa4 for unequal K/V rows, "mha_archs": MLA
#                            configs the release's model_config does not know as MLA (MHA defaults)} (rules_platform.py)
#   deterministic_attention_backends  the attention backends --enable-deterministic-inference accepts
#   deterministic_mla_backends  the attention backends deterministic inference takes for the DeepSeek family
#   deterministic_mla_fa4_sm100  deterministic inference on fa4 for the DeepSeek family needs SM100/SM110
#   deterministic_before_attention    the deterministic-inference hook runs before the attention hook (fills a missing
#                            backend by GPU); else (0.5.11) after the KV cache hook, on the resolved backend
#   trtllm_mha_prefill_cp    None, or a trtllm_mha prefill off SM100 refuses context parallelism: "cp_size"
#                            (--attn-cp-size > 1) or "cp_size_or_flag" (also --enable-prefill-cp alone)
#   rejection_sampling_deterministic  None, "refused" (rejection sampling refuses --enable-deterministic-inference,
#                            after the threshold check) or "cuda" (refused off CUDA only, before it): EAGLE-family hook
#   dflash_trtllm_draft_sm100_fa4  a refused trtllm_mha DFLASH draft backend falls back to fa4 on SM100 (else flashinfer)
#   elastic_scale            None, or the elastic EP scale-up checks' generation (--max-ep-size above --tp-size):
#                            "v16", "v21", "v22" or "v23" (rules_parallel.py _check_elastic_scaling)
#   expert_pack              None, or --load-format expert_pack's checks: "v19", "v23" (--attn-dp-size too)
#   pd_decode_dcp            None, or a PD decode server's DCP checks (rules_pd.py check_pd_roles; pd_disaggregation_hook.py
#                            handle_pd_disaggregation, 0.5.17-0.5.21): {"backends": the transfer backends it takes,
#                            "chunk_cache": the radix cache and HiCache refused too (0.5.17-0.5.20)}; 0.5.22 on every
#                            backend choice is allowed (a shadowed check) -- old-b (session 15)
#   elastic_ep_rejoin        how --elastic-ep-rejoin is checked: "backend" (0.5.11-0.5.15: it requires
#                            --elastic-ep-backend, after the backend checks) or "join_mode" (0.5.16-0.5.20, deprecated:
#                            it stands for --elastic-ep-join-mode recover at the head of the elastic EP hook and refuses
#                            another mode; the flag is gone from 0.5.21)
#   cp_boundary_models, cp_dsv32_interleave, cp_mimo_zigzag  the context-parallel hook's model checks (rules_parallel.py _check_cp_model)
#   mimo_v2_fused_qkv_tp     how the model hook checks a fused-qkv MiMoV2ForCausalLM's attention TP (rules_model.py
#                            check_mimo_v2_fused_qkv): "equal" (0.5.11-0.5.16: exactly the checkpoint's TP) or "divisor"
#                            (0.5.17 on: a divisor of it) -- moe (session 16)
#   -- model (session 14) --
#   model_overrides          the per-architecture model-override families the release runs (rules_model.py
#                            check_model_overrides: moss_vl, gpt_oss, llama4, exaone, olmo2, lfm2, gemma4, minicpm,
#                            iquest_q1, ernie45_vl, deepseek)
#   -- engfix (session 15) --
#   dllm_archs, dllm_model_check  the diffusion LLM architectures dllm/config.py DllmConfig.from_server_args knows
#                            (any other refuses --dllm-algorithm: "Unknown diffusion LLM"), and when the dLLM hook
#                            reads it: "radix" (only without --disable-radix-cache) or "always" (0.5.15 on)
#   mps_runtime_check        --device mps validated before resolution (hardware_backend/mps/runtime.py
#                            validate_mps_runtime: Torch >= 2.13 and an available MPS device, which no Linux host has)
#   attn_dp_resolved         resolution turns --dp-size N --enable-dp-attention into --attn-dp-size N (refused below 1)
#                            and the hooks read attention DP as runtime_context.attn_dp_enabled_of (a width above 1, or
#                            an Elastic EP scale joiner); else the flag, which the data-parallel defaults drop at
#                            --dp-size 1 (rules_parallel.attn_dp_enabled)
#   dsa_prefill_cp_flags     how __post_init__'s checks read prefill CP (rules_parallel.prefill_cp_on): None (0.5.11-
#                            0.5.13.post1: --enable-prefill-context-parallel is its own field; the DSA block before
#                            0.5.22 does not model it there, rules_model._dsa_prefill_cp), "legacy_aliases"
#                            (0.5.14-0.5.19: the legacy flags turn --enable-prefill-cp on), "cp" (0.5.20 on); the
#                            prefill-only KV cache check reads it too (rules_cache.check_prefill_only_flags)
#   cp_legacy_flags_exclusive the context-parallel check refusing both legacy prefill CP flags (0.5.13-0.5.19)
#   deepseek_family          how the "deepseek" family judges a DSA target: "overrides" (0.5.22 on: the family's override
#                            refusals, then model_hook.py's DSA block), or only the DSA block of the model-specific
#                            adjustments: "dsa_block_v11" / "dsa_block_v12" (0.5.11 / 0.5.12: the legacy prefill CP
#                            asserts before the GPU is read, then the KV cache dtype and the legacy flag on decode),
#                            "dsa_block_v13" (0.5.13: its TBO check too), "dsa_block_v14" (0.5.14), "dsa_block_v15"
#                            (0.5.15-0.5.15.post1), "dsa_block_v16" (0.5.16) and "dsa_block_v17" (0.5.17-0.5.18): TBO
#                            with index_topk_freq / pattern, the prefill CP asserts, then the passes after the GPU's
#                            compute capability (the KV cache dtype; 0.5.17 on the tilelang FP8 KV check too; 0.5.14
#                            without HiSparse or sinks only), prefill CP on decode;
#                            "dsa_block_v19" (0.5.19: and the family override's DSA prefill CP asserts, the KV cache
#                            dtype / backend passes) or "dsa_block_v20" (0.5.20-0.5.21: indexer_types too, HYV4's
#                            refusals, the learnable-sink and triton checks); None: no check
#                            The page size the DSA branch sets on CUDA (rules_model.dsa_page_size) is 64 through
#                            0.5.21, 64 x the config's index_kpool with "overrides" (0.5.22 on)
#   dsa_page_block_archs     0.5.11-0.5.12 (no "deepseek" family yet): the architectures whose DSA block (with index_topk)
#                            runs in _handle_model_specific_adjustments: it sets page 64 on CUDA, and its legacy prefill
#                            CP asserts (dsa_block_v11 / v12) hold for them; None from 0.5.13 (the family does)
#   gpt_oss_attention, gemma4_attention  the attention backends GptOss / Gemma4 take (None: not checked)
#   language_model_only_archs  the architectures --language-model-only serves (None: no flag)
#   encoder_replay_needs_v41 --enable-encoder-swa-bounded-replay refused off DeepSeek-V4.1 (the capability hook)
#   cutedsl_a2a_token_budget -- new19 (session 17) --: FlashInfer A2A with the CuteDSL runner needs its dispatch
#                            budget to cover --max-prefill-tokens (rules_moe.check_a2a_token_budgets): None, or how
#                            SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK is read: "int_env_var" (0.5.13-0.5.16
#                            get_int_env_var: unset, blank or not an integer is 1024, 0 a zero budget) or "envs"
#                            (0.5.17-0.5.21 envs...get() or 1024: 0 is 1024 too) -- moe18 (session 18) --
#   sidecar_rust_server_refused  -- new19 (session 17) --: --sidecar refused under SGLANG_RUST_SERVER (rules_serving)
#   joint_head_checkpoint    -- new19 (session 17) --: the capability hook serves a Clef checkpoint (a joint schema
#                            head, joint_head_config.json) at TP 1 and PP 1 only (0.5.22 on; rules_model.py)
#   -- quant (session 15) --: model_overrides gains kimi_k3, nemotron_h (0.5.19 on), qwen3_moe, qwen4_exp (0.5.20 on),
#                            minimax_m3 (0.5.23: its NVFP4 checks)
#   kimi_dcp_decode_backends the decode attention backends Kimi-K3 DCP takes (kimi_k3.py; None: no family)
#   nemotron_h_omni          nemotron_h.py registers NemotronH_Omni_Reasoning_V3 too
#   nemotron_expert_remap    nemotron_h.py _validate_expert_remap (EPLB / redundant experts / expert location)
#   dsv4_hook                None, or the DeepSeek-V4 model hook's generation modelled (rules_dsv4.py): "v12",
#                            "v12.post1", "v13", "v14" .. "v20" (0.5.12-0.5.20: see rules_dsv4._OLD_GENS), "v21", "v22", "v23"
#   nemotron_h_branch        the model-specific adjustments' Nemotron-H branch (0.5.11-0.5.18; rules_model.py
#                            check_nemotron_h_branch): None, or the architectures it takes (a ModelOpt checkpoint's
#                            relu2 MLP, no triton attention backend)
#                            -- mamba (session 16) --
#   nemotron_h_branch_w4a16  that branch refuses W4A16_NVFP4 experts with an a2a backend or a runner other than auto /
#                            marlin after the relu2 check (0.5.18's overrides.py) -- gpu16 (session 17) --
#   mimo_v2_hicache_env      the MiMo V2 branch refuses --enable-hierarchical-cache without SGLANG_ENABLE_UNIFIED_RADIX_TREE
#                            (0.5.14-0.5.18; rules_model.check_mimo_v2_hicache) -- gpu16 (session 17) --
#   session_radix_needs_priority  --enable-session-radix-cache needs --radix-eviction-policy priority (0.5.15-0.5.16;
#                            rules_cache.check_cache_compatibility) -- gpu16 (session 17) --
#   tbo_shared_fusion_refused  check_server_args refuses --enable-two-batch-overlap with fused shared experts
#                            (--enforce-shared-experts-fusion, or DeepEP Waterfill's), right after the TBO a2a check
#                            (0.5.12-0.5.13; rules_validation.check_misc) -- moe18 (session 18) --
#   cutlass_moe_env          SGLANG_CUTLASS_MOE asserts an fp8 / mxfp8 quantization and sets the cutlass MoE runner
#                            (0.5.11-0.5.17; rules_moe.check_moe_kernel) -- gpu16 (session 17) --
#   dual_chunk_attention     a target with dual_chunk_attention_config takes the dual_chunk_flash_attn backend only
#                            (0.5.11-0.5.19; rules_attention.check_dual_chunk) -- gpu16 (session 17) --
#   fuseep_mode_env_at_parse prepare_server_args refuses a set SGLANG_NPU_FUSED_MOE_MODE other than 1 or 2 unless the
#                            argv gives --fuseep-mode (0.5.16-0.5.17; rules_legacy.check_fuseep_mode_env)
#   -- overrides (session 15) --
#   mla_backend_checks       None (not modelled), or the attention hook's MLA backend checks (rules_attention.py
#                            check_mla_backends): trtllm_kv / tokenspeed_kv (the KV cache dtypes TRTLLM MLA / tokenspeed
#                            MLA take on Blackwell; None: no such check) and cutedsl_kv (CuteDSL MLA's, decode-only, SM10x)
#   tokenspeed_mla_alias     handle_deprecated_args renames tokenspeed_mla to cutedsl_mla (a prefill one to trtllm_mla)
#                            and sets the FP8 KV cache it implied (rules_attention.py resolve_tokenspeed_alias)
#   lm_head_dp_checks        the data-parallel hook's LM-head checks (rules_parallel.py check_lm_head_dp): "dp_lm_head"
#                            (--enable-dp-lm-head needs attention DP), "tp_all_to_all" (0.5.18 on: and the checks of
#                            --enable-tp-lm-head-all-to-all); attention DP read as trait attn_dp_resolved says
# -- kv (session 14) --: the CUDA graph backends of a --cuda-graph-config phase (cuda_graph_config.py)
# -- quant (session 15) --: the families of rules_model.py check_model_overrides, by release (the ones the
# quantization / architecture overrides add: check_quant_families, each where its model_overrides/<family>.py is the
# one modelled)
# "deepseek" from 0.5.13: the family's DSA block before 0.5.22's overrides (trait deepseek_family)
_MODEL_OVERRIDES_0_5_13 = ("moss_vl", "gpt_oss", "llama4", "exaone", "olmo2", "lfm2", "gemma4", "deepseek")
# -- standin (session 16) --: arg_groups/overrides.py _kimi_k3_overrides from 0.5.17 (its SM100 trtllm_mla fill; its DCP
# branch, trait kimi_dcp_decode_backends, from 0.5.17 too: gpu16, session 17)
_MODEL_OVERRIDES_0_5_17 = _MODEL_OVERRIDES_0_5_13 + ("kimi_k3",)
_MODEL_OVERRIDES_0_5_19 = _MODEL_OVERRIDES_0_5_13 + ("minicpm", "kimi_k3", "nemotron_h")
_MODEL_OVERRIDES_0_5_20 = _MODEL_OVERRIDES_0_5_19 + ("qwen3_moe", "qwen4_exp")  # qwen3_moe.py's first refusal, qwen4_exp.py
_MODEL_OVERRIDES_0_5_21 = _MODEL_OVERRIDES_0_5_20 + ("iquest_q1",)
_MODEL_OVERRIDES_0_5_22 = _MODEL_OVERRIDES_0_5_21 + ("ernie45_vl",)
_MODEL_OVERRIDES_0_5_23 = _MODEL_OVERRIDES_0_5_22 + ("minimax_m3",)  # minimax_m3.py's first refusals (M3.1 NVFP4)
_GRAPH_BACKENDS_V14 = ("full", "breakable", "tc_piecewise", "disabled")
_GRAPH_BACKENDS_V22 = ("full", "breakable", "disabled")
ORDER = (
    "0.5.11",
    "0.5.12",
    "0.5.12.post1",
    "0.5.13",
    "0.5.13.post1",
    "0.5.14",
    "0.5.15",
    "0.5.15.post1",
    "0.5.16",
    "0.5.17",
    "0.5.18",
    "0.5.19",
    "0.5.20",
    "0.5.21",
    "0.5.22",
    "0.5.23",
)

# handle_unified_memory_pool / handle_page_major_kv_layout per release (0.5.15-0.5.18 srt/server_args.py, then
# srt/arg_groups/kv_cache_hook.py), read in each kit
_UNIFIED_0_5_15 = {"page_major_needs_unified": False, "page_major_backends": ("triton",),
                   "page_major_linear_prefill": None, "pd": None, "algorithms": (None,), "eagle": None, "tbo": False,
                   "hicache": True, "linker": False, "trtllm_decode_graph": False, "page_major_mla_own_list": False,
                   # -- gpu16 (session 17) --: refuses a tc_piecewise prefill CUDA graph the user set (rules_cache.py
                   # check_unified_memory_pool; the default's cascade is not modelled); 0.5.19: "flag", any prefill
                   # graph left on when --cuda-graph-backend-prefill was given (-- cache (session 18) --); gone in
                   # 0.5.20
                   "piecewise_prefill": True,
                   "dspark_backends": None, "uniform_kv_rows": False}
# from 0.5.17 an MLA target on the unified pool has its own page-major backend list (not modelled); 0.5.15-0.5.16 hold
# every target to triton
_UNIFIED_0_5_17 = dict(_UNIFIED_0_5_15, page_major_linear_prefill=("triton", "flashkda"), page_major_mla_own_list=True)
_UNIFIED_0_5_18 = dict(_UNIFIED_0_5_17, pd="v18", algorithms=(None, "DSPARK"),
                       dspark_backends=("triton", "trtllm_mla", "cutedsl_mla", "tokenspeed_mla"))
_UNIFIED_0_5_19 = dict(_UNIFIED_0_5_18, page_major_needs_unified=True, piecewise_prefill="flag", uniform_kv_rows=True,
                       page_major_backends=("triton", "fa3", "fa4", "flashinfer", "trtllm_mha"))
_UNIFIED_0_5_20 = dict(_UNIFIED_0_5_19, tbo=True, piecewise_prefill=False)
_UNIFIED_0_5_21 = dict(_UNIFIED_0_5_20, pd="v21", hicache=False)
_UNIFIED_0_5_22 = dict(_UNIFIED_0_5_21, pd="v22", algorithms=(None, "DSPARK", "EAGLE", "EAGLE3", "DFLASH"),
                       eagle=("triton", "flashinfer", "fa3"), linker=True, trtllm_decode_graph=True,
                       dspark_backends=("triton", "trtllm_mla", "cutedsl_mla", "tokenspeed_mla", "flashmla", "flashinfer",
                                        "fa3"))
_UNIFIED_0_5_23 = dict(_UNIFIED_0_5_22, page_major_linear_prefill=("triton", "flashkda", "flashinfer"),
                       eagle=("triton", "flashinfer", "fa3", "trtllm_mha"), trtllm_decode_graph=False, uniform_kv_rows=False,
                       dspark_backends=("triton", "trtllm_mla", "cutedsl_mla", "flashmla", "flashinfer", "fa3", "fa4"))

_CHANGES = {
    "0.5.22": {  # parser captured; --enable-watermark and --speculative-use-block-verification appear
        "hicache_buffer_refuses_write_back": False,  # -- cache (session 16) --: resolved to write_through instead
        "cp_tp_sharing": "v22",  # -- new19 (session 17) --: cp_tp_group_sharing_hook.py (GLM-5.3-Flash only)
        # -- new19 (session 17) --: model_hook.py handle_model_capability_adjustments serves Clef at TP 1 / PP 1
        "joint_head_checkpoint": True,
        "cutedsl_a2a_token_budget": None,  # -- new19 (session 17) --: validate_flashinfer_a2a_token_budget instead
        "sidecar_rust_server_refused": True,  # -- new19 (session 17) --: --sidecar refuses SGLANG_RUST_SERVER (0.5.22)
        # -- engfix (session 15) --: ServerArgs.resolve_once validates the MPS runtime before the pipeline
        "mps_runtime_check": True,
        "pd_decode_dcp": None,  # -- old-b (session 15) --: mori and ascend join: every choice (not checked)
        "dsv4_hook": "v22",  # -- dsv4 (session 15) --: arg_groups/deepseek_v4_hook.py, DeepSeek-V4.1 features of 0.5.22
        # -- model (session 14) --
        "language_model_only_archs": ("DeepseekV4ForCausalLM", "MuseGlimmerForConditionalGeneration",
                                      "Cosmos3ForConditionalGeneration", "Cosmos3EdgeForConditionalGeneration"),
        # -- model (session 14) --
        "gemma4_attention": ("trtllm_mha", "triton", "fa4", "ascend", "intel_xpu", "intel_amx", "aiter"),
        # -- model (session 14) --
        "model_overrides": _MODEL_OVERRIDES_0_5_22,
        "deepseek_family": "overrides",
        "attn_dp_resolved": True,  # -- engfix (session 15) --: runtime_context.attn_dp_enabled_of (0.5.22 on)
        # arg_groups/moe_hook.py: FlashInfer A2A / MegaMOE and pplx read the attention DP size; --deepep-v2-mode direct
        # refused across nodes; more DeepEP v2 architectures registered; modelopt_fp4 on SM110 to flashinfer_cutlass
        "a2a_flashinfer_topology": "attn_dp",
        "a2a_megamoe_topology": "attn_dp",
        "a2a_deepep_v2_direct_nodes": True,
        "a2a_deepep_v2_archs": ("DeepseekV3ForCausalLM", "DeepseekV4ForCausalLM", "Qwen3MoeForCausalLM",
                                "Glm5NextForConditionalGeneration", "GlmMoeDsaForCausalLM", "MiMoV2ForCausalLM",
                                "MiMoV2FlashForCausalLM"),
        "moe_fp4_cutlass_sms": (110, 120, 121),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_22,
        "ngram_rules": {"devices": ("cuda", "cpu", "xpu"), "steps": True},
        "block_verification_enables_rejection": True,  # handle_speculative_decoding declares it
        "parser": "0.5.22",
        "parser_derived": None,
        "verified": True,  # its differential run passes (204 cases, 2026-12-01)
        # srt/arg_groups/speculative_hook.py and validation_hook.py: the same algorithm lists as 0.5.23's
        "block_verification_algorithms": ("EAGLE", "EAGLE3", "DFLASH", "DSPARK"),
        "watermark_algorithms": ("NGRAM", "EAGLE", "EAGLE3"),
        # SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION accepts DSPARK too (speculative_hook.py)
        "dp_spec_prefill_env_check": ("EAGLE", "EAGLE3", "DSPARK"),
        # arg_groups/parallel_hook.py: --dcp-size > 1 refuses --enable-prefill-cp; --attn-dp-size appears and the
        # attention-CP check divides by it (observed in its resolver)
        "dcp_refuses_prefill_cp": True,
        "cp_divisor_attn_dp": True,
        "elastic_scale": "v22",  # -- parallel (session 14) --: attention DP by --attn-dp-size
        # -- specserve (session 14) --
        "preferred_sampling_watermark_check": True,  # serving_hook.py handle_other_validations
        "dspark_rules": {"devices": ("cuda", "npu"), "attn_dp": "resolved", "pp": "prefill_ok", "subfolder": False,
                         "dp_a2a": ("none", "megamoe", "mori"), "npu_exempt": True, "ragged": "a2a_or_env"},
        # -- kv (session 14) --: cuda_graph_config.py drops tc_piecewise from the phases' backends; the decode host
        # receive is on below a threshold of 1 (hicache_hook.py)
        "cuda_graph_backends": {"decode": _GRAPH_BACKENDS_V22, "prefill": _GRAPH_BACKENDS_V22},
        "hicache_host_receive": "lt1",
        "hisparse_spec_checks": True,  # hisparse_hook.py: mixed chunk, top-k 1, no adaptive speculation
        # -- moe (session 14) --: layernorm_sp_hook.py validate_layernorm_sp refuses pipeline parallelism;
        # moe_hook.py validate_flashinfer_a2a_token_budget (FlashInfer A2A needs chunked prefill)
        "layernorm_sp_pp": True,
        "a2a_flashinfer_chunked_prefill": True,
        "a2a_deepep_v2_prefill_scatter": True,  # the DeepEP v2 prefill budget divides by tp_size // attn_dp_size
    },
    "0.5.21": {  # parser captured; --speculative-draft-sink-size appears
        "eplb_balancedness_env_refused": False,  # -- cache (session 16) --: the env check gone from parallel_hook.py
        # -- engfix (session 15) --: dllm/config.py DLLM_PARAMS gains DiffusionGemma (Gemma4Renoise)
        "dllm_archs": ("LLaDA2MoeModelLM", "SDARForCausalLM", "SDARMoeForCausalLM", "DiffusionGemmaForBlockDiffusion"),
        "dsv4_hook": "v21",  # -- dsv4 (session 15) --: arg_groups/deepseek_v4_hook.py, DeepSeek-V4.1 features of 0.5.21
        # -- misc (session 15) --: speculative_hook.py _handle_iquest_q1_mtp_draft (the IQuest Q1 MTP draft's checks)
        "iquest_mtp_draft": True,
        "mamba_state_archs": _MAMBA_STATE_ARCHS_0_5_21,  # -- misc (session 15) --: model_hook.py handle_mamba_radix_cache
        # -- overrides (session 15) --: TRTLLM MLA no longer takes fp4_e2m1 KV (_mla_kv_cache_dtype_checks)
        "mla_backend_checks": {"trtllm_kv": ("fp8_e4m3", "bf16", "auto"), "tokenspeed_kv": ("fp8_e4m3",),
                               "cutedsl_kv": ("fp8_e4m3", "bf16", "bfloat16", "auto")},
        "elastic_ep_rejoin": None,  # -- old-a (session 15) --: --elastic-ep-rejoin is gone from the parser
        "pd_decode_dcp": {"backends": ("mooncake", "nixl", "fake"), "chunk_cache": False},  # -- old-b (session 15) --
        "pd_role_switch_checks": True,  # the PD hook: --enable-pd-role-switch (rules_pd.py)
        "pp_spec_dspark": "prefill",  # validation_hook.py check_pipeline_parallel_compat's DSPARK branch (session 14)
        "pp_spec_env_attn_dp": True,  # the same function refuses SGLANG_ENABLE_PP_SPEC with --enable-dp-attention
        # -- model (session 14) --
        "model_overrides": _MODEL_OVERRIDES_0_5_21,
        # arg_groups/mega_moe_hook.py check_mega_moe_compat (first in the pipeline): --moe-a2a-backend megamoe needs
        # SM90/SM100 and no TBO/SBO; moe_hook.py: DeepEP v2 architectures from the model registry, the deterministic
        # inference check gone; FlashInfer MegaMOE validates GlmMoeDsaForCausalLM too
        "a2a_megamoe_compat": True,
        "a2a_deepep_v2_archs": ("DeepseekV3ForCausalLM", "DeepseekV4ForCausalLM", "Qwen3MoeForCausalLM",
                                "Glm5NextForConditionalGeneration"),
        "megamoe_token_budget": True,  # -- moe (session 14) --: mega_moe_hook.py's prefill token budget
        "a2a_deepep_v2_deterministic": False,
        "a2a_flashinfer_megamoe": ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM",
                                   "DeepseekV4ForCausalLM", "Glm4MoeForCausalLM", "GlmMoeDsaForCausalLM",
                                   "NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "Qwen2MoeForCausalLM",
                                   "Qwen3MoeForCausalLM"),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_21, "nvfp4_prefill_dequant": True, "kv4_unified_sm100_checks": True, "int8_mamba_lmcache_check": True,
        "ngram_rules": {"devices": ("cuda", "cpu", "xpu"), "steps": True},  # _handle_ngram: XPU too
        "parser": "0.5.21",
        # metrics_collector.py: the PD decode host-receive queue gauge appears
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_bootstrap_queue_reqs",
                                                          "sglang:num_decode_host_receive_queue_reqs"),
                        verify_calls_total=("sglang:spec_verify_calls_total",)),
        "parser_derived": None,
        "verified": True,  # its differential run passes (2026-12-01)
        # srt/arg_groups/speculative_hook.py handle_speculative_decoding: the env check appears, EAGLE / EAGLE3 only
        # (0.5.22 adds DSPARK); validation_hook.py check_pipeline_parallel_compat: pp > 1 takes single-layer EAGLE
        # on a PD prefill node (or SGLANG_ENABLE_PP_SPEC=1), as 0.5.22 (observed in its resolver)
        "dp_spec_prefill_env_check": ("EAGLE", "EAGLE3"),
        "pp_speculation_refused": False,
        "pp_spec_checks": True,
        # srt/arg_groups/kv_cache_hook.py handle_cache_compatibility: the --enable-lmcache checks appear
        "lmcache_cache_checks": True,
        # srt/managers/: the backward-compat meta_info aliases (spec_accepted_drafts ...) are gone
        "meta_info": {"correct": ("spec_num_correct_drafts",), "proposed": ("spec_num_proposed_drafts",)},
        "elastic_scale": "v21",  # -- parallel (session 14) --: decode graph full or disabled, recapture checks
        "cp_boundary_models": True,  # -- parallel (session 14) --: _boundary_parallelism_overrides (Nemotron-H, LongCat)
        # -- specserve (session 14) --
        "dspark_rules": {"devices": ("cuda", "npu"), "attn_dp": "flag_dp", "pp": "prefill_ok", "subfolder": False,
                         "dp_a2a": ("none", "megamoe", "mori"), "npu_exempt": True, "ragged": "a2a"},
        # -- kv (session 14) --: hicache_hook.py handle_hicache: the decode host receive on above a threshold of 0;
        # cuda_graph_hook.py finalize_cuda_graph_prefill_max_context (--cuda-graph-prefill-max-context appears)
        "hicache_host_receive": "gt0",
        "prefill_graph_max_context": True,
        "hisparse_models": ("dsa", "v4", "m3"),  # hisparse_hook.py: MiniMax M3 joins
    },
    "0.5.20": {  # the old window flag and --mamba-scheduler-strategy gone; DFLASH dp attention allowed
        "dual_chunk_attention": False,  # -- gpu16 (session 17) --: overrides.py's _attention_backend_dual_chunk is gone
        "mm_vmm_refuses_rust_server": False,  # -- cache (session 16) --: the Rust server check gone
        "dsv4_hook": "v20",  # -- dsv4old (session 16) --: arg_groups/deepseek_v4_hook.py: --dsv4-attn-backend trtllm's checks
        "cp_legacy_flags_exclusive": False,  # -- dsa (session 16) --: the legacy prefill CP flags are gone
        "dsa_prefill_cp_flags": "cp",
        # -- quant (session 15) --
        "model_overrides": _MODEL_OVERRIDES_0_5_20,
        "kimi_dcp_decode_backends": ("cutedsl_mla", "tokenspeed_mla", "aiter"),
        "nemotron_h_omni": True,
        "intel_xpu_mla_prefill_refused": False,  # -- old-a (session 15) --: attention_hook.py drops the check
        "deepseek_family": "dsa_block_v20",  # -- old-b (session 15) --: model_hook.py reads indexer_types for TBO
        "sampling_mask_env_refused": True,  # validation_hook.py validate_sampling_mask_max_tokens (session 14)
        "retired_flag_errors": (),  # --enable-expert-distribution-metrics is gone from the parser
        # -- model (session 14) --
        "language_model_only_archs": ("MuseGlimmerForConditionalGeneration", "Cosmos3ForConditionalGeneration",
                                      "Cosmos3EdgeForConditionalGeneration"),
        # -- model (session 14) --
        "gemma4_attention": ("trtllm_mha", "triton", "ascend", "intel_xpu", "intel_amx", "aiter"),
        # arg_groups/moe_hook.py handle_a2a_moe: --flashinfer-a2a-dispatch-type and the flashinfer_megamoe backend
        # (validate_flashinfer_megamoe_model's architectures) appear; mxfp8 defaults to flashinfer_megamoe under it
        "a2a_flashinfer_dispatch_type": True,
        "a2a_megamoe_envs": True,  # -- moe (session 14) --: validate_flashinfer_megamoe_envs
        "a2a_flashinfer_megamoe": ("DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM",
                                   "DeepseekV4ForCausalLM", "Glm4MoeForCausalLM", "NemotronHForCausalLM",
                                   "NemotronHPuzzleForCausalLM", "Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM"),
        "a2a_megamoe_topology": "dp",
        "moe_mxfp8_runners": ("cutlass", "deep_gemm", "flashinfer_megamoe", "flashinfer_trtllm",
                              "flashinfer_trtllm_routed"),
        "a2a_ep_backends": ("deepep", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "mori", "megamoe", "pplx",
                            "deepep_v2", "flashinfer_megamoe"),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_20,
        "dflash_devices": ("cuda", "npu", "xpu"),  # speculative_hook.py _handle_dflash
        "trtllm_mha_prefill_cp": "cp_size",  # attention_hook.py: --attn-cp-size > 1 only
        # --encoder-only: the architectures added
        "encoder_disagg_archs": _ENCODER_ARCHS_0_5_20,
        "parser": "0.5.20",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        "adaptive_candidate_steps": (0, 1, 3, 5, 7),  # srt/speculative/adaptive_spec_params.py DEFAULT_ADAPTIVE_CONFIG
        # arg_groups/overrides.py _dcp_comm_backend_default: an unset --dcp-comm-backend resolves by platform
        "dcp_comm_backend_by_platform": True,
        # srt/arg_groups/speculative_hook.py _handle_dflash: "validated on NPU only" - refused on every other device
        # through 0.5.22 (found by a generated case: --tp-size 2 --dp-size 2 --enable-dp-attention, which 0.5.20
        # refused and the engine, reading the trait as False here, accepted)
        "dp_attention_rejected": "non_npu",
        # srt/arg_groups/choices.py DRAFT_ATTENTION_BACKEND_CHOICES (read by _resolve_dflash_draft_attention_backend):
        # intel_xpu joins; the list 0.5.23 has (found by a generated case: intel_xpu kept, not replaced by flashinfer)
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend", "trtllm_mha", "intel_xpu"),
        "cp_mimo_zigzag": True, "cp_dsv32_interleave": True,  # -- parallel (session 14) --: parallel_hook.py
        # -- kv (session 14) --: handle_kv4_compatibility's MLA lists drop cutlass_mla
        "kv4_mla_backends": ("flashinfer", "trtllm_mla"),
        # -- kv (session 14) --: kv_cache_hook.py _validate_unified_memory_dcp (an MLA target's DCP backends)
        "unified_dcp_mla_backends": ("flashinfer", "trtllm_mla", "cutedsl_mla", "tokenspeed_mla"),
    },
    "0.5.19": {  # ServerArgs.resolve_once(); mixed chunk kept with DFLASH; trtllm_mha prefill on SM90/100/120
        "dsv4_hook": "v19",  # -- dsv4old (session 16) --: arg_groups/deepseek_v4_hook.py: mori joins CP's MoE A2A list
        # -- dsa (session 16) --: model_overrides/deepseek_v2.py's DSA prefill CP asserts and the DSA passes of
        # overrides.py (_dsa_kv_cache_dtype_default, _dsa_split_backend_resolution: _check_tilelang_dsa_fp8_kv)
        "deepseek_family": "dsa_block_v19",
        "pd_decode_dcp": {"backends": ("mooncake", "nixl", "fake"), "chunk_cache": True},  # -- old-b (session 15) --
        # -- model (session 14) --
        "model_overrides": _MODEL_OVERRIDES_0_5_19,
        # -- quant (session 15) --: kimi_k3.py's DCP decode backends (tokenspeed_mla through 0.5.22, aiter 0.5.20 on)
        "nemotron_h_omni": False,  # nemotron_h.py registers NemotronH_Omni_Reasoning_V3 (0.5.20 on)
        "nemotron_h_branch": None,  # -- mamba (session 16) --: model_overrides/nemotron_h.py; no triton assert
        "nemotron_h_branch_w4a16": False,  # -- gpu16 (session 17) --: the W4A16 checks are _nemotron_h's
        "mimo_v2_hicache_env": False,  # -- gpu16 (session 17) --: the MiMo V2 branch's HiCache check is gone
        # arg_groups/moe_hook.py handle_a2a_moe: the deepep_v2 backend (its validated architectures, deterministic
        # inference refused); FlashInfer A2A takes flashinfer_trtllm and deep_gemm too
        "a2a_deepep_v2_archs": ("DeepseekV3ForCausalLM", "DeepseekV4ForCausalLM", "Qwen3MoeForCausalLM"),
        "a2a_deepep_v2_deterministic": True,
        "a2a_cutedsl_w4a16": True,  # -- moe (session 14) --: CuTe DSL NVFP4 W4A16 needs BF16 FlashInfer A2A dispatch
        "a2a_ep_backends": ("deepep", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "mori", "megamoe", "pplx",
                            "deepep_v2"),
        "a2a_flashinfer_runners": ("flashinfer_cutlass", "flashinfer_cutedsl", "flashinfer_trtllm",
                                   "flashinfer_trtllm_routed", "deep_gemm"),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_19,
        # speculative_hook.py _handle_dflash: CUDA and NPU (0.5.20 adds XPU)
        "dflash_devices": ("cuda", "npu"),
        # arg_groups/model_override_base.py get_default_attn_backend (SM100: trtllm_mha for top-k one);
        # attention_hook.py: trtllm_mha prefill off SM100 refuses --attn-cp-size > 1 or --enable-prefill-cp
        "sm100_default_attention": {"dflash_topk_one": False, "asymmetric_fa4": True, "mha_archs": ()},
        "trtllm_mha_prefill_cp": "cp_size_or_flag",
        "deterministic_attention_backends": ("ascend", "fa3", "fa4", "flashinfer", "intel_xpu", "triton"),
        # --encoder-only: the architectures added
        "encoder_disagg_archs": _ENCODER_ARCHS_0_5_19,
        "parser": "0.5.19",
        "parser_derived": None,
        # srt/arg_groups/lora_hook.py check_lora_speculative_compatibility: LoRA takes these (through 0.5.18 the
        # check in server_args.py check_lora_server_args refused every algorithm but NGRAM)
        "lora_speculative_algorithms": ("EAGLE", "EAGLE3", "DFLASH", "DSPARK"),
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        "dflash_mixed_chunk_off": False,
        "trtllm_mha_sms": {"prefill": (90, 100, 120), "decode": (90, 100, 120)},
        "expert_pack": "v19",  # -- parallel (session 14) --: srt/arg_groups/expert_pack_hook.py appears
    },
    "0.5.18": {  # parser captured; --min-free-slots-delay refused with pp > 1
        # -- mamba (session 18) --: _validate_mamba_extra_buffer takes extra_buffer_lazy with any speculation
        "mamba_lazy_spec_refused": None,
        # -- gpu16 (session 17) --: arg_groups/overrides.py _nemotron_h_overrides refuses W4A16_NVFP4 experts with an
        # a2a backend or a runner other than auto / marlin (before the arch branch's triton assert)
        "nemotron_h_branch_w4a16": True,
        "fuseep_mode_env_at_parse": False,  # _apply_fuseep_mode_env_compat is gone (--fuseep-mode alone)
        "cutlass_moe_env": False,  # -- gpu16 (session 17) --: _cutlass_moe_env_override is gone
        "eplb_balancedness_env_refused": True,  # -- cache (session 16) --
        "mm_vmm_refuses_rust_server": True,  # -- cache (session 16) --
        "dsv4_hook": "v18",  # -- dsv4old (session 16) --: arg_groups/deepseek_v4_hook.py: MegaMoE from the A2A flag only, budget 8192
        "interns2_mobius_no_pp_ep": True,  # -- misc (session 15) --: the model hook's Intern-S2-Mobius branch
        # -- overrides (session 15) --: --enable-tp-lm-head-all-to-all and its _dp_lm_head_validation checks
        "lm_head_dp_checks": "tp_all_to_all",
        # argparse_actions.py DeprecatedAction with an error_message: the retired flag stops the parse (session 14)
        "retired_flag_errors": ("enable_expert_distribution_metrics",),
        # -- model (session 14) --
        "language_model_only_archs": ("MuseGlimmerForConditionalGeneration",),
        # -- model (session 14) --
        "gemma4_attention": ("trtllm_mha", "triton", "ascend", "intel_xpu", "intel_amx"),
        # server_args.py _handle_moe_kernel_config: nvfp4_online takes flashinfer_cutedsl (not with DeepEP)
        "moe_nvfp4_online_runners": ("flashinfer_trtllm", "flashinfer_trtllm_routed", "flashinfer_cutedsl"),
        "moe_cutedsl_quant": ("modelopt_fp4", "modelopt_mixed", "nvfp4_online"),
        "moe_cutedsl_deepep_per_token": True,
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_18,
        "pp_min_free_slots_check": True,  # check_pipeline_parallel_compat asserts --min-free-slots-delay unset
        "parser": "0.5.18",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        # -- specserve (session 14) --
        "fp4_indexer_sms": (100, 120),  # "requires SM100 or SM120 GPUs" (0.5.20 on: or gfx95, a ROCm GPU)
        "dspark_rules": {"devices": ("cuda", "npu"), "attn_dp": "flag_dp", "pp": "any", "subfolder": False,
                         "dp_a2a": ("none", "megamoe"), "npu_exempt": True, "ragged": "a2a"},
    },
    "0.5.17": {  # a trtllm_mha draft backend moves the target page size to 64 too
        # -- gpu16 (session 17) --: arg_groups/overrides.py _kimi_k3_overrides' DCP branch, as 0.5.19's kimi_k3.py (0.5.16
        # refuses DCP off HIP first: dcp_hip_only)
        "kimi_dcp_decode_backends": ("cutedsl_mla", "tokenspeed_mla"),
        "session_radix_needs_priority": False,  # -- gpu16 (session 17) --: the session radix cache check is gone
        # -- moe18 (session 18) --: server_args.py _validate_cutedsl_a2a_token_budget reads the env through envs (0 is
        # the 1024 default)
        "cutedsl_a2a_token_budget": "envs",
        # -- moe (session 16) --: the MiMo V2 fused qkv_proj check takes a divisor of the checkpoint's TP
        "mimo_v2_fused_qkv_tp": "divisor",
        # -- w18dsa (session 18) --: overrides.py _dsa_split_backend_resolution gains _check_tilelang_dsa_fp8_kv and the
        # GLM SM12x FP8 arm (the DSA passes as 0.5.19's, still run at the block's slot in server_args.py)
        "deepseek_family": "dsa_block_v17",
        "dsv4_hook": "v17",  # -- dsv4old (session 16) --: arg_groups/deepseek_v4_hook.py: MegaMoE prefill budget, CP MoE A2A list
        # -- old-b (session 15) --: pd_disaggregation_hook.py: a decode server's DCP needs mooncake or nixl, chunk cache
        "pd_decode_dcp": {"backends": ("mooncake", "nixl"), "chunk_cache": True},
        # server_args.py _handle_a2a_moe: cutedsl with DeepEP takes low_latency only; the pplx backend appears
        "a2a_deepep_cutedsl_low_latency": True,
        "a2a_pplx": True,
        "a2a_ep_backends": ("deepep", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "mori", "megamoe", "pplx"),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_17,
        # --encoder-only: the architectures added
        "encoder_disagg_archs": _ENCODER_ARCHS_0_5_17,
        "parser": "0.5.17",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        "draft_trtllm_sets_page_size": True,  # srt/arg_groups/overrides.py (observed in its resolver)
        "mamba_lazy_pd_refused": True,  # -- standin (session 16) --: _handle_mamba_radix_cache's PD assert appears
        # -- mamba (session 18) --: _validate_mamba_extra_buffer refuses extra_buffer_lazy with DFLASH only (the draft
        # tokens assert is gone)
        "mamba_lazy_spec_refused": "DFLASH",
        "sm100_default_attention": {"dflash_topk_one": False, "asymmetric_fa4": True, "mha_archs": ()},  # -- standin --
        "model_overrides": _MODEL_OVERRIDES_0_5_17,  # -- standin (session 16) --
        "dcp_hip_only": False,
        # server_args.py _handle_eplb_and_dispatch: static / lp dispatch needs an a2a backend
        "ep_dispatch_rank_invariant": True,
        # -- specserve (session 14) --
        "mm_transport_encoder_cpu": True,  # _handle_multimodal_feature_transport: --encoder-only -> cpu
        # server_args.py _handle_deterministic_inference: the DeepSeek family takes RADIX_SUPPORTED_DETERMINISTIC_
        # ATTENTION_BACKEND, fa4 only on SM100/SM110 (rules_platform.py)
        "deterministic_mla_backends": ("ascend", "fa3", "fa4", "triton"),
        "deterministic_mla_fa4_sm100": True,
        "pd_rust_bootstrap": True,  # the PD hook: SGLANG_RUST_SERVER's bootstrap port (rules_pd.py)
    },
    "0.5.15.post1": {  # parser captured; traits as 0.5.15's
        "parser": "0.5.15.post1",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
    },
    "0.5.15": {  # DFLASH's draft attention backend resolved (with its fallback) at argument time
        # -- oldgpu (session 17) --: the DSA KV cache dtype default and the backends become arg_groups/overrides.py
        # passes run at the block's slot (_dsa_kv_cache_dtype_default, _dsa_split_backend_resolution)
        "deepseek_family": "dsa_block_v15",
        "session_radix_needs_priority": True,  # -- gpu16 (session 17) --: server_args.py _handle_cache_compatibility
        "dsv4_hook": "v15",  # -- dsv4old (session 16) --: arg_groups/deepseek_v4_hook.py: EAGLE only, interleave CP
        # -- engfix (session 15) --: overrides.py _dllm_page_size reads DllmConfig outside the radix gate
        "dllm_model_check": "always",
        # -- overrides (session 15) --: arg_groups/overrides.py _mla_kv_cache_dtype_checks (TRTLLM MLA takes FP4 KV,
        # tokenspeed MLA FP8 only) and _cutedsl_prefill_backend_fill, from the release that moved them there (a GPU
        # host is presented from 0.5.19 only: before, the oracle judges them on this host without a GPU)
        "mla_backend_checks": {"trtllm_kv": ("fp8_e4m3", "fp4_e2m1", "bf16", "auto"), "tokenspeed_kv": ("fp8_e4m3",),
                               "cutedsl_kv": ("fp8_e4m3", "bf16", "bfloat16", "auto")},
        # server_args.py _handle_a2a_moe: FlashInfer A2A takes flashinfer_trtllm_routed too
        "a2a_flashinfer_runners": ("flashinfer_cutlass", "flashinfer_cutedsl", "flashinfer_trtllm_routed"),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_15,
        "tbo_none_a2a": "attn_dp",  # server_args.py _check_two_batch_overlap: the non-EP DP TBO path
        "parser": "0.5.15",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        # srt/arg_groups/speculative_hook.py _resolve_dflash_draft_attention_backend (observed in its resolver)
        "draft_backend_at_resolution": True,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend"),
        "draft_archs": ("DFlashDraftModel", "DFlashLagunaForCausalLM"),  # srt/models/ registers the Laguna drafter
        # server_args.py _handle_dcp_validation (--dcp-size appears): DCP > 1 validated on HIP only, on CUDA
        # without speculation; 0.5.17 replaces it with the comm-backend checks
        "dcp_hip_only": True,
        # -- kv (session 14) --: a full prefill CUDA graph allowed (ALLOWED_BACKENDS_PER_PHASE)
        "cuda_graph_backends": {"decode": _GRAPH_BACKENDS_V14, "prefill": _GRAPH_BACKENDS_V14},
    },
    "0.5.14": {  # DFLASH no longer forces the overlap scheduler off (the V1 message is gone)
        "mimo_v2_hicache_env": True,  # -- gpu16 (session 17) --: server_args.py's MiMo V2 branch, HiCache needs the env
        "tbo_shared_fusion_refused": False,  # -- moe18 (session 18) --: check_server_args drops the check
        # -- oldnon (session 17) --: arg_groups/deepseek_v4_hook.py: --enable-prefill-cp / --cp-strategy, bfloat16 KV
        "dsv4_hook": "v14",
        # -- dsa (session 16) --: the DSA block's prefill CP asserts, the legacy CP flags as aliases of --enable-prefill-cp
        "dsa_prefill_cp_flags": "legacy_aliases",
        # -- oldgpu (session 17) --: the DSA block of _handle_model_specific_adjustments on to its end (page 64, the KV
        # dtype / backend passes after torch's compute capability, prefill CP on decode), as 0.5.16-0.5.18's
        "deepseek_family": "dsa_block_v14",
        "pd_radix_fake_check": True,  # the PD hook: decode radix cache with the fake backend
        "mamba_radix_archs": ("Qwen3NextForCausalLM",),  # the model hook's Mamba radix cache (rules_mamba.py)
        "mamba_radix_legacy": None,  # -- oldgpu (session 17) --: server_args.py's model hook rewrite
        "pd_radix_backends": None,
        # server_args.py _handle_moe_kernel_config: --quantization nvfp4_online (SM100 only) and its runners
        "moe_nvfp4_online_runners": ("flashinfer_trtllm", "flashinfer_trtllm_routed"),
        "moe_trtllm_quant": ("modelopt_fp4", "nvfp4_online", "fp8", "mxfp8", "modelopt_fp8", "modelopt_mixed",
                             "compressed-tensors", None),
        "moe_routed_quant": ("fp8", "mxfp8", "modelopt_fp4", "nvfp4_online", None),
        # arg_groups/speculative_hook.py: rejection sampling refuses --enable-deterministic-inference
        "rejection_sampling_deterministic": "refused",
        "ngram_rules": {"devices": "cuda", "steps": True},  # _handle_ngram sets num_steps
        "parser": "0.5.14",
        "parser_derived": None,
        "verified": True,
        "dflash_overlap_off": False,
        # the KV budget check names loaded weights (target + draft) and the minimum fraction
        "kv_budget_message": "\"Loaded weights leave no GPU memory for the KV cache\"",
        # DEFAULT_ADAPTIVE_CONFIG's steps, applied before the EAGLE hook (srt/arg_groups/speculative_hook.py)
        "adaptive_candidate_steps": (0, 1, 3, 7),
        "adaptive_steps_after_eagle": None,
        # -- kv (session 14) --: server_args.py _handle_cuda_graph_config (ALLOWED_BACKENDS_PER_PHASE): no full prefill
        "cuda_graph_backends": {"decode": _GRAPH_BACKENDS_V14, "prefill": _GRAPH_BACKENDS_V14[1:]},
        # hisparse_hook.py: a DSA target's KV dtype and DSA backends (validate_hisparse_kv_cache_dtype / _dsa_backend)
        "hisparse_dsa_checks": {"dtypes": ("bfloat16", "auto", "fp8_e4m3"), "backends_first": False,
                                "backends": {"bfloat16": ("flashmla_sparse",), "fp8_e4m3": ("flashmla_kv",
                                                                                            "flashinfer_sparse_mla"),
                                             "*": ("flashinfer_sparse_mla", "flashmla_kv", "flashmla_sparse")}},
    },
    "0.5.13.post1": {  # parser captured; traits as the release before it
        "parser": "0.5.13.post1",
        "parser_derived": None,
        "verified": True,
    },
    "0.5.13": {  # parser captured; traits as the release before it
        # -- moe18 (session 18) --: server_args.py _validate_cutedsl_a2a_token_budget appears, after the speculative
        # hook (the env through get_int_env_var)
        "cutedsl_a2a_token_budget": "int_env_var",
        # -- oldgpu (session 17) --: _handle_mamba_radix_cache reads the model's mamba_chunk_size (mamba_cache_chunk_size)
        # and takes extra_buffer_lazy (refused with draft tokens given)
        "mamba_radix_legacy": "model_chunk",
        # -- oldgpu (session 17) --: server_args.py _handle_attention_backend_compatibility gains CuteDSL MLA (decode only,
        # SM100, its KV dtypes; 0.5.15 moves the three checks to arg_groups/overrides.py unchanged)
        "mla_backend_checks": {"trtllm_kv": ("fp8_e4m3", "fp4_e2m1", "bf16", "auto"), "tokenspeed_kv": ("fp8_e4m3",),
                               "cutedsl_kv": ("fp8_e4m3", "bf16", "bfloat16", "auto")},
        "dsv4_hook": "v13",  # -- oldnon (session 17) --: arg_groups/deepseek_v4_hook.py: the DSA-named prefill CP flags
        "language_only_needs_urls": False,  # -- oldnon (session 17) --: --language-only without --encoder-urls logs
        # -- dsa (session 16) --: server_args.py _handle_context_parallelism (0.5.19 parallel_hook.py) refuses the legacy
        # --enable-prefill-context-parallel with --enable-dsa-prefill-context-parallel (or its NSA alias)
        "cp_legacy_flags_exclusive": True,
        "nemotron_h_branch": ("NemotronHForCausalLM", "NemotronHPuzzleForCausalLM"),  # the Puzzle joins (standin, session 16)
        # -- model (session 14) --
        "gpt_oss_attention": ("triton", "trtllm_mha", "fa3", "fa4", "ascend", "intel_amx", "intel_xpu", "aiter"),
        "model_overrides": _MODEL_OVERRIDES_0_5_13,
        # server_args.py _handle_model_specific_adjustments' DSA block gains the TBO index-topk sharing check (the rest
        # of it, before 0.5.16's rewrite, is not modelled: trait deepseek_family)
        "deepseek_family": "dsa_block_v13",
        "dsa_page_block_archs": None,  # -- lora (session 17) --: the "deepseek" family sets the DSA page size
        "gemma4_attention": ("trtllm_mha", "triton", "intel_xpu"),
        # arg_groups/speculative_hook.py: the window is validated once, for any algorithm, before the algorithm hooks
        "window_check_in_dflash": False,
        # srt/arg_groups/speculative_hook.py: --speculative-adaptive's initial num_steps validated after the EAGLE-family
        # hook against DEFAULT_ADAPTIVE_CONFIG's candidate steps (srt/speculative/adaptive_spec_params.py); from 0.5.14
        # the hook applies the config first (adaptive_candidate_steps)
        "adaptive_steps_after_eagle": (1, 3, 7),
        # server_args.py _handle_moe_kernel_config: modelopt_fp4 on SM120 resolves auto to flashinfer_cutlass;
        # flashinfer_cutedsl takes the flashinfer a2a backend; experimental_sgl_trtllm checked as flashinfer_trtllm;
        # _handle_a2a_moe: FlashInfer A2A needs --enable-dp-attention with --dp-size == --tp-size, takes cutedsl too
        "moe_fp4_cutlass_sms": (120, 121),
        "moe_cutedsl_a2a": ("none", "deepep", "flashinfer"),
        "moe_trtllm_runners": ("flashinfer_trtllm", "experimental_sgl_trtllm"),
        "a2a_flashinfer_topology": "dp",
        "a2a_flashinfer_runners": ("flashinfer_cutlass", "flashinfer_cutedsl"),
        "deterministic_attention_backends": ("flashinfer", "fa3", "triton", "ascend"),  # server_args.py
        # --encoder-only: the architectures added
        "encoder_disagg_archs": _ENCODER_ARCHS_0_5_13,
        "parser": "0.5.13",
        # metrics_collector.py: the counter of verify forward passes appears (accept length from counters)
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_bootstrap_queue_reqs",),
                        verify_calls_total=("sglang:spec_verify_calls_total",)),
        "parser_derived": None,
        "verified": True,
        "eagle_paged_tree_backends": ("flashinfer", "fa3", "triton"),  # server_args.py: the "unstable" message is gone
        # server_args.py check_server_args: --moe-dense-tp-size may also equal --tp-size ("only supports None, 1,
        # or tp_size currently"; 0.5.11-0.5.12 say "only support 1 and None currently")
        "moe_dense_tp_size_any_tp": True,
        # -- specserve (session 14) --
        "fp4_indexer_sms": (100,),  # server_args.py _handle_environment_variables: is_sm100_supported()
    },
    "0.5.12.post1": {  # parser captured; traits as the release before it
        "dsv4_hook": "v12.post1",  # -- oldnon (session 17) --: arg_groups/deepseek_v4_hook.py: no PD pipeline check
        "parser": "0.5.12.post1",
        "parser_derived": None,
        "verified": True,
    },
    "0.5.12": {  # srt/arg_groups/ appears; free-form --speculative-algorithm; new meta_info names
        # -- oldgpu (session 17) --: server_args.py _handle_attention_backend_compatibility gains tokenspeed MLA (Blackwell,
        # FP8 KV only)
        "mla_backend_checks": {"trtllm_kv": ("fp8_e4m3", "fp4_e2m1", "bf16", "auto"), "tokenspeed_kv": ("fp8_e4m3",),
                               "cutedsl_kv": None},
        # -- lora (session 17) --: the DSA block of _handle_model_specific_adjustments takes DeepseekV32ForCausalLM too
        "dsa_page_block_archs": ("DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "KimiK25ForConditionalGeneration",
                                 "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM"),
        "deepseek_family": "dsa_block_v12",  # -- oldnon (session 17) --: DeepseekV32ForCausalLM joins the DSA block
        "spec_moe_runner_trtllm_refused": False,  # -- oldnon (session 17) --: server_args.py drops the assert
        # -- oldnon (session 17) --: arg_groups/deepseek_v4_hook.py appears (KV fp8_e4m3 only, EAGLE topk 1, a PD server
        # refuses pp > 1, the NSA-named prefill CP flags in round-robin-split mode)
        "dsv4_hook": "v12",
        "lora_virtual_experts_triton": False,  # -- old-a (session 15) --: check_lora_server_args drops the check
        "pd_staging_backends": ("mooncake", "nixl"),  # the PD hook: SGLANG_DISAGG_STAGING_BUFFER
        "pd_radix_backends": ("nixl", "mooncake"),  # the PD hook: a decode server's radix cache (0.5.12-0.5.13)
        # -- moe18 (session 18) --: check_server_args refuses two-batch overlap with fused shared experts
        "tbo_shared_fusion_refused": True,
        # server_args.py _handle_a2a_moe: --moe-a2a-backend megamoe appears and spans the TP group
        "a2a_ep_backends": ("deepep", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "mori", "megamoe"),
        # server_args.py: _handle_deterministic_inference moves right before the attention backend hook
        "deterministic_before_attention": True,
        "cuda_graph_padding_torch_compile_check": True,  # check_server_args (server_args.py)
        # --encoder-only: the architectures added
        "encoder_disagg_archs": _ENCODER_ARCHS_0_5_12,
        # the PD decode radix cache's nixl requirement is 0.5.11's alone (its server_args.py; no later kit has it)
        "pd_decode_radix_needs_nixl": False,
        "parser": "0.5.12",
        # metrics_collector.py: the PD prefill queue gauge num_prefill_prealloc_queue_reqs is renamed
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_bootstrap_queue_reqs",)),
        "parser_derived": None,
        "verified": True,
        "window_flag": "--speculative-draft-window-size",
        "deprecated": {"--speculative-dflash-draft-window-size": "--speculative-draft-window-size"},
        "algorithm_case_sensitive": False,
        "pd_decode_radix_algorithms": (),  # every speculative algorithm refused (observed in its resolver)
        "pd_decode_radix_first": True,  # checked before the attention backends (observed in its resolver)
        "meta_info": {"correct": ("spec_num_correct_drafts", "spec_accepted_drafts"),
                      "proposed": ("spec_num_proposed_drafts", "spec_proposed_drafts")},
        # -- specserve (session 14) --
        # server_args.py (0.5.13 on arg_groups/speculative_hook.py) _resolve_speculative_algorithm_alias
        "gemma4_draft_eagle3_refused": True,
        # -- kv (session 14) --: arg_groups/hisparse_hook.py validate_hisparse takes DeepSeek V4 too; a DSA target's
        # KV dtype (bfloat16, auto or fp8_e4m3) before its NSA backends per dtype
        "hisparse_models": ("dsa", "v4"),
        "hisparse_dsa_checks": {"dtypes": ("bfloat16", "auto", "fp8_e4m3"), "backends_first": False,
                                "backends": {"bfloat16": ("flashmla_sparse",), "fp8_e4m3": ("flashmla_kv",),
                                             "*": ("flashmla_kv", "flashmla_sparse")}},
    },
    "0.5.11": {
        # -- oldnon (session 17) --: srt/server_args.py _handle_encoder_disaggregation: --language-only needs
        # --encoder-urls (0.5.11-0.5.12.post1; 0.5.13 logs instead); the speculative hook refuses
        # --speculative-moe-runner-backend flashinfer_trtllm first (0.5.11 alone)
        "language_only_needs_urls": True,
        "spec_moe_runner_trtllm_refused": True,
        # -- cache (session 16) --: hicache_hook.py validate_hicache_host_memory_mode (its flag from 0.5.19) refuses
        # buffer_only with --hicache-write-policy write_back through 0.5.21; 0.5.22 rewrites it to write_through
        "hicache_buffer_refuses_write_back": True,
        # -- cache (session 16) --: _handle_expert_distribution_metrics refuses SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC
        # in the environment (0.5.18 server_args.py, 0.5.19-0.5.20 parallel_hook.py)
        "eplb_balancedness_env_refused": False,
        # -- cache (session 16) --: _handle_multimodal_feature_transport refuses cuda_vmm under SGLANG_RUST_SERVER
        # (0.5.18 server_args.py, 0.5.19 serving_hook.py)
        "mm_vmm_refuses_rust_server": False,
        "mps_runtime_check": False,  # -- engfix (session 15) --: --device mps passes resolution (fails at launch)
        # -- engfix (session 15) --: _handle_dllm_inference (server_args.py) reads DllmConfig only with the radix cache on
        "dllm_archs": ("LLaDA2MoeModelLM", "SDARForCausalLM", "SDARMoeForCausalLM"),
        "dllm_model_check": "radix",
        # -- overrides (session 15) --, oldgpu (session 17): the MLA backend checks of srt/server_args.py
        # _handle_attention_backend_compatibility (0.5.11-0.5.14; judged through the oracle's GPU stand-in): TRTLLM MLA
        # only in 0.5.11, tokenspeed MLA from 0.5.12, CuteDSL MLA from 0.5.13
        "mla_backend_checks": {"trtllm_kv": ("fp8_e4m3", "fp4_e2m1", "bf16", "auto"), "tokenspeed_kv": None,
                               "cutedsl_kv": None},
        # server_args.py _handle_data_parallelism (overrides.py _dp_lm_head_validation from 0.5.15): no TP LM-head flag
        "lm_head_dp_checks": "dp_lm_head",
        "tokenspeed_mla_alias": False,
        # server_args.py _handle_speculative_decoding: the DFLASH window is validated inside the DFLASH branch, after
        # its dp attention, pp, draft path and block size checks (0.5.11-0.5.12.post1); other algorithms not at all
        "window_check_in_dflash": True,
        "adaptive_steps_after_eagle": None,
        "a2a_megamoe_compat": False,
        # MoE kernel and a2a checks (rules_moe.py; server_args.py _handle_moe_kernel_config, _handle_a2a_moe)
        "moe_nvfp4_online_runners": None,
        "moe_mxfp8_runners": ("cutlass", "flashinfer_trtllm", "flashinfer_trtllm_routed"),
        "moe_fp4_cutlass_sms": (),
        "moe_cutedsl_quant": ("modelopt_fp4",),
        "moe_cutedsl_a2a": ("none", "deepep"),
        "moe_cutedsl_deepep_per_token": False,
        "moe_trtllm_runners": ("flashinfer_trtllm",),
        "moe_trtllm_quant": ("modelopt_fp4", "fp8", "mxfp8", "modelopt_fp8", "modelopt_mixed", "compressed-tensors",
                             None),
        "moe_routed_quant": ("fp8", "mxfp8", "modelopt_fp4", None),
        "a2a_ep_backends": ("deepep", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "mori"),
        "a2a_flashinfer_topology": None,
        "a2a_flashinfer_runners": ("flashinfer_cutlass",),
        "a2a_flashinfer_dispatch_type": False,
        "a2a_flashinfer_megamoe": None,
        "a2a_megamoe_topology": None,
        "a2a_deepep_cutedsl_low_latency": False,
        "a2a_deepep_v2_archs": None,
        "a2a_deepep_v2_deterministic": False,
        "a2a_deepep_v2_direct_nodes": False,
        "a2a_pplx": False,
        # -- moe (session 14) --
        "a2a_cutedsl_w4a16": False,
        "a2a_megamoe_envs": False,
        "a2a_megamoe_w4a16": False,
        "layernorm_sp_muse": False,
        "layernorm_sp_pp": False,
        "a2a_flashinfer_chunked_prefill": False,
        "megamoe_token_budget": False,
        "a2a_deepep_v2_prefill_scatter": False,
        "parser": "0.5.11",
        "parser_derived": None,
        "window_flag": "--speculative-dflash-draft-window-size",
        "deprecated": {},
        "algorithm_case_sensitive": True,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton"),
        "dflash_devices": None,
        "dflash_device_message": None,
        "dp_attention_rejected": True,
        "dflash_overlap_off": True,
        "dflash_mixed_chunk_off": True,
        "dflash_resets": ("speculative_num_steps", "speculative_eagle_topk"),
        "trtllm_mha_sms": {"prefill": (100,), "decode": (90, 100, 120)},
        "draft_trtllm_sets_page_size": False,
        "draft_backend_at_resolution": False,
        "dp_spec_prefill_env_check": None,
        "pd_decode_radix_needs_nixl": True,
        # ServerArgs._handle_pd_disaggregation runs right after the SSL check, before the attention backends
        # (found by a generated case: trtllm_mha without a GPU and a PD decode radix cache)
        "pd_decode_radix_first": True,
        "pp_speculation_refused": True,
        "dp_attention_tp_divisible": True,
        "cpu_default_attention": "torch_native",
        "eagle_paged_tree_backends": ("flashinfer", "fa3"),
        # -- oldnon (session 17) --: _handle_pd_disaggregation refuses any algorithm after the nixl check (0.5.11)
        "pd_decode_radix_algorithms": (),
        "block_verification_algorithms": None,
        "check_base_gpu_id": True,
        "moe_dense_tp_size_any_tp": False,
        "lora_speculative_algorithms": (),
        # rules_validation: check_server_args' --disable-cuda-graph-padding + --enable-torch-compile (0.5.12 on),
        # --min-free-slots-delay with pp > 1 (0.5.18 on); tbo_none_a2a: --enable-two-batch-overlap with --moe-a2a-backend
        # none is "refused" (0.5.11-0.5.14), or allowed with attention DP only ("attn_dp", 0.5.15 on: as
        # rules_parallel.attn_dp_enabled reads it, after the data-parallel defaults)
        "cuda_graph_padding_torch_compile_check": False,
        "pp_min_free_slots_check": False,
        "tbo_none_a2a": "refused",
        "tbo_shared_fusion_refused": False,  # -- moe18 (session 18) --: see tbo_shared_fusion_refused above
        # -- model (session 14) --
        # rules_model.py check_model_overrides: the per-architecture model-override families the release runs (through
        # 0.5.18 srt/server_args.py _handle_model_specific_adjustments; then arg_groups/model_overrides/), and how their
        # attention-DP refusals read it ("flag": --enable-dp-attention; "resolved": attn_dp_enabled_of, 0.5.22 on)
        # -- oldnon (session 17) --: the DeepSeek block's legacy prefill CP asserts (deepseek_family "dsa_block_v11")
        "model_overrides": ("moss_vl", "gpt_oss", "llama4", "exaone", "olmo2", "lfm2", "deepseek"),
        # -- engfix (session 15) --: attention DP read from the --enable-dp-attention flag (see attn_dp_resolved above)
        "attn_dp_resolved": False,
        # -- quant (session 15) --: kimi_k3.py's DCP decode backends in its message's order; nemotron_h.py's
        # architectures and its expert-remap checks (rules_model.py check_quant_families)
        "kimi_dcp_decode_backends": None,
        "nemotron_h_omni": True,
        "nemotron_expert_remap": False,
        # -- mamba, standin (session 16) --: the model-specific adjustments' Nemotron-H branch (rules_model.py
        # check_nemotron_h_branch; through 0.5.18), for these architectures: a ModelOpt checkpoint's relu2 MLP, no
        # triton attention backend
        "nemotron_h_branch": ("NemotronHForCausalLM",),
        "nemotron_h_branch_w4a16": False,  # -- gpu16 (session 17) --: and W4A16_NVFP4 experts' a2a / runner (0.5.18)
        # -- gpu16 (session 17) --: prepare_server_args checks SGLANG_NPU_FUSED_MOE_MODE after the parse (0.5.16-0.5.17,
        # rules_legacy.check_fuseep_mode_env)
        "fuseep_mode_env_at_parse": False,
        # -- gpu16 (session 17) --: the model-specific adjustments' MiMo V2 branch refuses --enable-hierarchical-cache
        # without SGLANG_ENABLE_UNIFIED_RADIX_TREE (0.5.14-0.5.18; rules_model.check_mimo_v2_hicache)
        "mimo_v2_hicache_env": False,
        # -- gpu16 (session 17) --: _handle_cache_compatibility refuses --enable-session-radix-cache without
        # --radix-eviction-policy priority (0.5.15-0.5.16; rules_cache.check_cache_compatibility)
        "session_radix_needs_priority": False,
        # -- gpu16 (session 17) --: handle_moe_kernel_config reads the deprecated SGLANG_CUTLASS_MOE (through 0.5.17;
        # rules_moe.check_moe_kernel)
        "cutlass_moe_env": True,
        # -- gpu16 (session 17) --: the attention hook's dual-chunk pass (through 0.5.19; rules_attention.check_dual_chunk)
        "dual_chunk_attention": True,
        # -- lora (session 17) --: server_args.py _handle_model_specific_adjustments' DSA block sets page 64 on CUDA
        # for these architectures (with index_topk); from 0.5.13 the "deepseek" family does (rules_model.dsa_page_size)
        "dsa_page_block_archs": ("DeepseekV3ForCausalLM", "KimiK25ForConditionalGeneration", "MistralLarge3ForCausalLM",
                                 "PixtralForConditionalGeneration", "GlmMoeDsaForCausalLM"),
        # 0.5.11-0.5.12: the DSA block has no TBO check; its legacy prefill CP asserts come before it reads the GPU's
        # capability (-- oldnon (session 17) --: "dsa_block_v11", 0.5.12 "dsa_block_v12": DeepseekV32 joins, tp <= 8)
        "deepseek_family": "dsa_block_v11",
        "pd_decode_dcp": None,  # -- old-b (session 15) --
        # model_hook.py (through 0.5.18 server_args.py): the attention backends GptOss / Gemma4 take (None: no check)
        "gpt_oss_attention": ("triton", "trtllm_mha", "fa3", "fa4", "ascend", "intel_xpu", "aiter"),
        "gemma4_attention": None,
        # model_hook.py handle_language_model_only: the architectures --language-model-only serves (0.5.18 on)
        "language_model_only_archs": None,
        # model_hook.py handle_model_capability_adjustments refuses the encoder SWA replay off DeepSeek-V4.1 (0.5.23)
        "encoder_replay_needs_v41": False,
        "joint_head_checkpoint": False,  # -- new19 (session 17) --
        # srt/server_args.py _validate_cutedsl_a2a_token_budget (0.5.13-0.5.18; moe_hook.py
        # validate_cutedsl_a2a_token_budget 0.5.19-0.5.21) -- moe18 (session 18) --
        "cutedsl_a2a_token_budget": None,
        "sidecar_rust_server_refused": False,  # serving_hook.py handle_deprecated_args, 0.5.22 only
        "dsv4_hook": None,  # -- dsv4 (session 15) --
        # rules_speculative: None (NGRAM passed through unmodelled) or {"devices": the devices _handle_ngram takes
        # ("cuda": any cuda device), "steps": it sets num_steps = draft tokens // topk}; its attention-DP refusal reads the
        # --enable-dp-attention flag, or from 0.5.22 (trait attn_dp_resolved) attn_dp_enabled_of
        "ngram_rules": {"devices": "cuda", "steps": False},  # server_args.py NGRAM branch
        # --speculative-use-block-verification turns --speculative-use-rejection-sampling on for EAGLE / EAGLE3
        "block_verification_enables_rejection": False,
        "lmcache_cache_checks": False,
        # srt/server_args.py _handle_mamba_backend (0.5.15 on: the flag): CUDA, then SM100 with the triton backend
        "mamba_stochastic_platform_checks": True,
        "unified_pool": None,
        "nvfp4_prefill_dequant": False,
        "kv4_unified_sm100_checks": False,
        "int8_mamba_lmcache_check": False,
        "hicache_linker_radix_checks": False,
        "encoder_disagg_archs": _ENCODER_ARCHS_V1,
        # parallelism (rules_parallel.py): what changed per release, read in each kit's source
        "dcp_hip_only": False,
        "dcp_refuses_prefill_cp": False,
        "dcp_comm_backend_by_platform": False,
        "cp_divisor_attn_dp": False,
        "ep_dispatch_rank_invariant": False,
        "kv_sharding_spec_arch": None,
        # rules_platform.py: read in each kit's source (server_args.py, from 0.5.19 arg_groups/)
        # -- standin (session 16) --: server_args.py _get_default_attn_backend (0.5.11-0.5.18), judged through the
        # oracle's GPU stand-in; trtllm_mha's fa4 for unequal K/V rows from 0.5.17 (model_config.has_asymmetric_kv)
        "sm100_default_attention": {"dflash_topk_one": False, "asymmetric_fa4": False,
                                    "mha_archs": ("KimiK3ForConditionalGeneration",)},
        "deterministic_attention_backends": ("flashinfer", "fa3", "triton"),
        "deterministic_before_attention": False,  # 0.5.11's __post_init__ runs it after _handle_cache_compatibility
        # the DeepSeek family's deterministic backends (a literal list until 0.5.16) and the fa4 SM100/SM110 check
        "deterministic_mla_backends": ("fa3", "triton"),
        "deterministic_mla_fa4_sm100": False,
        # the PD hook (rules_pd.py check_pd_roles): the decode radix cache's fake-backend refusal (0.5.14 on), the
        # Rust server's bootstrap port (0.5.17 on), the staging buffer's backends, the role-switch checks (0.5.21 on)
        "pd_radix_fake_check": False,
        "pd_radix_backends": None,
        "pd_rust_bootstrap": False,
        "pd_staging_backends": ("mooncake",),
        "pd_role_switch_checks": False,
        # the model hook's Mamba radix cache for these hybrid architectures (rules_mamba.py; 0.5.14 on); -- oldgpu
        # (session 17) --: 0.5.11-0.5.13 server_args.py _handle_mamba_radix_cache from the Qwen3-Next and Lfm2 branches
        # (trait mamba_radix_legacy: "fla_chunk" 0.5.11-0.5.12, "model_chunk" 0.5.13, None from 0.5.14)
        "mamba_radix_archs": ("Qwen3NextForCausalLM", "Lfm2ForCausalLM"),
        "mamba_radix_legacy": "fla_chunk",
        # -- standin (session 16) --: server_args.py _handle_mamba_radix_cache refuses extra_buffer_lazy under PD
        # disaggregation (0.5.17 on; 0.5.14-0.5.16 assert only "extra_buffer_lazy unsupported with spec.")
        "mamba_lazy_pd_refused": False,
        # -- mamba (session 18) --: extra_buffer_lazy refused with speculation: "draft_tokens" (a
        # --speculative-num-draft-tokens given, any algorithm or none: 0.5.13 _handle_mamba_radix_cache, 0.5.14-0.5.16
        # _validate_mamba_extra_buffer; 0.5.11-0.5.12 have no lazy strategy), "DFLASH" (that algorithm: 0.5.17), None
        "mamba_lazy_spec_refused": "draft_tokens",
        "trtllm_mha_prefill_cp": None,
        "rejection_sampling_deterministic": None,
        "dflash_trtllm_draft_sm100_fa4": False,
        "kv_budget_message": "\"Not enough memory. Please try to increase --mem-fraction-static\"",
        "context_check_at_resolution": True,
        "watermark_algorithms": None,
        "pp_spec_checks": False,
        # -- validation (session 14) --
        "sampling_mask_env_refused": False,
        "pp_spec_dspark": False,
        "pp_spec_env_attn_dp": False,
        "retired_flag_errors": (),
        "trtllm_mha_prefill_sm120": False,
        "fa4_sm120": False,
        "hybrid_gdn_sm120_backends": None,
        "mask_token_id_top_level": False,
        "draft_archs": ("DFlashDraftModel",),
        "meta_info": {"correct": ("spec_accepted_drafts",), "proposed": ("spec_proposed_drafts",)},
        "adaptive_candidate_steps": None,
        "metrics_flag": "--enable-metrics",
        # srt/observability/metrics_collector.py (SchedulerMetricsCollector, TokenizerMetricsCollector)
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_prealloc_queue_reqs",)),
        "verified": True,
        "elastic_scale": None,  # -- parallel (session 14) --: no elastic EP scale-up checks before 0.5.16
        "expert_pack": None,  # -- parallel (session 14) --: --load-format expert_pack appears in 0.5.19
        "cp_boundary_models": False, "cp_dsv32_interleave": False, "cp_mimo_zigzag": False,  # -- parallel (session 14) --
        "mimo_v2_fused_qkv_tp": "equal",  # -- moe (session 16) --: server_args.py _handle_model_specific_adjustments
        "cp_tp_sharing": False,  # -- parallel (session 14) --: CP-TP group sharing checks ("v22", "v23": rules_parallel)
        "cp_legacy_flags_exclusive": False,  # -- dsa (session 16) --
        "dsa_prefill_cp_flags": None,  # -- dsa (session 16) --: rules_model._dsa_prefill_cp
        # -- specserve (session 14): serving_hook.py (rules_serving.py) --
        # handle_environment_variables: --enable-deepseek-v4-fp4-indexer's GPUs (the flag from 0.5.13); an explicit
        # cuda_ipc / cuda_vmm transport stays with --encoder-only; handle_other_validations: no watermark check
        "fp4_indexer_sms": None,
        "mm_transport_encoder_cpu": False,
        "preferred_sampling_watermark_check": False,
        "gemma4_draft_eagle3_refused": False,
        "dspark_rules": None,
        "iquest_mtp_draft": False,  # -- misc (session 15) --: speculative_hook.py _handle_iquest_q1_mtp_draft (0.5.21)
        # -- misc (session 15) --: model_hook.py's Intern-S2-Mobius branch (0.5.18 on; server_args.py there); the
        # model hook's Mamba-state check's architectures (overrides.py _MAMBA_RADIX_CACHE_ARCHS, 0.5.21 on); the
        # encoder hook's Muse language-only adaptive dispatch check (0.5.23)
        "interns2_mobius_no_pp_ep": False,
        "mamba_state_archs": None,
        "muse_language_only_adaptive": False,
        # -- kv (session 14) --
        # arg_groups/kv_shard_hook.py (0.5.22, the flag's first release): the radix tree core an unset
        # SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND means, and whether any --enable-hierarchical-cache is refused
        "kv_sharding_tree_core_default": "rust",
        "kv_sharding_refuses_hicache": True,
        "kv_sharding_dsa": "refused",
        # kv_cache_hook.py (server_args.py before) handle_kv4_compatibility: the MLA attention / FA4 decode backends
        "kv4_mla_backends": ("cutlass_mla", "flashinfer", "trtllm_mla"),
        "cuda_graph_backends": None,
        "hicache_host_receive": None,
        "prefill_graph_max_context": False,
        "hisparse_models": ("dsa",),  # server_args.py: --enable-hisparse's DSA-only check
        "hisparse_spec_checks": False,
        # server_args.py: HiSparse takes flashmla_sparse NSA backends, checked before a bfloat16-only KV cache
        "hisparse_dsa_checks": {"dtypes": ("bfloat16",), "backends": {"*": ("flashmla_sparse",)},
                                "backends_first": True},
        "unified_dcp_mla_backends": None,
        # -- old-a (session 15) --: checks only the older releases' srt/server_args.py has (rules_legacy.py), read in
        # each kit: _handle_attention_backend_compatibility refuses an MLA target's intel_xpu prefill (to 0.5.19);
        # _handle_a2a_moe checks SGLANG_NPU_FUSED_MOE_MODE for
        # ascend_fuseep on any device (to 0.5.15.post1); _handle_elastic_ep's --elastic-ep-rejoin ("assert": needs
        # --elastic-ep-backend, to 0.5.15.post1; "recover": 0.5.16-0.5.20 map it to --elastic-ep-join-mode recover;
        # the flag is gone in 0.5.21); check_lora_server_args' --lora-use-virtual-experts needs --lora-backend triton
        # (0.5.11 only)
        "intel_xpu_mla_prefill_refused": True,
        "a2a_ascend_fuse_mode": True,
        "elastic_ep_rejoin": "assert",
        "lora_virtual_experts_triton": True,
        # _handle_kv4_compatibility: the FP4 KV cache dtype it checks (fp4_e2m1; nvfp4 and fp4_mx_block16 from 0.5.16)
        # and flashmla in its MLA attention backend list (not the FA4 decode one), to 0.5.15.post1 (rules_cache.py)
        "kv4_dtypes": ("fp4_e2m1",),
        "kv4_mla_attention_extra": ("flashmla",),
    },
    "0.5.16": {
        "dsv4_hook": "v16",  # -- dsv4old (session 16) --: arg_groups/deepseek_v4_hook.py: DSPARK joins EAGLE
        "a2a_ascend_fuse_mode": False,  # -- old-a (session 15) --: _handle_a2a_moe no longer reads the fuse mode
        # -- gpu16 (session 17) --: prepare_server_args reads it after the parse instead (_apply_fuseep_mode_env_compat)
        "fuseep_mode_env_at_parse": True,
        "elastic_ep_rejoin": "recover",  # -- old-a (session 15) --: _handle_elastic_ep maps it to join mode recover
        "kv4_dtypes": ("nvfp4", "fp4_mx_block16"),  # -- old-a (session 15) --: _handle_kv4_compatibility's new dtypes
        "kv4_mla_attention_extra": (),  # -- old-a (session 15) --: flashmla leaves its MLA attention list
        # -- old-b (session 15) --: server_args.py _handle_model_specific_adjustments' DSA block (TBO with index-topk
        # sharing, prefill CP on decode, the cache layer split), as the "deepseek" family's (deepseek_family)
        "deepseek_family": "dsa_block_v16",
        "pp_spec_dspark": False,  # its DSPARK hook refuses any pp > 1 (dspark_rules "pp": "any")
        # arg_groups/overrides.py: mxfp8 keeps MXFP8_MOE_RUNNER_BACKEND_CHOICES; cutedsl and trtllm_routed take
        # modelopt_mixed
        "moe_mxfp8_runners": ("cutlass", "deep_gemm", "flashinfer_trtllm", "flashinfer_trtllm_routed"),
        "moe_cutedsl_quant": ("modelopt_fp4", "modelopt_mixed"),
        "moe_routed_quant": ("fp8", "mxfp8", "modelopt_fp4", "modelopt_mixed", "nvfp4_online", None),
        "deterministic_attention_backends": ("ascend", "fa3", "fa4", "flashinfer", "triton"),  # server_args.py
        "ngram_rules": {"devices": ("cuda", "cpu"), "steps": True},  # _handle_ngram: CPU too
        "verified": True,  # its differential run on its captured table passes (203 cases, 2026-12-01)
        "parser": "0.5.16",
        "parser_derived": None,
        "window_flag": "--speculative-draft-window-size",
        "deprecated": dict(RENAMED),
        "dflash_devices": ("cuda",),
        "dflash_device_message": "DFLASH speculative decoding only supports CUDA device",
        "dflash_overlap_off": False,
        "hybrid_gdn_sm120_backends": ("triton", "trtllm_mha", "flashinfer"),
        "mask_token_id_top_level": True,
        "meta_info": {"correct": ("spec_num_correct_drafts", "spec_accepted_drafts"),
                      "proposed": ("spec_num_proposed_drafts", "spec_proposed_drafts")},
        "elastic_scale": "v16",  # -- parallel (session 14) --: the elastic EP scale-up checks appear
        "cp_mimo_zigzag": "env",  # -- parallel (session 14) --: MiMo V2 CP-v2 zigzag, under SGLANG_ENABLE_CP_V2
        # speculative_hook.py _handle_dspark: CUDA only; attention DP is the flag; any pp > 1 refused; no subfolder
        "dspark_rules": {"devices": ("cuda",), "attn_dp": "flag", "pp": "any", "subfolder": False, "dp_a2a": ("none",),
                         "npu_exempt": False, "ragged": None},
    },
    "0.5.23": {
        # -- quant (session 15) --
        "model_overrides": _MODEL_OVERRIDES_0_5_23,
        "kimi_dcp_decode_backends": ("cutedsl_mla", "aiter"),
        "nemotron_expert_remap": True,  # nemotron_h.py _validate_expert_remap
        # -- misc (session 15) --: overrides.py adds MiniCPM-V 4.7 to the Mamba radix cache architectures;
        # pd_disaggregation_hook.py refuses Muse language-only servers' adaptive dispatch to encoders
        "mamba_state_archs": _MAMBA_STATE_ARCHS_0_5_21 + ("MiniCPMV4_7ForConditionalGeneration",),
        "muse_language_only_adaptive": True,
        # -- overrides (session 15) --: tokenspeed MLA gone (_mla_kv_cache_dtype_checks checks TRTLLM MLA only)
        "mla_backend_checks": {"trtllm_kv": ("fp8_e4m3", "bf16", "auto"), "tokenspeed_kv": None,
                               "cutedsl_kv": ("fp8_e4m3", "bf16", "bfloat16", "auto")},
        "tokenspeed_mla_alias": True,  # serving_hook.py handle_deprecated_args: a deprecated name of cutedsl_mla
        # -- model (session 14) --
        "encoder_replay_needs_v41": True,
        # -- dsv4 (session 15) --: arg_groups/deepseek_v4_hook.py as rules_dsv4.py models it (DeepSeek-V4.1 features)
        "dsv4_hook": "v23",
        # arg_groups/moe_hook.py: trtllm_routed takes minimax_m3_nvfp4; FlashInfer MegaMOE validates more
        # architectures (configs/moe_model_registry.py: the DeepEP v2 ones as 0.5.22's)
        "moe_routed_quant": ("fp8", "mxfp8", "modelopt_fp4", "modelopt_mixed", "nvfp4_online", "minimax_m3_nvfp4",
                             None),
        "a2a_flashinfer_megamoe": ("BeamForCausalLM", "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM",
                                   "DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM", "Glm4MoeForCausalLM",
                                   "GlmMoeDsaForCausalLM", "NemotronHForCausalLM", "NemotronHPuzzleForCausalLM",
                                   "Qwen2MoeForCausalLM", "Qwen3MoeForCausalLM", "KimiK3ForConditionalGeneration",
                                   "KimiK3LinearForCausalLM"),
        # srt/arg_groups/kv_cache_hook.py, mamba_hook.py, hicache_hook.py (rules_cache.py, rules_mamba.py)
        "unified_pool": _UNIFIED_0_5_23, "hicache_linker_radix_checks": True,
        # model_override_base.py _forces_eagle_topk_one: DFLASH counts as top-k one for the SM100 default
        "sm100_default_attention": {"dflash_topk_one": True, "asymmetric_fa4": True, "mha_archs": ()},
        # speculative_hook.py _handle_eagle_family: deterministic rejection sampling needs CUDA;
        # _resolve_dflash_draft_attention_backend: the trtllm_mha draft fallback is fa4 on SM100
        "rejection_sampling_deterministic": "cuda",
        "dflash_trtllm_draft_sm100_fa4": True,
        # --encoder-only: the architectures added
        "encoder_disagg_archs": _ENCODER_ARCHS_0_5_23,
        "verified": True,
        "parser": "0.5.23",
        "parser_derived": None,
        "deprecated": {"--enable-dp-attention": "--attn-dp-size",
                       "--disable-cuda-graph": "--cuda-graph-backend-decode=disabled"},
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend", "trtllm_mha", "intel_xpu"),
        "dflash_devices": ("cuda", "npu", "xpu"),
        "dflash_device_message": "DFLASH speculative decoding is not supported by",
        "dp_attention_rejected": False,
        "dflash_mixed_chunk_off": False,
        "trtllm_mha_sms": {"prefill": (90, 100, 120), "decode": (90, 100, 120)},
        "draft_trtllm_sets_page_size": True,
        "draft_backend_at_resolution": True,
        "dp_spec_prefill_env_check": ("EAGLE", "EAGLE3", "DSPARK"),
        "pd_decode_radix_needs_nixl": False,
        "pd_decode_radix_first": False,
        "pp_speculation_refused": False,
        "pd_decode_radix_algorithms": ("DSPARK", "EAGLE", "EAGLE3"),
        "block_verification_algorithms": ("EAGLE", "EAGLE3", "DFLASH", "DSPARK"),
        "context_check_at_resolution": True,
        "watermark_algorithms": ("NGRAM", "EAGLE", "EAGLE3"),
        "pp_spec_checks": True,
        "trtllm_mha_prefill_sm120": True,
        "fa4_sm120": True,
        "draft_archs": ("DFlashDraftModel", "DFlashLagunaForCausalLM", "DFlash2DraftModel", "DFlash2BeamDraftModel",
                        "MiniMaxDFlash2DraftModel", "MuseGlimmerAssistantModel"),
        "meta_info": {"correct": ("spec_num_correct_drafts",), "proposed": ("spec_num_proposed_drafts",)},
        # arg_groups/kv_shard_hook.py: KV sharding takes GLM DSA single-layer NextN MTP (0.5.22: no speculation)
        "kv_sharding_spec_arch": "GlmMoeDsaForCausalLM",
        "elastic_scale": "v23",  # -- parallel (session 14) --: topology, --moe-dense-tp-size, --dcp-size checks
        "expert_pack": "v23",  # -- parallel (session 14) --: expert_pack_hook.py checks --attn-dp-size too
        "sidecar_rust_server_refused": False,  # -- new19 (session 17) --
        "cp_tp_sharing": "v23",  # -- parallel (session 14) --: cp_tp_group_sharing_hook.py, Qwen4-Exp added
        # -- specserve (session 14): _handle_dspark adds XPU and the draft in a dspark/ subfolder of the target --
        "dspark_rules": {"devices": ("cuda", "npu", "xpu"), "attn_dp": "resolved", "pp": "prefill_ok", "subfolder": True,
                         "dp_a2a": ("none", "megamoe", "mori"), "npu_exempt": True, "ragged": "a2a_or_env"},
        # -- kv (session 14) --
        # kv_shard_hook.py: an unset tree core env is set to python; HiCache host offload taken, a storage backend not
        "kv_sharding_tree_core_default": "python",
        "kv_sharding_refuses_hicache": False,
        "kv_sharding_dsa": "checked",  # the dsa backend's topology / kernel / layout checks, DSA HiCache's layout
        "unified_dcp_mla_backends": ("flashinfer", "trtllm_mla", "cutedsl_mla"),  # tokenspeed_mla gone
        # -- moe (session 14) --
        # layernorm_sp_hook.py: Muse Spark joins the SP architectures (its TP/EP, MoE backend, MegaMoE prefill checks)
        # and moe_hook.py's FlashInfer A2A topology exempts its TP4/EP4 or TP8/EP8 prefill SP; FlashInfer MegaMOE
        # NVFP4 W4A16 needs a BF16 combine dtype and model dtype
        "layernorm_sp_muse": True,
        "a2a_megamoe_w4a16": True,
    },
}


def vtuple(version):
    """'0.5.13.post1' -> (0, 5, 13, 1); a plain release sorts before its post releases."""
    m = re.match(r"^\s*(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?\s*$", str(version))
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4) or 0) if m.group(4) else -1)


def _build():
    out = {}
    prev = {}
    for v in ORDER:
        cur = dict(prev)
        cur.update(_CHANGES[v])
        cur["version"] = v
        out[v] = cur
        prev = cur
    for v, rel in out.items():
        rel["flags"] = _flag_table(rel)
        rel["exact_table"] = rel["parser_derived"] is None
        if "algorithms" not in rel:
            rel["algorithms"] = _algorithms(rel)
    for v, rel in out.items():
        later = set()
        for w in ORDER[ORDER.index(v) + 1:]:
            later.update(out[w]["flags"])
        rel["added_later"] = frozenset(f for f in later if f not in rel["flags"])
    return out


def _algorithms(rel):
    """The --speculative-algorithm names a release accepts: the parser's choices when it has them (0.5.11),
    else its captured SpeculativeAlgorithm members plus NEXTN (an alias of EAGLE in every release)."""
    choices = rel["flags"]["--speculative-algorithm"][2]
    if choices:
        return tuple(choices)
    captured = getattr(parsers.MODULES.get(rel["parser"]), "ALGORITHMS", ())
    return tuple(captured) + ("NEXTN",) if captured else _ALGOS_V1


def _flag_table(rel):
    base = dict(parsers.table(rel["parser"]))
    how = rel["parser_derived"]
    if how:
        for f in how.get("drop", ()):
            base.pop(f, None)
        base.update(how.get("add", {}))
        for f, choices in (how.get("choices") or {}).items():
            kind, typ, _c, dest = base[f]
            base[f] = (kind, typ, tuple(choices), dest)
    return base


RELEASES = _build()
KNOWN_VERSIONS = tuple(ORDER)


def known_versions_text():
    return ", ".join(KNOWN_VERSIONS)


def nearest(version, n=2):
    """The known releases nearest to `version` (the one below and the one above, when they exist)."""
    want = vtuple(version)
    if want is None:
        return list(KNOWN_VERSIONS[-n:])
    below = [v for v in KNOWN_VERSIONS if vtuple(v) < want]
    above = [v for v in KNOWN_VERSIONS if vtuple(v) > want]
    out = below[-1:] + above[:1]
    return out or list(KNOWN_VERSIONS[-n:])


def unknown_version_message(version):
    near = nearest(version)
    return ("SGLang version %r has no release table; nearest known: %s (all known: %s). Pin a known release "
            "(sglang_version), or add this one with `%s` (captures its parser from its own CPU kit; review the "
            "diff and run its differential tests)." % (version, " and ".join(near), known_versions_text(),
                                                       ADD_RELEASE_COMMAND.replace("<version>", str(version))))


def release(version):
    """The merged traits of `version`, or None when the engine has no table for it."""
    return RELEASES.get(str(version) if version is not None else None)


def meta_info_fields(version):
    """(release the names come from, {"correct": names, "proposed": names}) for smoke.py."""
    want = vtuple(version)
    if want is None:
        return None, None
    older = [v for v in KNOWN_VERSIONS if vtuple(v) <= want]
    if not older:
        return None, None
    names = RELEASES[older[-1]]["meta_info"]
    first = older[-1]
    for v in reversed(older):  # name the schema after the release that introduced these names
        if RELEASES[v]["meta_info"] != names:
            break
        first = v
    return first, names


def first_with(trait):
    """The first known release where `trait` is true (for messages), or None."""
    for v in KNOWN_VERSIONS:
        if RELEASES[v].get(trait):
            return v
    return None


def version_rules(version, result=None):
    """The release record for `version`, or None (with UNKNOWN_VERSION on `result`) for an unknown one."""
    rel = release(version)
    if rel is None and result is not None:
        result.error("UNKNOWN_VERSION", unknown_version_message(version), field="sglang_version", stage="input")
    return rel
