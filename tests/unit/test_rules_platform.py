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


# -- standin (session 16) --
def test_sm100_default_attention_before_0_5_19():
    """server_args.py _get_default_attn_backend (0.5.11-0.5.18): trtllm_mha on SM100 (page size 64) with no
    speculation, as later; judged through the oracle's GPU stand-in."""
    for version in ("0.5.11", "0.5.16", "0.5.18"):
        r = run(version, B200)
        assert r.resolved["attention_backend"] == "trtllm_mha" and r.resolved["page_size"] == 64, version
    assert run("0.5.16", []).resolved["page_size"] == 1
