"""DeepSeek-V4's model hook (rules_dsv4.py; 0.5.23 arg_groups/deepseek_v4_hook.py and overrides.py
_deepseek_v4_kv_cache_dtype): each refusal a user sees, the accepted neighbour, the settings the hook resolves, and the
release trait. Every expectation here was SGLang 0.5.23's own answer to the same flags in its kit on an H200 (the
differential runs, cases.DSV4_SWEEP_EXTRA); the SM100 ones are the hook's source (this lab cannot present one)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda"]
_CFG = {"architectures": ["DeepseekV4ForCausalLM"], "model_type": "deepseek_v4", "num_hidden_layers": 8,
        "max_position_embeddings": 65536, "vocab_size": 129280, "kv_lora_rank": 64, "sliding_window": 128,
        "index_topk": 64, "compress_ratios": [0] * 8}
V4 = _CFG
V41 = dict(_CFG, model_type="deepseek_v41")
SM90 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
SM100 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2
CP = ["--enable-prefill-cp", "--cp-strategy", "interleave"]
ENC = ["--enable-encoder-swa-bounded-replay"]
DEC = ["--enable-decoder-swa-bounded-replay"]
EAGLE1 = ["--speculative-algorithm", "EAGLE", "--speculative-eagle-topk", "1", "--speculative-num-steps", "3",
          "--speculative-num-draft-tokens", "4"]
DSPARK_PD = ["--speculative-algorithm", "DSPARK", "--disaggregation-mode", "prefill"]
FULL_GRAPH = ["--cuda-graph-config", '{"prefill": {"backend": "full"}}']


def _validate(extra, target, version="0.5.23", gpus=SM90, env=None):
    return E.validate_argv(BASE + extra, version, gpus=list(gpus), read_paths=False, target_config=target,
                           env=env or {})


def answer(extra, target, version="0.5.23", gpus=SM90, env=None):
    r = _validate(extra, target, version, gpus, env)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input") and e["code"] != "GPU_COUNT"]
    return codes[0] if codes else None


@pytest.mark.parametrize("extra, target, gpus, code", [
    ([], V4, SM90, None), (["--kv-cache-dtype", "bfloat16"], V4, SM90, None),
    (["--kv-cache-dtype", "fp8_e5m2"], V4, SM90, "DSV4_KV_DTYPE"),
    (["--dsv4-attn-backend", "flashmla_mega"], V4, SM90, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "flashmla_mega"], V41, SM90, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "flashmla_mega"], V41, SM100, None),
    (["--dsv4-attn-backend", "flashmla_mega"], V4, SM100, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm"], V4, SM90, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm"], V4, [], "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm"], V4, SM100, None),
    (["--dsv4-attn-backend", "trtllm", "--kv-cache-dtype", "bfloat16"], V4, SM100, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm", "--enable-hisparse"], V4, SM100, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm", "--dcp-size", "2", "--tp-size", "2"], V4, SM100, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm", "--disaggregation-mode", "prefill"], V4, SM100, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm", "--chunked-prefill-size", "-1"], V4, SM100, "DSV4_ATTN_BACKEND"),
    (["--dsv4-attn-backend", "trtllm"] + FULL_GRAPH, V41, SM100, "DSV41_UNSUPPORTED"),
    (["--speculative-algorithm", "NGRAM"], V4, SM90, "DSV4_SPECULATIVE"),
    (["--speculative-algorithm", "NEXTN", "--speculative-eagle-topk", "1"], V4, SM90, "DSV4_SPECULATIVE"),
    (["--speculative-algorithm", "eagle", "--speculative-eagle-topk", "1"], V4, SM90, "DSV4_SPECULATIVE"),
    (["--speculative-algorithm", "EAGLE"], V4, SM90, "DSV4_SPECULATIVE"),
    (EAGLE1[:3] + ["2"] + EAGLE1[4:], V4, SM90, "DSV4_SPECULATIVE"), (EAGLE1, V4, SM90, None),
    (EAGLE1, V41, SM90, "DSV41_UNSUPPORTED"),
])
def test_apply_defaults_and_speculative(extra, target, gpus, code):
    assert answer(extra, target, gpus=gpus) == code


@pytest.mark.parametrize("extra, code", [
    (["--enable-prefill-cp"], "DSV4_CP"), (["--enable-prefill-cp", "--cp-strategy", "zigzag"], "DSV4_CP"),
    (CP, None), (CP + ["--tp-size", "2"], None), (CP + ["--tp-size", "2", "--dp-size", "2"], "DSV4_CP"),
    (CP + ["--tp-size", "16"], "MODEL_OVERRIDE_UNSUPPORTED"),
    (CP + ["--tp-size", "2", "--attn-dp-size", "2", "--dp-size", "2"], "ATTN_DP_SIZE"),
    (CP + ["--tp-size", "2", "--moe-a2a-backend", "mooncake", "--ep-size", "2"], "DSV4_CP"),
])
def test_prefill_cp(extra, code):
    assert answer(extra, V4) == code


@pytest.mark.parametrize("extra, gpus, env, code", [
    (ENC, SM90, None, None), (ENC, [], None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--enable-mixed-chunk"], SM90, None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--enable-unified-memory"], SM90, None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--disaggregation-mode", "decode"], SM90, None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--enable-session-radix-cache"], SM90, None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--attn-cp-size", "2", "--tp-size", "2"], SM90, None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + FULL_GRAPH, SM90, None, "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--cuda-graph-config", '{"prefill": {"backend": "breakable"}}'], SM90, None, None),
    (ENC + ["--chunked-prefill-size", "200"], SM90, None, "ENCODER_REPLAY_BUDGET"),
    (ENC + ["--chunked-prefill-size", "-1"], SM90, None, "ENCODER_REPLAY_BUDGET"),
    (ENC + ["--max-running-requests", "0"], SM90, None, "ENCODER_REPLAY_BUDGET"),
    (ENC + ["--page-size", "64", "--chunked-prefill-size", "200"], SM90, None, "ENCODER_REPLAY_BUDGET"),
    (["--enable-hisparse"], SM90, None, "DSV41_UNSUPPORTED"), (["--enable-two-batch-overlap"], SM90, None,
                                                              "DSV41_UNSUPPORTED"),
    (["--pp-size", "2"], SM90, None, "DSV41_UNSUPPORTED"),
    (DSPARK_PD + ["--dcp-size", "2", "--tp-size", "2"], SM90, None, "DSV41_UNSUPPORTED"),
    (DSPARK_PD, SM90, {"SGLANG_RAGGED_VERIFY_MODE": "compact"}, "DSV41_UNSUPPORTED"),
    (DEC, SM90, None, None), (DEC + FULL_GRAPH, SM90, None, "DSV41_UNSUPPORTED"),
    (DEC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--moe-a2a-backend", "deepep"], SM90, None,
     "DSV41_UNSUPPORTED"),
    (DEC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], SM90, None, None),
])
def test_v41_features(extra, gpus, env, code):
    assert answer(extra, V41, gpus=gpus, env=env) == code


def test_encoder_replay_off_v41_and_resolved_settings():
    assert answer(ENC, V4) == "ENCODER_REPLAY_MODEL"
    r = _validate(["--attention-backend", "triton", "--page-size", "64"], V4).resolved
    # the override's dsv4 backend and 256-token page win over the flags; the hook caps requests at 256
    assert (r["attention_backend"], r["page_size"], r["max_running_requests"]) == ("dsv4", 256, 256)
    assert _validate(["--max-running-requests", "8"], V4).resolved["max_running_requests"] == 8


@pytest.mark.parametrize("extra, v22, v23", [
    (ENC + ["--cuda-graph-config", '{"prefill": {"backend": "breakable"}}'], "ENCODER_REPLAY_UNSUPPORTED", None),
    (ENC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "ENCODER_REPLAY_UNSUPPORTED", None),
    (ENC + ["--enable-unified-cache-external-linker"], "ENCODER_REPLAY_UNSUPPORTED", None),
    (ENC + ["--disaggregation-mode", "prefill"], "ENCODER_REPLAY_UNSUPPORTED", None),
    (ENC + ["--chunked-prefill-size", "100"], "ENCODER_REPLAY_BUDGET", "ENCODER_REPLAY_BUDGET"),
    (ENC + ["--max-running-requests", "0"], "ENCODER_REPLAY_BUDGET", "ENCODER_REPLAY_BUDGET"),
    (ENC, None, None),
])
def test_v41_encoder_replay_per_release(extra, v22, v23):
    """0.5.22 ("v22") refuses more beside the encoder replay and checks a 128-token chunk in the feature check."""
    assert (answer(extra, V41, version="0.5.22"), answer(extra, V41)) == (v22, v23)


@pytest.mark.parametrize("extra, v21, v22", [
    (DSPARK_PD + ["--disaggregation-transfer-backend", "nixl"], "DSV41_UNSUPPORTED", "DSPARK_ARGS"),  # 0.5.22: the draft
    (DEC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "DSV41_UNSUPPORTED", None),
    (ENC + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "ENCODER_REPLAY_UNSUPPORTED",
     "ENCODER_REPLAY_UNSUPPORTED"),
    (ENC + ["--chunked-prefill-size", "100"], "ENCODER_REPLAY_BUDGET", "ENCODER_REPLAY_BUDGET"),
    (["--dsv4-attn-backend", "trtllm"], "DSV41_UNSUPPORTED", None),  # on SM100: 0.5.21 refuses trtllm for V4.1
])
def test_v41_features_0_5_21(extra, v21, v22):
    gpus = SM100 if "trtllm" in extra else SM90
    assert (answer(extra, V41, version="0.5.21", gpus=gpus), answer(extra, V41, version="0.5.22", gpus=gpus)) == \
        (v21, v22)


def test_release_trait():
    assert [E.RELEASES[v]["dsv4_hook"] for v in ("0.5.21", "0.5.22", "0.5.23")] == ["v21", "v22", "v23"]
    # -- dsv4old (session 16) --: one generation a release from 0.5.15; 0.5.12-0.5.14 not modelled yet
    assert [E.RELEASES[v]["dsv4_hook"] for v in ("0.5.15", "0.5.15.post1", "0.5.16", "0.5.17", "0.5.18", "0.5.19",
                                                  "0.5.20")] == ["v15", "v15", "v16", "v17", "v18", "v19", "v20"]
    # -- oldnon (session 17) --: the hook's first form, 0.5.12-0.5.14; 0.5.11 has no hook
    assert [E.RELEASES[v]["dsv4_hook"] for v in ("0.5.12", "0.5.12.post1", "0.5.13", "0.5.13.post1", "0.5.14")] == \
        ["v12", "v12.post1", "v13", "v13", "v14"]
    assert E.RELEASES["0.5.11"]["dsv4_hook"] is None


# -- dsv4old (session 16) --: the hook in 0.5.15-0.5.20, per release (0.5.15, 0.5.16, 0.5.17, 0.5.18, 0.5.20)
MEGA = ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size"]
_OLD = ("0.5.15", "0.5.16", "0.5.17", "0.5.18", "0.5.20")


@pytest.mark.parametrize("extra, env, codes", [
    ([], None, (None,) * 5), (["--kv-cache-dtype", "fp8_e5m2"], None, ("DSV4_KV_DTYPE",) * 5),
    (["--speculative-algorithm", "DSPARK"], None, ("DSV4_SPECULATIVE",) + ("DSPARK_ARGS",) * 4),
    (["--speculative-algorithm", "NGRAM"], None, ("DSV4_SPECULATIVE",) * 5),
    (EAGLE1[:3] + ["2"] + EAGLE1[4:], None, ("DSV4_SPECULATIVE",) * 5),
    (["--enable-prefill-cp", "--cp-strategy", "zigzag"], None, ("DSV4_CP",) * 5),
    (CP + ["--tp-size", "2", "--dp-size", "2"], None, ("DSV4_CP",) * 5),
    (CP + ["--tp-size", "16"], None, ("MODEL_OVERRIDE_UNSUPPORTED",) * 5),
    (CP + ["--tp-size", "2", "--moe-a2a-backend", "mooncake", "--ep-size", "2"], None,
     ("CP_STRATEGY",) * 2 + ("DSV4_CP",) * 3),
    # 0.5.15-0.5.17: the hook turns on the DSA alias beside the generic prefill CP flag and SGLang refuses both
    (CP + ["--tp-size", "2"], None, ("CP_STRATEGY",) * 3 + (None, None)),
    (MEGA + ["-1"], None, (None, None) + ("MOE_A2A_DISPATCH_BUDGET",) * 3),
    (MEGA + ["2048"], None, (None, None, "MOE_A2A_DISPATCH_BUDGET", None, None)),
    (MEGA + ["16384"], None, (None, None) + ("MOE_A2A_DISPATCH_BUDGET",) * 3),
    (MEGA + ["16384", "--disaggregation-mode", "decode"], None, (None,) * 5),
    (MEGA + ["4096"], {"SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK": "2048"},
     ("ENV_SECRET",) * 2 + ("MOE_A2A_DISPATCH_BUDGET",) * 3),  # (an unknown variable there)
    (MEGA + ["2", "--tp-size", "4", "--dp-size", "4", "--enable-dp-attention"], None,
     ("CHUNKED_PREFILL_PAGE",) * 2 + ("MOE_A2A_DISPATCH_BUDGET",) * 3),
    (MEGA + ["33024"] + CP + ["--tp-size", "4"], None,
     ("CP_STRATEGY",) * 2 + ("MOE_A2A_DISPATCH_BUDGET",) * 3),
    (MEGA + ["8448", "--tp-size", "2"], None, (None, None) + ("MOE_A2A_DISPATCH_BUDGET",) * 3),
    (MEGA + ["16384"] + CP + ["--tp-size", "2"], None,
     ("CP_STRATEGY",) * 2 + ("MOE_A2A_DISPATCH_BUDGET", None, None)),
    (["--chunked-prefill-size", "2048"], {"SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE": "1"},
     (None, None, "MOE_A2A_DISPATCH_BUDGET", None, None)),
])
def test_hook_before_0_5_21(extra, env, codes):
    gpus = SM90 if "--tp-size" not in extra else SM90 * 2
    assert tuple(answer(extra, V4, version=v, gpus=gpus, env=env) for v in _OLD) == codes


# -- oldnon (session 17) --: the hook's first form, per release (0.5.12, 0.5.12.post1, 0.5.13, 0.5.14); each answer is the
# release's own in its kit (cases.DSV4_SWEEP_EXTRA "dsv4-12-*" and the entries swept from 0.5.12 / 0.5.14)
_FIRST = ("0.5.12", "0.5.12.post1", "0.5.13", "0.5.14")
NSA_CP = ["--enable-nsa-prefill-context-parallel"]


@pytest.mark.parametrize("extra, codes", [
    ([], (None,) * 4),
    (["--kv-cache-dtype", "bfloat16"], ("DSV4_KV_DTYPE",) * 3 + (None,)),  # fp8_e4m3 only to 0.5.13
    (["--kv-cache-dtype", "fp8_e5m2"], ("DSV4_KV_DTYPE",) * 4),
    (["--speculative-algorithm", "DSPARK"], ("DSV4_SPECULATIVE",) * 4),
    (["--speculative-algorithm", "NGRAM"], ("DSV4_SPECULATIVE",) * 4),
    (["--speculative-algorithm", "EAGLE"], ("DSV4_SPECULATIVE",) * 4),  # topk not given
    (EAGLE1, (None,) * 4),
    # 0.5.12 alone: a PD server with pipeline parallelism
    (["--disaggregation-mode", "prefill", "--pp-size", "2"], ("DSV4_PD_PP", None, None, None)),
])
def test_hook_first_form(extra, codes):
    assert tuple(answer(extra, V4, version=v) for v in _FIRST) == codes


@pytest.mark.parametrize("version, extra, code", [
    ("0.5.12", NSA_CP, None), ("0.5.12", NSA_CP + ["--tp-size", "2"], None),
    ("0.5.12", NSA_CP + ["--nsa-prefill-cp-mode", "in-seq-split"], "DSV4_CP"),
    ("0.5.12.post1", NSA_CP + ["--tp-size", "2", "--dp-size", "2"], "DSV4_CP"),
    ("0.5.13", NSA_CP + ["--tp-size", "16"], "MODEL_OVERRIDE_UNSUPPORTED"),
    ("0.5.13", ["--enable-dsa-prefill-context-parallel", "--dsa-prefill-cp-mode", "in-seq-split"], "DSV4_CP"),
    # 0.5.14: --enable-prefill-cp; the hook turns on the DSA alias beside the generic flag, as 0.5.15 does
    ("0.5.14", CP + ["--tp-size", "2"], "CP_STRATEGY"), ("0.5.14", ["--enable-prefill-cp"], "DSV4_CP"),
    ("0.5.14", CP + ["--tp-size", "2", "--dp-size", "2"], "DSV4_CP"),
])
def test_prefill_cp_first_form(version, extra, code):
    gpus = SM90 * 8 if "16" in extra else SM90
    assert answer(extra, V4, version=version, gpus=gpus) == code
