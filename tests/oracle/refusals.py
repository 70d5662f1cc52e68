"""The refusals a SGLang release can give at argument time, enumerated from that release's own source.

Scope (per release): every `raise`, `assert` and `parser.error(...)` in sglang/srt/server_args.py and
sglang/srt/arg_groups/** (the code `sglang serve` runs from prepare_server_args through __post_init__ or
resolve_once() to check_server_args() before it starts a worker) that lies in a function on that path,
plus argparse's own exits (unknown, ambiguous, bad value, missing value). Also listed: the environment
variables that code reads.

On the path: reachable_functions() walks, by name, from ROOTS through the functions of those files and
of the sglang modules they import (the path leaves the files and comes back: speculative_hook ->
speculative/spec_info.py -> speculative_hook._handle_dflash); model overrides registered by a decorator
count (SGLang dispatches them by the target's architecture). By name means over-approximate, never under,
so the coverage figure is a lower bound.

Excluded, with why (off_path_refusals() lists them per release; the report keeps them):
- statements in those files that no function on the path reaches: PortArgs (ports, after resolution),
  get_global_server_args() (the scheduler's accessor), module __getattr__, and the plugin registration
  checks (register_resolution_hook, the prefill-buffer ceiling provider: a plugin's import, not an argv);
- NotImplementedError / ImportError raises (a missing optional package, not a refusal of the arguments);
- add_cli_args (the parser's definition; argparse's own exits stand for it);
- statements outside those files, though on the path (model config loading in srt/configs/, the
  algorithm registry in srt/speculative/, the env parsers in srt/environ.py): compared when a case reaches
  them, not counted. Their refusals are about the checkpoint and the install more than the arguments.

Not excluded, although the static engine cannot know them: checks on files and devices that exist only on
the host (an SSL key file, /sys/class/infiniband, a LoRA adapter dir) and on runtimes other than CUDA and
CPU (MPS, NPU, HPU, XPU, ROCm). They stay in the total, unreached until a case can present them (the
platform override covers CUDA facts only); only `mode: installed` (the host's own SGLang) answers them.

Coverage: a refusal is reached when SGLang's answer to at least one generated case raised at that
statement (the innermost sglang frame of the traceback, reported by the oracle runner), or, for
argparse's exits, when its message kind appeared. Source: the kit's installed package, or an unpacked
wheel under .lab/src/<version>/sglang.
"""
import ast
import glob
import os
import re

from lab import kits

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


# Where `sglang serve` enters argument resolution: prepare_server_args (parse, from_cli_args; 0.5.11-0.5.18
# resolve in ServerArgs.__post_init__), resolve_once() (0.5.19 on) and check_server_args().
ROOTS = ("prepare_server_args", "from_cli_args", "__post_init__", "resolve_once", "check_server_args")


def _defs(tree):
    """{function name: [FunctionDef]} over a module (methods and nested functions included), the classes
    ({name: ClassDef}), and the names the module's top level refers to (runs at import)."""
    funcs, classes = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = node
    top = set()
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:  # decorators run at import
                top |= _refs(d)
            continue
        if isinstance(node, ast.ClassDef):
            stack.extend(node.body)
            top.update(n.id for b in node.bases for n in ast.walk(b) if isinstance(n, ast.Name))
            continue
        top.update(_refs(node))
    return funcs, classes, top


def _refs(node):
    """Every name and attribute name `node` refers to (a call, or a function passed on: run_hook(f, ...))."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            out.add(n.value)  # getattr(self, "_handle_x"), lazy imports by name
    return out


def _registered(fn):
    """A function registered by a decorator (model overrides: @register_model_override, @_register_for):
    dispatched by architecture from the resolution path, so on it."""
    for d in fn.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        if "register" in getattr(d, "id", getattr(d, "attr", "")):
            return True
    return False


def reachable_functions(trees):
    """The FunctionDef nodes reachable from ROOTS over `trees` (parsed modules of the scope), by name: a
    function is reached when a reached function (or module top level) names it. By name, so over-approximate
    (two functions of one name are both reached), never under: the coverage figure stays a lower bound.
    A class named is reached with its dunder methods (construction, attribute hooks); an argparse.Action
    subclass named anywhere (add_cli_args registers them) with its __call__."""
    funcs, classes, names = {}, {}, set(ROOTS)
    for tree in trees:
        f, c, top = _defs(tree)
        for k, v in f.items():
            funcs.setdefault(k, []).extend(v)
        classes.update(c)
        names |= top
    for k, v in funcs.items():
        if any(_registered(fn) for fn in v):
            names.add(k)
    done, todo, seen = set(), list(names), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        new = set()
        for fn in funcs.get(name, ()):
            if id(fn) not in done:
                done.add(id(fn))
                new |= _refs(fn)
        cls = classes.get(name)
        if cls is not None:
            for item in cls.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("__"):
                    done.add(id(item))
                    new |= _refs(item)
        todo.extend(new - seen)
    return done


def _bridges(pkg, trees):
    """The other sglang modules the scope imports from (parsed): the path runs through them and back
    (speculative_hook -> speculative/spec_info.py's handle_server_args -> speculative_hook._handle_dflash).
    Followed for names only; their own statements are not counted (see the module docstring)."""
    base, own, out = os.path.dirname(pkg), set(_files(pkg)), []
    mods = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sglang."):
                mods.add(node.module)
            elif isinstance(node, ast.Import):
                mods.update(a.name for a in node.names if a.name.startswith("sglang."))
    for mod in sorted(mods):
        stem = os.path.join(base, *mod.split("."))
        for path in (stem + ".py", os.path.join(stem, "__init__.py")):
            if os.path.isfile(path) and path not in own:
                with open(path, encoding="utf-8") as f:
                    try:
                        out.append(ast.parse(f.read()))
                    except SyntaxError:
                        pass
                break
    return out


def _refusal_nodes(tree, skip):
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if getattr(exc, "id", getattr(exc, "attr", "")) in ("NotImplementedError", "ImportError",
                                                                   "ModuleNotFoundError"):
                continue
            yield node, "raise", _text(node.exc)
        elif isinstance(node, ast.Assert):
            yield node, "assert", _text(node.msg) if node.msg is not None else ""
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "error" \
                and getattr(node.func.value, "id", "") == "parser":
            yield node, "parser.error", _text(node)


def _scan(version):
    """(refusals on the path, statements in the scope's files but off it) for `version`."""
    pkg = source_root(version)
    if pkg is None:
        return [], []
    base = os.path.dirname(pkg)
    parsed = []
    texts = {}
    for path in _files(pkg):
        with open(path, encoding="utf-8") as f:
            rel = os.path.relpath(path, base)
            texts[rel] = f.read().splitlines()
            parsed.append((rel, ast.parse("\n".join(texts[rel]))))
    live = reachable_functions([t for _r, t in parsed] + _bridges(pkg, [t for _r, t in parsed]))
    on, off = [], []
    for rel, tree in parsed:
        skip, owner = set(), {}
        for node in ast.walk(tree):  # the parser's definition is not a refusal
            if isinstance(node, ast.FunctionDef) and node.name in ("add_cli_args", "__repr__"):
                skip.update(id(n) for n in ast.walk(node))
        opener = {}  # id(statement) -> the node whose line opens the block it sits in
        for node in ast.walk(tree):  # each statement's outermost function
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for n in ast.walk(node):
                    owner.setdefault(id(n), []).append(node)
            if not isinstance(node, ast.Module):
                for field in ("body", "orelse", "finalbody", "handlers"):
                    block = getattr(node, field, None)
                    for child in block if isinstance(block, list) else ():  # not an IfExp's expressions
                        opener[id(child)] = node
        lines = texts[rel]
        for node, kind, msg in _refusal_nodes(tree, skip):
            fns = owner.get(id(node), [])
            end = getattr(node, "end_lineno", None) or node.lineno
            head = opener.get(id(node))
            row = {"id": "%s:%d" % (rel, node.lineno), "file": rel, "line": node.lineno, "kind": kind,
                   "message": msg, "end": end,
                   "function": fns[-1].name if fns else "",  # the innermost function around it
                   # the statement's source, after the line that opens its block (`except ...:` in a handler; an
                   # `if`'s own line for either branch): tells apart refusals of one function without message text
                   "source": "\n".join(ln.strip() for ln in ([lines[head.lineno - 1]] if head is not None else []) +
                                        lines[node.lineno - 1:end])}
            # a statement counts when any function around it is reached (nested helpers run with their parent)
            (on if any(id(fn) in live for fn in fns) else off).append(row)
    return on, off


def enumerate_refusals(version):
    """[{id, file, line, kind, message, end, function, source}]: the refusals on `version`'s argument-resolution path (empty when its
    source is not available), argparse's exits included."""
    on, _off = _scan(version)
    if not on:
        return []
    for k in ARGPARSE_KINDS:
        on.append({"id": k, "file": "argparse", "line": 0, "kind": "argparse", "message": ARGPARSE_KINDS[k]})
    return on


def off_path_refusals(version):
    """The refusal statements in the scope's files that no function on the path reaches (PortArgs, the
    scheduler's and tokenizer's helpers, module-level import checks): excluded from the total."""
    return _scan(version)[1]


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
    # a multi-line statement raises at the line of its failing part (a multi-line assert's condition): the
    # innermost statement whose lines hold it
    spans = {}
    for r in refusals:
        if r.get("file") and r.get("end", r["line"]) > r["line"]:
            spans.setdefault(r["file"], []).append((r["end"] - r["line"], r["line"], r["end"], r["id"]))
    hit = set()
    for a in answers:
        if a.get("error") is None:
            continue
        where = a.get("where")
        if where and ("%s:%d" % (where[0], where[1])) in ids:
            hit.add("%s:%d" % (where[0], where[1]))
        elif where:
            inner = sorted(x for x in spans.get(where[0], ()) if x[1] <= where[1] <= x[2])
            if inner:
                hit.add(inner[0][3])
        if a.get("stage") == "parse":
            for k, rx in ARGPARSE_KINDS.items():
                if re.search(rx, a.get("error") or ""):
                    hit.add(k)
    return hit
