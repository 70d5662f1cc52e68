"""The LoRA and validation-hook refusals of session 14 (sglang_engine/rules_lora.py, rules_validation.py): one argv
per rule with the code the engine gives, an accepted neighbour, and the release traits they read. Each is checked
against the release's real resolver by tests/oracle (cases.HOOK_CHECK_EXTRA, the "validation (session 14)" block)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S

GPUS = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2
LORA = ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"]
V2 = LORA + ["--lora-backend", "triton_v2"]
MOE = V2 + ["--moe-runner-backend", "lora_triton"]
EAGLE3 = ["--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
          "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4"]
PP_EAGLE = ["--speculative-algorithm", "EAGLE", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
            "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4", "--pp-size", "2"]
KV = '{"publisher": "zmq", "endpoint": "tcp://*:5557"}'


def code(version, *argv, env=None):
    r = S.validate_argv(["--model-path", "/m"] + list(argv), version, env=env, gpus=GPUS, read_paths=False)
    return r.sglang_verdict["code"]


@pytest.mark.parametrize("argv,env,want", [
    (["--lora-paths", '{"lora_name": "a"}'], None, "LORA_PATHS_JSON"),
    (["--lora-paths", "{not json}"], None, "LORA_PATHS_JSON"),
    (V2 + ["--enable-two-batch-overlap"], None, "LORA_V2_MODE"),
    (V2 + ["--enable-pdmux"], None, "LORA_V2_MODE"),
    (V2, {"SGLANG_EXPERIMENTAL_LORA_OPTI": "1"}, "LORA_V2_MODE"),
    (["--moe-runner-backend", "lora_triton"], None, "LORA_MOE_RUNNER"),
    (LORA + ["--moe-runner-backend", "lora_triton"], None, "LORA_MOE_RUNNER"),
    (MOE + ["--enable-two-batch-overlap"], None, "LORA_V2_MODE"),
    (MOE + ["--quantization", "w8a8_int8"], None, "LORA_MOE_RUNNER"),
    (MOE + ["--quantization", "modelopt_fp4"], None, "LORA_MOE_RUNNER"),
    (MOE + ["--moe-a2a-backend", "deepep"], None, "LORA_MOE_RUNNER"),
    (MOE + ["--init-expert-location", "random"], None, "LORA_MOE_RUNNER"),
    (EAGLE3 + ["--speculative-moe-runner-backend", "lora_triton"], None, "LORA_MOE_RUNNER"),
    (EAGLE3 + LORA + ["--moe-runner-backend", "experimental_sgl_trtllm"], None, "LORA_SPECULATIVE"),
    (EAGLE3 + LORA, {"SGLANG_ENABLE_OVERLAP_PLAN_STREAM": "1"}, "LORA_SPECULATIVE"),
    (["--watermark-config", "{}"], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"bogus": 1}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"key": "xyz"}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"context_window": 0}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"key_b": "ab"}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"mixing_probability": 1.5}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"mixing_probability": 0.3}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"max_probability": 0}'], None, "WATERMARK_CONFIG"),
    (["--enable-watermark", "--watermark-config", '{"enforce_all": true}'], None, "WATERMARK_CONFIG"),
    (["--load-publish-endpoint", "tcp://*:5600"], None, "LOAD_PUBLISH"),
    (["--load-publish-endpoint", "tcp://*:5600", "--kv-events-config", "zmq"], None, "LOAD_PUBLISH"),
    (["--load-publish-endpoint", "tcp://*:5600", "--kv-events-config", '{"publisher": "null"}'], None, "LOAD_PUBLISH"),
    (["--load-publish-endpoint", "tcp://*:5557", "--kv-events-config", KV], None, "LOAD_PUBLISH"),
    (["--load-publish-endpoint", "tcp://10.0.0.1:5600", "--kv-events-config", KV], None, "LOAD_PUBLISH"),
    (["--load-publish-endpoint", "tcp://*:65535", "--dp-size", "2", "--kv-events-config", KV], None, "LOAD_PUBLISH"),
    ([], {"SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS": "8"}, "SAMPLING_MASK_ENV"),
    (["--disaggregation-mode", "prefill", "--disaggregation-ib-device", " "], None, "IB_DEVICE"),
    (PP_EAGLE + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], {"SGLANG_ENABLE_PP_SPEC": "1"},
     "PP_SPEC_ENV"),
    (["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d", "--pp-size", "2"], None,
     "DSPARK_ARGS"),  # the DSPARK hook refuses pp > 1 off a PD prefill server first
    (["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d", "--pp-size", "2",
      "--disaggregation-mode", "prefill"], {"SGLANG_ENABLE_PP_SPEC": "1"}, "PP_SPEC_ENV"),
])
def test_each_rule_refuses_on_0_5_23(argv, env, want):
    assert code("0.5.23", *argv, env=env) == want


@pytest.mark.parametrize("argv", [
    ["--lora-paths", '{"lora_name": "a", "lora_path": "/a"}', "b=/b"],
    V2, MOE, EAGLE3 + LORA,
    ["--enable-watermark", "--watermark-config", "/etc/wm.json"],  # a file on the host: not read
    EAGLE3 + ["--enable-watermark", "--watermark-config",
              '{"key": "ab", "key_b": "cd", "mixing_probability": 0.3, "default_enabled": true}'],
    ["--load-publish-endpoint", "off"],
    ["--load-publish-endpoint", "tcp://*:5600", "--kv-events-config", KV],
    ["--load-publish-endpoint", "auto", "--kv-events-config", KV],
    ["--disaggregation-ib-device", " "],  # no mooncake PD server: not validated
])
def test_accepted_neighbours(argv):
    assert code("0.5.23", *argv) is None


def test_release_traits():
    env = {"SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS": "8"}
    assert code("0.5.19", env=env) is None and code("0.5.20", env=env) == "SAMPLING_MASK_ENV"
    dspark = ["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d", "--pp-size", "2"]
    assert code("0.5.15", *dspark) == "UNKNOWN_ALGORITHM" and code("0.5.16", *dspark) == "DSPARK_ARGS"
    assert code("0.5.21", *dspark) == "DSPARK_ARGS"
    attn = PP_EAGLE + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"]
    assert code("0.5.20", *attn, env={"SGLANG_ENABLE_PP_SPEC": "1"}) == "PP_SPECULATIVE"  # pp refuses speculation
    assert code("0.5.21", *attn, env={"SGLANG_ENABLE_PP_SPEC": "1"}) == "PP_SPEC_ENV"
    # --enable-dp-attention with --dp-size 1 is no attention DP: the data-parallel defaults drop the flag before this
    # check (observed in the 0.5.21 kit; the engine used to refuse it there)
    attn1 = PP_EAGLE + ["--enable-dp-attention"]
    assert code("0.5.21", *attn1, env={"SGLANG_ENABLE_PP_SPEC": "1"}) is None
    assert code("0.5.22", *attn1, env={"SGLANG_ENABLE_PP_SPEC": "1"}) is None
    # LoRA's speculative runner / env checks come with the LoRA + EAGLE family support (0.5.19 on)
    assert code("0.5.19", *EAGLE3, *LORA, env={"SGLANG_ENABLE_OVERLAP_PLAN_STREAM": "1"}) == "LORA_SPECULATIVE"
    assert code("0.5.18", *LORA, env={"SGLANG_ENABLE_OVERLAP_PLAN_STREAM": "1"}) is None
    # a retired flag whose argparse action stops the parse (0.5.18-0.5.19); a plain flag before, gone after
    retired = "--enable-expert-distribution-metrics"
    assert code("0.5.17", retired) is None and code("0.5.19", retired) == "PARSE_RETIRED_FLAG"
    assert code("0.5.20", retired) == "PARSE_UNRECOGNIZED"
