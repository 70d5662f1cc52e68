"""Installed mode against the real SGLang 0.5.23 venv: the module logic asks SGLang itself.

Each call starts the SGLang python (import 3-8 s), so only a few behaviours a user relies on:
accepted spec with SGLang's resolved values, an override SGLang logs becoming an error, a removed
flag refused by SGLang's own parser, and verify: tree failing on a released SGLang.
"""
import os

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_flags_run as run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON = os.environ.get("SPECDEPLOY_SGLANG_PYTHON") or os.path.join(ROOT, ".lab", "sglang-venv", "bin", "python")
MODELS = os.environ.get("SPECDEPLOY_LAB_MODELS") or os.path.join(ROOT, ".lab", "models")
LAB_ENV = {"SPECDEPLOY_LAB_SHIM_MODULES": "sgl_kernel,torchvision", "HF_HUB_OFFLINE": "1"}

@pytest.fixture(autouse=True)
def _kit_present():
    """A missing SGLang venv fails the suite (it must not turn into skips)."""
    if not os.path.exists(PYTHON):
        pytest.fail("no SGLang venv at %s (make lab-kit)" % PYTHON)


def spec(**speculative):
    s = {"sglang_version": "0.5.23", "model_path": os.path.join(MODELS, "qwen3-8b-config"),
         "attention_backend": "flashinfer", "max_running_requests": 32, "env": dict(LAB_ENV),
         "speculative": dict({"algorithm": "DFLASH",
                              "draft_model_path": os.path.join(MODELS, "qwen3-8b-dflash-b16-config")}, **speculative)}
    return s


def installed(**params):
    base = {"mode": "installed", "python": PYTHON, "timeout": 600, "allow_overrides": [], "gpus": None}
    base.update(params)
    return run.run_flags(base)


def test_accepted_spec_reports_sglang_resolution_and_matches_static():
    out = installed(spec=spec(), capabilities={"version": "0.5.23", "tree_verify": []})
    assert out["ok"], out["errors"]
    assert out["sglang_verdict"]["accepted"] is True
    # the drafter's block_size 16 was read by SGLang itself
    assert out["resolved"]["speculative_num_draft_tokens"] == 16
    assert out["resolved"]["speculative_draft_attention_backend"] == "flashinfer"
    static = run.run_flags({"mode": "static", "spec": spec(), "allow_overrides": []})
    assert static["argv"] == out["argv"]
    for k in ("speculative_algorithm", "speculative_num_draft_tokens", "speculative_eagle_topk",
              "speculative_num_steps", "max_running_requests", "speculative_draft_attention_backend"):
        assert static["resolved"][k] == out["resolved"][k], k


def test_topk_override_seen_by_sglang_is_an_error():
    out = installed(argv=["--model-path", os.path.join(MODELS, "qwen3-8b-config"), "--speculative-algorithm", "DFLASH",
                          "--speculative-draft-model-path", os.path.join(MODELS, "qwen3-8b-dflash-b16-config"),
                          "--speculative-eagle-topk", "4", "--speculative-dflash-draft-window-size", "64"],
                    sglang_version="0.5.23", env=LAB_ENV)
    # the removed window flag: SGLang's own parser refuses it
    assert out["sglang_verdict"] == {"accepted": False, "code": "PARSE_UNRECOGNIZED", "stage": "parse",
                                     "message": out["sglang_verdict"]["message"], "judged_by_sglang": []}
    assert "--speculative-dflash-draft-window-size" in out["sglang_verdict"]["message"]
    assert out["capabilities"]["version"] == "0.5.23"
    assert out["capabilities"]["tree_verify"] == []
    assert "--speculative-draft-window-size" in out["capabilities"]["flags"]


def test_override_from_sglang_warning():
    out = installed(spec=spec(eagle_topk=4), capabilities={"version": "0.5.23", "tree_verify": []})
    assert not out["ok"]
    assert {"field": "speculative_eagle_topk", "requested": 4, "resolved": 1} in out["overrides"]
    assert any("overriding speculative_eagle_topk=4 to 1" in n["message"] for n in out["notes"])


def test_tree_verify_on_released_sglang_fails_saying_linear():
    out = installed(spec=spec(verify="tree"))
    codes = [e["code"] for e in out["errors"]]
    assert "TREE_VERIFY_UNAVAILABLE" in codes
    msg = next(e["message"] for e in out["errors"] if e["code"] == "TREE_VERIFY_UNAVAILABLE")
    assert "0.5.23" in msg and "linear" in msg
    assert not any(a.startswith("--speculative-dflash-tree") or a == "DDTREE" for a in out["argv"])
