"""Write plugins/module_utils/sglang_flagdata.py from an installed SGLang's real `sglang serve` parser.

Run with the SGLang venv's python (lab: SPECDEPLOY_LAB_SHIM_MODULES=sgl_kernel,torchvision):
    $SPECDEPLOY_SGLANG_PYTHON tools/capture_sglang_flags.py > plugins/module_utils/sglang_flagdata.py
Each long option becomes (kind, type, choices, dest), kind in store | flag | list | optional.
"""
import argparse
import sys
import textwrap

import sglang
from sglang.srt.server_args import ServerArgs

HEADER = '''# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parser table of SGLang %s, captured from its real argparse parser by tools/capture_sglang_flags.py.

Each long option: (kind, type, choices, dest); kind is store | flag | list | optional.
Regenerate, never hand-edit. stdlib only."""

'''


def main():
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
        choices = tuple(sorted(str(c) for c in action.choices)) if action.choices else None
        for o in longs:
            flags[o] = (kind, getattr(action.type, "__name__", None), choices, action.dest)
    name = "FLAGS_" + sglang.__version__.replace(".", "_")
    out = [HEADER % sglang.__version__ + name + " = {"]
    for k in sorted(flags):
        kind, typ, ch, dest = flags[k]
        line = "    %r: (%r, %r, %r, %r)," % (k, kind, typ, ch, dest)
        if len(line) <= 120:
            out.append(line)
            continue
        out += ["    %r: (" % k, "        %r, %r," % (kind, typ)]
        if ch:
            out.append("        (")
            items = ", ".join(repr(c) for c in ch) + ","
            out += ["            " + w for w in textwrap.wrap(items, 100, break_long_words=False, break_on_hyphens=False)]
            out.append("        ),")
        else:
            out.append("        None,")
        out += ["        %r," % dest, "    ),"]
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


main()
