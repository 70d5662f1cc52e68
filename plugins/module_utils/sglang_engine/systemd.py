# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""systemd ExecStart rendering and argv diffs, plus the secret-name pattern.

Kept as its own small unit on purpose: the server plan may take over quoting and the secret pattern;
nothing else in the engine depends on more than these names. stdlib only."""
from __future__ import annotations

import re

SECRET_ENV = re.compile(r"(TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|CREDENTIAL)", re.I)


def systemd_quote(arg):
    s = str(arg).replace("%", "%%").replace("$", "$$")
    if s == "" or re.search(r"[\s\"'\\;]", s):
        s = '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return s


def flag_groups(argv):
    """[[flag, value...], ...]: one group per flag (a leading non-flag token is its own group)."""
    groups = []
    for a in argv or []:
        a = str(a)
        if a.startswith("--") or not groups:
            groups.append([a])
        else:
            groups[-1].append(a)
    return groups


def unit_exec_lines(argv):
    """argv escaped for systemd ExecStart, one flag (with its values) per line."""
    return [" ".join(systemd_quote(x) for x in g) for g in flag_groups(argv)]


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
        "before": "\n".join(unit_exec_lines(prev)) + "\n",
        "after": "\n".join(unit_exec_lines(cur)) + "\n",
    }
