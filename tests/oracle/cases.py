"""Generated configurations for the differential tests: config.json dirs and SGLang 0.5.23 argvs.

Models are config.json-only dirs written to a tmp dir (SGLang's resolution reads only config.json).
"""
import collections
import json
import os

from hypothesis import strategies as st

TARGETS = {
    # name: (architecture, layers, vocab, max_position_embeddings)
    "qwen3-36l": ("Qwen3ForCausalLM", 36, 151936, 40960),
    "qwen3-8l-small-vocab": ("Qwen3ForCausalLM", 8, 465, 2048),
    "llama-32l": ("LlamaForCausalLM", 32, 128256, 131072),
    # MoE and MLA targets (the MoE / a2a hooks read the architecture; TARGET_FIELDS holds their config fields)
    "qwen3-moe-8l": ("Qwen3MoeForCausalLM", 8, 151936, 40960),
    "deepseek-v3-8l": ("DeepseekV3ForCausalLM", 8, 129280, 163840),
    # a hybrid sliding-window target: Qwen3's architecture whose text config opts in to SGLang's hybrid-SWA pool
    # (model_config.is_hybrid_swa_model reads is_hybrid_swa; TARGET_FIELDS), for the KV cache hook's unified pool
    "qwen3-hybrid-swa-8l": ("Qwen3ForCausalLM", 8, 151936, 40960),
    # -- parallel (session 14) --: the context-parallel hook's model checks (sweep only: PARALLEL_CHECK_CASE)
    "longcat-flash-8l": ("LongcatFlashForCausalLM", 8, 1000, 4096),
    "nemotron-h-8l": ("NemotronHForCausalLM", 8, 1000, 4096),
    "mimo-v2-flash-8l": ("MiMoV2FlashForCausalLM", 8, 1000, 4096),
    "qwen4-exp-4l": ("Qwen4ExpForConditionalGeneration", 4, 1000, 4096),
    "kimi-k3-8l": ("KimiK3ForConditionalGeneration", 8, 1000, 4096),
    # -- attn (session 14) -- a hybrid linear-attention (GDN) / MoE target: the model hook's Mamba radix cache
    "qwen3-next-8l": ("Qwen3NextForCausalLM", 8, 151936, 40960),
    # -- oldnon (session 17) --: Qwen2.5-1M's dual chunk attention (its config's dual_chunk_attention_config)
    "qwen2-dual-chunk-8l": ("Qwen2ForCausalLM", 8, 151936, 40960),
    # -- oldnon (session 17) --: a DSA checkpoint under DeepSeek-V3's architecture name (0.5.11's DSA block list)
    "deepseek-v3-dsa-8l": ("DeepseekV3ForCausalLM", 8, 129280, 163840),
    # -- validation (session 14) --
    # a block-diffusion LLM (SDAR: Qwen3's config under an architecture dllm/config.py's DLLM_PARAMS knows), for the
    # checks that read --dllm-algorithm's model (the watermark's); sweep only
    "sdar-8l": ("SDARForCausalLM", 8, 151936, 40960),
    # -- model (session 14) --
    # the architectures SGLang's model overrides key on (srt/arg_groups/model_overrides/), swept only (MODEL_CHECK_EXTRA)
    "iquest-q1-8l": ("IQuestQ1ForCausalLM", 8, 151936, 40960),
    "minicpm-sala-8l": ("MiniCPMSALAForCausalLM", 8, 73448, 32768),
    "ernie45-vl-8l": ("Ernie4_5_VLMoeForConditionalGeneration", 8, 103424, 131072),
    "moss-vl-8l": ("MossVLForConditionalGeneration", 8, 151936, 40960),
    # DeepSeek V3.2 (DeepSeek Sparse Attention: index_topk), and one whose indexer pools keys and shares top-k
    "deepseek-v32-dsa-8l": ("DeepseekV32ForCausalLM", 8, 129280, 163840),
    "deepseek-v32-kpool-8l": ("DeepseekV32ForCausalLM", 8, 129280, 163840),
    "deepseek-v32-sink-8l": ("DeepseekV32ForCausalLM", 8, 129280, 163840),  # learnable attention sinks
    "hyv4-8l": ("HYV4ForCausalLM", 8, 129280, 163840),
    # the architectures whose model-hook branch checks the attention backend (a Llama-shaped config.json each)
    "gpt-oss-8l": ("GptOssForCausalLM", 8, 201088, 131072), "llama4-8l": ("Llama4ForCausalLM", 8, 202048, 131072),
    "gemma4-8l": ("Gemma4ForCausalLM", 8, 262144, 131072), "exaone4-8l": ("Exaone4ForCausalLM", 8, 102400, 65536),
    "olmo2-8l": ("Olmo2ForCausalLM", 8, 100352, 4096), "lfm2-8l": ("Lfm2ForCausalLM", 8, 65536, 128000),
    # -- kv (session 14) --
    # KV cache sharding's target checks (kv_shard_hook.py): an encoder-decoder architecture (model_config's
    # is_encoder_decoder_model reads the architecture list) and a chunked (local) attention text config
    "encdec-8l": ("MllamaForConditionalGeneration", 8, 151936, 40960),
    "chunked-attn-8l": ("Qwen3ForCausalLM", 8, 151936, 40960),
    # a sparse-attention family --enable-hisparse takes (model_config.is_minimax_sparse reads the architecture alone)
    "minimax-m3-8l": ("MiniMaxM3SparseForCausalLM", 8, 151936, 40960),
    # a DSA target (is_deepseek_dsa: a DSA architecture with an index_topk) the model-specific hook does not fill in
    # (the DeepSeek-V3 MTP head; the main architectures read torch.cuda there on this host)
    "dsa-nextn-8l": ("DeepseekV3ForCausalLMNextN", 8, 129280, 163840),
    # an MLA target whose text config opts in to the hybrid sliding-window pool (the unified pool's DCP checks)
    "mla-hybrid-swa-8l": ("DeepseekV3ForCausalLM", 8, 129280, 163840),
    # a Mamba-hybrid (short-conv) target that resolves on this host with flashinfer attention (LFM2: conv + attention)
    "lfm2-hybrid-8l": ("Lfm2ForCausalLM", 8, 151936, 40960),
    # -- moe (session 14) --
    # Muse Spark (the layernorm SP hook's Muse branch reads the architecture; its nested text config in TARGET_FIELDS)
    "muse-spark-4l": ("MuseSparkForConditionalGeneration", 4, 202048, 40960),
    # -- dsv4 (session 15) --
    # DeepSeek-V4 and DeepSeek-V4.1 (the same architecture, model_type deepseek_v41): the model hook's DeepSeek-V4 branch
    # (arg_groups/deepseek_v4_hook.py), swept only (DSV4_SWEEP_EXTRA)
    "deepseek-v4-8l": ("DeepseekV4ForCausalLM", 8, 129280, 65536),
    "deepseek-v41-8l": ("DeepseekV4ForCausalLM", 8, 129280, 65536),
    # -- misc (session 15) --: the model hook's Intern-S2-Mobius branch, by architecture on a Qwen3 config; swept only
    # (MISC_CHECK_CASE)
    "interns2-mobius-8l": ("InternS2MobiusForConditionalGeneration", 8, 151936, 40960),
    # GLM-5.3-Flash (CP-TP group sharing's speculative paths) by architecture on Qwen4-Exp's Qwen3-Next config
    "glm5-next-4l": ("Glm5NextForConditionalGeneration", 4, 1000, 4096),
    # -- moe (session 16) --: MiMo V2 (the model hook's MiMo V2 branch, the context-parallel hook's MiMo V2 checks) by
    # architecture on MiMo V2 Flash's config: one whose qkv_proj is fused for TP 2 (num_key_value_heads), one multimodal
    # (vision_config and audio_config: model_config.is_multimodal); swept only (MOE16_SWEEP_CASE)
    "mimo-v2-fused-8l": ("MiMoV2ForCausalLM", 8, 1000, 4096),
    "mimo-v2-mm-8l": ("MiMoV2ForCausalLM", 8, 1000, 4096),
}
DENSE_TARGETS = ("llama-32l", "qwen3-36l", "qwen3-8l-small-vocab")
# what a target's config.json has besides the common fields (model_type, experts, MLA's latent ranks, the hybrid
# SWA opt-in); the MoE / MLA ones read from the Hugging Face configs of Qwen3-30B-A3B and DeepSeek-V3, scaled down
TARGET_FIELDS = {
    "qwen3-moe-8l": {"model_type": "qwen3_moe", "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 128,
                     "decoder_sparse_step": 1, "norm_topk_prob": True, "mlp_only_layers": []},
    "deepseek-v3-8l": {"model_type": "deepseek_v3", "num_key_value_heads": 4, "kv_lora_rank": 64, "q_lora_rank": 96,
                       "qk_nope_head_dim": 32, "qk_rope_head_dim": 16, "v_head_dim": 32, "n_routed_experts": 8,
                       "n_shared_experts": 1, "num_experts_per_tok": 2, "moe_intermediate_size": 128,
                       "first_k_dense_replace": 1, "n_group": 1, "topk_group": 1, "routed_scaling_factor": 1.0,
                       "topk_method": "noaux_tc", "scoring_func": "sigmoid", "norm_topk_prob": True},
    "qwen3-hybrid-swa-8l": {"is_hybrid_swa": True, "sliding_window": 128,
                            "layer_types": ["sliding_attention", "full_attention"] * 4,
                            "hybrid_layer_pattern": [1, 0] * 4},
    # -- parallel (session 14) --: LongCat-Flash and Nemotron-H by model_type (SGLang's own config classes), MiMo V2
    # Flash by architecture on a Qwen3 config (its own model_type is unknown to 0.5.21's and older transformers)
    "longcat-flash-8l": {"model_type": "longcat_flash"},
    "nemotron-h-8l": {"model_type": "nemotron_h", "hybrid_override_pattern": "M*M*M*M*"},
    "mimo-v2-flash-8l": {"hybrid_layer_pattern": [1, 0] * 4, "sliding_window": 128},
    # Qwen4-Exp by architecture on a Qwen3-Next config (linear attention heads; qwen4_exp is unknown before 0.5.20)
    "qwen4-exp-4l": {"model_type": "qwen3_next", "layer_types": ["linear_attention", "full_attention"] * 2,
                     "full_attention_interval": 2, "linear_num_key_heads": 4, "linear_num_value_heads": 8,
                     "linear_key_head_dim": 32, "linear_value_head_dim": 32, "num_experts": 8, "num_experts_per_tok": 2,
                     "moe_intermediate_size": 128},
    # -- attn (session 14) -- Qwen3-Next's config fields, scaled down (three linear-attention layers per full one)
    "qwen3-next-8l": {"model_type": "qwen3_next", "full_attention_interval": 4, "linear_num_value_heads": 8,
                      "linear_num_key_heads": 4, "linear_key_head_dim": 32, "linear_value_head_dim": 32,
                      "linear_conv_kernel_dim": 4, "num_experts": 8, "num_experts_per_tok": 2,
                      "moe_intermediate_size": 128, "shared_expert_intermediate_size": 128, "decoder_sparse_step": 1,
                      "norm_topk_prob": True, "mlp_only_layers": []},
    # -- model (session 14) --
    # MiniCPM SALA with sparse attention: the attribute its override reads (getattr(hf_config,
    # "has_minicpm_sparse_attention"), a property of srt/configs/minicpm.py MiniCPMHybridConfig) given as a field of a
    # config every release's Transformers reads (model_type minicpm_sala is unknown to it through 0.5.18)
    "minicpm-sala-8l": {"model_type": "llama", "has_minicpm_sparse_attention": True},
    # -- moe (session 14) --
    # (Qwen3's config class, which every release's Transformers reads, with Muse Spark's architecture name: the hooks
    # read hf_config.architectures only)
    "muse-spark-4l": {"layer_types": ["full_attention"] * 4},
    # -- oldnon (session 17) --: Qwen2.5-7B-Instruct-1M's dual chunk attention settings
    "qwen2-dual-chunk-8l": {"model_type": "qwen2", "dual_chunk_attention_config": {
        "chunk_size": 262144, "local_size": 8192, "original_max_position_embeddings": 32768}},
}
# Kimi-K3 by architecture on the DeepSeek-V3 (MLA, MoE) config (its own kimi_k3 config nests a text config)
TARGET_FIELDS["kimi-k3-8l"] = dict(TARGET_FIELDS["deepseek-v3-8l"])
# -- misc (session 15) --: GLM-5.3-Flash's MLA attention on the linear-attention config (the latent ranks of
# DeepSeek-V3's scaled-down fields)
TARGET_FIELDS["glm5-next-4l"] = dict(TARGET_FIELDS["qwen4-exp-4l"], kv_lora_rank=64, q_lora_rank=96, qk_nope_head_dim=32,
                                     qk_rope_head_dim=16, v_head_dim=32)

# -- model (session 14) --
# DeepSeek V3.2 / HYV4: DeepSeek-V3's fields, with the DSA indexer's (DeepSeek-V3.2-Exp's names, scaled down); the
# kpool one pools index keys by 2 and shares each top-k over 2 layers (model_config.get_dsa_index_kpool, index_topk_freq)
_DSA_FIELDS = dict(TARGET_FIELDS["deepseek-v3-8l"], index_topk=64, index_head_dim=32, index_n_heads=4)
TARGET_FIELDS.update({"deepseek-v32-dsa-8l": _DSA_FIELDS,
                      "deepseek-v32-kpool-8l": dict(_DSA_FIELDS, index_kpool=2, index_topk_freq=2),
                      "deepseek-v32-sink-8l": dict(_DSA_FIELDS, learnable_sink=True),
                      "hyv4-8l": TARGET_FIELDS["deepseek-v3-8l"], "deepseek-v3-dsa-8l": _DSA_FIELDS})
TARGET_FIELDS.update({k: {"model_type": "llama"} for k in ("gpt-oss-8l", "llama4-8l", "gemma4-8l", "olmo2-8l", "lfm2-8l")})
TARGET_FIELDS["exaone4-8l"] = {"model_type": "llama", "sliding_window_pattern": 4}  # model_hook.py reads the pattern
# -- kv (session 14) --
TARGET_FIELDS["chunked-attn-8l"] = {"attention_chunk_size": 1024}
TARGET_FIELDS["lfm2-hybrid-8l"] = {"model_type": "lfm2", "layer_types": ["conv", "full_attention"] * 4, "conv_L_cache": 3,
                            "block_dim": 256, "block_ff_dim": 512}
TARGET_FIELDS["mla-hybrid-swa-8l"] = dict(TARGET_FIELDS["deepseek-v3-8l"], is_hybrid_swa=True, sliding_window=128)
TARGET_FIELDS["dsa-nextn-8l"] = dict(TARGET_FIELDS["deepseek-v3-8l"], index_topk=64, index_head_dim=32, index_n_heads=4)
# -- dsv4 (session 15) --
# the fields SGLang's DeepSeek-V4 config (srt/configs/deepseek_v4.py) and model_config.py read, scaled down: MLA-like
# ranks, the indexer, the sliding window (model_config reads hf_config.sliding_window) and one compress ratio per layer;
# DeepSeek-V4.1 is the same with model_type deepseek_v41 (srt/configs/deepseek_v41.py)
_DSV4_FIELDS = {"model_type": "deepseek_v4", "num_key_value_heads": 1, "kv_lora_rank": 64, "q_lora_rank": 96,
                "qk_nope_head_dim": 32, "qk_rope_head_dim": 16, "v_head_dim": 32, "n_routed_experts": 8,
                "n_shared_experts": 1, "num_experts_per_tok": 2, "moe_intermediate_size": 128, "index_topk": 64,
                "index_head_dim": 32, "index_n_heads": 4, "compress_ratios": [0] * 8, "window_size": 128,
                "sliding_window": 128}
TARGET_FIELDS["deepseek-v4-8l"] = _DSV4_FIELDS
TARGET_FIELDS["deepseek-v41-8l"] = dict(_DSV4_FIELDS, model_type="deepseek_v41")

DRAFTS = {
    # name: dict of config.json fields (besides the common ones)
    "b16": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 9, 17, 25, 33]}},
    "b8": {"block_size": 8,
           "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": [1, 9, 17]}},
    "top-only-b4": {"block_size": 4, "dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "nested-only-b12": {"dflash_config": {"block_size": 12, "mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "nested-wins-b8-top16": {"block_size": 16, "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": [1]}},
    "no-block-size": {"dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "block-size-0": {"block_size": 0, "dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "empty-layer-ids": {"block_size": 8, "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": []}},
    "layer-ids-out-of-range": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 40]}},
    "mask-outside-small-vocab": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": 9999, "target_layer_ids": [0, 1]}},
    "negative-mask": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": -1, "target_layer_ids": [0, 1]}},
    "no-layer-count": {"block_size": 16, "num_hidden_layers": None, "dflash_config": {"block_size": 16, "target_layer_ids": [0, 1]}},
    "zero-layers": {"block_size": 16, "num_hidden_layers": 0, "dflash_config": {"block_size": 16, "target_layer_ids": [0, 1]}},
    "sliding-b16": {"block_size": 16, "layer_types": ["sliding_attention"], "sliding_window": 2048,
                    "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 9]}},
    "causal-b8": {"block_size": 8, "is_causal": True, "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": [1, 9]}},
    "short-context": {"block_size": 16, "max_position_embeddings": 1024, "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    # -- specserve (session 14): sweep only (SWEEP_ONLY_DRAFTS) --
    "gemma4-assistant": {"architectures": ["Gemma4AssistantForCausalLM"]},
}
SWEEP_ONLY_DRAFTS = ("gemma4-assistant",)  # not drawn: NEXTN / EAGLE turn a Gemma4 draft into FROZEN_KV_MTP (not modelled)
# -- misc (session 15) --
# IQuest Q1 MTP drafts (srt/configs/iquest_q1.py IQuestQ1MTPConfig, model_type iquest_q1_mtp: one physical layer,
# num_draft_slots, num_target_layers) for speculative_hook.py _handle_iquest_q1_mtp_draft (0.5.21 on), on the
# iquest-q1-8l target (hidden 256, vocab 151936, 8 layers); sweep only (MODEL_CHECK_CASE)
_IQUEST_MTP = {"architectures": ["IQuestQ1MTP"], "model_type": "iquest_q1_mtp", "num_target_layers": 8,
               "num_draft_slots": 5}
DRAFTS.update({"iquest-mtp": _IQUEST_MTP, "iquest-mtp-hidden-512": dict(_IQUEST_MTP, hidden_size=512),
               "iquest-mtp-target-12l": dict(_IQUEST_MTP, num_target_layers=12)})
SWEEP_ONLY_DRAFTS += ("iquest-mtp", "iquest-mtp-hidden-512", "iquest-mtp-target-12l")


def write_models(root):
    """Write every target and drafter config.json under `root`; return {name: dir}."""
    dirs = {}
    for name, (arch, layers, vocab, ctx) in TARGETS.items():
        d = os.path.join(root, "target-" + name)
        os.makedirs(d, exist_ok=True)
        cfg = {"architectures": [arch], "model_type": "llama" if "llama" in name else "qwen3", "hidden_size": 256,
               "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
               "num_hidden_layers": layers, "vocab_size": vocab, "max_position_embeddings": ctx,
               "rms_norm_eps": 1e-6, "torch_dtype": "bfloat16", "tie_word_embeddings": False}
        cfg.update(TARGET_FIELDS.get(name, {}))
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f)
        for fname, body in TARGET_FILES.get(name, {}).items():  # -- new19 (session 17) --
            with open(os.path.join(d, fname), "w") as f:
                json.dump(body, f)
        dirs["target-" + name] = d
    for name, extra in DRAFTS.items():
        d = os.path.join(root, "draft-" + name)
        os.makedirs(d, exist_ok=True)
        cfg = {"architectures": ["DFlashDraftModel"], "model_type": "qwen3", "hidden_size": 256,
               "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
               "num_hidden_layers": 1, "vocab_size": 151936, "max_position_embeddings": 40960,
               "num_target_layers": 36, "rms_norm_eps": 1e-6, "torch_dtype": "bfloat16"}
        cfg.update(extra)
        cfg = {k: v for k, v in cfg.items() if v is not None}
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f)
        dirs["draft-" + name] = d
    return dirs


ATTN = st.sampled_from(["triton", "flashinfer", "fa3", "torch_native", "fa4"] * 2 + ["trtllm_mha"])
DRAFT_ATTN = st.sampled_from(["flashinfer", "fa3", "fa4", "triton", "trtllm_mha", "ascend", "intel_xpu", "FA3",
                              "torch_native", "bogus"])


def often_none(strategy, nones=3):
    """None `nones` times out of nones+1: most generated configurations set few flags, like real ones."""
    return st.tuples(st.sampled_from(range(nones + 1)), strategy).map(lambda t: t[1] if t[0] == 0 else None)


# check_server_args' value checks (each with a value it refuses and, where the check has one, a value
# next to it that it accepts: the boundary is compared, not only the refusal)
CHECK_SERVER_ARGS_EXTRA = {
    "gpu-id-step-0": ["--gpu-id-step", "0"], "gpu-id-step-2": ["--gpu-id-step", "2"],
    "served-name-colon": ["--served-model-name", "qwen3:8b"], "served-name-plain": ["--served-model-name", "qwen3-8b"],
    "chunked-prefill-100": ["--chunked-prefill-size", "100"], "chunked-prefill-128": ["--chunked-prefill-size", "128"],
    "tokenizer-workers-0": ["--tokenizer-worker-num", "0"], "detokenizer-workers-0": ["--detokenizer-worker-num", "0"],
    "priority-random": ["--enable-priority-scheduling", "--schedule-policy", "random"],
    "priority-lof": ["--enable-priority-scheduling", "--schedule-policy", "lof"],
    "retraction-priority": ["--retraction-policy", "priority"],
    "conservativeness-neg": ["--schedule-conservativeness", "-0.5"],
    "conservativeness-0": ["--schedule-conservativeness", "0"],
    # the node split and the pipeline micro-batch size (check_server_args' first checks)
    "nnodes-2": ["--nnodes", "2"], "pp-micro-batch-0": ["--pp-max-micro-batch-size", "0"],
    "pp-micro-batch-1": ["--pp-max-micro-batch-size", "1"],
    "moe-dense-tp-2": ["--moe-dense-tp-size", "2"], "moe-dense-tp-1": ["--moe-dense-tp-size", "1"],
    # LoRA (check_lora_server_args): an adapter slot count, the init info, the module list, the loaded count
    "lora-per-batch-0": ["--max-loras-per-batch", "0"], "lora-bare": ["--enable-lora"],
    "lora-ok": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"],
    "lora-all-plus": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all", "q_proj"],
    "lora-loaded-lt-batch": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "q_proj",
                             "--max-loaded-loras", "1", "--max-loras-per-batch", "2"],
    "lora-drain-neg": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all",
                       "--lora-drain-wait-threshold", "-1"],
    "mm-workers-neg": ["--mm-processor-worker-num", "-1"],
    # the /metrics histogram buckets (validate_buckets_rule)
    "buckets-tse-short": ["--prompt-tokens-buckets", "tse", "1", "2"],
    "buckets-tse-base-1": ["--prompt-tokens-buckets", "tse", "10", "1", "5"],
    "buckets-tse-ok": ["--prompt-tokens-buckets", "tse", "1000", "2", "10"],
    "buckets-rule-bogus": ["--generation-tokens-buckets", "bogus"],
    "buckets-default-extra": ["--generation-tokens-buckets", "default", "5"],
    "buckets-custom-dup": ["--prompt-tokens-buckets", "custom", "10", "10"],
    "buckets-custom-neg": ["--prompt-tokens-buckets", "custom", "-1", "10"],
    "buckets-custom-ok": ["--prompt-tokens-buckets", "custom", "10", "100"],
    "buckets-custom-empty": ["--prompt-tokens-buckets", "custom"],
    "buckets-custom-text": ["--prompt-tokens-buckets", "custom", "ten"],
    "buckets-tse-text": ["--generation-tokens-buckets", "tse", "a", "2", "5"],
    "buckets-tse-count-0": ["--generation-tokens-buckets", "tse", "10", "2", "0"],
    "buckets-tse-middle-0": ["--generation-tokens-buckets", "tse", "0", "2", "5"],
    "lora-overlap-unbounded": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all",
                               "--enable-lora-overlap-loading"],
    "lora-overlap-bounded": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all",
                             "--enable-lora-overlap-loading", "--max-loaded-loras", "16"],
    "export-metrics-no-dir": ["--export-metrics-to-file"],
    "quant-communications": ["--enable-quant-communications"],
    "grpc-port-same": ["--grpc-port", "30000"], "grpc-port-other": ["--grpc-port", "30001"],
    "gc-threshold-4": ["--gc-threshold", "1", "2", "3", "4"], "gc-threshold-3": ["--gc-threshold", "700", "10", "10"],
    "kv-canary-no-mode": ["--kv-canary-sweep-interval", "5"],
}

# the parallelism hooks (sglang_engine/rules_parallel.py): DCP and DWDP before the attention hook, attention DP
# sizes in the data-parallel hook, context parallelism, shared-experts TP, EPLB dispatch and elastic EP after it;
# each refused value with an accepted one next to it where the check has one
PARALLEL_CHECK_EXTRA = {
    "dcp-0": ["--dcp-size", "0"], "dcp-2-prefill-cp": ["--dcp-size", "2", "--enable-prefill-cp"],
    "dcp-backend-a2a-alone": ["--dcp-comm-backend", "a2a"],
    "dcp-fi-a2a": ["--dcp-size", "2", "--tp-size", "2", "--dcp-comm-backend", "fi_a2a"],
    "dcp-replicate-alone": ["--dcp-replicate-q-proj"],
    "dcp-replicate-default": ["--dcp-size", "2", "--tp-size", "2", "--dcp-replicate-q-proj"],
    "dcp-replicate-a2a": ["--dcp-size", "2", "--tp-size", "2", "--dcp-replicate-q-proj", "--dcp-comm-backend", "a2a"],
    "dwdp-2": ["--dwdp-size", "2"], "dwdp-2-tp2": ["--dwdp-size", "2", "--tp-size", "2"], "dwdp-1": ["--dwdp-size", "1"],
    "attn-dp-0": ["--attn-dp-size", "0"], "attn-dp-2-dp2": ["--attn-dp-size", "2", "--dp-size", "2"],
    "attn-dp-2": ["--attn-dp-size", "2"],
    "prefill-cp-no-strategy": ["--enable-prefill-cp"], "prefill-cp-zigzag": ["--enable-prefill-cp", "--cp-strategy", "zigzag"],
    "attn-cp-2": ["--attn-cp-size", "2"], "attn-cp-2-tp2": ["--attn-cp-size", "2", "--tp-size", "2"],
    "attn-cp-2-tp4-dp4": ["--attn-cp-size", "2", "--tp-size", "4", "--dp-size", "4"],
    "moe-dp-2": ["--moe-dp-size", "2"], "moe-dp-2-tp2": ["--moe-dp-size", "2", "--tp-size", "2"],
    "moe-dp-2-ep4-tp4": ["--moe-dp-size", "2", "--tp-size", "4", "--ep-size", "4"],
    "moe-dp-2-cp2-tp2": ["--moe-dp-size", "2", "--attn-cp-size", "2", "--tp-size", "2"],
    "moe-dp-2-cp2-tp4-ep4": ["--moe-dp-size", "2", "--attn-cp-size", "2", "--tp-size", "4", "--ep-size", "4"],
    "shared-experts-tp-0": ["--shared-experts-tp-size", "0"], "shared-experts-tp-1": ["--shared-experts-tp-size", "1"],
    "ep-dispatch-static": ["--ep-dispatch-algorithm", "static"], "ep-dispatch-dynamic": ["--ep-dispatch-algorithm", "dynamic"],
    "eplb-no-ep": ["--enable-eplb"], "eplb-ep2-tp2": ["--enable-eplb", "--ep-size", "2", "--tp-size", "2"],
    "elastic-join-no-backend": ["--elastic-ep-join-mode", "recover"],
    "elastic-join-recover": ["--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "recover"],
    "elastic-join-scale-rank0": ["--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale"],
    "elastic-join-offset-alone": ["--elastic-ep-join-rank-offset", "2"],
    "elastic-max-ep-no-backend": ["--max-ep-size", "4"],
    "elastic-max-ep-0": ["--elastic-ep-backend", "mooncake", "--max-ep-size", "0"],
    "elastic-max-ep-1": ["--elastic-ep-backend", "mooncake", "--max-ep-size", "1"],
    "elastic-initial-alone": ["--elastic-ep-initial-size", "2"],
    "elastic-backend-none": ["--elastic-ep-backend", "none"],
    # KV cache sharding (sglang_engine/rules_kv_shard.py)
    "kv-sharding": ["--enable-kv-cache-sharding"],
    "kv-sharding-prefill": ["--enable-kv-cache-sharding", "--disaggregation-mode", "prefill"],
    # the MoE kernel checks (sglang_engine/rules_moe.py)
    "moe-fi-cutlass-fp8": ["--moe-runner-backend", "flashinfer_cutlass", "--quantization", "fp8"],
    "moe-fi-cutlass-modelopt-fp8": ["--moe-runner-backend", "flashinfer_cutlass", "--quantization", "modelopt_fp8"],
    "moe-fi-cutlass-ep2": ["--moe-runner-backend", "flashinfer_cutlass", "--ep-size", "2"],
    "moe-fi-cutlass-ep2-tp2": ["--moe-runner-backend", "flashinfer_cutlass", "--ep-size", "2", "--tp-size", "2"],
    "moe-cutlass-fp8-ep2": ["--moe-runner-backend", "cutlass", "--quantization", "fp8", "--ep-size", "2", "--tp-size", "2"],
    "elastic-eplb-algorithm": ["--elastic-ep-backend", "mooncake", "--enable-eplb", "--eplb-algorithm", "deepseek",
                               "--ep-size", "2", "--tp-size", "2"],
}
# -- parallel (session 14) --
# DWDP past its TP check, attention CP / MoE DP topology and Aiter fusion, and the elastic EP scale-up checks
# (--max-ep-size above --tp-size: _check_elastic_scaling), each refusal in SGLang's order with the accepted
# configuration at the end; PARALLEL_CHECK_CASE: the entries also swept without speculation (on the DFLASH base),
# where the speculative checks would answer first
_ELASTIC = ["--elastic-ep-backend", "mooncake", "--max-ep-size", "4"]
_ELASTIC_JOIN = _ELASTIC + ["--elastic-ep-join-mode", "scale", "--node-rank", "1", "--elastic-ep-join-rank-offset", "2"]
_ELASTIC_DP = _ELASTIC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
PARALLEL_CHECK_EXTRA.update({
    "dwdp-2-tp2-decode": ["--dwdp-size", "2", "--tp-size", "2", "--disaggregation-mode", "decode"],
    "dwdp-2-tp2-eplb": ["--dwdp-size", "2", "--tp-size", "2", "--enable-eplb"],
    "dwdp-2-tp2-pp2": ["--dwdp-size", "2", "--tp-size", "2", "--pp-size", "2"],
    "dwdp-2-tp2-tbo": ["--dwdp-size", "2", "--tp-size", "2", "--enable-two-batch-overlap"],
    "attn-cp-2-tp2-dp-attn2": ["--attn-cp-size", "2", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "attn-cp-2-tp2-aiter": ["--attn-cp-size", "2", "--tp-size", "2", "--enable-aiter-allreduce-fusion"],
    "moe-dp-2-tp2-aiter": ["--moe-dp-size", "2", "--tp-size", "2", "--enable-aiter-allreduce-fusion"],
    "moe-dp-2-tp8-ep2": ["--moe-dp-size", "2", "--tp-size", "8", "--ep-size", "2"],
    "elastic-scale-cp-0": _ELASTIC + ["--attn-cp-size", "0"],
    "elastic-scale-max-ep-3": _ELASTIC + ["--max-ep-size", "3", "--tp-size", "2"],
    "elastic-scale-tp2": _ELASTIC + ["--tp-size", "2"],
    "elastic-scale-timeout-0": _ELASTIC + ["--elastic-ep-scale-timeout", "0"],
    "elastic-scale-tokenizers-2": _ELASTIC + ["--tokenizer-worker-num", "2"],
    "elastic-scale-ray": _ELASTIC + ["--use-ray"],
    "elastic-scale-backup": _ELASTIC + ["--enable-elastic-expert-backup"],
    "elastic-join-no-initial": _ELASTIC_JOIN,
    "elastic-join-initial-4": _ELASTIC_JOIN + ["--elastic-ep-initial-size", "4"],
    "elastic-join-over-max": _ELASTIC_JOIN + ["--elastic-ep-initial-size", "2", "--elastic-ep-join-rank-offset", "4"],
    "elastic-join-dense-tp": _ELASTIC_JOIN + ["--elastic-ep-initial-size", "2"],
    "elastic-join-initial-0": _ELASTIC_JOIN + ["--elastic-ep-initial-size", "0", "--moe-dense-tp-size", "1"],
    "elastic-scale-initial-2": _ELASTIC + ["--elastic-ep-initial-size", "2"],
    "elastic-scale-load-balance": _ELASTIC + ["--load-balance-method", "total_requests"],
    "elastic-scale-nixl-backend": ["--elastic-ep-backend", "nixl", "--max-ep-size", "4"],
    "elastic-scale-dcp2": _ELASTIC + ["--dcp-size", "2"],
    "elastic-scale-decode-breakable": _ELASTIC + ["--cuda-graph-backend-decode", "breakable"],
    "elastic-scale-prefill-breakable": _ELASTIC + ["--cuda-graph-backend-prefill", "breakable"],
    "elastic-scale-cpu": _ELASTIC + ["--device", "cpu"],
    "elastic-scale": _ELASTIC,
    "elastic-scale-embedding": _ELASTIC + ["--is-embedding"],
    "elastic-scale-dllm": _ELASTIC + ["--dllm-algorithm", "LowConfidence"],
    "elastic-scale-encoder": _ELASTIC + ["--encoder-only"],
    "elastic-scale-hooks": _ELASTIC + ["--forward-hooks", '[{"name": "h"}]'],
    "elastic-scale-pdmux": _ELASTIC + ["--enable-pdmux"],
    "elastic-scale-no-graph": _ELASTIC + ["--disable-cuda-graph"],
    "elastic-scale-dp-attn": _ELASTIC_DP,
    "elastic-scale-cp2": _ELASTIC + ["--max-ep-size", "8", "--tp-size", "4", "--dp-size", "2", "--enable-dp-attention",
                                     "--enable-dp-lm-head", "--attn-cp-size", "2"],
    "elastic-scale-lm-head": _ELASTIC_DP + ["--enable-dp-lm-head"],
    "elastic-scale-ep2": _ELASTIC_DP + ["--enable-dp-lm-head", "--ep-size", "2"],
    "elastic-scale-nixl": _ELASTIC_DP + ["--enable-dp-lm-head", "--ep-size", "2", "--moe-a2a-backend", "nixl"],
    "elastic-scale-nixl-no-graph": _ELASTIC_DP + ["--enable-dp-lm-head", "--ep-size", "2", "--moe-a2a-backend", "nixl",
                                                  "--disable-cuda-graph"],
    # --load-format expert_pack: refused on every target here (no Kimi-K3 / DeepSeek-V4 config, no pack file)
    "expert-pack": ["--load-format", "expert_pack"],
    # the context-parallel hook's model checks, on their targets (PARALLEL_CHECK_CASE)
    "elastic-join-offset-neg": _ELASTIC_JOIN + ["--elastic-ep-join-rank-offset", "-1"],
    "cp-longcat": ["--attn-cp-size", "2", "--tp-size", "2", "--enable-prefill-cp", "--cp-strategy", "zigzag"],
    "cp-longcat-no-prefill-cp": ["--attn-cp-size", "2", "--tp-size", "2"],
    "cp-nemotron": ["--attn-cp-size", "2", "--tp-size", "2"],
    "cp-mimo-interleave": ["--enable-prefill-cp", "--cp-strategy", "interleave"],
    "cp-mimo-no-strategy": ["--enable-prefill-cp"],
    "cp-mimo-zigzag": ["--enable-prefill-cp", "--cp-strategy", "zigzag"],
    # CP-TP group sharing (Qwen4-Exp, on a GPU host: its Mamba layers), in the hook's order, the accepted one last
    "cp-tp-share-tp4": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "4"],
    "cp-tp-share-interleave": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2",
                               "--tp-size", "2"],
    "cp-tp-share-spec": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2"],
    "cp-tp-share-mixed": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2",
                          "--enable-mixed-chunk"],
    "cp-tp-share-staging": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2",
                            "--disaggregation-mode", "prefill"],
    "cp-tp-share-tp8": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "8", "--tp-size", "8"],
    "cp-tp-share": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2"],
    # --shared-experts-tp-size on Kimi-K3 without an all-to-all backend (on SM100: MLA on a GPU host)
    "shared-experts-tp-kimi": ["--shared-experts-tp-size", "1"],
})
_PARALLEL_NO_SPEC = {"algorithm": None, "draft": None, "num_draft_tokens": None, "num_steps": None, "eagle_topk": None}
PARALLEL_CHECK_CASE = {k: _PARALLEL_NO_SPEC for k in (
    "dwdp-2-tp2", "dwdp-2-tp2-pp2", "dwdp-2-tp2-tbo", "elastic-scale", "elastic-scale-embedding", "elastic-scale-dllm",
    "elastic-scale-encoder", "elastic-scale-hooks", "elastic-scale-pdmux", "elastic-scale-no-graph",
    "elastic-scale-dp-attn", "elastic-scale-cp2", "elastic-scale-lm-head", "elastic-scale-ep2", "elastic-scale-nixl",
    "elastic-scale-nixl-no-graph")}
PARALLEL_CHECK_CASE.update({
    "cp-longcat": dict(_PARALLEL_NO_SPEC, target="longcat-flash-8l"),
    "cp-longcat-no-prefill-cp": dict(_PARALLEL_NO_SPEC, target="longcat-flash-8l"),
    # Nemotron-H's Mamba layers need a GPU host (the Mamba hook's extra_buffer check, before this one)
    "cp-nemotron": dict(_PARALLEL_NO_SPEC, target="nemotron-h-8l", gpu="sm120", needs_override=True),
    "cp-mimo-interleave": dict(_PARALLEL_NO_SPEC, target="mimo-v2-flash-8l"),
    "cp-mimo-no-strategy": dict(_PARALLEL_NO_SPEC, target="mimo-v2-flash-8l"),
    "cp-mimo-zigzag": dict(_PARALLEL_NO_SPEC, target="mimo-v2-flash-8l"),
})
_QWEN4 = dict(_PARALLEL_NO_SPEC, target="qwen4-exp-4l", gpu="sm120", needs_override=True)
PARALLEL_CHECK_CASE.update({k: _QWEN4 for k in (
    "cp-tp-share-tp4", "cp-tp-share-interleave", "cp-tp-share-mixed", "cp-tp-share-tp8", "cp-tp-share")})
PARALLEL_CHECK_CASE["cp-tp-share-spec"] = {"target": "qwen4-exp-4l", "gpu": "sm120", "needs_override": True}  # DFLASH
PARALLEL_CHECK_CASE["cp-tp-share-staging"] = dict(_QWEN4, env={"SGLANG_DISAGG_STAGING_BUFFER": "1"})
PARALLEL_CHECK_CASE["shared-experts-tp-kimi"] = dict(_PARALLEL_NO_SPEC, target="kimi-k3-8l", gpu="sm100",
                                                     needs_override=True)

# the MoE kernel and a2a checks (sglang_engine/rules_moe.py) and the architecture-only flags (rules_model.py): each
# entry refused whatever the target and platform draw (the accepted paths of mori, pplx, DeepEP v2 and FlashInfer A2A
# end in per-rank token budgets the engine does not model), with an accepted neighbour where the check has one; an
# entry pins the topology it needs (the flags come after the parallel dimensions, the last value wins).
# MOE_CHECK_CASE: what an entry changes in its sweep case (a GPU)
_DP_ATTN_TP2 = ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
MOE_CHECK_EXTRA = {
    "cutedsl-bf16": ["--moe-runner-backend", "flashinfer_cutedsl"],
    "cutedsl-fp4": ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4"],
    "cutedsl-fp4-ep2": ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--ep-size", "2",
                        "--tp-size", "1"],
    "cutedsl-fp4-mooncake": ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4",
                             "--moe-a2a-backend", "mooncake"],
    "cutedsl-fp4-deepep-normal": ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4",
                                  "--moe-a2a-backend", "deepep", "--deepep-mode", "normal"],
    # (the per-token NVFP4 check's env, SGLANG_FLASHINFER_NVFP4_PER_TOKEN_ACTIVATION, is one the engine's policy
    # refuses as a secret-looking name: not presented)
    "cutedsl-fp4-deepep": ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4",
                           "--moe-a2a-backend", "deepep"],
    "trtllm-awq": ["--moe-runner-backend", "flashinfer_trtllm", "--quantization", "awq"],
    "trtllm-fp8": ["--moe-runner-backend", "flashinfer_trtllm", "--quantization", "fp8"],
    "sgl-trtllm-awq": ["--moe-runner-backend", "experimental_sgl_trtllm", "--quantization", "awq"],
    "routed-awq": ["--moe-runner-backend", "flashinfer_trtllm_routed", "--quantization", "awq"],
    "nvfp4-online": ["--quantization", "nvfp4_online"],
    "nvfp4-online-triton": ["--quantization", "nvfp4_online", "--moe-runner-backend", "triton"],  # SM100: the runner
    "mxfp8-triton": ["--quantization", "mxfp8", "--moe-runner-backend", "triton"],
    "mxfp8-cutlass-ep2": ["--quantization", "mxfp8", "--moe-runner-backend", "cutlass", "--ep-size", "2",
                          "--tp-size", "2"],
    "fp4-ep2": ["--quantization", "modelopt_fp4", "--ep-size", "2", "--tp-size", "1"],
    "fi-dispatch-alone": ["--flashinfer-a2a-dispatch-type", "bf16"],
    "fi-a2a-tp2": ["--moe-a2a-backend", "flashinfer", "--tp-size", "2", "--dp-size", "1"],
    "fi-a2a-dp-attn": ["--moe-a2a-backend", "flashinfer"] + _DP_ATTN_TP2,
    "fi-a2a-dispatch-mxfp8": ["--moe-a2a-backend", "flashinfer", "--flashinfer-a2a-dispatch-type", "mxfp8"] + _DP_ATTN_TP2,
    "fi-a2a-dispatch-mxfp8-cutlass": ["--moe-a2a-backend", "flashinfer", "--flashinfer-a2a-dispatch-type", "mxfp8",
                                      "--quantization", "mxfp8", "--moe-runner-backend", "cutlass"] + _DP_ATTN_TP2,
    "fi-a2a-dispatch-nvfp4": ["--moe-a2a-backend", "flashinfer", "--flashinfer-a2a-dispatch-type", "nvfp4"] + _DP_ATTN_TP2,
    "fi-megamoe": ["--moe-a2a-backend", "flashinfer_megamoe"],
    "fi-megamoe-mxfp8": ["--moe-a2a-backend", "flashinfer_megamoe", "--quantization", "mxfp8", "--tp-size", "2",
                         "--dp-size", "1"],
    "fi-megamoe-mxfp8-dp-attn": ["--moe-a2a-backend", "flashinfer_megamoe", "--quantization", "mxfp8"] + _DP_ATTN_TP2,
    "fi-megamoe-mxfp8-dp-attn-cutlass": ["--moe-a2a-backend", "flashinfer_megamoe", "--quantization", "mxfp8",
                                         "--moe-runner-backend", "cutlass"] + _DP_ATTN_TP2,
    "megamoe-tbo": ["--moe-a2a-backend", "megamoe", "--enable-two-batch-overlap"],
    "deepep-v2-triton": ["--moe-a2a-backend", "deepep_v2", "--moe-runner-backend", "triton"],
    "deepep-v2-tbo": ["--moe-a2a-backend", "deepep_v2", "--enable-two-batch-overlap"],
    "deepep-v2-fusion": ["--moe-a2a-backend", "deepep_v2", "--enforce-shared-experts-fusion"],
    "pplx-normal": ["--moe-a2a-backend", "pplx", "--deepep-mode", "normal"],
    "pplx-no-dp": ["--moe-a2a-backend", "pplx", "--dp-size", "1"],
    "pplx-triton": ["--moe-a2a-backend", "pplx", "--moe-runner-backend", "triton"] + _DP_ATTN_TP2,
    "eplb-deepep-tp2": ["--enable-eplb", "--moe-a2a-backend", "deepep", "--tp-size", "2"],
    "eplb-mooncake-tp1": ["--enable-eplb", "--moe-a2a-backend", "mooncake", "--tp-size", "1"],
    "dsa-cache-layer-split": ["--enable-dsa-cache-layer-split"],
    "cp-decode-attn-tp": ["--enable-cp-decode-attn-tp"],
}
MOE_CHECK_CASE = {
    "fp4-ep2": {"gpu": "sm120"},  # modelopt_fp4 resolves the runner to flashinfer_cutlass on SM120
}
# the targets each MOE_CHECK_EXTRA entry is swept on besides a base's own (MoE-only architecture lists)
MOE_SWEEP_TARGETS = ("qwen3-moe-8l", "deepseek-v3-8l")

# the SSL flags' pairing (SGLang checks it before the files exist: a path given alone never reaches the
# file check, which judges the host's files and is not compared)
SSL_EXTRA = {
    "keyfile-only": ["--ssl-keyfile", "/nonexistent/key.pem"], "certfile-only": ["--ssl-certfile", "/nonexistent/c.pem"],
    "ca-only": ["--ssl-ca-certs", "/nonexistent/ca.pem"], "password-only": ["--ssl-keyfile-password", "pw"],
    "refresh-only": ["--enable-ssl-refresh"],
}


def _uno_tree(draft_tokens, topk, steps=None, *more):
    """A UNO tree-mode argv (Q draft tokens, K topk, steps) with its LoRA path, then `more`."""
    argv = ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", str(draft_tokens),
            "--speculative-eagle-topk", str(topk)]
    if steps is not None:
        argv += ["--speculative-num-steps", str(steps)]
    return argv + list(more)


# flag-only checks of validation_hook.py (sglang_engine/rules_validation.py) and speculative_hook.py (UNO: rules_speculative.py): a refused value and, where the check has
# one, an accepted one next to it. HOOK_CHECK_CASE: what an entry changes in the case besides its flags (the aux
# hidden-state capture names its convention by the algorithm and takes no draft; an env the check reads)
# -- moe (session 14) --: argv pieces of the layernorm SP / MoE environment entries of HOOK_CHECK_EXTRA
_MUSE_MEGAMOE = ["--enable-layernorm-sp", "--enable-megamoe-for-layernorm-sp", "--tp-size", "4", "--ep-size", "4",
                 "--moe-runner-backend", "flashinfer_trtllm"]
_MUSE_FP4 = ["--enable-layernorm-sp", "--tp-size", "4", "--quantization", "modelopt_fp4", "--moe-a2a-backend",
             "flashinfer", "--moe-runner-backend", "flashinfer_trtllm"]
_FI_A2A = ["--moe-a2a-backend", "flashinfer", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
# (no prefill token budget: 0.5.13-0.5.21's CuteDSL A2A dispatch budget, validate_cutedsl_a2a_token_budget, is skipped)
_CUTEDSL_FP4 = ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--max-prefill-tokens", "0"]
_FI_MEGAMOE = ["--moe-a2a-backend", "flashinfer_megamoe", "--quantization", "mxfp8", "--tp-size", "2", "--dp-size", "2",
               "--enable-dp-attention"]
HOOK_CHECK_EXTRA = {
    "pd-interval-neg": ["--prefill-decode-interval", "-1"], "pd-interval-0": ["--prefill-decode-interval", "0"],
    "pd-interval-min-bs-neg": ["--prefill-decode-interval-min-bs", "-1"],
    "response-store-pd": ["--enable-response-store", "--disaggregation-mode", "decode"],
    "response-store": ["--enable-response-store"],
    "sampling-mask-0": ["--sampling-mask-max-tokens", "0"], "sampling-mask-8": ["--sampling-mask-max-tokens", "8"],
    "aux-layer-ids-alone": ["--return-aux-hidden-state-layer-ids", "1"],
    "aux-no-algorithm": ["--enable-return-aux-hidden-states"],
    "aux-with-draft": ["--enable-return-aux-hidden-states"],
    "aux-pp2": ["--enable-return-aux-hidden-states", "--pp-size", "2"],
    "aux-dflash-no-ids": ["--enable-return-aux-hidden-states"],
    "aux-dflash-ok": ["--enable-return-aux-hidden-states", "--return-aux-hidden-state-layer-ids", "1", "3"],
    "aux-ids-neg": ["--enable-return-aux-hidden-states", "--return-aux-hidden-state-layer-ids", "1", "-1"],
    "aux-ids-dup": ["--enable-return-aux-hidden-states", "--return-aux-hidden-state-layer-ids", "2", "2"],
    "aux-eagle3-ok": ["--enable-return-aux-hidden-states"],
    "cuda-graph-padding-compile": ["--disable-cuda-graph-padding", "--enable-torch-compile"],
    "cuda-graph-padding": ["--disable-cuda-graph-padding"],
    "pp2-min-free-slots": ["--pp-size", "2", "--min-free-slots-delay", "1"],
    "model-impl-mindspore": ["--model-impl", "mindspore"],
    "load-format-instanttensor": ["--load-format", "instanttensor"],
    "custom-labels-no-header": ["--tokenizer-metrics-allowed-custom-labels", "team",
                                "--tokenizer-metrics-custom-labels-header", ""],
    "custom-labels": ["--tokenizer-metrics-allowed-custom-labels", "team"],
    "two-batch-overlap": ["--enable-two-batch-overlap"],
    "quant-comm-tp2": ["--tp-size", "2", "--enable-quant-communications"],
    "sampling-intel-xpu": ["--sampling-backend", "intel_xpu"], "sampling-pytorch": ["--sampling-backend", "pytorch"],
    "mm-io-workers-neg": ["--mm-io-worker-num", "-1"],
    "chunked-page-16": ["--page-size", "16", "--chunked-prefill-size", "100"],
    "watermark-cpu": ["--enable-watermark", "--device", "cpu"],
    "watermark-logit-processor": ["--enable-watermark", "--enable-custom-logit-processor"],
    "watermark-pd": ["--enable-watermark", "--disaggregation-mode", "prefill"],
    "watermark-rejection": ["--enable-watermark", "--speculative-use-rejection-sampling"],
    "watermark-rust-server": ["--enable-watermark"],
    "watermark-pp-spec": ["--enable-watermark", "--pp-size", "2"],
    # UNO (_handle_uno; the case is UNO without a draft, see HOOK_CHECK_CASE), in its order
    "uno-cpu": ["--device", "cpu"], "uno-draft": [], "uno-no-lora": [],
    "uno-deterministic": ["--uno-lora-path", "/nonexistent/uno", "--enable-deterministic-inference"],
    "uno-strict-thinking": ["--uno-lora-path", "/nonexistent/uno", "--enable-strict-thinking"],
    "uno-no-width": ["--uno-lora-path", "/nonexistent/uno"],
    "uno-topk-0": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4",
                   "--speculative-eagle-topk", "0"],
    "uno-tree-no-steps": _uno_tree(4, 2), "uno-tree-steps-0": _uno_tree(4, 2, 0), "uno-tree-q-lt-f": _uno_tree(2, 2, 3),
    "uno-tree-q-200": _uno_tree(200, 2, 3), "uno-tree-qk": _uno_tree(100, 32, 3), "uno-tree-capacity": _uno_tree(8, 2, 2),
    "uno-tree-parent-abi": _uno_tree(8, 2, 3), "uno-tree-pdmux": _uno_tree(6, 2, 3, "--enable-pdmux"),
    "uno-tree-tbo": _uno_tree(6, 2, 3, "--enable-two-batch-overlap"),
    "uno-tree-threshold": _uno_tree(6, 2, 3, "--speculative-accept-threshold-single", "0.5"),
    "uno-tree-fa3": _uno_tree(6, 2, 3, "--attention-backend", "fa3"),
    "uno-tp2": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4", "--tp-size", "2"],
    "uno-lora": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4", "--enable-lora",
                 "--max-lora-rank", "8", "--lora-target-modules", "all"],
    "uno-rejection": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4",
                      "--speculative-use-rejection-sampling"],
    "uno-triton": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4"],
    "uno-fa3": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4", "--attention-backend",
                "fa3", "--enable-mixed-chunk", "--speculative-num-steps", "3"],
    # -- moe (session 14) --
    # --enable-layernorm-sp past the Qwen3 checks (no speculation): attention DP, pipeline parallelism
    "lsp-tp2-dp-attn": ["--enable-layernorm-sp", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "lsp-tp2-pp2": ["--enable-layernorm-sp", "--tp-size", "2", "--pp-size", "2"],
    # Muse Spark (0.5.23, on the muse-spark-4l target): TP/EP, weights, a2a backend, runner; MegaMoE prefill (mixed
    # chunks, the per-rank token budget, the breakable prefill graph); FlashInfer A2A's BF16 dispatch env
    "lsp-muse-tp2": ["--enable-layernorm-sp", "--tp-size", "2"],
    "lsp-muse-bf16": ["--enable-layernorm-sp", "--tp-size", "4", "--ep-size", "4"],
    "lsp-muse-fp4-no-a2a": ["--enable-layernorm-sp", "--tp-size", "4", "--ep-size", "4", "--quantization", "modelopt_fp4"],
    "lsp-muse-megamoe-deepep": _MUSE_MEGAMOE[:6] + ["--moe-a2a-backend", "deepep"],
    "lsp-muse-megamoe-auto-runner": _MUSE_MEGAMOE[:6],
    "lsp-muse-megamoe": _MUSE_MEGAMOE, "lsp-muse-megamoe-dflash": _MUSE_MEGAMOE,
    "lsp-muse-megamoe-mixed": _MUSE_MEGAMOE + ["--enable-mixed-chunk"],
    "lsp-muse-megamoe-chunk-fit": _MUSE_MEGAMOE + ["--chunked-prefill-size", "32768"],
    "lsp-muse-megamoe-chunk-over": _MUSE_MEGAMOE + ["--chunked-prefill-size", "32769"],
    "lsp-muse-megamoe-no-budget": _MUSE_MEGAMOE + ["--chunked-prefill-size", "-1", "--max-prefill-tokens", "0"],
    "lsp-muse-megamoe-breakable-unchunked": _MUSE_MEGAMOE + ["--cuda-graph-backend-prefill", "breakable",
                                                             "--chunked-prefill-size", "-1"],
    "lsp-muse-megamoe-breakable-small-bs": _MUSE_MEGAMOE + ["--cuda-graph-backend-prefill", "breakable",
                                                            "--cuda-graph-bs-prefill", "512", "1024",
                                                            "--chunked-prefill-size", "4096"],
    "lsp-muse-megamoe-breakable-bs": _MUSE_MEGAMOE + ["--cuda-graph-backend-prefill", "breakable",
                                                      "--cuda-graph-bs-prefill", "512", "4096",
                                                      "--chunked-prefill-size", "4096"],
    "lsp-muse-fp4": _MUSE_FP4, "lsp-muse-fp4-bf16-dispatch": _MUSE_FP4,
    "lsp-muse-fp4-dp-attn": _MUSE_FP4 + ["--dp-size", "2", "--enable-dp-attention"],
    "lsp-muse-fp4-dispatch-type": _MUSE_FP4 + ["--flashinfer-a2a-dispatch-type", "bf16"],
    # the FlashInfer A2A and MegaMOE environment checks (moe_hook.py, on the Qwen3-MoE target; HOOK_CHECK_CASE's env)
    "moe-fi-dispatch-env": _FI_A2A + ["--flashinfer-a2a-dispatch-type", "bf16"],
    "moe-cutedsl-w4a16-nvfp4-env": _FI_A2A + _CUTEDSL_FP4,
    "moe-cutedsl-w4a16-dispatch-nvfp4": _FI_A2A + _CUTEDSL_FP4 + ["--flashinfer-a2a-dispatch-type", "nvfp4"],
    "moe-cutedsl-w4a16-dispatch-bf16": _FI_A2A + _CUTEDSL_FP4 + ["--flashinfer-a2a-dispatch-type", "bf16"],
    "moe-fi-megamoe-w4a16-combine": _FI_MEGAMOE, "moe-fi-megamoe-combine-bogus": _FI_MEGAMOE,
    "moe-fi-megamoe-combine-fc2": _FI_MEGAMOE, "moe-fi-megamoe-w4a16-fp16": _FI_MEGAMOE + ["--dtype", "float16"],
    # the a2a backends' per-rank token budgets on a given chunked prefill size (the megamoe ones on an SM90 host)
    "moe-megamoe-sm120": ["--moe-a2a-backend", "megamoe"], "moe-megamoe-sm90": ["--moe-a2a-backend", "megamoe"],
    "moe-megamoe-unchunked": ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "-1"],
    "moe-megamoe-chunk-8192": ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "8192"],
    "moe-megamoe-chunk-8193": ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "8193"],
    "moe-megamoe-dp-chunk-2": ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "2", "--tp-size", "2",
                               "--dp-size", "2", "--enable-dp-attention"],
    "moe-mori-chunk-8192": ["--moe-a2a-backend", "mori", "--chunked-prefill-size", "8192"],
    "moe-mori-chunk-4096": ["--moe-a2a-backend", "mori", "--chunked-prefill-size", "4096"],
    "moe-pplx-chunk-512": ["--moe-a2a-backend", "pplx", "--chunked-prefill-size", "512"] + _FI_A2A[2:],
    "moe-pplx-chunk-256": ["--moe-a2a-backend", "pplx", "--chunked-prefill-size", "256"] + _FI_A2A[2:],
    "moe-fi-a2a-unchunked": _FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "-1"],
    "moe-fi-a2a-chunked": _FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "4096"],
    # DeepEP v2 (on the Qwen3-MoE target): direct mode across nodes, the draft backend, the prefill dispatch budget;
    # CuTe DSL per-token NVFP4 activation (nvfp4_online, SM100) with DeepEP
    "moe-deepep-v2-nnodes-2": ["--moe-a2a-backend", "deepep_v2", "--nnodes", "2", "--chunked-prefill-size", "128"],
    "moe-deepep-v2-draft": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128"],
    "moe-deepep-v2-draft-deepep": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128",
                                   "--speculative-moe-a2a-backend", "deepep"],
    "moe-deepep-v2-chunk-129": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "129"],
    "moe-deepep-v2-chunk-128": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128"],
    "moe-deepep-v2-unchunked": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "-1"],
    "moe-cutedsl-nvfp4-online-deepep": ["--quantization", "nvfp4_online", "--moe-runner-backend", "flashinfer_cutedsl",
                                        "--moe-a2a-backend", "deepep"],
    # the decode graph budgets of MegaMoE and DeepEP v2 on a given decode graph batch size (no request cap)
    "moe-megamoe-decode-8200": ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "4096",
                                "--cuda-graph-max-bs-decode", "8200"],
    "moe-megamoe-decode-8192": ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "4096",
                                "--cuda-graph-max-bs-decode", "8192"],
    "moe-deepep-v2-decode-200": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128",
                                 "--cuda-graph-max-bs-decode", "200"],
    "moe-deepep-v2-decode-128": ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128",
                                 "--cuda-graph-max-bs-decode", "128"],
    "moe-fi-a2a-decode-5000": _FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "1024",
                                         "--cuda-graph-max-bs-decode", "5000"],
    "moe-fi-a2a-decode-4096": _FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "1024",
                                         "--cuda-graph-max-bs-decode", "4096"],
}
_NO_SPEC = {"algorithm": None, "draft": None, "num_draft_tokens": None, "num_steps": None, "eagle_topk": None}
HOOK_CHECK_CASE = {
    "aux-no-algorithm": _NO_SPEC, "aux-pp2": dict(_NO_SPEC, algorithm="EAGLE3"),
    "aux-dflash-no-ids": dict(_NO_SPEC, algorithm="DFLASH"), "aux-dflash-ok": dict(_NO_SPEC, algorithm="dflash"),
    "aux-ids-neg": dict(_NO_SPEC, algorithm="DFLASH"), "aux-ids-dup": dict(_NO_SPEC, algorithm="EAGLE3"),
    "aux-eagle3-ok": dict(_NO_SPEC, algorithm="EAGLE3"), "aux-with-draft": {"algorithm": "EAGLE3"},
    "pp2-min-free-slots": _NO_SPEC, "watermark-rust-server": {"env": {"SGLANG_RUST_SERVER": "1"}},
    "watermark-pp-spec": dict(_NO_SPEC, algorithm="EAGLE", draft="b16", env={"SGLANG_ENABLE_PP_SPEC": "1"}),
    "watermark-rejection": {"algorithm": "EAGLE3", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4},
}
# -- moe (session 14) --
_MUSE = dict(_NO_SPEC, target="muse-spark-4l")
_MOE_ENV = dict(_NO_SPEC, target="qwen3-moe-8l")
_W4A16 = {"SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16": "1"}
HOOK_CHECK_CASE.update({k: _MUSE for k in ("lsp-muse-tp2", "lsp-muse-bf16", "lsp-muse-fp4-no-a2a", "lsp-muse-megamoe-deepep",
                                           "lsp-muse-megamoe-auto-runner", "lsp-muse-megamoe", "lsp-muse-megamoe-mixed",
                                           "lsp-muse-megamoe-chunk-fit", "lsp-muse-megamoe-chunk-over",
                                           "lsp-muse-megamoe-no-budget", "lsp-muse-megamoe-breakable-unchunked",
                                           "lsp-muse-megamoe-breakable-small-bs", "lsp-muse-megamoe-breakable-bs",
                                           "lsp-muse-fp4")})
HOOK_CHECK_CASE.update({
    "lsp-tp2-dp-attn": _NO_SPEC, "lsp-tp2-pp2": _NO_SPEC,
    "lsp-muse-megamoe-dflash": {"target": "muse-spark-4l"},  # the base's speculation: DFLASH passes, EAGLE3 does not
    "lsp-muse-fp4-bf16-dispatch": dict(_MUSE, env={"SGLANG_MOE_NVFP4_DISPATCH": "0"}),
    "lsp-muse-fp4-dp-attn": dict(_MUSE, env={"SGLANG_MOE_NVFP4_DISPATCH": "0"}),
    "lsp-muse-fp4-dispatch-type": dict(_MUSE, env={"SGLANG_MOE_NVFP4_DISPATCH": "0"}),
    "moe-fi-dispatch-env": dict(_MOE_ENV, env={"SGLANG_MOE_NVFP4_DISPATCH": "0"}),
    "moe-cutedsl-w4a16-nvfp4-env": dict(_MOE_ENV, env=dict(_W4A16, SGLANG_MOE_NVFP4_DISPATCH="1")),
    "moe-cutedsl-w4a16-dispatch-nvfp4": dict(_MOE_ENV, env=_W4A16),
    "moe-cutedsl-w4a16-dispatch-bf16": dict(_MOE_ENV, env=_W4A16),
    "moe-fi-megamoe-w4a16-combine": dict(_MOE_ENV, env=dict(_W4A16, SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE="mxfp8")),
    "moe-fi-megamoe-combine-bogus": dict(_MOE_ENV, env={"SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE": "fp32"}),
    "moe-fi-megamoe-combine-fc2": dict(_MOE_ENV, env={"SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE": "mxfp8",
                                                      "SGLANG_FLASHINFER_MEGAMOE_IN_KERNEL_FC2_REDUCE": "1"}),
    "moe-fi-megamoe-w4a16-fp16": dict(_MOE_ENV, env=_W4A16),
    "moe-megamoe-sm120": dict(_MOE_ENV, gpu="sm120"),
})
HOOK_CHECK_CASE.update({k: dict(_MOE_ENV, gpu="sm90") for k in (
    "moe-megamoe-sm90", "moe-megamoe-unchunked", "moe-megamoe-chunk-8192", "moe-megamoe-chunk-8193",
    "moe-megamoe-dp-chunk-2")})
HOOK_CHECK_CASE.update({k: _MOE_ENV for k in ("moe-mori-chunk-8192", "moe-mori-chunk-4096", "moe-pplx-chunk-512",
                                              "moe-pplx-chunk-256", "moe-fi-a2a-unchunked", "moe-fi-a2a-chunked")})
HOOK_CHECK_CASE.update({k: _MOE_ENV for k in ("moe-deepep-v2-nnodes-2", "moe-deepep-v2-chunk-129", "moe-deepep-v2-chunk-128",
                                              "moe-deepep-v2-unchunked")})
HOOK_CHECK_CASE.update({
    # the base's speculation (DFLASH, EAGLE3) drafts with the target's a2a backend unless told otherwise
    "moe-deepep-v2-draft": {"target": "qwen3-moe-8l"}, "moe-deepep-v2-draft-deepep": {"target": "qwen3-moe-8l"},
    "moe-cutedsl-nvfp4-online-deepep": dict(_MOE_ENV, gpu="sm100"),
    "moe-megamoe-decode-8200": dict(_MOE_ENV, gpu="sm90", max_running_requests=None),
    "moe-megamoe-decode-8192": dict(_MOE_ENV, gpu="sm90", max_running_requests=None),
    "moe-deepep-v2-decode-200": dict(_MOE_ENV, max_running_requests=None),
    "moe-deepep-v2-decode-128": dict(_MOE_ENV, max_running_requests=None),
    "moe-fi-a2a-decode-5000": dict(_MOE_ENV, max_running_requests=None),
    "moe-fi-a2a-decode-4096": dict(_MOE_ENV, max_running_requests=None),
})
# sweep entries only (not drawn by hypothesis: they need their case's target and env)
HOOK_SWEEP_ONLY = tuple(k for k in HOOK_CHECK_EXTRA if k.startswith(("lsp-", "moe-")))
# NGRAM (_handle_ngram) and the EAGLE family's STANDALONE / block verification (speculative_hook.py)
HOOK_CHECK_EXTRA.update({
    "ngram": [], "ngram-cpu": ["--device", "cpu"], "ngram-page16": ["--page-size", "16"],
    "ngram-page16-flashinfer": ["--page-size", "16", "--attention-backend", "flashinfer"],
    "ngram-bfs3": ["--speculative-ngram-max-bfs-breadth", "3", "--speculative-num-draft-tokens", "8"],
    "ngram-sam-default": ["--speculative-ngram-external-corpus-path", "/nonexistent/corpus"],
    "ngram-sam-max-tokens-0": ["--speculative-ngram-external-corpus-path", "/nonexistent/corpus",
                               "--speculative-ngram-external-sam-budget", "4",
                               "--speculative-ngram-external-corpus-max-tokens", "0"],
    "ngram-sam-over": ["--speculative-ngram-external-corpus-path", "/nonexistent/corpus",
                       "--speculative-ngram-external-sam-budget", "20"],
    "ngram-sam-ok": ["--speculative-ngram-external-corpus-path", "/nonexistent/corpus",
                     "--speculative-ngram-external-sam-budget", "4"],
    "ngram-dp-attn": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "ngram-block-verification": ["--speculative-use-block-verification"],
    "standalone-dp-attn": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "block-verification-topk4": ["--speculative-use-block-verification"],
})
# serving_hook.py (sglang_engine/rules_serving.py)
HOOK_CHECK_EXTRA.update({
    "reuseport-1-worker": ["--enable-http-worker-reuseport"],
    "reuseport-ok": ["--enable-http-worker-reuseport", "--tokenizer-worker-num", "2"],
    "asr-buffer-0": ["--asr-max-buffer-seconds", "0"], "asr-sessions-0": ["--asr-max-concurrent-sessions", "0"],
    "grpc-timeout-0": ["--grpc-response-timeout-secs", "0"], "grpc-port-0": ["--grpc-port", "0"],
    "grpc-port-70000": ["--grpc-port", "70000"], "grpc-port-ok": ["--grpc-port", "50051"],
    "sidecar-args-alone": ["--sidecar-args", '["a"]'], "sidecar-empty": ["--sidecar", " "],
    "sidecar-no-port": ["--sidecar", "/bin/true"], "sidecar-ok": ["--sidecar", "/bin/true", "--grpc-port", "50051"],
    "grpc-ray": ["--grpc-port", "50051", "--use-ray"],
    "grpc-workers-2": ["--grpc-port", "50051", "--tokenizer-worker-num", "2"],
    "grpc-api-key": ["--grpc-port", "50051", "--api-key", "k"],
    "tokenizer-batching-both": ["--enable-tokenizer-batch-encode", "--enable-dynamic-batch-tokenizer"],
    "tokenizer-batch-encode": ["--enable-tokenizer-batch-encode"],
    # check_server_args' PD-Multiplexing checks
    "pdmux": ["--enable-pdmux"], "pdmux-no-chunk": ["--enable-pdmux", "--chunked-prefill-size", "-1"],
    "pdmux-no-chunk-pd": ["--enable-pdmux", "--chunked-prefill-size", "-1", "--disaggregation-mode", "prefill"],
    "pdmux-ok": ["--enable-pdmux", "--chunked-prefill-size", "-1", "--disable-overlap-schedule"],
})
HOOK_CHECK_CASE.update({k: dict(_NO_SPEC, algorithm="NGRAM", window=None, sink=None, max_running_requests=None)
                        for k in HOOK_CHECK_EXTRA if k.startswith("ngram")})
HOOK_CHECK_CASE["standalone-dp-attn"] = {"algorithm": "STANDALONE", "draft": "b16", "num_steps": None,
                                         "eagle_topk": None, "num_draft_tokens": None}
HOOK_CHECK_CASE["block-verification-topk4"] = {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 4,
                                               "num_draft_tokens": 8}
HOOK_CHECK_CASE.update({k: dict(_NO_SPEC, algorithm="UNO", window=None, sink=None)
                        for k in HOOK_CHECK_EXTRA if k.startswith("uno-")})
HOOK_CHECK_CASE["uno-draft"] = dict(HOOK_CHECK_CASE["uno-draft"], draft="b16")
# -- specserve (session 14) --
# serving_hook.py (sglang_engine/rules_serving.py): the multimodal hook before SSL, HTTP/2 limits, the deprecated-args
# hook's image processor, gRPC port / threads env and sidecar checks, handle_environment_variables' feature transport
# and FP4 indexer GPU, handle_other_validations' JSON-typed flags; a refused value with an accepted neighbour
HOOK_CHECK_EXTRA.update({
    "http2-streams-0": ["--enable-http2", "--http2-max-concurrent-streams", "0"],
    "http2-window-10": ["--enable-http2", "--http2-initial-connection-window-size", "10"],
    "mm-cache-neg": ["--mm-preprocess-cache-size-mb", "-1"], "mm-config-list": ["--mm-process-config", "[1]"],
    "mm-config-image-int": ["--mm-process-config", '{"image": 1}'],
    "mm-config-ok": ["--mm-process-config", '{"image": {}}'],
    "image-processor-conflict": ["--disable-fast-image-processor", "--image-processor-backend", "torchvision"],
    "grpc-threads-0": ["--grpc-port", "50051"], "grpc-env-port-70000": [],
    "grpc-legacy-port-high": ["--smg-grpc-mode", "--port", "60000"],
    "port-60000": ["--port", "60000"],  # 0.5.11-0.5.15 range-check --port + 10000 as the gRPC port whatever serves
    "sidecar-legacy": ["--smg-grpc-mode", "--sidecar", "/bin/true"],
    "sidecar-args-object": ["--sidecar", "/bin/true", "--grpc-port", "50051", "--sidecar-args", '{"a": 1}'],
    "grpc-encoder-only": ["--grpc-port", "50051", "--encoder-only"],
    "mm-transport-ipc": ["--mm-feature-transport", "cuda_ipc"], "mm-transport-vmm": ["--mm-feature-transport", "cuda_vmm"],
    "mm-transport-ipc-sm90": ["--mm-feature-transport", "cuda_ipc"],
    "mm-transport-ipc-nnodes2": ["--mm-feature-transport", "cuda_ipc", "--nnodes", "2"],
    "mm-transport-vmm-pp2": ["--mm-feature-transport", "cuda_vmm", "--pp-size", "2"],
    "mm-transport-legacy-env": [],
    "fp4-indexer": ["--enable-deepseek-v4-fp4-indexer"], "fp4-indexer-sm100": ["--enable-deepseek-v4-fp4-indexer"],
    "chat-template-kwargs-list": ["--default-chat-template-kwargs", "[1]"],
    "mm-limit-modality": ["--limit-mm-data-per-request", '{"foo": 1}'],
    "mm-limit-image": ["--limit-mm-data-per-request", '{"image": 1}'],
    "preferred-watermark": ["--preferred-sampling-params", '{"watermark": 1}'],
    # speculative_hook.py: UNO with an Elastic EP scale-up joiner (attn_dp_enabled_of counts it as attention DP)
    "uno-ep-scale-joiner": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4",
                            "--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale",
                            "--elastic-ep-join-rank-offset", "1", "--node-rank", "1", "--nnodes", "2"],
})
HOOK_CHECK_CASE.update({
    "grpc-threads-0": {"env": {"SGLANG_GRPC_WORKER_THREADS": "0"}},
    "grpc-env-port-70000": {"env": {"SGLANG_GRPC_PORT": "70000"}},
    "mm-transport-ipc-sm90": {"gpu": "sm90"}, "mm-transport-ipc-nnodes2": {"gpu": "sm90"},
    "mm-transport-vmm-pp2": dict(_NO_SPEC, gpu="sm90"),
    "mm-transport-legacy-env": {"env": {"SGLANG_USE_CUDA_IPC_TRANSPORT": "1"}},
    "fp4-indexer-sm100": {"gpu": "sm100"},
    "uno-ep-scale-joiner": dict(_NO_SPEC, algorithm="UNO", window=None, sink=None),
})
# -- validation (session 14) --
# LoRA (lora_hook.py, argparse_actions.py: sglang_engine/rules_lora.py) and validation_hook.py's watermark config, load
# publisher, sampling-mask env, pipeline-parallel, PD-Multiplexing, InstantTensor and IB device checks
_LORA_ON = ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"]
_LORA_V2 = _LORA_ON + ["--lora-backend", "triton_v2"]
_LORA_MOE = _LORA_V2 + ["--moe-runner-backend", "lora_triton"]
_KV_EVENTS = '{"publisher": "zmq", "endpoint": "tcp://*:5557"}'
HOOK_CHECK_EXTRA.update({
    "lora-paths-json-keys": ["--lora-paths", '{"lora_name": "a"}'],
    "lora-paths-json-ok": ["--lora-paths", '{"lora_name": "a", "lora_path": "/nonexistent/lora-a"}'],
    "lora-paths-over-loaded": ["--max-loras-per-batch", "1", "--max-loaded-loras", "1", "--lora-paths", "/nonexistent/a",
                               "/nonexistent/b"],
    "lora-v2-tbo": _LORA_V2 + ["--enable-two-batch-overlap"], "lora-v2": _LORA_V2,
    "lora-moe-runner-no-lora": ["--moe-runner-backend", "lora_triton"],
    "lora-moe-runner-csgmv": _LORA_ON + ["--moe-runner-backend", "lora_triton"],
    "lora-moe-runner-int8": _LORA_MOE + ["--quantization", "w8a8_int8"],
    "lora-moe-runner-nvfp4": _LORA_MOE + ["--quantization", "modelopt_fp4"],
    "lora-moe-runner-deepep": _LORA_MOE + ["--moe-a2a-backend", "deepep"],
    "lora-moe-runner-redundant": _LORA_MOE + ["--ep-num-redundant-experts", "2"],
    "lora-moe-runner": _LORA_MOE,
    "lora-moe-runner-elastic": _LORA_MOE + ["--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale",
                                            "--node-rank", "1", "--nnodes", "2", "--elastic-ep-join-rank-offset", "1"],
    "lora-standalone": _LORA_ON,
    "lora-spec-moe-runner": ["--speculative-moe-runner-backend", "lora_triton"],
    "lora-spec-trtllm": _LORA_ON + ["--moe-runner-backend", "experimental_sgl_trtllm"],
    "lora-spec-plan-stream": _LORA_ON,
    "watermark-config-alone": ["--watermark-config", "{}"],
    "watermark-key-b-alone": ["--enable-watermark", "--watermark-config", '{"key_b": "ab"}'],
    "watermark-mixing-1.5": ["--enable-watermark", "--watermark-config", '{"mixing_probability": 1.5}'],
    "watermark-mixing-no-key-b": ["--enable-watermark", "--watermark-config", '{"mixing_probability": 0.3}'],
    "watermark-max-prob-0": ["--enable-watermark", "--watermark-config", '{"max_probability": 0}'],
    "watermark-default-no-key": ["--enable-watermark", "--watermark-config", '{"default_enabled": true}'],
    "watermark-config-unknown": ["--enable-watermark", "--watermark-config", '{"bogus": 1}'],
    "watermark-config-ok": ["--enable-watermark", "--watermark-config",
                            '{"key": "ab", "key_b": "cd", "mixing_probability": 0.3, "default_enabled": true}'],
    "load-publish-no-kv": ["--load-publish-endpoint", "tcp://*:5600"],
    "load-publish-kv-text": ["--load-publish-endpoint", "tcp://*:5600", "--kv-events-config", "zmq"],
    "load-publish-kv-null": ["--load-publish-endpoint", "tcp://*:5600", "--kv-events-config", '{"publisher": "null"}'],
    "load-publish-overlap": ["--load-publish-endpoint", "tcp://*:5557", "--kv-events-config", _KV_EVENTS],
    "load-publish-ok": ["--load-publish-endpoint", "tcp://*:5600", "--kv-events-config", _KV_EVENTS],
    "sampling-mask-env": [],
    "ib-device-blank": ["--disaggregation-mode", "prefill", "--disaggregation-ib-device", " "],
    "pp-spec-env-pd": ["--disaggregation-mode", "prefill"], "pp-spec-env-adaptive": ["--speculative-adaptive"],
    "pp-spec-env-attn-dp": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "pp-dspark": [], "pp-dspark-env": ["--disaggregation-mode", "prefill"],
    "pdmux-pp2": ["--enable-pdmux"],
    "instanttensor-cpu": ["--load-format", "instanttensor"],
    "watermark-dllm": ["--enable-watermark", "--dllm-algorithm", "LowConfidence"],
    "retired-expert-metrics": ["--enable-expert-distribution-metrics"],
})
_PP_EAGLE = {"algorithm": "EAGLE", "draft": "b16", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4, "pp_size": 2,
             "env": {"SGLANG_ENABLE_PP_SPEC": "1"}}
HOOK_CHECK_CASE.update({
    "lora-spec-plan-stream": {"env": {"SGLANG_ENABLE_OVERLAP_PLAN_STREAM": "1"}},
    "lora-moe-runner-elastic": _NO_SPEC,
    "lora-standalone": {"algorithm": "STANDALONE", "draft": "b16", "num_steps": None, "eagle_topk": None,
                        "num_draft_tokens": None},
    "sampling-mask-env": {"env": {"SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS": "8"}},
    "pp-spec-env-pd": _PP_EAGLE, "pp-spec-env-adaptive": _PP_EAGLE, "pp-spec-env-attn-dp": _PP_EAGLE,
    "pp-dspark": dict(_PP_EAGLE, algorithm="DSPARK", num_steps=None, eagle_topk=None, num_draft_tokens=None, env={}),
    "pp-dspark-env": dict(_PP_EAGLE, algorithm="DSPARK", num_steps=None, eagle_topk=None, num_draft_tokens=None),
    "pdmux-pp2": dict(_NO_SPEC, pp_size=2), "instanttensor-cpu": dict(_NO_SPEC, device="cpu"),
    "watermark-dllm": dict(_NO_SPEC, target="sdar-8l"),
})
# entries only the sweep runs (with their HOOK_CHECK_CASE): drawn on another case they meet checks the engine does not
# model (--dllm-algorithm on a model dllm/config.py does not know; an elastic EP scale joiner under DFLASH, where
# SGLang sees attention DP; the --lora-paths action, which argparse runs in argv order, before a later option's parse
# error the engine reports first; so does a retired flag's action)
HOOK_SWEEP_ONLY += ("watermark-dllm", "lora-moe-runner-elastic", "lora-paths-json-keys", "retired-expert-metrics")
# -- engfix (session 15) --: engine errors left open by session 14, each on both bases (sweep only). Parallel sizes below
# 1 pass argument resolution in every release (the engine's PARALLEL_SIZE is a launch-time error) except attention DP's
# width (data-parallel hook: positive from 0.5.22, a ZeroDivisionError on its tp_size % dp_size assert before); an
# Elastic EP scale joiner counts as attention DP for DFLASH from 0.5.22 (runtime_context.attn_dp_enabled_of); an
# --enable-dp-attention at --dp-size 1 never does (the data-parallel defaults drop it first)
_EF_DFLASH = {"algorithm": "DFLASH", "draft": "b16", "num_draft_tokens": None, "num_steps": None, "eagle_topk": None}
_EF_JOINER = ["--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale", "--elastic-ep-join-rank-offset",
              "1", "--node-rank", "1", "--nnodes", "2"]
ENGFIX_HOOK_EXTRA = {
    "ef-pp0": ["--pp-size", "0"], "ef-pp0-plain": ["--pp-size", "0"], "ef-tp0": ["--tp-size", "0"],
    "ef-dp0": ["--dp-size", "0"], "ef-dp0-attn": ["--dp-size", "0", "--enable-dp-attention"],
    "ef-dpneg-attn": ["--dp-size", "-1", "--enable-dp-attention"],
    "ef-tp0-dp2-attn": ["--tp-size", "0", "--dp-size", "2", "--enable-dp-attention"],
    "ef-dflash-ep-joiner": _EF_JOINER, "ef-dflash-dp1-attn": ["--enable-dp-attention"],
    # the data-parallel hook's DP LM head check: attention DP needed once the DP ranks (or a scale joiner) keep the flag
    "ef-lmhead-dp2": ["--dp-size", "2", "--enable-dp-lm-head"], "ef-lmhead-dp1": ["--enable-dp-lm-head"],
    "ef-dflash-ep-joiner-lmhead": _EF_JOINER + ["--enable-dp-lm-head"],
    # --dllm-algorithm on a target dllm/config.py does not know (the dLLM hook; with and without speculation). An
    # accepted dLLM case is not swept: the hook's attention backend / page size rewrites are not modelled
    # --device mps (0.5.22 on: validate_mps_runtime before the pipeline; no Linux host has an MPS device)
    "ef-mps": [], "ef-mps-plain": [],
    "ef-dllm-unknown-model": ["--dllm-algorithm", "LowConfidence"], "ef-dllm-unknown-model-plain": ["--dllm-algorithm",
                                                                                                      "LowConfidence"],
}
HOOK_CHECK_EXTRA.update(ENGFIX_HOOK_EXTRA)
HOOK_CHECK_CASE.update({k: _NO_SPEC for k in ("ef-pp0-plain", "ef-tp0", "ef-dp0", "ef-dp0-attn", "ef-dpneg-attn",
                                              "ef-tp0-dp2-attn", "ef-dllm-unknown-model-plain")})
HOOK_CHECK_CASE.update({"ef-lmhead-dp2": _NO_SPEC, "ef-lmhead-dp1": _NO_SPEC, "ef-dflash-ep-joiner-lmhead": _EF_DFLASH})
HOOK_CHECK_CASE.update({"ef-dflash-ep-joiner": _EF_DFLASH, "ef-dflash-dp1-attn": _EF_DFLASH, "ef-mps": {"device": "mps"},
                        "ef-mps-plain": dict(_NO_SPEC, device="mps")})
HOOK_SWEEP_ONLY += tuple(ENGFIX_HOOK_EXTRA)
# the KV cache hook's compatibility checks (handle_cache_compatibility, after the speculative hook): each
# refusal with an accepted neighbour
CACHE_EXTRA = {
    "hicache-no-radix": ["--enable-hierarchical-cache", "--disable-radix-cache"], "hicache": ["--enable-hierarchical-cache"],
    "no-radix": ["--disable-radix-cache"],
    # a decode server's radix cache follows --disaggregation-decode-enable-radix-cache alone (the PD hook)
    "hicache-decode": ["--enable-hierarchical-cache", "--disaggregation-mode", "decode"],
    "hicache-decode-radix": ["--enable-hierarchical-cache", "--disaggregation-mode", "decode",
                             "--disaggregation-decode-enable-radix-cache", "--disable-radix-cache"],
    "swa-ratio-0": ["--swa-full-tokens-ratio", "0"], "swa-ratio-1.5": ["--swa-full-tokens-ratio", "1.5"],
    "swa-ratio-1": ["--swa-full-tokens-ratio", "1.0"],
    "swa-tails-neg": ["--swa-prefix-tails", "-1"], "swa-tails-0": ["--swa-prefix-tails", "0"],
    "offload-prefill": ["--disaggregation-decode-enable-offload-kvcache"],
    "offload-decode-no-storage": ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-offload-kvcache"],
    "offload-decode-file": ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-offload-kvcache",
                            "--hicache-storage-backend", "file"],
    "offload-host-pool": ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-offload-kvcache",
                          "--hicache-storage-backend", "file", "--disaggregation-decode-retraction-backup", "host_pool"],
    "host-pool-prefill": ["--disaggregation-decode-retraction-backup", "host_pool"],
    "host-pool-decode": ["--disaggregation-mode", "decode", "--disaggregation-decode-retraction-backup", "host_pool"],
    "host-pool-priority": ["--disaggregation-mode", "decode", "--disaggregation-decode-retraction-backup", "host_pool",
                           "--enable-priority-scheduling"],
    "host-pool-dcp2": ["--disaggregation-mode", "decode", "--disaggregation-decode-retraction-backup", "host_pool",
                       "--dcp-size", "2"],
    "tlru-inverted": ["--radix-eviction-policy", "tlru", "--radix-eviction-policy-config",
                      '{"threshold": 1, "next_prompt_estimate": 2}'],
    "tlru-negative": ["--radix-eviction-policy", "tlru", "--radix-eviction-policy-config",
                      '{"threshold": 5, "next_prompt_estimate": -1}'],
    "tlru-ok": ["--radix-eviction-policy", "tlru", "--radix-eviction-policy-config",
                '{"threshold": 8, "next_prompt_estimate": 2}'],
    "lmcache-hicache": ["--enable-lmcache", "--enable-hierarchical-cache"],
    "lmcache-no-radix": ["--enable-lmcache", "--disable-radix-cache"], "lmcache": ["--enable-lmcache"],
    "lmcache-decode": ["--enable-lmcache", "--disaggregation-mode", "decode"],
    # the flag-only hooks before the SSL check (hicache host memory fraction, PLE offload)
    "hicache-fraction-0": ["--hicache-host-memory-fraction", "0"],
    "hicache-fraction-1": ["--hicache-host-memory-fraction", "1"],
    "ple-cpu-offload": ["--ple-offload-embedding", "--cpu-offload-gb", "2"], "ple-alone": ["--ple-offload-embedding"],
    # the PD hook's decode host-receive threshold (below 1 it sets the host-pool backup the KV cache hook checks)
    "host-receive-2": ["--disaggregation-decode-host-receive-threshold", "2"],
    "host-receive-half": ["--disaggregation-decode-host-receive-threshold", "0.5"],
    "host-receive-half-decode": ["--disaggregation-mode", "decode", "--disaggregation-decode-host-receive-threshold",
                                 "0.5"],
    "host-receive-cpu-tensor": ["--disaggregation-mode", "decode", "--disaggregation-decode-host-receive-threshold",
                                "0.5", "--disaggregation-decode-retraction-backup", "cpu_tensor"],
    # the encoder disaggregation hook (after the speculative hook): flags, then the target's architecture
    "prefix-mm-cache": ["--enable-prefix-mm-cache"], "encoder-language": ["--encoder-only", "--language-only"],
    "encoder-pd": ["--encoder-only", "--disaggregation-mode", "prefill"], "encoder-only": ["--encoder-only"],
    # the Mamba backend hook's flag checks (any model, right after the attention backend hook)
    "mamba-philox-neg": ["--mamba-cache-philox-rounds", "-1"], "mamba-philox-0": ["--mamba-cache-philox-rounds", "0"],
    "mamba-states-0": ["--mamba-max-states-per-path", "0"], "mamba-states-unlimited": ["--mamba-max-states-per-path", "-1"],
    "mamba-stochastic-fp32": ["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-dtype", "float32"],
    # --enable-layernorm-sp (right after the speculative hook): the target, TP > 1, no speculation
    "layernorm-sp": ["--enable-layernorm-sp"], "layernorm-sp-tp2": ["--enable-layernorm-sp", "--tp-size", "2"],
    "megamoe-alone": ["--enable-megamoe-for-layernorm-sp"],
    "megamoe-tp2": ["--enable-layernorm-sp", "--enable-megamoe-for-layernorm-sp", "--tp-size", "2"],
}

# the KV dtype / pool hooks of kv_cache_hook.py, the HiCache hook's linker and host memory mode, the Mamba hook's
# platform and int8 checks (sglang_engine/rules_cache.py, rules_mamba.py): each refusal in SGLang's order, with an
# accepted neighbour; KV_POOL_CASE: what an entry changes in the case (no speculation, a GPU platform, a backend)
_PREFILL_ONLY = ["--prefill-only-disable-kv-cache", "--is-embedding"]
_PREFILL_ONLY_OK = _PREFILL_ONLY + ["--chunked-prefill-size", "-1", "--disable-radix-cache"]
_UM_PD = ["--enable-unified-memory", "--disaggregation-mode"]
KV_POOL_EXTRA = {
    "po-bare": ["--prefill-only-disable-kv-cache"], "po-emb": _PREFILL_ONLY,
    "po-emb-chunk": _PREFILL_ONLY + ["--chunked-prefill-size", "-1"],
    "po-triton": _PREFILL_ONLY_OK, "po-fa3": _PREFILL_ONLY_OK,
    "po-fp4": _PREFILL_ONLY + ["--kv-cache-dtype", "fp4_mx_block16"],
    "po-mxfp8": _PREFILL_ONLY + ["--kv-cache-dtype", "mxfp8"],
    "po-attn-cp": _PREFILL_ONLY_OK + ["--attn-cp-size", "2", "--tp-size", "2"],
    "po-prefill-cp": _PREFILL_ONLY_OK + ["--enable-prefill-cp"], "po-hisparse": _PREFILL_ONLY_OK + ["--enable-hisparse"],
    "dequant-alone": ["--prefill-kv-cache-dequant-dtype", "fp8_e4m3"],
    "nvfp4": ["--kv-cache-dtype", "nvfp4"], "nvfp4-auto": ["--kv-cache-dtype", "nvfp4"],
    "nvfp4-trtllm": ["--kv-cache-dtype", "nvfp4"], "nvfp4-prefill-triton": ["--kv-cache-dtype", "nvfp4"],
    "nvfp4-decode-triton": ["--kv-cache-dtype", "nvfp4", "--decode-attention-backend", "triton"],
    "nvfp4-flashinfer": ["--kv-cache-dtype", "nvfp4"], "nvfp4-sm90": ["--kv-cache-dtype", "nvfp4"],
    "nvfp4-sm120": ["--kv-cache-dtype", "nvfp4"],
    "nvfp4-sm120-native": ["--kv-cache-dtype", "nvfp4", "--prefill-kv-cache-dequant-dtype", "nvfp4"],
    "nvfp4-sm120-fp8": ["--kv-cache-dtype", "nvfp4", "--prefill-kv-cache-dequant-dtype", "fp8_e4m3"],
    "fp4mx": ["--kv-cache-dtype", "fp4_mx_block16"], "fp4mx-sm90": ["--kv-cache-dtype", "fp4_mx_block16"],
    "fp4mx-sm90-fa3": ["--kv-cache-dtype", "fp4_mx_block16"], "fp4mx-sm90-fa4": ["--kv-cache-dtype", "fp4_mx_block16"],
    "fp4mx-sm90-default": ["--kv-cache-dtype", "fp4_mx_block16"],
    "fp4mx-sm90-unified": ["--kv-cache-dtype", "fp4_mx_block16", "--enable-unified-memory"],
    "mxfp8": ["--kv-cache-dtype", "mxfp8"], "mxfp8-sm120": ["--kv-cache-dtype", "mxfp8"],
    "mxfp8-sm90": ["--kv-cache-dtype", "mxfp8"],
    "mamba-stochastic": ["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-dtype", "float16"],
    "mamba-stochastic-sm90": ["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-dtype", "float16"],
    "int8-hicache": ["--enable-int8-mamba-checkpoint", "--enable-hierarchical-cache"],
    "int8-radix-backend": ["--enable-int8-mamba-checkpoint", "--radix-cache-backend", "foo"],
    "int8-lmcache": ["--enable-int8-mamba-checkpoint", "--enable-lmcache"], "int8": ["--enable-int8-mamba-checkpoint"],
    "linker-config-list": ["--unified-cache-external-linker-config", "[1]"],
    "linker-mla-dedup": ["--enable-linker-mla-dedup"],
    "linker-no-radix": ["--enable-unified-cache-external-linker", "--disable-radix-cache"],
    "linker-hicache": ["--enable-unified-cache-external-linker", "--enable-hierarchical-cache"],
    "linker-storage": ["--enable-unified-cache-external-linker", "--hicache-storage-backend", "file"],
    "linker": ["--enable-unified-cache-external-linker"],
    "lmcache-linker": ["--enable-lmcache", "--enable-unified-cache-external-linker"],
    "lmcache-buffer-only": ["--enable-lmcache", "--hicache-host-memory-mode", "buffer_only"],
    "hicache-buffer-only": ["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only"],
    "hicache-buffer-only-decode": ["--disaggregation-mode", "decode", "--hicache-host-memory-mode", "buffer_only",
                                   "--hicache-storage-backend", "file"],
    "hicache-buffer-only-file": ["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only",
                                 "--hicache-storage-backend", "file"],
    "page-major-alone": ["--enable-page-major-kv-layout"],
    "unified": ["--enable-unified-memory"], "unified-fa4": ["--enable-unified-memory"],
    "unified-torch-native": ["--enable-unified-memory"],
    "unified-linear-decode": ["--enable-unified-memory", "--linear-attn-decode-backend", "cutedsl"],
    "unified-linear-prefill": ["--enable-unified-memory", "--linear-attn-prefill-backend", "cutedsl"],
    # not drawn: "--enable-unified-memory" with no speculative algorithm, which 0.5.15-0.5.18 refuse when the default
    # prefill CUDA graph capture is piecewise (server_args.py handle_unified_memory_pool); that default is not modelled
    # (session 17: the check itself is, on a prefill backend the user sets: gpu16-unified-*)
    "unified-ngram": ["--enable-unified-memory"],
    "unified-eagle3": ["--enable-unified-memory"], "unified-eagle3-topk4": ["--enable-unified-memory"],
    "unified-tbo": ["--enable-unified-memory", "--enable-two-batch-overlap", "--enable-dp-attention", "--dp-size", "2",
                    "--tp-size", "2"],
    "unified-lmcache": ["--enable-unified-memory", "--enable-lmcache"],
    "unified-linker": ["--enable-unified-memory", "--enable-unified-cache-external-linker"],
    "unified-dcp": ["--enable-unified-memory", "--dcp-size", "2", "--tp-size", "2"],
    "unified-pd-nixl": _UM_PD + ["prefill", "--disaggregation-transfer-backend", "nixl"],
    "unified-pd-pp": _UM_PD + ["prefill", "--pp-size", "2"], "unified-pd-spec": _UM_PD + ["prefill"],
    "unified-pd-env": _UM_PD + ["prefill"], "unified-pd-hisparse": _UM_PD + ["prefill", "--enable-hisparse"],
    "unified-pd-offload": _UM_PD + ["decode", "--disaggregation-decode-enable-offload-kvcache",
                                    "--hicache-storage-backend", "mooncake"],
    "unified-pd-offload-file": _UM_PD + ["decode", "--disaggregation-decode-enable-offload-kvcache",
                                         "--hicache-storage-backend", "file"],
    "unified-pd": _UM_PD + ["prefill"],
    # on the hybrid sliding-window target (KV_POOL_CASE): the EAGLE checks past the hybrid one, SWA decode offload
    "unified-swa-eagle3": ["--enable-unified-memory"], "unified-swa-eagle3-fa4": ["--enable-unified-memory"],
    "unified-swa-eagle3-draft-fa4": ["--enable-unified-memory"],
    "unified-swa-eagle3-hicache": ["--enable-unified-memory", "--enable-hierarchical-cache"],
    "unified-swa-pd-offload": _UM_PD + ["decode", "--disaggregation-decode-enable-offload-kvcache",
                                        "--hicache-storage-backend", "file"],
    "unified-swa-dflash": ["--enable-unified-memory"],
}
KV_POOL_CASE = {k: _NO_SPEC for k in KV_POOL_EXTRA if k.startswith(("po-", "lmcache-", "unified-"))}
KV_POOL_CASE.update({
    "po-fa3": dict(_NO_SPEC, attention_backend="fa3"), "nvfp4-auto": {"attention_backend": None},
    "nvfp4-trtllm": {"attention_backend": "trtllm_mha"},
    "nvfp4-prefill-triton": {"attention_backend": "flashinfer", "prefill_attention_backend": "triton"},
    "nvfp4-decode-triton": {"attention_backend": "flashinfer"}, "nvfp4-flashinfer": {"attention_backend": "flashinfer"},
    "nvfp4-sm90": {"attention_backend": "flashinfer", "gpu": "sm90"},
    "nvfp4-sm120": {"attention_backend": "flashinfer", "gpu": "sm120"},
    "nvfp4-sm120-native": {"attention_backend": None, "gpu": "sm120"},
    "nvfp4-sm120-fp8": dict(_NO_SPEC, attention_backend=None, gpu="sm120"),
    "fp4mx-sm90": {"gpu": "sm90"}, "fp4mx-sm90-fa3": {"gpu": "sm90", "attention_backend": "fa3"},
    "fp4mx-sm90-fa4": dict(_NO_SPEC, gpu="sm90", attention_backend="fa4"),
    "fp4mx-sm90-default": {"gpu": "sm90", "attention_backend": None}, "fp4mx-sm90-unified": {"gpu": "sm90"},
    "mxfp8-sm120": {"gpu": "sm120"}, "mxfp8-sm90": {"gpu": "sm90"}, "mamba-stochastic-sm90": {"gpu": "sm90"},
    "unified": {}, "unified-fa4": {"attention_backend": "fa4"},
    "unified-torch-native": dict(_NO_SPEC, attention_backend="torch_native"),
    "unified-ngram": dict(_NO_SPEC, algorithm="NGRAM", window=None, sink=None, max_running_requests=None),
    "unified-eagle3": {"algorithm": "EAGLE3", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4},
    "unified-eagle3-topk4": {"algorithm": "EAGLE3", "num_steps": 3, "eagle_topk": 4, "num_draft_tokens": 8},
    "unified-pd-spec": {}, "unified-pd-env": dict(_NO_SPEC, env={"SGLANG_DISABLE_LAZY_COMPACTION": "1"}),
})
_SWA_EAGLE3 = {"target": "qwen3-hybrid-swa-8l", "algorithm": "EAGLE3", "num_steps": 3, "eagle_topk": 1,
               "num_draft_tokens": 4}
KV_POOL_CASE.update({
    "unified-swa-eagle3": _SWA_EAGLE3, "unified-swa-eagle3-fa4": dict(_SWA_EAGLE3, attention_backend="fa4"),
    "unified-swa-eagle3-draft-fa4": dict(_SWA_EAGLE3, draft_attention_backend="fa4"),
    "unified-swa-eagle3-hicache": _SWA_EAGLE3, "unified-swa-pd-offload": dict(_NO_SPEC, target="qwen3-hybrid-swa-8l"),
    "unified-swa-dflash": {"target": "qwen3-hybrid-swa-8l"},
})
# GPU-platform checks and the speculative hook's refusals past the flags the other dimensions draw (sglang_engine:
# resolve.py's attention section, rules_speculative.py): an argv, and in PLATFORM_CHECK_CASE what the entry changes
# in the case (the host it runs on, the algorithm, the backend); a refused value with an accepted neighbour
_TRTLLM = {"attention_backend": "trtllm_mha"}
_EAGLE_TOPK2 = {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 2, "num_draft_tokens": 4}
PLATFORM_CHECK_EXTRA = {
    "dflash-no-draft": [],
    "dflash-dp-attn": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "dflash-dp-attn-xpu": ["--device", "xpu", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "dflash-dp-attn-cp": ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head",
                          "--attn-cp-size", "2"],
    "dflash-dp-attn-lmhead": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"],
    "eagle-topk-only": [],
    "eagle-trtllm-topk2-sm120": [], "eagle-trtllm-topk1-sm90": [],
    "adaptive-steps-2": ["--speculative-adaptive"],
    "trtllm-fp8-sm120": ["--kv-cache-dtype", "fp8_e4m3"], "trtllm-fp8-sm100": ["--kv-cache-dtype", "fp8_e4m3"],
    "trtllm-cp-sm120": ["--attn-cp-size", "2", "--tp-size", "2"],
    "trtllm-cp-sm100": ["--attn-cp-size", "2", "--tp-size", "2"],
    "trtllm-sm100": [], "trtllm-decode-sm100": ["--decode-attention-backend", "trtllm_mha"],
    "sm100-default": [], "sm100-default-page16": ["--page-size", "16"], "sm100-eagle-topk2": [],
    "sm100-eagle-default": [], "sm100-dflash-trtllm-draft": ["--speculative-draft-attention-backend", "trtllm_mha"],
    "deterministic": ["--enable-deterministic-inference"],
    "deterministic-sm120": ["--enable-deterministic-inference"],
    "deterministic-sm100": ["--enable-deterministic-inference"],
    "deterministic-trtllm-sm90": ["--enable-deterministic-inference"],
    "deterministic-torch-native": ["--enable-deterministic-inference"],
    "rejection-deterministic-xpu": ["--speculative-use-rejection-sampling", "--enable-deterministic-inference",
                                    "--device", "xpu"],
    "rejection-deterministic": ["--speculative-use-rejection-sampling", "--enable-deterministic-inference"],
    "ngram-hpu": ["--device", "hpu"],
    # -- specserve (session 14): a Gemma4 assistant draft with EAGLE3 (the speculative hook's alias resolution) --
    "gemma4-eagle3": [],
    # _handle_dspark in its order (sweep only: PLATFORM_SWEEP_ONLY)
    "dspark-cpu": ["--device", "cpu"], "dspark-dp-attn": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "dspark-pp2": ["--pp-size", "2"], "dspark-no-draft": [], "dspark-block-0": ["--speculative-dspark-block-size", "0"],
    "dspark-ndt-mismatch": ["--speculative-dspark-block-size", "4", "--speculative-num-draft-tokens", "3"],
    "dspark-a2a-deepep": _DP_ATTN_TP2 + ["--enable-dp-lm-head", "--moe-a2a-backend", "deepep"],
    "dspark-ragged-env": _DP_ATTN_TP2 + ["--enable-dp-lm-head"],
    "dspark-attn-cp": ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head", "--attn-cp-size",
                       "2"],
    "dspark-spec-a2a": _DP_ATTN_TP2 + ["--enable-dp-lm-head", "--speculative-moe-a2a-backend", "deepep"],
    "dspark-ndt-1": ["--speculative-num-draft-tokens", "1"], "dspark-no-gamma": [],
}
# a device this host lacks (XPU, HPU) resolves only with a GPU host's memory presented: sweep entries only, on a GPU
# host (needs_override: a release without the platform override does not judge them)
PLATFORM_SWEEP_ONLY = ("dflash-dp-attn-xpu", "ngram-hpu", "rejection-deterministic-xpu")
PLATFORM_CHECK_CASE = {
    "dflash-no-draft": {"algorithm": "DFLASH", "draft": None},
    "dflash-dp-attn-xpu": {"gpu": "sm120", "needs_override": True, "algorithm": "DFLASH", "draft": "b16"},
    "eagle-topk-only": {"algorithm": "EAGLE3", "draft": "b16", "num_steps": None, "eagle_topk": 2,
                        "num_draft_tokens": None},
    "eagle-trtllm-topk2-sm120": dict(_EAGLE_TOPK2, gpu="sm120", **_TRTLLM),
    "eagle-trtllm-topk1-sm90": dict(_EAGLE_TOPK2, gpu="sm90", eagle_topk=1, **_TRTLLM),
    "adaptive-steps-2": {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 2, "eagle_topk": 1, "num_draft_tokens": 3},
    "trtllm-fp8-sm120": dict(_TRTLLM, gpu="sm120"), "trtllm-fp8-sm100": dict(_TRTLLM, gpu="sm100"),
    "trtllm-cp-sm120": dict(_TRTLLM, gpu="sm120"), "trtllm-cp-sm100": dict(_TRTLLM, gpu="sm100"),
    "trtllm-sm100": dict(_TRTLLM, gpu="sm100"), "trtllm-decode-sm100": {"gpu": "sm100", "attention_backend": None},
    "sm100-default": {"gpu": "sm100", "attention_backend": None},
    "sm100-default-page16": {"gpu": "sm100", "attention_backend": None},
    "sm100-eagle-topk2": dict(_EAGLE_TOPK2, gpu="sm100", attention_backend=None),
    "sm100-eagle-default": {"algorithm": "EAGLE3", "draft": "b16", "num_steps": None, "eagle_topk": None,
                            "num_draft_tokens": None, "gpu": "sm100", "attention_backend": None},
    "sm100-dflash-trtllm-draft": {"algorithm": "DFLASH", "draft": "b16", "gpu": "sm100", "attention_backend": None},
    "deterministic": {"attention_backend": None}, "deterministic-sm120": {"attention_backend": None, "gpu": "sm120"},
    "deterministic-sm100": {"attention_backend": None, "gpu": "sm100"},
    "deterministic-trtllm-sm90": dict(_TRTLLM, gpu="sm90"),
    "deterministic-torch-native": {"attention_backend": "torch_native"},
    "rejection-deterministic-xpu": {"gpu": "sm120", "needs_override": True, "algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 1,
                                    "num_draft_tokens": 4},
    "rejection-deterministic": {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 1,
                                "num_draft_tokens": 4},
    "ngram-hpu": {"gpu": "sm120", "needs_override": True, "algorithm": "NGRAM", "draft": None, "num_draft_tokens": None, "num_steps": None, "eagle_topk": None,
                  "window": None, "sink": None, "max_running_requests": None},
    # -- specserve (session 14) --
    "gemma4-eagle3": {"algorithm": "EAGLE3", "draft": "gemma4-assistant", "num_steps": 3, "eagle_topk": 1,
                      "num_draft_tokens": 4},
}
_DSPARK = {"algorithm": "DSPARK", "draft": "b16", "num_draft_tokens": None, "num_steps": None, "eagle_topk": None,
           "window": None, "sink": None}
PLATFORM_CHECK_CASE.update({k: dict(_DSPARK) for k in PLATFORM_CHECK_EXTRA if k.startswith("dspark-")})
PLATFORM_CHECK_CASE["dspark-no-draft"]["draft"] = None
# a draft config.json without any block size: no gamma (a given verify width stands, else gamma 7)
for _k in ("dspark-ragged-env", "dspark-ndt-1", "dspark-no-gamma"):
    PLATFORM_CHECK_CASE[_k]["draft"] = "no-block-size"
PLATFORM_CHECK_CASE["dspark-ragged-env"]["env"] = {"SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION": "1",
                                                   "SGLANG_RAGGED_VERIFY_MODE": "compact"}
PLATFORM_SWEEP_ONLY = PLATFORM_SWEEP_ONLY + tuple(k for k in PLATFORM_CHECK_EXTRA if k.startswith("dspark-"))

# -- attn (session 14) --
# the attention hooks' flag checks (sglang_engine/rules_attention.py, rules_platform.py, rules_mamba.py): the
# linear-attention hook (FlashKDA, ReplaySSM, ReplaySSM spec-verify), multi-item scoring, deterministic inference for
# the DeepSeek family, the FlashInfer Mamba backend; each refusal in SGLang's order with an accepted neighbour. Sweep
# only (a GPU host's draw would import flashinfer.mamba on this host); ATTN_CHECK_CASE: what an entry changes
_REPLAYSSM_SPEC = ["--enable-linear-replayssm-spec"]
_MLA = {"target": "deepseek-v3-8l"}
ATTN_CHECK_EXTRA = {
    "linear-decode-flashkda": ["--linear-attn-decode-backend", "flashkda"],
    "linear-base-flashkda": ["--linear-attn-backend", "flashkda"],
    "replayssm-cutedsl": ["--enable-linear-replayssm", "--linear-attn-decode-backend", "cutedsl"],
    "replayssm-sm100-bf16": ["--enable-linear-replayssm", "--mamba-ssm-dtype", "bfloat16"],
    "replayssm-pd-decode": ["--enable-linear-replayssm", "--disaggregation-mode", "decode"],
    "replayssm-cache-len-0": ["--enable-linear-replayssm", "--linear-replayssm-cache-len", "0"],
    "replayssm": ["--enable-linear-replayssm"],
    "replayssm-spec-topk4": _REPLAYSSM_SPEC,
    "replayssm-spec-cutedsl": _REPLAYSSM_SPEC + ["--linear-attn-decode-backend", "cutedsl"],
    "replayssm-spec-ragged": _REPLAYSSM_SPEC,
    "replayssm-spec-ragged-verify": _REPLAYSSM_SPEC + ["--linear-attn-verify-backend", "triton"],
    "replayssm-spec-ragged-bad": _REPLAYSSM_SPEC,
    "replayssm-spec-pd-prefill": _REPLAYSSM_SPEC + ["--disaggregation-mode", "prefill"],
    "replayssm-spec-both": _REPLAYSSM_SPEC + ["--enable-linear-replayssm"],
    "replayssm-spec": _REPLAYSSM_SPEC,
    "mis": ["--enable-mis"], "mis-flashinfer": ["--enable-mis"],
    "deterministic-mla-flashinfer": ["--enable-deterministic-inference"],
    "deterministic-mla-fa4": ["--enable-deterministic-inference"],
    "deterministic-mla-fa4-sm100": ["--enable-deterministic-inference"],
    "deterministic-mla-triton": ["--enable-deterministic-inference"],
    "mamba-flashinfer": ["--mamba-backend", "flashinfer"],
    # the PD hook (sglang_engine/rules_pd.py)
    "pd-prefill-fake": ["--disaggregation-mode", "prefill", "--disaggregation-transfer-backend", "fake"],
    "pd-decode-fake": ["--disaggregation-mode", "decode", "--disaggregation-transfer-backend", "fake"],
    "pd-decode-staging-fake": ["--disaggregation-mode", "decode", "--disaggregation-transfer-backend", "fake"],
    "pd-decode-staging": ["--disaggregation-mode", "decode"],
    "pd-decode-radix-fake": ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache",
                             "--disaggregation-transfer-backend", "fake"],
    "pd-decode-radix-hisparse": ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache",
                                 "--enable-hisparse"],
    "pd-host-receive-role-switch": ["--disaggregation-mode", "decode", "--disaggregation-decode-host-receive-threshold",
                                    "0.5", "--enable-pd-role-switch"],
    "pd-role-switch": ["--disaggregation-mode", "prefill", "--enable-pd-role-switch"],
    "pd-role-switch-nospec": ["--disaggregation-mode", "prefill", "--enable-pd-role-switch"],
    "pd-prefill-complete": ["--disaggregation-decode-allocation-policy", "prefill_complete"],
    "pd-prefill-complete-prefill": ["--disaggregation-mode", "prefill", "--disaggregation-decode-allocation-policy",
                                    "prefill_complete"],
    "pd-rust-bootstrap": ["--disaggregation-mode", "prefill", "--disaggregation-bootstrap-port", "9999"],
    "pd-rust-bootstrap-default": ["--disaggregation-mode", "prefill"],
    # the model hook's Mamba radix cache on the hybrid GDN target (rules_mamba.py), no speculation
    "mamba-radix-cpu": [], "mamba-radix-sm90": [], "mamba-radix-no-overlap-sm90": ["--disable-overlap-schedule"],
    "mamba-no-buffer-page16-sm90": ["--mamba-radix-cache-strategy", "no_buffer", "--page-size", "16"],
    "mamba-no-buffer-overlap-sm90": ["--mamba-radix-cache-strategy", "no_buffer"],
    "mamba-no-buffer-trtllm-sm90": ["--mamba-radix-cache-strategy", "no_buffer", "--disable-overlap-schedule"],
    "mamba-extra-buffer-cutedsl-sm90": ["--mamba-radix-cache-strategy", "extra_buffer", "--linear-attn-backend",
                                        "cutedsl"],
    "mamba-extra-lazy-pd-sm90": ["--mamba-radix-cache-strategy", "extra_buffer_lazy", "--disaggregation-mode",
                                 "prefill"],
    "mamba-extra-lazy-pd-decode-sm90": ["--mamba-radix-cache-strategy", "extra_buffer_lazy", "--disaggregation-mode",
                                        "decode"],
    "mamba-replayssm-extra-sm90": ["--enable-linear-replayssm", "--mamba-radix-cache-strategy", "extra_buffer"],
    "mamba-track-draft-sm90": ["--speculative-num-draft-tokens", "16", "--mamba-track-interval", "8"],
    "mamba-track-page-sm90": ["--page-size", "16", "--mamba-track-interval", "24"],
    "mamba-track-page-ok-sm90": ["--page-size", "16", "--mamba-track-interval", "32"],
}
ATTN_CHECK_CASE = {
    "replayssm-sm100-bf16": {"gpu": "sm100"},
    "replayssm-spec-topk4": {"eagle_topk": 4},
    "replayssm-spec-ragged": {"env": {"SGLANG_RAGGED_VERIFY_MODE": "compact"}},
    "replayssm-spec-ragged-verify": {"env": {"SGLANG_RAGGED_VERIFY_MODE": "compact"}},
    "replayssm-spec-ragged-bad": {"env": {"SGLANG_RAGGED_VERIFY_MODE": "bogus"}},
    "mis-flashinfer": {"attention_backend": "flashinfer"},
    "deterministic-mla-flashinfer": dict(_MLA, attention_backend="flashinfer"),
    "deterministic-mla-fa4": dict(_MLA, attention_backend="fa4"),
    "deterministic-mla-fa4-sm100": dict(_MLA, attention_backend="fa4", gpu="sm100"),
    "deterministic-mla-triton": dict(_MLA, attention_backend="triton"),
    "pd-decode-staging-fake": {"env": {"SGLANG_DISAGG_STAGING_BUFFER": "1"}},
    "pd-decode-staging": {"env": {"SGLANG_DISAGG_STAGING_BUFFER": "1"}},
    "pd-role-switch-nospec": {"algorithm": None, "draft": None, "num_steps": None, "eagle_topk": None,
                              "num_draft_tokens": None},
    "pd-rust-bootstrap": {"env": {"SGLANG_RUST_SERVER": "1"}},
    "pd-rust-bootstrap-default": {"env": {"SGLANG_RUST_SERVER": "1"}},
}
_NEXT = {"target": "qwen3-next-8l", "algorithm": None, "draft": None, "num_draft_tokens": None, "num_steps": None,
         "eagle_topk": None}
_NEXT_SM90 = dict(_NEXT, gpu="sm90", needs_override=True)
ATTN_CHECK_CASE.update({k: dict(_NEXT_SM90) for k in ATTN_CHECK_EXTRA if k.startswith("mamba-") and k.endswith("-sm90")})
ATTN_CHECK_CASE["mamba-radix-cpu"] = dict(_NEXT)
ATTN_CHECK_CASE["mamba-no-buffer-trtllm-sm90"] = dict(_NEXT_SM90, attention_backend="trtllm_mha")
ATTN_CHECK_CASE["mamba-radix-sm90"] = dict(_NEXT_SM90, attention_backend=None)

# -- kv (session 14) --
# --enable-kv-cache-sharding's chain (kv_shard_hook.py handle_kv_cache_sharding; sglang_engine/rules_kv_shard.py): each
# refusal in SGLang's order on a configuration it accepts (a GQA target with prefill CP and fa3, or an MLA one with a
# trtllm_mla prefill backend over plain TP), with accepted neighbours. Swept once, without speculation (which the
# chain refuses first), and not drawn: KV_SWEEP_CASE says what an entry changes in the case.
_KS = ["--enable-kv-cache-sharding", "--disaggregation-mode", "prefill"]
_KS_CP = _KS + ["--enable-prefill-cp", "--attn-cp-size", "2", "--tp-size", "2", "--cp-strategy", "zigzag",
                "--page-size", "64"]
_KS_MLA = _KS + ["--prefill-attention-backend", "trtllm_mla", "--page-size", "64"]
KV_SWEEP_EXTRA = {
    "ks-cp": _KS_CP, "ks-dllm": _KS_CP + ["--dllm-algorithm", "LowConfidence"],
    "ks-radix-backend": _KS_CP + ["--radix-cache-backend", "foo"],
    "ks-tree-rust": _KS_CP, "ks-tree-rust-no-radix": _KS_CP + ["--disable-radix-cache"],
    "ks-linker": _KS_CP + ["--enable-unified-cache-external-linker"],
    "ks-streaming": _KS_CP + ["--enable-streaming-session"],
    "ks-session-radix": _KS_CP + ["--enable-session-radix-cache"], "ks-flexkv": _KS_CP + ["--enable-flexkv"],
    "ks-unified": _KS_CP + ["--enable-unified-memory"], "ks-dcp": _KS + ["--dcp-size", "2", "--tp-size", "2"],
    "ks-hicache": _KS_CP + ["--enable-hierarchical-cache"],
    "ks-hicache-storage": _KS_CP + ["--enable-hierarchical-cache", "--hicache-storage-backend", "file"],
    "ks-lmcache": _KS_CP + ["--enable-lmcache"], "ks-hisparse": _KS_CP + ["--enable-hisparse"],
    "ks-dynamic-chunking-pp2": _KS_CP + ["--enable-dynamic-chunking", "--pp-size", "2"],
    "ks-tbo": _KS_CP + ["--enable-two-batch-overlap"], "ks-encdec": _KS_CP, "ks-chunked-attn": _KS_CP,
    "ks-triton": _KS_CP, "ks-trtllm-mla-gqa": _KS + ["--prefill-attention-backend", "trtllm_mla", "--tp-size", "2",
                                                     "--page-size", "64"],
    "ks-mla": _KS_MLA + ["--tp-size", "2"], "ks-mla-cp": _KS_MLA + ["--tp-size", "2", "--attn-cp-size", "2"],
    "ks-mla-no-prefix-cache": _KS_MLA + ["--tp-size", "2", "--disable-chunked-prefix-cache"],
    "ks-mla-attn-dp": _KS_MLA + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "ks-mla-tp1": _KS_MLA,
    "ks-mori": _KS_CP + ["--disaggregation-transfer-backend", "mori"],
    "ks-nixl": _KS_CP + ["--disaggregation-transfer-backend", "nixl"], "ks-staging": _KS_CP,
    "ks-no-cp": _KS + ["--tp-size", "2", "--page-size", "64"], "ks-page-1": _KS_CP[:-2],
    "ks-no-chunk": _KS_CP + ["--chunked-prefill-size", "-1"],
    # a chunk size no multiple of the page: rounded up, which needs the device memory unless the fraction is given
    "ks-round-no-gpu": _KS_CP + ["--chunked-prefill-size", "4000"],
    "ks-round-mem-fraction": _KS_CP + ["--chunked-prefill-size", "4000", "--mem-fraction-static", "0.8"],
    "ks-round-sm90": _KS_CP + ["--chunked-prefill-size", "4000"],
    "ks-round-sm90-all-memory": _KS_CP[:-1] + ["1000000", "--chunked-prefill-size", "2049"],
}
# the Python radix tree core given (0.5.22 reads rust when unset; 0.5.23 sets python): past that check in both
_KS_NO_SPEC = dict(_NO_SPEC, attention_backend="fa3", env={"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND": "python"})
KV_SWEEP_CASE = {k: _KS_NO_SPEC for k in KV_SWEEP_EXTRA}
KV_SWEEP_CASE.update({
    "ks-cp": dict(_KS_NO_SPEC, env={}),
    "ks-tree-rust": dict(_KS_NO_SPEC, env={"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND": "rust"}),
    "ks-tree-rust-no-radix": dict(_KS_NO_SPEC, env={"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND": "rust"}),
    "ks-staging": dict(_KS_NO_SPEC, env={"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND": "python",
                                         "SGLANG_DISAGG_STAGING_BUFFER": "1"}),
    "ks-encdec": dict(_KS_NO_SPEC, target="encdec-8l"), "ks-chunked-attn": dict(_KS_NO_SPEC, target="chunked-attn-8l"),
    "ks-triton": dict(_KS_NO_SPEC, attention_backend="triton"),
    "ks-trtllm-mla-gqa": dict(_KS_NO_SPEC, attention_backend=None),
    "ks-round-sm90": dict(_KS_NO_SPEC, gpu="sm90"), "ks-round-sm90-all-memory": dict(_KS_NO_SPEC, gpu="sm90"),
})
KV_SWEEP_CASE.update({k: dict(_KS_NO_SPEC, attention_backend=None, target="deepseek-v3-8l")
                      for k in KV_SWEEP_EXTRA if k.startswith("ks-mla")})
# kv_cache_hook.py handle_kv4_compatibility past the checks KV_POOL_EXTRA reaches: SM100 native NVFP4 (trtllm_mha) with
# each speculative algorithm, PD and HiCache; the NVFP4 prefill backend an explicit dequant dtype needs; the MLA
# branches (FP4 KV on the MLA target: the attention backend, or the decode one under an fa4 prefill)
_NVFP4 = ["--kv-cache-dtype", "nvfp4"]
_FP4MX = ["--kv-cache-dtype", "fp4_mx_block16"]
KV_SWEEP_EXTRA.update({
    "nvfp4-sm100-trtllm": _NVFP4, "nvfp4-sm100-dflash": _NVFP4, "nvfp4-sm100-standalone": _NVFP4,
    "nvfp4-sm100-ngram": _NVFP4, "nvfp4-sm100-ngram-bfs1": _NVFP4 + ["--speculative-ngram-max-bfs-breadth", "1"],
    "nvfp4-sm100-eagle3": _NVFP4, "nvfp4-sm100-eagle3-draft-fi": _NVFP4,
    "nvfp4-sm100-pd": _NVFP4 + ["--disaggregation-mode", "prefill"],
    "nvfp4-sm100-hicache": _NVFP4 + ["--enable-hierarchical-cache"],
    "nvfp4-fp8-prefill-triton": _NVFP4 + ["--prefill-kv-cache-dequant-dtype", "fp8_e4m3", "--prefill-attention-backend",
                                          "triton"],
    "fp4mx-mla-triton": _FP4MX, "fp4mx-mla-flashinfer": _FP4MX,
    "fp4mx-mla-fa4-triton": _FP4MX + ["--prefill-attention-backend", "fa4"],
    "fp4mx-mla-fa4-flashinfer": _FP4MX + ["--prefill-attention-backend", "fa4"],
})
# the CUDA graph hook's --cuda-graph-config backends (0.5.19 on), the prefill graph's max context (0.5.21 on), the CPU
# graph's batch sizes (handle_gpu_memory_settings), the PLE offload backend (0.5.20 on), and the HiCache storage
# layout a decode host receive shares with KV transfer (0.5.21 on)
_HOST_RECEIVE = ["--disaggregation-decode-host-receive-threshold", "0.5", "--hicache-storage-backend"]
KV_SWEEP_EXTRA.update({
    "cg-config-decode-bogus": ["--cuda-graph-config", '{"decode": {"backend": "bogus"}}'],
    "cg-config-prefill-full": ["--cuda-graph-config", '{"prefill": {"backend": "full"}}'],
    "cg-max-context-0": ["--cuda-graph-prefill-max-context", "0"],
    "cg-max-context-1m": ["--cuda-graph-prefill-max-context", "1000000"],
    "cg-max-context-100": ["--cuda-graph-prefill-max-context", "100"],
    "cg-max-context-page-0": ["--cuda-graph-prefill-max-context", "100", "--page-size", "0"],
    "cpu-graph-bs-0": ["--device", "cpu", "--cuda-graph-bs-decode", "0"],
    "cpu-torch-compile-max-bs-neg": ["--device", "cpu", "--torch-compile-max-bs", "-1"],
    "cpu-torch-compile-max-bs-0": ["--device", "cpu", "--torch-compile-max-bs", "0"],
    "ple-file-no-embedding": ["--ple-offload-backend", "file", "--no-ple-offload-embedding"],
    "ple-file": ["--ple-offload-backend", "file"],
    "receive-mooncake": ["--disaggregation-mode", "decode"] + _HOST_RECEIVE + ["mooncake"],
    "receive-mooncake-direct": ["--disaggregation-mode", "decode"] + _HOST_RECEIVE + ["mooncake", "--hicache-io-backend",
                                                                                     "direct"],
    "receive-mooncake-kernel-ascend": ["--disaggregation-mode", "decode"] + _HOST_RECEIVE + [
        "mooncake", "--hicache-io-backend", "kernel_ascend"],
    "receive-file": ["--disaggregation-mode", "decode"] + _HOST_RECEIVE + ["file"],
    "receive-hicache-mooncake": ["--enable-hierarchical-cache"] + _HOST_RECEIVE + ["mooncake"],
})
KV_SWEEP_CASE.update({k: _NO_SPEC for k in KV_SWEEP_EXTRA if k.startswith(("cg-", "cpu-", "ple-", "receive-"))})
# --enable-hisparse (check_server_args' validate_hisparse): the target's family, the radix cache, then (0.5.22 on) mixed
# chunk, a top-k > 1 draft and adaptive speculation, on the MiniMax M3 target (a DSA one reads torch.cuda first here)
_HS = ["--enable-hisparse", "--disable-radix-cache"]
KV_SWEEP_EXTRA.update({
    "hisparse-qwen3": ["--enable-hisparse"], "hisparse-m3": ["--enable-hisparse"], "hisparse-m3-no-radix": _HS,
    "hisparse-m3-mixed": _HS + ["--enable-mixed-chunk"], "hisparse-m3-eagle3": _HS,
    "hisparse-m3-eagle3-topk2": _HS, "hisparse-m3-eagle3-adaptive": _HS + ["--speculative-adaptive"],
})
KV_SWEEP_CASE.update({k: dict(_NO_SPEC, target="minimax-m3-8l") for k in KV_SWEEP_EXTRA if k.startswith("hisparse-m3")})
KV_SWEEP_CASE["hisparse-qwen3"] = _NO_SPEC
_M3_EAGLE3 = {"target": "minimax-m3-8l", "algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 1,
              "num_draft_tokens": 4}
KV_SWEEP_CASE.update({"hisparse-m3-eagle3": _M3_EAGLE3, "hisparse-m3-eagle3-topk2": dict(_M3_EAGLE3, eagle_topk=2),
                      "hisparse-m3-eagle3-adaptive": _M3_EAGLE3})
# the DSA target: KV sharding's dsa backend checks and DSA HiCache layout (0.5.23), HiSparse's KV dtype and DSA backends
_KS_DSA = _KS_CP[:-3] + ["interleave", "--page-size", "64"]
_DSA_TRTLLM = ["--dsa-prefill-backend", "trtllm", "--dsa-decode-backend", "trtllm", "--kv-cache-dtype", "fp8_e4m3"]
KV_SWEEP_EXTRA.update({
    "ks-dsa-fa3": _KS_DSA, "ks-dsa-zigzag": _KS_CP, "ks-dsa-default": _KS_DSA, "ks-dsa-trtllm": _KS_DSA + _DSA_TRTLLM,
    "ks-dsa-trtllm-nixl": _KS_DSA + _DSA_TRTLLM + ["--disaggregation-transfer-backend", "nixl"],
    "ks-dsa-hicache": _KS_DSA + ["--enable-hierarchical-cache"],
    "ks-dsa-hicache-direct": _KS_DSA + ["--enable-hierarchical-cache", "--hicache-io-backend", "direct"],
    "hisparse-dsa-e5m2": _HS + ["--kv-cache-dtype", "fp8_e5m2"],
    "hisparse-dsa-bf16-flashmla-kv": _HS + ["--kv-cache-dtype", "bfloat16", "--dsa-prefill-backend", "flashmla_kv"],
    "hisparse-dsa-bf16": _HS + ["--kv-cache-dtype", "bfloat16"],
})
KV_SWEEP_CASE.update({k: dict(_KS_NO_SPEC, target="dsa-nextn-8l", attention_backend=(
    "fa3" if k in ("ks-dsa-fa3", "ks-dsa-hicache", "ks-dsa-hicache-direct") else "dsa"))
    for k in KV_SWEEP_EXTRA if k.startswith("ks-dsa")})
KV_SWEEP_CASE.update({k: dict(_NO_SPEC, target="dsa-nextn-8l", attention_backend=None)
                      for k in KV_SWEEP_EXTRA if k.startswith("hisparse-dsa")})
# the unified pool on the MLA target: DCP's MLA path (0.5.20 on: hybrid SWA, PD, the full-attention backends) and the
# decode KV offload's MLA refusal (0.5.21 on)
_UM_DCP = ["--enable-unified-memory", "--dcp-size", "2", "--tp-size", "2"]
KV_SWEEP_EXTRA.update({
    "unified-dcp-mla-triton": _UM_DCP, "unified-dcp-mla-flashinfer": _UM_DCP,
    "unified-dcp-mla-pd": _UM_DCP + ["--disaggregation-mode", "prefill"], "unified-dcp-mla-swa": _UM_DCP,
    "unified-mla-decode-offload": ["--enable-unified-memory", "--disaggregation-mode", "decode",
                                   "--disaggregation-decode-enable-offload-kvcache", "--hicache-storage-backend", "file"],
})
KV_SWEEP_CASE.update({k: dict(_NO_SPEC, target="deepseek-v3-8l", attention_backend="flashinfer")
                      for k in ("unified-dcp-mla-flashinfer", "unified-dcp-mla-pd", "unified-mla-decode-offload")})
KV_SWEEP_CASE["unified-dcp-mla-triton"] = dict(_NO_SPEC, target="deepseek-v3-8l", attention_backend="triton")
KV_SWEEP_CASE["unified-dcp-mla-swa"] = dict(_NO_SPEC, target="mla-hybrid-swa-8l", attention_backend="flashinfer")
# ... and on the Mamba-hybrid target: decode KV offload and the host-pool retraction backup (0.5.21 on)
KV_SWEEP_EXTRA.update({
    "unified-mamba-decode-offload": KV_SWEEP_EXTRA["unified-mla-decode-offload"],
    "unified-mamba-host-pool": ["--enable-unified-memory", "--disaggregation-mode", "decode",
                                "--disaggregation-decode-retraction-backup", "host_pool"],
})
KV_SWEEP_CASE.update({k: dict(_NO_SPEC, target="lfm2-hybrid-8l", attention_backend="flashinfer")
                      for k in ("unified-mamba-decode-offload", "unified-mamba-host-pool")})
_SM100_TRTLLM = {"gpu": "sm100", "attention_backend": "trtllm_mha"}
_EAGLE3_B16 = {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4}
_NGRAM = dict(_NO_SPEC, algorithm="NGRAM", window=None, sink=None, max_running_requests=None, **_SM100_TRTLLM)
KV_SWEEP_CASE.update({
    "nvfp4-sm100-trtllm": dict(_NO_SPEC, **_SM100_TRTLLM), "nvfp4-sm100-dflash": _SM100_TRTLLM,
    "nvfp4-sm100-standalone": dict(_SM100_TRTLLM, algorithm="STANDALONE", draft="b16"),
    "nvfp4-sm100-ngram": _NGRAM, "nvfp4-sm100-ngram-bfs1": _NGRAM,
    "nvfp4-sm100-eagle3": dict(_EAGLE3_B16, **_SM100_TRTLLM),
    "nvfp4-sm100-eagle3-draft-fi": dict(_EAGLE3_B16, draft_attention_backend="flashinfer", **_SM100_TRTLLM),
    "nvfp4-sm100-pd": dict(_NO_SPEC, **_SM100_TRTLLM), "nvfp4-sm100-hicache": dict(_NO_SPEC, **_SM100_TRTLLM),
    "nvfp4-fp8-prefill-triton": dict(_NO_SPEC, gpu="sm120"),
})
KV_SWEEP_CASE.update({k: dict(_NO_SPEC, gpu="sm90", target="deepseek-v3-8l", attention_backend=(
    "flashinfer" if k.endswith("flashinfer") else "triton")) for k in KV_SWEEP_EXTRA if k.startswith("fp4mx-mla")})

# -- dsv4 (session 15) --
# DeepSeek-V4's model hook (0.5.23 arg_groups/deepseek_v4_hook.py; sglang_engine/rules_dsv4.py): the KV cache dtype pass
# (overrides.py _deepseek_v4_kv_cache_dtype), --dsv4-attn-backend, the speculative algorithm, DeepSeek-V4.1's features
# (encoder / decoder SWA bounded replay, DSpark PD) and prefill CP, each refusal with accepted neighbours, on an H200
# (an SM100 one is not presented: SGLang's is_sm100_supported reads the host's own torch, not the platform override).
# Swept once without speculation from the release the engine models it (DSV4_SWEEP_SINCE); DSV4_SWEEP_CASE says what an
# entry changes in the case.
DSV4_SWEEP_SINCE = "0.5.21"  # an entry's first release unless DSV4_SWEEP_RANGE names others (dsv4old, session 16)
_DSV4_CP = ["--enable-prefill-cp", "--cp-strategy", "interleave"]
_ENC = ["--enable-encoder-swa-bounded-replay"]
_DEC = ["--enable-decoder-swa-bounded-replay"]
_DSPARK_PD = ["--speculative-algorithm", "DSPARK", "--disaggregation-mode", "prefill"]
_EAGLE_1 = ["--speculative-algorithm", "EAGLE", "--speculative-eagle-topk", "1", "--speculative-num-steps", "3",
            "--speculative-num-draft-tokens", "4"]
DSV4_SWEEP_EXTRA = {
    "dsv4-plain": [], "dsv4-kv-e5m2": ["--kv-cache-dtype", "fp8_e5m2"], "dsv4-kv-bf16": ["--kv-cache-dtype", "bfloat16"],
    "dsv4-attention-triton": ["--attention-backend", "triton"], "dsv4-page-64": ["--page-size", "64"],
    "dsv4-trtllm": ["--dsv4-attn-backend", "trtllm"], "dsv4-trtllm-no-gpu": ["--dsv4-attn-backend", "trtllm"],
    "dsv4-mega": ["--dsv4-attn-backend", "flashmla_mega"], "dsv4-flashmla": ["--dsv4-attn-backend", "flashmla"],
    "dsv4-ngram": ["--speculative-algorithm", "NGRAM"], "dsv4-nextn": ["--speculative-algorithm", "NEXTN",
                                                                      "--speculative-eagle-topk", "1"],
    "dsv4-eagle-lower": ["--speculative-algorithm", "eagle", "--speculative-eagle-topk", "1"],
    "dsv4-eagle-no-topk": ["--speculative-algorithm", "EAGLE"], "dsv4-eagle-topk1": _EAGLE_1,
    "dsv4-eagle-topk2": _EAGLE_1[:3] + ["2"] + _EAGLE_1[4:],
    "dsv4-cp-no-strategy": ["--enable-prefill-cp"], "dsv4-cp-zigzag": _DSV4_CP[:2] + ["zigzag"],
    "dsv4-cp": _DSV4_CP, "dsv4-cp-tp2": _DSV4_CP + ["--tp-size", "2"], "dsv4-cp-tp16": _DSV4_CP + ["--tp-size", "16"],
    "dsv4-cp-dp2": _DSV4_CP + ["--tp-size", "2", "--dp-size", "2"],
    "dsv4-cp-attn-dp-dp": _DSV4_CP + ["--tp-size", "2", "--attn-dp-size", "2", "--dp-size", "2"],
    "dsv4-cp-mooncake-a2a": _DSV4_CP + ["--tp-size", "2", "--moe-a2a-backend", "mooncake", "--ep-size", "2"],
    "dsv4-encoder-replay": _ENC,
    "dsv41-plain": [], "dsv41-mega": ["--dsv4-attn-backend", "flashmla_mega"],
    "dsv41-trtllm": ["--dsv4-attn-backend", "trtllm"], "dsv41-eagle": _EAGLE_1, "dsv41-ngram": ["--speculative-algorithm",
                                                                                              "NGRAM"],
    "dsv41-cp": _DSV4_CP + ["--tp-size", "2"], "dsv41-hisparse": ["--enable-hisparse"],
    "dsv41-tbo": ["--enable-two-batch-overlap"], "dsv41-pp2": ["--pp-size", "2"],
    "dsv41-enc": _ENC, "dsv41-enc-no-gpu": _ENC, "dsv41-enc-mixed": _ENC + ["--enable-mixed-chunk"],
    "dsv41-enc-unified": _ENC + ["--enable-unified-memory"], "dsv41-enc-pd-decode": _ENC + ["--disaggregation-mode",
                                                                                           "decode"],
    "dsv41-enc-lora": _ENC + ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"],
    "dsv41-enc-sessions": _ENC + ["--enable-session-radix-cache"],
    "dsv41-enc-attn-cp": _ENC + ["--attn-cp-size", "2", "--tp-size", "2"],
    "dsv41-enc-graph-full": _ENC + ["--cuda-graph-config", '{"prefill": {"backend": "full"}}'],
    "dsv41-enc-graph-breakable": _ENC + ["--cuda-graph-config", '{"prefill": {"backend": "breakable"}}'],
    "dsv41-enc-chunk-200": _ENC + ["--chunked-prefill-size", "200"],
    "dsv41-enc-chunk-384": _ENC + ["--chunked-prefill-size", "384"],
    "dsv41-enc-no-chunk": _ENC + ["--chunked-prefill-size", "-1"],
    "dsv41-enc-page-64": _ENC + ["--page-size", "64", "--chunked-prefill-size", "200"],
    "dsv41-enc-mrr-0": _ENC + ["--max-running-requests", "0"],
    # 0.5.22's list: DP attention, the external cache linker, a PD prefill server; its budget (a chunk of 128 or more)
    "dsv41-enc-attn-dp": _ENC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "dsv41-enc-linker": _ENC + ["--enable-unified-cache-external-linker"],
    "dsv41-enc-pd-prefill": _ENC + ["--disaggregation-mode", "prefill"],
    "dsv41-enc-chunk-100": _ENC + ["--chunked-prefill-size", "100"],
    "dsv41-dspark-pd-dcp": _DSPARK_PD + ["--dcp-size", "2", "--tp-size", "2"],
    "dsv41-dspark-pd-compact": _DSPARK_PD, "dsv41-dspark-pd-nixl": _DSPARK_PD + ["--disaggregation-transfer-backend",
                                                                                "nixl"],
    "dsv41-dec": _DEC, "dsv41-dec-graph-full": _DEC + ["--cuda-graph-config", '{"prefill": {"backend": "full"}}'],
    "dsv41-dec-attn-dp-deepep": _DEC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--moe-a2a-backend",
                                        "deepep"],
    "dsv41-dec-attn-dp": _DEC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
}
_DSV4_CASE = dict(_NO_SPEC, target="deepseek-v4-8l", gpu="sm90", attention_backend=None, max_running_requests=None)
DSV4_SWEEP_CASE = {k: dict(_DSV4_CASE, target="deepseek-v41-8l") if k.startswith("dsv41-") else _DSV4_CASE
                   for k in DSV4_SWEEP_EXTRA}
DSV4_SWEEP_CASE.update({
    "dsv4-trtllm-no-gpu": dict(_DSV4_CASE, gpu=None), "dsv41-enc-no-gpu": dict(_DSV4_CASE, target="deepseek-v41-8l",
                                                                               gpu=None),
    "dsv41-dspark-pd-compact": dict(_DSV4_CASE, target="deepseek-v41-8l", env={"SGLANG_RAGGED_VERIFY_MODE": "compact"}),
})
# -- dsv4old (session 16) --
# the hook in 0.5.15-0.5.20 (rules_dsv4._OLD_GENS, trait dsv4_hook "v15".."v20"): the entries above that those releases
# parse, from the release named in DSV4_SWEEP_RANGE (since, until; every other entry is swept from 0.5.21), and the
# MegaMoE prefill budget (validate_deepseek_v4_mega_moe_token_budget, 0.5.17-0.5.20) with a given chunked prefill size
_DSV4_MEGA = ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size"]
DSV4_SWEEP_EXTRA.update({
    "dsv4old-dspark": ["--speculative-algorithm", "DSPARK"],
    "dsv4old-mega-no-chunk": _DSV4_MEGA + ["-1"], "dsv4old-mega-chunk-1024": _DSV4_MEGA + ["1024"],
    "dsv4old-mega-chunk-2048": _DSV4_MEGA + ["2048"], "dsv4old-mega-chunk-16384": _DSV4_MEGA + ["16384"],
    "dsv4old-mega-env-cap": _DSV4_MEGA + ["4096"], "dsv4old-mega-decode": _DSV4_MEGA + ["16384", "--disaggregation-mode",
                                                                                       "decode"],
    "dsv4old-mega-tp2": _DSV4_MEGA + ["8448", "--tp-size", "2"],
    "dsv4old-mega-dp-attn": _DSV4_MEGA + ["2", "--tp-size", "4", "--dp-size", "4", "--enable-dp-attention"],
    "dsv4old-mega-dp-attn-ok": _DSV4_MEGA + ["16384", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "dsv4old-mega-cp": _DSV4_MEGA + ["33024"] + _DSV4_CP + ["--tp-size", "4"],
    "dsv4old-mega-cp-ok": _DSV4_MEGA + ["16384"] + _DSV4_CP + ["--tp-size", "2"],
    "dsv4old-env-mega": ["--chunked-prefill-size", "2048"], "dsv4old-env-mega-off": ["--chunked-prefill-size", "2048"],
    "dsv4old-cp-deepep-a2a": _DSV4_CP + ["--tp-size", "2", "--moe-a2a-backend", "deepep", "--ep-size", "2"],
})
DSV4_SWEEP_CASE.update({k: _DSV4_CASE for k in DSV4_SWEEP_EXTRA if k.startswith("dsv4old-")})
DSV4_SWEEP_CASE.update({
    "dsv4old-mega-env-cap": dict(_DSV4_CASE, env={"SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK": "2048"}),
    "dsv4old-env-mega": dict(_DSV4_CASE, env={"SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE": "1"}),
    "dsv4old-env-mega-off": dict(_DSV4_CASE, env={"SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE": "0"}),
})
_DSV4_MEGA_RANGE = ("0.5.17", "0.5.20")
DSV4_SWEEP_RANGE = dict(
    {k: ("0.5.15", None) for k in ("dsv4-plain", "dsv4-kv-e5m2", "dsv4-kv-bf16", "dsv4-attention-triton", "dsv4-page-64",
                                   "dsv4-ngram", "dsv4-nextn", "dsv4-eagle-lower", "dsv4-eagle-no-topk",
                                   "dsv4-eagle-topk1", "dsv4-eagle-topk2", "dsv4-cp-no-strategy", "dsv4-cp-zigzag",
                                   "dsv4-cp", "dsv4-cp-tp2", "dsv4-cp-tp16", "dsv4-cp-dp2", "dsv4-cp-mooncake-a2a")},
    **{k: ("0.5.20", None) for k in ("dsv4-trtllm", "dsv4-trtllm-no-gpu", "dsv4-flashmla")},
    **{k: _DSV4_MEGA_RANGE for k in DSV4_SWEEP_EXTRA if k.startswith("dsv4old-mega-")},
    **{"dsv4old-dspark": ("0.5.15", "0.5.15.post1"), "dsv4old-env-mega": ("0.5.17", "0.5.17"),
       "dsv4old-env-mega-off": ("0.5.17", "0.5.17"), "dsv4old-cp-deepep-a2a": ("0.5.15", "0.5.20")})
# -- dsv4-12 (session 17) --
# the hook's first form (0.5.12-0.5.14; rules_dsv4._FIRST_GENS, "v14"): the entries above the older parsers take, from
# 0.5.12 (the ones with --enable-prefill-cp from 0.5.14, its flag), and 0.5.12-0.5.13.post1's legacy prefill CP flags
# (--enable-nsa-prefill-context-parallel / --nsa-prefill-cp-mode; 0.5.13's DSA names, the NSA ones its aliases) with
# their round-robin-split mode, and 0.5.12's PD pipeline check (a PD prefill server with pp 2, on the releases after it too)
_DSV4_NSA_CP = ["--enable-nsa-prefill-context-parallel"]
DSV4_SWEEP_EXTRA.update({
    "dsv4-12-nsa-cp": _DSV4_NSA_CP, "dsv4-12-nsa-cp-tp2": _DSV4_NSA_CP + ["--tp-size", "2"],
    "dsv4-12-nsa-cp-in-seq": _DSV4_NSA_CP + ["--nsa-prefill-cp-mode", "in-seq-split"],
    "dsv4-12-nsa-cp-dp2": _DSV4_NSA_CP + ["--tp-size", "2", "--dp-size", "2"],
    "dsv4-12-nsa-cp-tp16": _DSV4_NSA_CP + ["--tp-size", "16"],
    "dsv4-12-dsa-cp-in-seq": ["--enable-dsa-prefill-context-parallel", "--dsa-prefill-cp-mode", "in-seq-split"],
    "dsv4-12-pd-pp2": ["--disaggregation-mode", "prefill", "--pp-size", "2"],
})
DSV4_SWEEP_CASE.update({k: _DSV4_CASE for k in DSV4_SWEEP_EXTRA if k.startswith("dsv4-12-")})
DSV4_SWEEP_RANGE.update({k: ("0.5.12", "0.5.13.post1") for k in DSV4_SWEEP_EXTRA if k.startswith("dsv4-12-nsa-")})
DSV4_SWEEP_RANGE.update({"dsv4-12-dsa-cp-in-seq": ("0.5.13", "0.5.13.post1"), "dsv4-12-pd-pp2": ("0.5.12", "0.5.14"),
                         "dsv4old-dspark": ("0.5.12", "0.5.15.post1"), "dsv4old-cp-deepep-a2a": ("0.5.14", "0.5.20")})
DSV4_SWEEP_RANGE.update({k: ("0.5.12", None) for k in ("dsv4-plain", "dsv4-kv-e5m2", "dsv4-kv-bf16", "dsv4-attention-triton",
                                                      "dsv4-page-64", "dsv4-ngram", "dsv4-nextn", "dsv4-eagle-lower",
                                                      "dsv4-eagle-no-topk", "dsv4-eagle-topk1", "dsv4-eagle-topk2")})
DSV4_SWEEP_RANGE.update({k: ("0.5.14", None) for k in ("dsv4-cp-no-strategy", "dsv4-cp-zigzag", "dsv4-cp", "dsv4-cp-tp2",
                                                      "dsv4-cp-tp16", "dsv4-cp-dp2", "dsv4-cp-mooncake-a2a")})
# -- overrides (session 15) --
# the resolution pipeline's post-process passes (srt/arg_groups/overrides.py, 0.5.15 on; their checks sit in
# server_args.py before): the TRTLLM / CuteDSL MLA backends' GPU and KV dtype checks (attention hook), the DP LM head
# and TP LM-head all-to-all (data-parallel defaults), --quantization nvfp4_online's MoE runners, the DSA TileLang FP8 KV
# checks (an SM80 GPU), the SSM cache chunk size (the model hook's extra-buffer validation). Swept once, without
# speculation, on the entry's target and GPU (OVR_SWEEP_CASE); not drawn.
_OVR_TP_LM = ["--enable-tp-lm-head-all-to-all"]
_OVR_DP_ATTN = ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
OVR_SWEEP_EXTRA = {
    "ovr-trtllm-mla-sm90": [], "ovr-trtllm-mla-sm100-e5m2": [], "ovr-trtllm-mla-sm100": [],
    "ovr-trtllm-mla-decode-sm120-e5m2": ["--decode-attention-backend", "trtllm_mla"],
    "ovr-trtllm-mla-cpu": [], "ovr-trtllm-mla-sm100-fp4": [],
    "ovr-cutedsl-prefill-cpu": ["--prefill-attention-backend", "cutedsl_mla"],
    "ovr-cutedsl-decode-cpu": ["--decode-attention-backend", "cutedsl_mla"],
    "ovr-tokenspeed-mla-sm90": [], "ovr-tokenspeed-mla-sm100-bf16": [], "ovr-tokenspeed-mla-sm100": [],
    "ovr-cutedsl-prefill": ["--prefill-attention-backend", "cutedsl_mla"],
    "ovr-cutedsl-decode-sm90": ["--decode-attention-backend", "cutedsl_mla"],
    "ovr-cutedsl-sm100-e5m2": [], "ovr-cutedsl-sm100": [], "ovr-cutedsl-sm100-bfloat16": [],
    "ovr-dp-lm-head-replicas": ["--dp-size", "2", "--enable-dp-lm-head"],
    "ovr-dp-lm-head-dp-attn": _OVR_DP_ATTN + ["--enable-dp-lm-head"],
    "ovr-dp-lm-head-tp2": ["--tp-size", "2", "--enable-dp-lm-head"],
    "ovr-tp-lm-head-alone": _OVR_TP_LM,
    "ovr-tp-lm-head-dp-lm-head": _OVR_DP_ATTN + ["--enable-dp-lm-head"] + _OVR_TP_LM,
    "ovr-tp-lm-head-tp4": ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention"] + _OVR_TP_LM,
    "ovr-tp-lm-head-cp2": ["--tp-size", "4", "--dp-size", "4", "--enable-dp-attention", "--attn-cp-size", "2"] + _OVR_TP_LM,
    "ovr-tp-lm-head-cp2-tp8": ["--tp-size", "8", "--dp-size", "4", "--enable-dp-attention", "--attn-cp-size", "2"]
    + _OVR_TP_LM,
    "ovr-tp-lm-head-ok": _OVR_DP_ATTN + _OVR_TP_LM,
    "ovr-tp-lm-head-off": _OVR_DP_ATTN + ["--enable-dp-lm-head", "--no-enable-tp-lm-head-all-to-all"],
    "ovr-nvfp4-online-megamoe": ["--quantization", "nvfp4_online", "--moe-runner-backend", "flashinfer_megamoe"],
    "ovr-nvfp4-online-cutedsl": ["--quantization", "nvfp4_online", "--moe-runner-backend", "flashinfer_cutedsl"],
    "ovr-dsa-tilelang-sm80": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang",
                              "--dsa-decode-backend", "tilelang"],
    "ovr-dsa-tilelang-sm90": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang",
                              "--dsa-decode-backend", "tilelang"],
    "ovr-dsa-tilelang-hisparse": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang",
                                  "--dsa-decode-backend", "tilelang", "--enable-hisparse", "--disable-radix-cache"],
    "ovr-dsa-tilelang-prefill-hisparse": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang",
                                          "--enable-hisparse", "--disable-radix-cache"],
    "ovr-mamba-chunk-page-96": ["--mamba-radix-cache-strategy", "extra_buffer", "--page-size", "96",
                                "--mamba-track-interval", "192"],
    "ovr-mamba-chunk-page-128": ["--mamba-radix-cache-strategy", "extra_buffer", "--page-size", "128",
                                 "--mamba-track-interval", "256"],
}
_OVR = dict(_NO_SPEC, window=None, sink=None, max_running_requests=None, attention_backend=None)
_OVR_MLA = dict(_OVR, target="deepseek-v3-8l", needs_override=True)
OVR_SWEEP_CASE = {k: dict(_OVR) for k in OVR_SWEEP_EXTRA}
OVR_SWEEP_CASE.update({
    "ovr-trtllm-mla-sm90": dict(_OVR_MLA, gpu="sm90", attention_backend="trtllm_mla"),
    "ovr-trtllm-mla-sm100-e5m2": dict(_OVR_MLA, gpu="sm100", attention_backend="trtllm_mla", kv_cache_dtype="fp8_e5m2"),
    "ovr-trtllm-mla-sm100": dict(_OVR_MLA, gpu="sm100", attention_backend="trtllm_mla", kv_cache_dtype="fp8_e4m3",
                                 page_size=64),
    "ovr-trtllm-mla-decode-sm120-e5m2": dict(_OVR_MLA, gpu="sm120", attention_backend="triton", kv_cache_dtype="fp8_e5m2"),
    "ovr-trtllm-mla-cpu": dict(_OVR, target="deepseek-v3-8l", attention_backend="trtllm_mla"),
    "ovr-cutedsl-prefill-cpu": dict(_OVR, target="deepseek-v3-8l"),
    "ovr-cutedsl-decode-cpu": dict(_OVR, target="deepseek-v3-8l", attention_backend="triton"),
    # FP4 KV: TRTLLM MLA took fp4_e2m1 in 0.5.19-0.5.20; tokenspeed MLA (0.5.19-0.5.22): Blackwell, FP8 KV only
    "ovr-trtllm-mla-sm100-fp4": dict(_OVR_MLA, gpu="sm100", attention_backend="trtllm_mla", kv_cache_dtype="fp4_e2m1",
                                     page_size=64),
    "ovr-tokenspeed-mla-sm90": dict(_OVR_MLA, gpu="sm90", attention_backend="tokenspeed_mla"),
    "ovr-tokenspeed-mla-sm100-bf16": dict(_OVR_MLA, gpu="sm100", attention_backend="tokenspeed_mla", kv_cache_dtype="bf16",
                                          page_size=64),
    "ovr-tokenspeed-mla-sm100": dict(_OVR_MLA, gpu="sm100", attention_backend="tokenspeed_mla", kv_cache_dtype="fp8_e4m3",
                                     page_size=64),
    "ovr-cutedsl-prefill": dict(_OVR_MLA, gpu="sm100"),
    "ovr-cutedsl-decode-sm90": dict(_OVR_MLA, gpu="sm90", attention_backend="triton"),
    "ovr-cutedsl-sm100-e5m2": dict(_OVR_MLA, gpu="sm100", attention_backend="cutedsl_mla", kv_cache_dtype="fp8_e5m2"),
    "ovr-cutedsl-sm100": dict(_OVR_MLA, gpu="sm100", attention_backend="cutedsl_mla", page_size=64),
    "ovr-cutedsl-sm100-bfloat16": dict(_OVR_MLA, gpu="sm100", attention_backend="cutedsl_mla", kv_cache_dtype="bfloat16",
                                       page_size=64),
    "ovr-nvfp4-online-megamoe": dict(_OVR, target="qwen3-moe-8l", gpu="sm100", needs_override=True),
    "ovr-nvfp4-online-cutedsl": dict(_OVR, target="qwen3-moe-8l", gpu="sm100", needs_override=True),
    "ovr-dsa-tilelang-sm80": dict(_OVR, target="deepseek-v32-dsa-8l", gpu="sm80", needs_override=True),
    "ovr-dsa-tilelang-sm90": dict(_OVR, target="deepseek-v32-dsa-8l", gpu="sm90", needs_override=True, page_size=64),
    "ovr-dsa-tilelang-hisparse": dict(_OVR, target="deepseek-v32-dsa-8l", gpu="sm90", needs_override=True),
    "ovr-dsa-tilelang-prefill-hisparse": dict(_OVR, target="deepseek-v32-dsa-8l", gpu="sm90", needs_override=True),
    "ovr-mamba-chunk-page-96": dict(_OVR, target="qwen3-next-8l", attention_backend="triton", gpu="sm90",
                                    needs_override=True),
    "ovr-mamba-chunk-page-128": dict(_OVR, target="qwen3-next-8l", attention_backend="triton", gpu="sm90",
                                     needs_override=True),
})
# `since`: the MLA backend checks as modelled from 0.5.15 (trait mla_backend_checks; on this host without a GPU there,
# a GPU presented from 0.5.19), the DP LM head's from 0.5.15 and the TP LM-head all-to-all's where its flag is (0.5.18;
# trait lm_head_dp_checks), the DeepSeek family's DSA pass as the engine models it (0.5.22, as the model entries' DSA
# ones)
for _k, _v in OVR_SWEEP_CASE.items():
    _v["since"] = "0.5.22" if _k.startswith("ovr-dsa-") else "0.5.18" if _k.startswith("ovr-tp-lm") else \
        "0.5.15" if _k.endswith("-cpu") or _k.startswith("ovr-dp-lm") else "0.5.19"
# -- old-a (session 15) --
# Refusals the older releases' srt/server_args.py gives that the speculative sweep bases never reach
# (sglang_engine/rules_legacy.py, resolve._check_lora): through 0.5.18 LoRA takes NGRAM only, so the LoRA checks need a
# case without speculation; the rest are checks only those releases have. Swept once on the DFLASH base without
# speculation (OLD_SWEEP_CASE: what an entry changes in the case; "since" / "until": the releases it is swept on, where
# the engine models the check and its neighbours), not drawn.
_OLD_LORA = ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"]
OLD_SWEEP_EXTRA = {
    "old-lora-all-plus": _OLD_LORA + ["q_proj"], "old-lora-bare": ["--enable-lora"],
    "old-lora-loaded-lt-batch": ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "q_proj",
                                 "--max-loaded-loras", "1", "--max-loras-per-batch", "2"],
    "old-lora-paths-over-loaded": ["--max-loras-per-batch", "1", "--max-loaded-loras", "1", "--lora-paths",
                                   "/nonexistent/a", "/nonexistent/b"],
    "old-lora-virtual-experts": _OLD_LORA + ["--lora-use-virtual-experts"],
    "old-lora-virtual-experts-triton": _OLD_LORA + ["--lora-use-virtual-experts", "--lora-backend", "triton"],
    "old-dp-lm-head-no-attn": ["--enable-dp-lm-head", "--dp-size", "2"],
    "old-dp-lm-head-dp1": ["--enable-dp-lm-head"],
    "old-ascend-fuse-mode-3": ["--moe-a2a-backend", "ascend_fuseep"],
    "old-ascend-fuse-mode-2": ["--moe-a2a-backend", "ascend_fuseep"],
    "old-ascend-fuse-mode-2-modelslim": ["--moe-a2a-backend", "ascend_fuseep", "--quantization", "modelslim"],
    "old-intel-xpu-mla-prefill": ["--prefill-attention-backend", "intel_xpu"],
    "old-intel-xpu-mla-attention": ["--attention-backend", "intel_xpu"],
    "old-intel-xpu-dense-prefill": ["--prefill-attention-backend", "intel_xpu"],
    "old-elastic-rejoin": ["--elastic-ep-rejoin"],
    "old-elastic-rejoin-backend": ["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake"],
    "old-elastic-rejoin-join-scale": ["--elastic-ep-rejoin", "--elastic-ep-join-mode", "scale"],
    # an FP4 KV cache on this host without a platform override (through 0.5.18): is_cuda() is false
    "old-kv4-no-cuda": ["--kv-cache-dtype", "fp4_e2m1"],
    # the env-only native gRPC server (SGLANG_ENABLE_GRPC) on --port itself, and on another port (0.5.11-0.5.15.post1)
    "old-grpc-env-same-port": [], "old-grpc-env-other-port": [],
    # --lora-drain-wait-threshold (0.5.12 on) without speculation, which LoRA refuses first through 0.5.18
    "old-lora-drain-neg": _OLD_LORA + ["--lora-drain-wait-threshold", "-1"],
    # EAGLE3 with topk 4: rejection sampling (its flag from 0.5.14) and a paged triton tree (0.5.11-0.5.12.post1)
    "old-rejection-topk4": ["--speculative-use-rejection-sampling"],
    "old-eagle-page-tree-triton": ["--page-size", "16"], "old-eagle-page-tree-flashinfer": ["--page-size", "16"],
}
OLD_SWEEP_CASE = {k: dict(_NO_SPEC) for k in OLD_SWEEP_EXTRA}
_OLD_EAGLE3_TOPK4 = {"algorithm": "EAGLE3", "target": "llama-32l", "draft": "b16", "num_draft_tokens": 8, "num_steps": 3,
                     "eagle_topk": 4}
OLD_SWEEP_CASE.update({
    # 0.5.15 moves the DP LM head check into arg_groups/overrides.py (not modelled here)
    "old-dp-lm-head-no-attn": dict(_NO_SPEC, until="0.5.14"), "old-dp-lm-head-dp1": dict(_NO_SPEC, until="0.5.14"),
    # 0.5.16 reads SGLANG_NPU_FUSED_MOE_MODE at parsing instead (_apply_fuseep_mode_env_compat, not modelled here)
    "old-ascend-fuse-mode-3": dict(_NO_SPEC, env={"SGLANG_NPU_FUSED_MOE_MODE": "3"}, until="0.5.15.post1"),
    "old-ascend-fuse-mode-2": dict(_NO_SPEC, env={"SGLANG_NPU_FUSED_MOE_MODE": "2"}, until="0.5.15.post1"),
    "old-ascend-fuse-mode-2-modelslim": dict(_NO_SPEC, env={"SGLANG_NPU_FUSED_MOE_MODE": "2"}, until="0.5.15.post1"),
    # an MLA target (DeepSeek-V3), its backend given: the page size an intel_xpu decode backend sets is not modelled
    "old-intel-xpu-mla-prefill": dict(_NO_SPEC, target="deepseek-v3-8l", attention_backend=None, until="0.5.19"),
    "old-intel-xpu-mla-attention": dict(_NO_SPEC, target="deepseek-v3-8l", attention_backend=None, until="0.5.19"),
    "old-intel-xpu-dense-prefill": dict(_NO_SPEC, until="0.5.19"),
    "old-elastic-rejoin-join-scale": dict(_NO_SPEC, since="0.5.16"),
    "old-kv4-no-cuda": dict(_NO_SPEC, until="0.5.18"),
    "old-grpc-env-same-port": dict(_NO_SPEC, env={"SGLANG_ENABLE_GRPC": "1", "SGLANG_GRPC_PORT": "30000"},
                                   until="0.5.15.post1"),
    "old-grpc-env-other-port": dict(_NO_SPEC, env={"SGLANG_ENABLE_GRPC": "1", "SGLANG_GRPC_PORT": "30001"},
                                    until="0.5.15.post1"),
    "old-rejection-topk4": dict(_OLD_EAGLE3_TOPK4, since="0.5.14", until="0.5.18"),
    "old-eagle-page-tree-triton": dict(_OLD_EAGLE3_TOPK4, until="0.5.12.post1"),
    "old-eagle-page-tree-flashinfer": dict(_OLD_EAGLE3_TOPK4, attention_backend="flashinfer", until="0.5.12.post1"),
})

# -- cache (session 16) --: the cache / serving leftovers of 0.5.16-0.5.21, on the old-a sweep's since / until rails:
# hicache_hook.py validate_hicache_host_memory_mode's buffer_only + write_back (0.5.19-0.5.21, with its write_through
# neighbour), the deprecated --keep-mm-feature-on-device against another transport (0.5.16-0.5.20; cuda_vmm from
# 0.5.18), and handle_expert_distribution_metrics' SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC (0.5.18-0.5.20, with a
# release either side where the environment is not read)
_CACHE16_BUFFER = ["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only", "--hicache-storage-backend",
                   "file", "--hicache-write-policy"]
OLD_SWEEP_EXTRA.update({
    "cache16-buffer-write-back": _CACHE16_BUFFER + ["write_back"],
    "cache16-buffer-write-through": _CACHE16_BUFFER + ["write_through"],
    "cache16-keep-mm-cpu": ["--keep-mm-feature-on-device", "--mm-feature-transport", "cpu"],
    "cache16-keep-mm-vmm": ["--keep-mm-feature-on-device", "--mm-feature-transport", "cuda_vmm"],
    "cache16-keep-mm-ipc-sm90": ["--keep-mm-feature-on-device", "--mm-feature-transport", "cuda_ipc"],
    "cache16-eplb-balancedness-env": [],
    "cache16-vmm-rust-server-sm90": ["--mm-feature-transport", "cuda_vmm"],
})
OLD_SWEEP_CASE.update({
    "cache16-buffer-write-back": dict(_NO_SPEC, since="0.5.19", until="0.5.21"),
    "cache16-buffer-write-through": dict(_NO_SPEC, since="0.5.19", until="0.5.21"),
    "cache16-keep-mm-cpu": dict(_NO_SPEC, since="0.5.16", until="0.5.20"),
    "cache16-keep-mm-vmm": dict(_NO_SPEC, since="0.5.18", until="0.5.20"),
    "cache16-keep-mm-ipc-sm90": dict(_NO_SPEC, gpu="sm90", needs_override=True, since="0.5.19", until="0.5.20"),
    "cache16-eplb-balancedness-env": dict(_NO_SPEC, env={"SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC": "1"}, since="0.5.17",
                                          until="0.5.21"),
    # handle_multimodal_feature_transport: cuda_vmm under the Rust server (0.5.19's serving_hook.py; 0.5.18's reads
    # the GPU without a platform override here)
    "cache16-vmm-rust-server-sm90": dict(_NO_SPEC, gpu="sm90", needs_override=True, env={"SGLANG_RUST_SERVER": "1"},
                                         since="0.5.19", until="0.5.19"),
})


# -- mamba (session 16) --
# The Mamba / Nemotron-H checks the older releases (no platform override through 0.5.18) run on this host without a
# GPU, swept with OLD_SWEEP_EXTRA's entries (once, on the DFLASH base without speculation, on the releases `since` /
# `until` name; 0.5.19 on, ATTN_CHECK_EXTRA's GPU-host entries reach them): srt/server_args.py
# _validate_mamba_no_buffer / _validate_mamba_extra_buffer's first assert on the hybrid GDN target (0.5.14-0.5.18; the
# rest of extra_buffer asserts a CUDA host first), _handle_mamba_backend's FlashInfer check (the radix cache off: on
# this host it refuses extra_buffer first), and the Nemotron-H branch's relu2 and triton asserts (the radix cache off,
# which 0.5.12-0.5.14 run between them; sglang_engine/rules_mamba.py, rules_model.check_nemotron_h_branch)
_M16_NEXT = dict(_NO_SPEC, target="qwen3-next-8l", since="0.5.14", until="0.5.18")
_M16_MAMBA = {
    "m16-no-buffer-page16": ["--mamba-radix-cache-strategy", "no_buffer", "--page-size", "16"],
    "m16-no-buffer-overlap": ["--mamba-radix-cache-strategy", "no_buffer"],
    "m16-no-buffer-trtllm": ["--mamba-radix-cache-strategy", "no_buffer", "--disable-overlap-schedule"],
    "m16-no-buffer-ok": ["--mamba-radix-cache-strategy", "no_buffer", "--disable-overlap-schedule"],
    "m16-extra-buffer-cutedsl": ["--mamba-radix-cache-strategy", "extra_buffer", "--linear-attn-backend", "cutedsl"],
    "m16-mamba-flashinfer": ["--mamba-backend", "flashinfer", "--disable-radix-cache"],
    "m16-nemotron-triton": ["--disable-radix-cache"], "m16-nemotron-flashinfer": ["--disable-radix-cache"],
    "m16-nemotron-fp8-silu": ["--disable-radix-cache"],
}
OLD_SWEEP_EXTRA.update(_M16_MAMBA)
OLD_SWEEP_CASE.update({k: dict(_M16_NEXT) for k in _M16_MAMBA})
OLD_SWEEP_CASE["m16-no-buffer-trtllm"] = dict(_M16_NEXT, attention_backend="trtllm_mha")
OLD_SWEEP_CASE["m16-mamba-flashinfer"] = dict(_M16_NEXT, since=None)
OLD_SWEEP_CASE["m16-nemotron-triton"] = dict(_NO_SPEC, target="nemotron-h-8l", until="0.5.18")
OLD_SWEEP_CASE["m16-nemotron-flashinfer"] = dict(_NO_SPEC, target="nemotron-h-8l", attention_backend="flashinfer",
                                                 until="0.5.18")
# a ModelOpt FP8 checkpoint whose MLP is not relu2 (the branch's first assert; 0.5.19 on, the quant sweep's entry)
OLD_SWEEP_CASE["m16-nemotron-fp8-silu"] = dict(_NO_SPEC, target="nemotron-h-fp8-silu-8l", attention_backend="flashinfer",
                                               until="0.5.18")

# -- oldgpu (session 17) --
# 0.5.11-0.5.13 srt/server_args.py _handle_mamba_radix_cache, from _handle_model_specific_adjustments' Qwen3-Next and
# Lfm2 branches (sglang_engine/rules_mamba.py check_mamba_radix_cache_legacy), judged through the oracle's GPU stand-in:
# each refusal in SGLang's order, the no_buffer page rewrite and the SM100 default backend; once, on the DFLASH base without
# speculation (the speculative entries with DFLASH on the hybrid target), on the releases `since` / `until` name
_OG_NEXT = dict(_NO_SPEC, target="qwen3-next-8l", gpu="sm90", needs_override=True, until="0.5.13.post1")
_OG_EXTRA = ["--mamba-scheduler-strategy", "extra_buffer"]
_OG_MAMBA = {
    "og-mamba-extra-no-radix": _OG_EXTRA + ["--disable-radix-cache"],
    "og-mamba-extra-cpu": _OG_EXTRA,
    "og-mamba-extra-track-draft": _OG_EXTRA + ["--speculative-num-draft-tokens", "16", "--mamba-track-interval", "8"],
    "og-mamba-extra-track-page": _OG_EXTRA + ["--page-size", "16", "--mamba-track-interval", "24"],
    "og-mamba-extra-chunk-page": _OG_EXTRA + ["--page-size", "96", "--mamba-track-interval", "192"],
    "og-mamba-extra-ok": _OG_EXTRA + ["--page-size", "16", "--mamba-track-interval", "32"],
    "og-mamba-lazy-draft": ["--mamba-scheduler-strategy", "extra_buffer_lazy", "--speculative-num-draft-tokens", "16"],
    "og-mamba-no-buffer-page": ["--page-size", "16"],
    "og-mamba-no-buffer-spec": [],
    "og-mamba-no-buffer-spec-no-radix": ["--disable-radix-cache"],
    "og-mamba-no-buffer-trtllm-sm100": [],
    "og-mamba-sm100-default": [],
    "og-mamba-sm100-default-no-radix": ["--disable-radix-cache"],
    "og-mamba-sm100-default-extra": _OG_EXTRA,
    "og-mamba-lfm2-extra": _OG_EXTRA, "og-mamba-lfm2-page": ["--page-size", "16"],
}
OLD_SWEEP_EXTRA.update(_OG_MAMBA)
OLD_SWEEP_CASE.update({k: dict(_OG_NEXT) for k in _OG_MAMBA})
OLD_SWEEP_CASE["og-mamba-extra-cpu"] = dict(_OG_NEXT, gpu=None, needs_override=False)
OLD_SWEEP_CASE["og-mamba-lazy-draft"] = dict(_OG_NEXT, since="0.5.13")
for _k in ("og-mamba-no-buffer-spec", "og-mamba-no-buffer-spec-no-radix"):
    OLD_SWEEP_CASE[_k] = dict(_OG_NEXT, algorithm="DFLASH", draft="b16")
OLD_SWEEP_CASE["og-mamba-no-buffer-trtllm-sm100"] = dict(_OG_NEXT, gpu="sm100", attention_backend="trtllm_mha")
for _k in ("og-mamba-sm100-default", "og-mamba-sm100-default-no-radix", "og-mamba-sm100-default-extra"):
    OLD_SWEEP_CASE[_k] = dict(_OG_NEXT, gpu="sm100", attention_backend=None)
for _k in ("og-mamba-lfm2-extra", "og-mamba-lfm2-page"):  # the Lfm2 branch (no extra_buffer)
    OLD_SWEEP_CASE[_k] = dict(_OG_NEXT, target="lfm2-hybrid-8l", attention_backend="flashinfer")

# -- mamba (session 18) --
# The model hook's extra_buffer Mamba radix cache on the hybrid GDN target with speculation (srt/server_args.py
# _validate_mamba_extra_buffer 0.5.14-0.5.18, arg_groups/mamba_hook.py validate_mamba_extra_buffer 0.5.19 on; the
# model hook runs before the speculative hooks, so its checks read the flags given), on the DFLASH base through the
# GPU stand-in (sglang_engine/rules_mamba.py check_mamba_radix_cache, trait mamba_lazy_spec_refused):
# extra_buffer_lazy with --speculative-num-draft-tokens given (refused 0.5.14-0.5.16, with or without an algorithm),
# with DFLASH (refused 0.5.17 only; 0.5.14-0.5.16 and 0.5.18 import flashinfer for DFLASH's sampler later, absent from
# this host), and the checks before and after it. Where DFLASH reaches no refusal SGLang imports flashinfer on the
# stand-in: those stay unswept
_W18_NEXT = dict(target="qwen3-next-8l", gpu="sm90", needs_override=True, since="0.5.14")
_W18_LAZY = ["--mamba-radix-cache-strategy", "extra_buffer_lazy"]
_W18_MAMBA = {
    "w18-mamba-lazy-draft": _W18_LAZY + ["--speculative-num-draft-tokens", "16"],
    "w18-mamba-lazy-dflash-draft": _W18_LAZY + ["--speculative-num-draft-tokens", "16"],
    "w18-mamba-lazy-dflash": _W18_LAZY,
    "w18-mamba-lazy-dflash-pd": _W18_LAZY + ["--disaggregation-mode", "prefill"],
    "w18-mamba-lazy-dflash-cpu": _W18_LAZY,
    "w18-mamba-extra-dflash-cutedsl": ["--mamba-radix-cache-strategy", "extra_buffer", "--linear-attn-backend",
                                       "cutedsl"],
    "w18-mamba-extra-dflash-track-draft": ["--mamba-radix-cache-strategy", "extra_buffer", "--speculative-num-draft-"
                                           "tokens", "16", "--mamba-track-interval", "8"],
}
OLD_SWEEP_EXTRA.update(_W18_MAMBA)
OLD_SWEEP_CASE.update({k: dict(_W18_NEXT) for k in _W18_MAMBA})
OLD_SWEEP_CASE["w18-mamba-lazy-draft"] = dict(_NO_SPEC, **_W18_NEXT, until="0.5.18")  # taken 0.5.17 on
OLD_SWEEP_CASE["w18-mamba-lazy-dflash-draft"] = dict(_W18_NEXT, until="0.5.18")  # taken 0.5.18
OLD_SWEEP_CASE["w18-mamba-lazy-dflash"] = dict(_W18_NEXT, since="0.5.17", until="0.5.17")
OLD_SWEEP_CASE["w18-mamba-lazy-dflash-pd"] = dict(_W18_NEXT, since="0.5.17")
OLD_SWEEP_CASE["w18-mamba-lazy-dflash-cpu"] = dict(_W18_NEXT, gpu=None, needs_override=False)
# _handle_kv4_compatibility's backend lists for the FP4 KV cache (fp4_e2m1 through 0.5.15.post1: trait kv4_dtypes;
# rules_cache.check_kv_dtype_platform), inside `if is_cuda()`: an MHA and an MLA target, the attention backend or, under
# an fa4 prefill, the decode one; and the trtllm_mha top-k check (0.5.11-0.5.12 srt/server_args.py
# _handle_speculative_decoding, 0.5.13-0.5.15.post1 arg_groups/speculative_hook.py), on SM100 where the attention hook
# takes trtllm_mha
_OG_KV4 = ["--kv-cache-dtype", "fp4_e2m1"]
_OG_KV4_CASE = dict(_NO_SPEC, gpu="sm90", needs_override=True, until="0.5.15.post1")
_OG_KV4_MLA = dict(_OG_KV4_CASE, target="deepseek-v3-8l")
_OG_GPU = {
    "og-kv4-mha-flashinfer": _OG_KV4, "og-kv4-mha-triton": _OG_KV4,
    "og-kv4-mha-fa4-flashinfer": _OG_KV4 + ["--prefill-attention-backend", "fa4", "--decode-attention-backend",
                                            "flashinfer"],
    # the page size given: an FA4 prefill on SM100 sets 128 for a non-MLA target (not modelled)
    "og-kv4-mha-fa4-triton": _OG_KV4 + ["--prefill-attention-backend", "fa4", "--decode-attention-backend", "triton",
                                        "--page-size", "128"],
    "og-kv4-mla-triton": _OG_KV4, "og-kv4-mla-flashinfer": _OG_KV4,
    "og-kv4-mla-fa4-triton": _OG_KV4 + ["--prefill-attention-backend", "fa4", "--decode-attention-backend", "triton"],
    "og-kv4-mla-fa4-flashinfer": _OG_KV4 + ["--prefill-attention-backend", "fa4", "--decode-attention-backend",
                                            "flashinfer"],
    "og-eagle-trtllm-topk2-sm100": [], "og-eagle-trtllm-topk1-sm100": [],
    # 0.5.15's _handle_dcp_validation on a CUDA GPU: no speculative algorithm (trait dcp_hip_only; rules_parallel.py)
    "og-dcp-spec-sm90": ["--tp-size", "2", "--dcp-size", "2"],
}
OLD_SWEEP_EXTRA.update(_OG_GPU)
OLD_SWEEP_CASE.update({
    "og-kv4-mha-flashinfer": dict(_OG_KV4_CASE, attention_backend="flashinfer"),
    "og-kv4-mha-triton": dict(_OG_KV4_CASE, attention_backend="triton"),
    "og-kv4-mha-fa4-flashinfer": dict(_OG_KV4_CASE, attention_backend=None, gpu="sm100"),
    "og-kv4-mha-fa4-triton": dict(_OG_KV4_CASE, attention_backend=None, gpu="sm100"),
    "og-kv4-mla-triton": dict(_OG_KV4_MLA, attention_backend="triton"),
    "og-kv4-mla-flashinfer": dict(_OG_KV4_MLA, attention_backend="flashinfer"),
    "og-kv4-mla-fa4-triton": dict(_OG_KV4_MLA, attention_backend=None, gpu="sm100"),
    "og-kv4-mla-fa4-flashinfer": dict(_OG_KV4_MLA, attention_backend=None, gpu="sm100"),
    "og-dcp-spec-sm90": dict(gpu="sm90", needs_override=True, since="0.5.15", until="0.5.15.post1"),
    "og-eagle-trtllm-topk2-sm100": dict(_EAGLE_TOPK2, gpu="sm100", needs_override=True, until="0.5.15.post1",
                                        **_TRTLLM),
    "og-eagle-trtllm-topk1-sm100": dict(_EAGLE_TOPK2, gpu="sm100", needs_override=True, until="0.5.15.post1",
                                        eagle_topk=1, **_TRTLLM),
})
# the attention hook's MLA backend checks of srt/server_args.py (0.5.11-0.5.14; arg_groups/overrides.py from 0.5.15,
# trait mla_backend_checks): the overrides sweep's entries from the release each backend appears in (TRTLLM MLA 0.5.11,
# tokenspeed MLA 0.5.12, CuteDSL MLA 0.5.13), the GPU ones through the GPU stand-in before 0.5.19
for _k, _v in OVR_SWEEP_CASE.items():
    if _k.startswith(("ovr-trtllm-mla-", "ovr-tokenspeed-mla-", "ovr-cutedsl-")):
        _v["since"] = "0.5.11" if _k.startswith("ovr-trtllm") else "0.5.12" if _k.startswith("ovr-tokenspeed") else "0.5.13"
# and the SSM chunk / page check of the Mamba radix cache's extra_buffer strategy from the model hook's first release
# (0.5.14 srt/server_args.py mamba_cache_chunk_size; rules_mamba.check_mamba_radix_cache)
for _k in ("ovr-mamba-chunk-page-96", "ovr-mamba-chunk-page-128"):
    OVR_SWEEP_CASE[_k]["since"] = "0.5.14"

# 0.5.16's --enable-gdn-replayssm-spec (its own dest only there; srt/server_args.py _handle_linear_attn_backend, which
# runs for any model: the dense base target), each refusal in SGLang's order with the accepted flag alone
_GDN = ["--enable-gdn-replayssm-spec"]
_M16_GDN = {
    "m16-gdn-topk4": _GDN, "m16-gdn-cutedsl": _GDN + ["--linear-attn-decode-backend", "cutedsl"],
    "m16-gdn-extra-buffer": _GDN + ["--mamba-radix-cache-strategy", "extra_buffer"],
    "m16-gdn-pd": _GDN + ["--disaggregation-mode", "prefill"],
    "m16-gdn-len0": _GDN + ["--linear-replayssm-cache-len", "0"], "m16-gdn-both": _GDN + ["--enable-linear-replayssm"],
    "m16-gdn-len12": _GDN + ["--linear-replayssm-cache-len", "12"], "m16-gdn-bf16": _GDN + ["--mamba-ssm-dtype", "bfloat16"],
    "m16-gdn": _GDN, "m16-gdn-fp32": _GDN + ["--mamba-ssm-dtype", "float32", "--linear-replayssm-cache-len", "32"],
}
OLD_SWEEP_EXTRA.update(_M16_GDN)
OLD_SWEEP_CASE.update({k: dict(_NO_SPEC, since="0.5.16", until="0.5.16") for k in _M16_GDN})
# --enable-linear-replayssm with an explicit extra_buffer strategy on the dense target (no Mamba radix cache hook
# resolves it there): 0.5.15 (an AttributeError building the message) to 0.5.20; 0.5.21 on the model hook refuses first
OLD_SWEEP_EXTRA.update({"m16-replayssm-extra-dense": ["--enable-linear-replayssm", "--mamba-radix-cache-strategy",
                                                      "extra_buffer"],
                        "m16-replayssm-extra-dense-no-radix": ["--enable-linear-replayssm", "--mamba-radix-cache-strategy",
                                                               "extra_buffer", "--disable-radix-cache"]})
OLD_SWEEP_CASE.update({k: dict(_NO_SPEC, since="0.5.15", until="0.5.20") for k in ("m16-replayssm-extra-dense",
                                                                                   "m16-replayssm-extra-dense-no-radix")})
OLD_SWEEP_CASE["m16-gdn-topk4"] = dict(_OLD_EAGLE3_TOPK4, since="0.5.16", until="0.5.16")
# the ring check after the speculative hook (_validate_gdn_replayssm_spec_ring): EAGLE3 with 4 draft tokens
OLD_SWEEP_EXTRA.update({"m16-gdn-ring-4": _GDN + ["--linear-replayssm-cache-len", "4"],
                        "m16-gdn-ring-8": _GDN + ["--linear-replayssm-cache-len", "8"]})
OLD_SWEEP_CASE.update({k: dict(_OLD_EAGLE3_TOPK4, eagle_topk=1, since="0.5.16", until="0.5.16") for k in ("m16-gdn-ring-4", "m16-gdn-ring-8")})

# -- oldnon (session 17) --
# the other leftovers of 0.5.11-0.5.15.post1 (swept once, on the DFLASH base, on the releases since / until name):
# --language-only without --encoder-urls (0.5.11-0.5.12.post1 refuse, 0.5.13 logs), 0.5.11's
# --speculative-moe-runner-backend flashinfer_trtllm refusal (with or without an algorithm), the attention hook's dual
# chunk attention (a Qwen2.5-1M-style target: dual_chunk_flash_attn only), --enable-hisparse with the radix cache on and
# 0.5.11-0.5.12.post1's NSA backend check (on the DSA NextN head, which the DeepSeek block that reads torch.cuda skips),
# a DFLASH window of 0 (0.5.11-0.5.12.post1 check it inside the DFLASH branch), 0.5.11's PD decode radix cache with
# speculation (after its nixl check)
_PD_RADIX_NIXL = ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache",
                  "--disaggregation-transfer-backend", "nixl"]
_ON17 = {
    "on17-language-only": ["--language-only"],
    "on17-language-only-urls": ["--language-only", "--encoder-urls", "http://127.0.0.1:9"],
    "on17-spec-moe-trtllm": ["--speculative-moe-runner-backend", "flashinfer_trtllm"],
    "on17-spec-moe-trtllm-nospec": ["--speculative-moe-runner-backend", "flashinfer_trtllm"],
    "on17-spec-moe-triton": ["--speculative-moe-runner-backend", "triton"],
    "on17-dual-chunk": [], "on17-dual-chunk-triton": [], "on17-dual-chunk-own": [],
    "on17-hisparse-dsa-radix": ["--enable-hisparse"],
    "on17-hisparse-nsa-fa3": ["--enable-hisparse", "--disable-radix-cache", "--nsa-prefill-backend", "fa3"],
    "on17-hisparse-nsa-ok": ["--enable-hisparse", "--disable-radix-cache", "--nsa-decode-backend", "flashmla_sparse"],
    "on17-window-0": [], "on17-window-1": [],
    "on17-pd-radix-spec-nixl": _PD_RADIX_NIXL, "on17-pd-radix-nospec-nixl": _PD_RADIX_NIXL,
}
# the DSA block's legacy prefill CP asserts (0.5.11-0.5.13, before the block reads the GPU: a configuration they pass
# fails there on this host, so each entry is refused by them)
_NSA_CP = ["--enable-nsa-prefill-context-parallel"]
_ON17.update({
    "on17-dsa-cp-dp2": _NSA_CP + ["--tp-size", "2", "--dp-size", "2"], "on17-dsa-cp-tp16": _NSA_CP + ["--tp-size", "16"],
    "on17-dsa-cp-tp2": _NSA_CP + ["--tp-size", "2"],
    "on17-dsa-cp-in-seq-tp16": _NSA_CP + ["--nsa-prefill-cp-mode", "in-seq-split", "--tp-size", "16"],
    "on17-dsa-cp-in-seq-dp2": _NSA_CP + ["--nsa-prefill-cp-mode", "in-seq-split", "--tp-size", "2", "--dp-size", "2"],
})
OLD_SWEEP_EXTRA.update(_ON17)
_ON17_DSA = dict(_NO_SPEC, target="dsa-nextn-8l", attention_backend=None)
_ON17_DUAL = dict(_NO_SPEC, target="qwen2-dual-chunk-8l", until="0.5.15.post1")
OLD_SWEEP_CASE.update({
    "on17-language-only": dict(_NO_SPEC, until="0.5.13.post1"), "on17-language-only-urls": dict(_NO_SPEC, until="0.5.12.post1"),
    "on17-spec-moe-trtllm": {"until": "0.5.12"}, "on17-spec-moe-trtllm-nospec": dict(_NO_SPEC, until="0.5.12"),
    "on17-spec-moe-triton": {"until": "0.5.11"},
    "on17-dual-chunk": dict(_ON17_DUAL, attention_backend=None), "on17-dual-chunk-triton": _ON17_DUAL,
    "on17-dual-chunk-own": dict(_ON17_DUAL, attention_backend="dual_chunk_flash_attn"),
    "on17-hisparse-dsa-radix": dict(_ON17_DSA, until="0.5.15.post1"),
    "on17-hisparse-nsa-fa3": dict(_ON17_DSA, until="0.5.12.post1"),
    "on17-hisparse-nsa-ok": dict(_ON17_DSA, until="0.5.12.post1"),
    "on17-window-0": {"window": 0, "until": "0.5.12.post1"}, "on17-window-1": {"window": 1, "until": "0.5.12.post1"},
    "on17-pd-radix-spec-nixl": {"until": "0.5.11"}, "on17-pd-radix-nospec-nixl": dict(_NO_SPEC, until="0.5.11"),
})
_ON17_DSA_CP = dict(_NO_SPEC, target="deepseek-v3-dsa-8l", attention_backend=None, until="0.5.13.post1")
OLD_SWEEP_CASE.update({k: dict(_ON17_DSA_CP) for k in _ON17 if k.startswith("on17-dsa-cp-")})
# 0.5.12 on these pass, then the block reads the GPU
OLD_SWEEP_CASE.update({k: dict(_ON17_DSA_CP, until="0.5.11") for k in ("on17-dsa-cp-tp2", "on17-dsa-cp-in-seq-dp2")})


# -- cache (session 18) --
# the cache / memory-pool leftovers of 0.5.11-0.5.19 (swept once, on the DFLASH base, on the releases since / until
# name): validate_prefill_only_disable_kv_cache_args' FP4 KV dtype (fp4_e2m1 to 0.5.15.post1, trait kv4_dtypes) and
# its prefill CP through the legacy flag (its own field to 0.5.13.post1, an alias of --enable-prefill-cp 0.5.14-0.5.19:
# trait dsa_prefill_cp_flags); 0.5.11's DFLASH window of 0 under its own flag (--speculative-dflash-draft-window-size)
_C18 = {
    "c18-po-fp4-e2m1": _PREFILL_ONLY + ["--kv-cache-dtype", "fp4_e2m1"],
    "c18-po-prefill-cp-legacy": _PREFILL_ONLY_OK + ["--enable-prefill-context-parallel"],
    "c18-window-0-dflash-flag": [], "c18-window-neg-dflash-flag": [],
    # 0.5.18 srt/server_args.py _handle_unified_memory_pool: DSPARK's spec-verify-audited backends, on an MLA target
    # whose page-major list takes fa3 / flashinfer (an MHA one is held to triton there first); on this host without a
    # GPU (the stand-in's CUDA imports flashinfer on the DSPARK path), so the triton neighbour disables the prefill
    # graph, whose default here (tc_piecewise) the pool refuses after
    "c18-um-dspark-mla-fa3": ["--enable-unified-memory"], "c18-um-dspark-mla-flashinfer": ["--enable-unified-memory"],
    "c18-um-dspark-mla-triton": ["--enable-unified-memory", "--cuda-graph-backend-prefill", "disabled"],
}
OLD_SWEEP_EXTRA.update(_C18)
OLD_SWEEP_CASE.update({
    "c18-po-fp4-e2m1": dict(_NO_SPEC, since="0.5.12", until="0.5.16"),
    "c18-po-prefill-cp-legacy": dict(_NO_SPEC, attention_backend="fa3", since="0.5.12", until="0.5.19"),
    "c18-window-0-dflash-flag": {"window": 0, "style": "removed-window", "until": "0.5.12"},
    "c18-window-neg-dflash-flag": {"window": -2, "style": "removed-window", "until": "0.5.12"},
})
OLD_SWEEP_CASE.update({k: dict(_DSPARK, draft="no-block-size", target="deepseek-v3-8l",
                               attention_backend=k.split("-")[-1], since="0.5.17", until="0.5.18")
                       for k in _C18 if k.startswith("c18-um-dspark-")})


def _old_sweep_cases(version):
    """OLD_SWEEP_EXTRA's entries on the DFLASH base, each on the releases its since / until name."""
    out = []
    for v in sorted(OLD_SWEEP_EXTRA):
        case = dict(SWEEP_BASES[0], old_sweep=v, **OLD_SWEEP_CASE[v])
        if version is not None and (case.get("since") and _release_key(version) < _release_key(case["since"]) or
                                    case.get("until") and _release_key(version) > _release_key(case["until"])):
            continue
        out.append(case)
    return out


ENVS = [{}, {"SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION": "1"}, {"SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN": "1"},
        {"SGLANG_ENABLE_PP_SPEC": "1"}]
STYLES = ["plain", "equals", "prefix-window", "removed-window", "cuda-graph-max-bs", "mamba-scheduler", "garbage-int",
          "ambiguous-prefix", "missing-value", "empty-list", "empty-list-star"]

case_strategy = st.fixed_dictionaries({
    "algorithm": st.sampled_from(["DFLASH"] * 12 + ["dflash", "NEXTN", "EAGLE", "EAGLE3", "DDTREE", None]),
    # the MoE and hybrid-SWA targets at a low weight (1 in 10 each is 2 of 20); the MLA target only in the sweep: its
    # default attention backend is not modelled
    "target": st.sampled_from(sorted(DENSE_TARGETS) * 6 + ["qwen3-hybrid-swa-8l", "qwen3-moe-8l"]),
    "draft": st.sampled_from(sorted(set(DRAFTS) - set(SWEEP_ONLY_DRAFTS)) * 4 + [None]),
    "num_draft_tokens": often_none(st.integers(-1, 20), 2),
    "dflash_block_size": often_none(st.integers(-1, 20), 5),
    "num_steps": often_none(st.integers(1, 5), 2),
    "eagle_topk": often_none(st.integers(1, 8), 2),
    "window": often_none(st.integers(0, 40), 2),
    "sink": often_none(st.integers(-1, 8), 12),
    "max_running_requests": often_none(st.integers(1, 64), 1),
    "pp_size": st.sampled_from([1] * 15 + [2]),
    "device": st.sampled_from(["cuda"] * 15 + ["cpu"]),
    "attention_backend": often_none(ATTN, 1),
    "prefill_attention_backend": often_none(ATTN, 3),
    "draft_attention_backend": often_none(DRAFT_ATTN, 1),
    "note": st.just(None),
    "env": st.sampled_from([{}] * 14 + ENVS[1:]),
    "style": st.sampled_from(["plain"] * 20 + ["equals"] * 4 + STYLES[2:]),
    # outside the DFLASH core (what a new user tries)
    # sm100 (B200) one draw in 37: the other hosts keep their 3:2:1 shape
    "gpu": st.sampled_from([None] * 18 + ["sm120"] * 12 + ["sm90"] * 6 + ["sm100"]),
    "kv_cache_dtype": often_none(st.sampled_from(["auto", "fp8_e4m3", "fp8_e5m2", "bf16"]), 6),
    "page_size": often_none(st.sampled_from([1, 16, 64]), 5),
    "context_length": often_none(st.sampled_from([1024, 40960, 65536]), 6),
    "parallel": st.sampled_from(["none"] * 14 + ["tp2", "dp2", "dp2-attn", "dp2-attn-lmhead", "tp2-dp2-nnodes2",
                                                    "tp2-dp2-attn-lmhead"]),
    "mem_fraction_static": often_none(st.sampled_from([0.5, 0.88]), 8),
    "extra": st.sampled_from(["none"] * 20 + ["mixed-chunk", "no-overlap", "watermark", "pd-decode-radix",
                                               "adaptive", "block-verification", "multi-layer-eagle", "base-gpu-neg",
                                               "rejection-sampling", "rejection-sampling-threshold",
                                               "flex-attention"]),
    # a dimension of its own (drawn beside `extra`, so the two meet and check_server_args' order is compared)
    # weights: most cases leave both alone, so the share SGLang refuses stays inside the 20-80% the suite
    # asks for on every release (with 80/100 'none', 0.5.21 refused 80.0% of its 195 cases)
    "server_check": st.sampled_from(["none"] * 480 + sorted(CHECK_SERVER_ARGS_EXTRA)),
    "ssl": st.sampled_from(["none"] * 300 + sorted(SSL_EXTRA)),
    # 92 drawn entries: 5% of draws (at 400, 0.5.11 refused 89% of them); HOOK_SWEEP_ONLY's are not drawn
    "hook_check": st.sampled_from(["none"] * 1600 + sorted(set(HOOK_CHECK_EXTRA) - set(HOOK_SWEEP_ONLY))),
    "cache": st.sampled_from(["none"] * 400 + sorted(CACHE_EXTRA)),
    "parallel_check": st.sampled_from(["none"] * 720 + sorted(PARALLEL_CHECK_EXTRA)),  # 90 entries: 11% of draws
    "moe_check": st.sampled_from(["none"] * 700 + sorted(MOE_CHECK_EXTRA)),  # 35 entries: 5% of draws
    "kv_pool": st.sampled_from(["none"] * 1400 + sorted(KV_POOL_EXTRA)),  # 75 entries: 5% of draws
    "platform_check": st.sampled_from(["none"] * 600 + sorted(set(PLATFORM_CHECK_EXTRA) - set(PLATFORM_SWEEP_ONLY))),
})

# -- misc (session 15) --
# the remaining single refusals of 0.5.23's resolution, each on the first sweep base with what it changes in the case
# (MISC_CHECK_CASE) and an accepted neighbour where the check has one; swept only
MISC_CHECK_EXTRA = {
    # handle_speculative_decoding: block verification off CUDA (after the algorithm check)
    "block-verification-cpu": ["--speculative-use-block-verification", "--device", "cpu"],
    # model_hook.py handle_model_specific_adjustments: Intern-S2-Mobius takes no pipeline or expert parallelism
    "mobius-pp2": ["--pp-size", "2"], "mobius-ep2": ["--ep-size", "2", "--tp-size", "2"], "mobius-tp2": ["--tp-size", "2"],
    "mobius-pp2-ep2": ["--pp-size", "2", "--ep-size", "2", "--tp-size", "2"],
    # handle_mamba_radix_cache: an explicit extra_buffer strategy on a target without Mamba state
    "mamba-strategy-dense": ["--mamba-radix-cache-strategy", "extra_buffer"],
    "mamba-strategy-dense-no-radix": ["--mamba-radix-cache-strategy", "extra_buffer", "--disable-radix-cache"],
    "mamba-strategy-dense-no-buffer": ["--mamba-radix-cache-strategy", "no_buffer"],
    # pd_disaggregation_hook.py handle_encoder_disaggregation: Muse language-only with adaptive dispatch
    "muse-language-only-adaptive": ["--language-only", "--enable-adaptive-dispatch-to-encoder"],
    "muse-language-only": ["--language-only"],
    # cp_tp_group_sharing_hook.py resolve_cp_tp_group_sharing on GLM-5.3-Flash (interleave): speculation other than
    # DFLASH or native MTP (no separate draft, top-k 1), on a GPU host (its Mamba layers)
    "cp-tp-share-glm-eagle-draft": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2",
                                    "--tp-size", "2"],
    "cp-tp-share-glm-eagle3": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2",
                               "--tp-size", "2"],
    "cp-tp-share-glm-nextn": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2",
                              "--tp-size", "2"],
    # serving_hook.py handle_other_validations: prefill_complete with optimistic prefill off (a negative count: the PD
    # hook turns 0 into 1 and refuses the setups this hook would zero), 0.5.22 on
    "prefill-complete-attempts-neg": ["--disaggregation-mode", "prefill", "--disaggregation-decode-allocation-policy",
                                      "prefill_complete", "--optimistic-prefill-attempts", "-1"],
    "prefill-complete-attempts-0": ["--disaggregation-mode", "prefill", "--disaggregation-decode-allocation-policy",
                                    "prefill_complete", "--optimistic-prefill-attempts", "0"],
}
_MISC_NO_SPEC = dict(_NO_SPEC, window=None, sink=None)
MISC_CHECK_CASE = {
    "block-verification-cpu": {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 1,
                               "num_draft_tokens": 4},
    "mamba-strategy-dense": _MISC_NO_SPEC, "mamba-strategy-dense-no-radix": _MISC_NO_SPEC,
    "mamba-strategy-dense-no-buffer": _MISC_NO_SPEC,
    "cp-tp-share-glm-eagle-draft": {"target": "glm5-next-4l", "gpu": "sm120", "needs_override": True, "since": "0.5.23",
                                    "algorithm": "EAGLE", "draft": "b16", "num_steps": 3, "eagle_topk": 1,
                                    "num_draft_tokens": 4},
    "cp-tp-share-glm-eagle3": {"target": "glm5-next-4l", "gpu": "sm120", "needs_override": True, "since": "0.5.23", "algorithm": "EAGLE3",
                               "draft": "b16", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4},
    "cp-tp-share-glm-nextn": {"target": "glm5-next-4l", "gpu": "sm120", "needs_override": True, "since": "0.5.23", "algorithm": "NEXTN",
                              "draft": None, "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4},
    "prefill-complete-attempts-neg": dict(_MISC_NO_SPEC, since="0.5.22"),
    "prefill-complete-attempts-0": dict(_MISC_NO_SPEC, since="0.5.22"),
}
MISC_CHECK_CASE.update({k: dict(_MISC_NO_SPEC, target="interns2-mobius-8l") for k in MISC_CHECK_EXTRA
                        if k.startswith("mobius-")})
# (Muse Spark takes --language-only from 0.5.23, the release with the check; the engine does not model the
# language-only architecture list of older releases)
MISC_CHECK_CASE.update({k: dict(_MISC_NO_SPEC, target="muse-spark-4l", since="0.5.23") for k in MISC_CHECK_EXTRA
                        if k.startswith("muse-")})

# -- model (session 14) --
# SGLang's per-architecture model overrides (0.5.23 srt/arg_groups/model_overrides/, run inside
# handle_model_specific_adjustments; sglang_engine/rules_model.py check_model_overrides): each entry on the first
# sweep base, on the architecture's target (MODEL_CHECK_CASE), one case per refusal and an accepted neighbour. Swept
# only: the hypothesis draws never present these targets.
_FA3_NO_SPEC = dict(_NO_SPEC, attention_backend="fa3", window=None, sink=None)
_FA3_EAGLE = {"algorithm": "EAGLE", "draft": "b16", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4,
              "attention_backend": "fa3", "window": None, "sink": None}
MODEL_CHECK_EXTRA = {
    "iquest-triton": [], "iquest-dflash": [], "iquest-draft-triton": ["--speculative-draft-attention-backend", "triton"],
    "iquest-cp": ["--tp-size", "2", "--attn-cp-size", "2"], "iquest-topk2": [],
    "iquest-multi-layer": ["--enable-multi-layer-eagle"], "iquest-dp-attn": ["--tp-size", "2", "--dp-size", "2",
                                                                             "--enable-dp-attention"],
    "iquest-pp2": ["--pp-size", "2"], "iquest-fa3": [],
    "minicpm-dp-attn": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "minicpm-hicache": ["--enable-hierarchical-cache"], "minicpm-pd": ["--disaggregation-mode", "prefill"],
    "ernie-dp-attn": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "ernie-tp2": ["--tp-size", "2"],
    "moss-triton": [], "moss-flashinfer": [],
    # DeepSeek V3.2 (DSA) and HYV4: model_overrides/deepseek_v2.py, then model_hook.py's DSA block
    "hyv4-prefill-cp": ["--enable-prefill-cp", "--tp-size", "2"], "hyv4-dcp": ["--tp-size", "2", "--dcp-size", "2"],
    "dsa-dcp-hicache": ["--tp-size", "2", "--dcp-size", "2", "--enable-hierarchical-cache"],
    "dsa-dcp-pd": ["--tp-size", "2", "--dcp-size", "2", "--disaggregation-mode", "prefill"],
    "dsa-dcp-topk2": ["--tp-size", "2", "--dcp-size", "2"],
    "dsa-prefill-cp-tp16": ["--enable-prefill-cp", "--tp-size", "16"],
    "dsa-kpool-dcp": ["--tp-size", "2", "--dcp-size", "2"],
    "dsa-kpool-tbo": ["--enable-two-batch-overlap", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
    "dsa-kv-fp8e5m2": ["--kv-cache-dtype", "fp8_e5m2"],
    "dsa-prefill-cp-decode": ["--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"],
    "dsa-layer-split": ["--enable-dsa-cache-layer-split"],
    "dsa-layer-split-decode": ["--enable-dsa-cache-layer-split", "--disaggregation-mode", "decode"],
    "dsa-layer-split-prefill": ["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill"],
    "dsa-layer-split-nixl": ["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill", "--enable-prefill-cp",
                             "--cp-strategy", "interleave", "--tp-size", "2", "--disaggregation-transfer-backend", "nixl"],
    "dsa-layer-split-pp2": ["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill", "--enable-prefill-cp",
                            "--cp-strategy", "interleave", "--tp-size", "2", "--pp-size", "2"],
    "dsa-triton-backend": ["--dsa-prefill-backend", "triton"],
    "dsa-tilelang-mixed": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang"],
    # model_hook.py handle_model_specific_adjustments' per-architecture attention checks (after the overrides' fills)
    "gptoss-flashinfer": ["--attention-backend", "flashinfer"], "gptoss-triton": ["--attention-backend", "triton"],
    "gptoss-prefill-only": ["--prefill-attention-backend", "triton"],
    "gptoss-triton-kernel-ep2": ["--attention-backend", "triton", "--moe-runner-backend", "triton_kernel", "--tp-size",
                                 "2", "--ep-size", "2"],
    "llama4-flashinfer": ["--attention-backend", "flashinfer"], "llama4-triton": ["--attention-backend", "triton"],
    "gemma4-fa3": ["--attention-backend", "fa3"], "gemma4-triton": ["--attention-backend", "triton"],
    "exaone4-flashinfer": ["--attention-backend", "flashinfer"], "exaone4-fa3": ["--attention-backend", "fa3"],
    "olmo2-flashinfer": ["--attention-backend", "flashinfer"], "olmo2-triton": ["--attention-backend", "triton"],
    "lfm2-triton": ["--attention-backend", "triton"], "lfm2-flashinfer": ["--attention-backend", "flashinfer"],
    # model_path_hook.py handle_load_format: the weight cache with speculative decoding (on the DFLASH base), and alone
    "weight-cache-spec": ["--weight-cache-mode", "client"], "weight-cache-alone": ["--weight-cache-mode", "client"],
    # model_override_base.py context_parallel_attn_dp_size: DSA prefill CP with both DP spellings
    "dsa-prefill-cp-dp-attn-dp": ["--enable-prefill-cp", "--tp-size", "4", "--attn-dp-size", "2", "--dp-size", "2"],
    # model_hook.py handle_language_model_only (first in the encoder-disaggregation hook), on a dense target
    "lmo-language-only": ["--language-model-only", "--language-only"],
    "lmo-pd": ["--language-model-only", "--disaggregation-mode", "prefill"], "lmo-dense": ["--language-model-only"],
    # model_hook.py handle_model_capability_adjustments: the encoder SWA replay on a dense target
    "encoder-replay-dense": ["--enable-encoder-swa-bounded-replay"],
    # the DSA passes' remaining refusals: TileLang FP8 KV under DCP, learnable sinks' KV dtype and DSA backend
    "dsa-tilelang-dcp": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang", "--dsa-decode-backend",
                         "tilelang", "--tp-size", "2", "--dcp-size", "2"],
    "dsa-sink-kv-fp8": ["--kv-cache-dtype", "fp8_e4m3"], "dsa-sink-backend": ["--dsa-prefill-backend", "flashmla_kv"],
}
MODEL_CHECK_CASE = {
    "iquest-triton": {"target": "iquest-q1-8l"},
    "iquest-dflash": {"target": "iquest-q1-8l", "attention_backend": "fa3"},
    "iquest-draft-triton": dict(_FA3_EAGLE, target="iquest-q1-8l"),
    "iquest-cp": dict(_FA3_NO_SPEC, target="iquest-q1-8l"),
    "iquest-topk2": dict(_FA3_EAGLE, target="iquest-q1-8l", eagle_topk=2),
    "iquest-multi-layer": dict(_FA3_EAGLE, target="iquest-q1-8l"),
    "iquest-dp-attn": dict(_FA3_NO_SPEC, target="iquest-q1-8l"),
    "iquest-pp2": dict(_FA3_NO_SPEC, target="iquest-q1-8l"),
    "iquest-fa3": dict(_FA3_NO_SPEC, target="iquest-q1-8l"),
    "minicpm-dp-attn": dict(_NO_SPEC, target="minicpm-sala-8l", window=None, sink=None),
    "minicpm-hicache": dict(_NO_SPEC, target="minicpm-sala-8l", window=None, sink=None),
    "minicpm-pd": dict(_NO_SPEC, target="minicpm-sala-8l", window=None, sink=None, attention_backend=None),
    "ernie-dp-attn": dict(_NO_SPEC, target="ernie45-vl-8l", window=None, sink=None),
    "ernie-tp2": dict(_NO_SPEC, target="ernie45-vl-8l", window=None, sink=None),
    "moss-triton": dict(_NO_SPEC, target="moss-vl-8l", window=None, sink=None),
    "moss-flashinfer": dict(_NO_SPEC, target="moss-vl-8l", window=None, sink=None, attention_backend="flashinfer"),
}
_DSA_CASE = dict(_NO_SPEC, target="deepseek-v32-dsa-8l", window=None, sink=None, attention_backend=None)
# -- oldgpu (session 17) --: 0.5.14-0.5.15.post1's DSA block checks the KV cache dtype (_set_default_dsa_kv_cache_dtype,
# after the GPU's compute capability: through the GPU stand-in)
# (the accepted one with --page-size 64 given: the block sets 64 on CUDA, the DSA page size the engine does not model here)
OLD_SWEEP_EXTRA.update({"og-dsa-kv-e5m2": ["--kv-cache-dtype", "fp8_e5m2"],
                        "og-dsa-kv-bf16": ["--kv-cache-dtype", "bf16", "--page-size", "64"]})
OLD_SWEEP_CASE.update({k: dict(_DSA_CASE, gpu="sm90", needs_override=True, since="0.5.14", until="0.5.15.post1")
                       for k in ("og-dsa-kv-e5m2", "og-dsa-kv-bf16")})
# -- w18dsa (session 18) --: 0.5.11-0.5.13's DSA block reads the GPU after the legacy prefill CP asserts, then checks
# the KV cache dtype (_set_default_nsa_kv_cache_dtype; 0.5.13 _set_default_dsa_kv_cache_dtype) and, after the backend
# defaults, refuses the legacy prefill CP flag on a PD decode worker: through the GPU stand-in, on the DeepseekV3 DSA
# target (0.5.11's block takes no DeepseekV32ForCausalLM); the CP ones at --tp-size 8 (0.5.11's assert wants exactly 8)
OLD_SWEEP_EXTRA.update({
    "w18-dsa-kv-e5m2": ["--kv-cache-dtype", "fp8_e5m2"],
    "w18-dsa-kv-bf16": ["--kv-cache-dtype", "bf16", "--page-size", "64"],
    "w18-dsa-cp-decode": ["--enable-nsa-prefill-context-parallel", "--tp-size", "8", "--disaggregation-mode", "decode"],
    "w18-dsa-cp-prefill": ["--enable-nsa-prefill-context-parallel", "--tp-size", "8", "--disaggregation-mode",
                           "prefill"],
    "w18-dsa-cp-in-seq-decode": ["--enable-nsa-prefill-context-parallel", "--nsa-prefill-cp-mode", "in-seq-split",
                                 "--tp-size", "8", "--disaggregation-mode", "decode"],
})
OLD_SWEEP_CASE.update({k: dict(_DSA_CASE, target="deepseek-v3-dsa-8l", gpu="sm90", needs_override=True, since="0.5.11",
                               until="0.5.13.post1") for k in OLD_SWEEP_EXTRA if k.startswith("w18-dsa-")})
MODEL_CHECK_CASE.update({k: dict(_DSA_CASE) for k in MODEL_CHECK_EXTRA if k.startswith("dsa-")})
MODEL_CHECK_CASE.update({
    "hyv4-prefill-cp": dict(_DSA_CASE, target="hyv4-8l"), "hyv4-dcp": dict(_DSA_CASE, target="hyv4-8l"),
    "dsa-dcp-topk2": dict(_DSA_CASE, algorithm="EAGLE", draft="b16", num_steps=3, eagle_topk=2, num_draft_tokens=4),
    "dsa-kpool-dcp": dict(_DSA_CASE, target="deepseek-v32-kpool-8l"),
    "dsa-kpool-tbo": dict(_DSA_CASE, target="deepseek-v32-kpool-8l"),
})

# the DSA KV cache dtype and backend passes read the GPU's compute capability (torch.cuda; 0.5.20-0.5.21 before the
# DCP checks too): every DSA / HYV4 entry on a GPU host (a release without the platform override does not judge them)
MODEL_CHECK_CASE.update({k: dict(_NO_SPEC, window=None, sink=None, attention_backend=None, target={
    "gptoss": "gpt-oss-8l", "llama4": "llama4-8l", "gemma4": "gemma4-8l", "exaone4": "exaone4-8l", "olmo2": "olmo2-8l",
    "lfm2": "lfm2-8l"}[k.split("-")[0]]) for k in MODEL_CHECK_EXTRA if k.split("-")[0] in (
        "gptoss", "llama4", "gemma4", "exaone4", "olmo2", "lfm2")})
MODEL_CHECK_CASE["weight-cache-alone"] = dict(_NO_SPEC, window=None, sink=None)
MODEL_CHECK_CASE.update({k: dict(_NO_SPEC, window=None, sink=None) for k in ("lmo-language-only", "lmo-pd", "lmo-dense")})
MODEL_CHECK_CASE["dsa-prefill-cp-dp-attn-dp"] = dict(_DSA_CASE)
MODEL_CHECK_CASE.update({"dsa-tilelang-dcp": dict(_DSA_CASE), "dsa-sink-kv-fp8": dict(_DSA_CASE, target="deepseek-v32-sink-8l"),
                         "dsa-sink-backend": dict(_DSA_CASE, target="deepseek-v32-sink-8l")})
# `since`: the DeepSeek family's DCP checks and DSA passes as the engine models them are 0.5.22's and 0.5.23's (0.5.20-
# 0.5.21 accept DSA DCP with page size 64 and check TileLang's KV dtype otherwise): swept from 0.5.22 on (sweep_cases)
for _k, _v in MODEL_CHECK_CASE.items():
    if _k.startswith(("dsa-", "hyv4-")):
        _v.update(gpu="sm90", needs_override=True, since="0.5.22")

# -- misc (session 15) --
# speculative_hook.py _handle_iquest_q1_mtp_draft (0.5.21 on; in the EAGLE-family hook, before the automatic
# step choice): an IQuest Q1 target under EAGLE on FA3 (past its model override) with no draft, a non-MTP draft, MTP
# drafts whose width / target layer count differ, a token map, zero steps, a top-k of 0 and a verify width other than
# steps + 1, in the function's order; then accepted MTP drafts (steps from the draft's num_draft_slots, or given)
_IQ_MTP = dict(_FA3_EAGLE, target="iquest-q1-8l", draft="iquest-mtp", num_steps=None, eagle_topk=None,
               num_draft_tokens=None, since="0.5.21")
MODEL_CHECK_EXTRA.update({
    "iquest-mtp-no-draft": [], "iquest-mtp-qwen3-draft": [], "iquest-mtp-hidden": [], "iquest-mtp-target-layers": [],
    "iquest-mtp-token-map": ["--speculative-token-map", "/nonexistent/token_map.pt"],
    "iquest-mtp-steps-0": ["--speculative-num-steps", "0"], "iquest-mtp-topk-0": ["--speculative-eagle-topk", "0"],
    "iquest-mtp-width-5": ["--speculative-num-steps", "3", "--speculative-num-draft-tokens", "5"],
    "iquest-mtp-width-4": ["--speculative-num-steps", "3", "--speculative-num-draft-tokens", "4"],
    "iquest-mtp-width-only": ["--speculative-num-draft-tokens", "6"],
    "iquest-mtp-slots": [], "iquest-mtp-topk-1": ["--speculative-eagle-topk", "1"],
})
MODEL_CHECK_CASE.update({k: dict(_IQ_MTP) for k in MODEL_CHECK_EXTRA if k.startswith("iquest-mtp-")})
MODEL_CHECK_CASE["iquest-mtp-no-draft"]["draft"] = None
MODEL_CHECK_CASE["iquest-mtp-qwen3-draft"]["draft"] = "b16"
MODEL_CHECK_CASE["iquest-mtp-hidden"]["draft"] = "iquest-mtp-hidden-512"
MODEL_CHECK_CASE["iquest-mtp-target-layers"]["draft"] = "iquest-mtp-target-12l"


# -- quant (session 15) --
# The per-architecture model overrides that read the checkpoint's quantization (0.5.23 srt/arg_groups/model_overrides/
# minimax_m3.py, nemotron_h.py, qwen3_moe.py) or refuse a parallel / platform setting for the architecture (kimi_k3.py,
# qwen4_exp.py): targets whose config.json carries the quantization_config SGLang reads (scaled down), swept only
# (MODEL_CHECK_EXTRA entries "quant-*", on the first sweep base).
_M3_NVFP4_QUANT = {"quant_method": "mxfp8", "moe_quant_algo": "NVFP4", "moe_quant_format": "nvfp4-pack-quantized"}
_MIXED_W4A16 = {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION", "quantized_layers": {
    "model.layers.1.mixer.experts.0.up_proj": {"quant_algo": "W4A16_NVFP4"},
    "model.layers.1.mlp.experts.0.up_proj": {"quant_algo": "W4A16_NVFP4"}}}
TARGETS.update({
    # minimax_m3.py _resolve_quant_method: mxfp8 projections with NVFP4 packed experts serve as minimax_m3_nvfp4
    "minimax-m3-nvfp4-8l": ("MiniMaxM3SparseForCausalLM", 8, 151936, 40960),
    "minimax-m3-vl-nvfp4-8l": ("MiniMaxM3SparseForConditionalGeneration", 8, 151936, 40960),
    # nemotron_h.py: a ModelOpt MIXED_PRECISION checkpoint with W4A16_NVFP4 experts; a ModelOpt FP8 one whose MLP is
    # not relu2; a Puzzle (heterogeneous blocks) one whose MoE blocks route to different expert counts
    "nemotron-h-w4a16-8l": ("NemotronHForCausalLM", 8, 1000, 4096),
    "nemotron-h-fp8-silu-8l": ("NemotronHForCausalLM", 8, 1000, 4096),
    "nemotron-h-puzzle-8l": ("NemotronHPuzzleForCausalLM", 8, 1000, 4096),
    # qwen3_moe.py: the Qwen3-MoE family with W4A16_NVFP4 experts (ModelOpt mixed precision)
    "qwen3-moe-w4a16-8l": ("Qwen3MoeForCausalLM", 8, 151936, 40960),
})
TARGET_FIELDS.update({
    "minimax-m3-nvfp4-8l": {"quantization_config": _M3_NVFP4_QUANT},
    "minimax-m3-vl-nvfp4-8l": {"quantization_config": _M3_NVFP4_QUANT},
    "nemotron-h-w4a16-8l": dict(TARGET_FIELDS["nemotron-h-8l"], mlp_hidden_act="relu2", quantization_config=_MIXED_W4A16),
    "nemotron-h-fp8-silu-8l": dict(TARGET_FIELDS["nemotron-h-8l"], mlp_hidden_act="silu",
                                   quantization_config={"quant_method": "modelopt", "quant_algo": "FP8"}),
    "nemotron-h-puzzle-8l": dict(TARGET_FIELDS["nemotron-h-8l"], block_configs=[
        {"block_type": "moe", "n_routed_experts": 8}, {"block_type": "moe", "n_routed_experts": 16}]),
    "qwen3-moe-w4a16-8l": dict(TARGET_FIELDS["qwen3-moe-8l"], quantization_config=dict(
        _MIXED_W4A16, quant_method="modelopt_mixed")),
})
_DCP = ["--tp-size", "2", "--dcp-size", "2"]
_DSPARK_B16 = {"algorithm": "DSPARK", "draft": "b16", "num_draft_tokens": None, "num_steps": None, "eagle_topk": None}
QUANT_CHECK_EXTRA = {
    # kimi_k3.py _kimi_k3_overrides under DCP: the decode backend it takes, FlashInfer's DCP kernel (absent here: the
    # import fails), aiter's gluon MLA kernel (absent: None), DSPARK's ragged verify mode
    "quant-kimi-dcp-triton": _DCP + ["--decode-attention-backend", "triton"],
    "quant-kimi-dcp-cutedsl": _DCP, "quant-kimi-dcp-aiter": _DCP + ["--decode-attention-backend", "aiter"],
    "quant-kimi-dcp-dspark": _DCP,
    "quant-kimi-dcp-tokenspeed": _DCP + ["--decode-attention-backend", "tokenspeed_mla"],
    # minimax_m3.py with the NVFP4 packed experts: speculation, architecture, GPU, env, PP, PD, page size, a2a, KV dtype
    "quant-m3-eagle": [], "quant-m3-dspark-causal": [], "quant-m3-dspark-sm90": [], "quant-m3-dspark-compact": [],
    "quant-m3-dspark-pp2": ["--pp-size", "2"], "quant-m3-dflash-pd": ["--disaggregation-mode", "prefill"],
    "quant-m3-page64": ["--page-size", "64"], "quant-m3-cpu": [],
    "quant-m3-routed-deepep": ["--moe-runner-backend", "flashinfer_trtllm_routed", "--moe-a2a-backend", "deepep"],
    "quant-m3-deepep": ["--moe-a2a-backend", "deepep"], "quant-m3-kv-e5m2": ["--kv-cache-dtype", "fp8_e5m2"],
    # nemotron_h.py: EPLB with the runners that cannot remap experts, the Puzzle's expert counts, W4A16 experts, relu2
    "quant-nemotron-eplb-trtllm": ["--enable-eplb", "--moe-runner-backend", "flashinfer_trtllm"],
    "quant-nemotron-eplb-cutedsl": ["--enable-eplb", "--moe-runner-backend", "flashinfer_cutedsl"],
    "quant-nemotron-puzzle-eplb": ["--enable-eplb"],
    "quant-nemotron-w4a16-deepep": ["--moe-a2a-backend", "deepep"],
    "quant-nemotron-w4a16-triton": ["--moe-runner-backend", "triton"],
    "quant-nemotron-fp8-silu": [],
    # qwen3_moe.py on SM100: W4A16 experts with a runner other than marlin
    "quant-qwen3moe-w4a16-triton": ["--moe-runner-backend", "triton"],
    # qwen4_exp.py: PD over MORI with PP, unified memory, the fp8 QSA indexer off SM90/SM100 and without QSA
    "quant-qwen4-mori-pp2": ["--disaggregation-mode", "prefill", "--disaggregation-transfer-backend", "mori",
                             "--pp-size", "2"],
    "quant-qwen4-unified": ["--enable-unified-memory"],
    "quant-qwen4-qsa-fp8-sm120": ["--qsa-indexer-dtype", "fp8_e4m3"],
    "quant-qwen4-qsa-fp8-sm90": ["--qsa-indexer-dtype", "fp8_e4m3"],
}
_Q = dict(_NO_SPEC, window=None, sink=None, attention_backend=None, since="0.5.19")
# (`since`: the releases whose override has the refusals; M3.1 NVFP4's are 0.5.23's)
_M3 = dict(_Q, target="minimax-m3-nvfp4-8l", since="0.5.23")
_M3_VL = dict(_Q, **_DSPARK_B16, target="minimax-m3-vl-nvfp4-8l", gpu="sm100", needs_override=True, since="0.5.23")
_KIMI = dict(_Q, target="kimi-k3-8l")
_NEM = dict(_Q, target="nemotron-h-8l", gpu="sm120", needs_override=True)
_QW4 = dict(_Q, target="qwen4-exp-4l", gpu="sm120", needs_override=True)
QUANT_CHECK_CASE = {
    "quant-kimi-dcp-triton": _KIMI, "quant-kimi-dcp-cutedsl": _KIMI, "quant-kimi-dcp-aiter": _KIMI,
    # (0.5.23: tokenspeed_mla is cutedsl_mla's alias; before, an accepted DCP reaches the Mamba hook, not modelled)
    "quant-kimi-dcp-tokenspeed": dict(_KIMI, since="0.5.23"),
    "quant-kimi-dcp-dspark": dict(_KIMI, **_DSPARK_B16, env={"SGLANG_RAGGED_VERIFY_MODE": "compact"}),
    "quant-m3-eagle": dict(_M3, algorithm="EAGLE", draft="b16", num_steps=3, eagle_topk=1, num_draft_tokens=4),
    "quant-m3-dspark-causal": dict(_M3_VL, target="minimax-m3-nvfp4-8l"),
    "quant-m3-dspark-sm90": dict(_M3_VL, gpu="sm90"),
    "quant-m3-dspark-compact": dict(_M3_VL, env={"SGLANG_RAGGED_VERIFY_MODE": "compact"}),
    "quant-m3-dspark-pp2": _M3_VL, "quant-m3-dflash-pd": dict(_M3_VL, algorithm="DFLASH"),
    "quant-m3-page64": _M3, "quant-m3-cpu": _M3,
    "quant-m3-routed-deepep": dict(_M3, gpu="sm100", needs_override=True),
    "quant-m3-deepep": dict(_M3, gpu="sm100", needs_override=True),
    "quant-m3-kv-e5m2": dict(_M3, gpu="sm100", needs_override=True),
    "quant-nemotron-eplb-trtllm": _NEM, "quant-nemotron-eplb-cutedsl": _NEM,
    "quant-nemotron-puzzle-eplb": dict(_NEM, target="nemotron-h-puzzle-8l"),
    "quant-nemotron-w4a16-deepep": dict(_NEM, target="nemotron-h-w4a16-8l"),
    "quant-nemotron-w4a16-triton": dict(_NEM, target="nemotron-h-w4a16-8l"),
    "quant-nemotron-fp8-silu": dict(_NEM, target="nemotron-h-fp8-silu-8l"),
    "quant-qwen3moe-w4a16-triton": dict(_Q, target="qwen3-moe-w4a16-8l", gpu="sm100", needs_override=True),
    "quant-qwen4-mori-pp2": _QW4, "quant-qwen4-unified": _QW4, "quant-qwen4-qsa-fp8-sm120": _QW4,
    "quant-qwen4-qsa-fp8-sm90": dict(_QW4, gpu="sm90"),
}
# accepted neighbours: what the overrides declare (page size, attention backend, KV dtype) on each platform branch
# (the MegaMoE the override picks on SM100 checks its prefill budget next: a given chunk the engine judges)
QUANT_CHECK_EXTRA.update({"quant-m3-sm100": ["--chunked-prefill-size", "8192"], "quant-m3-sm90": [],
                          "quant-m3-megamoe-chunk": ["--chunked-prefill-size", "16384"],
                          "quant-m3-vl-dspark": ["--chunked-prefill-size", "8192"],
                          "quant-m3-routed": ["--moe-runner-backend", "flashinfer_trtllm_routed"],
                          "quant-nemotron-w4a16-marlin": ["--moe-runner-backend", "marlin"],
                          "quant-nemotron-eplb-routed": ["--enable-eplb", "--moe-runner-backend",
                                                         "flashinfer_trtllm_routed", "--tp-size", "2", "--ep-size", "2"],
                          "quant-qwen3moe-w4a16": [], "quant-qwen4-qsa-bf16": ["--qsa-indexer-dtype", "bfloat16"]})
QUANT_CHECK_CASE.update({"quant-m3-sm100": dict(_M3, gpu="sm100", needs_override=True),
                         "quant-m3-megamoe-chunk": dict(_M3, gpu="sm100", needs_override=True),
                         "quant-m3-sm90": dict(_M3, gpu="sm90", needs_override=True),
                         "quant-m3-vl-dspark": dict(_M3_VL, num_draft_tokens=17),
                         "quant-m3-routed": dict(_M3, gpu="sm100", needs_override=True),
                         "quant-nemotron-w4a16-marlin": dict(_NEM, target="nemotron-h-w4a16-8l"),
                         "quant-nemotron-eplb-routed": _NEM,
                         "quant-qwen3moe-w4a16": dict(_Q, target="qwen3-moe-w4a16-8l", gpu="sm100", needs_override=True),
                         "quant-qwen4-qsa-bf16": _QW4})
# Kimi-K3 without DCP on SM100: trtllm_mla for both phases, whose page size SGLang then moves to 64
QUANT_CHECK_EXTRA.update({"quant-kimi-sm100": [],
                          "quant-kimi-sm100-deepep": ["--moe-a2a-backend", "deepep", "--tp-size", "2", "--ep-size", "2"]})
QUANT_CHECK_CASE.update({k: dict(_KIMI, gpu="sm100", needs_override=True) for k in ("quant-kimi-sm100",
                                                                                    "quant-kimi-sm100-deepep")})
MODEL_CHECK_EXTRA.update(QUANT_CHECK_EXTRA)
MODEL_CHECK_CASE.update(QUANT_CHECK_CASE)

# -- old-b (session 15) --
# what 0.5.16-0.5.22 refuse that 0.5.23's entries do not reach there. Elastic EP scale-up as 0.5.16-0.5.20 check it
# (trait elastic_scale "v16": both CUDA graphs disabled before the attention DP check), each later refusal with the
# graphs off; the DSA block of the model-specific adjustments (trait deepseek_family) before the GPU's compute
# capability is read (TBO with index-topk sharing, 0.5.16 on) and after it (prefill CP on decode, the cache layer split:
# 0.5.19 on, where the platform override presents the GPU); swept once without speculation (KV_SWEEP_CASE)
_OB_ELASTIC_DP = _ELASTIC_DP + ["--disable-cuda-graph"]
KV_SWEEP_EXTRA.update({
    "ob-elastic-v16-lm-head": _OB_ELASTIC_DP,
    "ob-elastic-v16-cp2": PARALLEL_CHECK_EXTRA["elastic-scale-cp2"] + ["--disable-cuda-graph"],
    "ob-elastic-v16-ep1": _OB_ELASTIC_DP + ["--enable-dp-lm-head"],
    "ob-elastic-v16-dp2-tp4": _ELASTIC + ["--max-ep-size", "8", "--tp-size", "4", "--dp-size", "2", "--ep-size", "4",
                                          "--enable-dp-attention", "--enable-dp-lm-head", "--disable-cuda-graph"],
    "ob-elastic-v16-a2a-none": _OB_ELASTIC_DP + ["--enable-dp-lm-head", "--ep-size", "2"],
})
# --elastic-ep-rejoin (trait elastic_ep_rejoin): alone, against another join mode, with a backend
KV_SWEEP_EXTRA.update({
    "ob-elastic-rejoin": ["--elastic-ep-rejoin"],
    "ob-elastic-rejoin-scale": ["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode",
                                "scale"],
    "ob-elastic-rejoin-mooncake": ["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake"],
})
KV_SWEEP_CASE.update({k: _PARALLEL_NO_SPEC for k in KV_SWEEP_EXTRA if k.startswith("ob-elastic-")})
KV_SWEEP_EXTRA.update({
    "ob-dsa-kpool-tbo": MODEL_CHECK_EXTRA["dsa-kpool-tbo"],
    "ob-dsa-prefill-cp-decode": MODEL_CHECK_EXTRA["dsa-prefill-cp-decode"],
})
KV_SWEEP_EXTRA.update({"ob-" + k: MODEL_CHECK_EXTRA[k] for k in MODEL_CHECK_EXTRA if k.startswith("dsa-layer-split")})
# since 0.5.13: 0.5.11-0.5.12's DSA block has no TBO check and reads the host's GPU (CPU torch: not compiled with CUDA)
KV_SWEEP_CASE["ob-dsa-kpool-tbo"] = dict(_DSA_CASE, target="deepseek-v32-kpool-8l", since="0.5.13")
KV_SWEEP_CASE.update({k: dict(_DSA_CASE, gpu="sm90", needs_override=True) for k in KV_SWEEP_EXTRA
                      if k.startswith(("ob-dsa-layer-split", "ob-dsa-prefill-cp-decode"))})
# the speculative hook's checks that 0.5.23's entries reach on other paths only: the DFLASH block size (non-positive,
# or unlike the draft token count), rejection sampling and a top-k tree over pages on an EAGLE3 draft (top-k 2), the
# DP MLP sync skip off EAGLE; HiSparse's radix cache check on a DSA target (0.5.19 on: the platform override's GPU)
_OB_EAGLE3_TOPK2 = {"algorithm": "EAGLE3", "draft": "b16", "num_steps": 3, "eagle_topk": 2, "num_draft_tokens": 4}
KV_SWEEP_EXTRA.update({
    "ob-dflash-block-0": [], "ob-dflash-block-differ": [],
    "ob-rejection-topk2": ["--speculative-use-rejection-sampling"],
    "ob-eagle-page-tree-torch-native": ["--page-size", "16"],
    "ob-skip-mlp-sync-dflash": ["--speculative-skip-dp-mlp-sync"], "ob-skip-mlp-sync-none": ["--speculative-skip-dp-mlp-sync"],
    "ob-skip-mlp-sync-nextn": ["--speculative-skip-dp-mlp-sync"],
    "ob-hisparse-dsa-radix": ["--enable-hisparse"],
})
KV_SWEEP_CASE.update({
    "ob-dflash-block-0": {"dflash_block_size": 0}, "ob-dflash-block-differ": {"dflash_block_size": 8, "num_draft_tokens": 16},
    "ob-rejection-topk2": _OB_EAGLE3_TOPK2,
    "ob-eagle-page-tree-torch-native": dict(_OB_EAGLE3_TOPK2, attention_backend="torch_native"),
    "ob-skip-mlp-sync-dflash": {}, "ob-skip-mlp-sync-none": _NO_SPEC,
    "ob-skip-mlp-sync-nextn": dict(_OB_EAGLE3_TOPK2, algorithm="NEXTN", eagle_topk=1),
    "ob-hisparse-dsa-radix": dict(_DSA_CASE, gpu="sm90", needs_override=True),
})
# check_lora_server_args without speculation: through 0.5.18 LoRA takes NGRAM only, so both bases are refused for it
# before the rest of the LoRA checks
_OB_NOSPEC_KEYS = sorted(k for k in CHECK_SERVER_ARGS_EXTRA if k.startswith("lora-"))
KV_SWEEP_EXTRA.update({"ob-nospec-" + k: CHECK_SERVER_ARGS_EXTRA[k] for k in _OB_NOSPEC_KEYS})
KV_SWEEP_EXTRA["ob-nospec-lora-paths-over-loaded"] = HOOK_CHECK_EXTRA["lora-paths-over-loaded"]
KV_SWEEP_CASE.update({k: _NO_SPEC for k in KV_SWEEP_EXTRA if k.startswith("ob-nospec-")})
# a PD decode server with DCP (trait pd_decode_dcp, 0.5.17-0.5.21): its transfer backends, then the chunk cache
_OB_PD_DCP = ["--disaggregation-mode", "decode", "--dcp-size", "2", "--tp-size", "2"]
KV_SWEEP_EXTRA.update({
    "ob-pd-dcp-mori": _OB_PD_DCP + ["--disaggregation-transfer-backend", "mori"],
    "ob-pd-dcp-fake": _OB_PD_DCP + ["--disaggregation-transfer-backend", "fake"],
    "ob-pd-dcp-radix": _OB_PD_DCP + ["--disaggregation-decode-enable-radix-cache"],
    "ob-pd-dcp-hicache": _OB_PD_DCP + ["--enable-hierarchical-cache"],
    "ob-pd-dcp": _OB_PD_DCP,
})
KV_SWEEP_CASE.update({k: _NO_SPEC for k in KV_SWEEP_EXTRA if k.startswith("ob-pd-dcp")})
# HiCache on the MLA target: 0.5.21 on refuse it with DCP on any other (kv_cache_hook.py, not modelled)
KV_SWEEP_CASE["ob-pd-dcp-hicache"] = dict(_NO_SPEC, target="deepseek-v3-8l", attention_backend="flashinfer")

# The sweep: each value of the option dimensions below on one plain DFLASH case (and on one EAGLE3 case),
# one at a time, so every refusal the generator can express is reached in every release's run whatever the
# seeded draw; hypothesis then draws the combinations. SWEEP_BASES are cases SGLang accepts as they are.
# -- dsa (session 16) --
# the DSA checks of 0.5.19-0.5.21 (trait deepseek_family "dsa_block_v19" / "dsa_block_v20"): model_overrides/
# deepseek_v2.py _deepseek_family_overrides (HYV4's prefill CP and DCP from 0.5.20; DSA prefill CP: interleave with
# --dp-size 2, --tp-size 16), then model_hook.py's passes after the GPU's compute capability (overrides.py
# _dsa_kv_cache_dtype_default, _dsa_split_backend_resolution: _check_tilelang_dsa_fp8_kv in 0.5.19,
# _check_dsa_backend_constraints and the learnable-sink checks in 0.5.20-0.5.21). On the platform override's GPU
# (0.5.19 on); 0.5.22 on, the model entries (dsa-*) sweep the later code. Swept once without speculation.
OLD_SWEEP_EXTRA.update({
    "dsa16-cp-interleave-dp2": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--tp-size", "2", "--dp-size", "2"],
    "dsa16-cp-interleave-tp16": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--tp-size", "16"],
    "dsa16-cp-interleave-tp2": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--tp-size", "2"],
    "dsa16-kv-fp8e5m2": ["--kv-cache-dtype", "fp8_e5m2"],
    "dsa16-kv-bf16": ["--kv-cache-dtype", "bf16"],
    "dsa16-tilelang-fp8": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang"],
    "dsa16-tilelang-bf16": ["--kv-cache-dtype", "bfloat16", "--dsa-decode-backend", "tilelang"],
    "dsa16-tilelang-sm100": ["--dsa-decode-backend", "tilelang"],
    "dsa16-triton": ["--dsa-prefill-backend", "triton"],
    "dsa16-hisparse-tilelang": ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang",
                                "--dsa-decode-backend", "tilelang", "--enable-hisparse", "--disable-radix-cache"],
    "dsa16-sink-kv-fp8": ["--kv-cache-dtype", "fp8_e4m3"],
    "dsa16-sink-backend": ["--dsa-decode-backend", "flashmla_kv"],
    "dsa16-sink-sm100": [],
    "dsa16-hyv4-prefill-cp": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--tp-size", "2"],
    "dsa16-hyv4-dcp": ["--tp-size", "2", "--dcp-size", "2"],
})
# the legacy prefill CP flags together (0.5.13-0.5.19 _handle_context_parallelism / parallel_hook.py: mutually exclusive)
OLD_SWEEP_EXTRA["dsa16-cp-legacy-both"] = ["--enable-prefill-context-parallel", "--enable-dsa-prefill-context-parallel"]
# DSA prefill CP on the DSA target without a GPU (0.5.14-0.5.19; 0.5.12-0.5.13's own flags are not modelled): the DSA
# block's prefill CP asserts come before the GPU's compute capability is read; the legacy flags (aliases of
# --enable-prefill-cp there, trait dsa_prefill_cp_flags) pick the strategy: --enable-nsa-prefill-context-parallel
# interleave, --enable-prefill-context-parallel zigzag (no DP assert)
OLD_SWEEP_EXTRA.update({
    "dsa16-legacy-cp-dp2": ["--enable-nsa-prefill-context-parallel", "--tp-size", "2", "--dp-size", "2"],
    "dsa16-legacy-cp-tp16": ["--enable-nsa-prefill-context-parallel", "--tp-size", "16"],
    "dsa16-legacy-mla-cp-dp2-tp16": ["--enable-prefill-context-parallel", "--tp-size", "16", "--dp-size", "2"],
    "dsa16-cp14-interleave-dp2": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--tp-size", "2", "--dp-size", "2"],
})
# page 64: what the family override declares for DSA on CUDA anyway (rules_model.dsa_page_size; the dsa17-page-* entries
# give none). -- w18dsa (session 18) --: from 0.5.16 through the GPU stand-in before 0.5.19, where server_args.py's DSA
# block runs the same overrides.py passes at its legacy slot (0.5.16 without _check_tilelang_dsa_fp8_kv: trait
# deepseek_family "dsa_block_v16" / "dsa_block_v17")
_DSA16 = dict(_DSA_CASE, gpu="sm90", needs_override=True, since="0.5.16", until="0.5.21", page_size=64)
OLD_SWEEP_CASE.update({k: dict(_DSA16) for k in OLD_SWEEP_EXTRA if k.startswith("dsa16-")})
OLD_SWEEP_CASE.update({
    "dsa16-cp-legacy-both": dict(_NO_SPEC, since="0.5.13", until="0.5.19"),
    **{k: dict(_DSA_CASE, since="0.5.14", until="0.5.19") for k in ("dsa16-legacy-cp-dp2", "dsa16-legacy-cp-tp16",
                                                                     "dsa16-legacy-mla-cp-dp2-tp16")},
    **{k: dict(_DSA_CASE, since="0.5.14", until="0.5.18") for k in ("dsa16-cp14-interleave-dp2",)},
    "dsa16-tilelang-sm100": dict(_DSA16, gpu="sm100"),
    "dsa16-sink-kv-fp8": dict(_DSA16, target="deepseek-v32-sink-8l"),
    "dsa16-sink-backend": dict(_DSA16, target="deepseek-v32-sink-8l"),
    "dsa16-sink-sm100": dict(_DSA16, target="deepseek-v32-sink-8l", gpu="sm100"),
    "dsa16-hyv4-prefill-cp": dict(_DSA16, target="hyv4-8l", since="0.5.20"),
    "dsa16-hyv4-dcp": dict(_DSA16, target="hyv4-8l", since="0.5.20"),
})


SWEEP_BASES = (
    {"algorithm": "DFLASH", "target": "qwen3-36l", "draft": "b16", "num_draft_tokens": None, "dflash_block_size": None,
     "num_steps": None, "eagle_topk": None, "window": None, "sink": None, "max_running_requests": 8, "pp_size": 1,
     "device": "cuda", "attention_backend": "triton", "prefill_attention_backend": None, "draft_attention_backend": None,
     "note": None, "env": {}, "style": "plain", "gpu": None, "kv_cache_dtype": None, "page_size": None,
     "context_length": None, "parallel": "none", "mem_fraction_static": None, "extra": "none", "server_check": "none",
     "ssl": "none", "cache": "none"},
    {"algorithm": "EAGLE3", "target": "llama-32l", "draft": "b16", "num_draft_tokens": 4, "dflash_block_size": None,
     "num_steps": 3, "eagle_topk": 1, "window": None, "sink": None, "max_running_requests": 8, "pp_size": 1,
     "device": "cuda", "attention_backend": "triton", "prefill_attention_backend": None, "draft_attention_backend": None,
     "note": None, "env": {}, "style": "plain", "gpu": None, "kv_cache_dtype": None, "page_size": None,
     "context_length": None, "parallel": "none", "mem_fraction_static": None, "extra": "none", "server_check": "none",
     "ssl": "none", "cache": "none"},
)


# -- attndp (session 16) --: the speculative / TBO / PP-spec attention-DP refusals as every release reads attention DP
# (rules_parallel.attn_dp_enabled): --enable-dp-attention at --dp-size 1 (dropped by the data-parallel defaults), an
# Elastic EP scale joiner with and without the flag (0.5.16 on), --attn-dp-size (0.5.22 on); once, without a draw
_AD_STANDALONE = {"algorithm": "STANDALONE", "draft": "b16", "num_steps": 3, "eagle_topk": 1, "num_draft_tokens": 4}
for _k, _extra, _case in (
        ("attndp-ngram-flag1", ["--enable-dp-attention"], dict(_NO_SPEC, algorithm="NGRAM", window=None, sink=None)),
        ("attndp-ngram-joiner", _EF_JOINER, dict(_NO_SPEC, algorithm="NGRAM", window=None, sink=None)),
        ("attndp-standalone-joiner", _EF_JOINER, _AD_STANDALONE),
        ("attndp-standalone-joiner-flag", _EF_JOINER + ["--enable-dp-attention"], _AD_STANDALONE),
        ("attndp-standalone-attn-dp2", ["--attn-dp-size", "2", "--tp-size", "2"], _AD_STANDALONE),
        ("attndp-tbo-flag1", ["--enable-two-batch-overlap", "--enable-dp-attention"], _NO_SPEC),
        ("attndp-tbo-joiner", ["--enable-two-batch-overlap"] + _EF_JOINER, _NO_SPEC),
        ("attndp-ppspec-flag1", ["--enable-dp-attention"], dict(_PP_EAGLE, window=None, sink=None))):
    KV_SWEEP_EXTRA[_k] = _extra
    KV_SWEEP_CASE[_k] = dict(_case, attention_backend="triton")


def _release_key(version):
    return tuple(int(x) if x.isdigit() else -1 for x in str(version).replace(".post", ".").split("."))


# -- moe (session 16) --
TARGET_FIELDS["mimo-v2-fused-8l"] = dict(TARGET_FIELDS["mimo-v2-flash-8l"], attention_projection_layout="fused_qkv")
TARGET_FIELDS["mimo-v2-mm-8l"] = dict(TARGET_FIELDS["mimo-v2-flash-8l"], vision_config={}, audio_config={})
# the model hook's MiMo V2 branch (handle_model_specific_adjustments: a fused qkv_proj needs the attention TP it was
# interleaved for, every release) and the context-parallel hook's text-only MiMo V2 prefill CP (0.5.16 on), each once on
# the first sweep base without speculation, with accepted neighbours
MOE16_SWEEP_EXTRA = {
    "mimo-v2-fused-tp1": [],  # refused while the check wants the exact TP (0.5.11-0.5.16), accepted after
    "mimo-v2-fused-tp2": ["--tp-size", "2"],
    "mimo-v2-fused-tp4": ["--tp-size", "4"],
    "mimo-v2-fused-tp4-dp2": ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention"],
    "mimo-v2-mm-cp": ["--enable-prefill-cp", "--cp-strategy", "zigzag"],
    "mimo-v2-mm-cp-language-only": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--language-only"],
    "mimo-v2-mm": [],
    # parallel_hook.py handle_elastic_ep (0.5.21): with the decode CUDA graph full and the prefill one disabled, the
    # recapture checks (CUDA, no embedding / encoder-only / forward hooks / PDMux) before the DP attention requirement
    "elastic-recapture-cpu": _ELASTIC + ["--device", "cpu", "--cuda-graph-backend-decode", "full",
                                         "--cuda-graph-backend-prefill", "disabled"],
    "elastic-recapture-embedding": _ELASTIC + ["--is-embedding", "--cuda-graph-backend-prefill", "disabled"],
    "elastic-recapture-encoder": _ELASTIC + ["--encoder-only", "--cuda-graph-backend-decode", "full",
                                             "--cuda-graph-backend-prefill", "disabled"],
    "elastic-recapture-hooks": _ELASTIC + ["--forward-hooks", '[{"name": "h"}]', "--cuda-graph-backend-prefill", "disabled"],
    "elastic-recapture-pdmux": _ELASTIC + ["--enable-pdmux", "--cuda-graph-backend-prefill", "disabled"],
    "elastic-recapture-dp": _ELASTIC + ["--cuda-graph-backend-prefill", "disabled"],
    # speculative_hook.py _handle_uno (0.5.20 on): --enable-dp-attention at --dp-size 1 is dropped before UNO's DP check
    "uno-dp-attn-dp1": ["--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens", "4",
                        "--enable-dp-attention"],
    # moe_hook.py handle_a2a_moe (0.5.19-0.5.20): DeepEP v2 does not forward deterministic=True
    "deepep-v2-deterministic": ["--moe-a2a-backend", "deepep_v2", "--enable-deterministic-inference"],
}
MOE16_SWEEP_CASE = {k: dict(_MISC_NO_SPEC, target="mimo-v2-fused-8l") for k in MOE16_SWEEP_EXTRA if "-fused-" in k}
MOE16_SWEEP_CASE.update({k: dict(_MISC_NO_SPEC, target="mimo-v2-mm-8l") for k in MOE16_SWEEP_EXTRA if "-mm" in k})
for _k in ("mimo-v2-mm-cp", "mimo-v2-mm-cp-language-only"):  # --enable-prefill-cp and its checks appear in 0.5.16
    MOE16_SWEEP_CASE[_k]["since"] = "0.5.16"
MOE16_SWEEP_CASE.update({k: dict(_MISC_NO_SPEC, since="0.5.21", until="0.5.21") for k in MOE16_SWEEP_EXTRA
                         if k.startswith("elastic-recapture-")})
MOE16_SWEEP_CASE["deepep-v2-deterministic"] = dict(_MISC_NO_SPEC, target="qwen3-moe-8l", since="0.5.19", until="0.5.20")
MOE16_SWEEP_CASE["uno-dp-attn-dp1"] = dict(_MISC_NO_SPEC, algorithm="UNO", attention_backend="fa3", since="0.5.20")

# -- lora (session 17) --
# The DSA page size: on a CUDA GPU the DeepSeek DSA branch sets page_size over any --page-size given (0.5.11-0.5.12
# server_args.py _handle_model_specific_adjustments for its architectures, trait dsa_page_block_archs; 0.5.13 on the
# "deepseek" family): 64, from 0.5.22 64 x index_kpool (model_overrides/deepseek_v2.py). Once each, without an explicit
# page size unless the entry gives one, on a GPU only SGLang's platform override or the named stand-in presents
# (0.5.13 on: 0.5.11-0.5.12 read DeepseekV32ForCausalLM's block only from 0.5.12; the DeepseekV3ForCausalLM DSA target
# stands for the architecture both take). The page is compared (COMPARED), and read by check_server_args' chunked
# prefill divisibility and the paged EAGLE tree check.
TARGETS["deepseek-v3-dsa-8l"] = ("DeepseekV3ForCausalLM", 8, 129280, 163840)
TARGET_FIELDS["deepseek-v3-dsa-8l"] = _DSA_FIELDS
_DSA17 = dict(_DSA_CASE, gpu="sm90", needs_override=True, since="0.5.13")
OLD_SWEEP_EXTRA.update({
    "dsa17-page-default": [], "dsa17-page-given-16": ["--page-size", "16"], "dsa17-page-sm100": [],
    "dsa17-page-kpool": [], "dsa17-page-kpool-chunk192": ["--chunked-prefill-size", "192"],
    "dsa17-page-kpool-trtllm-mla": ["--attention-backend", "trtllm_mla"],
    "dsa17-page-chunk100": ["--chunked-prefill-size", "100"], "dsa17-page-fa3": ["--attention-backend", "fa3"],
    "dsa17-page-eagle-topk2": [], "dsa17-page-v3-arch": [], "dsa17-page-v3-arch-given-16": ["--page-size", "16"],
})
OLD_SWEEP_CASE.update({
    "dsa17-page-default": dict(_DSA17), "dsa17-page-given-16": dict(_DSA17), "dsa17-page-sm100": dict(_DSA17, gpu="sm100"),
    "dsa17-page-kpool": dict(_DSA17, target="deepseek-v32-kpool-8l"),
    "dsa17-page-kpool-chunk192": dict(_DSA17, target="deepseek-v32-kpool-8l"),  # refused from 0.5.22 (page 128)
    "dsa17-page-kpool-trtllm-mla": dict(_DSA17, target="deepseek-v32-kpool-8l", gpu="sm100"),  # TRTLLM MLA: back to 64
    "dsa17-page-chunk100": dict(_DSA17), "dsa17-page-fa3": dict(_DSA17),
    "dsa17-page-eagle-topk2": dict(_DSA17, algorithm="EAGLE", draft="b16", num_steps=3, eagle_topk=2, num_draft_tokens=4),
    "dsa17-page-v3-arch": dict(_DSA17, target="deepseek-v3-dsa-8l", since="0.5.11"),
    "dsa17-page-v3-arch-given-16": dict(_DSA17, target="deepseek-v3-dsa-8l", since="0.5.11"),
})


# -- gpu16 (session 17) --
# 0.5.16-0.5.18 resolve GPU-host cases through the oracle's GPU stand-in (tests/oracle/platforms.py STAND_IN_RELEASES), so the
# sweep's GPU entries of the checks those releases already have are swept there too: the attention hook's MLA backend
# checks (trait mla_backend_checks, arg_groups/overrides.py _mla_kv_cache_dtype_checks / _cutedsl_prefill_backend_fill
# from 0.5.15), --quantization nvfp4_online's MoE runners (0.5.18 overrides.py _moe_runner_backend_quant_constraints)
# and the SSM cache chunk size (server_args.py mamba_cache_chunk_size); the DSA ones stay where the engine models them
for _k, _v in OVR_SWEEP_CASE.items():
    if _v["since"] == "0.5.19":
        _v["since"] = "0.5.16"
# server_args.py _handle_multimodal_feature_transport: cuda_vmm under the Rust server (0.5.18, whose parser first has
# cuda_vmm), with the stand-in's SM90
OLD_SWEEP_CASE["cache16-vmm-rust-server-sm90"]["since"] = "0.5.18"
# the EAGLE family's trtllm_mha topk check (0.5.16-0.5.18 arg_groups/speculative_hook.py _handle_eagle_family): past
# the attention hook's trtllm_mha prefill check, which takes SM100 only there (0.5.19 on, the platform entry's SM120)
OLD_SWEEP_EXTRA["gpu16-eagle-trtllm-topk2-sm100"] = []
OLD_SWEEP_CASE["gpu16-eagle-trtllm-topk2-sm100"] = dict(_EAGLE_TOPK2, gpu="sm100", needs_override=True, since="0.5.16",
                                                        until="0.5.18", **_TRTLLM)
# Kimi-K3's DCP branch (0.5.17-0.5.18 arg_groups/overrides.py _kimi_k3_overrides, as 0.5.19's kimi_k3.py; 0.5.16
# refuses DCP off HIP first) and Nemotron-H's W4A16_NVFP4 experts (0.5.18 overrides.py _nemotron_h_overrides)
for _k in ("quant-kimi-dcp-triton", "quant-kimi-dcp-cutedsl", "quant-kimi-dcp-aiter", "quant-kimi-dcp-dspark"):
    MODEL_CHECK_CASE[_k] = dict(MODEL_CHECK_CASE[_k], since="0.5.17")
for _k in ("quant-nemotron-w4a16-deepep", "quant-nemotron-w4a16-triton", "quant-nemotron-w4a16-marlin"):
    MODEL_CHECK_CASE[_k] = dict(MODEL_CHECK_CASE[_k], since="0.5.18")
# handle_unified_memory_pool's prefill CUDA graph check (0.5.15-0.5.18 server_args.py _handle_unified_memory_pool):
# tc_piecewise set by the flag or --cuda-graph-config; the CUDA default (breakable) and a disabled prefill graph pass
# (the default on a host without CUDA, tc_piecewise, goes through a compatibility cascade first: not modelled; 0.5.18's
# DSPARK checks after it: a DSPARK case on this host stops at the sampler's flashinfer import)
_G16_UM = ["--enable-unified-memory"]
OLD_SWEEP_EXTRA.update({
    "gpu16-unified-cpu-prefill-off": _G16_UM + ["--cuda-graph-backend-prefill", "disabled"],
    "gpu16-unified-deepep-normal-sm90": _G16_UM + ["--cuda-graph-backend-prefill", "tc_piecewise", "--moe-a2a-backend",
                                                   "deepep", "--deepep-mode", "normal", "--tp-size", "2", "--ep-size", "2"],
    "gpu16-unified-sm90": _G16_UM, "gpu16-unified-sm90-piecewise": _G16_UM + ["--cuda-graph-backend-prefill", "tc_piecewise"],
    "gpu16-unified-sm90-json": _G16_UM + ["--cuda-graph-config", '{"prefill": {"backend": "tc_piecewise"}}'],
})
# -- cache (session 18) --: from 0.5.15, where the pool and both checks appear, to 0.5.19 (kv_cache_hook.py: any prefill
# graph left on when --cuda-graph-backend-prefill was given, even "disabled" under a --cuda-graph-config that turns it
# on; breakable too)
_G16_UM_CASE = dict(_NO_SPEC, attention_backend="triton", since="0.5.15", until="0.5.19")
OLD_SWEEP_EXTRA.update({
    "gpu16-unified-sm90-breakable": _G16_UM + ["--cuda-graph-backend-prefill", "breakable"],
    "gpu16-unified-sm90-json-flag-off": _G16_UM + ["--cuda-graph-backend-prefill", "disabled", "--cuda-graph-config",
                                                   '{"prefill": {"backend": "tc_piecewise"}}'],
    "gpu16-unified-sm90-json-off-flag": _G16_UM + ["--cuda-graph-backend-prefill", "tc_piecewise",
                                                   "--cuda-graph-config", '{"prefill": {"backend": "disabled"}}'],
})
OLD_SWEEP_CASE.update({k: dict(_G16_UM_CASE, **({"gpu": "sm90", "needs_override": True} if "-sm90" in k else {}))
                       for k in OLD_SWEEP_EXTRA if k.startswith("gpu16-unified-")})
OLD_SWEEP_CASE["gpu16-unified-deepep-normal-sm90"]["target"] = "qwen3-moe-8l"
# the MiMo V2 branch's HiCache check (0.5.14-0.5.18 server_args.py _handle_model_specific_adjustments), on both MiMo V2
# architectures, with the env that lets it pass (-- cache (session 18) --: from 0.5.13.post1, which has no check)
OLD_SWEEP_EXTRA.update({"gpu16-mimo-v2-hicache": ["--enable-hierarchical-cache", "--tp-size", "2"],
                        "gpu16-mimo-v2-flash-hicache": ["--enable-hierarchical-cache"],
                        "gpu16-mimo-v2-hicache-env": ["--enable-hierarchical-cache"]})
OLD_SWEEP_CASE.update({
    "gpu16-mimo-v2-hicache": dict(_NO_SPEC, target="mimo-v2-fused-8l", since="0.5.13.post1", until="0.5.18"),
    "gpu16-mimo-v2-flash-hicache": dict(_NO_SPEC, target="mimo-v2-flash-8l", since="0.5.13.post1", until="0.5.18"),
    "gpu16-mimo-v2-hicache-env": dict(_NO_SPEC, target="mimo-v2-flash-8l", env={"SGLANG_ENABLE_UNIFIED_RADIX_TREE": "1"},
                                      since="0.5.13.post1", until="0.5.18"),
})
# _handle_cache_compatibility's session radix cache check (0.5.15-0.5.16 server_args.py; gone in 0.5.17) and its
# accepted neighbour; DCP on the stand-in's CUDA GPU with speculation (0.5.16 _handle_dcp_validation) and under the
# unified pool (its DCP assert: an MHA target)
OLD_SWEEP_EXTRA.update({
    "gpu16-session-radix": ["--enable-session-radix-cache"],
    "gpu16-session-radix-priority": ["--enable-session-radix-cache", "--radix-eviction-policy", "priority"],
    "gpu16-dcp-spec-sm90": ["--dcp-size", "2", "--tp-size", "2"],
    "gpu16-unified-dcp-sm90": _G16_UM + ["--dcp-size", "2", "--tp-size", "2"],
})
OLD_SWEEP_CASE.update({
    "gpu16-session-radix": dict(_NO_SPEC, since="0.5.15", until="0.5.17"),
    "gpu16-session-radix-priority": dict(_NO_SPEC, since="0.5.15", until="0.5.17"),
    "gpu16-dcp-spec-sm90": dict(gpu="sm90", needs_override=True, attention_backend="triton", since="0.5.16",
                                until="0.5.16"),
    "gpu16-unified-dcp-sm90": dict(_G16_UM_CASE, gpu="sm90", needs_override=True),
})
# the deprecated SGLANG_CUTLASS_MOE (0.5.11-0.5.14 srt/server_args.py _handle_moe_kernel_config; 0.5.15-0.5.17
# arg_groups/overrides.py _cutlass_moe_env_override): an fp8 / mxfp8 quantization only, then the cutlass runner's FP8
# EP check; 0.5.18 ignores it -- moe18 (session 18): from 0.5.11
OLD_SWEEP_EXTRA.update({"gpu16-cutlass-moe-env": [], "gpu16-cutlass-moe-env-fp8": ["--quantization", "fp8"],
                        "gpu16-cutlass-moe-env-fp8-ep2": ["--quantization", "fp8", "--tp-size", "2", "--ep-size", "2"]})
OLD_SWEEP_CASE.update({k: dict(_NO_SPEC, target="qwen3-moe-8l", env={"SGLANG_CUTLASS_MOE": "1"}, since="0.5.11",
                               until="0.5.18") for k in ("gpu16-cutlass-moe-env", "gpu16-cutlass-moe-env-fp8",
                                                         "gpu16-cutlass-moe-env-fp8-ep2")})
# -- moe18 (session 18) --: check_server_args refuses two-batch overlap with fused shared experts (0.5.12-0.5.13
# server_args.py), given or set by DeepEP Waterfill (_handle_a2a_moe: it forces --moe-a2a-backend deepep too, so the
# TBO a2a check passes first); swept from the flag's release (0.5.11: no check) to 0.5.14 (none); Waterfill's flags:
# --enable-deepep-waterfill 0.5.12-0.5.15, --enable-waterfill from 0.5.16
_TBO = ["--enable-two-batch-overlap"]
OLD_SWEEP_EXTRA.update({"moe18-tbo-shared-fusion": _TBO + ["--moe-a2a-backend", "deepep", "--enforce-shared-experts-fusion"],
                        "moe18-tbo-deepep": _TBO + ["--moe-a2a-backend", "deepep"],
                        "moe18-tbo-deepep-waterfill": _TBO + ["--enable-deepep-waterfill"],
                        "moe18-tbo-waterfill": _TBO + ["--enable-waterfill"]})
OLD_SWEEP_CASE.update({"moe18-tbo-shared-fusion": dict(_NO_SPEC, target="qwen3-moe-8l", since="0.5.11", until="0.5.14"),
                       "moe18-tbo-deepep": dict(_NO_SPEC, target="qwen3-moe-8l", since="0.5.11", until="0.5.14"),
                       "moe18-tbo-deepep-waterfill": dict(_NO_SPEC, target="qwen3-moe-8l", since="0.5.12",
                                                          until="0.5.15.post1"),
                       "moe18-tbo-waterfill": dict(_NO_SPEC, target="qwen3-moe-8l", since="0.5.16", until="0.5.18")})
# the attention hook's dual-chunk pass (0.5.11-0.5.19; from 0.5.15 arg_groups/overrides.py _attention_backend_dual_chunk):
# a Qwen3 config with dual_chunk_attention_config, on another backend (given, or the default), and on its own
TARGETS["qwen3-dual-chunk-8l"] = ("Qwen3ForCausalLM", 8, 151936, 40960)
TARGET_FIELDS["qwen3-dual-chunk-8l"] = {"dual_chunk_attention_config": {
    "chunk_size": 8192, "local_size": 1024, "original_max_position_embeddings": 40960}}
# (-- cache (session 18) --: to 0.5.20, where the pass is gone, and the default on a GPU, which the engine does not
# resolve: never dual_chunk_flash_attn)
OLD_SWEEP_EXTRA.update({"gpu16-dual-chunk-triton": [], "gpu16-dual-chunk-default": [], "gpu16-dual-chunk-own": [],
                        "gpu16-dual-chunk-default-sm90": [], "gpu16-dual-chunk-default-sm100": []})
OLD_SWEEP_CASE.update({
    "gpu16-dual-chunk-triton": dict(_NO_SPEC, target="qwen3-dual-chunk-8l", attention_backend="triton", since="0.5.16",
                                    until="0.5.20"),
    "gpu16-dual-chunk-default": dict(_NO_SPEC, target="qwen3-dual-chunk-8l", attention_backend=None, since="0.5.16",
                                     until="0.5.20"),
    "gpu16-dual-chunk-own": dict(_NO_SPEC, target="qwen3-dual-chunk-8l", attention_backend="dual_chunk_flash_attn",
                                 since="0.5.16", until="0.5.20"),
    "gpu16-dual-chunk-default-sm90": dict(_NO_SPEC, target="qwen3-dual-chunk-8l", attention_backend=None, gpu="sm90",
                                          needs_override=True, until="0.5.20"),
    "gpu16-dual-chunk-default-sm100": dict(_NO_SPEC, target="qwen3-dual-chunk-8l", attention_backend=None, gpu="sm100",
                                           needs_override=True, since="0.5.16", until="0.5.20"),
})
# _handle_dspark's ragged verify mode under attention DP with an a2a backend (0.5.18 arg_groups/speculative_hook.py;
# dspark_rules "ragged"; the static mode it takes goes on to the sampler's flashinfer import, absent on this host)
OLD_SWEEP_EXTRA["gpu16-dspark-dp-megamoe-compact-sm100"] = ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention",
                                                            "--enable-dp-lm-head", "--moe-a2a-backend", "megamoe"]
OLD_SWEEP_CASE["gpu16-dspark-dp-megamoe-compact-sm100"] = dict(
    _DSPARK_B16, target="qwen3-moe-8l", gpu="sm100", needs_override=True, env={"SGLANG_RAGGED_VERIFY_MODE": "compact"},
    since="0.5.18", until="0.5.18")
# --quantization nvfp4_online's MoE runners on SM100 (0.5.18-0.5.19 arg_groups/overrides.py
# _moe_runner_backend_quant_constraints; their parsers have no flashinfer_megamoe runner, the overrides entry's value)
OLD_SWEEP_EXTRA["gpu16-nvfp4-online-triton-sm100"] = ["--quantization", "nvfp4_online", "--moe-runner-backend", "triton"]
OLD_SWEEP_CASE["gpu16-nvfp4-online-triton-sm100"] = dict(_NO_SPEC, target="qwen3-moe-8l", gpu="sm100", needs_override=True,
                                                         since="0.5.16", until="0.5.19")
# prepare_server_args' SGLANG_NPU_FUSED_MOE_MODE after the parse (0.5.16-0.5.17 server_args.py
# _apply_fuseep_mode_env_compat, on any device), with the accepted value and the flag that overrides it; 0.5.18 no
# longer reads it
OLD_SWEEP_EXTRA.update({"gpu16-fuseep-env-3": [], "gpu16-fuseep-env-2": [], "gpu16-fuseep-env-3-flag": ["--fuseep-mode", "2"]})
OLD_SWEEP_CASE.update({k: dict(_NO_SPEC, env={"SGLANG_NPU_FUSED_MOE_MODE": k.split("-")[3]}, since="0.5.16",
                               until="0.5.18") for k in ("gpu16-fuseep-env-3", "gpu16-fuseep-env-2", "gpu16-fuseep-env-3-flag")})


# -- new19 (session 17) --
# Qwen3.5 (a GDN hybrid; SGLang's own Qwen3_5Config: a text config with the linear-attention fields of qwen3-next-8l,
# a vision config) as a Clef checkpoint: joint_head_config.json beside config.json, which 0.5.22 on
# srt/configs/model_config.py load_joint_head_config reads for architectures == ["Qwen3_5ForConditionalGeneration"]
# (None when absent or null); model_hook.py handle_model_capability_adjustments then serves it at --tp-size 1 and
# --pp-size 1 only (rules_model.check_joint_head_checkpoint). The radix cache off on this host (the Mamba radix cache's
# extra_buffer wants a CUDA platform first), an explicit attention backend on a GPU; swept once each on the DFLASH base
# without speculation, from 0.5.21 (no check there: accepted)
_QWEN35_TEXT = {k: v for k, v in TARGET_FIELDS["qwen3-next-8l"].items() if k.startswith("linear_")}
_QWEN35_TEXT.update({"model_type": "qwen3_5_text", "hidden_size": 256, "intermediate_size": 512,
                     "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64, "num_hidden_layers": 8,
                     "vocab_size": 151936, "max_position_embeddings": 40960, "rms_norm_eps": 1e-6,
                     "full_attention_interval": 4, "layer_types": (["linear_attention"] * 3 + ["full_attention"]) * 2})
_QWEN35 = {"model_type": "qwen3_5", "text_config": _QWEN35_TEXT,
           "vision_config": {"depth": 2, "hidden_size": 64, "num_heads": 2, "out_hidden_size": 256}}
TARGETS.update({k: ("Qwen3_5ForConditionalGeneration", 8, 151936, 40960)
                for k in ("qwen35-8l", "qwen35-clef-8l", "qwen35-clef-null-8l")})
TARGET_FIELDS.update({k: _QWEN35 for k in ("qwen35-8l", "qwen35-clef-8l", "qwen35-clef-null-8l")})
# files of a target's checkpoint directory besides config.json (write_models): name -> {file name: JSON body}
TARGET_FILES = {"qwen35-clef-8l": {"joint_head_config.json": {"num_labels": 2}},
                "qwen35-clef-null-8l": {"joint_head_config.json": None}}
_NO_RADIX = ["--disable-radix-cache"]
NEW19_SWEEP_EXTRA = {
    "clef-tp2": ["--tp-size", "2"] + _NO_RADIX, "clef-pp2-sm90": ["--pp-size", "2", "--attention-backend", "fa3"],
    "clef-tp1": _NO_RADIX, "clef-tp1-sm90": ["--attention-backend", "fa3"],
    "clef-null-tp2": ["--tp-size", "2"] + _NO_RADIX, "qwen35-tp2": ["--tp-size", "2"] + _NO_RADIX,
}
NEW19_SWEEP_CASE = {k: dict(_MISC_NO_SPEC, target="qwen35-clef-8l", since="0.5.21") for k in NEW19_SWEEP_EXTRA}
NEW19_SWEEP_CASE["clef-null-tp2"]["target"] = "qwen35-clef-null-8l"
NEW19_SWEEP_CASE["qwen35-tp2"]["target"] = "qwen35-8l"
for _k in ("clef-pp2-sm90", "clef-tp1-sm90"):
    NEW19_SWEEP_CASE[_k].update(gpu="sm90", attention_backend="fa3")
# speculative_hook.py _handle_dspark (0.5.19-0.5.21): DSpark with attention DP over a MegaMoE all-to-all (0.5.19-0.5.20;
# 0.5.21's MegaMoE hook wants a GPU first) or a MORI one (0.5.21, which adds it) needs SGLANG_RAGGED_VERIFY_MODE=static
_DSPARK_DP_A2A = _DP_ATTN_TP2 + ["--enable-dp-lm-head", "--moe-a2a-backend"]
NEW19_SWEEP_EXTRA.update({"dspark-dp-megamoe-compact": _DSPARK_DP_A2A + ["megamoe"],
                          "dspark-dp-mori-cap-accept": _DSPARK_DP_A2A + ["mori"]})
NEW19_SWEEP_CASE["dspark-dp-megamoe-compact"] = dict(_DSPARK, since="0.5.19", until="0.5.20",
                                                     env={"SGLANG_RAGGED_VERIFY_MODE": "compact"})
NEW19_SWEEP_CASE["dspark-dp-mori-cap-accept"] = dict(_DSPARK, since="0.5.21", until="0.5.21",
                                                     env={"SGLANG_RAGGED_VERIFY_MODE": "cap-accept"})
# kv_cache_hook.py handle_unified_memory_pool with DSPARK (0.5.19 on): a linear draft chain (topk 1), then target
# backends whose speculative verify is audited for the unified pool (0.5.19-0.5.21: triton and the MLA ones; 0.5.22:
# flashinfer, fa3 and flashmla join; 0.5.23: fa4 joins, tokenspeed_mla is cutedsl_mla by then), with accepted neighbours
_UM = ["--enable-unified-memory"]
NEW19_SWEEP_EXTRA.update({"um-dspark-topk2": _UM + ["--speculative-eagle-topk", "2"], "um-dspark-triton": _UM,
                          "um-dspark-fa3": _UM, "um-dspark-flashinfer": _UM, "um-dspark-fa4": _UM,
                          "um-dspark-torch-native": _UM})
NEW19_SWEEP_CASE.update({k: dict(_DSPARK, draft="no-block-size", since="0.5.19", attention_backend=k.split("-", 2)[2]
                                 .replace("-", "_").replace("topk2", "triton"))
                         for k in NEW19_SWEEP_EXTRA if k.startswith("um-dspark-")})
# kv_cache_hook.py handle_page_major_kv_layout (0.5.19-0.5.22): an MHA target whose K and V rows differ in width
# (model_config.has_asymmetric_kv: head_dim / v_head_dim, swa_head_dim / swa_v_head_dim; MiMo V2's 192 / 128) is refused
# the unified pool; 0.5.23 takes it
TARGETS.update({"qwen3-asym-kv-8l": ("Qwen3ForCausalLM", 8, 151936, 40960),
                "qwen3-asym-swa-kv-8l": ("Qwen3ForCausalLM", 8, 151936, 40960)})
TARGET_FIELDS.update({"qwen3-asym-kv-8l": {"v_head_dim": 32},
                      "qwen3-asym-swa-kv-8l": {"swa_head_dim": 64, "swa_v_head_dim": 32}})
NEW19_SWEEP_EXTRA.update({"um-asym-kv": _UM, "um-asym-swa-kv": _UM})
NEW19_SWEEP_CASE.update({"um-asym-kv": dict(_MISC_NO_SPEC, target="qwen3-asym-kv-8l", since="0.5.19"),
                         "um-asym-swa-kv": dict(_MISC_NO_SPEC, target="qwen3-asym-swa-kv-8l", since="0.5.19")})
# moe_hook.py validate_cutedsl_a2a_token_budget (0.5.19-0.5.21; 0.5.13-0.5.18 srt/server_args.py
# _validate_cutedsl_a2a_token_budget): FlashInfer A2A with the CuteDSL runner (NVFP4 experts) needs
# SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK (1024) * ep_size (the TP size) to cover --max-prefill-tokens
# (16384); at 2048 it does, at 2049 not; a decode server is exempt. The env at 0 is a zero budget through 0.5.16
# (get_int_env_var), the 1024 default from 0.5.17 (envs ... or 1024): trait cutedsl_a2a_token_budget
_CUTEDSL_A2A = _FI_A2A + ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4"]
NEW19_SWEEP_EXTRA.update({"cutedsl-budget-default": _CUTEDSL_A2A,
                          "cutedsl-budget-2048": _CUTEDSL_A2A + ["--max-prefill-tokens", "2048"],
                          "cutedsl-budget-2049": _CUTEDSL_A2A + ["--max-prefill-tokens", "2049"],
                          "cutedsl-budget-decode": _CUTEDSL_A2A + ["--disaggregation-mode", "decode"],
                          "cutedsl-budget-env0": _CUTEDSL_A2A + ["--max-prefill-tokens", "2048"]})
NEW19_SWEEP_CASE.update({k: dict(_MOE_ENV, since="0.5.13", until="0.5.21")
                         for k in NEW19_SWEEP_EXTRA if k.startswith("cutedsl-budget-")})
NEW19_SWEEP_CASE["cutedsl-budget-env0"]["env"] = {"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK": "0"}
# cp_tp_group_sharing_hook.py resolve_cp_tp_group_sharing in 0.5.22 (GLM-5.3-Flash only, interleave; speculation only
# as native MTP; any PD mode refused), in its order with the accepted ones, on a GPU host (its Mamba layers)
_GLM_CP = ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "2"]
NEW19_SWEEP_EXTRA.update({
    "glm-cp-tp4": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "4"],
    "glm-cp-tp4-attn-dp2": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "4",
                            "--attn-dp-size", "2"],
    "glm-cp-zigzag": ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2"],
    "glm-cp-dflash": _GLM_CP, "glm-cp-mixed": _GLM_CP + ["--enable-mixed-chunk"],
    "glm-cp-pd": _GLM_CP + ["--disaggregation-mode", "prefill"],
    "glm-cp-tp8": ["--enable-prefill-cp", "--cp-strategy", "interleave", "--attn-cp-size", "8", "--tp-size", "8"],
    "glm-cp": _GLM_CP})
NEW19_SWEEP_CASE.update({k: dict(_MISC_NO_SPEC, target="glm5-next-4l", gpu="sm120", since="0.5.22", until="0.5.22")
                         for k in NEW19_SWEEP_EXTRA if k.startswith("glm-cp")})
NEW19_SWEEP_CASE["glm-cp-dflash"].update(algorithm="DFLASH", draft="b16")
# the DeepSeek family's MLA prefill CP override widens --attn-cp-size 2 to the TP size 4 first (0.5.22 on): accepted
NEW19_SWEEP_CASE["glm-cp-tp4"]["until"] = None  # (over attention DP 2: 2, refused)
NEW19_SWEEP_CASE["glm-cp-tp4-attn-dp2"]["until"] = None
# serving_hook.py handle_deprecated_args (0.5.22 only): --sidecar refuses SGLANG_RUST_SERVER; kv_cache_hook.py
# handle_unified_memory_pool (0.5.22): the unified pool refuses trtllm_mha's decode CUDA graph (on SM90), not without it
NEW19_SWEEP_EXTRA.update({"sidecar-rust-server": ["--sidecar", "/bin/true", "--grpc-port", "50051"],
                          "um-trtllm-decode-graph": _UM, "um-trtllm-no-graph": _UM + ["--disable-cuda-graph"]})
NEW19_SWEEP_CASE.update({
    "sidecar-rust-server": dict(_MISC_NO_SPEC, since="0.5.22", env={"SGLANG_RUST_SERVER": "1"}),
    "um-trtllm-decode-graph": dict(_MISC_NO_SPEC, since="0.5.22", gpu="sm90", attention_backend="trtllm_mha"),
    "um-trtllm-no-graph": dict(_MISC_NO_SPEC, since="0.5.22", gpu="sm90", attention_backend="trtllm_mha")})
# kv_cache_hook.py handle_unified_memory_pool (0.5.21): the host-pool decode retraction backup refuses the decode radix
# cache and a hybrid sliding-window target (0.5.22 on: neither; swept in 0.5.21 only)
_UM_HOST_POOL = _UM + ["--disaggregation-mode", "decode", "--disaggregation-decode-retraction-backup", "host_pool"]
NEW19_SWEEP_EXTRA.update({"um-host-pool-radix": _UM_HOST_POOL + ["--disaggregation-decode-enable-radix-cache"],
                          "um-host-pool-swa": _UM_HOST_POOL})
NEW19_SWEEP_CASE.update({"um-host-pool-radix": dict(_MISC_NO_SPEC, attention_backend="flashinfer", since="0.5.21",
                                                    until="0.5.21"),
                         "um-host-pool-swa": dict(_MISC_NO_SPEC, target="qwen3-hybrid-swa-8l",
                                                  attention_backend="flashinfer", since="0.5.21", until="0.5.21")})
# 0.5.22 on: flashinfer leaves the list under --dcp-size > 1
NEW19_SWEEP_EXTRA["um-dcp-dspark-flashinfer"] = _UM + ["--tp-size", "2", "--dcp-size", "2"]
NEW19_SWEEP_CASE["um-dcp-dspark-flashinfer"] = dict(_DSPARK, draft="no-block-size", since="0.5.22",
                                                    attention_backend="flashinfer")


def sweep_cases(version=None):
    """Every value of EXTRA, CHECK_SERVER_ARGS_EXTRA, SSL_EXTRA, PARALLEL, STYLES, ENVS and PARALLEL_CHECK_EXTRA on each
    of SWEEP_BASES; then HOOK_CHECK_EXTRA's and KV_POOL_EXTRA's, each with what the entry changes in the case."""
    out = []
    for base in SWEEP_BASES:
        for key, values in (("extra", sorted(EXTRA)), ("server_check", sorted(CHECK_SERVER_ARGS_EXTRA)),
                            ("ssl", sorted(SSL_EXTRA)), ("cache", sorted(CACHE_EXTRA)),
                            ("parallel", sorted(PARALLEL)), ("style", STYLES),
                            ("env", ENVS), ("parallel_check", sorted(PARALLEL_CHECK_EXTRA))):
            for v in values:
                if v != base.get(key, "none"):
                    out.append(dict(base, **{key: v}))
        for v in sorted(HOOK_CHECK_EXTRA):  # each on the base, with what the entry changes in the case
            out.append(dict(base, hook_check=v, **HOOK_CHECK_CASE.get(v, {})))
        for v in sorted(MOE_CHECK_EXTRA):  # on the base's target, then on the MoE / MLA targets
            for target in (base["target"],) + MOE_SWEEP_TARGETS:
                out.append(dict(base, moe_check=v, target=target, **MOE_CHECK_CASE.get(v, {})))
        for v in sorted(KV_POOL_EXTRA):
            out.append(dict(base, kv_pool=v, **KV_POOL_CASE.get(v, {})))
        for v in sorted(PLATFORM_CHECK_EXTRA):
            out.append(dict(base, platform_check=v, **PLATFORM_CHECK_CASE.get(v, {})))
        if base is SWEEP_BASES[0]:  # -- parallel (session 14) --: the parallel entries without speculation too
            for v in sorted(PARALLEL_CHECK_CASE):
                out.append(dict(base, parallel_check=v, **PARALLEL_CHECK_CASE[v]))
        for v in sorted(ATTN_CHECK_EXTRA):  # -- attn (session 14) --
            out.append(dict(base, attn_check=v, **ATTN_CHECK_CASE.get(v, {})))
    # the DFLASH settings SGLang overrides with a warning (topk / num_steps != 1), on the DFLASH base: every release's
    # run has them whatever the draw (test_overrides_flagged_where_sglang_warns needs some)
    for topk, steps in ((2, 1), (4, 1), (8, 1), (1, 2), (1, 3), (4, 3)):
        out.append(dict(SWEEP_BASES[0], eagle_topk=topk, num_steps=steps))
    # -- model (session 14) --
    for v in sorted(MODEL_CHECK_EXTRA):  # on the first base only, on the entry's target
        out.append(dict(SWEEP_BASES[0], model_check=v, **MODEL_CHECK_CASE.get(v, {})))
    for v in sorted(MISC_CHECK_EXTRA):  # -- misc (session 15) --: on the first base only
        out.append(dict(SWEEP_BASES[0], misc_check=v, **MISC_CHECK_CASE.get(v, {})))
    if version is not None:  # an entry with `since` is swept from that release on
        out = [c for c in out if not c.get("since") or _release_key(version) >= _release_key(c["since"])]
    # -- kv (session 14) --
    for v in sorted(KV_SWEEP_EXTRA):  # once, on the DFLASH base without speculation (from its `since`, if any)
        if version is None or _release_key(version) >= _release_key(KV_SWEEP_CASE[v].get("since") or "0"):
            out.append(dict(SWEEP_BASES[0], kv_sweep=v, **KV_SWEEP_CASE[v]))
    # -- dsv4 (session 15) --: once, without speculation, from the release the engine models the hook
    for v in sorted(DSV4_SWEEP_EXTRA):  # -- dsv4old (session 16) --: each entry on its releases (DSV4_SWEEP_RANGE)
        since, until = DSV4_SWEEP_RANGE.get(v, (DSV4_SWEEP_SINCE, None))
        if version is None or (_release_key(version) >= _release_key(since) and
                               (until is None or _release_key(version) <= _release_key(until))):
            out.append(dict(SWEEP_BASES[0], dsv4_sweep=v, **DSV4_SWEEP_CASE[v]))
    for v in sorted(OVR_SWEEP_EXTRA):  # -- overrides (session 15) --: once, on the DFLASH base without speculation
        if version is None or _release_key(version) >= _release_key(OVR_SWEEP_CASE[v]["since"]):
            out.append(dict(SWEEP_BASES[0], ovr_sweep=v, **OVR_SWEEP_CASE[v]))
    out.extend(_old_sweep_cases(version))  # -- old-a (session 15) --
    for v in sorted(MOE16_SWEEP_EXTRA):  # -- moe (session 16) --: once, on the DFLASH base without speculation
        c = MOE16_SWEEP_CASE[v]
        if version is None or (_release_key(version) >= _release_key(c.get("since") or "0") and
                               (not c.get("until") or _release_key(version) <= _release_key(c["until"]))):
            out.append(dict(SWEEP_BASES[0], moe16_sweep=v, **c))
    for v in sorted(NEW19_SWEEP_EXTRA):  # -- new19 (session 17) --: once, on the DFLASH base without speculation
        c = NEW19_SWEEP_CASE[v]
        if version is None or (_release_key(version) >= _release_key(c.get("since") or "0") and
                               (not c.get("until") or _release_key(version) <= _release_key(c["until"]))):
            out.append(dict(SWEEP_BASES[0], new19_sweep=v, **c))
    return out



# The sweep's families: the key a sweep case varies (sweep_cases), in the order a case is named by.
SWEEP_FAMILIES = ("extra", "server_check", "ssl", "cache", "parallel", "parallel_check", "hook_check", "moe_check",
                  "kv_pool", "platform_check", "attn_check", "model_check", "misc_check", "kv_sweep", "dsv4_sweep",
                  "ovr_sweep", "moe16_sweep", "new19_sweep", "old_sweep")
# Sweep cases the static layer leaves to SGLang (flags of features outside the spec: MoE, Mamba, DSA, HiCache,
# LoRA, PD, SSL, ...) are resolved by SGLang only this many per family and release: they show that the static
# layer never refuses what SGLang accepts there; the hundreds more of them only cost resolver time.
JUDGED_SAMPLE_PER_FAMILY = 2


def sweep_family(case):
    """The sweep family a case belongs to ("base": the sweep bases and their topk/steps overrides)."""
    return next((f for f in SWEEP_FAMILIES if case.get(f) not in (None, "none")), "base")


def owned_or_sampled(cases, statics):
    """Of the sweep cases (with their static verdicts, same order): every one the static layer judges itself (compared
    in full with SGLang), and per family the first JUDGED_SAMPLE_PER_FAMILY of those it leaves to SGLang and of those
    it refuses at parse (a flag or a choice not in the release's parser: on an older release most entries of the
    newer features' families, the same lookup in the captured parser table whatever the flag)."""
    kept, sampled = [], collections.Counter()
    for case, static in zip(cases, statics):
        refusal = static_refusal(static)
        kind = "judged" if judged_by_sglang(static) else "parse" if refusal and refusal[1] == "parse" else None
        if kind and sweep_family(case) != "base":  # the bases, their styles, env and overrides: all of them
            key = (sweep_family(case), kind)
            if sampled[key] >= JUDGED_SAMPLE_PER_FAMILY:
                continue
            sampled[key] += 1
        kept.append(case)
    return kept

# Platform facts for GPU-host cases: SGLang's own override (sglang.srt.runtime_context.override_platform,
# 0.5.19 on) plus the device memory it would read; and the same host as gpu_facts for the static side.
PLATFORMS = {
    "sm120": {"facts": {"is_cuda": True, "is_hip": False, "is_sm90": False, "is_hopper_with_cuda_12_3": False,
                        "is_sm100": False, "is_sm100_or_sm110": False, "is_sm110": False, "is_sm120": True,
                        "is_blackwell": True, "has_flashinfer": True, "device_sm": 120, "device_capability": [12, 0]},
              "memory_mib": 97887},
    "sm90": {"facts": {"is_cuda": True, "is_hip": False, "is_sm90": True, "is_hopper_with_cuda_12_3": True,
                       "is_sm100": False, "is_sm100_or_sm110": False, "is_sm110": False, "is_sm120": False,
                       "is_blackwell": False, "has_flashinfer": True, "device_sm": 90, "device_capability": [9, 0]},
             "memory_mib": 143771},
    # -- overrides (session 15) --: an Ampere GPU (the DSA TileLang FP8 KV check wants SM89 or newer)
    "sm80": {"facts": {"is_cuda": True, "is_hip": False, "is_sm90": False, "is_hopper_with_cuda_12_3": False,
                       "is_sm100": False, "is_sm100_or_sm110": False, "is_sm110": False, "is_sm120": False,
                       "is_blackwell": False, "has_flashinfer": True, "device_sm": 80, "device_capability": [8, 0]},
             "memory_mib": 81920},
    "sm100": {"facts": {"is_cuda": True, "is_hip": False, "is_sm90": False, "is_hopper_with_cuda_12_3": False,
                        "is_sm100": True, "is_sm100_or_sm110": True, "is_sm110": False, "is_sm120": False,
                        "is_blackwell": True, "has_flashinfer": True, "device_sm": 100, "device_capability": [10, 0]},
              "memory_mib": 183359},
}
GPUS = {
    None: [],  # the oracle host itself: no visible GPU
    "sm120": [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2,
    "sm90": [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2,
    "sm100": [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2,
    "sm80": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}] * 2,  # -- overrides (session 15) --
}
EXTRA = {
    "none": [], "mixed-chunk": ["--enable-mixed-chunk"], "no-overlap": ["--disable-overlap-schedule"],
    "watermark": ["--enable-watermark"],
    "pd-decode-radix": ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache"],
    "adaptive": ["--speculative-adaptive"], "block-verification": ["--speculative-use-block-verification"],
    "multi-layer-eagle": ["--enable-multi-layer-eagle"], "base-gpu-neg": ["--base-gpu-id", "-1"],
    "rejection-sampling": ["--speculative-use-rejection-sampling"],
    "rejection-sampling-threshold": ["--speculative-use-rejection-sampling", "--speculative-accept-threshold-single",
                                     "0.5"],
    "flex-attention": ["--attention-backend", "flex_attention"],
}
PARALLEL = {
    "none": [], "tp2": ["--tp-size", "2"], "dp2": ["--dp-size", "2"], "dp2-attn": ["--dp-size", "2", "--enable-dp-attention"],
    "dp2-attn-lmhead": ["--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"],
    # data-parallel replicas across nodes (check_server_args: refused unless attention DP)
    "tp2-dp2-nnodes2": ["--tp-size", "2", "--dp-size", "2", "--nnodes", "2"],
    # attention DP over the TP ranks (with --tp-size 1 the divisibility assert answers first)
    "tp2-dp2-attn-lmhead": ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"],
}


def argv_for(case, dirs):
    """The SGLang argv a generated case stands for."""
    argv = ["--model-path", dirs["target-" + case["target"]], "--device", case["device"]]
    eq = case["style"] == "equals"

    def add(flag, value):
        if value is None:
            return
        if eq:
            argv.append("%s=%s" % (flag, value))
        else:
            argv.extend([flag, str(value)])

    add("--speculative-algorithm", case["algorithm"])
    if case["draft"] is not None:
        add("--speculative-draft-model-path", dirs["draft-" + case["draft"]])
    add("--speculative-num-draft-tokens", case["num_draft_tokens"])
    add("--speculative-dflash-block-size", case["dflash_block_size"])
    add("--speculative-num-steps", case["num_steps"])
    add("--speculative-eagle-topk", case["eagle_topk"])
    window_flag = {"prefix-window": "--speculative-draft-window",
                   "removed-window": "--speculative-dflash-draft-window-size"}.get(case["style"],
                                                                                 "--speculative-draft-window-size")
    add(window_flag, case["window"])
    add("--speculative-draft-sink-size", case["sink"])
    add("--max-running-requests", case["max_running_requests"])
    if case["pp_size"] != 1:
        add("--pp-size", case["pp_size"])
    add("--attention-backend", case["attention_backend"])
    add("--prefill-attention-backend", case["prefill_attention_backend"])
    add("--speculative-draft-attention-backend", case["draft_attention_backend"])
    add("--kv-cache-dtype", case.get("kv_cache_dtype"))
    add("--page-size", case.get("page_size"))
    add("--context-length", case.get("context_length"))
    add("--mem-fraction-static", case.get("mem_fraction_static"))
    argv.extend(PARALLEL[case.get("parallel") or "none"])
    argv.extend(EXTRA[case.get("extra") or "none"])
    argv.extend(CHECK_SERVER_ARGS_EXTRA.get(case.get("server_check") or "none", []))
    argv.extend(SSL_EXTRA.get(case.get("ssl") or "none", []))
    argv.extend(HOOK_CHECK_EXTRA.get(case.get("hook_check") or "none", []))
    argv.extend(CACHE_EXTRA.get(case.get("cache") or "none", []))
    argv.extend(PARALLEL_CHECK_EXTRA.get(case.get("parallel_check") or "none", []))
    argv.extend(MOE_CHECK_EXTRA.get(case.get("moe_check") or "none", []))
    argv.extend(KV_POOL_EXTRA.get(case.get("kv_pool") or "none", []))
    argv.extend(PLATFORM_CHECK_EXTRA.get(case.get("platform_check") or "none", []))
    argv.extend(ATTN_CHECK_EXTRA.get(case.get("attn_check") or "none", []))  # -- attn (session 14) --
    argv.extend(MODEL_CHECK_EXTRA.get(case.get("model_check") or "none", []))  # -- model (session 14) --
    argv.extend(KV_SWEEP_EXTRA.get(case.get("kv_sweep") or "none", []))  # -- kv (session 14) --
    argv.extend(DSV4_SWEEP_EXTRA.get(case.get("dsv4_sweep") or "none", []))  # -- dsv4 (session 15) --
    argv.extend(MISC_CHECK_EXTRA.get(case.get("misc_check") or "none", []))  # -- misc (session 15) --
    argv.extend(OVR_SWEEP_EXTRA.get(case.get("ovr_sweep") or "none", []))  # -- overrides (session 15) --
    argv.extend(OLD_SWEEP_EXTRA.get(case.get("old_sweep") or "none", []))  # -- old-a (session 15) --
    argv.extend(MOE16_SWEEP_EXTRA.get(case.get("moe16_sweep") or "none", []))  # -- moe (session 16) --
    argv.extend(NEW19_SWEEP_EXTRA.get(case.get("new19_sweep") or "none", []))  # -- new19 (session 17) --
    if case["style"] == "cuda-graph-max-bs":
        argv.extend(["--cuda-graph-max-bs", "8"])
    elif case["style"] == "mamba-scheduler":
        argv.extend(["--mamba-scheduler-strategy", "extra_buffer"])
    elif case["style"] == "garbage-int":
        argv.extend(["--speculative-num-steps", "three"])
    elif case["style"] == "ambiguous-prefix":  # --speculative-num-steps or --speculative-num-draft-tokens
        argv.extend(["--speculative-num", "3"])
    elif case["style"] == "missing-value":  # a value-taking flag last, its value forgotten
        argv.append("--max-running-requests")
    elif case["style"] == "empty-list":  # a flag of one or more values (nargs="+") written with none
        argv.append("--gc-threshold")
    elif case["style"] == "empty-list-star":  # a flag of none or more values (nargs="*"): none is fine
        argv.append("--uvicorn-access-log-exclude-prefixes")
    return argv


# The settings compared when both sides accept (SGLang's field names).
COMPARED = ("speculative_algorithm", "speculative_num_draft_tokens", "speculative_num_steps",
            "speculative_eagle_topk", "speculative_draft_attention_backend", "max_running_requests",
            "speculative_draft_window_size", "speculative_draft_sink_size", "speculative_dflash_block_size",
            "attention_backend", "page_size", "context_length")

# Engine errors SGLang does not give at argument time, with why (owned by the tests: the engine may
# refuse these earlier than SGLang; any other static-only refusal is a disagreement).
LATER_ONLY = {
    "FA3_SM120": "fails at worker start on sm_120 (FlashAttention v3 needs SM 80-90)",
    "FA4_SM120": "no sm_120 path before the release that adds one: fails at worker start",
    "TRTLLM_MHA_SM120": "trtllm_mha prefill is SM100-only: fails when the backend initialises",
    "HYBRID_GDN_BACKEND": "hybrid GDN backend check runs with the model config at worker start",
    "GPU_COUNT": "GPU count is checked when workers bind devices",
    "MEMORY_WEIGHTS_EXCEED_BUDGET": "the KV budget is profiled after the weights load (worker start)",
    "DRAFT_ARCHITECTURE": "unknown draft class: a generic class loads (worker start)",
    "DRAFT_LAYER_IDS": "layer selection fails at draft load", "DRAFT_LAYER_IDS_RANGE": "out-of-range id fails at draft load",
    "DRAFT_MASK_TOKEN": "mask token checked at draft load", "DRAFT_MASK_TOKEN_VOCAB": "mask token vs vocab at draft load",
    "DRAFT_NUM_LAYERS": "draft layer count at draft load", "DRAFT_VOCAB": "never: serves at ~1 token per step",
    "DRAFT_BLOCK_SIZE": "SGLang falls back to 16 with a warning",
    "CONTEXT_DRAFT_SHORTER": "draft load fails (derived context_length)", "CONTEXT_TOO_LONG": "target load fails",
    "MEM_FRACTION": "KV cache sizing at worker start", "NUM_DRAFT_TOKENS": "accepted; cannot draft",
    # -- engfix (session 15) --
    "PARALLEL_SIZE": "a TP/DP/PP size below 1 passes argument resolution in every release; the launch splits no ranks "
                     "(--pp-size 0: ZeroDivisionError in entrypoints/engine.py _calculate_rank_ranges)",
    "EAGLE_NO_DRAFT": "draft model load fails", "BLOCK_SIZE_MISMATCH": "policy: SGLang warns only",
    "SPEC_OVERRIDDEN": "policy: SGLang rewrites silently", "ENV_SECRET": "policy",
}


def judged_by_sglang(static):
    """The static layer left (part of) the verdict to SGLang (flags, env or a target outside what it owns)."""
    return bool(static.sglang_verdict.get("judged_by_sglang"))


def static_refusal(static):
    """(code, stage) of the static engine's argument-time refusal, or None."""
    if static.sglang_verdict["accepted"] is False:
        return static.sglang_verdict["code"], static.sglang_verdict["stage"]
    for e in static.errors:
        # ENV_SECRET is the engine's own policy on env names (LATER_ONLY), not an argument-time refusal
        if e["stage"] in ("parse", "resolve", "input") and e["code"] != "ENV_SECRET":
            return e["code"], e["stage"]
    return None


def compare(static, answer, classify):
    """None when the static verdict, reason and resolved settings agree with SGLang's answer, else why. A case the
    static layer leaves to SGLang (verdict accepted: null, JUDGED_BY_SGLANG) only must not be refused statically
    where SGLang accepts: "not judged here" is allowed, a wrong yes or a wrong no is not."""
    refusal = static_refusal(static)
    if judged_by_sglang(static):
        # SGLang stops at its first refusal: one of the flags left to it may come first, so only the verdict counts
        if refusal is not None and answer.get("error") is None:
            return "verdict: static refuses (%s) a case left to SGLang, which accepts it" % (refusal,)
        return None
    o_ok = answer.get("error") is None
    if (refusal is None) != o_ok:
        return "verdict: static %s (%s) vs SGLang %s (%s)" % (
            "accepts" if refusal is None else "refuses", refusal or [e["code"] for e in static.errors],
            "accepts" if o_ok else "refuses", answer.get("error"))
    if not o_ok:
        o_code = classify(answer)
        if refusal[0] != o_code:
            return "reason: static %s vs SGLang %s (%s)" % (refusal[0], o_code, answer.get("error"))
        return None
    later = [e["code"] for e in static.errors if e["code"] not in LATER_ONLY]
    if later:
        return "static-only refusal %s where SGLang accepts, not a known later-stage check" % later
    res = answer.get("resolved") or {}
    diffs = []
    for k in COMPARED:
        sv = static.resolved.get(k)
        if k not in res:
            continue  # this release does not report the field
        if sv is None and k in ("speculative_draft_attention_backend", "attention_backend"):
            continue  # left to the host (no GPU facts given)
        if k == "speculative_num_draft_tokens" and sv is None and static.resolved.get("speculative_algorithm") is None:
            continue
        ov = res.get(k)
        if isinstance(sv, (int, float)) and isinstance(ov, (int, float)) and float(sv) == float(ov):
            continue
        if sv != ov:
            diffs.append("%s: static %r vs SGLang %r" % (k, sv, ov))
    return "; ".join(diffs) or None
