"""Session 15's remaining 0.5.23 refusals (rules_speculative.resolve_iquest_mtp_draft, rules_model.check_model_specific's
Intern-S2-Mobius branch and check_mamba_state, rules_pd.check_encoder_disaggregation's Muse Spark check, the block
verification device check, rules_serving's prefill_complete optimistic prefill): each refusal, the accepted neighbour, and the release traits. Every expectation here was
SGLang's own answer to the same flags in its kit (the differential runs: cases.MODEL_CHECK_EXTRA's iquest-mtp-*,
cases.MISC_CHECK_EXTRA)."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]


def _cfg(arch, **more):
    cfg = {"architectures": [arch], "model_type": "qwen3", "hidden_size": 256, "num_hidden_layers": 8,
           "max_position_embeddings": 40960, "vocab_size": 151936}
    cfg.update(more)
    return cfg


IQUEST = _cfg("IQuestQ1ForCausalLM")
QWEN3 = _cfg("Qwen3ForCausalLM")
MOBIUS = _cfg("InternS2MobiusForConditionalGeneration")
MUSE = _cfg("MuseSparkForConditionalGeneration")
MTP = {"architectures": ["IQuestQ1MTP"], "model_type": "iquest_q1_mtp", "hidden_size": 256, "vocab_size": 151936,
       "num_hidden_layers": 1, "num_target_layers": 8, "num_draft_slots": 5}
EAGLE_FA3 = ["--attention-backend", "fa3", "--speculative-algorithm", "EAGLE"]
PC = ["--disaggregation-mode", "prefill", "--disaggregation-decode-allocation-policy", "prefill_complete"]
DRAFT = ["--speculative-draft-model-path", "/d"]


def run(extra, target, version="0.5.23", draft=None):
    return E.validate_argv(BASE + extra, version, gpus=[], read_paths=False, target_config=target, draft_config=draft,
                           env={})


def answer(extra, target, version="0.5.23", draft=None):
    r = run(extra, target, version, draft)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input") and e["code"] != "GPU_COUNT"]
    return codes[0] if codes else None


Q = "IQUEST_MTP_DRAFT"


@pytest.mark.parametrize("extra, draft, code", [
    ([], MTP, Q),  # no draft path
    (["--speculative-draft-model-path", "/m"], MTP, Q),  # the target's own path
    (DRAFT, dict(MTP, model_type="qwen3", architectures=["DFlashDraftModel"]), Q),
    (DRAFT, dict(MTP, hidden_size=512), Q), (DRAFT, dict(MTP, vocab_size=1000), Q),
    (DRAFT, dict(MTP, num_target_layers=12), Q),
    (DRAFT + ["--speculative-token-map", "/t.pt"], MTP, Q),
    (DRAFT + ["--speculative-num-steps", "0"], MTP, Q), (DRAFT + ["--speculative-eagle-topk", "0"], MTP, Q),
    (DRAFT + ["--speculative-num-steps", "3", "--speculative-num-draft-tokens", "5"], MTP, Q),
    (DRAFT, MTP, None), (DRAFT + ["--speculative-eagle-topk", "1"], MTP, None),
    (DRAFT + ["--speculative-num-draft-tokens", "6"], MTP, None),
    (DRAFT + ["--speculative-num-steps", "3", "--speculative-num-draft-tokens", "4"], MTP, None),
])
def test_iquest_mtp_draft(extra, draft, code):
    assert answer(EAGLE_FA3 + extra, IQUEST, draft=draft) == code


def test_iquest_mtp_draft_sets_the_steps():
    r = run(EAGLE_FA3 + DRAFT, IQUEST, draft=MTP)  # num_draft_slots 5: steps 5, top-k 1, verify width 6
    assert (r.resolved["speculative_num_steps"], r.resolved["speculative_eagle_topk"],
            r.resolved["speculative_num_draft_tokens"]) == (5, 1, 6)
    r = run(EAGLE_FA3 + DRAFT, IQUEST, draft={k: v for k, v in MTP.items() if k != "num_draft_slots"})
    assert r.resolved["speculative_num_steps"] == 7  # IQuestQ1MTPConfig's default num_draft_slots
    # the draft's own config unread: not judged (a warning), the path check still is
    assert answer(EAGLE_FA3 + DRAFT, IQUEST) is None
    assert "IQUEST_MTP_DRAFT_UNKNOWN" in [w["code"] for w in run(EAGLE_FA3 + DRAFT, IQUEST).warnings]
    # before 0.5.21 (no such check) and on another target the EAGLE defaults stand
    assert answer(EAGLE_FA3 + DRAFT + ["--speculative-num-steps", "0"], IQUEST, "0.5.20", draft=MTP) != Q
    assert answer(["--speculative-algorithm", "EAGLE"] + DRAFT, QWEN3, draft=dict(MTP, hidden_size=512)) is None


def test_block_verification_off_cuda():
    eagle3 = ["--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
              "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4",
              "--speculative-use-block-verification"]
    assert answer(eagle3 + ["--device", "cpu"], QWEN3) == "BLOCK_VERIFICATION_DEVICE"
    assert answer(eagle3, QWEN3) is None


@pytest.mark.parametrize("extra, target, version, code", [
    (["--pp-size", "2"], MOBIUS, "0.5.23", "MODEL_ARCHITECTURE_FLAG"),
    (["--ep-size", "2", "--tp-size", "2"], MOBIUS, "0.5.23", "MODEL_ARCHITECTURE_FLAG"),
    (["--pp-size", "2"], MOBIUS, "0.5.18", "MODEL_ARCHITECTURE_FLAG"),
    (["--pp-size", "2"], MOBIUS, "0.5.17", None), (["--tp-size", "2"], MOBIUS, "0.5.23", None),
    (["--pp-size", "2"], QWEN3, "0.5.23", None),
    (["--mamba-radix-cache-strategy", "extra_buffer"], QWEN3, "0.5.23", "MAMBA_RADIX_CACHE"),
    (["--mamba-radix-cache-strategy", "extra_buffer_lazy"], QWEN3, "0.5.21", "MAMBA_RADIX_CACHE"),
    (["--mamba-radix-cache-strategy", "extra_buffer", "--disable-radix-cache"], QWEN3, "0.5.23", None),
    (["--mamba-radix-cache-strategy", "no_buffer"], QWEN3, "0.5.23", None),
    (["--mamba-radix-cache-strategy", "extra_buffer"], _cfg("Qwen3ForCausalLM", model_type="gigachat3_5"), "0.5.23",
     None),
    (["--language-only", "--enable-adaptive-dispatch-to-encoder"], MUSE, "0.5.23", "ENCODER_DISAGG"),
    (["--language-only"], MUSE, "0.5.23", None),
    (PC + ["--optimistic-prefill-attempts", "-1"], QWEN3, "0.5.23", "PD_PREFILL_COMPLETE"),
    (PC + ["--optimistic-prefill-attempts", "-1"], QWEN3, "0.5.22", "PD_PREFILL_COMPLETE"),
    (PC + ["--optimistic-prefill-attempts", "0"], QWEN3, "0.5.23", None), (PC, QWEN3, "0.5.23", None),
])
def test_model_and_encoder_checks(extra, target, version, code):
    assert answer(extra, target, version) == code


def test_release_traits():
    rel = E.releases.release
    assert [v for v in E.KNOWN_VERSIONS if rel(v)["iquest_mtp_draft"]] == ["0.5.21", "0.5.22", "0.5.23"]
    assert rel("0.5.18")["interns2_mobius_no_pp_ep"] and not rel("0.5.17")["interns2_mobius_no_pp_ep"]
    assert rel("0.5.20")["mamba_state_archs"] is None
    assert "MiniCPMV4_7ForConditionalGeneration" in rel("0.5.23")["mamba_state_archs"]
    assert "MiniCPMV4_7ForConditionalGeneration" not in rel("0.5.22")["mamba_state_archs"]
    assert [v for v in E.KNOWN_VERSIONS if rel(v)["muse_language_only_adaptive"]] == ["0.5.23"]
