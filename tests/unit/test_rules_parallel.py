"""The parallelism, MoE kernel and KV-sharding rules (rules_parallel.py, rules_moe.py, rules_kv_shard.py): each
refusal, the value next to it that SGLang accepts, their place before the speculative hook, and the release traits.
Every refusal expected here was SGLang's own answer to the same flags in its kit (the differential runs of 0.5.12,
0.5.17, 0.5.20, 0.5.22, 0.5.23; 0.5.16's DCP check by a direct resolution); the MLA case is what the engine leaves
to the host."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

DFLASH = ["--model-path", "/m", "--device", "cuda", "--speculative-algorithm", "DFLASH",
          "--speculative-draft-model-path", "/d", "--speculative-num-draft-tokens", "16", "--max-running-requests", "8",
          "--attention-backend", "triton"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}


def refusal(extra, version="0.5.23", gpus=(), target=QWEN3):
    r = E.validate_argv(DFLASH + extra, version, gpus=list(gpus), read_paths=False, target_config=target)
    return first_refusal(r)


@pytest.mark.parametrize("extra, code", [
    (["--dcp-size", "0"], "DCP_SIZE"),
    (["--dcp-size", "2", "--enable-prefill-cp"], "DCP_PREFILL_CP"),
    (["--dcp-comm-backend", "a2a"], "DCP_COMM_BACKEND"),
    (["--dcp-size", "2", "--tp-size", "2", "--dcp-comm-backend", "fi_a2a"], "DCP_COMM_BACKEND"),  # no CUDA GPU
    (["--dcp-replicate-q-proj"], "DCP_REPLICATE_Q_PROJ"),
    (["--dcp-size", "2", "--tp-size", "2", "--dcp-replicate-q-proj"], "DCP_REPLICATE_Q_PROJ"),  # ag_rs without CUDA
    (["--dcp-size", "2", "--tp-size", "2", "--dcp-replicate-q-proj", "--dcp-comm-backend", "a2a"], None),
    (["--dwdp-size", "2"], "DWDP"), (["--dwdp-size", "2", "--tp-size", "2"], "DWDP"), (["--dwdp-size", "1"], None),
    (["--attn-dp-size", "0"], "ATTN_DP_SIZE"), (["--attn-dp-size", "2", "--dp-size", "2"], "ATTN_DP_SIZE"),
    (["--attn-dp-size", "2"], "DP_ATTENTION_TP"),
    (["--enable-prefill-cp"], "CP_STRATEGY"), (["--enable-prefill-cp", "--cp-strategy", "zigzag"], None),
    (["--attn-cp-size", "2"], "CP_TOPOLOGY"), (["--attn-cp-size", "2", "--tp-size", "2"], None),
    (["--attn-cp-size", "2", "--tp-size", "4", "--dp-size", "4"], None),  # replicas: attention DP width 1
    (["--moe-dp-size", "2", "--tp-size", "2", "--pp-size", "2"], "CP_TOPOLOGY"),  # before DFLASH_PP
    (["--moe-dp-size", "2", "--tp-size", "4", "--ep-size", "4"], "CP_TOPOLOGY"),
    (["--moe-dp-size", "2", "--attn-cp-size", "2", "--tp-size", "2"], None),
    (["--enable-kv-cache-sharding"], "KV_SHARDING_PREFILL_ONLY"),
    (["--enable-kv-cache-sharding", "--disaggregation-mode", "prefill"], "KV_SHARDING_SPECULATIVE"),
    (["--moe-runner-backend", "flashinfer_cutlass", "--quantization", "fp8"], "MOE_RUNNER_QUANTIZATION"),
    (["--moe-runner-backend", "flashinfer_cutlass", "--quantization", "modelopt_fp8"], None),
    (["--moe-runner-backend", "flashinfer_cutlass", "--ep-size", "2"], "MOE_RUNNER_EP_SIZE"),
    (["--moe-runner-backend", "flashinfer_cutlass", "--ep-size", "2", "--tp-size", "2"], None),
    (["--moe-runner-backend", "cutlass", "--quantization", "fp8", "--ep-size", "2", "--tp-size", "2"], "MOE_RUNNER_EP_SIZE"),
    (["--shared-experts-tp-size", "0"], "SHARED_EXPERTS_TP"), (["--shared-experts-tp-size", "1"], "SHARED_EXPERTS_TP"),
    (["--ep-dispatch-algorithm", "static"], "EP_DISPATCH_ALGORITHM"), (["--ep-dispatch-algorithm", "dynamic"], None),
    (["--enable-eplb"], "EPLB_EP_SIZE"), (["--enable-eplb", "--ep-size", "2", "--tp-size", "2"], None),
    (["--elastic-ep-join-mode", "recover"], "ELASTIC_EP"),
    (["--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale"], "ELASTIC_EP"),
    (["--elastic-ep-join-rank-offset", "2"], "ELASTIC_EP"), (["--max-ep-size", "4"], "ELASTIC_EP"),
    (["--elastic-ep-backend", "mooncake", "--max-ep-size", "0"], "ELASTIC_EP"),
    (["--elastic-ep-initial-size", "2"], "ELASTIC_EP"),
    (["--elastic-ep-backend", "none", "--pp-size", "2"], "ELASTIC_EP"),  # "none" counts as set; before DFLASH_PP
    (["--elastic-ep-backend", "mooncake"], None),
])
def test_parallel_refusals_0_5_23(extra, code):
    assert refusal(extra) == code


def test_kv_sharding_without_speculation_on_a_gqa_model_is_refused():
    argv = ["--model-path", "/m", "--device", "cuda", "--enable-kv-cache-sharding", "--disaggregation-mode", "prefill"]
    r = E.validate_argv(argv, "0.5.23", gpus=[], read_paths=False, target_config=QWEN3)
    assert r.sglang_verdict["code"] == "KV_SHARDING"
    # an MLA model shards over plain TP with a trtllm_mla prefill backend (tests/unit/test_rules_kv_shard.py)
    mla = dict(QWEN3, architectures=["DeepseekV3ForCausalLM"], kv_lora_rank=512)
    r = E.validate_argv(argv + ["--prefill-attention-backend", "trtllm_mla", "--tp-size", "2", "--page-size", "64"],
                        "0.5.23", gpus=[], read_paths=False, target_config=mla)
    assert r.sglang_verdict["accepted"]


def test_dcp_fi_a2a_and_replicate_on_a_cuda_host():
    gpus = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
    assert refusal(["--dcp-size", "2", "--tp-size", "2", "--dcp-comm-backend", "fi_a2a"], gpus=gpus) is None
    assert refusal(["--dcp-size", "2", "--tp-size", "2", "--dcp-replicate-q-proj"], gpus=gpus) is None
    # 0.5.17-0.5.19: the field defaults to ag_rs whatever the platform
    assert refusal(["--dcp-size", "2", "--tp-size", "2", "--dcp-replicate-q-proj"], "0.5.17", gpus=gpus) == \
        "DCP_REPLICATE_Q_PROJ"


def test_release_traits():
    # --dcp-size > 1 with --enable-prefill-cp: refused by DCP from 0.5.22, before that the CP strategy answers
    assert refusal(["--dcp-size", "2", "--enable-prefill-cp"], "0.5.20") == "CP_STRATEGY"
    # the attention-CP divisor: --dp-size before 0.5.22
    assert refusal(["--attn-cp-size", "2", "--tp-size", "4", "--dp-size", "4"], "0.5.20") == "CP_TOPOLOGY"
    # static / lp dispatch refused from 0.5.17
    assert refusal(["--ep-dispatch-algorithm", "static"], "0.5.12") is None
    assert refusal(["--ep-dispatch-algorithm", "static"], "0.5.17") == "EP_DISPATCH_ALGORITHM"
    # 0.5.11-0.5.13 parse --ep-size / --attn-cp-size / --moe-dp-size into other dests (releases.DEST_ALIASES)
    assert refusal(["--enable-eplb", "--ep-size", "2", "--tp-size", "2"], "0.5.12") is None
    assert refusal(["--attn-cp-size", "2"], "0.5.12") == "CP_TOPOLOGY"
    # 0.5.15-0.5.16: DCP > 1 only on HIP, or on CUDA without speculation
    assert refusal(["--dcp-size", "2", "--tp-size", "2"], "0.5.16") == "DCP_PLATFORM"
    # 0.5.22: KV sharding takes no speculation at all
    assert refusal(["--enable-kv-cache-sharding", "--disaggregation-mode", "prefill"], "0.5.22") == \
        "KV_SHARDING_SPECULATIVE"


# -- engfix (session 15) --
PLAIN = ["--model-path", "/m", "--device", "cuda"]
JOINER = ["--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale", "--elastic-ep-join-rank-offset", "1",
          "--node-rank", "1", "--nnodes", "2"]


def answer(argv, version):
    """(argument-time refusal or None, every error code) of the engine for `argv`."""
    r = E.validate_argv(argv, version, gpus=[], read_paths=False, target_config=QWEN3)
    return first_refusal(r), [e["code"] for e in r.errors]


@pytest.mark.parametrize("version", ["0.5.11", "0.5.16", "0.5.21", "0.5.22", "0.5.23"])
@pytest.mark.parametrize("flag", ["--pp-size", "--tp-size", "--dp-size"])
@pytest.mark.parametrize("value", ["0", "-1"])
def test_parallel_size_below_one_is_a_launch_error(version, flag, value):
    """Every release accepts a size below 1 at argument time (observed in each kit); the launch fails, so the engine
    still reports PARALLEL_SIZE, at stage load."""
    code, codes = answer(PLAIN + [flag, value], version)
    assert code is None and "PARALLEL_SIZE" in codes
    r = E.validate_argv(PLAIN + [flag, value], version, gpus=[], read_paths=False, target_config=QWEN3)
    assert [e["stage"] for e in r.errors if e["code"] == "PARALLEL_SIZE"] == ["load"]


@pytest.mark.parametrize("version, dp0, dpneg", [
    ("0.5.11", "DP_ATTENTION_TP", None), ("0.5.21", "DP_ATTENTION_TP", None),  # tp_size % 0: ZeroDivisionError
    ("0.5.22", "ATTN_DP_SIZE", "ATTN_DP_SIZE"), ("0.5.23", "ATTN_DP_SIZE", "ATTN_DP_SIZE"),  # --attn-dp-size >= 1
])
def test_attention_dp_width_below_one(version, dp0, dpneg):
    assert answer(PLAIN + ["--dp-size", "0", "--enable-dp-attention"], version)[0] == dp0
    assert answer(PLAIN + ["--dp-size", "-1", "--enable-dp-attention"], version)[0] == dpneg
    assert answer(PLAIN + ["--tp-size", "0", "--dp-size", "2", "--enable-dp-attention"], version)[0] is None


@pytest.mark.parametrize("version, code", [
    ("0.5.16", None), ("0.5.21", None),  # the flag, which a joiner does not set
    ("0.5.22", "DFLASH_DP_ATTENTION"),  # attn_dp_enabled_of counts the joiner: refused off NPU
    ("0.5.23", "DFLASH_DP_LM_HEAD"),
])
def test_dflash_elastic_ep_scale_joiner_is_attention_dp(version, code):
    assert refusal(JOINER, version) == code


@pytest.mark.parametrize("version", ["0.5.11", "0.5.16", "0.5.21", "0.5.22", "0.5.23"])
def test_dflash_dp_attention_flag_at_dp_size_one(version):
    """--enable-dp-attention at --dp-size 1 is dropped by the data-parallel defaults: DFLASH never sees attention DP."""
    assert refusal(["--enable-dp-attention"], version) is None
    assert refusal(["--enable-dp-attention", "--dp-size", "2", "--tp-size", "2"], version) in (
        "DFLASH_DP_ATTENTION", "DFLASH_DP_LM_HEAD")


@pytest.mark.parametrize("version, dp2, joiner", [
    ("0.5.11", "LM_HEAD_DP", None), ("0.5.16", "LM_HEAD_DP", "LM_HEAD_DP"), ("0.5.21", "LM_HEAD_DP", "LM_HEAD_DP"),
    ("0.5.22", "LM_HEAD_DP", "DFLASH_DP_ATTENTION"), ("0.5.23", "LM_HEAD_DP", None),
])
def test_dp_lm_head_needs_attention_dp(version, dp2, joiner):
    """The data-parallel hook's last check: --enable-dp-lm-head kept by several DP ranks (or, 0.5.16 on, a scale joiner)
    needs attention DP (the flag before 0.5.22, attn_dp_enabled_of after, which counts the joiner); one rank drops it."""
    assert answer(PLAIN + ["--dp-size", "2", "--enable-dp-lm-head"], version)[0] == dp2
    assert answer(PLAIN + ["--enable-dp-lm-head"], version)[0] is None
    assert answer(PLAIN + ["--dp-size", "2", "--tp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"],
                  version)[0] is None
    if version != "0.5.11":  # no Elastic EP join flags there
        assert refusal(JOINER + ["--enable-dp-lm-head"], version) == joiner


# -- old-b (session 15) --
@pytest.mark.parametrize("extra, version, code", [
    # 0.5.11-0.5.15: --elastic-ep-rejoin requires a backend; 0.5.16-0.5.20: it stands for --elastic-ep-join-mode
    # recover (which requires one) and refuses another join mode; gone from the parser in 0.5.21
    (["--elastic-ep-rejoin"], "0.5.15", "ELASTIC_EP"), (["--elastic-ep-rejoin"], "0.5.16", "ELASTIC_EP"),
    (["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake"], "0.5.15", None),
    (["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake"], "0.5.20", None),
    (["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "scale"], "0.5.19",
     "ELASTIC_EP"),
    (["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode", "recover"], "0.5.19", None),
])
def test_elastic_ep_rejoin(extra, version, code):
    assert refusal(extra, version=version) == code


def test_elastic_ep_rejoin_messages():
    r = E.validate_argv(DFLASH + ["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake", "--elastic-ep-join-mode",
                                  "scale"], "0.5.17", gpus=[], read_paths=False, target_config=QWEN3)
    assert "--elastic-ep-rejoin (deprecated) conflicts with --elastic-ep-join-mode scale" in r.sglang_verdict["message"]


@pytest.mark.parametrize("extra, version, code", [
    # pd_disaggregation_hook.py (trait pd_decode_dcp): a decode server's DCP transfer backends, then the chunk cache
    (["--disaggregation-transfer-backend", "fake"], "0.5.17", "PD_DECODE_DCP"),
    (["--disaggregation-transfer-backend", "fake"], "0.5.19", None),
    (["--disaggregation-transfer-backend", "mori"], "0.5.21", "PD_DECODE_DCP"),
    (["--disaggregation-transfer-backend", "mori"], "0.5.22", None),
    (["--disaggregation-decode-enable-radix-cache"], "0.5.20", "PD_DECODE_DCP"),
    (["--disaggregation-decode-enable-radix-cache"], "0.5.21", None),
    ([], "0.5.17", None),
])
def test_pd_decode_dcp(extra, version, code):
    argv = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8", "--disaggregation-mode", "decode",
            "--dcp-size", "2", "--tp-size", "2"]
    r = E.validate_argv(argv + extra, version, gpus=[], read_paths=False, target_config=QWEN3)
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input") and e["code"] != "GPU_COUNT"]
    got = r.sglang_verdict["code"] if not r.sglang_verdict["accepted"] else (codes[0] if codes else None)
    assert got == code


# -- session 16 --: every speculative / TBO / PP-spec attention-DP refusal reads attention DP as
# rules_parallel.attn_dp_enabled does (observed in the 0.5.11-0.5.23 kits with tests/oracle's resolver)
NGRAM = ["--speculative-algorithm", "NGRAM", "--attention-backend", "triton"]
STANDALONE = ["--speculative-algorithm", "STANDALONE", "--speculative-draft-model-path", "/d", "--speculative-num-steps",
              "3", "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4", "--attention-backend", "triton"]
TBO = ["--enable-two-batch-overlap", "--attention-backend", "triton"]


@pytest.mark.parametrize("version, extra, dp, code", [
    # --dp-size 1 drops --enable-dp-attention before these checks
    ("0.5.11", NGRAM, ["--enable-dp-attention"], None), ("0.5.21", NGRAM, ["--enable-dp-attention"], None),
    ("0.5.21", NGRAM, ["--enable-dp-attention", "--dp-size", "2", "--tp-size", "2"], "NGRAM_ARGS"),
    ("0.5.16", TBO, ["--enable-dp-attention"], "TWO_BATCH_OVERLAP"),
    ("0.5.21", TBO, ["--enable-dp-attention", "--dp-size", "2", "--tp-size", "2"], None),
    # an Elastic EP scale joiner keeps the flag at --dp-size 1 (0.5.16-0.5.21) and counts as attention DP (0.5.22 on)
    ("0.5.16", STANDALONE, JOINER + ["--enable-dp-attention"], "STANDALONE_DP_ATTENTION"),
    ("0.5.21", STANDALONE, JOINER, None),
    ("0.5.22", STANDALONE, JOINER, "STANDALONE_DP_ATTENTION"), ("0.5.23", NGRAM, JOINER, "NGRAM_ARGS"),
    ("0.5.23", TBO, JOINER, None),
    # --attn-dp-size 2 is attention DP for STANDALONE too (0.5.22 on)
    ("0.5.23", STANDALONE, ["--attn-dp-size", "2", "--tp-size", "2"], "STANDALONE_DP_ATTENTION"),
])
def test_attention_dp_read_once(version, extra, dp, code):
    assert answer(PLAIN + extra + dp, version)[0] == code


# -- cache (session 16) --: handle_expert_distribution_metrics refuses the old env switch, whatever its value, in
# 0.5.18-0.5.20 (trait eplb_balancedness_env_refused), with or without any expert-parallel flag
@pytest.mark.parametrize("version,extra,want", [
    ("0.5.17", [], None), ("0.5.18", [], "EPLB_BALANCEDNESS_ENV"), ("0.5.20", ["--ep-size", "2"], "EPLB_BALANCEDNESS_ENV"),
    ("0.5.20", ["--enable-eplb"], "EPLB_EP_SIZE"),  # the EPLB hook refuses first
    ("0.5.21", [], None),
])
def test_eplb_balancedness_env(version, extra, want):
    r = E.validate_argv(["--model-path", "/m"] + extra, version, env={"SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC": "0"},
                        gpus=[], target_config=QWEN3, read_paths=False)
    assert r.sglang_verdict["code"] == want


# -- dsa (session 16) --
@pytest.mark.parametrize("version, code", [("0.5.13", "CP_STRATEGY"), ("0.5.16", "CP_STRATEGY"),
                                           ("0.5.19", "CP_STRATEGY")])
def test_legacy_prefill_cp_flags_mutually_exclusive(version, code):
    """0.5.13-0.5.18 server_args.py _handle_context_parallelism, 0.5.19 parallel_hook.py: the legacy
    --enable-prefill-context-parallel with --enable-dsa-prefill-context-parallel (trait cp_legacy_flags_exclusive)."""
    both = ["--enable-prefill-context-parallel", "--enable-nsa-prefill-context-parallel"]  # the NSA alias from 0.5.13
    assert refusal(both, version) == code
    assert refusal(both[:1], version) is None


# -- new19 (session 17) --
GLM5 = {"architectures": ["Glm5NextForConditionalGeneration"], "model_type": "qwen3_next", "num_hidden_layers": 4,
        "vocab_size": 1000, "max_position_embeddings": 4096, "kv_lora_rank": 64, "linear_num_key_heads": 4,
        "linear_num_value_heads": 8}
SM120 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2
GLM_CP = ["--model-path", "/m", "--device", "cuda", "--attention-backend", "fa3", "--enable-prefill-cp"]


@pytest.mark.parametrize("version,extra,code", [
    # cp_tp_group_sharing_hook.py: the DeepSeek family's MLA prefill CP override widens the CP size to TP / attention DP
    ("0.5.23", ["--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "4"], None),
    ("0.5.22", ["--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "4", "--attn-dp-size", "2"],
     "CP_TP_SHARING"),
    # 0.5.22: no DFLASH, any PD mode refused
    ("0.5.22", ["--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "2", "--speculative-algorithm",
                "DFLASH", "--speculative-draft-model-path", "/d"], "CP_TP_SHARING"),
    ("0.5.22", ["--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "2", "--disaggregation-mode",
                "prefill"], "CP_TP_SHARING"),
    ("0.5.22", ["--cp-strategy", "zigzag", "--attn-cp-size", "2", "--tp-size", "2"], "CP_TP_SHARING"),
    ("0.5.22", ["--cp-strategy", "interleave", "--attn-cp-size", "2", "--tp-size", "2"], None),
])
def test_cp_tp_group_sharing_glm(version, extra, code):
    r = E.validate_argv(GLM_CP + extra, version, gpus=list(SM120), target_config=GLM5, read_paths=False)
    assert r.sglang_verdict["code"] == code
