# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a host looked like after its last successful deploy, and whether it still does.

deploy.yml records, per host, <root>/deploy-state.json after a deploy that passed: the key of its
inputs (a hash the controller computes over the host's role variables and the collection's own
files; no value is stored), and what the host then held: each instance's current and previous
release, the sha256 of its installed unit file and of the files the release depends on (its
release.json, the env's lock and completion marker, the weights' manifests), the names and sizes of
the weights' files, the GPUs the driver listed. A later deploy with the same key checks all of that again, plus that every instance's unit
is active and running and answers GET /health. When all of it holds, the host has nothing to change
and deploy.yml reports it unchanged without running the roles on it.

Standard library only, importable without Ansible.
"""
from __future__ import annotations

import json
import os
import subprocess
import urllib.error

from ansible_collections.specdeploy.sglang.plugins.module_utils import drift
from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu_env as ge
from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import sha256_file, sha256_text

__metaclass__ = type

STATE_NAME = "deploy-state.json"
VERSION = 1
UNIT_DIR = common.UNIT_DIR
GPU_DIR = "/proc/driver/nvidia/gpus"
ENV_MARKER = ge.ENV_MARKER
ENV_LOCK = "specdeploy.lock"


class StateError(Exception):
    """Bad input (a message a person can act on)."""


def sizes_digest(directory):
    """sha256 of the names and sizes of the files under `directory` (the weights role's quick check of a
    published model), or None when it is not a directory."""
    if not os.path.isdir(directory):
        return None
    lines = []
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(base, name)
            try:
                size = os.lstat(path).st_size
            except OSError:
                size = -1
            lines.append("%s\0%d\n" % (os.path.relpath(path, directory), size))
    return sha256_text("".join(lines), errors="surrogateescape")


def release_files(root, instance, record, unit_dir=UNIT_DIR):
    """The files one instance's running release depends on: its installed unit, its release.json,
    the env its python belongs to (lock and completion marker) and, for the model and drafter paths
    of its spec, the weights' manifest and the names and sizes of their files (a path ending in /)."""
    out = [common.unit_path(instance, unit_dir),
           os.path.join(root, "instances", instance, "current", "release.json")]
    inputs = (record or {}).get("inputs") or {}
    python = inputs.get("python") or ""
    if python.endswith("/bin/python"):
        venv = os.path.dirname(os.path.dirname(python))
        out += [os.path.join(venv, ENV_LOCK), os.path.join(venv, ENV_MARKER)]
    spec = inputs.get("spec") or {}
    paths = [spec.get("model_path"), (spec.get("speculative") or {}).get("draft_model_path")]
    for path in paths:
        if isinstance(path, str) and path.startswith("/"):
            out += [os.path.join(path, ".specdeploy-manifest.json"), path.rstrip("/") + "/"]
    return out


def gpus(gpu_dir=GPU_DIR):
    """PCI ids of the GPUs the NVIDIA driver lists (empty without a driver)."""
    try:
        return sorted(os.listdir(gpu_dir))
    except OSError:
        return []


def unit_state(unit, run=None):
    """{ActiveState, SubState} of a unit, from systemctl show."""
    run = run or (lambda argv: subprocess.run(argv, check=False, capture_output=True, text=True).stdout)
    out = run(["systemctl", "show", "--property=ActiveState,SubState", unit])
    state = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return {"ActiveState": state.get("ActiveState", "unknown"), "SubState": state.get("SubState", "unknown")}


def health_url(record):
    """GET /health of the address the release record's spec listens on (server_common.base_url)."""
    return common.base_url(((record or {}).get("inputs") or {}).get("spec") or {}) + "/health"


def health(url, timeout=common.HEALTH_TIMEOUT):
    """None when GET url answers 200, else why not (one phrase). No proxy (server_common.local_opener)."""
    try:
        with common.local_opener().open(url, timeout=timeout) as answer:
            return None if answer.status == 200 else "HTTP %d" % answer.status
    except urllib.error.HTTPError as exc:
        return "HTTP %d" % exc.code
    except (OSError, ValueError) as exc:
        return str(getattr(exc, "reason", exc))


def links_and_records(root, instances):
    """{instance: {current, previous, record}}: the release links and the current release record."""
    return rel.instance_links(root, instances)


def observe(root, instances, unit_dir=UNIT_DIR, gpu_dir=GPU_DIR, found=None):
    """What the host holds now (the part that is recorded and compared). `found` is
    links_and_records() of the host, when the caller has read it already."""
    found = found if found is not None else links_and_records(root, instances)
    files = {}
    for name in instances:
        for path in release_files(root, name, found[name]["record"], unit_dir):
            files[path] = sizes_digest(path) if path.endswith("/") else sha256_file(path, None)
    return {"instances": {name: {"current": found[name]["current"], "previous": found[name]["previous"]}
                          for name in instances},
            "files": files, "gpus": gpus(gpu_dir)}


def check_instances(instances):
    for name in instances:
        if not rel.INSTANCE_NAME.match(str(name)):
            raise StateError("instance name %r: use lower-case letters, digits, - and _ (max 41)" % (name,))
    if len(set(instances)) != len(instances):
        raise StateError("instance names repeat: %s" % ", ".join(instances))


def state_path(root):
    return os.path.join(root, STATE_NAME)


def read_state(root):
    try:
        with open(state_path(root)) as handle:
            state = json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return {"unreadable": str(exc)}
    return state if isinstance(state, dict) else {"unreadable": "not a JSON object"}


def record(root, key, instances, check_mode=False, unit_dir=UNIT_DIR, gpu_dir=GPU_DIR, desired=None, found=None):
    """Write what the host holds now under `key` (with `desired`, the desired state derived from content
    that the key covers, kept to say what changed). Returns (changed, state). Refuses when an instance
    has no current release (there is nothing converged to record). `found` is links_and_records() of
    the host, when the caller has read it already (deploy.yml takes it as the release after the run)."""
    check_instances(instances)
    state = observe(root, instances, unit_dir, gpu_dir, found=found)
    missing = sorted(n for n, v in state["instances"].items() if not v["current"])
    if missing:
        raise StateError("no current release for %s; nothing to record" % ", ".join(missing))
    state = dict(state, version=VERSION, key=key, desired=dict(desired or {}))
    text = json.dumps(state, sort_keys=True, indent=1) + "\n"
    path = state_path(root)
    try:
        with open(path) as handle:
            if handle.read() == text:
                return False, state
    except OSError:
        pass
    if not check_mode:
        tmp = "%s.tmp-%d" % (path, os.getpid())
        with open(tmp, "w") as handle:
            handle.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    return True, state


def _short(value):
    text = str(value)
    return text[:20] if len(text) == 64 and all(c in "0123456789abcdef" for c in text) else text


def compare(recorded, key, instances, now, desired=None):
    """Why the host differs from its recorded state (empty: it does not). `now` is observe()'s;
    `desired` (the content-derived part of the key) names what changed when it did."""
    if recorded is None:
        return ["no deploy state recorded yet (%s)" % STATE_NAME]
    if "unreadable" in recorded:
        return ["the deploy state cannot be read: %s" % recorded["unreadable"]]
    if recorded.get("version") != VERSION:
        return ["the deploy state has format %r, this collection writes %r" % (recorded.get("version"), VERSION)]
    out = []
    if recorded.get("key") != key:
        was_desired, desired = recorded.get("desired"), desired or {}
        named = []
        if isinstance(was_desired, dict):
            for name in sorted(set(was_desired) | set(desired)):
                if was_desired.get(name) != desired.get(name):
                    named.append("the desired %s changed: %s -> %s%s" % (
                        name, _short(was_desired.get(name)), _short(desired.get(name)),
                        " (the lock's content)" if name == "env_key" else ""))
        out.extend(named or ["the inputs changed since the last deploy (inventory variables or the collection)"])
    was = recorded.get("instances") or {}
    if sorted(was) != sorted(instances):
        out.append("instances were %s, now %s" % (", ".join(sorted(was)) or "none", ", ".join(sorted(instances))))
    for name in instances:
        for link in ("current", "previous"):
            old, new = (was.get(name) or {}).get(link), now["instances"][name][link]
            if name in was and old != new:
                out.append("%s: %s release is %s, was %s" % (name, link, new or "none", old or "none"))
    old_files = recorded.get("files") or {}
    for path in sorted(set(old_files) | set(now["files"])):
        old, new = old_files.get(path), now["files"].get(path)
        if old != new:
            out.append("%s %s" % (path, "is gone" if new is None else "is new" if old is None else "changed"))
    if recorded.get("gpus") != now["gpus"]:
        out.append("GPUs listed by the driver changed: %s -> %s" % (recorded.get("gpus"), now["gpus"]))
    return out


def check(root, key, instances, unit_dir=UNIT_DIR, gpu_dir=GPU_DIR, run=None, probe=health, timeout=common.HEALTH_TIMEOUT,
          desired=None, config_dir="/etc/specdeploy", replaces=(), proc="/proc"):
    """(converged, differences, links): whether the host is as recorded under `key`, with every
    instance active, running and healthy, and no drift (drift.py: a server whose command line or
    environment differs from its release, a unit no release wrote, an SGLang process outside any unit;
    `replaces` are server_replaces_units, known). Read-only. `links` is links_and_records() of the host."""
    check_instances(instances)
    found = links_and_records(root, instances)
    now = observe(root, instances, unit_dir, gpu_dir, found=found)
    out = compare(read_state(root), key, instances, now, desired)
    if not out:  # only a host that is as recorded is worth asking about its services
        for name in instances:
            unit = common.unit_name(name)
            state = unit_state(unit, run)
            if state != {"ActiveState": "active", "SubState": "running"}:
                out.append("%s is %s (%s)" % (unit, state["ActiveState"], state["SubState"]))
                continue
            why = probe(health_url(found[name]["record"]), timeout)
            if why:
                out.append("%s: GET /health failed: %s" % (name, why))
    # drift is named even beside other differences: the deploy's list says everything the host has that no
    # release put there
    # a release started and never gated (a host lost during its gate) is not "as the last deploy left it"
    for name in instances:
        ungated = rel.not_gated(root, name, unit_dir)
        if ungated:
            out.append("%s: release %s runs and its gate did not finish" % (name, ungated))
    found_drift = drift.host_drift(root, instances, replaces, unit_dir, config_dir, proc, run)
    out.extend("drift: %s" % d["what"] for d in found_drift)
    return not out, out, found
