# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Releases of an SGLang instance on a host: id, record, activation, pruning, pre-restart probes.

Host layout (docs/interfaces.md):
    <root>/releases/<release-id>/release.json + sglang-<instance>.service
    <root>/instances/<instance>/current, previous   symlinks to releases
A release directory appears with its record (create(): built in a hidden sibling, renamed into place). A
directory without release.json is half-made (a deploy of an older version interrupted between the directory
and its record): not a release; the deploy that makes that id again replaces it, prune removes it.
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile

from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import canonical, sha256_text

__metaclass__ = type

ID_LEN = 16
# one definition each (server_common); the names stay importable from here
SECRET_NAME = common.SECRET_NAME
secret_like = common.secret_like
unit_name = common.unit_name
INSTANCE_NAME = inputs.INSTANCE_NAME


class ReleaseError(Exception):
    """Bad input or host state (a message a person can act on)."""


def release_id(inputs):
    """Hash of everything that defines a release (same inputs -> same id)."""
    return sha256_text(canonical(inputs))[:ID_LEN]


# Values shorter than this ("1", "true") cannot be told apart from ordinary text in a unit or record.
MIN_SECRET_LEN = 8


def check_no_secrets(text, secrets):
    """Raise if any secret value appears in `text` (the rendered unit or record)."""
    for name, value in (secrets or {}).items():
        if value and len(str(value)) >= MIN_SECRET_LEN and str(value) in text:
            raise ReleaseError("secret %s would be written into a unit or record; refusing" % name)


def systemd_quote(arg, dollar=True):
    """server_common.systemd_quote, with its error as a ReleaseError."""
    try:
        return common.systemd_quote(arg, dollar)
    except common.UnitError as exc:
        raise ReleaseError(str(exc))


def exec_lines(program, argv):
    try:
        return common.exec_lines(program, argv)
    except common.UnitError as exc:
        raise ReleaseError(str(exc))


def env_lines(env):
    try:
        return common.env_lines(env)
    except common.UnitError as exc:
        raise ReleaseError(str(exc))


def _link_id(path):
    try:
        return os.path.basename(os.readlink(path).rstrip("/"))
    except OSError:
        return None


def links(root, instance):
    base = os.path.join(root, "instances", instance)
    return {"current": _link_id(os.path.join(base, "current")),
            "previous": _link_id(os.path.join(base, "previous"))}


def instance_links(root, instances):
    """{instance: {current, previous, record}}: each instance's release links and its current release
    record (release_record.load: a broken record is refused, not read as none)."""
    return {name: dict(links(root, name), record=rr.load(rr.path_of(root, instance=name)) or {})
            for name in instances}


def _read_bytes(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def running_release(root, instance, unit_dir=common.UNIT_DIR):
    """The release whose own unit file (<root>/releases/<id>/<unit>) is the installed unit of `instance`
    (its current release first), or None (no unit, or one no release wrote)."""
    installed = _read_bytes(common.unit_path(instance, unit_dir))
    if installed is None:
        return None
    unit = common.unit_name(instance)
    current = links(root, instance)["current"]
    for rid in ([current] if current else []) + [r for r in present(root) if r != current]:
        if _read_bytes(os.path.join(root, "releases", rid, unit)) == installed:
            return rid
    return None


def not_gated(root, instance, unit_dir=common.UNIT_DIR):
    """The release `instance` runs (its installed unit) when that release's gate did not finish - its record
    still says `staged`, as the gate writes it before the restart (a host lost, or a controller stopped,
    during its gate) - else None. Such a host is never "unchanged": the next deploy gates it."""
    rid = running_release(root, instance, unit_dir)
    record = rr.load_or_none(rr.path_of(root, rid)) if rid else None
    return rid if record is not None and record.get("status") == "staged" else None


def release_dirs(root):
    """Names of the directories under <root>/releases, sorted; hidden ones (create()'s staging) are not
    releases."""
    base = os.path.join(root, "releases")
    try:
        names = os.listdir(base)
    except OSError:
        return []
    return sorted(n for n in names if not n.startswith(".") and os.path.isdir(os.path.join(base, n)))


def is_half_made(path):
    """A release directory without its release.json (a deploy interrupted before its record was written)."""
    return os.path.isdir(path) and not os.path.lexists(os.path.join(path, rr.NAME))


def half_made(root):
    """Ids of the half-made release directories on the host (no release.json), sorted."""
    return [n for n in release_dirs(root) if is_half_made(os.path.join(root, "releases", n))]


# create()'s hidden siblings: .<id>.tmp-<random> (being built), .<id>.half-<pid> (a half-made one set aside)
STAGING = re.compile(r"^\.[0-9A-Za-z_-]+\.(tmp|half)-[0-9A-Za-z_]+$")


def staging_leftovers(root):
    """Hidden staging directories create() left behind when it was killed, sorted."""
    base = os.path.join(root, "releases")
    try:
        names = os.listdir(base)
    except OSError:
        return []
    return sorted(n for n in names if STAGING.match(n) and os.path.isdir(os.path.join(base, n))
                  and not os.path.islink(os.path.join(base, n)))


def half_made_phrase(rid):
    """Why a half-made release cannot be started (rollback refusals)."""
    return ("release %s is half-made on this host: its directory has no release.json (a deploy was interrupted "
            "before its record was written), so it never ran. Deploy its inputs again (the deploy makes it again) "
            "or roll back to another release" % rid)


def present(root):
    """Release ids on the host (directories under <root>/releases with their release.json), sorted. A
    half-made directory is not a release."""
    return [n for n in release_dirs(root) if not is_half_made(os.path.join(root, "releases", n))]


def _fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def create(root, rid, record, unit_text=None, unit=None, check_mode=False, now=None):
    """Make release `rid`: its directory appears with its release.json (and its unit file `unit`, when
    `unit_text` is given) in one step - built in a hidden sibling, then renamed into place - so that no
    kill leaves a release directory without its record. A half-made directory of the same id (no
    release.json: left by an older version's interrupted deploy) is replaced. An existing release gets its
    record rewritten when it differs (release_record.write). Returns {changed, created, repaired}."""
    base = os.path.join(root, "releases")
    path = os.path.join(base, rid)
    if os.path.lexists(path) and not os.path.isdir(path):
        raise ReleaseError("%s exists and is not a directory; move it away" % path)
    if os.path.isdir(path) and not is_half_made(path):
        return {"changed": rr.write(os.path.join(path, rr.NAME), record, check_mode, now=now),
                "created": False, "repaired": False}
    repaired = os.path.isdir(path)
    rr.check(dict(record), "the new release record of %s" % os.path.join(path, rr.NAME))
    if check_mode:
        return {"changed": True, "created": True, "repaired": repaired}
    os.makedirs(base, mode=0o755, exist_ok=True)
    for name in staging_leftovers(root):  # an earlier create() of this id that was killed
        if name.startswith(".%s." % rid):
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)
    tmp = tempfile.mkdtemp(prefix=".%s.tmp-" % rid, dir=base)
    aside = None
    try:
        rr.write(os.path.join(tmp, rr.NAME), record, now=now)
        if unit_text is not None:
            unit_path = os.path.join(tmp, unit)
            with open(unit_path, "w", encoding="utf-8") as handle:
                handle.write(unit_text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(unit_path, 0o644)
        os.chmod(tmp, 0o755)
        _fsync_dir(tmp)
        if repaired:
            aside = os.path.join(base, ".%s.half-%d" % (rid, os.getpid()))
            os.rename(path, aside)
        try:
            os.rename(tmp, path)
        except OSError as exc:
            if aside:
                os.rename(aside, path)
                aside = None
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
                raise ReleaseError("%s appeared while release %s was being made (another deploy on this host?)"
                                   % (path, rid))
            raise
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
    if aside:
        shutil.rmtree(aside, ignore_errors=True)
    _fsync_dir(base)
    return {"changed": True, "created": True, "repaired": repaired}


def rollback_targets(root, found, to="previous", any_instances=True):
    """What a rollback to `to` (previous, or a release id) would start on the host: per instance the target
    release (targets), why it cannot (problems, one phrase each), the releases on the host, and the model
    directories of the targets and of the current releases (a failed gate restores those)."""
    on_host, half = present(root), half_made(root)
    problems, targets, records = [], {}, []
    if not any_instances:
        problems.append("no server_instances")
    for name, item in found.items():
        target = item.get("previous") if to == "previous" else to
        if not target:
            problems.append("instance %s has no previous release (current: %s)" % (name, item.get("current") or "none"))
        elif target in half:
            problems.append("instance %s: %s" % (name, half_made_phrase(target)))
        elif target not in on_host:
            problems.append("release %s of instance %s is not on this host (pruned or never deployed here)"
                            % (target, name))
        else:
            targets[name] = target
            records.append(rr.load(rr.path_of(root, target)))
    records += [item.get("record") for item in found.values()]
    return {"problems": problems, "targets": targets, "releases": on_host, "models": rr.model_paths(records)}


def all_linked(root):
    """Release ids referenced by any instance's current or previous link."""
    used = set()
    inst_dir = os.path.join(root, "instances")
    if os.path.isdir(inst_dir):
        for name in os.listdir(inst_dir):
            for rid in links(root, name).values():
                if rid:
                    used.add(rid)
    return used


def _swap_link(path, target):
    tmp = "%s.tmp-%d" % (path, os.getpid())
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(target, tmp)
    os.replace(tmp, path)


def activate(root, instance, rid, check_mode=False):
    """current -> rid, previous -> the old current (when it differs). Returns (changed, before, after)."""
    rel = os.path.join(root, "releases", rid)
    if not os.path.isdir(rel) and not check_mode:
        raise ReleaseError("release %s does not exist under %s" % (rid, os.path.join(root, "releases")))
    before = links(root, instance)
    after = dict(before)
    if before["current"] != rid:
        after = {"current": rid, "previous": before["current"] or before["previous"]}
    changed = after != before
    if changed and not check_mode:
        base = os.path.join(root, "instances", instance)
        os.makedirs(base, exist_ok=True)
        if after["previous"]:
            _swap_link(os.path.join(base, "previous"), os.path.join(root, "releases", after["previous"]))
        _swap_link(os.path.join(base, "current"), rel)
    return changed, before, after


def created_at(path):
    """When a release was made: the `created` stamp of its record. Not the directory's mtime, which
    moves whenever the record is rewritten (a status update after a smoke), so that a release
    failed long ago would count as new. Directories without a readable stamp use their mtime."""
    record = rr.load_or_none(os.path.join(path, rr.NAME)) or {}
    stamp = record.get("created")
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
        return float(stamp)
    return os.path.getmtime(path)


def prune(root, keep, check_mode=False):
    """Delete releases beyond the `keep` newest (by creation), never one any instance's
    current/previous uses; and every half-made release directory no instance links (it never ran) and
    create()'s leftover staging directories, whatever `keep`."""
    rel_dir = os.path.join(root, "releases")
    if not os.path.isdir(rel_dir):
        return []
    used = all_linked(root)
    entries, removed = [], []
    for name in release_dirs(root):
        path = os.path.join(rel_dir, name)
        if os.path.islink(path):
            continue
        if is_half_made(path):
            if name not in used:
                removed.append(name)
            continue
        entries.append((created_at(path), name))
    entries.sort(reverse=True)
    for idx, (_mtime, name) in enumerate(entries):
        if idx < keep or name in used:
            continue
        removed.append(name)
    removed += staging_leftovers(root)
    if not check_mode:
        for name in removed:
            shutil.rmtree(os.path.join(rel_dir, name))
    return sorted(removed)


# ---- pre-restart probes: who holds the port, leftover sglang:: processes ------------------------

def _listen_inodes(port, proc="/proc"):
    """{socket inode: owner uid} of TCP sockets listening on `port`."""
    inodes = {}
    for name in ("tcp", "tcp6"):
        try:
            with open(os.path.join(proc, "net", name)) as handle:
                next(handle, None)
                for line in handle:
                    fields = line.split()
                    if len(fields) < 10:
                        continue
                    local, state, uid, inode = fields[1], fields[3], fields[7], fields[9]
                    if state == "0A" and int(local.rsplit(":", 1)[1], 16) == int(port):
                        inodes[inode] = int(uid)
        except OSError:
            continue
    return inodes


def _pids(proc="/proc"):
    return [int(p) for p in os.listdir(proc) if p.isdigit()]


def _read(path, default=""):
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return default


def _uid(pid, proc="/proc"):
    for line in _read(os.path.join(proc, str(pid), "status")).splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    return None


def process_info(pid, proc="/proc"):
    cmd = _read(os.path.join(proc, str(pid), "cmdline")).replace("\0", " ").strip()
    cgroup = _read(os.path.join(proc, str(pid), "cgroup"))
    unit = None
    for line in cgroup.splitlines():
        match = re.search(r"/([^/]+\.service)(/|$)", line)
        if match:
            unit = match.group(1)
            break
    return {"pid": pid, "cmdline": cmd[:300], "unit": unit, "uid": _uid(pid, proc)}


def unit_processes(unit, proc="/proc"):
    """Processes in a systemd unit's cgroup (cgroup and status files are world-readable)."""
    return [info for info in (process_info(pid, proc) for pid in _pids(proc)) if info["unit"] == unit]


def port_holders(port, proc="/proc", unit=None, units=None):
    """Processes listening on TCP `port` (any address).

    Reading another user's /proc/<pid>/fd needs CAP_SYS_PTRACE, which root lacks in unprivileged
    containers. A socket whose process cannot be seen is attributed to the first unit of `unit`, then
    `units` (in that order) that has a process of the socket's owner uid, else reported with pid None
    and no unit."""
    inodes = _listen_inodes(port, proc)
    if not inodes:
        return []
    wanted = dict(("socket:[%s]" % i, i) for i in inodes)
    found = set()
    holders = []
    for pid in _pids(proc):
        fd_dir = os.path.join(proc, str(pid), "fd")
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(os.path.join(fd_dir, fd))
            except OSError:
                continue
            if link in wanted:
                holders.append(process_info(pid, proc))
                found.add(wanted[link])
                break
    unseen = [inodes[i] for i in inodes if i not in found]
    if unseen:
        candidates = ([unit] if unit else []) + [u for u in (units or []) if u and u != unit]
        unit_uids = [(name, set(p["uid"] for p in unit_processes(name, proc))) for name in candidates]
        for uid in sorted(set(unseen)):
            owner = next((name for name, uids in unit_uids if uid in uids), None)
            holders.append({"pid": None, "uid": uid, "unit": owner,
                            "cmdline": "a process of uid %s whose sockets cannot be read" % uid})
    return holders


def sglang_processes(proc="/proc"):
    """Processes whose title starts with sglang:: (scheduler, detokenizer), or launch_server mains."""
    found = []
    for pid in _pids(proc):
        cmd = _read(os.path.join(proc, str(pid), "cmdline")).replace("\0", " ").strip()
        if cmd.startswith("sglang::") or "sglang.launch_server" in cmd or cmd.startswith("sglang serve"):
            found.append(process_info(pid, proc))
    return found


def preflight(instance, port, proc="/proc", replaces=()):
    """What stands in the way of (re)starting sglang-<instance>: a foreign port holder, leftovers.

    `replaces`: units of a hand-made service that the deploy stops before it starts the instance
    (server_replaces_units). Port holders and SGLang processes inside their cgroups are expected: they
    are returned under `replaced` (with a note each), not as problems. Anything else is still refused."""
    unit = unit_name(instance)
    replaces = [u for u in (replaces or []) if u and u != unit]
    problems = []
    notes = []
    holders = port_holders(port, proc, unit, replaces)
    foreign = [h for h in holders if h["unit"] != unit and h["unit"] not in replaces]
    replaced = [dict(h, reason="port") for h in holders if h["unit"] in replaces]
    for holder in foreign:
        problems.append("port %s is already taken by pid %s (%s)%s; sglang-%s would fail to bind. "
                        "Stop that process or choose another port%s." % (
                            port, holder["pid"], holder["cmdline"],
                            " in %s" % holder["unit"] if holder["unit"] else "", instance,
                            " (or list its unit in server_replaces_units, if it is the service this "
                            "deploy replaces)" if holder["unit"] else ""))
    leftovers = []
    for info in sglang_processes(proc):
        if info["unit"] in replaces:
            if not any(r["pid"] == info["pid"] and r["pid"] is not None for r in replaced):
                replaced.append(dict(info, reason="sglang"))
        elif not (info["unit"] or "").startswith("sglang-"):
            leftovers.append(info)
    for proc_info in leftovers:
        problems.append("leftover SGLang process pid %s (%s) outside any sglang-*.service unit; it may "
                        "hold GPU memory. Kill it before deploying." % (proc_info["pid"], proc_info["cmdline"]))
    for info in replaced:
        notes.append("%s pid %s (%s) is in %s, which will be replaced (stopped and disabled) before "
                     "sglang-%s starts." % (
                         "the holder of port %s," % port if info["reason"] == "port" else "SGLang process",
                         info["pid"], info["cmdline"], info["unit"], instance))
    return {"problems": problems, "port_holders": foreign, "leftovers": leftovers, "replaced": replaced,
            "notes": notes}
