"""The per-architecture model overrides (rules_model.py check_model_overrides / check_deepseek_family): each refusal a
user sees, the accepted neighbour, the backends an override declares, and the release traits. Every expectation here
was SGLang's own answer to the same flags in its kit (the differential runs, cases.MODEL_CHECK_EXTRA)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]
DFLASH = ["--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d"]
EAGLE = ["--speculative-algorithm", "EAGLE", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
         "--speculative-num-draft-tokens", "4"]
DP_ATTN = ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
FA3 = ["--attention-backend", "fa3"]
TRITON = ["--attention-backend", "triton"]


def _cfg(arch, **more):
    cfg = {"architectures": [arch], "model_type": "qwen3", "num_hidden_layers": 8, "max_position_embeddings": 40960,
           "vocab_size": 151936}
    cfg.update(more)
    return cfg


IQUEST = _cfg("IQuestQ1ForCausalLM")
QWEN3 = _cfg("Qwen3ForCausalLM", num_hidden_layers=36)
MINICPM = _cfg("MiniCPMSALAForCausalLM", model_type="llama", has_minicpm_sparse_attention=True)
MINICPM_SALA = _cfg("MiniCPMSALAForCausalLM", model_type="minicpm_sala", mixer_types=["minicpm4"], sparse_config={})
ERNIE = _cfg("Ernie4_5_VLMoeForConditionalGeneration")
MOSS = _cfg("MossVLForConditionalGeneration")
_MLA = {"model_type": "deepseek_v3", "kv_lora_rank": 64, "q_lora_rank": 96, "qk_nope_head_dim": 32,
        "qk_rope_head_dim": 16, "v_head_dim": 32, "n_routed_experts": 8, "num_experts_per_tok": 2}
DSA = _cfg("DeepseekV32ForCausalLM", index_topk=64, index_head_dim=32, index_n_heads=4, **_MLA)
KPOOL = dict(DSA, index_kpool=2, index_topk_freq=2)
HYV4 = _cfg("HYV4ForCausalLM", **_MLA)
SM90 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2


def answer(extra, target, version="0.5.23", gpus=(), env=None):
    r = E.validate_argv(BASE + extra, version, gpus=list(gpus), read_paths=False, target_config=target, env=env or {})
    return first_refusal(r)


U = "MODEL_OVERRIDE_UNSUPPORTED"


@pytest.mark.parametrize("extra, target, code", [
    (TRITON, IQUEST, U), (FA3 + DFLASH, IQUEST, U),
    (FA3 + EAGLE + ["--speculative-draft-attention-backend", "triton"], IQUEST, U),
    (FA3 + ["--tp-size", "2", "--attn-cp-size", "2"], IQUEST, U), (FA3 + EAGLE + ["--speculative-eagle-topk", "2"], IQUEST, U),
    (FA3 + EAGLE + ["--enable-multi-layer-eagle"], IQUEST, U), (FA3 + DP_ATTN, IQUEST, U), (FA3 + ["--pp-size", "2"], IQUEST, U),
    (FA3, IQUEST, None), (FA3 + EAGLE + ["--speculative-eagle-topk", "1"], IQUEST, None),
    (TRITON + DP_ATTN, MINICPM, U), (TRITON + ["--enable-hierarchical-cache"], MINICPM, U),
    (["--disaggregation-mode", "prefill"], MINICPM, U), (["--disaggregation-mode", "prefill"], MINICPM_SALA, U),
    (TRITON + ["--disaggregation-mode", "prefill"], MINICPM, None), (TRITON, MINICPM, None),
    (TRITON + DP_ATTN, ERNIE, U), (TRITON + ["--tp-size", "2"], ERNIE, None),
    (TRITON, MOSS, U), (["--attention-backend", "flashinfer"], MOSS, None), ([], MOSS, None),
    (["--decode-attention-backend", "triton"], MOSS, U),
])
def test_model_override_refusals(extra, target, code):
    assert answer(extra, target) == code


@pytest.mark.parametrize("extra, target, gpus, code", [
    (["--enable-prefill-cp", "--tp-size", "2"], HYV4, (), U), (["--tp-size", "2", "--dcp-size", "2"], HYV4, (), U),
    (["--tp-size", "2", "--dcp-size", "2", "--enable-hierarchical-cache"], DSA, SM90, U),
    (["--tp-size", "2", "--dcp-size", "2", "--disaggregation-mode", "prefill"], DSA, SM90, U),
    (["--tp-size", "2", "--dcp-size", "2"] + EAGLE + ["--speculative-eagle-topk", "2"], DSA, SM90, U),
    (["--enable-prefill-cp", "--tp-size", "16"], DSA, SM90, U),
    (["--tp-size", "2", "--dcp-size", "2"], KPOOL, SM90, U),
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, SM90, U),
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, SM90, U), (["--kv-cache-dtype", "bf16"], DSA, SM90, None),
    (["--enable-dsa-cache-layer-split"], DSA, SM90, U),
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "decode"], DSA, SM90, U),
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill"], DSA, SM90, U),
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill", "--enable-prefill-cp", "--cp-strategy",
      "interleave", "--tp-size", "2", "--disaggregation-transfer-backend", "nixl"], DSA, SM90, U),
    (["--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"], DSA, SM90, U),
    (["--dsa-prefill-backend", "triton"], DSA, SM90, U),
    (["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang"], DSA, SM90, U),
    (["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang", "--dsa-decode-backend", "tilelang"], DSA,
     SM90, None),
])
def test_deepseek_family_refusals(extra, target, gpus, code):
    assert answer(extra, target, gpus=gpus) == code


def test_deepseek_family_stops_where_the_gpu_is_asked():
    # the DSA passes read torch's compute capability: without a visible GPU the engine does not judge them
    assert answer(["--kv-cache-dtype", "fp8_e5m2"], DSA) is None
    assert answer(["--tp-size", "2", "--dcp-size", "2", "--enable-hierarchical-cache"], DSA) == U  # before it


def test_declared_attention_backends():
    r = E.validate_argv(BASE, "0.5.23", gpus=SM90, read_paths=False, target_config=IQUEST)
    assert r.resolved["attention_backend"] == "fa3"
    r = E.validate_argv(BASE, "0.5.23", gpus=SM90, read_paths=False, target_config=MOSS)
    assert r.resolved["prefill_attention_backend"] == "flashinfer"


def test_release_traits():
    # each family from the release that registers it; attention DP read as resolved from 0.5.22
    assert answer(TRITON, IQUEST, version="0.5.20") is None
    assert answer(TRITON + DP_ATTN, MINICPM, version="0.5.18") is None
    assert answer(TRITON + DP_ATTN, MINICPM, version="0.5.19") == U
    assert answer(TRITON + DP_ATTN, ERNIE, version="0.5.21") is None
    assert answer(TRITON, MOSS, version="0.5.11") == U
    # HYV4 joins the DeepSeek family's override in 0.5.20 (its DCP refused there: session 16; the engine accepted it)
    assert answer(["--tp-size", "2", "--dcp-size", "2"], HYV4, version="0.5.19") is None
    assert answer(["--tp-size", "2", "--dcp-size", "2"], HYV4, version="0.5.21") == U
    assert answer(FA3 + ["--enable-dp-attention"], IQUEST, version="0.5.21") == U  # the flag alone
    assert answer(FA3 + ["--enable-dp-attention"], IQUEST, version="0.5.23") is None  # dp_size 1: no attention DP


GPT_OSS = _cfg("GptOssForCausalLM", model_type="llama")
LLAMA4 = _cfg("Llama4ForCausalLM", model_type="llama")
GEMMA4 = _cfg("Gemma4ForCausalLM", model_type="llama")
EXAONE = _cfg("Exaone4ForCausalLM", model_type="llama", sliding_window_pattern=4)
OLMO2 = _cfg("Olmo2ForCausalLM", model_type="llama")
LFM2 = _cfg("Lfm2ForCausalLM", model_type="llama")


@pytest.mark.parametrize("extra, target, code", [
    (["--attention-backend", "flashinfer"], GPT_OSS, U), (TRITON, GPT_OSS, None),
    (["--prefill-attention-backend", "triton"], GPT_OSS, U),  # decode left unset: no fill when one is given
    (TRITON + ["--moe-runner-backend", "triton_kernel", "--tp-size", "2", "--ep-size", "2"], GPT_OSS, U),
    (["--attention-backend", "flashinfer"], LLAMA4, U), (TRITON, LLAMA4, None),
    (FA3, GEMMA4, U), (TRITON, GEMMA4, None),
    (["--attention-backend", "flashinfer"], EXAONE, U), (FA3, EXAONE, None),
    (["--attention-backend", "flashinfer"], dict(EXAONE, sliding_window_pattern=None), None),
    (["--attention-backend", "flashinfer"], OLMO2, U), (TRITON, OLMO2, None),
    (TRITON, LFM2, U), (["--attention-backend", "flashinfer"], LFM2, None),
])
def test_attention_family_refusals(extra, target, code):
    assert answer(extra, target) == code


def test_attention_family_traits_and_fills():
    assert answer(FA3, GEMMA4, version="0.5.12") is None  # no Gemma4 check before 0.5.13
    assert answer(["--attention-backend", "fa4"], GEMMA4, version="0.5.21") == U  # fa4 from 0.5.22
    assert answer(["--attention-backend", "fa4"], GEMMA4, version="0.5.22") is None
    assert answer(["--attention-backend", "intel_amx"], GPT_OSS, version="0.5.12") == U  # intel_amx from 0.5.13
    r = E.validate_argv(BASE, "0.5.23", gpus=SM90, read_paths=False, target_config=GPT_OSS)
    assert r.resolved["attention_backend"] == "fa3"  # _gpt_oss_overrides on SM90


def test_weight_cache_with_speculation():
    assert answer(["--weight-cache-mode", "client"] + DFLASH + TRITON, QWEN3) == "WEIGHT_CACHE_SPECULATIVE"
    assert answer(["--weight-cache-mode", "client"] + TRITON, QWEN3) is None
    assert answer(["--weight-cache-mode", "off"] + DFLASH + TRITON, QWEN3) is None


def test_dsa_prefill_cp_with_both_dp_spellings():
    assert answer(["--enable-prefill-cp", "--tp-size", "4", "--attn-dp-size", "2", "--dp-size", "2"], DSA,
                  gpus=SM90) == "ATTN_DP_SIZE"


@pytest.mark.parametrize("extra, version, code", [
    (["--language-model-only", "--language-only"], "0.5.23", "LANGUAGE_MODEL_ONLY"),
    (["--language-model-only", "--disaggregation-mode", "prefill"], "0.5.23", "LANGUAGE_MODEL_ONLY"),
    (["--language-model-only"], "0.5.23", "LANGUAGE_MODEL_ONLY"),  # a dense Qwen3 is not on the list
    (["--language-model-only"], "0.5.18", "LANGUAGE_MODEL_ONLY"),
])
def test_language_model_only(extra, version, code):
    assert answer(extra + TRITON, QWEN3, version=version) == code


def test_language_model_only_architectures():
    muse = _cfg("MuseGlimmerForConditionalGeneration")
    assert answer(["--language-model-only"] + TRITON, muse) is None
    assert answer(["--language-model-only"] + TRITON, _cfg("DeepseekV4ForCausalLM"), version="0.5.21") == \
        "LANGUAGE_MODEL_ONLY"  # DeepSeek-V4 from 0.5.22


def test_encoder_replay_needs_deepseek_v41():
    flag = ["--enable-encoder-swa-bounded-replay"] + TRITON
    assert answer(flag, QWEN3) == "ENCODER_REPLAY_MODEL"
    assert answer(flag, QWEN3, version="0.5.22") is None  # 0.5.22 checks it for DeepSeek-V4 only


def test_dsa_tilelang_under_dcp_and_learnable_sinks():
    tilelang = ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang", "--dsa-decode-backend", "tilelang"]
    assert answer(tilelang + ["--tp-size", "2", "--dcp-size", "2"], DSA, gpus=SM90) == U
    sink = dict(DSA, learnable_sink=True)
    assert answer(["--kv-cache-dtype", "fp8_e4m3"], sink, gpus=SM90) == U
    assert answer(["--dsa-prefill-backend", "flashmla_kv"], sink, gpus=SM90) == U
    assert answer(["--dsa-prefill-backend", "flashmla_sparse"], sink, gpus=SM90) is None


# -- engfix (session 15) --
SDAR = _cfg("SDARForCausalLM")
GEMMA_DIFFUSION = _cfg("DiffusionGemmaForBlockDiffusion")
DLLM = ["--dllm-algorithm", "LowConfidence"]


@pytest.mark.parametrize("version", ["0.5.11", "0.5.14", "0.5.15", "0.5.21", "0.5.23"])
def test_dllm_on_a_model_that_is_not_a_diffusion_llm(version):
    """dllm/config.py DllmConfig.from_server_args: 'Unknown diffusion LLM: <arch>' in every release (observed in each
    kit for Qwen3ForCausalLM), with or without speculation."""
    assert answer(DLLM, QWEN3, version) == "DLLM_MODEL"
    assert answer(DLLM + DFLASH + TRITON, QWEN3, version) == "DLLM_MODEL"


def test_dllm_model_check_traits():
    # through 0.5.14 only with the radix cache on (server_args.py _handle_dllm_inference's radix gate)
    assert answer(DLLM + ["--disable-radix-cache"], QWEN3, "0.5.14") is None
    assert answer(DLLM + ["--disable-radix-cache"], QWEN3, "0.5.15") == "DLLM_MODEL"
    # DiffusionGemma joins DLLM_PARAMS in 0.5.21
    assert answer(DLLM, GEMMA_DIFFUSION, "0.5.20") == "DLLM_MODEL"
    assert answer(DLLM, SDAR, "0.5.20") != "DLLM_MODEL"
    assert answer(DLLM, GEMMA_DIFFUSION, "0.5.21") != "DLLM_MODEL"


# -- quant (session 15) --
# model_overrides/kimi_k3.py, minimax_m3.py, nemotron_h.py, qwen3_moe.py, qwen4_exp.py (cases.QUANT_CHECK_EXTRA)
SM100 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2
SM120 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2
DCP = ["--tp-size", "2", "--dcp-size", "2"]
DSPARK = ["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d"]
KIMI = _cfg("KimiK3ForConditionalGeneration", **_MLA)
_M3Q = {"quant_method": "mxfp8", "moe_quant_algo": "NVFP4", "moe_quant_format": "nvfp4-pack-quantized"}
M3 = _cfg("MiniMaxM3SparseForCausalLM", quantization_config=_M3Q)
M3_VL = _cfg("MiniMaxM3SparseForConditionalGeneration", quantization_config=_M3Q)
M3_MXFP8 = _cfg("MiniMaxM3SparseForCausalLM", quantization_config={"quant_method": "mxfp8"})
_W4A16 = {"quant_method": "modelopt", "quant_algo": "MIXED_PRECISION",
          "quantized_layers": {"model.layers.1.mixer.experts.0.up_proj": {"quant_algo": "W4A16_NVFP4"}}}
_NEMO = {"model_type": "nemotron_h", "hybrid_override_pattern": "M*M*M*M*"}
NEMO = _cfg("NemotronHForCausalLM", **_NEMO)
NEMO_W4A16 = _cfg("NemotronHForCausalLM", mlp_hidden_act="relu2", quantization_config=_W4A16, **_NEMO)
NEMO_SILU = _cfg("NemotronHForCausalLM", mlp_hidden_act="silu", quantization_config={"quant_method": "modelopt",
                                                                                     "quant_algo": "FP8"}, **_NEMO)
PUZZLE = _cfg("NemotronHPuzzleForCausalLM", block_configs=[{"block_type": "moe", "n_routed_experts": 8},
                                                           {"block_type": "moe", "n_routed_experts": 16}], **_NEMO)
QWEN3_MOE_W4A16 = _cfg("Qwen3MoeForCausalLM", num_experts=8, num_experts_per_tok=2,
                       quantization_config=dict(_W4A16, quant_method="modelopt_mixed"))
QWEN4 = _cfg("Qwen4ExpForConditionalGeneration", model_type="qwen3_next")


@pytest.mark.parametrize("extra, target, gpus, env, code", [
    # Kimi-K3 DCP: the decode backend, FlashInfer's DCP kernel (none on a host without a GPU), aiter, DSPARK's mode
    (DCP + ["--decode-attention-backend", "triton"], KIMI, (), None, U), (DCP, KIMI, (), None, U),
    (DCP + ["--decode-attention-backend", "aiter"], KIMI, (), None, U),
    (DCP + DSPARK, KIMI, (), {"SGLANG_RAGGED_VERIFY_MODE": "compact"}, U),
    (DCP + DSPARK, KIMI, (), {"SGLANG_RAGGED_VERIFY_MODE": "bogus"}, "RAGGED_VERIFY_MODE"),
    # M3.1 NVFP4 (mxfp8 projections with NVFP4 packed experts): speculation, architecture, GPU, env, PP, page size,
    # and on SM100 the a2a backend and KV dtype
    (EAGLE, M3, (), None, U), (DSPARK, M3, SM100, None, U), (DSPARK, M3_VL, SM90, None, U),
    (DSPARK, M3_VL, SM100, {"SGLANG_RAGGED_VERIFY_MODE": "compact"}, U), (DSPARK + ["--pp-size", "2"], M3_VL, SM100, None, U),
    (DFLASH + ["--disaggregation-mode", "prefill"], M3_VL, SM100, None, U), (["--page-size", "64"], M3, (), None, U),
    (["--moe-runner-backend", "flashinfer_trtllm_routed", "--moe-a2a-backend", "deepep"], M3, SM100, None, U),
    (["--moe-a2a-backend", "deepep"], M3, SM100, None, U), (["--kv-cache-dtype", "fp8_e5m2"], M3, SM100, None, U),
    (["--chunked-prefill-size", "8192"], M3, SM100, None, None), ([], M3, SM90, None, None),
    (["--page-size", "64"], M3_MXFP8, (), None, None), (["--page-size", "64", "--quantization", "unquant"], M3, (), None, None),
    # Nemotron-H: EPLB with the runners that cannot remap experts, the Puzzle's expert counts, W4A16 experts, relu2
    (["--enable-eplb", "--moe-runner-backend", "flashinfer_trtllm"], NEMO, SM120, None, U),
    (["--enable-eplb", "--moe-runner-backend", "flashinfer_cutedsl"], NEMO, SM120, None, U),
    (["--enable-eplb"], PUZZLE, SM120, None, U), (["--moe-a2a-backend", "deepep"], NEMO_W4A16, SM120, None, U),
    (["--moe-runner-backend", "triton"], NEMO_W4A16, SM120, None, U), ([], NEMO_SILU, SM120, None, U),
    (["--moe-runner-backend", "marlin"], NEMO_W4A16, SM120, None, None),
    # Qwen3-MoE on SM100 with W4A16 experts; Qwen4-Exp's PD/MORI/PP, unified memory and fp8 QSA indexer
    (["--moe-runner-backend", "triton"], QWEN3_MOE_W4A16, SM100, None, U), ([], QWEN3_MOE_W4A16, SM100, None, None),
    (["--moe-runner-backend", "triton"], QWEN3_MOE_W4A16, SM120, None, None),
    (["--disaggregation-mode", "prefill", "--disaggregation-transfer-backend", "mori", "--pp-size", "2"], QWEN4, SM120,
     None, U),
    (["--enable-unified-memory"], QWEN4, SM120, None, U), (["--qsa-indexer-dtype", "fp8_e4m3"], QWEN4, SM120, None, U),
    (["--qsa-indexer-dtype", "fp8_e4m3"], QWEN4, SM90, None, U),
])
def test_quant_override_refusals(extra, target, gpus, env, code):
    assert answer(extra, target, gpus=gpus, env=env) == code


def test_nemotron_h_branch_before_0_5_19():
    """-- mamba (session 16) --: the model-specific adjustments' Nemotron-H branch (trait nemotron_h_branch,
    0.5.11-0.5.18): a ModelOpt checkpoint without the relu2 MLP, then the triton attention backend; 0.5.19 on the
    triton assert is gone (the relu2 one is model_overrides/nemotron_h.py's)."""
    no_radix = ["--disable-radix-cache"]
    for v in ("0.5.11", "0.5.13", "0.5.14", "0.5.18"):
        assert answer(no_radix + TRITON, NEMO, version=v) == U
        assert answer(no_radix + ["--attention-backend", "flashinfer"], NEMO, version=v) is None
        assert answer(no_radix + ["--attention-backend", "flashinfer"], NEMO_SILU, version=v) == U
    assert answer(no_radix + TRITON, NEMO, version="0.5.19") is None
    r = E.validate_argv(BASE + no_radix + TRITON, "0.5.16", gpus=[], read_paths=False, target_config=NEMO)
    assert "does not support triton attention backend" in r.sglang_verdict["message"]


def test_quant_override_declarations():
    """What the overrides declare that SGLang then resolves: M3.1 NVFP4's page size and attention backend by platform."""
    r = E.validate_argv(BASE + ["--chunked-prefill-size", "8192"], "0.5.23", gpus=SM100, read_paths=False, target_config=M3)
    assert (r.resolved["attention_backend"], r.resolved["page_size"]) == ("trtllm_mha", 128)
    r = E.validate_argv(BASE, "0.5.23", gpus=SM90, read_paths=False, target_config=M3)
    assert (r.resolved["attention_backend"], r.resolved["page_size"]) == ("fa3", 128)
    # the MegaMoE M3.1 NVFP4 picks on SM100 then checks its prefill budget
    assert answer(["--chunked-prefill-size", "16384"], M3, gpus=SM100) == "MOE_A2A_DISPATCH_BUDGET"


def test_quant_override_traits():
    """Kimi-K3 DCP's decode backends (tokenspeed_mla through 0.5.22, aiter 0.5.20 on), Nemotron-H's expert-remap checks
    (0.5.23), M3.1 NVFP4's checks (0.5.23), Qwen3-MoE's W4A16 check and Qwen4-Exp (0.5.20 on)."""
    tokenspeed = DCP + ["--decode-attention-backend", "tokenspeed_mla"]
    # tokenspeed MLA itself needs a Blackwell GPU and an FP8 KV cache (the attention hook's MLA checks come first)
    assert answer(tokenspeed, KIMI, version="0.5.22") == "MLA_BACKEND_GPU"
    assert answer(tokenspeed + ["--kv-cache-dtype", "fp8_e4m3"], KIMI, version="0.5.22", gpus=SM100) is None
    assert answer(tokenspeed, KIMI) == U
    aiter = DCP + ["--decode-attention-backend", "aiter"]
    r = E.validate_argv(BASE + aiter, "0.5.19", gpus=[], read_paths=False, target_config=KIMI)
    assert "'cutedsl_mla' or 'tokenspeed_mla', got 'aiter'" in r.sglang_verdict["message"]
    assert answer(["--enable-eplb", "--moe-runner-backend", "flashinfer_trtllm"], NEMO, version="0.5.22",
                  gpus=SM120) != U
    assert answer(["--page-size", "64"], M3, version="0.5.22") is None
    assert answer(["--moe-runner-backend", "triton"], QWEN3_MOE_W4A16, version="0.5.19", gpus=SM100) is None
    assert answer(["--enable-unified-memory"], QWEN4, version="0.5.19", gpus=SM120) != U


def test_kimi_k3_sm100_takes_trtllm_mla_and_its_page_size():
    """Kimi-K3 without DCP on SM100, no attention backend given: trtllm_mla for both phases, page size 64 (regression:
    the engine said 1); a backend given keeps the page size."""
    for extra in ([], ["--moe-a2a-backend", "deepep", "--tp-size", "2", "--ep-size", "2"]):
        r = E.validate_argv(BASE + extra, "0.5.23", gpus=SM100, read_paths=False, target_config=KIMI)
        assert (r.resolved["prefill_attention_backend"], r.resolved["page_size"]) == ("trtllm_mla", 64)
    r = E.validate_argv(BASE + TRITON, "0.5.23", gpus=SM100, read_paths=False, target_config=KIMI)
    assert r.resolved["page_size"] == 1
    r = E.validate_argv(BASE + ["--attention-backend", "trtllm_mla", "--page-size", "32"], "0.5.23", gpus=SM90,
                        read_paths=False, target_config=KIMI)
    assert r.resolved["page_size"] == 32


# -- old-b (session 15) --
SHARED_INDEXER = dict(DSA, indexer_types=["full", "shared"])


@pytest.mark.parametrize("extra, target, version, gpus, code", [
    # 0.5.13-0.5.21: only the DSA block of the model-specific adjustments (trait deepseek_family)
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.16", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.19", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, SHARED_INDEXER, "0.5.20", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.15", (), U),  # 0.5.13-0.5.15: the TBO check alone
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.13", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.12", (), "TWO_BATCH_OVERLAP"),  # 0.5.12: the later TBO check
    (["--enable-dsa-cache-layer-split"], DSA, "0.5.19", SM90, U),
    (["--enable-dsa-cache-layer-split"], DSA, "0.5.19", (), None),  # the GPU's compute capability read first
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "decode"], DSA, "0.5.21", SM90, U),
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill", "--enable-prefill-cp", "--cp-strategy",
      "interleave", "--tp-size", "2", "--pp-size", "2"], DSA, "0.5.20", SM90, U),
    (["--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"], DSA, "0.5.19", SM90, U),
    # -- oldgpu (session 17) --: 0.5.14-0.5.15 go on to the block's prefill CP on decode (through the GPU stand-in);
    # both check the KV cache dtype there first (0.5.15 through an overrides.py pass at that slot)
    (["--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"], DSA, "0.5.14", SM90, U),
    (["--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"], DSA, "0.5.15", SM90, U),
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.14", SM90, U),
    (["--kv-cache-dtype", "bf16"], DSA, "0.5.14", SM90, None),
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.15", SM90, U),
])
def test_dsa_block_before_0_5_22(extra, target, version, gpus, code):
    assert answer(extra, target, version=version, gpus=gpus) == code


def test_dsa_block_tbo_reads_indexer_types_from_0_5_20():
    # 0.5.16-0.5.19 server_args.py / model_hook.py read index_topk_freq and index_topk_pattern only
    assert answer(["--enable-two-batch-overlap"] + DP_ATTN, SHARED_INDEXER, version="0.5.19") != U


# -- dsa (session 16) --
SINK_DSA = dict(DSA, learnable_sink=True)
_CP = ["--enable-prefill-cp", "--cp-strategy", "interleave"]
_TILELANG_FP8 = ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang"]


@pytest.mark.parametrize("extra, target, version, gpus, code", [
    # model_overrides/deepseek_v2.py _deepseek_family_overrides (0.5.19-0.5.21): DSA prefill CP's asserts
    (_CP + ["--tp-size", "2", "--dp-size", "2"], DSA, "0.5.19", SM90, U),
    (_CP + ["--tp-size", "16"], DSA, "0.5.21", SM90, U),
    (_CP + ["--tp-size", "2"], DSA, "0.5.20", SM90, None),
    # HYV4's prefill CP and DCP refused from 0.5.20 (0.5.19 does not register HYV4 with the family)
    (_CP + ["--tp-size", "2"], HYV4, "0.5.20", SM90, U),
    (["--tp-size", "2", "--dcp-size", "2"], HYV4, "0.5.21", SM90, U),
    # overrides.py _dsa_kv_cache_dtype_default: bf16 / fp8_e4m3 only; learnable sinks want bf16 (0.5.20 on)
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.19", SM90, U),
    (["--kv-cache-dtype", "fp8_e4m3"], SINK_DSA, "0.5.20", SM90, U),
    (["--kv-cache-dtype", "fp8_e4m3"], SINK_DSA, "0.5.19", SM90, None),
    (["--dsa-decode-backend", "flashmla_kv"], SINK_DSA, "0.5.21", SM90, U),
    # _dsa_split_backend_resolution: TileLang takes no FP8 KV on CUDA (the SM100 default is FP8); triton is ROCm-only
    (_TILELANG_FP8, DSA, "0.5.19", SM90, U),
    (["--dsa-decode-backend", "tilelang"], DSA, "0.5.20", SM100, U),
    (["--dsa-decode-backend", "tilelang", "--kv-cache-dtype", "bfloat16"], DSA, "0.5.21", SM100, None),
    (["--dsa-prefill-backend", "triton"], DSA, "0.5.20", SM90, U),
    # the GPU's compute capability read first: no GPU, no pass
    (_TILELANG_FP8, DSA, "0.5.20", (), None),
    # 0.5.14-0.5.18: the prefill CP asserts come before the GPU is read; the legacy flags alias --enable-prefill-cp
    # (trait dsa_prefill_cp_flags): the NSA one interleave, --enable-prefill-context-parallel zigzag (no DP assert)
    (_CP + ["--tp-size", "2", "--dp-size", "2"], DSA, "0.5.16", (), U),
    (["--enable-nsa-prefill-context-parallel", "--tp-size", "2", "--dp-size", "2"], DSA, "0.5.14", (), U),
    (["--enable-prefill-context-parallel", "--tp-size", "4", "--dp-size", "2"], DSA, "0.5.18", (), None),
    (["--enable-prefill-context-parallel", "--tp-size", "16"], DSA, "0.5.15", (), U),
])
def test_dsa_passes_0_5_19_to_0_5_21(extra, target, version, gpus, code):
    assert answer(extra, target, version=version, gpus=gpus) == code


# -- w18dsa (session 18) --: the DSA block past the GPU's compute capability before 0.5.19 (through the GPU stand-in)
DSA_V3_ARCH = dict(DSA, architectures=["DeepseekV3ForCausalLM"])
_NSA_CP8 = ["--enable-nsa-prefill-context-parallel", "--tp-size", "8"]


@pytest.mark.parametrize("extra, target, version, gpus, code", [
    # 0.5.11-0.5.13 _set_default_nsa_kv_cache_dtype / _set_default_dsa_kv_cache_dtype: bf16 / fp8_e4m3 only
    (["--kv-cache-dtype", "fp8_e5m2"], DSA_V3_ARCH, "0.5.11", SM90, U),
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.11", SM90, None),  # 0.5.11's block does not take DeepseekV32
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.13", SM90, U),
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.13", (), None),  # the GPU's compute capability read first
    (["--kv-cache-dtype", "bf16"], DSA_V3_ARCH, "0.5.12", SM90, None),
    # then the legacy prefill CP flag on a PD decode worker (either split mode; a prefill worker passes)
    (_NSA_CP8 + ["--disaggregation-mode", "decode"], DSA_V3_ARCH, "0.5.11", SM90, U),
    (_NSA_CP8 + ["--nsa-prefill-cp-mode", "in-seq-split", "--disaggregation-mode", "decode"], DSA, "0.5.13", SM90, U),
    (_NSA_CP8 + ["--disaggregation-mode", "prefill"], DSA, "0.5.12", SM90, None),
    (_NSA_CP8 + ["--disaggregation-mode", "decode"], DSA, "0.5.12", (), None),
    # 0.5.16-0.5.18: overrides.py _dsa_kv_cache_dtype_default at the block's slot; 0.5.17 on, the split-backend pass's
    # _check_tilelang_dsa_fp8_kv (not under HiSparse)
    (["--kv-cache-dtype", "fp8_e5m2"], DSA, "0.5.16", SM90, U),
    (["--kv-cache-dtype", "fp8_e5m2", "--dsa-prefill-backend", "flashmla_sparse"], DSA, "0.5.15", SM90, U),
    (_TILELANG_FP8, DSA, "0.5.16", SM90, None),
    (_TILELANG_FP8, DSA, "0.5.17", SM90, U),
    (["--dsa-decode-backend", "tilelang"], DSA, "0.5.18", SM100, U),
    (["--dsa-decode-backend", "tilelang", "--kv-cache-dtype", "bfloat16"], DSA, "0.5.18", SM100, None),
    (["--kv-cache-dtype", "fp8_e4m3"], SINK_DSA, "0.5.18", SM90, None),  # no learnable-sink checks before 0.5.20
    (["--kv-cache-dtype", "fp8_e5m2", "--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"],
     DSA, "0.5.17", SM90, U),
])
def test_dsa_block_past_the_gpu_before_0_5_19(extra, target, version, gpus, code):
    assert answer(extra, target, version=version, gpus=gpus) == code


def test_dsa_block_legacy_cp_on_decode_names_the_release_flag():
    r = E.validate_argv(BASE + _NSA_CP8 + ["--disaggregation-mode", "decode"], "0.5.13", gpus=SM90, read_paths=False,
                        target_config=DSA)
    assert any("--enable-dsa-prefill-context-parallel" in str(e) for e in r.errors), r.errors


# -- standin (session 16) --: judged through the oracle's GPU stand-in (releases 0.5.11-0.5.18)
def test_kimi_k3_sm100_before_0_5_19():
    """0.5.17-0.5.18 arg_groups/overrides.py _kimi_k3_overrides: trtllm_mla for both phases on SM100 (its DCP branch
    keeps cutedsl_mla there); 0.5.11-0.5.16 do not know Kimi-K3 as MLA: the MHA default trtllm_mha, page size 64 either
    way."""
    for version in ("0.5.17", "0.5.18"):
        r = E.validate_argv(BASE, version, gpus=SM100, read_paths=False, target_config=KIMI)
        assert (r.resolved["prefill_attention_backend"], r.resolved["page_size"]) == ("trtllm_mla", 64), version
        assert answer(["--dcp-size", "2", "--tp-size", "2"], KIMI, version=version, gpus=SM100) is None
    r = E.validate_argv(BASE, "0.5.16", gpus=SM100, read_paths=False, target_config=KIMI)
    assert (r.resolved["attention_backend"], r.resolved["page_size"]) == ("trtllm_mha", 64)


def test_nemotron_h_triton_before_0_5_19():
    """_handle_model_specific_adjustments' Nemotron-H branch (0.5.12-0.5.14: nemotron_h_hook.py) refuses triton
    through 0.5.18; the Puzzle architecture from 0.5.13."""
    assert answer(TRITON, NEMO, version="0.5.11") == U
    assert answer(TRITON, NEMO, version="0.5.18") == U
    assert answer(TRITON, NEMO, version="0.5.19") != U
    puzzle = dict(NEMO, architectures=["NemotronHPuzzleForCausalLM"])
    assert answer(TRITON, puzzle, version="0.5.12") is None
    assert answer(TRITON, puzzle, version="0.5.13") == U


# -- lora (session 17) --: the DSA page size (rules_model.dsa_page_size)
@pytest.mark.parametrize("version, target, extra, page", [
    ("0.5.23", DSA, [], 64), ("0.5.23", DSA, ["--page-size", "16"], 64), ("0.5.23", KPOOL, [], 128),
    ("0.5.22", KPOOL, [], 128), ("0.5.21", KPOOL, [], 64), ("0.5.19", DSA, ["--page-size", "1"], 64),
    ("0.5.17", DSA, [], 64), ("0.5.13", KPOOL, [], 64), ("0.5.12", DSA, ["--page-size", "16"], 64),
    # 0.5.11's DSA block does not take DeepseekV32ForCausalLM: the page stays; it takes DeepseekV3ForCausalLM
    ("0.5.11", DSA, ["--page-size", "16"], 16), ("0.5.11", dict(DSA, architectures=["DeepseekV3ForCausalLM"]), [], 64),
    ("0.5.23", dict(DSA, index_topk=None), [], 1), ("0.5.23", KPOOL, ["--attention-backend", "trtllm_mla"], 64),
])
def test_dsa_page_size(version, target, extra, page):
    """On a CUDA GPU the DeepSeek DSA branch sets the page size over --page-size: 64, from 0.5.22 64 x index_kpool
    (model_overrides/deepseek_v2.py); before 0.5.13 _handle_model_specific_adjustments' DSA block, for its
    architectures. TRTLLM MLA then takes 32 or 64 only (back to 64)."""
    gpus = SM100 if "trtllm_mla" in extra else SM90
    r = E.validate_argv(BASE + extra, version, gpus=gpus, read_paths=False, target_config=target)
    assert r.resolved["page_size"] == page


def test_dsa_page_size_reaches_check_server_args():
    """check_server_args reads the DSA page: a chunked prefill size it does not divide is refused (128 from 0.5.22 on
    an index_kpool 2 target), and the paged EAGLE tree check sees page 64."""
    assert answer(["--chunked-prefill-size", "100"], DSA, gpus=SM90) == "CHUNKED_PREFILL_PAGE"
    assert answer(["--chunked-prefill-size", "192"], KPOOL, gpus=SM90) == "CHUNKED_PREFILL_PAGE"
    assert answer(["--chunked-prefill-size", "192"], KPOOL, version="0.5.21", gpus=SM90) is None
    assert answer(EAGLE + ["--speculative-eagle-topk", "2"], DSA, gpus=SM90) == "EAGLE_PAGE_TREE"
# -- gpu16 (session 17) --
@pytest.mark.parametrize("extra, env, version, code", [
    # 0.5.17-0.5.18 arg_groups/overrides.py _kimi_k3_overrides under DCP, as 0.5.19's kimi_k3.py (on this host without a
    # GPU: no FlashInfer for cutedsl_mla); 0.5.16 refuses DCP off HIP first
    (DCP + ["--decode-attention-backend", "triton"], None, "0.5.17", U),
    (DCP + ["--decode-attention-backend", "aiter"], None, "0.5.18", U),
    (DCP, None, "0.5.18", U),
    (DCP + ["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d"],
     {"SGLANG_RAGGED_VERIFY_MODE": "compact"}, "0.5.17", U),
    (DCP + ["--decode-attention-backend", "triton"], None, "0.5.16", "DCP_PLATFORM"),
])
def test_kimi_k3_dcp_from_0_5_17(extra, env, version, code):
    assert answer(extra, KIMI, version=version, env=env) == code


def test_nemotron_h_w4a16_in_0_5_18():
    """0.5.18 arg_groups/overrides.py _nemotron_h_overrides: W4A16_NVFP4 experts take no a2a backend and the marlin
    runner (or auto), after the relu2 check (trait nemotron_h_branch_w4a16); 0.5.17 has no such check."""
    assert answer(["--moe-a2a-backend", "deepep"], NEMO_W4A16, version="0.5.18", gpus=SM120) == U
    assert answer(["--moe-runner-backend", "triton"], NEMO_W4A16, version="0.5.18", gpus=SM120) == U
    assert answer(["--moe-runner-backend", "marlin"], NEMO_W4A16, version="0.5.18", gpus=SM120) is None
    assert answer(["--moe-runner-backend", "triton"], NEMO_W4A16, version="0.5.17", gpus=SM120) is None
# -- new19 (session 17) --
def _clef_dir(tmp_path, joint=True, body=None, arch="Qwen3_5ForConditionalGeneration"):
    import json
    (tmp_path / "config.json").write_text(json.dumps(_cfg(arch, model_type="qwen3_5")))
    if joint:
        (tmp_path / "joint_head_config.json").write_text(json.dumps({"num_labels": 2} if body is None else body))
    return str(tmp_path)


def _clef(path, extra, version="0.5.23"):
    r = E.validate_argv(["--model-path", path, "--device", "cuda", "--attention-backend", "fa3"] + extra, version,
                        gpus=list(SM90), read_paths=True)
    return first_refusal(r)


def test_clef_checkpoint_is_served_at_tp1_pp1(tmp_path):
    """model_hook.py handle_model_capability_adjustments (0.5.22 on): a Qwen3.5 checkpoint with joint_head_config.json
    beside its config.json (read from the model dir like config.json) is refused at TP or PP > 1."""
    d = _clef_dir(tmp_path)
    assert _clef(d, ["--tp-size", "2"]) == "JOINT_HEAD_PARALLEL"
    assert _clef(d, ["--pp-size", "2"], version="0.5.22") == "JOINT_HEAD_PARALLEL"
    assert _clef(d, []) is None
    assert _clef(d, ["--tp-size", "2"], version="0.5.21") is None  # no such check before 0.5.22


def test_clef_needs_the_file_and_the_architecture(tmp_path):
    for sub in "abcd":
        (tmp_path / sub).mkdir()
    assert _clef(_clef_dir(tmp_path / "a", joint=False), ["--tp-size", "2"]) is None
    assert _clef(_clef_dir(tmp_path / "b", body=[]), ["--tp-size", "2"]) == "JOINT_HEAD_PARALLEL"  # any JSON but null
    null = _clef_dir(tmp_path / "c", joint=False)
    (tmp_path / "c" / "joint_head_config.json").write_text("null")
    assert _clef(null, ["--tp-size", "2"]) is None  # load_joint_head_config returns None
    assert _clef(_clef_dir(tmp_path / "d", arch="Qwen3_5ForCausalLM"), ["--tp-size", "2"]) is None
    # a config given as a mapping: no checkpoint directory to read beside it
    r = E.validate_argv(BASE + ["--tp-size", "2"] + FA3, "0.5.23", gpus=list(SM90), read_paths=False,
                        target_config=_cfg("Qwen3_5ForConditionalGeneration", model_type="qwen3_5"))
    assert first_refusal(r) is None
