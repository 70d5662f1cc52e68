#!/usr/bin/env python3
"""Same answers before and after a speed change of the flags engine. Prints differences; asserts nothing.

    .venv/bin/python bench/engine_equivalence.py cases CASES.json [--draws 400]
    .venv/bin/python bench/engine_equivalence.py run CASES.json OUT.json      # in each checkout
    .venv/bin/python bench/engine_equivalence.py diff A.json B.json

`cases` writes the calls: bench_flags.specs() with and without GPUs and configs, tests/oracle/cases.py's
sweep and `--draws` seeded hypothesis draws of its case_strategy, each as an argv over every known release
(with and without read_paths, on no GPU and on each of cases.GPUS) and as a spec through argv_to_spec (tree
verify, capabilities and allow_overrides varied). `run` answers them with the engine of the checkout the
script lives in (so copy this file into a baseline clone and run it there) and writes every validate() /
validate_argv() result in full (as_dict). `diff` names each call whose answers differ, with the first
differing key. The model dirs are written under /tmp/specdeploy-equivalence on both sides.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
exec(open(os.path.join(ROOT, "tests", "conftest.py")).read(), {"__file__": os.path.join(ROOT, "tests", "conftest.py")})

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S  # noqa: E402

MODELS = "/tmp/specdeploy-equivalence"


def write_cases(path, draws):
    from tests.oracle import cases as C
    from tests.oracle.test_differential import generated_cases
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import bench_flags as B

    drawn = generated_cases(draws)  # the oracle's seeded draws, deduplicated
    dirs = C.write_models(MODELS)
    calls = []
    for sp in B.specs():
        calls.append({"kind": "spec", "spec": sp, "gpus": B.PRO6000, "target_config": B.TARGET,
                      "draft_config": B.DRAFT, "read_paths": False})
        calls.append({"kind": "spec", "spec": sp})
        calls.append({"kind": "spec", "spec": sp, "gpus": B.PRO6000, "read_paths": False})
    flavors = [None, {"tree_verify": ["sglang-pr31069"]}, {"tree_verify": ["sglang-pr29907"]}]
    for i, case in enumerate(C.sweep_cases() + drawn):
        argv = C.argv_for(case, dirs)
        gpus = C.GPUS[case.get("gpu")] or None
        for j, version in enumerate(S.KNOWN_VERSIONS):
            if (i + j) % 4 and version != S.KNOWN_VERSIONS[-1]:
                continue  # every release, a quarter of the cases each; the newest on all
            calls.append({"kind": "argv", "argv": argv, "version": version, "env": case["env"], "gpus": gpus,
                          "read_paths": bool(i % 2)})
        try:
            spec = S.argv_to_spec(argv, S.KNOWN_VERSIONS[-1], env=case["env"])
        except ValueError:
            continue
        caps = flavors[i % 3]
        if i % 5 == 0:
            spec.setdefault("speculative", {})["allow_overrides"] = ["speculative_eagle_topk"]
        calls.append({"kind": "spec", "spec": spec, "gpus": gpus, "capabilities": caps, "read_paths": bool(i % 2),
                      "allow_overrides": ["speculative_num_draft_tokens"] if i % 7 == 0 else []})
        if gpus:
            calls.append({"kind": "spec", "spec": spec, "read_paths": True,
                          "gpus": [dict(g, memory_total_mib=97887) for g in gpus]})
    with open(path, "w") as f:
        json.dump(calls, f)
    print("%d calls (%d distinct drawn cases, %d sweep cases) -> %s" % (len(calls), len(drawn), len(C.sweep_cases()),
                                                                         path))


def answer(call):
    c = dict(call)
    kind = c.pop("kind")
    if kind == "spec":
        r = S.validate(c.pop("spec"), **c)
    else:
        r = S.validate_argv(c.pop("argv"), c.pop("version"), **c)
    return r.as_dict()


def run(cases, out):
    from tests.oracle import cases as C
    C.write_models(MODELS)
    with open(cases) as f:
        calls = json.load(f)
    with open(out, "w") as f:
        json.dump([answer(c) for c in calls], f, sort_keys=True)
    print("%d answers -> %s" % (len(calls), out))


def diff(a, b):
    with open(a) as f:
        left = json.load(f)
    with open(b) as f:
        right = json.load(f)
    if len(left) != len(right):
        print("different numbers of answers: %d and %d" % (len(left), len(right)))
        return 1
    bad = 0
    for i, (x, y) in enumerate(zip(left, right)):
        if x != y:
            bad += 1
            key = next(k for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k))
            if bad <= 10:
                print("call %d differs in %s:\n  %r\n  %r" % (i, key, x.get(key), y.get(key)))
    print("%d of %d answers differ" % (bad, len(left)))
    return 1 if bad else 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "cases":
        n = int(sys.argv[sys.argv.index("--draws") + 1]) if "--draws" in sys.argv else 400
        write_cases(sys.argv[2], n)
    elif cmd == "run":
        run(sys.argv[2], sys.argv[3])
    elif cmd == "diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
