"""The CUDA graph settings SGLang refuses at argument time (rules_cuda_graph.py), the PLE offload backend and the
HiCache host-receive layout (rules_cache.py): each refusal with the accepted value next to it, and the release traits.
Every answer here was SGLang 0.5.23's own in its kit (the oracle's KV_SWEEP_EXTRA sweep, 2026-12-03)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

BASE = ["--model-path", "/m", "--device", "cuda", "--attention-backend", "triton"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 8,
         "max_position_embeddings": 40960, "vocab_size": 151936}
RECEIVE = ["--disaggregation-mode", "decode", "--disaggregation-decode-host-receive-threshold", "0.5",
           "--hicache-storage-backend"]


def answer(extra, version="0.5.23"):
    r = E.validate_argv(BASE + extra, version, gpus=[], read_paths=False, target_config=QWEN3)
    return first_refusal(r)


@pytest.mark.parametrize("extra, code", [
    (["--cuda-graph-config", '{"decode": {"backend": "bogus"}}'], "CUDA_GRAPH_CONFIG"),
    (["--cuda-graph-config", '{"prefill": {"backend": "full"}}'], None),
    (["--cuda-graph-config", '{"prefill": {"max_context_size": 0}}'], "CUDA_GRAPH_PREFILL_MAX_CONTEXT"),
    (["--cuda-graph-prefill-max-context", "0"], "CUDA_GRAPH_PREFILL_MAX_CONTEXT"),
    (["--cuda-graph-prefill-max-context", "1000000"], "CUDA_GRAPH_PREFILL_MAX_CONTEXT"),  # > 40960
    (["--cuda-graph-prefill-max-context", "100"], None),
    (["--cuda-graph-prefill-max-context", "100", "--page-size", "0"], "CUDA_GRAPH_PREFILL_MAX_CONTEXT"),
    (["--device", "cpu", "--cuda-graph-bs-decode", "0"], "CUDA_GRAPH_BATCH_SIZES"),
    (["--device", "cpu", "--torch-compile-max-bs", "-1"], "CUDA_GRAPH_BATCH_SIZES"),
    (["--device", "cpu", "--torch-compile-max-bs", "0"], None),  # 0: the decode graph's max batch size
    (["--cuda-graph-bs-decode", "0"], None),  # a CUDA device does not check it here
    (["--ple-offload-backend", "file", "--no-ple-offload-embedding"], "PLE_OFFLOAD_BACKEND"),
    (["--ple-offload-backend", "file"], None),  # unset: the model overrides decide
    (RECEIVE + ["mooncake"], "HICACHE_HOST_RECEIVE_LAYOUT"),
    (RECEIVE + ["mooncake", "--hicache-io-backend", "direct"], "HICACHE_HOST_RECEIVE_LAYOUT"),
    (RECEIVE + ["mooncake", "--hicache-io-backend", "kernel_ascend"], None),  # the layout is kept
    (RECEIVE + ["file"], None),
    (["--enable-hierarchical-cache"] + RECEIVE[2:] + ["mooncake"], "HICACHE_HOST_RECEIVE_LAYOUT"),
])
def test_refusals_and_neighbours(extra, code):
    assert answer(extra) == code


def test_release_traits():
    # 0.5.14-0.5.21 take tc_piecewise in a phase
    assert answer(["--cuda-graph-config", '{"decode": {"backend": "tc_piecewise"}}'], "0.5.21") is None
    assert answer(["--cuda-graph-config", '{"decode": {"backend": "bogus"}}'], "0.5.19") == "CUDA_GRAPH_CONFIG"
    assert answer(["--cuda-graph-config", '{"decode": {"backend": "bogus"}}'], "0.5.18") == "CUDA_GRAPH_CONFIG"
    # 0.5.14 takes no full prefill graph
    assert answer(["--cuda-graph-config", '{"prefill": {"backend": "full"}}'], "0.5.14") == "CUDA_GRAPH_CONFIG"
    assert answer(["--cuda-graph-config", '{"prefill": {"backend": "full"}}'], "0.5.15") is None
    # 0.5.21 turns the decode host receive on above a threshold of 0 (0.5 either way)
    assert answer(RECEIVE + ["mooncake"], "0.5.21") == "HICACHE_HOST_RECEIVE_LAYOUT"
