"""The per-architecture model overrides (rules_model.py check_model_overrides / check_deepseek_family): each refusal a
user sees, the accepted neighbour, the backends an override declares, and the release traits. Every expectation here
was SGLang's own answer to the same flags in its kit (the differential runs, cases.MODEL_CHECK_EXTRA)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

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
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input") and e["code"] != "GPU_COUNT"]
    return codes[0] if codes else None


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
    assert answer(["--tp-size", "2", "--dcp-size", "2"], HYV4, version="0.5.21") is None
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


# -- old-b (session 15) --
SHARED_INDEXER = dict(DSA, indexer_types=["full", "shared"])


@pytest.mark.parametrize("extra, target, version, gpus, code", [
    # 0.5.16-0.5.21: only the DSA block of the model-specific adjustments (trait deepseek_family)
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.16", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.19", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, SHARED_INDEXER, "0.5.20", (), U),
    (["--enable-two-batch-overlap"] + DP_ATTN, KPOOL, "0.5.15", (), None),  # no "deepseek" family before 0.5.16
    (["--enable-dsa-cache-layer-split"], DSA, "0.5.19", SM90, U),
    (["--enable-dsa-cache-layer-split"], DSA, "0.5.19", (), None),  # the GPU's compute capability read first
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "decode"], DSA, "0.5.21", SM90, U),
    (["--enable-dsa-cache-layer-split", "--disaggregation-mode", "prefill", "--enable-prefill-cp", "--cp-strategy",
      "interleave", "--tp-size", "2", "--pp-size", "2"], DSA, "0.5.20", SM90, U),
    (["--enable-prefill-cp", "--tp-size", "2", "--disaggregation-mode", "decode"], DSA, "0.5.19", SM90, U),
])
def test_dsa_block_before_0_5_22(extra, target, version, gpus, code):
    assert answer(extra, target, version=version, gpus=gpus) == code


def test_dsa_block_tbo_reads_indexer_types_from_0_5_20():
    # 0.5.16-0.5.19 server_args.py / model_hook.py read index_topk_freq and index_topk_pattern only
    assert answer(["--enable-two-batch-overlap"] + DP_ATTN, SHARED_INDEXER, version="0.5.19") != U
