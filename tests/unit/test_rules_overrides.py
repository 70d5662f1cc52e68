"""The resolution pipeline's post-process passes (srt/arg_groups/overrides.py) the engine models: the MLA backends'
GPU and KV dtype checks (rules_attention.py check_mla_backends, trait mla_backend_checks), 0.5.23's tokenspeed_mla
alias (resolve_tokenspeed_alias), the DP LM head / TP LM-head all-to-all validation (rules_parallel.py
check_lm_head_dp, trait lm_head_dp_checks), HiSparse's TileLang FP8 KV refusal in the DSA pass (rules_model.py) and the
SSM chunk / page divisibility (rules_mamba.py). Expected answers are SGLang's own in its kits (the oracle's
OVR_SWEEP_EXTRA sweep, 0.5.21-0.5.23, 2026-12-03)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]
DEEPSEEK = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_hidden_layers": 8,
            "max_position_embeddings": 40960, "vocab_size": 129280, "kv_lora_rank": 64}
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 8,
         "max_position_embeddings": 40960, "vocab_size": 151936}
DSA = dict(DEEPSEEK, architectures=["DeepseekV32ForCausalLM"], index_topk=64, index_head_dim=32, index_n_heads=4)
NEXT = {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "num_hidden_layers": 8,
        "max_position_embeddings": 40960, "vocab_size": 151936, "full_attention_interval": 4}
H200 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 8
B200 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 8
RTX6000 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 8


def validate(extra, version="0.5.23", gpus=H200, target=DEEPSEEK):
    return E.validate_argv(BASE + extra, version, gpus=list(gpus) if gpus is not None else None, read_paths=False,
                           target_config=target)


def answer(extra, version="0.5.23", gpus=H200, target=DEEPSEEK):
    r = validate(extra, version, gpus, target)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input")]
    return codes[0] if codes else None


@pytest.mark.parametrize("extra, gpus, code", [
    (["--attention-backend", "trtllm_mla"], H200, "MLA_BACKEND_GPU"),
    (["--attention-backend", "trtllm_mla"], [], "MLA_BACKEND_GPU"),  # a host without a visible GPU
    (["--attention-backend", "trtllm_mla"], None, None),  # no GPU facts: the GPU check is left to the host
    (["--attention-backend", "trtllm_mla", "--kv-cache-dtype", "fp8_e5m2"], B200, "MLA_BACKEND_KV_DTYPE"),
    (["--attention-backend", "trtllm_mla", "--kv-cache-dtype", "bfloat16"], B200, "MLA_BACKEND_KV_DTYPE"),  # bf16 only
    (["--attention-backend", "trtllm_mla", "--kv-cache-dtype", "fp8_e4m3", "--page-size", "64"], B200, None),
    (["--attention-backend", "triton", "--decode-attention-backend", "trtllm_mla", "--kv-cache-dtype", "fp8_e5m2"],
     RTX6000, "MLA_BACKEND_KV_DTYPE"),  # SM120 is a Blackwell GPU for TRTLLM MLA
    (["--prefill-attention-backend", "cutedsl_mla"], B200, "CUTEDSL_MLA_PREFILL"),
    (["--attention-backend", "triton", "--decode-attention-backend", "cutedsl_mla"], H200, "MLA_BACKEND_GPU"),
    (["--attention-backend", "cutedsl_mla"], RTX6000, "MLA_BACKEND_GPU"),  # SM100 only
    (["--attention-backend", "cutedsl_mla", "--kv-cache-dtype", "fp8_e5m2"], B200, "MLA_BACKEND_KV_DTYPE"),
    (["--attention-backend", "cutedsl_mla", "--kv-cache-dtype", "bfloat16", "--page-size", "64"], B200, None),
])
def test_mla_backend_checks(extra, gpus, code):
    assert answer(extra, gpus=gpus) == code


def test_cutedsl_mla_fills_its_prefill_backend():
    r = validate(["--attention-backend", "cutedsl_mla", "--page-size", "64"], gpus=B200)
    assert r.sglang_verdict["accepted"] and r.resolved["prefill_attention_backend"] == "trtllm_mla"


def test_mla_backend_checks_trait():
    # -- oldgpu (session 17) --: 0.5.11-0.5.14 srt/server_args.py, each backend from the release it appears in
    assert E.RELEASES["0.5.11"]["mla_backend_checks"]["tokenspeed_kv"] is None
    assert E.RELEASES["0.5.12"]["mla_backend_checks"]["cutedsl_kv"] is None
    assert E.RELEASES["0.5.14"]["mla_backend_checks"] == E.RELEASES["0.5.15"]["mla_backend_checks"]
    assert E.RELEASES["0.5.15"]["mla_backend_checks"] == E.RELEASES["0.5.19"]["mla_backend_checks"]
    assert "fp4_e2m1" in E.RELEASES["0.5.19"]["mla_backend_checks"]["trtllm_kv"]
    assert "fp4_e2m1" not in E.RELEASES["0.5.21"]["mla_backend_checks"]["trtllm_kv"]
    assert E.RELEASES["0.5.22"]["mla_backend_checks"]["tokenspeed_kv"] == ("fp8_e4m3",)
    assert E.RELEASES["0.5.23"]["mla_backend_checks"]["tokenspeed_kv"] is None
    assert answer(["--attention-backend", "trtllm_mla"], version="0.5.11") == "MLA_BACKEND_GPU"
    assert answer(["--attention-backend", "trtllm_mla"], version="0.5.15", gpus=[]) == "MLA_BACKEND_GPU"


@pytest.mark.parametrize("extra, gpus, code", [
    (["--attention-backend", "tokenspeed_mla"], H200, "MLA_BACKEND_GPU"),
    (["--attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "bf16"], B200, "MLA_BACKEND_KV_DTYPE"),
    (["--attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "fp8_e4m3", "--page-size", "64"], B200, None),
])
def test_tokenspeed_mla_in_0_5_22(extra, gpus, code):
    assert answer(extra, version="0.5.22", gpus=gpus) == code


def test_tokenspeed_mla_is_cutedsl_mla_in_0_5_23():
    """handle_deprecated_args renames it (the CuteDSL MLA checks then apply) and sets the FP8 KV cache it implied."""
    assert answer(["--attention-backend", "tokenspeed_mla"], gpus=H200) == "MLA_BACKEND_GPU"
    r = validate(["--attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "bf16", "--page-size", "64"], gpus=B200)
    assert r.sglang_verdict["accepted"]
    assert r.resolved["attention_backend"] == "cutedsl_mla" and r.resolved["prefill_attention_backend"] == "trtllm_mla"
    assert any("fp8_e4m3" in w["message"] for w in r.warnings)


@pytest.mark.parametrize("extra, code", [
    (["--dp-size", "2", "--enable-dp-lm-head"], "LM_HEAD_DP"),
    (["--enable-dp-lm-head"], None),  # no data-parallel ranks: SGLang resets it
    (["--enable-tp-lm-head-all-to-all"], "LM_HEAD_DP"),
    (["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head",
      "--enable-tp-lm-head-all-to-all"], "LM_HEAD_DP"),
    (["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-tp-lm-head-all-to-all"], "LM_HEAD_DP"),
    (["--tp-size", "4", "--dp-size", "4", "--enable-dp-attention", "--attn-cp-size", "2",
      "--enable-tp-lm-head-all-to-all"], "LM_HEAD_DP"),
    (["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-tp-lm-head-all-to-all"], None),
    (["--tp-size", "2", "--attn-dp-size", "2", "--enable-tp-lm-head-all-to-all"], None),
    (["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head",
      "--no-enable-tp-lm-head-all-to-all"], None),
])
def test_lm_head_dp_checks(extra, code):
    assert answer(extra, target=QWEN3) == code


def test_lm_head_dp_checks_trait():
    assert [E.RELEASES[v]["lm_head_dp_checks"] for v in ("0.5.11", "0.5.17", "0.5.18", "0.5.23")] == [
        "dp_lm_head", "dp_lm_head", "tp_all_to_all", "tp_all_to_all"]


@pytest.mark.parametrize("extra, version, code", [
    (["--dp-size", "2", "--enable-dp-lm-head"], "0.5.15", "LM_HEAD_DP"),  # no --enable-dp-attention
    (["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-dp-lm-head"], "0.5.15", None),
    (["--enable-dp-attention", "--enable-dp-lm-head"], "0.5.15", None),  # --dp-size 1: both reset
    (["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention", "--enable-tp-lm-head-all-to-all"], "0.5.21",
     "LM_HEAD_DP"),  # tp_size == dp_size
    (["--tp-size", "2", "--dp-size", "2", "--enable-dp-attention", "--enable-tp-lm-head-all-to-all"], "0.5.18", None),
])
def test_lm_head_dp_checks_before_attn_dp_size(extra, version, code):
    assert answer(extra, version=version, target=QWEN3) == code


TILELANG_FP8 = ["--kv-cache-dtype", "fp8_e4m3", "--dsa-prefill-backend", "tilelang"]


@pytest.mark.parametrize("extra, code", [
    (TILELANG_FP8 + ["--dsa-decode-backend", "tilelang", "--enable-hisparse", "--disable-radix-cache"],
     "MODEL_OVERRIDE_UNSUPPORTED"),
    (TILELANG_FP8 + ["--enable-hisparse", "--disable-radix-cache"], "MODEL_OVERRIDE_UNSUPPORTED"),  # decode: flashmla_kv
    (TILELANG_FP8 + ["--dsa-decode-backend", "tilelang", "--page-size", "64"], None),
])
def test_dsa_tilelang_fp8_kv_with_hisparse(extra, code):
    r = validate(extra, target=DSA)
    got = None if r.sglang_verdict["accepted"] else r.sglang_verdict["code"]
    assert got == code
    if code:
        assert "does not support HiSparse" in r.sglang_verdict["message"]


@pytest.mark.parametrize("page, code", [("96", "MAMBA_CHUNK_PAGE"), ("128", None), ("32", None)])
def test_ssm_chunk_and_page_divide_one_another(page, code):
    interval = str(int(page) * 2)
    assert answer(["--attention-backend", "triton", "--mamba-radix-cache-strategy", "extra_buffer", "--page-size", page,
                   "--mamba-track-interval", interval], target=NEXT) == code
    if code:
        assert answer(["--attention-backend", "triton", "--mamba-radix-cache-strategy", "extra_buffer", "--page-size",
                       page, "--mamba-track-interval", interval], target=dict(NEXT, mamba_chunk_size=32)) is None


# -- oldgpu (session 17) --: the same checks in 0.5.11-0.5.14 srt/server_args.py _handle_attention_backend_compatibility
# (SGLang's answers through the oracle's GPU stand-in, 2026-12-04)
@pytest.mark.parametrize("version, extra, gpus, code", [
    ("0.5.11", ["--attention-backend", "trtllm_mla"], H200, "MLA_BACKEND_GPU"),
    ("0.5.11", ["--attention-backend", "trtllm_mla", "--kv-cache-dtype", "fp8_e5m2"], B200, "MLA_BACKEND_KV_DTYPE"),
    ("0.5.11", ["--attention-backend", "trtllm_mla", "--kv-cache-dtype", "fp4_e2m1", "--page-size", "64"], B200, None),
    ("0.5.12", ["--attention-backend", "tokenspeed_mla"], H200, "MLA_BACKEND_GPU"),
    ("0.5.12", ["--attention-backend", "tokenspeed_mla", "--kv-cache-dtype", "bf16"], B200, "MLA_BACKEND_KV_DTYPE"),
    ("0.5.13", ["--attention-backend", "triton", "--decode-attention-backend", "cutedsl_mla"], H200, "MLA_BACKEND_GPU"),
    ("0.5.14", ["--prefill-attention-backend", "cutedsl_mla"], B200, "CUTEDSL_MLA_PREFILL"),
])
def test_mla_backend_checks_before_0_5_15(version, extra, gpus, code):
    assert answer(extra, version=version, gpus=gpus) == code
