"""Print, as JSON, the `sglang serve` parser table of the SGLang this python imports (run INSIDE a kit).

    $SPECDEPLOY_LAB_KITS/<version>/bin/python tools/capture_sglang_flags.py > table.json

Lab kits need SPECDEPLOY_LAB_SHIM_MODULES=sgl_kernel,torchvision (tools/sglang-release sets it).
Output: {"version", "flags": {flag: [kind, type, choices, dest]}, "algorithms": [...]}; kind is
store | flag | list | optional. tools/sglang-release turns it into plugins/module_utils/sglang_engine/
parsers/v<version>.py. Python >= 3.10, SGLang only.
"""
import argparse
import contextlib
import io
import json
import sys


def main():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import sglang
        from sglang.srt.server_args import ServerArgs
    parser = argparse.ArgumentParser(prog="sglang serve")
    ServerArgs.add_cli_args(parser)
    flags = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if not longs:
            continue
        if action.nargs == 0:
            kind = "flag"
        elif action.nargs == "*":
            kind = "list*"  # none or more values
        elif action.nargs == "+" or isinstance(action.nargs, int) and action.nargs > 1:
            kind = "list"  # at least one value
        elif action.nargs == "?":
            kind = "optional"
        else:
            kind = "store"
        choices = sorted(str(c) for c in action.choices) if action.choices else None
        for o in longs:
            flags[o] = [kind, getattr(action.type, "__name__", None), choices, action.dest]
    algos = []
    try:
        from sglang.srt.speculative.spec_info import SpeculativeAlgorithm
        algos = [m.name for m in SpeculativeAlgorithm if m.name != "NONE"]
    except Exception:  # noqa: BLE001 -- older layouts: the parser's choices are the list
        pass
    version = getattr(sglang, "__version__", None)
    if version is None:
        from importlib.metadata import version as _v
        version = _v("sglang")
    sys.stdout.write(json.dumps({"version": version, "flags": flags, "algorithms": algos}, sort_keys=True) + "\n")


main()
