"""FP4 KV cache on an MLA model (rules_cache.py check_kv_dtype_platform, SGLang kv_cache_hook.py
handle_kv4_compatibility's MLA branches, trait kv4_mla_backends) and the SM100 native NVFP4 refusals: SGLang 0.5.23's
own answers in its kit (the oracle's KV_SWEEP_EXTRA sweep, 2026-12-03)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]
DEEPSEEK = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_hidden_layers": 8,
            "max_position_embeddings": 40960, "vocab_size": 129280, "kv_lora_rank": 64}
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 8,
         "max_position_embeddings": 40960, "vocab_size": 151936}
H200 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
B200 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2


def answer(extra, version="0.5.23", gpus=H200, target=DEEPSEEK):
    r = E.validate_argv(BASE + extra, version, gpus=list(gpus), read_paths=False, target_config=target)
    return first_refusal(r)


@pytest.mark.parametrize("extra, code", [
    (["--attention-backend", "triton"], "KV4_BACKEND"),  # MLA: flashinfer or trtllm_mla
    (["--attention-backend", "flashinfer"], None),
    (["--attention-backend", "triton", "--prefill-attention-backend", "fa4"], "KV4_BACKEND"),  # the decode backend
    (["--attention-backend", "flashinfer", "--prefill-attention-backend", "fa4"], None),
])
def test_fp4_kv_on_an_mla_model(extra, code):
    assert answer(["--kv-cache-dtype", "fp4_mx_block16"] + extra) == code


def test_the_mha_lists_stay_for_an_mha_model():
    assert answer(["--kv-cache-dtype", "fp4_mx_block16", "--attention-backend", "triton"], target=QWEN3) is None
    assert answer(["--kv-cache-dtype", "fp4_mx_block16", "--attention-backend", "flashinfer"], target=QWEN3) == \
        "KV4_BACKEND"


def test_kv4_mla_backends_trait():
    assert E.RELEASES["0.5.19"]["kv4_mla_backends"] == ("cutlass_mla", "flashinfer", "trtllm_mla")
    assert E.RELEASES["0.5.23"]["kv4_mla_backends"] == ("flashinfer", "trtllm_mla")


DRAFT = ["--speculative-draft-model-path", "/d"]


@pytest.mark.parametrize("extra, code", [
    ([], None),
    (["--speculative-algorithm", "STANDALONE"] + DRAFT, "KV4_CONFLICT"),
    (["--speculative-algorithm", "NGRAM"], "KV4_CONFLICT"),  # the default breadth-10 tree
    (["--disaggregation-mode", "prefill"], "KV4_CONFLICT"),
    (["--enable-hierarchical-cache"], "KV4_CONFLICT"),
])
def test_sm100_native_nvfp4(extra, code):
    argv = ["--kv-cache-dtype", "nvfp4", "--attention-backend", "trtllm_mha"] + extra
    assert answer(argv, gpus=B200, target=QWEN3) == code


UM_DCP = ["--enable-unified-memory", "--dcp-size", "2", "--tp-size", "2"]


@pytest.mark.parametrize("extra, target, code", [
    (UM_DCP + ["--attention-backend", "flashinfer"], DEEPSEEK, None),  # the MLA path of _validate_unified_memory_dcp
    (UM_DCP + ["--attention-backend", "triton"], DEEPSEEK, "UNIFIED_MEMORY"),  # not a DCP-translating backend
    (UM_DCP + ["--attention-backend", "flashinfer", "--disaggregation-mode", "prefill"], DEEPSEEK, "UNIFIED_MEMORY"),
    (UM_DCP + ["--attention-backend", "flashinfer"], dict(DEEPSEEK, is_hybrid_swa=True, sliding_window=128),
     "UNIFIED_MEMORY"),
    (UM_DCP + ["--attention-backend", "flashinfer"], QWEN3, "UNIFIED_MEMORY"),  # MHA: MLA models only
    (["--enable-unified-memory", "--attention-backend", "flashinfer", "--disaggregation-mode", "decode",
      "--disaggregation-decode-enable-offload-kvcache", "--hicache-storage-backend", "file"], DEEPSEEK, "UNIFIED_MEMORY"),
])
def test_unified_pool_on_an_mla_model(extra, target, code):
    assert answer(extra, gpus=(), target=target) == code
    if code is None:  # 0.5.19 refuses any DCP with the unified pool
        assert answer(extra, "0.5.19", gpus=(), target=target) == "UNIFIED_MEMORY"
