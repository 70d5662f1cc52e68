"""Regenerate plugins/module_utils/sglang_flagdata.py's table for one SGLang version from its parser.

Run with the SGLang venv's python (lab: SPECDEPLOY_LAB_SHIM_MODULES=sgl_kernel,torchvision):
    $SPECDEPLOY_SGLANG_PYTHON tools/capture_sglang_flags.py > /tmp/flags.json
Prints {version, flags: {--long: [kind, choices-or-null]}} with kind in store|flag|list|optional.
"""
import argparse
import json
import sys

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
    elif action.nargs in ("*", "+") or isinstance(action.nargs, int) and action.nargs > 1:
        kind = "list"
    elif action.nargs == "?":
        kind = "optional"
    else:
        kind = "store"
    choices = sorted(str(c) for c in action.choices) if action.choices else None
    for o in longs:
        flags[o] = [kind, getattr(action.type, "__name__", None), choices, action.dest]
json.dump({"version": sglang.__version__, "flags": flags}, sys.stdout, sort_keys=True)
