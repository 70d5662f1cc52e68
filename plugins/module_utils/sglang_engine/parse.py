# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""argv parsing with argparse semantics, per release parser table (unique prefixes, ambiguity,
"unrecognized arguments"). stdlib only."""
from __future__ import annotations

import re
import shlex

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused

_DEST_ALIASES = releases.DEST_ALIASES


_PROGRAM_HINT = re.compile(r"(python|sglang|launch_server|^serve$|^-m$)")


def strip_program(argv):
    """Drop a leading program (`python -m sglang.launch_server`, `sglang serve`, ...) from argv."""
    if isinstance(argv, str):
        # a unit's ExecStart: continuation lines ("\\" + newline) and systemd's %%/$$ escapes
        argv = shlex.split(re.sub(r"\\\s*\n", " ", argv).replace("%%", "%").replace("$$", "$"))
    argv = [str(a) for a in argv]
    i = 0
    while i < len(argv) and not argv[i].startswith("-") and _PROGRAM_HINT.search(argv[i]):
        i += 1
        if i < len(argv) and argv[i] == "-m":
            i += 2
    if i and i < len(argv) and argv[i] == "serve":
        i += 1
    return argv[i:]


NUM = re.compile(r"^-\d+$|^-\d*\.\d+$")
_HUMAN = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)\s*$")


def _convert(flag, typ, choices, raw):
    if typ == "int":
        try:
            value = int(raw)
        except ValueError:
            raise Refused("PARSE_INVALID_VALUE", "argument %s: invalid int value: %r" % (flag, raw), flag)
    elif typ == "float":
        try:
            value = float(raw)
        except ValueError:
            raise Refused("PARSE_INVALID_VALUE", "argument %s: invalid float value: %r" % (flag, raw), flag)
    elif typ == "human_readable_int":
        m = _HUMAN.match(raw)
        if not m:
            raise Refused("PARSE_INVALID_VALUE", "argument %s: invalid human_readable_int value: %r" % (flag, raw), flag)
        value = int(float(m.group(1)) * {"": 1, "k": 1000, "m": 1000 ** 2, "g": 1000 ** 3}[m.group(2).lower()])
    else:
        value = raw
    if choices is not None and str(value) not in choices:
        raise Refused("PARSE_INVALID_VALUE", "argument %s: invalid choice: %r (choose from %s)" % (
            flag, raw, ", ".join(choices)), flag)
    return value


# Compiled parser tables: flag -> (kind, type, choices, dest with DEST_ALIASES applied, the value a `flag`
# kind stores, the replacement of a deprecated flag or None), and a memo of what an abbreviated or unknown
# name matches by prefix. A pure function of the release's flag table, its deprecations and the extra
# (tree-verify) flags: keyed on the identity of the release's flag table (the entry keeps the table alive, so
# the id is not reused) and the extra flags' items. Built once per release (and flavor), never per argv.
_TABLES = {}
# how a compiled entry takes its value: a store_true/false flag; one value kept as written (no choices, no
# conversion); one int value (no choices); anything else (choices, float, human_readable_int, list, optional)
_FLAG, _RAW, _INT, _OTHER = range(4)
_CONVERTED = ("int", "float", "human_readable_int")


def _compiled_table(rules, extra_flags):
    base = rules["flags"]
    key = (id(base), id(rules["deprecated"]), tuple(sorted(extra_flags.items())) if extra_flags else ())
    try:
        hit = _TABLES.get(key)
    except TypeError:  # extra flags with unhashable entries: compiled for this call only
        hit, key = None, None
    if hit is not None and hit[0] is base and hit[1] is rules["deprecated"]:
        return hit[2], hit[3]
    table = base
    if extra_flags:
        table = dict(base)
        table.update(extra_flags)
    deprecated = rules["deprecated"]
    alias = _DEST_ALIASES.get
    compiled = {}
    for flag, (kind, typ, choices, dest) in table.items():
        dest = alias(dest, dest)
        if kind == "flag":
            mode = _FLAG
        elif kind == "store" and choices is None and typ not in _CONVERTED:
            mode = _RAW
        elif kind == "store" and choices is None and typ == "int":
            mode = _INT
        else:
            mode = _OTHER
        compiled[flag] = (kind, typ, choices, dest, not (flag.startswith("--no-") and not dest.startswith("no_")),
                          deprecated.get(flag), mode)
    prefixes = {}
    if key is not None and len(_TABLES) < 256:
        _TABLES[key] = (base, deprecated, compiled, prefixes)
    return compiled, prefixes


def _prefix_matches(compiled, prefixes, name):
    """The flags `name` abbreviates (argparse's unique-prefix rule), in table order."""
    try:
        return prefixes[name]
    except KeyError:
        pass
    cands = tuple(f for f in compiled if f.startswith(name))
    if len(prefixes) < 4096:
        prefixes[name] = cands
    return cands


def parse_argv(argv, version, extra_flags=None):
    """Parse argv like `sglang serve`'s parser of `version`.

    Returns (args {dest: value}, used {dest: flag as written}, notes [(code, message)]).
    Raises Refused on the first error argparse would exit with (status 2).
    """
    rules = version if isinstance(version, dict) else releases.RELEASES[version]
    table, prefixes = _compiled_table(rules, extra_flags)
    try:
        return _parse(argv, rules, table, prefixes)
    except Refused as e:
        if e.code != "PARSE_AMBIGUOUS":
            # argparse classifies every option string before it takes any value: an abbreviation that matches
            # several flags anywhere in argv is its error, ahead of a bad or missing value earlier in argv
            _raise_ambiguous(argv, table, prefixes)
        raise


def _raise_ambiguous(argv, table, prefixes):
    for tok in argv:
        if tok == "--":
            return
        if tok.startswith("--"):
            name = tok.partition("=")[0]
            if name not in table:
                cands = _prefix_matches(table, prefixes, name)
                if len(cands) > 1:
                    raise _ambiguous(name, cands)


def _ambiguous(name, cands):
    return Refused("PARSE_AMBIGUOUS", "ambiguous option: %s could match %s" % (name, ", ".join(sorted(cands))), name)


def _parse(argv, rules, table, prefixes):
    version = rules["version"]
    args, used, notes, unrecognized = {}, {}, [], []
    num = NUM.match
    i = 0
    n = len(argv)
    while i < n:
        tok = argv[i]
        i += 1
        entry = table.get(tok)
        if entry is not None:
            # the common case: a whole flag as written (every table key starts with "--", none has "="): its
            # value is the next token unless that one is an option (a negative number is a value)
            _kind, _typ, _choices, dest, value, replacement, mode = entry
            if mode != _OTHER:
                if mode != _FLAG:
                    if i < n and (argv[i][:1] != "-" or num(argv[i])):
                        value = argv[i]
                        i += 1
                    else:
                        raise Refused("PARSE_MISSING_VALUE", "argument %s: expected one argument" % tok, tok)
                    if mode == _INT:
                        try:
                            value = int(value)
                        except ValueError:
                            _convert(tok, "int", None, value)  # raises argparse's message
                args[dest] = value
                used[dest] = tok
                if replacement is not None:
                    notes.append(("FLAG_DEPRECATED", "'%s' is deprecated in SGLang %s and will be removed: use '%s' "
                                  "instead." % (tok, version, replacement)))
                continue
            flag, eq, inline = tok, "", ""
        else:
            if not tok.startswith("--") or tok == "--":
                if tok.startswith("-") and not num(tok) and tok != "-":
                    raise Refused("PARSE_UNRECOGNIZED", "unrecognized arguments: %s (short options are not used by "
                                  "sglang serve)" % tok, tok)
                unrecognized.append(tok)
                continue
            name, eq, inline = tok.partition("=")
            entry = table.get(name)
            flag = name
        if entry is None:
            cands = _prefix_matches(table, prefixes, name)
            if len(cands) > 1:
                raise _ambiguous(name, cands)
            if not cands:
                unrecognized.append(tok)
                continue
            flag = cands[0]
            entry = table[flag]
            notes.append(("FLAG_ABBREVIATED", "%s is an abbreviation of %s: write the full flag (a new SGLang flag "
                          "sharing the prefix would make it ambiguous)." % (name, flag)))
        kind, typ, choices, dest, flag_value, replacement, _mode = entry
        if kind == "flag":
            if eq:
                raise Refused("PARSE_INVALID_VALUE", "argument %s: ignored explicit argument %r" % (flag, inline), flag)
            value = flag_value
        elif kind in ("list", "list*"):
            vals = [inline] if eq else []
            while not eq and i < n and (not argv[i].startswith("-") or num(argv[i])):
                vals.append(argv[i])
                i += 1
            if not vals and kind == "list":  # nargs="+"
                raise Refused("PARSE_MISSING_VALUE", "argument %s: expected at least one argument" % flag, flag)
            value = [_convert(flag, typ, choices, v) for v in vals]
        else:
            if eq:
                raw = inline
            elif i < n and (argv[i][:1] != "-" or num(argv[i])):
                raw = argv[i]
                i += 1
            elif kind == "optional":
                raw = None
            else:
                raise Refused("PARSE_MISSING_VALUE", "argument %s: expected one argument" % flag, flag)
            if raw is None:
                value = None
            elif choices is not None:
                value = _convert(flag, typ, choices, raw)
            elif typ == "str":
                value = raw
            elif typ == "int":
                try:
                    value = int(raw)
                except ValueError:
                    value = _convert(flag, typ, choices, raw)  # raises argparse's message
            else:
                value = _convert(flag, typ, choices, raw)
        args[dest] = value
        used[dest] = flag
        if replacement is not None:
            notes.append(("FLAG_DEPRECATED", "'%s' is deprecated in SGLang %s and will be removed: use '%s' instead." % (
                flag, version, replacement)))
    if unrecognized:
        removed = [t for t in unrecognized if t.split("=")[0] in releases.RENAMED]
        newer = [t for t in unrecognized if t.split("=")[0] in rules["added_later"]]
        hint = ""
        if newer:
            hint = " (%s: not in SGLang %s, added in a later release)" % (", ".join(newer), version)
        elif removed:
            hint = " (SGLang %s removed %s: use %s)" % (version, ", ".join(removed), ", ".join(
                releases.RENAMED[t.split("=")[0]] for t in removed))
        elif not rules["exact_table"]:
            notes.append(("FLAG_UNVERIFIED", "the SGLang %s flag table is derived, not captured: %s not checked; "
                          "validate with mode: installed." % (version, " ".join(unrecognized))))
            return args, used, notes
        raise Refused("PARSE_UNRECOGNIZED", "unrecognized arguments: %s%s" % (" ".join(unrecognized), hint),
                      unrecognized[0])
    return args, used, notes
