# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a deploy changes of an instance, as Ansible diffs: `deploy --check --diff` (and `--diff`) shows them.

server_release action=record attaches `diffs()` in diff mode; `running()` reads what the host runs now.
Each part is a standard Ansible diff {before, after, before_header, after_header}, against the running release:
- the unit: the installed unit file (the running release's, or one edited by hand) against the unit this
  release installs;
- the flags: the running release record's argv against the new one, one flag with its values per line as
  in the unit's ExecStart (systemd_unit.flags_text);
- the secrets: the EnvironmentFile by variable name only, every value shown as SECRET_PLACEHOLDER (a
  value this deploy changes says so).
A fresh host (no release runs, no unit installed) diffs against empty text; a part that does not change is
left out. Secret values never enter a diff: the EnvironmentFile is read only for its names (and whether a
value changes), and every text is masked (`mask()`): the values of the instance's secrets, old and new,
wherever they appear; the value of an Environment= assignment whose name is a secret's (server_common
SECRET_NAME: a unit edited by hand may carry one); the values of a flag that carries a secret (--api-key).
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils import systemd_unit

__metaclass__ = type

SECRET_PLACEHOLDER = "(secret value not shown)"
_CHANGED = "(secret value not shown; this deploy changes it)"
# Environment= assignments: "NAME=value" quoted (up to the closing quote), or NAME=value bare (up to a space)
_ENV_QUOTED = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)=((?:\\.|[^"\\])*)"')
_ENV_BARE = re.compile(r'(?<![^\s])([A-Za-z_][A-Za-z0-9_]*)=(\S*)')
# one ExecStart word, double-quoted as systemd_unit writes it, or bare as a hand-made unit may have it
_WORD = re.compile(r'"(?:\\.|[^"\\])*"|[^\s"\\]+')
_SECRET_FLAG = re.compile(r"^--.*(?:api[-_]?key|password|passwd|secret|credentials?|private[-_]key|token)$", re.I)


def _secret_name(name):
    """An Environment= name of a secret (server_common.SECRET_NAME, the collection's one rule for env names)."""
    return bool(common.SECRET_NAME.search(name))


def _secret_flag(flag):
    """A flag whose value is a secret (--api-key, --admin-api-key, --ssl-keyfile-password; a --...-token).
    Narrower than the env rule: --max-prefill-tokens is no secret."""
    return bool(_SECRET_FLAG.search(flag))


def _mask_env(match, quoted):
    name = match.group(1)
    if not _secret_name(name):
        return match.group(0)
    return ('"%s=%s"' if quoted else "%s=%s") % (name, SECRET_PLACEHOLDER)


def _mask_flag_values(line):
    """A line of flag words (`"--api-key" "value"`, or `--api-key=value`): the values of a flag with a
    secret's name masked."""
    edits, hide = [], False
    for match in _WORD.finditer(line):
        word = match.group(0)
        bare = word.strip('"')
        if bare.startswith("--"):
            name, eq, _value = bare.partition("=")
            hide = _secret_flag(name) and not eq
            if eq and _secret_flag(name):
                edits.append((match.start(), match.end(), '"%s=%s"' % (name, SECRET_PLACEHOLDER)))
        elif hide:
            edits.append((match.start(), match.end(), '"%s"' % SECRET_PLACEHOLDER))
    for start, end, text in reversed(edits):
        line = line[:start] + text + line[end:]
    return line


def mask(text, values=()):
    """`text` with every secret masked: the given values (of at least release.MIN_SECRET_LEN characters, the
    rule the record's own check uses), the value of an Environment= assignment with a secret's name, and
    the values of a flag that carries a secret."""
    for value in sorted((str(v) for v in values if v is not None), key=len, reverse=True):
        if len(value) >= rel.MIN_SECRET_LEN:
            text = text.replace(value, SECRET_PLACEHOLDER)
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("Environment="):
            head, rest = line.split("=", 1)
            rest = _ENV_QUOTED.sub(lambda m: _mask_env(m, True), rest)
            line = "%s=%s" % (head, _ENV_BARE.sub(lambda m: _mask_env(m, False), rest))
        lines.append(_mask_flag_values(line))
    return "\n".join(lines)


def env_file_lines(text):
    """{name: line} of an EnvironmentFile's text (comments and blank lines left out). The lines carry the
    values: only names and comparisons leave this module."""
    found = {}
    for line in (text or "").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and "=" in stripped:
            found[stripped.split("=", 1)[0].strip()] = stripped
    return found


def env_file_values(text):
    """The values of an EnvironmentFile (to mask them; systemd_unit.env_file_line's quoting undone)."""
    out = []
    for line in env_file_lines(text).values():
        value = line.split("=", 1)[1].strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        out.append(value)
    return out


def secrets_names(secrets, old_text):
    """(before, after): the EnvironmentFile by name, one `NAME=(secret value not shown)` line each; a name
    whose line this deploy changes says so on the after side. "" for no file and no secrets."""
    old = env_file_lines(old_text)
    new = {}
    for name, value in (secrets or {}).items():
        try:
            new[name] = systemd_unit.env_file_line(name, "" if value is None else value)
        except systemd_unit.UnitError:  # its message would carry the value (server_plan refuses it, unnamed)
            new[name] = None
    before = "".join("%s=%s\n" % (name, SECRET_PLACEHOLDER) for name in sorted(old))
    after = "".join("%s=%s\n" % (name, _CHANGED if name in old and old[name] != new[name] else SECRET_PLACEHOLDER)
                    for name in sorted(new))
    return before, after


def running(root, instance, unit_dir=None, config_dir="/etc/specdeploy"):
    """What the host runs now for `instance`, read-only: the running release's id and record (None when
    none or unreadable), the installed unit's path and text ("" when absent), the EnvironmentFile's path
    and text ("" when absent; only its names and a comparison leave diffs())."""
    unit_path = common.unit_path(instance, unit_dir or common.UNIT_DIR)
    env_path = common.env_file_path(instance, config_dir)
    out = {"instance": instance, "release_id": rel.links(root, instance)["current"],
           "record": rr.load_or_none(rr.path_of(root, instance=instance)),
           "unit_path": unit_path, "unit_text": "", "env_file": env_path, "env_text": ""}
    for key, path in (("unit_text", unit_path), ("env_text", env_path)):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                out[key] = handle.read()
        except OSError:
            pass
    return out


def _part(before, after, what, was, will):
    return {"before": before, "after": after, "before_header": "%s (%s)" % (what, was),
            "after_header": "%s (%s)" % (what, will)}


def diffs(now, record, unit_text, secrets=None):
    """The Ansible diffs of a deploy of `record` (the new release record: release_id, instance, argv,
    inputs) with `unit_text`, against `now` (running()). A list of parts that change; when none does (the
    same unit and flags, another SGLang env lock) one part that says so."""
    instance = record.get("instance") or now.get("instance") or ""
    old_id = now.get("release_id")
    was = "running release %s" % old_id if old_id else "no release runs"
    will = "release %s, this deploy" % record.get("release_id")
    old_record = now.get("record") or {}
    values = list((secrets or {}).values()) + env_file_values(now.get("env_text"))
    parts = [
        _part(now.get("unit_text") or "", unit_text or "", now.get("unit_path") or common.unit_path(instance),
              was + ("" if now.get("unit_text") else ", not installed"), will),
        _part(systemd_unit.flags_text(old_record.get("argv")), systemd_unit.flags_text(record.get("argv")),
              "%s SGLang flags" % common.unit_name(instance), was, will),
    ]
    before, after = secrets_names(secrets, now.get("env_text"))
    if before != after:
        parts.append(_part(before, after, now.get("env_file") or common.env_file_path(instance),
                           "EnvironmentFile, names only", "EnvironmentFile, names only"))
    out = []
    for part in parts:
        part = dict((k, mask(v, values)) for k, v in part.items())
        if part["before"] != part["after"]:
            out.append(part)
    if not out:
        out.append({"prepared": mask(
            "%s: release %s has the unit and the flags of %s; it differs in its other inputs (SGLang env lock, "
            "python)\n" % (common.unit_name(instance), record.get("release_id"), was), values)})
    return out


def changes(found):
    """Whether diffs() found a part that changes (a `prepared` note alone is none)."""
    return any("before" in part for part in found or [])
