"""--enable-kv-cache-sharding's chain (rules_kv_shard.py, SGLang 0.5.22-0.5.23 srt/arg_groups/kv_shard_hook.py
handle_kv_cache_sharding): each refusal of the chain on a configuration SGLang accepts, the accepted neighbours, the
chunk-size rounding check_server_args then reads, what is left to the host, and the 0.5.22 traits. Every answer here
was SGLang's own in its kit (the oracle's KV_SHARD_EXTRA sweep, 2026-12-03)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

BASE = ["--model-path", "/m", "--device", "cuda", "--enable-kv-cache-sharding", "--disaggregation-mode", "prefill"]
CP = ["--attention-backend", "fa3", "--enable-prefill-cp", "--attn-cp-size", "2", "--tp-size", "2", "--cp-strategy",
      "zigzag", "--page-size", "64"]
MLA_TP = ["--prefill-attention-backend", "trtllm_mla", "--page-size", "64", "--tp-size", "2"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 8,
         "max_position_embeddings": 40960, "vocab_size": 151936}
DEEPSEEK = dict(QWEN3, architectures=["DeepseekV3ForCausalLM"], model_type="deepseek_v3", kv_lora_rank=64)
H200 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
PYTHON_CORE = {"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND": "python"}


def answer(extra, version="0.5.23", gpus=(), target=QWEN3, env=None):
    r = E.validate_argv(BASE + extra, version, env=env or {}, gpus=list(gpus), read_paths=False, target_config=target)
    return first_refusal(r)


@pytest.mark.parametrize("extra", [
    ["--dllm-algorithm", "LowConfidence"], ["--radix-cache-backend", "foo"],
    ["--enable-unified-cache-external-linker"], ["--enable-streaming-session"], ["--enable-session-radix-cache"],
    ["--enable-flexkv"], ["--enable-unified-memory"],
    ["--enable-hierarchical-cache", "--hicache-storage-backend", "file"],
    # the KV cache hook's LMCache checks and check_server_args' TBO check come later: the chain answers first
    ["--enable-lmcache"], ["--enable-hisparse"], ["--enable-dynamic-chunking", "--pp-size", "2"],
    ["--enable-two-batch-overlap"], ["--disaggregation-transfer-backend", "mori"],
    ["--chunked-prefill-size", "-1"],
    ["--chunked-prefill-size", "4000"],  # rounded up to 4032: no device memory to correct the fraction by
])
def test_each_refusal_of_the_chain(extra):
    assert answer(CP + extra) == "KV_SHARDING"


def test_accepted_neighbours():
    assert answer(CP) is None
    assert answer(CP + ["--disaggregation-transfer-backend", "nixl"]) is None
    assert answer(CP + ["--enable-hierarchical-cache"]) is None  # host offload without a storage backend (0.5.23)
    assert answer(CP + ["--enable-dynamic-chunking"]) is None  # the dynamic sizer runs only with PP
    assert answer(MLA_TP, target=DEEPSEEK) is None


def test_env_checks():
    rust = {"SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND": "rust"}
    assert answer(CP, env=rust) == "KV_SHARDING"
    assert answer(CP + ["--disable-radix-cache"], env=rust) is None  # a disabled radix cache never sees the core
    assert answer(CP, env={"SGLANG_DISAGG_STAGING_BUFFER": "1"}) == "KV_SHARDING"


def test_target_and_backend_checks():
    assert answer(CP, target=dict(QWEN3, architectures=["MllamaForConditionalGeneration"])) == "KV_SHARDING"
    assert answer(CP, target=dict(QWEN3, attention_chunk_size=1024)) == "KV_SHARDING"
    assert answer(CP[:1] + ["triton"] + CP[2:]) == "KV_SHARDING"  # neither fa3 nor trtllm_mla
    assert answer(CP[:1] + ["triton"] + CP[2:] + ["--prefill-attention-backend", "fa3"]) is None
    assert answer(MLA_TP) == "KV_SHARDING"  # trtllm_mla needs an MLA model
    assert answer(MLA_TP + ["--attn-cp-size", "2"], target=DEEPSEEK) == "KV_SHARDING"
    assert answer(MLA_TP + ["--disable-chunked-prefix-cache"], target=DEEPSEEK) == "KV_SHARDING"
    assert answer(MLA_TP + ["--dp-size", "2", "--enable-dp-attention"], target=DEEPSEEK) == "KV_SHARDING"
    assert answer(MLA_TP[:-1] + ["1"], target=DEEPSEEK) == "KV_SHARDING"  # plain TP needs tp_size > 1
    assert answer(["--attention-backend", "fa3", "--tp-size", "2", "--page-size", "64"]) == "KV_SHARDING"  # no CP
    assert answer(CP[:-2]) == "KV_SHARDING"  # page size 1
    assert answer(["--dcp-size", "2", "--tp-size", "2"]) == "KV_SHARDING"


def test_chunk_rounding():
    # a chunk size that is no multiple of the page is rounded up: check_server_args then takes it
    assert answer(CP + ["--chunked-prefill-size", "4000", "--mem-fraction-static", "0.8"]) is None
    assert answer(CP + ["--chunked-prefill-size", "100"]) is None  # 128: no more activation memory than 2048
    # a GPU of unknown memory: the corrected fraction is SGLang's; rounded either way
    assert answer(CP + ["--chunked-prefill-size", "4000"], gpus=H200) is None
    # rounding 2049 up to a 1,000,000-token page would need more memory than any GPU has
    assert answer(CP[:-1] + ["1000000", "--chunked-prefill-size", "2049"], gpus=H200) == "KV_SHARDING"
    # the default chunk without a GPU is 4096: a 48-token page rounds it, with no device memory
    assert answer(CP[:-1] + ["48"]) == "KV_SHARDING"
    assert answer(CP[:-1] + ["48"], gpus=H200) is None


def test_left_to_the_host():
    # an MLA target's default backend on a GPU, an unread config: no refusal claimed
    assert answer(["--tp-size", "2", "--page-size", "64"], gpus=H200, target=DEEPSEEK) is None
    assert answer(CP, target=None) is None
    # ... unless a check on the flags surely refuses
    assert answer(CP + ["--enable-flexkv"], target=None) == "KV_SHARDING"


def test_release_traits():
    # 0.5.22 reads the rust tree core when the env is unset, and refuses any hierarchical cache
    assert answer(CP, "0.5.22") == "KV_SHARDING"
    assert answer(CP, "0.5.22", env=PYTHON_CORE) is None
    assert answer(CP + ["--disable-radix-cache"], "0.5.22") is None
    assert answer(CP + ["--enable-hierarchical-cache"], "0.5.22", env=PYTHON_CORE) == "KV_SHARDING"
    # before 0.5.22 the flag does not exist
    assert answer(CP, "0.5.21") == "PARSE_UNRECOGNIZED"


DSA = dict(DEEPSEEK, architectures=["DeepseekV3ForCausalLMNextN"], index_topk=64, index_head_dim=32, index_n_heads=4)
DSA_CP = CP[:-3] + ["interleave", "--page-size", "64"]
DSA_TRTLLM = ["--dsa-prefill-backend", "trtllm", "--dsa-decode-backend", "trtllm", "--kv-cache-dtype", "fp8_e4m3"]


def test_dsa_target():
    # 0.5.23: the dsa backend, its topology, kernels and KV layout, then Mooncake and the indexer layout
    dsa = DSA_CP[:1] + ["dsa"] + DSA_CP[2:]
    assert answer(DSA_CP, target=DSA) == "KV_SHARDING"  # fa3: DSA needs the dsa backend
    assert answer(dsa + DSA_TRTLLM, target=DSA) is None
    assert answer(CP[:1] + ["dsa"] + CP[2:] + DSA_TRTLLM, target=DSA) == "KV_SHARDING"  # zigzag
    assert answer(dsa, target=DSA) == "KV_SHARDING"  # no trtllm DSA kernels, auto KV
    assert answer(dsa + DSA_TRTLLM + ["--disaggregation-transfer-backend", "nixl"], target=DSA) == "KV_SHARDING"
    # CP-sharded DSA HiCache: kernel I/O with layer_first or page_first, before the backend check
    assert answer(DSA_CP + ["--enable-hierarchical-cache", "--hicache-io-backend", "direct"], target=DSA) == \
        "KV_SHARDING"
    # a DSA architecture the model-specific hook fills in: its unset DSA settings are the host's
    glm = dict(DSA, architectures=["GlmMoeDsaForCausalLM"])
    assert answer(dsa, target=glm) is None
