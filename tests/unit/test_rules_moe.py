"""The MoE kernel, a2a and architecture-only flag rules (rules_moe.py, rules_model.py): each refusal a user sees,
the accepted neighbour, and the release traits. Every expectation here was SGLang's own answer to the same flags in
its kit (the differential runs of 0.5.11-0.5.23, cases.MOE_CHECK_EXTRA)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E
from engine_answer import first_refusal

DFLASH = ["--model-path", "/m", "--device", "cuda", "--speculative-algorithm", "DFLASH",
          "--speculative-draft-model-path", "/d", "--speculative-num-draft-tokens", "16", "--max-running-requests", "8",
          "--attention-backend", "triton"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}
QWEN3_MOE = dict(QWEN3, architectures=["Qwen3MoeForCausalLM"], model_type="qwen3_moe", num_experts=8)
DP_ATTN = ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
SM120 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2


def refusal(extra, version="0.5.23", gpus=(), target=QWEN3):
    r = E.validate_argv(DFLASH + extra, version, gpus=list(gpus), read_paths=False, target_config=target)
    return first_refusal(r)


@pytest.mark.parametrize("extra, code", [
    (["--moe-runner-backend", "flashinfer_cutedsl"], "MOE_RUNNER_QUANTIZATION"),
    (["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4"], None),
    (["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--ep-size", "2"],
     "MOE_RUNNER_EP_SIZE"),
    (["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--moe-a2a-backend", "mooncake"],
     "MOE_RUNNER_A2A"),
    (["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--moe-a2a-backend", "deepep",
      "--deepep-mode", "normal"], "MOE_RUNNER_A2A"),
    (["--moe-runner-backend", "flashinfer_trtllm", "--quantization", "awq"], "MOE_RUNNER_QUANTIZATION"),
    (["--moe-runner-backend", "flashinfer_trtllm", "--quantization", "fp8"], None),
    (["--moe-runner-backend", "flashinfer_trtllm_routed", "--quantization", "awq"], "MOE_RUNNER_QUANTIZATION"),
    (["--quantization", "nvfp4_online"], "MOE_NVFP4_ONLINE"),  # no SM100
    (["--quantization", "mxfp8", "--moe-runner-backend", "triton"], None),  # overridden to flashinfer_trtllm
    (["--quantization", "mxfp8", "--moe-runner-backend", "cutlass", "--ep-size", "2", "--tp-size", "2"],
     "MOE_RUNNER_EP_SIZE"),
    (["--flashinfer-a2a-dispatch-type", "bf16"], "MOE_A2A_FLASHINFER"),
    (["--moe-a2a-backend", "flashinfer", "--tp-size", "2"], "MOE_A2A_FLASHINFER"),
    (["--moe-a2a-backend", "flashinfer"] + DP_ATTN, "MOE_A2A_FLASHINFER"),  # runner auto
    (["--moe-a2a-backend", "flashinfer_megamoe"], "MOE_A2A_MEGAMOE"),  # a dense target
    (["--moe-a2a-backend", "megamoe", "--enable-two-batch-overlap"], "MOE_A2A_MEGAMOE"),
    (["--moe-a2a-backend", "deepep_v2", "--moe-runner-backend", "triton"], "MOE_A2A_DEEPEP_V2"),
    (["--moe-a2a-backend", "pplx", "--deepep-mode", "normal"], "MOE_A2A_PPLX"),
    (["--moe-a2a-backend", "pplx"], "MOE_A2A_PPLX"),
    (["--moe-a2a-backend", "pplx", "--moe-runner-backend", "triton"] + DP_ATTN, "MOE_A2A_PPLX"),
    (["--enable-eplb", "--moe-a2a-backend", "deepep", "--tp-size", "2"], None),  # deepep sets ep_size = tp_size
    (["--enable-eplb", "--moe-a2a-backend", "mooncake"], "EPLB_EP_SIZE"),
    (["--enable-dsa-cache-layer-split"], "MODEL_ARCHITECTURE_FLAG"),
    (["--enable-cp-decode-attn-tp"], "MODEL_ARCHITECTURE_FLAG"),
])
def test_moe_refusals(extra, code):
    assert refusal(extra) == code


def test_moe_target_architecture_lists():
    assert refusal(["--moe-a2a-backend", "flashinfer_megamoe"], target=QWEN3_MOE) == "MOE_A2A_MEGAMOE"  # quantization
    assert refusal(["--moe-a2a-backend", "deepep_v2", "--enable-two-batch-overlap"], target=QWEN3_MOE) == \
        "MOE_A2A_DEEPEP_V2"


def test_release_traits():
    # 0.5.11: FlashInfer A2A takes flashinfer_cutlass only, no topology check; cutedsl no flashinfer a2a
    assert refusal(["--moe-a2a-backend", "flashinfer", "--tp-size", "2", "--moe-runner-backend", "flashinfer_cutlass"],
                   version="0.5.11") is None
    assert refusal(["--moe-a2a-backend", "flashinfer", "--tp-size", "2", "--moe-runner-backend", "flashinfer_cutlass"],
                   version="0.5.13") == "MOE_A2A_FLASHINFER"
    # cutedsl + DeepEP normal refused from 0.5.17
    args = ["--moe-runner-backend", "flashinfer_cutedsl", "--quantization", "modelopt_fp4", "--moe-a2a-backend",
            "deepep", "--deepep-mode", "normal"]
    assert refusal(args, version="0.5.16") is None
    assert refusal(args, version="0.5.17") == "MOE_RUNNER_A2A"
    # megamoe with TBO: first in the pipeline from 0.5.21
    assert refusal(["--moe-a2a-backend", "megamoe", "--enable-two-batch-overlap"], version="0.5.16") is None
    # modelopt_fp4 resolves to flashinfer_cutlass on SM120 from 0.5.13: EP 2 with TP 1 refused there
    assert refusal(["--quantization", "modelopt_fp4", "--ep-size", "2"], version="0.5.23", gpus=SM120) == \
        "MOE_RUNNER_EP_SIZE"
    assert refusal(["--quantization", "modelopt_fp4", "--ep-size", "2"], version="0.5.11", gpus=SM120) is None


# -- new19 (session 17) --
@pytest.mark.parametrize("version,extra,env,code", [
    # moe_hook.py validate_cutedsl_a2a_token_budget (0.5.19-0.5.21): 1024 tokens per rank * EP 2 < 16384
    ("0.5.20", [], {}, "MOE_A2A_DISPATCH_BUDGET"),
    ("0.5.21", ["--max-prefill-tokens", "2048"], {}, None),
    ("0.5.19", ["--max-prefill-tokens", "2049"], {}, "MOE_A2A_DISPATCH_BUDGET"),
    ("0.5.20", [], {"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK": "8192"}, None),
    ("0.5.21", ["--disaggregation-mode", "decode"], {}, None),
    ("0.5.22", [], {}, None),  # validate_flashinfer_a2a_token_budget instead
    # -- moe18 (session 18) --: 0.5.13-0.5.18 srt/server_args.py _validate_cutedsl_a2a_token_budget; the env read by
    # get_int_env_var through 0.5.16 (0 is a zero budget, a non-integer the 1024 default), then 0 is 1024 too
    ("0.5.13", [], {}, "MOE_A2A_DISPATCH_BUDGET"),
    ("0.5.18", ["--max-prefill-tokens", "2049"], {}, "MOE_A2A_DISPATCH_BUDGET"),
    ("0.5.16", ["--max-prefill-tokens", "2048"], {"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK": "0"},
     "MOE_A2A_DISPATCH_BUDGET"),
    ("0.5.14", ["--max-prefill-tokens", "2048"], {"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK": "x"}, None),
    ("0.5.17", ["--max-prefill-tokens", "2048"], {"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK": "0"}, None),
])
def test_cutedsl_a2a_token_budget(version, extra, env, code):
    argv = ["--model-path", "/m", "--device", "cuda", "--attention-backend", "triton", "--moe-a2a-backend", "flashinfer",
            "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--moe-runner-backend", "flashinfer_cutedsl",
            "--quantization", "modelopt_fp4"] + extra
    r = E.validate_argv(argv, version, env=env, target_config=QWEN3_MOE, read_paths=False)
    assert r.sglang_verdict["code"] == code
