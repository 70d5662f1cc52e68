"""The engine's rule gates (common.gate) against what the gated functions read.

A gated group of rules is skipped when the args hold none of its keys, so a key it reads but does not list
would silently switch a refusal off. Every args read of a gated function (args.get("k"), get(args, "k"),
args["k"], "k" in args, and the same through a helper of the same module that it hands `args` to) must be
in its keys or its context.
"""
import ast
import importlib
import inspect
import pkgutil
import textwrap

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import common


def _modules():
    for info in pkgutil.iter_modules(sglang_engine.__path__):
        if not info.ispkg:
            yield importlib.import_module(sglang_engine.__name__ + "." + info.name)


def _gated():
    out = []
    for mod in _modules():
        for name, fn in vars(mod).items():
            if inspect.isfunction(fn) and fn.__module__ == mod.__name__ and isinstance(getattr(fn, "keys", None), frozenset):
                out.append((mod, name, fn))
    return out


def _strings(node):
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _loop_keys(tree, name):
    """String constants a `for <name> in <literal>` loop of the function can bind to `name`."""
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and name in {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}:
            if not isinstance(node.iter, (ast.Tuple, ast.List, ast.Set)):
                raise AssertionError("loop over a computed sequence binds %s: unroll it or iterate a literal" % name)
            if isinstance(node.target, ast.Name):
                keys |= _strings(node.iter)
                continue
            pos = [i for i, n in enumerate(node.target.elts) if isinstance(n, ast.Name) and n.id == name][0]
            for item in node.iter.elts:  # for key, label in (("a", "A"), ...): the key's position only
                keys |= _strings(item.elts[pos])
    return keys


def reads(fn, seen=None):
    """Every args key `fn` can read (arguments named `args`), helpers of its module included."""
    seen = set() if seen is None else seen
    if fn in seen:
        return set()
    seen.add(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    mod = inspect.getmodule(fn)
    out = set()

    def key_of(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Name):
            found = _loop_keys(tree, node.id)
            if found:
                return found
        raise AssertionError("%s reads args[%s], a key the test cannot see: use a literal" % (
            fn.__name__, ast.unparse(node)))

    def is_args(node):
        return isinstance(node, ast.Name) and node.id == "args"

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "get" and is_args(f.value) and node.args:
                out |= key_of(node.args[0])
            elif isinstance(f, ast.Name) and f.id == "get" and node.args and is_args(node.args[0]):
                out |= key_of(node.args[1])
            elif any(is_args(a) for a in node.args):
                # a helper handed `args`: of this module by name, or of another engine module (M.fn)
                callee = None
                if isinstance(f, ast.Name):
                    callee = getattr(mod, f.id, None)
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                    other = getattr(mod, f.value.id, None)
                    if inspect.ismodule(other) and other.__name__.startswith(sglang_engine.__name__):
                        callee = getattr(other, f.attr, None)
                if inspect.isfunction(callee) and callee.__module__.startswith(sglang_engine.__name__):
                    out |= reads(callee, seen)
        elif isinstance(node, ast.Subscript) and is_args(node.value):
            out |= key_of(node.slice)
        elif isinstance(node, ast.Compare) and any(is_args(c) for c in node.comparators):
            out |= key_of(node.left)
    return out


GATED = _gated()


def test_the_engine_gates_its_rarely_used_rule_groups():
    assert GATED, "no rule group is gated: common.gate is unused"


@pytest.mark.parametrize("mod,name,fn", GATED, ids=["%s.%s" % (m.__name__.rsplit(".", 1)[1], n) for m, n, _ in GATED])
def test_a_gated_rule_group_lists_every_key_it_reads(mod, name, fn):
    missing = reads(fn) - fn.keys - fn.context
    assert not missing, "%s.%s reads %s, which its gate does not list: a spec setting only those would skip it" % (
        mod.__name__, name, sorted(missing))


def test_the_gate_check_sees_a_key_a_group_forgot():
    @common.gate("ssl_keyfile")
    def check(args):
        if args.get("ssl_keyfile") and not args.get("ssl_certfile"):
            raise ValueError

    assert reads(check) - check.keys == {"ssl_certfile"}
