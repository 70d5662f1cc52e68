"""The refusals a SGLang release can give at argument time, enumerated from that release's own source.

Scope (per release): every `raise`, `assert` and `parser.error(...)` in sglang/srt/server_args.py and
sglang/srt/arg_groups/** (the code `sglang serve` runs from prepare_server_args through __post_init__ or
resolve_once() to check_server_args() before it starts a worker), plus argparse's own exits (unknown,
ambiguous, bad value, missing value). This over-approximates the path: a few of those statements are
reached only through other entry points (Engine(), PortArgs) and are listed all the same, so the
coverage figure is a lower bound. Also listed: the environment variables that code reads.

Coverage: a refusal is reached when SGLang's answer to at least one generated case raised at that
statement (the innermost sglang frame of the traceback, reported by the oracle runner), or, for
argparse's exits, when its message kind appeared. Source: the kit's installed package, or an unpacked
wheel under .lab/src/<version>/sglang.
"""
import ast
import glob
import os
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import kits

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

ARGPARSE_KINDS = {
    "argparse:unrecognized": r"unrecognized arguments",
    "argparse:ambiguous": r"ambiguous option",
    "argparse:invalid": r"invalid (\w+ value|choice)",
    "argparse:expected": r"expected (one|at least one) argument",
}
_ENV_RX = re.compile(r"""(?:envs\.|get_bool_env_var\(\s*["']|get_int_env_var\(\s*["']|environ(?:\.get)?[\[(]\s*["']|getenv\(\s*["'])(SGL(?:ANG)?_\w+)""")


# the lab's own venv of the newest release (make lab-kit builds no separate kit for it)
MAIN_PYTHON = os.environ.get("SPECDEPLOY_SGLANG_PYTHON") or os.path.join(ROOT, ".lab", "sglang-venv", "bin", "python")
MAIN_RELEASE = "0.5.23"


def python_for(version):
    """The python of the venv holding SGLang `version`: its kit, else (the newest) the lab venv; or None."""
    p = kits.kit_python(version, ROOT)
    if os.path.exists(p):
        return p
    if version == MAIN_RELEASE and os.path.exists(MAIN_PYTHON):
        return MAIN_PYTHON
    return None


def source_root(version):
    """The sglang package directory of `version`: its venv's site-packages (python_for), else
    .lab/src/<version>/sglang."""
    python = python_for(version)
    kit = os.path.dirname(os.path.dirname(python)) if python else ""
    for d in sorted(glob.glob(os.path.join(kit, "lib", "python3*", "site-packages", "sglang"))) if kit else []:
        return d
    d = os.path.join(ROOT, ".lab", "src", version, "sglang")
    return d if os.path.isdir(d) else None


def _files(pkg):
    srt = os.path.join(pkg, "srt")
    out = [os.path.join(srt, "server_args.py")]
    out += sorted(glob.glob(os.path.join(srt, "arg_groups", "**", "*.py"), recursive=True))
    return [f for f in out if os.path.isfile(f)]


def _text(node):
    """Constant text pieces of a message expression (f-string parts, concatenations, % formats)."""
    parts = []
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            parts.append(n.value)
    return " ".join(p.strip() for p in parts if p.strip())[:160]


def enumerate_refusals(version):
    """[{id, file, line, kind, message}] for `version` (empty when its source is not available)."""
    pkg = source_root(version)
    if pkg is None:
        return []
    base = os.path.dirname(pkg)
    out = []
    for path in _files(pkg):
        rel = os.path.relpath(path, base)
        tree = ast.parse(open(path, encoding="utf-8").read())
        skip = set()
        for node in ast.walk(tree):  # the parser's definition is not a refusal
            if isinstance(node, ast.FunctionDef) and node.name in ("add_cli_args", "__repr__"):
                skip.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            kind = msg = None
            if isinstance(node, ast.Raise) and node.exc is not None:
                kind, msg = "raise", _text(node.exc)
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                name = getattr(exc, "id", getattr(exc, "attr", ""))
                if name in ("NotImplementedError", "ImportError", "ModuleNotFoundError"):
                    continue
            elif isinstance(node, ast.Assert):
                kind, msg = "assert", _text(node.msg) if node.msg is not None else ""
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "error" \
                    and getattr(node.func.value, "id", "") == "parser":
                kind, msg = "parser.error", _text(node)
            if kind:
                out.append({"id": "%s:%d" % (rel, node.lineno), "file": rel, "line": node.lineno, "kind": kind,
                            "message": msg})
    for k in ARGPARSE_KINDS:
        out.append({"id": k, "file": "argparse", "line": 0, "kind": "argparse", "message": ARGPARSE_KINDS[k]})
    return out


def validated_env(version):
    """Environment variables (SGLANG_*, SGL_*) the resolution code reads."""
    pkg = source_root(version)
    if pkg is None:
        return []
    names = set()
    for path in _files(pkg):
        names.update(_ENV_RX.findall(open(path, encoding="utf-8").read()))
    return sorted(names)


def reached(refusals, answers):
    """The ids of `refusals` that at least one answer raised at."""
    ids = {r["id"] for r in refusals}
    hit = set()
    for a in answers:
        if a.get("error") is None:
            continue
        where = a.get("where")
        if where and ("%s:%d" % (where[0], where[1])) in ids:
            hit.add("%s:%d" % (where[0], where[1]))
        if a.get("stage") == "parse":
            for k, rx in ARGPARSE_KINDS.items():
                if re.search(rx, a.get("error") or ""):
                    hit.add(k)
    return hit
