# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""argv diffs for the unit's ExecStart; the quoting and the secret-name pattern are server_common's
(one definition with the host's unit writer). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common

# One pattern with the host's (server_common): the controller refuses what the host refuses.
SECRET_ENV = server_common.SECRET_NAME
# The unit's own quoting and one flag per line (server_common).
systemd_quote = server_common.systemd_quote
flag_groups = server_common.flag_groups


def unit_exec_lines(argv):
    """argv escaped for systemd ExecStart as the unit has it, one flag (with its values) per line."""
    try:
        return server_common.exec_lines([], argv)
    except server_common.UnitError as exc:
        return ["# not writable into a systemd unit: %s" % exc]


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
