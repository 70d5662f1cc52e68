"""MiMo V2 (session 16): the model hook's fused-qkv attention TP check (rules_model.py check_mimo_v2_fused_qkv, trait
mimo_v2_fused_qkv_tp) and the context-parallel hook's text-only prefill CP (rules_parallel.py _check_cp_model). Every
answer expected here was SGLang's own to the same flags in its kit (0.5.11, 0.5.16, 0.5.17, 0.5.22, 0.5.23)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8", "--attention-backend", "triton"]
MIMO = {"architectures": ["MiMoV2ForCausalLM"], "model_type": "qwen3", "num_key_value_heads": 2,
        "hybrid_layer_pattern": [1, 0] * 4, "sliding_window": 128}
FUSED = dict(MIMO, attention_projection_layout="fused_qkv")
MM = dict(MIMO, vision_config={}, audio_config={})
DP2 = ["--tp-size", "4", "--dp-size", "2", "--enable-dp-attention"]
CP = ["--enable-prefill-cp", "--cp-strategy", "zigzag"]


def code(cfg, extra, version, env=None):
    r = E.validate_argv(BASE + extra, version, read_paths=False, target_config=cfg, env=env or {})
    return r.sglang_verdict["code"]


@pytest.mark.parametrize("cfg, extra, version, want", [
    (FUSED, [], "0.5.11", "MIMO_V2_ATTN_TP"), (FUSED, [], "0.5.16", "MIMO_V2_ATTN_TP"),  # exactly TP 2 there
    (FUSED, [], "0.5.17", None), (FUSED, [], "0.5.23", None),  # a divisor of 2 from 0.5.17
    (FUSED, ["--tp-size", "2"], "0.5.11", None), (FUSED, ["--tp-size", "2"], "0.5.23", None),
    (FUSED, ["--tp-size", "4"], "0.5.16", "MIMO_V2_ATTN_TP"), (FUSED, ["--tp-size", "4"], "0.5.22", "MIMO_V2_ATTN_TP"),
    (FUSED, ["--tp-size", "4"], "0.5.23", "MIMO_V2_ATTN_TP"),
    (FUSED, DP2, "0.5.16", None), (FUSED, DP2, "0.5.23", None),  # attention TP 4 / 2 = 2
    (FUSED, ["--tp-size", "4", "--encoder-only"], "0.5.23", None),  # not for an encoder-only server (0.5.13 on)
    (MIMO, ["--tp-size", "4"], "0.5.23", None),  # without a fused layout: no check
    (dict(FUSED, architectures=["MiMoV2FlashForCausalLM"]), ["--tp-size", "4"], "0.5.23", None),
])
def test_mimo_v2_fused_qkv_attention_tp(cfg, extra, version, want):
    assert code(cfg, extra, version) == want


@pytest.mark.parametrize("cfg, extra, version, want", [
    (MM, CP, "0.5.23", "CP_MODEL"), (MM, CP, "0.5.22", "CP_MODEL"), (MM, CP, "0.5.17", "CP_MODEL"),
    (MM, CP, "0.5.16", "CP_MODEL"),
    (MM, CP + ["--language-only"], "0.5.23", None), (MM, CP + ["--language-only"], "0.5.16", None),
    (MM, [], "0.5.23", None),
    (MIMO, CP, "0.5.23", None),  # a text-only MiMo V2 (no vision_config / audio_config)
])
def test_mimo_v2_prefill_cp_text_only(cfg, extra, version, want):
    assert code(cfg, extra, version) == want


def test_mimo_v2_text_only_under_cp_v2_env():
    # 0.5.16-0.5.19 run the MiMo V2 CP block only under SGLANG_ENABLE_CP_V2 (on by default for it)
    assert code(MM, CP, "0.5.19", {"SGLANG_ENABLE_CP_V2": "0"}) is None
    assert code(MM, CP, "0.5.23", {"SGLANG_ENABLE_CP_V2": "0"}) == "CP_MODEL"


@pytest.mark.parametrize("version", ["0.5.20", "0.5.21", "0.5.23"])
def test_uno_dp_attention_at_dp_size_1_is_dropped_first(version):
    # speculative_hook.py _handle_uno reads attention DP as resolved: --enable-dp-attention at --dp-size 1 is no DP
    uno = ["--speculative-algorithm", "UNO", "--uno-lora-path", "/nonexistent/uno", "--speculative-num-draft-tokens",
           "4", "--attention-backend", "fa3", "--enable-dp-attention"]
    assert code({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"}, uno, version) is None


# -- gpu16 (session 17) --
@pytest.mark.parametrize("cfg, extra, version, env, want", [
    # 0.5.14-0.5.18 server_args.py _handle_model_specific_adjustments' MiMo V2 branch, after the fused-qkv check, on
    # both MiMo V2 architectures: HiCache needs SGLANG_ENABLE_UNIFIED_RADIX_TREE (an EnvBool)
    (MIMO, [], "0.5.16", None, "MIMO_V2_HICACHE"), (FUSED, ["--tp-size", "2"], "0.5.18", None, "MIMO_V2_HICACHE"),
    (dict(MIMO, architectures=["MiMoV2FlashForCausalLM"]), [], "0.5.14", None, "MIMO_V2_HICACHE"),
    (FUSED, ["--tp-size", "4"], "0.5.17", None, "MIMO_V2_ATTN_TP"),  # the fused-qkv check first
    (MIMO, [], "0.5.17", {"SGLANG_ENABLE_UNIFIED_RADIX_TREE": "y"}, None),
    (MIMO, [], "0.5.13", None, None), (MIMO, [], "0.5.19", None, None),
])
def test_mimo_v2_hicache_needs_unified_radix_tree(cfg, extra, version, env, want):
    assert code(cfg, ["--enable-hierarchical-cache"] + extra, version, env=env) == want
