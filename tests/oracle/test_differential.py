"""Differential tests: the static 0.5.23 rule table against SGLang 0.5.23's own argument resolver.

Hypothesis generates the configurations (seeded: derandomize=True, so every run draws the same
ones); one SGLang subprocess resolves all of them (fresh ServerArgs per case), then each static
verdict and resolved speculative setting is compared with SGLang's. Disagreements found while
building the engine are kept in regressions.json and always run.

SGLang: $SPECDEPLOY_SGLANG_PYTHON (default /work/main/.lab/sglang-venv/bin/python), with the lab
shim for the CPU-only venv. The agreement figure is printed and written to .lab/oracle-agreement.json.
"""
import json
import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_oracle as oracle
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as spec

from . import cases as C

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = os.environ.get("SPECDEPLOY_SGLANG_PYTHON", "/work/main/.lab/sglang-venv/bin/python")
N_EXAMPLES = int(os.environ.get("SPECDEPLOY_ORACLE_EXAMPLES", "1000"))
SHIM_ENV = {"SPECDEPLOY_LAB_SHIM_MODULES": os.environ.get("SPECDEPLOY_LAB_SHIM_MODULES", "sgl_kernel,torchvision"),
            "HF_HUB_OFFLINE": "1"}

pytestmark = pytest.mark.skipif(not os.path.exists(PYTHON), reason="no SGLang venv at %s (make lab-kit)" % PYTHON)


def generated_cases():
    out = []

    @settings(max_examples=N_EXAMPLES, derandomize=True, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(C.case_strategy)
    def collect(case):
        out.append(case)

    collect()
    seen, unique = set(), []
    for c in out:
        key = json.dumps(c, sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def regression_cases():
    with open(os.path.join(HERE, "regressions.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    dirs = C.write_models(str(tmp_path_factory.mktemp("models")))
    cases = [dict(c, origin="regression") for c in regression_cases()] + \
        [dict(c, origin="hypothesis") for c in generated_cases()]
    argvs = [C.argv_for(c, dirs) for c in cases]
    keys = list(spec.RESOLVED_KEYS)
    answers = oracle.resolve_many(PYTHON, [{"id": i, "argv": a, "keys": keys, "env": c.get("env") or {}}
                                           for i, (c, a) in enumerate(zip(cases, argvs))],
                                  timeout=1800, extra_env=SHIM_ENV)
    rows = []
    for case, argv, answer in zip(cases, argvs, answers):
        static = spec.validate_argv(argv, "0.5.23", env=case.get("env") or {}, gpus=[])  # the oracle host has no GPU
        rows.append({"case": case, "argv": argv, "answer": answer, "static": static,
                     "why": C.compare(static, answer, oracle)})
    generated = [r for r in rows if r["case"]["origin"] == "hypothesis"]
    agreed = sum(1 for r in generated if r["why"] is None)
    report = {"refusals": dict(__import__("collections").Counter(oracle.classify(r["answer"]) for r in rows if r["answer"].get("error"))),
              "hypothesis_cases": len(generated), "hypothesis_agreed": agreed,
              "regression_cases": len(rows) - len(generated),
              "regression_agreed": sum(1 for r in rows if r["case"]["origin"] == "regression" and r["why"] is None),
              "sglang_refused": sum(1 for r in generated if r["answer"].get("error")),
              "disagreements": [{"case": r["case"], "why": r["why"]} for r in rows if r["why"]]}
    os.makedirs(os.path.join(ROOT, ".lab"), exist_ok=True)
    with open(os.path.join(ROOT, ".lab", "oracle-agreement.json"), "w") as f:
        json.dump(report, f, indent=1, default=str)
    print("\noracle agreement: %d/%d generated cases (SGLang refused %d), regressions %d/%d" % (
        agreed, len(generated), report["sglang_refused"], report["regression_agreed"], report["regression_cases"]))
    return rows


def test_at_least_500_generated_cases(verdicts):
    assert sum(1 for r in verdicts if r["case"]["origin"] == "hypothesis") >= 500


def test_cases_cover_both_verdicts(verdicts):
    """A generator that only produced accepted (or only refused) configurations would prove little."""
    refused = sum(1 for r in verdicts if r["answer"].get("error"))
    assert 0.2 * len(verdicts) < refused < 0.8 * len(verdicts)


def test_static_agrees_with_sglang_on_generated_cases(verdicts):
    bad = [r for r in verdicts if r["case"]["origin"] == "hypothesis" and r["why"]]
    assert not bad, "%d disagreements, first: %s\nargv: %s" % (len(bad), bad[0]["why"], bad[0]["argv"])


def test_static_agrees_with_sglang_on_regressions(verdicts):
    bad = [r for r in verdicts if r["case"]["origin"] == "regression" and r["why"]]
    assert not bad, "\n".join("%s: %s" % (r["case"].get("note"), r["why"]) for r in bad)


def test_overrides_flagged_where_sglang_warns(verdicts):
    """Every topk/num_steps override SGLang logs is an error the static engine reports (SPEC_OVERRIDDEN)."""
    checked = 0
    for r in verdicts:
        warned = [w for w in r["answer"].get("warnings") or [] if "overriding speculative_" in w]
        if warned and not r["answer"].get("error"):
            checked += 1
            assert "SPEC_OVERRIDDEN" in r["static"].codes(), (r["argv"], warned)
    assert checked > 10


def test_refusal_reasons_are_varied(verdicts):
    """The generated configurations reach many different SGLang refusals, not one over and over."""
    reasons = {oracle.classify(r["answer"]) for r in verdicts if r["answer"].get("error")}
    assert len(reasons) >= 8, reasons
