"""GPU-platform rules (sglang_engine/rules_platform.py and resolve.py's attention section): the code a user sees."""
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S

B200 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2
RTX = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2


def run(version, gpus, *argv):
    return S.validate_argv(["--model-path", "/m", "--device", "cuda"] + list(argv), version, gpus=gpus,
                           read_paths=False)


def test_sm100_default_attention_is_trtllm_mha_from_0_5_19():
    r = run("0.5.23", B200)
    assert r.resolved["attention_backend"] == "trtllm_mha" and r.resolved["page_size"] == 64
    assert run("0.5.23", B200, "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d",
               "--speculative-num-steps", "3", "--speculative-eagle-topk", "2",
               "--speculative-num-draft-tokens", "4").resolved["attention_backend"] == "flashinfer"


def test_deterministic_inference_attention_backend():
    assert run("0.5.23", [], "--enable-deterministic-inference").resolved["attention_backend"] == "fa3"
    assert run("0.5.23", RTX, "--enable-deterministic-inference").resolved["attention_backend"] == "flashinfer"
    r = run("0.5.23", RTX, "--enable-deterministic-inference", "--attention-backend", "torch_native")
    assert r.sglang_verdict["code"] == "DETERMINISTIC_ATTENTION_BACKEND"


def test_trtllm_mha_prefill_cp_needs_sm100():
    argv = ("--attention-backend", "trtllm_mha", "--attn-cp-size", "2", "--tp-size", "2")
    assert run("0.5.23", RTX, *argv).sglang_verdict["code"] == "TRTLLM_MHA_PREFILL_CP"
    assert run("0.5.23", B200, *argv).sglang_verdict["accepted"]


def test_dflash_dp_attention_context_parallel():
    r = run("0.5.23", [], "--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d", "--tp-size", "4",
            "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head", "--attn-cp-size", "2")
    assert r.sglang_verdict["code"] == "DFLASH_DP_CP"


def test_rejection_sampling_deterministic_by_release():
    argv = ("--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
            "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4",
            "--speculative-use-rejection-sampling", "--enable-deterministic-inference")
    assert run("0.5.22", [], *argv).sglang_verdict["code"] == "REJECTION_SAMPLING_DETERMINISTIC"
    assert run("0.5.23", [], *argv).sglang_verdict["accepted"]


# -- engfix (session 15) --
def test_device_mps():
    """0.5.22 on, ServerArgs.resolve_once validates the MPS runtime before the pipeline (validate_mps_runtime: an
    available PyTorch MPS device, which no Linux host has); earlier releases pass --device mps and fail at launch."""
    for version, code in (("0.5.11", None), ("0.5.21", None), ("0.5.22", "MPS_RUNTIME"), ("0.5.23", "MPS_RUNTIME")):
        r = S.validate_argv(["--model-path", "/m", "--device", "mps"], version, gpus=[], read_paths=False,
                            target_config={"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"})
        assert (None if r.sglang_verdict["accepted"] else r.sglang_verdict["code"]) == code, version


# -- standin (session 16) --
def test_sm100_default_attention_before_0_5_19():
    """server_args.py _get_default_attn_backend (0.5.11-0.5.18): trtllm_mha on SM100 (page size 64) with no
    speculation, as later; judged through the oracle's GPU stand-in."""
    for version in ("0.5.11", "0.5.16", "0.5.18"):
        r = run(version, B200)
        assert r.resolved["attention_backend"] == "trtllm_mha" and r.resolved["page_size"] == 64, version
    assert run("0.5.16", []).resolved["page_size"] == 1
