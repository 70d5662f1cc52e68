"""The Muse Spark layernorm SP checks (rules_layernorm_sp.py) and the FlashInfer A2A / MegaMOE environment checks
(rules_moe.py) of session 14: each refusal, its accepted neighbour and the release traits. Every expectation here was
SGLang's own answer to the same flags and env in its kit (the differential runs, cases.HOOK_CHECK_EXTRA's lsp- and
moe- entries)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8", "--attention-backend", "triton"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}
QWEN3_MOE = dict(QWEN3, architectures=["Qwen3MoeForCausalLM"], model_type="qwen3_moe", num_experts=8)
MUSE = dict(QWEN3, architectures=["MuseSparkForConditionalGeneration"], num_hidden_layers=4, vocab_size=202048)
MEGAMOE = ["--enable-layernorm-sp", "--enable-megamoe-for-layernorm-sp", "--tp-size", "4", "--ep-size", "4",
           "--moe-runner-backend", "flashinfer_trtllm"]
FP4 = ["--enable-layernorm-sp", "--tp-size", "4", "--quantization", "modelopt_fp4", "--moe-a2a-backend", "flashinfer",
       "--moe-runner-backend", "flashinfer_trtllm"]
FI_A2A = ["--moe-a2a-backend", "flashinfer", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
CUTEDSL = ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--max-prefill-tokens", "0"]
FI_MEGAMOE = ["--moe-a2a-backend", "flashinfer_megamoe", "--quantization", "mxfp8", "--tp-size", "2", "--dp-size", "2",
              "--enable-dp-attention"]
NVFP4_OFF = {"SGLANG_MOE_NVFP4_DISPATCH": "0"}
W4A16 = {"SGLANG_FLASHINFER_CUTEDSL_NVFP4_W4A16": "1"}


def refusal(extra, target=MUSE, env=None, version="0.5.23", algo=None):
    argv = BASE + extra + (["--speculative-algorithm", algo, "--speculative-draft-model-path", "/d"] if algo else [])
    r = E.validate_argv(argv, version, env=env or {}, gpus=[], read_paths=False, target_config=target)
    return first_refusal(r)


@pytest.mark.parametrize("extra, env, code", [
    (["--enable-layernorm-sp", "--tp-size", "2"], None, "LAYERNORM_SP_MUSE"),  # TP2/EP1
    (["--enable-layernorm-sp", "--tp-size", "4", "--ep-size", "4"], None, "LAYERNORM_SP_MUSE"),  # BF16, no MegaMoE
    (["--enable-layernorm-sp", "--tp-size", "4", "--ep-size", "4", "--quantization", "modelopt_fp4"], None,
     "LAYERNORM_SP_MUSE"),  # no FlashInfer A2A
    (MEGAMOE[:6] + ["--moe-a2a-backend", "deepep"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE[:6], None, "LAYERNORM_SP_MUSE"),  # runner auto
    (MEGAMOE, None, None),
    (MEGAMOE + ["--enable-mixed-chunk"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE + ["--chunked-prefill-size", "32768"], None, None),  # 8192 tokens per rank: the buffer's default
    (MEGAMOE + ["--chunked-prefill-size", "32769"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE + ["--chunked-prefill-size", "-1"], None, None),  # --max-prefill-tokens' 16384
    (MEGAMOE + ["--chunked-prefill-size", "-1", "--max-prefill-tokens", "0"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE + ["--chunked-prefill-size", "-1", "--max-prefill-tokens", "40000"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE + ["--cuda-graph-backend-prefill", "breakable", "--chunked-prefill-size", "-1"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE + ["--cuda-graph-backend-prefill", "breakable", "--cuda-graph-bs-prefill", "512", "1024",
                "--chunked-prefill-size", "4096"], None, "LAYERNORM_SP_MUSE"),
    (MEGAMOE + ["--cuda-graph-backend-prefill", "breakable", "--cuda-graph-bs-prefill", "512", "4096",
                "--chunked-prefill-size", "4096"], None, None),
    (MEGAMOE + ["--cuda-graph-backend-prefill", "breakable", "--cuda-graph-max-bs-prefill", "1000",
                "--chunked-prefill-size", "960"], None, None),
    (MEGAMOE + ["--cuda-graph-backend-prefill", "breakable", "--cuda-graph-max-bs-prefill", "1000",
                "--chunked-prefill-size", "961"], None, "LAYERNORM_SP_MUSE"),  # the largest size is 960
    (FP4, None, "LAYERNORM_SP_MUSE"),  # the A2A hook turns NVFP4 dispatch on
    (FP4, {"SGLANG_MOE_NVFP4_DISPATCH": "1"}, "LAYERNORM_SP_MUSE"),
    (FP4, NVFP4_OFF, None),
    (FP4 + ["--dp-size", "2", "--enable-dp-attention"], NVFP4_OFF, "MOE_A2A_FLASHINFER"),  # no topology exemption
    (FP4 + ["--pp-size", "2"], NVFP4_OFF, "LAYERNORM_SP"),
    (FP4 + ["--flashinfer-a2a-dispatch-type", "bf16"], NVFP4_OFF, "MOE_A2A_FLASHINFER_ENV"),
    (FP4 + ["--flashinfer-a2a-dispatch-type", "bf16"], None, "LAYERNORM_SP_MUSE"),  # trtllm_routed
    (["--enable-layernorm-sp", "--tp-size", "8", "--quantization", "modelopt_fp4", "--moe-runner-backend",
      "flashinfer_trtllm", "--dp-size", "2", "--enable-dp-attention"], None, "LAYERNORM_SP_MUSE"),  # TP8/EP1
])
def test_muse_layernorm_sp(extra, env, code):
    assert refusal(extra, env=env) == code


def test_muse_speculation_dflash_only():
    assert refusal(MEGAMOE, algo="DFLASH") is None
    assert refusal(MEGAMOE + ["--speculative-num-steps", "3", "--speculative-eagle-topk", "1",
                              "--speculative-num-draft-tokens", "4"], algo="EAGLE3") == "LAYERNORM_SP"


def test_muse_checks_are_0_5_23s():
    # 0.5.19-0.5.22: Muse Spark is not an SP architecture, and FlashInfer A2A has no Muse topology exemption
    assert refusal(["--enable-layernorm-sp", "--tp-size", "4", "--ep-size", "4"], version="0.5.22") == "LAYERNORM_SP"
    assert refusal(FP4, env=NVFP4_OFF, version="0.5.22") == "MOE_A2A_FLASHINFER"


@pytest.mark.parametrize("version, code", [("0.5.21", None), ("0.5.22", "LAYERNORM_SP"), ("0.5.23", "LAYERNORM_SP")])
def test_layernorm_sp_pipeline_check_from_0_5_22(version, code):
    assert refusal(["--enable-layernorm-sp", "--tp-size", "2", "--pp-size", "2"], target=QWEN3, version=version) == code


def test_layernorm_sp_attention_dp():
    assert refusal(["--enable-layernorm-sp", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"],
                   target=QWEN3) == "LAYERNORM_SP"


@pytest.mark.parametrize("extra, env, code", [
    (FI_A2A + ["--flashinfer-a2a-dispatch-type", "bf16"], NVFP4_OFF, "MOE_A2A_FLASHINFER_ENV"),
    (FI_A2A + CUTEDSL, dict(W4A16, SGLANG_MOE_NVFP4_DISPATCH="1"), "MOE_A2A_FLASHINFER_ENV"),
    (FI_A2A + CUTEDSL + ["--flashinfer-a2a-dispatch-type", "nvfp4"], W4A16, "MOE_A2A_FLASHINFER_ENV"),
    (FI_A2A + CUTEDSL + ["--flashinfer-a2a-dispatch-type", "bf16"], W4A16, None),
    (FI_A2A + CUTEDSL, W4A16, None),
    (FI_MEGAMOE, dict(W4A16, SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE="mxfp8"), "MOE_A2A_MEGAMOE_ENV"),
    (FI_MEGAMOE, {"SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE": "fp32"}, "MOE_A2A_MEGAMOE_ENV"),
    (FI_MEGAMOE, {"SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE": "mxfp8",
                  "SGLANG_FLASHINFER_MEGAMOE_IN_KERNEL_FC2_REDUCE": "1"}, "MOE_A2A_MEGAMOE_ENV"),
    (FI_MEGAMOE, {"SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE": "mxfp8"}, "MOE_A2A_MEGAMOE"),  # then no SM100
    (FI_MEGAMOE + ["--dtype", "float16"], W4A16, "MOE_A2A_MEGAMOE_ENV"),
    (FI_MEGAMOE + ["--dtype", "bfloat16"], W4A16, "MOE_A2A_MEGAMOE"),  # then no SM100
])
def test_moe_env_checks(extra, env, code):
    assert refusal(extra, target=QWEN3_MOE, env=env) == code


def test_moe_env_check_releases():
    # the W4A16 MegaMOE checks are 0.5.23's; the combine-dtype ones 0.5.20's on; the CuTe DSL W4A16 one 0.5.19's on
    combine = dict(W4A16, SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE="mxfp8")
    assert refusal(FI_MEGAMOE, target=QWEN3_MOE, env=combine, version="0.5.22") == "MOE_A2A_MEGAMOE"
    bogus = {"SGLANG_FLASHINFER_MEGAMOE_COMBINE_DTYPE": "fp32"}
    assert refusal(FI_MEGAMOE, target=QWEN3_MOE, env=bogus, version="0.5.20") == "MOE_A2A_MEGAMOE_ENV"
    nvfp4 = dict(W4A16, SGLANG_MOE_NVFP4_DISPATCH="1")
    assert refusal(FI_A2A + CUTEDSL, target=QWEN3_MOE, env=nvfp4, version="0.5.19") == "MOE_A2A_FLASHINFER_ENV"
    assert refusal(FI_A2A + CUTEDSL, target=QWEN3_MOE, env=nvfp4, version="0.5.18") is None


SM90 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
SM120 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2


def budget(extra, gpus=(), version="0.5.23"):
    r = E.validate_argv(BASE + extra, version, gpus=list(gpus), read_paths=False, target_config=QWEN3_MOE)
    return first_refusal(r)


@pytest.mark.parametrize("extra, gpus, code", [
    (["--moe-a2a-backend", "megamoe"], SM120, "MOE_A2A_MEGAMOE"),
    (["--moe-a2a-backend", "megamoe"], SM90, None),
    (["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "-1"], SM90, "MOE_A2A_DISPATCH_BUDGET"),
    (["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "8192"], SM90, None),
    (["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "8193"], SM90, "MOE_A2A_DISPATCH_BUDGET"),
    (["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "2", "--tp-size", "2", "--dp-size", "2",
      "--enable-dp-attention"], SM90, "MOE_A2A_DISPATCH_BUDGET"),  # 2 // 2 per DP rank, then // 2: none per rank
    (["--moe-a2a-backend", "mori", "--chunked-prefill-size", "8192"], (), "MOE_A2A_DISPATCH_BUDGET"),
    (["--moe-a2a-backend", "mori", "--chunked-prefill-size", "4096"], (), None),
    (["--moe-a2a-backend", "pplx", "--chunked-prefill-size", "512"] + FI_A2A[2:], (), "MOE_A2A_DISPATCH_BUDGET"),
    (["--moe-a2a-backend", "pplx", "--chunked-prefill-size", "256"] + FI_A2A[2:], (), None),  # 128 per DP rank
    (FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "-1"], (),
     "MOE_A2A_DISPATCH_BUDGET"),
    (FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "4096"], (), None),
])
def test_a2a_token_budgets(extra, gpus, code):
    assert budget(extra, gpus) == code


def test_a2a_token_budget_releases():
    # MegaMoE's prefill budget from 0.5.21, FlashInfer A2A's chunked prefill from 0.5.22, MoRI's in every release
    assert budget(["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "-1"], SM90, "0.5.20") is None
    assert budget(FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "-1"],
                  (), "0.5.21") is None
    assert budget(["--moe-a2a-backend", "mori", "--chunked-prefill-size", "8192"], (), "0.5.11") == \
        "MOE_A2A_DISPATCH_BUDGET"


def spec(extra, algo, version="0.5.23"):
    argv = BASE + extra + ["--speculative-algorithm", algo, "--speculative-draft-model-path", "/d",
                           "--speculative-num-draft-tokens", "4", "--speculative-num-steps", "3",
                           "--speculative-eagle-topk", "1"]
    r = E.validate_argv(argv, version, gpus=[], read_paths=False, target_config=QWEN3_MOE)
    return first_refusal(r)


@pytest.mark.parametrize("extra, code", [
    (["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128"], None),
    (["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "129"], "MOE_A2A_DISPATCH_BUDGET"),
    (["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "-1"], "MOE_A2A_DISPATCH_BUDGET"),  # 16384
    (["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "256", "--tp-size", "2"], None),  # 2 TP ranks
    (["--moe-a2a-backend", "deepep_v2", "--nnodes", "2", "--chunked-prefill-size", "128"], "MOE_A2A_DEEPEP_V2"),
])
def test_deepep_v2_budget(extra, code):
    assert budget(extra) == code


def test_deepep_v2_budget_scatter_from_0_5_22():
    assert budget(["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "256", "--tp-size", "2"],
                  version="0.5.21") == "MOE_A2A_DISPATCH_BUDGET"


def test_deepep_v2_draft_backend():
    extra = ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128"]
    assert spec(extra, "EAGLE3") == "MOE_A2A_DEEPEP_V2"
    assert spec(extra + ["--speculative-moe-a2a-backend", "deepep"], "EAGLE3") is None
    assert spec(extra, "EAGLE3", version="0.5.19") == "MOE_A2A_DEEPEP_V2"


def test_cutedsl_per_token_nvfp4_deepep():
    sm100 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2
    assert budget(["--quantization", "nvfp4_online", "--moe-runner-backend", "flashinfer_cutedsl", "--moe-a2a-backend",
                   "deepep"], sm100) == "MOE_RUNNER_A2A"


def test_decode_graph_budgets():
    def decode(extra, gpus=()):
        r = E.validate_argv(["--model-path", "/m", "--device", "cuda", "--attention-backend", "triton"] + extra,
                            "0.5.23", gpus=list(gpus), read_paths=False, target_config=QWEN3_MOE)
        if not r.sglang_verdict["accepted"]:
            return r.sglang_verdict["code"]
        codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input")]
        return codes[0] if codes else None
    megamoe = ["--moe-a2a-backend", "megamoe", "--chunked-prefill-size", "4096", "--cuda-graph-max-bs-decode"]
    assert decode(megamoe + ["8200"], SM90) == "MOE_A2A_DISPATCH_BUDGET"
    assert decode(megamoe + ["8192"], SM90) is None
    assert decode(megamoe + ["8200", "--max-running-requests", "8"], SM90) is None  # the request pool caps the graph
    deepep_v2 = ["--moe-a2a-backend", "deepep_v2", "--chunked-prefill-size", "128", "--cuda-graph-max-bs-decode"]
    assert decode(deepep_v2 + ["200"]) == "MOE_A2A_DISPATCH_BUDGET"
    assert decode(deepep_v2 + ["128"]) is None


def test_flashinfer_a2a_workspace():
    def code(extra, version="0.5.23"):  # no request cap: the decode graph takes the batch size given
        r = E.validate_argv(["--model-path", "/m", "--device", "cuda", "--attention-backend", "triton"] + extra,
                            version, gpus=[], read_paths=False, target_config=QWEN3_MOE)
        if not r.sglang_verdict["accepted"]:
            return r.sglang_verdict["code"]
        codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input")]
        return codes[0] if codes else None
    fi = FI_A2A + ["--moe-runner-backend", "flashinfer_cutlass", "--chunked-prefill-size", "1024",
                   "--cuda-graph-max-bs-decode"]
    assert code(fi + ["5000"]) == "MOE_A2A_DISPATCH_BUDGET"  # the workspace is at least 4096 tokens
    assert code(fi + ["4096"]) is None
    assert code(fi + ["5000"], version="0.5.21") is None
