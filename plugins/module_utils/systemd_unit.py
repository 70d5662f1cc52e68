# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one systemd quoting of the collection: ExecStart words, Environment= assignments and
EnvironmentFile lines, and the ExecStart diff the flags engine shows.

Every value first passes inputs.value_problem: systemd's unit reader ends a line at LF, CR or NUL, and
its EnvironmentFile reader at LF, so a control character is refused, never escaped (no argv or variable
of an SGLang server needs one, and a refusal keeps the rendered bytes of every valid unit as they were).
Then, by where the value goes (systemd.service(5), systemd.exec(5), systemd.syntax(7)):

- ExecStart word: double-quoted; backslash and quote backslash-escaped (C-style unquoting), % doubled
  (specifiers), $ doubled (variable expansion). A quoted ";" is an argument, not a command separator.
- Environment= assignment: the same, but $ kept (Environment= expands no variables).
- EnvironmentFile line: KEY=value as is when the value has only characters with no meaning there
  (a token such as hf_...); else KEY="value" with backslash, quote, $ and ` backslash-escaped (the
  only escapes systemd's env-file parser undoes inside double quotes), so a value starting with a quote
  or ending in a backslash cannot swallow or join the next line. No specifiers in that file: % stays.
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs

__metaclass__ = type

ENV_NAME = inputs.ENV_NAME
# an EnvironmentFile value written without quotes: nothing systemd's env-file parser treats specially
_ENV_FILE_PLAIN = re.compile(r"^[A-Za-z0-9_@%+=:,./-]*$")


class UnitError(inputs.InputError):
    """A value systemd cannot carry (a message a person can act on)."""


def _check(value, what):
    text = value if isinstance(value, str) else str(value)
    problem = inputs.value_problem(text)
    if problem:
        raise UnitError("%s %r %s" % (what, text if len(text) < 200 else text[:200] + "...", problem))
    return text


def systemd_quote(arg, dollar=True):
    """One ExecStart word (dollar=True) or Environment= assignment (dollar=False), double-quoted."""
    arg = _check(arg, "argument")
    arg = arg.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    if dollar:
        arg = arg.replace("$", "$$")
    return '"%s"' % arg


def flag_groups(argv):
    """[[flag, value...], ...]: one group per --flag (a leading non-flag token is its own group)."""
    groups = []
    for arg in argv or []:
        arg = str(arg)
        if arg.startswith("--") or not groups:
            groups.append([arg])
        else:
            groups[-1].append(arg)
    return groups


def exec_lines(program, argv):
    """ExecStart as a list of lines: the program words (if any), then one flag with its values per line."""
    lines = [list(program)] if program else []
    lines += flag_groups(argv)
    return [" ".join(systemd_quote(w) for w in line) for line in lines]


def _env_name(key):
    if not isinstance(key, str) or not ENV_NAME.match(key):
        raise UnitError("environment name %r is not a valid variable name" % (key,))
    return key


def env_lines(env):
    """Environment= assignments, sorted by name (% escaped; Environment= keeps $)."""
    return [systemd_quote("%s=%s" % (_env_name(key), (env or {})[key]), dollar=False) for key in sorted(env or {})]


def env_file_line(key, value):
    """One EnvironmentFile line KEY=value (quoted when the value needs it)."""
    value = _check("" if value is None else value, "the value of %s" % _env_name(key))
    if _ENV_FILE_PLAIN.match(value):
        return "%s=%s" % (key, value)
    return '%s="%s"' % (key, re.sub(r'(["\\$`])', r"\\\1", value))


def env_file_text(header, env):
    """An EnvironmentFile: a comment line, then one KEY=value line per entry (in the mapping's order)."""
    _check(header, "header")
    return "\n".join(["# " + header] + [env_file_line(k, v) for k, v in (env or {}).items()]) + "\n"


def unit_exec_lines(argv):
    """argv escaped for systemd ExecStart as the unit has it, one flag (with its values) per line."""
    try:
        return exec_lines([], argv)
    except UnitError as exc:
        return ["# not writable into a systemd unit: %s" % exc]


def flags_text(argv):
    """argv as the unit's ExecStart carries it, one flag (with its values) per line; "" for no argv."""
    return "\n".join(unit_exec_lines(argv)) + "\n" if argv else ""


def argv_diff(previous, current):
    """Diff two argvs flag by flag: {changed: bool, added, removed, changed_flags, before, after}."""
    from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.parse import strip_program
    try:
        prev = strip_program(previous or [])
    except ValueError:
        prev = [str(previous)]
    cur = list(current or [])
    pg = {g[0]: g[1:] for g in flag_groups(prev)}
    cg = {g[0]: g[1:] for g in flag_groups(cur)}
    added = sorted(set(cg) - set(pg))
    removed = sorted(set(pg) - set(cg))
    changed = sorted(k for k in set(pg) & set(cg) if pg[k] != cg[k])
    return {
        "changed": bool(added or removed or changed or prev != cur),
        "added": added, "removed": removed, "changed_flags": changed,
        "before": flags_text(prev),
        "after": flags_text(cur),
    }
