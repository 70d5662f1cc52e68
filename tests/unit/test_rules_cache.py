"""The KV cache hook's compatibility checks, the flag-only hooks before the SSL check, the PD host-receive
threshold and the encoder disaggregation hook (rules_cache.py, rules_pd.py), per release where the flags are."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import messages

TARGET = {"architectures": ["Qwen3ForCausalLM"], "num_hidden_layers": 36, "vocab_size": 151936,
          "max_position_embeddings": 40960}


def verdict(version, *extra, algo=None):
    argv = ["--model-path", "/m", "--attention-backend", "triton"] + list(extra)
    if algo:
        argv += ["--speculative-algorithm", algo, "--speculative-num-steps", "3", "--speculative-eagle-topk", "1",
                 "--speculative-num-draft-tokens", "4", "--speculative-draft-model-path", "/d"]
    r = S.validate_argv(argv, version, gpus=[], target_config=TARGET, read_paths=False)
    return r.sglang_verdict["code"]


@pytest.mark.parametrize("extra,code", [
    (["--enable-hierarchical-cache", "--disable-radix-cache"], "HICACHE_NO_RADIX"),
    (["--enable-hierarchical-cache", "--disaggregation-mode", "decode"], "HICACHE_NO_RADIX"),
    (["--swa-full-tokens-ratio", "0"], "SWA_FULL_TOKENS_RATIO"),
    (["--swa-full-tokens-ratio", "1.5"], "SWA_FULL_TOKENS_RATIO"),
    (["--disaggregation-decode-enable-offload-kvcache"], "DECODE_OFFLOAD_KVCACHE"),
    (["--disaggregation-mode", "decode", "--disaggregation-decode-enable-offload-kvcache"], "DECODE_OFFLOAD_KVCACHE"),
    (["--encoder-only"], "ENCODER_DISAGG_MODEL"), (["--enable-prefix-mm-cache"], "ENCODER_DISAGG"),
    (["--encoder-only", "--language-only"], "ENCODER_DISAGG"),
])
@pytest.mark.parametrize("version", ["0.5.11", "0.5.17", "0.5.23"])
def test_every_release(version, extra, code):
    assert verdict(version, *extra) == code


@pytest.mark.parametrize("extra,code", [
    (["--disaggregation-decode-retraction-backup", "host_pool"], "CACHE_HOST_POOL"),
    (["--disaggregation-decode-host-receive-threshold", "0.5"], "CACHE_HOST_POOL"),
    (["--disaggregation-decode-host-receive-threshold", "2"], "PD_HOST_RECEIVE_THRESHOLD"),
    (["--radix-eviction-policy", "tlru", "--radix-eviction-policy-config", '{"threshold": 1, "next_prompt_estimate": 2}'],
     "RADIX_EVICTION_TLRU"),
    (["--swa-prefix-tails", "-1"], "SWA_PREFIX_TAILS"),
    (["--enable-lmcache", "--enable-hierarchical-cache"], "LMCACHE_CONFLICT"),
    (["--enable-lmcache", "--disaggregation-mode", "decode"], "LMCACHE_CONFLICT"),
    (["--hicache-host-memory-fraction", "0"], "HICACHE_HOST_MEMORY_FRACTION"),
    (["--hicache-host-memory-fraction", "0", "--ssl-keyfile", "/k"], "HICACHE_HOST_MEMORY_FRACTION"),
    (["--ple-offload-embedding", "--cpu-offload-gb", "2"], "PLE_OFFLOAD_CONFLICT"),
])
def test_newest_release(extra, code):
    assert verdict("0.5.23", *extra) == code


@pytest.mark.parametrize("extra", [
    ["--enable-hierarchical-cache"], ["--disable-radix-cache"], ["--swa-full-tokens-ratio", "1.0"],
    ["--enable-hierarchical-cache", "--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache",
     "--disable-radix-cache"],
    ["--radix-eviction-policy", "tlru", "--radix-eviction-policy-config", '{"threshold": 8, "next_prompt_estimate": 2}'],
    ["--hicache-host-memory-fraction", "1"], ["--ple-offload-embedding"], ["--enable-lmcache"],
])
def test_boundaries_accepted(extra):
    assert verdict("0.5.23", *extra) is None


def test_lmcache_checks_from_0_5_21():
    """--enable-lmcache is older than its checks: 0.5.20 accepts what 0.5.21 refuses."""
    extra = ["--enable-lmcache", "--disable-radix-cache"]
    assert verdict("0.5.20", *extra) is None
    assert verdict("0.5.21", *extra) == "LMCACHE_CONFLICT"
    assert verdict("0.5.23", "--enable-lmcache", algo="EAGLE") == "LMCACHE_UNSUPPORTED"


def test_encoder_architectures_grow():
    target = {"architectures": ["MuseSparkForConditionalGeneration"]}
    for version, code in (("0.5.22", "ENCODER_DISAGG_MODEL"), ("0.5.23", None)):
        r = S.validate_argv(["--model-path", "/m", "--attention-backend", "triton", "--encoder-only"], version, gpus=[],
                            target_config=target, read_paths=False)
        assert r.sglang_verdict["code"] == code, version


@pytest.mark.parametrize("message,code", [
    ("The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive and cannot be used",
     "HICACHE_NO_RADIX"),
    ("--swa-full-tokens-ratio should be in range (0, 1.0].", "SWA_FULL_TOKENS_RATIO"),
    ("LMCacheUnifiedRadixCache does not yet support speculative decoding", "LMCACHE_UNSUPPORTED"),
    ("Model type Qwen3ForCausalLM is not supported for encoder disaggregation.", "ENCODER_DISAGG_MODEL"),
])
def test_installed_mode_reads_the_messages(message, code):
    assert messages.code_for_sglang_message(message) == code


@pytest.mark.parametrize("version,extra,code", [
    ("0.5.15", ["--mamba-cache-philox-rounds", "-1"], "MAMBA_FLAGS"),
    ("0.5.23", ["--mamba-cache-philox-rounds", "0"], None),
    ("0.5.17", ["--mamba-max-states-per-path", "0"], "MAMBA_FLAGS"),
    ("0.5.23", ["--mamba-max-states-per-path", "-1"], None),
    ("0.5.23", ["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-dtype", "float32"], "MAMBA_FLAGS"),
    ("0.5.14", ["--mamba-cache-philox-rounds", "-1"], "PARSE_UNRECOGNIZED"),
])
def test_mamba_backend_flags(version, extra, code):
    assert verdict(version, *extra) == code


@pytest.mark.parametrize("version,extra,algo,code", [
    ("0.5.19", ["--enable-layernorm-sp"], None, "LAYERNORM_SP"),  # TP 1
    ("0.5.23", ["--enable-layernorm-sp", "--tp-size", "2"], None, None),
    ("0.5.23", ["--enable-layernorm-sp", "--tp-size", "2"], "EAGLE", "LAYERNORM_SP"),
    ("0.5.23", ["--enable-megamoe-for-layernorm-sp"], None, "LAYERNORM_SP"),
    ("0.5.18", ["--enable-layernorm-sp"], None, "PARSE_UNRECOGNIZED"),
])
def test_layernorm_sp(version, extra, algo, code):
    assert verdict(version, *extra, algo=algo) == code
