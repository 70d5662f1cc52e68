"""The flag-only refusals of SGLang's validation and speculative hooks (sglang_engine/rules_validation.py,
rules_speculative.py): one argv per rule with the code the engine gives, and the release traits they read.
Each is checked against the release's real resolver by tests/oracle (cases.HOOK_CHECK_EXTRA)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S

GPUS = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2
UNO = ["--speculative-algorithm", "UNO", "--uno-lora-path", "/u", "--attention-backend", "fa3"]


def code(version, *argv, env=None):
    r = S.validate_argv(["--model-path", "/m"] + list(argv), version, env=env, gpus=GPUS, read_paths=False)
    return r.sglang_verdict["code"]


@pytest.mark.parametrize("argv,want", [
    (["--prefill-decode-interval", "-1"], "PREFILL_DECODE_INTERVAL"),
    (["--prefill-decode-interval-min-bs", "-1"], "PREFILL_DECODE_INTERVAL"),
    (["--enable-response-store", "--disaggregation-mode", "decode"], "RESPONSE_STORE_PD"),
    (["--sampling-mask-max-tokens", "0"], "SAMPLING_MASK_MAX_TOKENS"),
    (["--return-aux-hidden-state-layer-ids", "1"], "AUX_HIDDEN_STATES"),
    (["--enable-return-aux-hidden-states"], "AUX_HIDDEN_STATES"),
    (["--enable-return-aux-hidden-states", "--speculative-algorithm", "DFLASH"], "AUX_HIDDEN_STATES"),
    (["--enable-return-aux-hidden-states", "--speculative-algorithm", "EAGLE3", "--return-aux-hidden-state-layer-ids",
      "2", "2"], "AUX_HIDDEN_STATES"),
    (["--disable-cuda-graph-padding", "--enable-torch-compile"], "CUDA_GRAPH_PADDING_TORCH_COMPILE"),
    (["--pp-size", "2", "--min-free-slots-delay", "1"], "PP_MIN_FREE_SLOTS"),
    (["--model-impl", "mindspore"], "MODEL_IMPL_MINDSPORE"),
    (["--device", "cpu", "--load-format", "instanttensor"], "LOAD_FORMAT_INSTANTTENSOR"),
    (["--tokenizer-metrics-allowed-custom-labels", "team", "--tokenizer-metrics-custom-labels-header", ""],
     "METRICS_CUSTOM_LABELS"),
    (["--enable-two-batch-overlap"], "TWO_BATCH_OVERLAP"),
    (["--sampling-backend", "intel_xpu"], "SAMPLING_BACKEND_DEVICE"),
    (["--device", "cpu", "--enable-watermark"], "WATERMARK_DEVICE"),
    (["--enable-watermark", "--enable-custom-logit-processor"], "WATERMARK_CONFLICT"),
    (["--enable-watermark", "--disaggregation-mode", "prefill"], "WATERMARK_CONFLICT"),
    (["--speculative-algorithm", "UNO"], "UNO_ARGS"),
    (UNO, "UNO_ARGS"),  # no verify width
    (UNO + ["--speculative-num-draft-tokens", "8", "--speculative-eagle-topk", "2", "--speculative-num-steps", "3"],
     "UNO_ARGS"),  # Q-1 exceeds the parent-list ABI
    (UNO + ["--speculative-num-draft-tokens", "4", "--tp-size", "2"], "UNO_ARGS"),
    (["--speculative-algorithm", "NGRAM", "--attention-backend", "triton", "--page-size", "16"], "NGRAM_PAGE_TREE"),
    (["--speculative-algorithm", "NGRAM", "--speculative-ngram-external-corpus-path", "/c"], "NGRAM_ARGS"),
    (["--speculative-algorithm", "NGRAM", "--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "NGRAM_ARGS"),
    (["--speculative-algorithm", "STANDALONE", "--speculative-draft-model-path", "/d", "--tp-size", "2", "--dp-size",
      "2", "--enable-dp-attention"], "STANDALONE_DP_ATTENTION"),
    (["--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
      "--speculative-eagle-topk", "4", "--speculative-num-draft-tokens", "8", "--speculative-use-block-verification"],
     "REJECTION_SAMPLING_TOPK"),
])
def test_each_hook_rule_refuses_on_0_5_23(argv, want):
    assert code("0.5.23", *argv) == want


def test_watermark_env_and_accepted_neighbours():
    assert code("0.5.23", "--enable-watermark", env={"SGLANG_RUST_SERVER": "1"}) == "WATERMARK_CONFLICT"
    assert code("0.5.23", "--enable-watermark") is None
    assert code("0.5.23", "--prefill-decode-interval", "0", "--sampling-mask-max-tokens", "8") is None
    assert code("0.5.23", *(UNO + ["--speculative-num-draft-tokens", "6", "--speculative-eagle-topk", "2",
                                   "--speculative-num-steps", "3"])) is None


def test_aux_hidden_state_capture_resets_the_algorithm():
    r = S.validate_argv(["--model-path", "/m", "--enable-return-aux-hidden-states", "--speculative-algorithm", "EAGLE3"],
                        "0.5.23", gpus=GPUS, read_paths=False)
    assert r.sglang_verdict["accepted"] and r.resolved["speculative_algorithm"] is None


def test_release_traits_of_the_hook_rules():
    # two-batch overlap without an EP a2a backend: refused outright through 0.5.14, then with attention DP only
    assert code("0.5.12", "--enable-two-batch-overlap", "--tp-size", "2", "--dp-size", "2",
                "--enable-dp-attention") == "TWO_BATCH_OVERLAP"
    assert code("0.5.17", "--enable-two-batch-overlap", "--tp-size", "2", "--dp-size", "2",
                "--enable-dp-attention") is None
    # -- moe18 (session 18) --: 0.5.12-0.5.13 refuse it with fused shared experts (given, or DeepEP Waterfill's, which
    # forces the deepep backend too); Waterfill's deepep passes the a2a check in every release
    tbo = ("--attention-backend", "triton", "--enable-two-batch-overlap")
    fusion = tbo + ("--moe-a2a-backend", "deepep", "--enforce-shared-experts-fusion")
    assert code("0.5.11", *fusion) is None and code("0.5.14", *fusion) is None
    assert code("0.5.12", *fusion) == "TWO_BATCH_OVERLAP" and code("0.5.13.post1", *fusion) == "TWO_BATCH_OVERLAP"
    assert code("0.5.13", *(tbo + ("--enable-deepep-waterfill",))) == "TWO_BATCH_OVERLAP"
    assert code("0.5.15", *(tbo + ("--enable-deepep-waterfill",))) is None
    assert code("0.5.16", *(tbo + ("--enable-waterfill",))) is None
    assert code("0.5.11", "--disable-cuda-graph-padding", "--enable-torch-compile") is None
    assert code("0.5.17", "--pp-size", "2", "--min-free-slots-delay", "1") is None
    # block verification turns rejection sampling on from 0.5.22 only (the flag's first release)
    assert code("0.5.22", "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d",
                "--speculative-num-steps", "3", "--speculative-eagle-topk", "4", "--speculative-num-draft-tokens", "8",
                "--speculative-use-block-verification") == "REJECTION_SAMPLING_TOPK"


@pytest.mark.parametrize("argv,want", [
    (["--enable-http-worker-reuseport"], "HTTP_WORKER_REUSEPORT"),
    (["--asr-max-buffer-seconds", "0"], "ASR_LIMITS"),
    (["--grpc-response-timeout-secs", "0"], "GRPC_ARGS"),
    (["--grpc-port", "70000"], "GRPC_ARGS"),
    (["--sidecar-args", '["a"]'], "GRPC_SIDECAR"),
    (["--sidecar", "/bin/true"], "GRPC_SIDECAR"),
    (["--grpc-port", "50051", "--api-key", "k"], "GRPC_ARGS"),
    (["--enable-tokenizer-batch-encode", "--enable-dynamic-batch-tokenizer"], "TOKENIZER_BATCHING"),
])
def test_each_serving_rule_refuses_on_0_5_23(argv, want):
    assert code("0.5.23", *argv) == want


def test_serving_rules_accept_their_neighbours():
    assert code("0.5.23", "--enable-http-worker-reuseport", "--tokenizer-worker-num", "2") is None
    assert code("0.5.23", "--sidecar", "/bin/true", "--grpc-port", "50051") is None


def test_pdmux_needs_no_chunked_prefill_no_pd_and_no_overlap():
    assert code("0.5.23", "--enable-pdmux") == "PDMUX"
    assert code("0.5.23", "--enable-pdmux", "--chunked-prefill-size", "-1") == "PDMUX"
    assert code("0.5.23", "--enable-pdmux", "--chunked-prefill-size", "-1", "--disable-overlap-schedule") is None


def test_sidecar_refuses_rust_server_in_0_5_22():
    """-- new19 (session 17) --: serving_hook.py handle_deprecated_args, 0.5.22 only."""
    from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as _E
    argv = ["--model-path", "/m", "--sidecar", "/bin/true", "--grpc-port", "50051"]
    rust = {"SGLANG_RUST_SERVER": "1"}
    assert _E.validate_argv(argv, "0.5.22", env=rust, read_paths=False).sglang_verdict["code"] == "GRPC_SIDECAR"
    assert _E.validate_argv(argv, "0.5.23", env=rust, read_paths=False).sglang_verdict["code"] is None
    assert _E.validate_argv(argv, "0.5.22", read_paths=False).sglang_verdict["code"] is None
