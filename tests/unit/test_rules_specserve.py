"""Session 14 (specserve) rules of SGLang's serving and speculative hooks (sglang_engine/rules_serving.py,
rules_speculative.py): one argv per rule with the code the engine gives, its accepted neighbour, and the release
traits they read. Each is checked against the release's real resolver by tests/oracle (cases.HOOK_CHECK_EXTRA,
PLATFORM_CHECK_EXTRA)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S

SM120 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2
SM90 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
SM100 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2
EAGLE3 = ["--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
          "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4"]


def code(version, *argv, env=None, gpus=SM120, draft_config=None):
    r = S.validate_argv(["--model-path", "/m"] + list(argv), version, env=env, gpus=gpus, draft_config=draft_config,
                        read_paths=False)
    return r.sglang_verdict["code"]


@pytest.mark.parametrize("argv,want", [
    (["--enable-http2", "--http2-max-concurrent-streams", "0"], "HTTP2_LIMITS"),
    (["--enable-http2", "--http2-initial-connection-window-size", "10"], "HTTP2_LIMITS"),
    (["--mm-preprocess-cache-size-mb", "-1"], "MM_CONFIG"), (["--mm-preprocess-cache-size-mb", "0"], None),
    (["--mm-process-config", "[1]"], "MM_CONFIG"), (["--mm-process-config", '{"image": 1}'], "MM_CONFIG"),
    (["--mm-process-config", '{"image": {}}'], None),
    (["--disable-fast-image-processor", "--image-processor-backend", "torchvision"], "IMAGE_PROCESSOR_CONFLICT"),
    (["--disable-fast-image-processor", "--image-processor-backend", "pil"], None),
    (["--smg-grpc-mode", "--port", "60000"], "GRPC_ARGS"),  # the legacy port is --port + 10000
    (["--smg-grpc-mode"], None),
    (["--smg-grpc-mode", "--sidecar", "/bin/true"], "GRPC_SIDECAR"),
    (["--sidecar", "/bin/true", "--grpc-port", "50051", "--sidecar-args", '{"a": 1}'], "GRPC_SIDECAR"),
    (["--sidecar", "/bin/true", "--grpc-port", "50051", "--sidecar-args", '["a", 1]'], "GRPC_SIDECAR"),
    (["--sidecar", "/bin/true", "--grpc-port", "50051", "--sidecar-args", '["a"]'], None),
    (["--grpc-port", "50051", "--encoder-only"], "GRPC_ARGS"),
    (["--default-chat-template-kwargs", "[1]"], "CHAT_TEMPLATE_KWARGS"),
    (["--default-chat-template-kwargs", '{"a": 1}'], None),
    (["--limit-mm-data-per-request", '{"foo": 1}'], "MM_LIMIT_MODALITY"),
    (["--limit-mm-data-per-request", '{"image": 1}'], None),
    (["--preferred-sampling-params", '{"watermark": 1}'], "PREFERRED_SAMPLING_WATERMARK"),
    (["--preferred-sampling-params", '{"temperature": 0.5}'], None),
])
def test_serving_flags(argv, want):
    assert code("0.5.23", *argv) == want


@pytest.mark.parametrize("argv,env,want", [
    (["--grpc-port", "50051"], {"SGLANG_GRPC_WORKER_THREADS": "0"}, "GRPC_ARGS"),
    (["--grpc-port", "50051"], {"SGLANG_GRPC_WORKER_THREADS": "zero"}, None),  # invalid int: the default 4
    ([], {"SGLANG_GRPC_WORKER_THREADS": "0"}, None),  # no gRPC server: not read
    ([], {"SGLANG_GRPC_PORT": "70000"}, "GRPC_ARGS"),
    (["--sidecar", "/bin/true"], {"SGLANG_GRPC_PORT": "50051"}, None),
])
def test_grpc_env(argv, env, want):
    assert code("0.5.23", *argv, env=env) == want


@pytest.mark.parametrize("argv,gpus,env,want", [
    (["--mm-feature-transport", "cuda_ipc"], [], None, "MM_FEATURE_TRANSPORT"),
    (["--mm-feature-transport", "cuda_vmm"], [], None, "MM_FEATURE_TRANSPORT"),
    (["--mm-feature-transport", "cuda_ipc"], None, None, None),  # no GPU facts: not judged
    (["--mm-feature-transport", "cuda_ipc"], SM90, None, None),
    (["--mm-feature-transport", "cuda_ipc", "--nnodes", "2"], SM90, None, "MM_FEATURE_TRANSPORT"),
    (["--mm-feature-transport", "cuda_vmm", "--pp-size", "2"], SM90, None, "MM_FEATURE_TRANSPORT"),
    ([], [], {"SGLANG_USE_CUDA_IPC_TRANSPORT": "1"}, "MM_FEATURE_TRANSPORT"),
    ([], [], {"SGLANG_USE_CUDA_IPC_TRANSPORT": "maybe"}, None),  # set but not a boolean: cpu
    (["--enable-deepseek-v4-fp4-indexer"], [], None, "FP4_INDEXER_GPU"),
    (["--enable-deepseek-v4-fp4-indexer"], SM90, None, "FP4_INDEXER_GPU"),
    (["--enable-deepseek-v4-fp4-indexer"], SM100, None, None),
    (["--enable-deepseek-v4-fp4-indexer"], SM120, None, None),
])
def test_environment_hook(argv, gpus, env, want):
    assert code("0.5.23", *argv, env=env, gpus=gpus) == want


def test_release_traits():
    # 0.5.13-0.5.17 take SM100 only for the FP4 indexer; 0.5.21 has no watermark check in the sampling params
    assert code("0.5.16", "--enable-deepseek-v4-fp4-indexer") == "FP4_INDEXER_GPU"
    assert code("0.5.18", "--enable-deepseek-v4-fp4-indexer") is None
    assert code("0.5.21", "--preferred-sampling-params", '{"watermark": 1}') is None
    assert code("0.5.22", "--preferred-sampling-params", '{"watermark": 1}') == "PREFERRED_SAMPLING_WATERMARK"


def test_gemma4_draft_refuses_eagle3():
    draft = {"architectures": ["Gemma4AssistantForCausalLM"], "model_type": "qwen3"}
    assert code("0.5.23", *EAGLE3, draft_config=draft) == "GEMMA4_DRAFT_ALGORITHM"
    assert code("0.5.16", *EAGLE3, draft_config=draft) == "GEMMA4_DRAFT_ALGORITHM"
    assert code("0.5.12", *EAGLE3, draft_config=draft) == "GEMMA4_DRAFT_ALGORITHM"
    assert code("0.5.11", *EAGLE3, draft_config=draft) is None
    assert code("0.5.23", *EAGLE3, draft_config={"architectures": ["LlamaForCausalLMEagle3"]}) is None


DSPARK = ["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d"]


@pytest.mark.parametrize("version,argv,want", [
    ("0.5.23", DSPARK + ["--device", "cpu"], "DSPARK_ARGS"),
    ("0.5.23", DSPARK + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention"], "DSPARK_ARGS"),
    ("0.5.23", DSPARK + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"], None),
    ("0.5.23", DSPARK + ["--pp-size", "2"], "DSPARK_ARGS"),
    ("0.5.23", DSPARK + ["--speculative-dspark-block-size", "0"], "DSPARK_ARGS"),
    ("0.5.23", DSPARK + ["--speculative-dspark-block-size", "4", "--speculative-num-draft-tokens", "3"], "DSPARK_ARGS"),
    ("0.5.23", DSPARK + ["--speculative-dspark-block-size", "4", "--speculative-num-draft-tokens", "5"], None),
    ("0.5.23", ["--speculative-algorithm", "DSPARK"], None),  # the target's config.json not read: not judged
    ("0.5.16", DSPARK + ["--device", "npu"], "DSPARK_ARGS"),  # CUDA only in 0.5.16-0.5.17
    ("0.5.20", DSPARK + ["--device", "npu"], None),
    ("0.5.20", DSPARK + ["--pp-size", "2", "--disaggregation-mode", "prefill"], "DSPARK_ARGS"),  # any pp > 1 to 0.5.20
    # past the DSpark hook on a PD prefill server: check_pipeline_parallel_compat's DSPARK branch takes it (0.5.21 on;
    # SGLang 0.5.21 and 0.5.23 accept it with a drafter dir, asked by hand at the merge)
    ("0.5.21", DSPARK + ["--pp-size", "2", "--disaggregation-mode", "prefill"], None),
])
def test_dspark(version, argv, want):
    assert code(version, *argv) == want


def test_dspark_draft_from_target(tmp_path):
    """No draft path: refused unless the target's config.json bundles one (dspark_* keys) or, in 0.5.23, a dspark/
    subfolder of the local target dir holds one."""
    target = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"}

    def run(version, cfg):
        r = S.validate_argv(["--model-path", str(tmp_path), "--speculative-algorithm", "DSPARK"], version, gpus=SM120,
                            target_config=cfg, read_paths=False)
        return r.sglang_verdict["code"]
    assert run("0.5.23", target) == "DSPARK_ARGS"
    assert run("0.5.23", dict(target, dspark_block_size=7)) is None
    (tmp_path / "dspark").mkdir()
    (tmp_path / "dspark" / "config.json").write_text("{}")
    assert run("0.5.23", target) is None
    assert run("0.5.22", target) == "DSPARK_ARGS"


def test_legacy_grpc_port_before_0_5_16():
    """0.5.11-0.5.15 always derive the gRPC port (SGLANG_GRPC_PORT, else --port + 10000) and range-check it."""
    assert code("0.5.11", "--port", "60000") == "GRPC_ARGS"
    assert code("0.5.15", "--port", "50000") is None
    assert code("0.5.15", env={"SGLANG_GRPC_PORT": "70000"}) == "GRPC_ARGS"
    assert code("0.5.16", "--port", "60000") is None  # gRPC off: not derived


DSPARK_DP = DSPARK + ["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"]


@pytest.mark.parametrize("version,argv,env,want", [
    ("0.5.23", DSPARK_DP + ["--moe-a2a-backend", "deepep"], None, "DSPARK_ARGS"),
    ("0.5.23", DSPARK_DP, {"SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION": "1", "SGLANG_RAGGED_VERIFY_MODE": "compact"},
     "DSPARK_ARGS"),
    ("0.5.20", DSPARK_DP, {"SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION": "1", "SGLANG_RAGGED_VERIFY_MODE": "compact"},
     None),  # the coordination env joins the ragged check in 0.5.22 (0.5.21 refuses the env for DSPARK earlier)
    ("0.5.23", DSPARK_DP + ["--speculative-moe-a2a-backend", "deepep"], None, "DSPARK_ARGS"),
    ("0.5.23", DSPARK + ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head",
                         "--attn-cp-size", "2"], None, "DSPARK_ARGS"),
])
def test_dspark_attention_dp(version, argv, env, want):
    assert code(version, *argv, env=env, gpus=SM120 * 2) == want


def test_dspark_gamma_without_draft_block_size():
    draft = {"architectures": ["DFlashDraftModel"], "dflash_config": {"mask_token_id": 1}}
    assert code("0.5.23", *DSPARK, "--speculative-num-draft-tokens", "1", draft_config=draft) == "DSPARK_ARGS"
    assert code("0.5.23", *DSPARK, "--speculative-num-draft-tokens", "5", draft_config=draft) is None
    with_block = dict(draft, block_size=16)
    assert code("0.5.23", *DSPARK, "--speculative-num-draft-tokens", "1", draft_config=with_block) is None  # not judged


# -- cache (session 16) --: handle_multimodal_feature_transport's deprecated --keep-mm-feature-on-device (0.5.16-0.5.20):
# another transport refused (0.5.16-0.5.17 had only cpu to refuse); alone it means cuda_ipc, with cuda_ipc's checks
@pytest.mark.parametrize("version,argv,gpus,want", [
    ("0.5.16", ["--keep-mm-feature-on-device", "--mm-feature-transport", "cpu"], None, "MM_FEATURE_TRANSPORT"),
    ("0.5.20", ["--keep-mm-feature-on-device", "--mm-feature-transport", "cuda_vmm"], SM90, "MM_FEATURE_TRANSPORT"),
    ("0.5.20", ["--keep-mm-feature-on-device", "--mm-feature-transport", "cuda_ipc"], SM90, None),
    ("0.5.20", ["--keep-mm-feature-on-device"], SM90, None),
    ("0.5.20", ["--keep-mm-feature-on-device", "--nnodes", "2"], SM90, "MM_FEATURE_TRANSPORT"),
    ("0.5.18", ["--keep-mm-feature-on-device"], [], "MM_FEATURE_TRANSPORT"),  # cuda_ipc on a host without CUDA
])
def test_keep_mm_feature_on_device(version, argv, gpus, want):
    assert code(version, *argv, gpus=gpus) == want


# -- cache (session 16) --: cuda_vmm refuses a truthy SGLANG_RUST_SERVER in 0.5.18-0.5.19 only
@pytest.mark.parametrize("version,env,want", [
    ("0.5.19", {"SGLANG_RUST_SERVER": "1"}, "MM_FEATURE_TRANSPORT"), ("0.5.19", {"SGLANG_RUST_SERVER": "0"}, None),
    ("0.5.19", None, None), ("0.5.20", {"SGLANG_RUST_SERVER": "1"}, None),
])
def test_cuda_vmm_rust_server(version, env, want):
    assert code(version, "--mm-feature-transport", "cuda_vmm", env=env, gpus=SM90) == want
