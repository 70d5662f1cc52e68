"""Minimal probe of an installed SGLang, run with the venv's python (stand-in until the flags branch's
sglang_probe module is wired in). Prints {version, flags, tree_verify, algorithms} as JSON."""
import argparse
import importlib.metadata
import json

# Known tree-verify switches (../shared/reference/sglang.md section 5): flavor id -> flag that marks it.
TREE_VERIFY = {
    "ddtree-pr29907": "--speculative-ddtree-budget",
    "dflash-tree-verify-pr31069": "--speculative-dflash-tree-verify",
    "dflash-tree-width-pr36196": "--speculative-dflash-tree-width",
    "ddtree-fork-dbguo": "--speculative-dflash-enable-ddtree",
}

version = importlib.metadata.version("sglang")
from sglang.srt.server_args import ServerArgs  # noqa: E402 (after the version, which needs no import)

parser = argparse.ArgumentParser()
ServerArgs.add_cli_args(parser)
flags = sorted({opt for action in parser._actions for opt in action.option_strings if opt.startswith("--")})
algorithms = []
try:
    from sglang.srt.speculative.spec_info import SpeculativeAlgorithm
    algorithms = sorted(a.name for a in SpeculativeAlgorithm if a.name != "NONE")
except Exception:  # layout differs between versions: the flags still say what the parser takes
    pass
print(json.dumps({
    "version": version,
    "flags": flags,
    "tree_verify": sorted(k for k, flag in TREE_VERIFY.items() if flag in flags),
    "algorithms": algorithms,
}))
