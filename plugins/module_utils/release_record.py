# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The release record, <root>/releases/<release-id>/release.json: its one schema, reader and writer.

Every reader of a release record goes through `load()` (Python) or a module/action that calls it (YAML:
server_plan action=links, deploy_state): no task parses release.json itself. The reader refuses a record
it cannot trust - not JSON, not an object, a schema version it does not know, a field of the wrong type -
with one sentence that names the file and what to do, instead of a KeyError three layers later.

Schema versions (docs/interfaces.md "Release record"):
  1  the records written before the version field existed (no `schema` key); read as version 2 (the
     fields are the same, only `schema` is added).
  2  `schema: 2` plus the fields of FIELDS.
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import json
import os
import time

__metaclass__ = type

NAME = "release.json"
SCHEMA = 2
# field: (type(s), required) - the record of a release (server_plan.plan builds it, the gate completes it)
FIELDS = {
    "release_id": (str, True),
    "instance": (str, True),
    "status": (str, True),
    "inputs": (dict, True),
    "argv": (list, True),
    "env": (dict, False),
    "validation_env": (dict, False),
    "validation_key": (str, False),
    "validation": (dict, False),
    "smoke": (dict, False),
    "rollback_smoke": (dict, False),
    "error": (str, False),
    "replaced_units": (list, False),
    "created": ((int, float), False),
}
STATUSES = ("staged", "active", "failed")


class RecordError(Exception):
    """A release record that cannot be trusted (a message a person can act on)."""


def path_of(root, release_id=None, instance=None):
    """release.json of a release id, or of an instance's current release."""
    if instance:
        return os.path.join(root, "instances", instance, "current", NAME)
    return os.path.join(root, "releases", release_id, NAME)


def check(record, where="release record"):
    """The record as the current schema (an older version upgraded), or RecordError."""
    if not isinstance(record, dict):
        raise RecordError("%s is not a JSON object (%s); it was not written by this collection or is corrupted. "
                          "Move the release directory away (or deploy again) so that a new record is written"
                          % (where, type(record).__name__))
    version = record.get("schema", 1)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= SCHEMA:
        raise RecordError("%s has schema version %r; this collection reads versions 1 to %d. It was written by "
                          "a newer specdeploy.sglang: deploy with that version, or move the release away"
                          % (where, version, SCHEMA))
    out = dict(record, schema=SCHEMA)
    for field, (kind, required) in FIELDS.items():
        value = out.get(field)
        if value is None:
            if required:
                raise RecordError("%s lacks the field %r (schema %d); it is corrupted. Move the release "
                                  "directory away (or deploy again)" % (where, field, version))
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError("%s: field %r is a %s, not a %s; the record is corrupted" % (
                where, field, type(value).__name__,
                " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))))
    if out["status"] not in STATUSES:
        raise RecordError("%s: status %r is none of %s" % (where, out["status"], ", ".join(STATUSES)))
    if not isinstance(out["inputs"].get("spec") or {}, dict):
        raise RecordError("%s: inputs.spec is not an object; the record is corrupted" % where)
    return out


def load(path):
    """The record at `path` (current schema), None when there is no file, RecordError when it is broken
    (the message names the release's own directory, also when `path` goes through an instance's link)."""
    path = os.path.realpath(path)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError("release record %s cannot be read: %s" % (path, exc.strerror or exc))
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordError("release record %s is not valid JSON (%s); it is corrupted (a full disk, an edit "
                          "by hand?). Move the release directory away (or deploy again)" % (path, exc))
    return check(data, "release record %s" % path)


def load_or_none(path):
    """load(), with a broken record read as none (pruning's age, a record about to be rewritten)."""
    try:
        return load(path)
    except RecordError:
        return None


def dump(record):
    """The file's text of a record (current schema)."""
    return json.dumps(dict(record, schema=SCHEMA), indent=2, sort_keys=True) + "\n"


def write(path, record, check_mode=False, now=None):
    """Write the record when its content differs (atomically: a temporary file renamed over it). The
    record keeps the `created` stamp of its first write (pruning orders releases by it). Returns changed."""
    existing = load_or_none(path)
    record = dict(record)
    if existing and "created" in existing:
        record["created"] = existing["created"]
    elif "created" not in record:
        record["created"] = round(time.time() if now is None else now, 3)
    text = dump(check(record, "the new release record of %s" % path))
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == text:
                return False
    except OSError:
        pass
    if not check_mode:
        tmp = "%s.tmp-%d" % (path, os.getpid())
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    return True


# ---- what readers take from a record ----------------------------------------------------------------

def spec(record):
    return ((record or {}).get("inputs") or {}).get("spec") or {}


def resolved(record):
    return ((record or {}).get("validation") or {}).get("resolved") or {}


def smoke(record):
    """The gate's smoke result of the record ({} when none)."""
    return (record or {}).get("smoke") or {}


def model_paths(records):
    """The model directories (spec.model_path, speculative.draft_model_path) of `records`, in order, once
    each: what a restart into those releases loads (the weights role checks them before any restart)."""
    out = []
    for record in records:
        s = spec(record)
        for path in (s.get("model_path"), (s.get("speculative") or {}).get("draft_model_path")):
            if isinstance(path, str) and path.startswith("/") and path not in out:
                out.append(path)
    return out


def reusable_validation(record, key):
    """The validation recorded by the running release, when it may stand for a new one of the same
    inputs (server_validation_reuse): same key, it passed, and the release served (status active)."""
    if not record or not key or record.get("validation_key") != key or record.get("status") != "active":
        return None
    validation = record.get("validation") or {}
    if not validation.get("ok"):
        return None
    return {"ok": True, "reused": True, "validator": validation.get("validator"), "argv": record.get("argv") or [],
            "env": record.get("validation_env") or {}, "resolved": validation.get("resolved") or {},
            "overrides": validation.get("overrides") or [], "memory_fit": validation.get("memory_fit"),
            "notes": [{"message": n} for n in validation.get("notes") or []]}


def summary(record):
    """What status reports of a running release: its id, SGLang version, verify mode, argv and gate."""
    s = spec(record)
    spec_cfg = s.get("speculative") or {}
    return {"release_id": record.get("release_id"), "status": record.get("status"),
            "sglang_version": s.get("sglang_version"),
            "verify": (spec_cfg.get("verify") or "linear") if spec_cfg else None,
            "algorithm": spec_cfg.get("algorithm") if spec_cfg else None,
            "argv": list(record.get("argv") or []), "validator": (record.get("validation") or {}).get("validator")}


def _norm(value):
    """Values as text, recursively: an inventory value and the recorded one compare equal whatever YAML or
    Jinja made of their types (30000 and "30000")."""
    if isinstance(value, dict):
        return {str(k): _norm(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    return None if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def pending(record, spec):
    """How the inventory's spec of an instance differs from the release it runs (status: what a deploy would
    change, not yet applied), one phrase each: SGLang version and verify mode by value, other keys by name."""
    if not record:
        return ["no release runs yet: the inventory's spec is not deployed"]
    running, wanted = summary(record), summary({"inputs": {"spec": spec or {}}})
    out = []
    for key, label in (("sglang_version", "SGLang version"), ("verify", "verify mode"), ("algorithm", "speculative algorithm")):
        if _norm(running[key]) != _norm(wanted[key]):
            out.append("%s: runs %s, the inventory says %s" % (label, running[key] or "none", wanted[key] or "none"))
    have, want = _norm(spec_of(record)), _norm(spec or {})
    others = sorted(k for k in set(have) | set(want)
                    if k not in ("sglang_version", "speculative") and have.get(k) != want.get(k))
    spec_have, spec_want = have.get("speculative") or {}, want.get("speculative") or {}
    others += sorted("speculative." + k for k in set(spec_have) | set(spec_want)
                     if k not in ("verify", "algorithm") and spec_have.get(k) != spec_want.get(k))
    if others:
        out.append("spec keys differ: %s" % ", ".join(others))
    return out


spec_of = spec
