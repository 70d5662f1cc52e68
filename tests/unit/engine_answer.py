"""The engine's answer as the rules tests read it (one definition for tests/unit/test_rules_*.py).

`first_refusal(result)`: the code of the argument-time refusal in a validate_argv Result - SGLang's verdict as the
engine predicts it, else the first error of stage parse, resolve or input - or None when SGLang would accept the argv
(load, hardware and policy errors are the engine's own, later findings). tests/oracle/cases.py static_refusal is the
oracle's version of the same reading (it also skips the ENV_SECRET policy code and returns the stage).
"""

ARGUMENT_STAGES = ("parse", "resolve", "input")


def first_refusal(result):
    if not result.sglang_verdict["accepted"]:
        return result.sglang_verdict["code"]
    return next((e["code"] for e in result.errors if e["stage"] in ARGUMENT_STAGES), None)
