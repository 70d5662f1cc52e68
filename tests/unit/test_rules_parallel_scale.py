"""The elastic EP scale-up checks (rules_parallel.py _check_elastic_scaling, trait elastic_scale), --enable-aiter-
allreduce-fusion with attention CP / MoE DP, and the DWDP checks past its TP check; 0.5.15 has no --max-ep-size. Every answer expected here was
SGLang's own to the same flags in its kit (0.5.23, and the sweep on 0.5.12, 0.5.15, 0.5.16, 0.5.18, 0.5.20-0.5.22)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8", "--attention-backend", "triton"]
SPEC = ["--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d",
        "--speculative-num-draft-tokens", "16"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}
EL = ["--elastic-ep-backend", "mooncake", "--max-ep-size", "4"]
JOIN = EL + ["--elastic-ep-join-mode", "scale", "--node-rank", "1", "--elastic-ep-join-rank-offset", "2"]
DP = EL + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
OK = DP + ["--enable-dp-lm-head", "--ep-size", "2", "--moe-a2a-backend", "nixl"]


def verdict(extra, version="0.5.23", spec=False, gpus=()):
    r = E.validate_argv(BASE + (SPEC if spec else []) + extra, version, gpus=list(gpus), read_paths=False,
                        target_config=QWEN3)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"], r.sglang_verdict["message"]
    codes = [e for e in r.errors if e["stage"] in ("parse", "resolve", "input")]
    return (codes[0]["code"], codes[0]["message"]) if codes else (None, None)


@pytest.mark.parametrize("extra, what", [
    (EL + ["--attn-cp-size", "0"], "invalid attention topology"),
    (EL + ["--max-ep-size", "3", "--tp-size", "2"], "divisible by the attention replica size 2"),
    (EL + ["--tp-size", "2"], "--moe-dense-tp-size 1"),
    (EL + ["--elastic-ep-scale-timeout", "0"], "--elastic-ep-scale-timeout"),
    (EL + ["--tokenizer-worker-num", "2"], "--tokenizer-worker-num 1"),
    (EL + ["--use-ray"], "--use-ray"), (EL + ["--enable-elastic-expert-backup"], "expert-backup"),
    (JOIN, "scale joiners require"), (JOIN + ["--elastic-ep-initial-size", "4"], "cannot exceed"),
    (JOIN + ["--elastic-ep-initial-size", "2", "--elastic-ep-join-rank-offset", "4"], "exceeds --max-ep-size"),
    (JOIN + ["--elastic-ep-initial-size", "2"], "single-rank joining group"),
    (JOIN + ["--elastic-ep-initial-size", "0", "--moe-dense-tp-size", "1"], "must be positive"),
    (EL + ["--elastic-ep-initial-size", "2"], "primary --elastic-ep-initial-size"),
    (EL + ["--load-balance-method", "total_requests"], "round_robin (got total_requests)"),
    (EL + ["--disaggregation-mode", "prefill"], "round_robin (got follow_bootstrap_room)"),
    (["--elastic-ep-backend", "nixl", "--max-ep-size", "4"], "--elastic-ep-backend mooncake"),
    (EL + ["--dcp-size", "2"], "--dcp-size must divide"),
    (EL + ["--cuda-graph-backend-decode", "breakable"], "full or disabled (got breakable)"),
    (EL + ["--cuda-graph-backend-prefill", "breakable"], "prefill CUDA graph"),
    (EL + ["--device", "cpu"], "requires CUDA (got device=cpu)"),
    (EL + ["--is-embedding"], "embedding models"), (EL + ["--dllm-algorithm", "LowConfidence"], "diffusion"),
    (EL + ["--encoder-only"], "encoder-only"), (EL + ["--forward-hooks", '[{"name": "h"}]'], "forward hooks"),
    (EL + ["--enable-pdmux"], "PDMux"),
    (EL, "attention DP"), (EL + ["--disable-cuda-graph"], "attention DP"),
    (DP, "--enable-dp-lm-head"),
    (EL + ["--max-ep-size", "8", "--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head",
           "--attn-cp-size", "2"], "--attn-cp-size 1"),
    (DP + ["--enable-dp-lm-head"], "ep_size == tp_size"), (DP + ["--enable-dp-lm-head", "--ep-size", "2"], "nixl"),
])
def test_scale_up_refusals(extra, what):
    code, msg = verdict(extra)
    assert code == "ELASTIC_EP" and what in msg, (code, msg)


def test_scale_up_accepted_and_speculation_refused():
    assert verdict(OK) == (None, None)
    assert verdict(OK + ["--disable-cuda-graph"]) == (None, None)
    assert verdict(EL, spec=True)[0] == "ELASTIC_EP" and "speculative" in verdict(EL, spec=True)[1]
    # no decode graph to recapture: the recapture checks are skipped (torch_native disables the CUDA graphs)
    assert verdict(OK + ["--speculative-algorithm", "NGRAM"] + ["--attention-backend", "torch_native"])[0] != \
        "ELASTIC_EP"
    # max_ep_size not above tp_size: no scale-up checks
    assert verdict(["--elastic-ep-backend", "mooncake", "--max-ep-size", "1"]) == (None, None)


def test_scale_up_release_generations():
    # 0.5.16-0.5.20 want both CUDA graphs disabled and dp_size == tp_size; 0.5.11-0.5.15 have no scale-up checks
    for version in ("0.5.16", "0.5.20"):
        assert "decode and prefill CUDA graphs" in verdict(OK, version)[1]
        assert verdict(OK + ["--disable-cuda-graph"], version) == (None, None)
    assert verdict(OK, "0.5.22") == (None, None)
    assert "--dcp-size" not in verdict(EL + ["--dcp-size", "2"], "0.5.22")[1]  # the --dcp-size check is 0.5.23's
    assert verdict(EL, "0.5.15")[0] == "PARSE_UNRECOGNIZED"  # no --max-ep-size yet


@pytest.mark.parametrize("extra, code", [
    (["--attn-cp-size", "2", "--tp-size", "2", "--enable-aiter-allreduce-fusion"], "CP_AITER_FUSION"),
    (["--moe-dp-size", "2", "--tp-size", "2", "--enable-aiter-allreduce-fusion"], "CP_AITER_FUSION"),
    (["--enable-aiter-allreduce-fusion"], None),
    (["--attn-cp-size", "2", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "CP_TOPOLOGY"),
    (["--moe-dp-size", "2", "--tp-size", "8", "--ep-size", "2"], "CP_TOPOLOGY"),
    (["--dwdp-size", "2", "--tp-size", "2", "--disaggregation-mode", "decode"], "DWDP"),
    (["--dwdp-size", "2", "--tp-size", "2", "--enable-eplb"], "DWDP"),
    (["--dwdp-size", "2", "--tp-size", "2", "--pp-size", "2"], "DWDP"),
    (["--dwdp-size", "2", "--tp-size", "2", "--enable-two-batch-overlap"], "DWDP"),
    (["--dwdp-size", "2", "--tp-size", "2"], None),
])
def test_context_parallel_and_dwdp(extra, code):
    assert verdict(extra)[0] == code


@pytest.mark.parametrize("extra, version, code", [
    (["--load-format", "expert_pack"], "0.5.23", "EXPERT_PACK"),  # no pack_path; a Qwen3 config
    (["--load-format", "expert_pack", "--model-loader-extra-config", '{"pack_path": "/p"}'], "0.5.23", "EXPERT_PACK"),
    (["--load-format", "expert_pack"], "0.5.19", "EXPERT_PACK"),
    (["--load-format", "expert_pack"], "0.5.18", "PARSE_INVALID_VALUE"),  # not a --load-format choice yet
])
def test_expert_pack(extra, version, code):
    assert verdict(extra, version)[0] == code


def test_expert_pack_judges_flags_not_files():
    deepseek_v4 = {"architectures": ["DeepseekV4ForCausalLM"], "model_type": "deepseek_v4", "num_hidden_layers": 4,
                   "max_position_embeddings": 4096, "vocab_size": 1000}
    loader = ["--load-format", "expert_pack", "--model-loader-extra-config", '{"pack_path": "/p"}']

    def code(extra, version="0.5.23"):
        r = E.validate_argv(BASE + loader + extra, version, read_paths=False, target_config=deepseek_v4)
        return r.sglang_verdict["code"]
    assert code([]) is None  # the pack file's existence is the host's to judge
    assert code(["--tp-size", "2"]) == "EXPERT_PACK"
    assert code(["--attn-dp-size", "2"]) == "EXPERT_PACK"
    assert code(["--attn-dp-size", "2"], "0.5.22") != "EXPERT_PACK"  # 0.5.19-0.5.22 do not check it
    assert code(["--cuda-graph-backend-decode", "full"]) == "EXPERT_PACK"


def _cp_model(cfg, extra, version="0.5.23", env=None):
    target = dict({"num_hidden_layers": 8, "max_position_embeddings": 4096, "vocab_size": 1000}, **cfg)
    r = E.validate_argv(BASE + extra, version, read_paths=False, target_config=target, env=env or {})
    return r.sglang_verdict["code"]


LONGCAT = {"architectures": ["LongcatFlashForCausalLM"], "model_type": "longcat_flash"}
NEMOTRON = {"architectures": ["NemotronHForCausalLM"], "model_type": "nemotron_h"}
MIMO = {"architectures": ["MiMoV2FlashForCausalLM"], "model_type": "qwen3"}
DSV32 = {"architectures": ["DeepseekV32ForCausalLM"], "model_type": "deepseek_v32"}
CP2 = ["--attn-cp-size", "2", "--tp-size", "2"]


@pytest.mark.parametrize("cfg, extra, version, code", [
    (LONGCAT, CP2 + ["--enable-prefill-cp", "--cp-strategy", "zigzag"], "0.5.23", "CP_MODEL"),
    (LONGCAT, CP2, "0.5.23", None),
    (LONGCAT, CP2 + ["--enable-prefill-cp", "--cp-strategy", "zigzag"], "0.5.20", None),  # 0.5.21 on
    (NEMOTRON, CP2, "0.5.23", "CP_MODEL"), (NEMOTRON, CP2, "0.5.20", None),
    (MIMO, ["--enable-prefill-cp", "--cp-strategy", "interleave"], "0.5.23", "CP_MODEL"),
    (MIMO, ["--enable-prefill-cp"], "0.5.23", "CP_MODEL"),  # before the --cp-strategy check
    (MIMO, ["--enable-prefill-cp", "--cp-strategy", "zigzag"], "0.5.23", None),
    (MIMO, ["--enable-prefill-cp", "--cp-strategy", "interleave"], "0.5.16", "CP_MODEL"),
    (DSV32, ["--enable-prefill-cp", "--cp-strategy", "zigzag"], "0.5.23", "CP_MODEL"),
    (DSV32, ["--enable-prefill-cp", "--cp-strategy", "zigzag"], "0.5.19", None),
])
def test_context_parallel_model_checks(cfg, extra, version, code):
    assert _cp_model(cfg, extra, version) == code


def test_mimo_cp_v2_env_gate():
    # 0.5.16-0.5.19 check MiMo V2's strategy only under SGLANG_ENABLE_CP_V2 (on by default for it)
    extra = ["--enable-prefill-cp", "--cp-strategy", "interleave"]
    assert _cp_model(MIMO, extra, "0.5.19", {"SGLANG_ENABLE_CP_V2": "0"}) is None
    assert _cp_model(MIMO, extra, "0.5.23", {"SGLANG_ENABLE_CP_V2": "0"}) == "CP_MODEL"


QWEN4 = {"architectures": ["Qwen4ExpForConditionalGeneration"], "model_type": "qwen3_next", "linear_num_key_heads": 4,
         "linear_num_value_heads": 8}
SHARE = ["--enable-prefill-cp", "--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2"]


@pytest.mark.parametrize("extra, env, version, code", [
    (SHARE, {}, "0.5.23", None),
    (SHARE + ["--tp-size", "4"], {}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--cp-strategy", "interleave"], {}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--speculative-algorithm", "NGRAM"], {}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--enable-mixed-chunk"], {}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--ep-size", "2"], {}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--disaggregation-mode", "decode"], {}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--disaggregation-mode", "prefill"], {}, "0.5.23", None),
    (SHARE + ["--disaggregation-mode", "prefill"], {"SGLANG_DISAGG_STAGING_BUFFER": "1"}, "0.5.23", "CP_TP_SHARING"),
    (SHARE + ["--attn-cp-size", "8", "--tp-size", "8"], {}, "0.5.23", "CP_TP_SHARING"),  # 4 linear key heads
    (SHARE + ["--enable-mixed-chunk"], {}, "0.5.22", None),  # 0.5.22 shares the group for GLM-5.3 Flash only
])
def test_cp_tp_group_sharing(extra, env, version, code):
    assert _cp_model(QWEN4, extra, version, env) == code
