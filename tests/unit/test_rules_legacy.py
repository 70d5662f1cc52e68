"""The older releases' own refusals (sglang_engine/rules_legacy.py, the KV4 dtype traits in rules_cache.py): each
refusal, the neighbour SGLang accepts, and the releases it holds for. Every answer expected here was SGLang's own
to the same flags in its kit (0.5.11, 0.5.15, 0.5.16, 0.5.19, 0.5.20, session 15), on this host without a GPU."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}
DSV3 = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_hidden_layers": 8,
        "max_position_embeddings": 163840, "vocab_size": 129280, "kv_lora_rank": 64, "q_lora_rank": 96}
LORA = ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"]


def refusal(extra, version, env=None, target=QWEN3):
    r = E.validate_argv(BASE + extra, version, env=env or {}, gpus=[], read_paths=False, target_config=target)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input")]
    return codes[0] if codes else None


@pytest.mark.parametrize("extra, version, code, target", [
    (["--prefill-attention-backend", "intel_xpu"], "0.5.11", "INTEL_XPU_MLA_PREFILL", DSV3),
    (["--attention-backend", "intel_xpu"], "0.5.19", "INTEL_XPU_MLA_PREFILL", DSV3),
    (["--prefill-attention-backend", "intel_xpu"], "0.5.20", None, DSV3),  # attention_hook.py drops it
    (["--prefill-attention-backend", "intel_xpu", "--attention-backend", "triton"], "0.5.11", None, QWEN3),  # not MLA
    (["--enable-dp-lm-head", "--dp-size", "2", "--attention-backend", "triton"], "0.5.11", "LM_HEAD_DP", QWEN3),
    (["--enable-dp-lm-head", "--dp-size", "2", "--attention-backend", "triton"], "0.5.14", "LM_HEAD_DP", QWEN3),
    (["--enable-dp-lm-head", "--attention-backend", "triton"], "0.5.11", None, QWEN3),  # --dp-size 1 turns it off
    (["--enable-dp-lm-head", "--dp-size", "2", "--tp-size", "2", "--enable-dp-attention", "--attention-backend",
      "triton"], "0.5.11", None, QWEN3),
    (LORA + ["--lora-use-virtual-experts", "--attention-backend", "triton"], "0.5.11", "LORA_VIRTUAL_EXPERTS", QWEN3),
    (LORA + ["--lora-use-virtual-experts", "--lora-backend", "triton", "--attention-backend", "triton"], "0.5.11", None,
     QWEN3),
    (LORA + ["--lora-use-virtual-experts", "--attention-backend", "triton"], "0.5.12", None, QWEN3),
    (["--elastic-ep-rejoin", "--attention-backend", "triton"], "0.5.11", "ELASTIC_EP", QWEN3),
    (["--elastic-ep-rejoin", "--elastic-ep-backend", "mooncake", "--attention-backend", "triton"], "0.5.15", None, QWEN3),
    (["--elastic-ep-rejoin", "--attention-backend", "triton"], "0.5.16", "ELASTIC_EP", QWEN3),  # join mode recover
    (["--elastic-ep-rejoin", "--elastic-ep-join-mode", "scale", "--attention-backend", "triton"], "0.5.20", "ELASTIC_EP",
     QWEN3),
    (["--elastic-ep-rejoin", "--attention-backend", "triton"], "0.5.21", "PARSE_UNRECOGNIZED", QWEN3),
    (["--kv-cache-dtype", "fp4_e2m1", "--attention-backend", "triton"], "0.5.11", "KV_CACHE_DTYPE_GPU", QWEN3),
    (["--kv-cache-dtype", "fp4_e2m1", "--attention-backend", "triton"], "0.5.15.post1", "KV_CACHE_DTYPE_GPU", QWEN3),
])
def test_older_release_refusals(extra, version, code, target):
    assert refusal(extra, version, target=target) == code


@pytest.mark.parametrize("mode, extra, version, code", [
    ("3", [], "0.5.11", "ASCEND_FUSE_MODE"), ("2", [], "0.5.15.post1", "ASCEND_FUSE_MODE"),
    ("2", ["--quantization", "modelslim"], "0.5.11", None), ("1", [], "0.5.11", None), (None, [], "0.5.13", None),
])
def test_ascend_fuse_mode(mode, extra, version, code):
    env = {"SGLANG_NPU_FUSED_MOE_MODE": mode} if mode else {}
    assert refusal(["--moe-a2a-backend", "ascend_fuseep", "--attention-backend", "triton"] + extra, version,
                   env=env) == code


def test_kv4_traits():
    """_handle_kv4_compatibility reads fp4_e2m1 through 0.5.15.post1, nvfp4 / fp4_mx_block16 from 0.5.16."""
    assert E.RELEASES["0.5.15.post1"]["kv4_dtypes"] == ("fp4_e2m1",)
    assert E.RELEASES["0.5.16"]["kv4_dtypes"] == ("nvfp4", "fp4_mx_block16")
    assert E.RELEASES["0.5.15"]["kv4_mla_attention_extra"] == ("flashmla",)
    assert E.RELEASES["0.5.23"]["kv4_mla_attention_extra"] == ()


@pytest.mark.parametrize("env, version, code", [
    ({"SGLANG_ENABLE_GRPC": "1", "SGLANG_GRPC_PORT": "30000"}, "0.5.11", "GRPC_PORT"),
    ({"SGLANG_ENABLE_GRPC": "true", "SGLANG_GRPC_PORT": "30000"}, "0.5.15.post1", "GRPC_PORT"),
    ({"SGLANG_ENABLE_GRPC": "1", "SGLANG_GRPC_PORT": "30001"}, "0.5.11", None),
    ({"SGLANG_ENABLE_GRPC": "0", "SGLANG_GRPC_PORT": "30000"}, "0.5.11", None),
    ({"SGLANG_ENABLE_GRPC": "1"}, "0.5.13", None),  # --port + 10000
])
def test_legacy_grpc_env_port(env, version, code):
    """check_server_args: the env-only native gRPC server's port against --port (0.5.11-0.5.15.post1)."""
    assert refusal(["--attention-backend", "triton"], version, env=env) == code


# -- gpu16 (session 17) --
@pytest.mark.parametrize("mode, extra, version, code", [
    ("3", [], "0.5.16", "ASCEND_FUSE_MODE"), ("0", [], "0.5.17", "ASCEND_FUSE_MODE"), ("2", [], "0.5.16", None),
    ("3", ["--fuseep-mode", "2"], "0.5.17", None), ("3", ["--fuseep-mode=1"], "0.5.16", None),
    ("x", [], "0.5.16", None),  # EnvInt reads a non-integer as its default, 1
    ("3", [], "0.5.18", None),  # _apply_fuseep_mode_env_compat is gone
])
def test_fuseep_mode_env_at_parse(mode, extra, version, code):
    """0.5.16-0.5.17 prepare_server_args (_apply_fuseep_mode_env_compat), on any device and backend."""
    assert refusal(["--attention-backend", "triton"] + extra, version, env={"SGLANG_NPU_FUSED_MOE_MODE": mode}) == code


@pytest.mark.parametrize("extra, version, code", [
    # the deprecated SGLANG_CUTLASS_MOE (0.5.11-0.5.17 handle_moe_kernel_config): fp8 / mxfp8 only, then the cutlass
    # runner's FP8 EP check; 0.5.18 no longer reads it
    ([], "0.5.11", "CUTLASS_MOE_ENV"), ([], "0.5.17", "CUTLASS_MOE_ENV"), (["--quantization", "awq"], "0.5.16",
                                                                           "CUTLASS_MOE_ENV"),
    (["--quantization", "fp8"], "0.5.16", None), (["--quantization", "mxfp8"], "0.5.14", None),
    (["--quantization", "fp8", "--tp-size", "2", "--ep-size", "2"], "0.5.17", "MOE_RUNNER_EP_SIZE"),
    ([], "0.5.18", None),
])
def test_cutlass_moe_env(extra, version, code):
    assert refusal(["--attention-backend", "triton"] + extra, version, env={"SGLANG_CUTLASS_MOE": "1"}) == code
