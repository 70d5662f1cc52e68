# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift: what runs on a host that its releases did not put there.

Three kinds, each one phrase naming the host's unit, process or file (status.yml lists them per host; the
deploy fast path, deploy_state.check, counts any of them as a difference, so a drifted host takes the
full deploy):
- `process`: a running instance whose command line or environment differs from its current release:
  the command line of the unit's main process (/proc/<MainPID>/cmdline) against the ExecStart of the
  release's own unit file (<root>/releases/<id>/sglang-<instance>.service), its environment
  (/proc/<MainPID>/environ; where root may not read it, systemd's loaded Environment= of the unit)
  against that unit's Environment= lines and the names in its EnvironmentFile. Only names are reported,
  never values (the EnvironmentFile holds secrets);
- `unit`: a unit file that no release wrote: an SGLang unit in the unit directory (sglang-*.service, or
  any .service whose text starts SGLang) whose bytes are no release's unit, a drop-in that overrides an
  instance's unit. Units listed in server_replaces_units (the hand-made service a deploy replaced) are
  known, not drift;
- `outside`: an SGLang server process outside any unit (release.sglang_processes(), main processes and
  orphaned sglang:: children only), or in a unit no release wrote.

`observe()` reads the host, `drift()` decides over what it read (tested over tables of states).
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess

from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import sha256_file
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.parse import strip_program

__metaclass__ = type

# what systemd itself puts into a service's environment (systemd.exec(5), "Environment Variables in
# Spawned Processes"), and the locale it passes on: never drift
SYSTEMD_ENV = re.compile(
    r"^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|USER|LOGNAME|HOME|SHELL|TERM|INVOCATION_ID|JOURNAL_STREAM|SYSTEMD_EXEC_PID|"
    r"MANAGERPID|MAINPID|NOTIFY_SOCKET|WATCHDOG_PID|WATCHDOG_USEC|LISTEN_PID|LISTEN_FDS|LISTEN_FDNAMES|"
    r"(RUNTIME|STATE|CACHE|LOGS|CONFIGURATION|CREDENTIALS)_DIRECTORY|MEMORY_PRESSURE_WATCH|"
    r"MEMORY_PRESSURE_WRITE|SERVICE_RESULT|EXIT_CODE|EXIT_STATUS|MONITOR_[A-Z_]+|TRIGGER_[A-Z_]+|"
    r"SYSTEMD_[A-Z_]+|container|container_uuid)$")
SGLANG_UNIT_TEXT = re.compile(r"sglang\.launch_server|sglang(\"|')?\s+(\"|')?serve\b")
SHOW = ("MainPID", "ActiveState", "Environment")


def _read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "surrogateescape")
    except OSError:
        return None


# ---- the release's own unit: ExecStart words and Environment= ---------------------------------------

def unit_words(text):
    """(ExecStart words, {Environment= name: value}) of a unit the server role rendered (its own quoting:
    server_common.exec_lines / env_lines; continuation lines joined; systemd's %% and $$ undone)."""
    joined = re.sub(r"\\\s*\n\s*", " ", text or "")
    exec_words, env = [], {}
    for line in joined.splitlines():
        key, _sep, value = line.partition("=")
        if key == "ExecStart" and value:
            try:
                exec_words = [w.replace("%%", "%").replace("$$", "$") for w in shlex.split(value)]
            except ValueError:
                exec_words = []
        elif key == "Environment" and value:
            try:
                words = shlex.split(value)
            except ValueError:
                words = []
            for word in words:
                name, sep, val = word.replace("%%", "%").partition("=")
                if sep:
                    env[name] = val
    return exec_words, env


def env_file_names(path):
    """Variable names of an EnvironmentFile (the values are secrets: never read into the result)."""
    text = _read(path) or ""
    names = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            names.append(line.split("=", 1)[0].strip())
    return names


def systemd_env(value):
    """systemctl show's Environment= value (space separated, C-quoted words) as a dict."""
    try:
        words = shlex.split(value or "")
    except ValueError:
        return {}
    return dict(w.split("=", 1) for w in words if "=" in w)


# ---- what the host holds ----------------------------------------------------------------------------

def _show(unit, run):
    try:
        out = run(["systemctl", "show", unit, "--property=" + ",".join(SHOW)])
    except OSError:
        out = ""
    state = dict(line.split("=", 1) for line in (out or "").splitlines() if "=" in line)
    return {k: state.get(k, "") for k in SHOW}


def _default_run(argv):
    return subprocess.run(argv, check=False, capture_output=True, text=True).stdout


def _manager_env(run):
    try:
        out = run(["systemctl", "show-environment"]) or ""
    except OSError:
        return []
    return [line.split("=", 1)[0] for line in out.splitlines() if "=" in line]


def _ppid(pid, proc):
    stat = _read(os.path.join(proc, str(pid), "stat")) or ""
    try:
        return int(stat.rsplit(")", 1)[1].split()[1])
    except (IndexError, ValueError):
        return None


def observe(root, instances, unit_dir=common.UNIT_DIR, config_dir="/etc/specdeploy", proc="/proc", run=None):
    """Everything drift() needs, read-only: per instance its current release's unit, the unit's main
    process (argv, environ or systemd's Environment=), the EnvironmentFile's names; the host's SGLang unit
    files and drop-ins with their sha256; the sha256 of every release's unit; the SGLang processes."""
    run = run or _default_run
    out = {"instances": {}, "units": {}, "dropins": {}, "release_units": {}, "processes": [],
           "manager_env": _manager_env(run)}
    rel_dir = os.path.join(root, "releases")
    for rid in sorted(os.listdir(rel_dir)) if os.path.isdir(rel_dir) else []:
        base = os.path.join(rel_dir, rid)
        for name in os.listdir(base) if os.path.isdir(base) else []:
            if name.endswith(".service"):
                digest = sha256_file(os.path.join(base, name), None)
                if digest:
                    out["release_units"][digest] = "%s (%s)" % (rid, name)
    for name in instances:
        unit = common.unit_name(name)
        current = rel.links(root, name)["current"]
        unit_text = _read(os.path.join(rel_dir, current, unit)) if current else None
        show = _show(unit, run)
        row = {"release": current, "release_unit": unit_text, "active": show["ActiveState"],
               "pid": None, "argv": None, "environ": None, "environ_error": None,
               "unit_environment": systemd_env(show["Environment"]),
               "env_file_names": env_file_names(common.env_file_path(name, config_dir))}
        try:
            pid = int(show["MainPID"] or 0)
        except ValueError:
            pid = 0
        if pid > 0:
            row["pid"] = pid
            cmd = _read(os.path.join(proc, str(pid), "cmdline"))
            row["argv"] = [a for a in cmd.split("\0") if a] if cmd is not None else None
            try:
                with open(os.path.join(proc, str(pid), "environ"), "rb") as handle:
                    raw = handle.read().decode("utf-8", "surrogateescape")
                row["environ"] = dict(e.split("=", 1) for e in raw.split("\0") if "=" in e)
            except OSError as exc:
                row["environ_error"] = exc.strerror or str(exc)
        out["instances"][name] = row
    try:
        files = sorted(os.listdir(unit_dir))
    except OSError:
        files = []
    for name in files:
        path = os.path.join(unit_dir, name)
        if name.endswith(".service") and os.path.isfile(path):
            text = _read(path) or ""
            if name.startswith("sglang-") or SGLANG_UNIT_TEXT.search(text):
                out["units"][name] = sha256_file(path, None)
        elif name.endswith(".service.d") and name.startswith("sglang-") and os.path.isdir(path):
            out["dropins"][name[:-2]] = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".conf"))
    procs = sorted(rel.sglang_processes(proc), key=lambda info: info["pid"])
    pids = set(p["pid"] for p in procs)
    for info in procs:
        main = not info["cmdline"].startswith("sglang::")
        if main or _ppid(info["pid"], proc) not in pids:
            out["processes"].append(dict(info, main=main))
    return out


# ---- the decision -----------------------------------------------------------------------------------

def _argv_drift(name, row):
    expected, env = unit_words(row["release_unit"])
    if not expected or row["argv"] is None:
        return []
    out = []
    if row["argv"][:1] != expected[:1]:
        out.append("%s: the running server is %s, its release runs %s" % (
            common.unit_name(name), (row["argv"] or ["?"])[0], expected[0]))
    want, have = strip_program(expected), strip_program(row["argv"])
    if want != have:
        wg = {g[0]: g[1:] for g in common.flag_groups(want)}
        hg = {g[0]: g[1:] for g in common.flag_groups(have)}
        parts = ["+%s" % " ".join([f] + hg[f]) for f in sorted(set(hg) - set(wg))]
        parts += ["-%s" % f for f in sorted(set(wg) - set(hg))]
        parts += ["%s %s (release: %s)" % (f, " ".join(hg[f]), " ".join(wg[f])) for f in sorted(set(wg) & set(hg))
                  if wg[f] != hg[f]]
        out.append("%s (pid %s): its command line differs from release %s: %s" % (
            common.unit_name(name), row["pid"], row["release"], ", ".join(parts) or "the flags' order"))
    return out


def _env_drift(name, row, manager_env):
    _words, expected = unit_words(row["release_unit"])
    unit = common.unit_name(name)
    if row["environ"] is not None:
        have, source = row["environ"], "its environment"
        known = set(expected) | set(row["env_file_names"]) | set(manager_env or [])
        extra = sorted(k for k in have if k not in known and not SYSTEMD_ENV.match(k))
    else:  # root may not read another user's environ (no CAP_SYS_PTRACE): the unit's loaded Environment=
        have, source = row["unit_environment"], "its unit's loaded Environment= (a drop-in?)"
        extra = sorted(k for k in have if k not in expected)
    changed = sorted(k for k in expected if k in have and have[k] != expected[k])
    missing = sorted(k for k in expected if k not in have and not (k == "HOME" and row["environ"] is None))
    if not (extra or changed or missing):
        return []
    parts = (["%s differs" % k for k in changed] + ["%s is not set" % k for k in missing]
             + ["%s is set outside the release" % k for k in extra])
    return ["%s (pid %s): %s differs from release %s: %s" % (
        unit, row["pid"], source, row["release"], ", ".join(parts))]


def drift(observed, instances, replaces=()):
    """[{kind, what}] of the host (empty: no drift). `instances`: the instance names the inventory lists;
    `replaces`: server_replaces_units (known hand-made units, not drift)."""
    out = []
    replaces = set(replaces or [])
    managed = set(common.unit_name(n) for n in instances)
    for name in instances:
        row = observed["instances"].get(name) or {}
        if not row.get("pid") or not row.get("release_unit"):
            continue  # not running, or no release yet: the deploy fast path and status say so already
        for what in _argv_drift(name, row):
            out.append({"kind": "process", "what": what})
        for what in _env_drift(name, row, observed.get("manager_env")):
            out.append({"kind": "process", "what": what})
    release_units = observed.get("release_units") or {}
    for unit, digest in sorted((observed.get("units") or {}).items()):
        if unit in replaces:
            continue
        if digest in release_units:
            if unit not in managed:
                out.append({"kind": "unit", "what": "%s is release %s's unit, but no instance %s is in "
                                                    "server_instances" % (unit, release_units[digest].split(" ")[0],
                                                                          unit[len("sglang-"):-len(".service")])})
            continue
        out.append({"kind": "unit", "what": ("%s differs from every release's unit (edited by hand?)" % unit)
                    if unit in managed else "%s: no release wrote this unit" % unit})
    for unit, files in sorted((observed.get("dropins") or {}).items()):
        if files and unit not in replaces:
            out.append({"kind": "unit", "what": "%s is overridden by drop-in %s (no release wrote it)" % (
                unit, ", ".join(files))})
    for info in observed.get("processes") or []:
        unit = info.get("unit")
        if unit in managed or unit in replaces:
            continue
        where = "outside any unit" if not unit else "in %s, which no release wrote" % unit
        out.append({"kind": "outside", "what": "SGLang process pid %s (%s) runs %s" % (
            info["pid"], shown_cmdline(info["cmdline"]), where)})
    return out


CMDLINE_SHOWN = 240  # characters of a stray process's command line a report shows


def shown_cmdline(cmdline):
    """The command line as a report shows it: whole, or its first CMDLINE_SHOWN characters cut at a word
    and marked ' ...' (a cut without a mark reads as a different command)."""
    if len(cmdline) <= CMDLINE_SHOWN:
        return cmdline
    return cmdline[:CMDLINE_SHOWN].rsplit(" ", 1)[0] + " ..."


def host_drift(root, instances, replaces=(), unit_dir=common.UNIT_DIR, config_dir="/etc/specdeploy", proc="/proc",
               run=None):
    """drift() of this host (read-only)."""
    return drift(observe(root, instances, unit_dir, config_dir, proc, run), instances, replaces)
