"""--enable-hisparse (rules_hisparse.py; SGLang hisparse_hook.py validate_hisparse at check_server_args' legacy slot):
the target's sparse family, the radix cache, then (0.5.22 on) mixed chunk, top-k and adaptive speculation. SGLang
0.5.23's own answers in its kit (the oracle's KV_SWEEP_EXTRA sweep, 2026-12-03)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

BASE = ["--model-path", "/m", "--device", "cuda", "--attention-backend", "triton", "--max-running-requests", "8"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 8,
         "max_position_embeddings": 40960, "vocab_size": 151936}
M3 = dict(QWEN3, architectures=["MiniMaxM3SparseForCausalLM"])
EAGLE3 = ["--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
          "--speculative-num-draft-tokens", "4"]
HS = ["--enable-hisparse", "--disable-radix-cache"]


def answer(extra, version="0.5.23", target=M3):
    r = E.validate_argv(BASE + extra, version, gpus=[], read_paths=False, target_config=target)
    return first_refusal(r)


@pytest.mark.parametrize("extra, target, code", [
    (["--enable-hisparse"], QWEN3, "HISPARSE_MODEL"),
    (["--enable-hisparse"], M3, "HISPARSE_RADIX_CACHE"),
    (HS, M3, None),
    (HS + ["--enable-mixed-chunk"], M3, "HISPARSE_CONFLICT"),
    (HS + EAGLE3 + ["--speculative-eagle-topk", "1"], M3, None),
    (HS + EAGLE3 + ["--speculative-eagle-topk", "2"], M3, "HISPARSE_CONFLICT"),
    (HS + EAGLE3 + ["--speculative-eagle-topk", "1", "--speculative-adaptive"], M3, "HISPARSE_CONFLICT"),
])
def test_hisparse(extra, target, code):
    assert answer(extra, target=target) == code


def test_release_traits():
    # MiniMax M3 joins in 0.5.21; the mixed-chunk and speculation checks in 0.5.22
    assert answer(HS, "0.5.20") == "HISPARSE_MODEL"
    assert answer(HS + ["--enable-mixed-chunk"], "0.5.21") is None
    assert E.RELEASES["0.5.11"]["hisparse_models"] == ("dsa",)
    assert E.RELEASES["0.5.12"]["hisparse_models"] == ("dsa", "v4")


DSA = {"architectures": ["DeepseekV3ForCausalLMNextN"], "model_type": "deepseek_v3", "num_hidden_layers": 8,
       "max_position_embeddings": 163840, "vocab_size": 129280, "kv_lora_rank": 64, "index_topk": 64}


@pytest.mark.parametrize("extra, code", [
    (HS + ["--kv-cache-dtype", "bfloat16"], None),
    (HS + ["--kv-cache-dtype", "fp8_e5m2"], "HISPARSE_KV_DTYPE"),
    (HS + ["--kv-cache-dtype", "bfloat16", "--dsa-prefill-backend", "flashmla_kv"], "HISPARSE_DSA_BACKEND"),
])
def test_dsa_kv_dtype_and_backends(extra, code):
    assert answer(extra, target=DSA) == code
