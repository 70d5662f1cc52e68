"""-- oldnon (session 17) --: the non-GPU leftovers of 0.5.11-0.5.15.post1 (encoder disaggregation, 0.5.11's speculative
MoE runner and PD decode radix cache, dual chunk attention, HiSparse on the DSA NextN head): each refusal, the neighbour
SGLang accepts, and the releases it holds for. Every answer expected here was the release's own to the same flags in its
kit, on this host without a GPU (cases.OLD_SWEEP_EXTRA "on17-*")."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}
QWEN3_VL = dict(QWEN3, architectures=["Qwen3VLForConditionalGeneration"])
DUAL = dict(QWEN3, architectures=["Qwen2ForCausalLM"], model_type="qwen2",
            dual_chunk_attention_config={"chunk_size": 262144, "local_size": 8192})
DSA_NEXTN = {"architectures": ["DeepseekV3ForCausalLMNextN"], "model_type": "deepseek_v3", "num_hidden_layers": 8,
             "max_position_embeddings": 163840, "vocab_size": 129280, "kv_lora_rank": 64, "index_topk": 64}
DFLASH = ["--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d"]
PD_RADIX = ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache"]


def refusal(extra, version, target=QWEN3, gpus=()):
    r = E.validate_argv(BASE + extra, version, gpus=None if gpus is None else list(gpus), read_paths=False,
                        target_config=target)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input") and e["code"] != "GPU_COUNT"]
    return codes[0] if codes else None


@pytest.mark.parametrize("extra, target, codes", [
    # 0.5.11-0.5.12.post1 ask a language-only server for --encoder-urls; every release checks its architecture
    (["--language-only"], QWEN3, ("ENCODER_DISAGG", "ENCODER_DISAGG", "ENCODER_DISAGG_MODEL", "ENCODER_DISAGG_MODEL")),
    (["--language-only", "--encoder-urls", "http://h:9"], QWEN3, ("ENCODER_DISAGG_MODEL",) * 4),
    (["--language-only"], QWEN3_VL, ("ENCODER_DISAGG", "ENCODER_DISAGG", None, None)),
    (["--language-only", "--encoder-urls", "http://h:9"], QWEN3_VL, (None,) * 4),
])
def test_language_only(extra, target, codes):
    assert tuple(refusal(extra, v, target) for v in ("0.5.11", "0.5.12.post1", "0.5.13", "0.5.23")) == codes


def test_speculative_moe_runner_flashinfer_trtllm_0_5_11():
    trtllm = ["--speculative-moe-runner-backend", "flashinfer_trtllm", "--attention-backend", "triton"]
    assert refusal(trtllm, "0.5.11") == "SPEC_MOE_RUNNER_BACKEND"  # with or without an algorithm
    assert refusal(trtllm + DFLASH, "0.5.11") == "SPEC_MOE_RUNNER_BACKEND"
    assert refusal(trtllm, "0.5.12") is None
    assert refusal(["--speculative-moe-runner-backend", "triton", "--attention-backend", "triton"], "0.5.11") is None


def test_pd_decode_radix_cache_with_speculation_0_5_11():
    nixl = PD_RADIX + ["--disaggregation-transfer-backend", "nixl", "--attention-backend", "triton"]
    assert refusal(nixl + DFLASH, "0.5.11") == "PD_DECODE_RADIX"  # after the nixl check
    assert refusal(PD_RADIX + ["--attention-backend", "triton"] + DFLASH, "0.5.11") == "PD_DECODE_RADIX_BACKEND"
    assert refusal(nixl, "0.5.11") is None


@pytest.mark.parametrize("version", ["0.5.11", "0.5.13", "0.5.15.post1"])
def test_dual_chunk_attention(version):
    assert refusal(["--attention-backend", "triton"], version, DUAL) == "DUAL_CHUNK_ATTENTION"
    assert refusal(["--attention-backend", "dual_chunk_flash_attn"], version, DUAL) is None
    # the hook's default backend is picked first: triton on a host without a GPU, as SGLang answered here
    assert refusal([], version, DUAL) == "DUAL_CHUNK_ATTENTION"
    # -- cache (session 18) --: without GPU facts too: get_default_attn_backend never picks dual_chunk_flash_attn
    assert refusal([], version, DUAL, gpus=None) == "DUAL_CHUNK_ATTENTION"
    assert refusal(["--attention-backend", "triton"], version) is None


def test_hisparse_on_the_dsa_nextn_head():
    for v in ("0.5.11", "0.5.13", "0.5.15"):
        assert refusal(["--enable-hisparse"], v, DSA_NEXTN) == "HISPARSE_RADIX_CACHE"
    fa3 = ["--enable-hisparse", "--disable-radix-cache", "--nsa-prefill-backend", "fa3"]
    assert refusal(fa3, "0.5.11", DSA_NEXTN) == "HISPARSE_DSA_BACKEND"
    assert refusal(fa3, "0.5.12", DSA_NEXTN) == "HISPARSE_DSA_BACKEND"


DSA_V3 = dict(DSA_NEXTN, architectures=["DeepseekV3ForCausalLM"], q_lora_rank=96)
NSA_CP = ["--enable-nsa-prefill-context-parallel"]


@pytest.mark.parametrize("extra, codes", [
    # the DSA block's legacy prefill CP asserts, before it reads the GPU (0.5.11: exactly 8 GPUs; 0.5.12 on: at most 8)
    (NSA_CP + ["--tp-size", "2", "--dp-size", "2"], ("DSV4_CP",) * 3),
    (NSA_CP + ["--tp-size", "16"], ("MODEL_OVERRIDE_UNSUPPORTED",) * 3),
    (NSA_CP + ["--tp-size", "2"], ("MODEL_OVERRIDE_UNSUPPORTED", None, None)),
    (NSA_CP + ["--nsa-prefill-cp-mode", "in-seq-split", "--tp-size", "2", "--dp-size", "2"],
     ("MODEL_OVERRIDE_UNSUPPORTED", None, None)),
])
def test_dsa_block_legacy_prefill_cp(extra, codes):
    assert tuple(refusal(extra, v, DSA_V3) for v in ("0.5.11", "0.5.12", "0.5.13")) == codes
