# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The server role's decisions for one instance, as one pure function: `plan()`.

The role's YAML does the side effects in order (write the release, verify it, install, restart, gate,
activate or restore) and reads everything else from the plan: what to do and why (install a new
release, put back a hand-edited unit, restart a stopped service or one whose secrets changed,
migrate the units of a hand-made service, nothing; for a rollback: which release, or why not), the
unit name and path, the address the gate and status probe, the smoke arguments of the release it
starts and of the one it would restore, the record of a new release, and the result
(`server_results.<instance>`), which `result()` completes with what happened.

Inputs the host holds are read by `observe()` (links, records, installed unit, unit states, the
EnvironmentFile's digest), so that `plan()` itself reads nothing and is tested over a table of states.
Secrets never enter a plan, a record or a result: only whether the EnvironmentFile's sha256 changes.
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import os
import subprocess

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import canonical, sha256_file, sha256_text  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke
from ansible_collections.specdeploy.sglang.plugins.module_utils import systemd_unit

__metaclass__ = type

MODES = ("deploy", "rollback")
SMOKE_KEYS = ("timeout", "prompts", "max_new_tokens", "runs", "min_accept_length", "min_tokens_per_s",
              "expect_substrings")
# the smoke settings' defaults: one definition (smoke.SETTINGS); the role passes its server_smoke_* over them
SMOKE_DEFAULTS = smoke.SETTINGS
ACTIVE_STATES = ("active", "activating", "reloading")
ENABLED_STATES = ("enabled", "enabled-runtime", "linked", "linked-runtime")
SECRETS_BACKUP = ".previous"
SHOW_PROPERTIES = ("LoadState", "ActiveState", "SubState", "UnitFileState", "ActiveEnterTimestamp", "NRestarts")


class PlanError(Exception):
    """Bad input (a message a person can act on)."""


# ---- secrets: the EnvironmentFile -----------------------------------------------------------------

def secrets_text(instance, secrets):
    """The 0600 EnvironmentFile of an instance (systemd_unit's EnvironmentFile quoting: a plain token is
    written as it was, KEY=value; anything else quoted, a control character refused)."""
    inputs.check_instance_name(instance, PlanError)
    if secrets is not None and not isinstance(secrets, dict):
        raise PlanError("server_secrets.%s must be a mapping of variable names to values" % instance)
    for key, value in (secrets or {}).items():
        if not isinstance(key, str) or not common.ENV_NAME.match(key):
            raise PlanError("server_secrets.%s: %r is not a valid environment variable name" % (instance, key))
        if isinstance(value, (dict, list)):
            raise PlanError("server_secrets.%s.%s must be a string, got %s" % (instance, key, type(value).__name__))
        if inputs.value_problem("" if value is None else value):
            # the value itself is never shown
            raise PlanError("server_secrets.%s.%s %s" % (instance, key, inputs.value_problem(
                "" if value is None else value).split(" at position")[0]))
    return systemd_unit.env_file_text("specdeploy: secrets of %s (EnvironmentFile, 0600, never logged)"
                                      % common.unit_name(instance), secrets)


def _write_private(path, text):
    tmp = "%s.tmp-%d" % (path, os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def write_secrets(path, text, check_mode=False):
    """Write the EnvironmentFile when it differs, keeping the file it replaces as <path>.previous (0600)
    for a failed gate to put back. Returns changed."""
    if sha256_file(path, None) == sha256_text(text):
        return False
    if not check_mode:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        if os.path.exists(path):
            os.replace(path, path + SECRETS_BACKUP)
        else:  # nothing to put back but "no secrets": an empty file says so
            _write_private(path + SECRETS_BACKUP, "")
        _write_private(path, text)
    return True


def restore_secrets(path, check_mode=False):
    """Put back the EnvironmentFile a failed gate replaced. Returns changed."""
    backup = path + SECRETS_BACKUP
    if not os.path.exists(backup):
        return False
    if not check_mode:
        os.replace(backup, path)
    return True


def drop_secrets_backup(path, check_mode=False):
    """The new secrets passed the gate: the old ones are not kept. Returns changed."""
    backup = path + SECRETS_BACKUP
    if not os.path.exists(backup):
        return False
    if not check_mode:
        os.unlink(backup)
    return True


# ---- what the host holds --------------------------------------------------------------------------

def systemctl_show(unit, run=None):
    """SHOW_PROPERTIES of a unit, from systemctl show ("unknown" without systemd)."""
    run = run or (lambda argv: subprocess.run(argv, check=False, capture_output=True, text=True).stdout)
    try:
        out = run(["systemctl", "show", unit, "--property=" + ",".join(SHOW_PROPERTIES)])
    except OSError:
        out = ""
    state = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return {k: state.get(k, "unknown") for k in SHOW_PROPERTIES}


def observe(root, instance, replaces=(), rollback_to="", unit_dir=common.UNIT_DIR,
            config_dir="/etc/specdeploy", run=None):
    """Everything plan() needs from the host, read-only."""
    links = rel.links(root, instance)
    wanted = set(r for r in (links["current"], links["previous"]) if r)
    if rollback_to and rollback_to != "previous":
        wanted.add(rollback_to)
    records = {}
    for rid in sorted(wanted):
        # the records a restart or restore would start from are refused when broken; a deploy does not
        # start the previous release, so a broken record of it is only not read
        strict = rollback_to or rid == links["current"]
        record = rr.load(rr.path_of(root, rid)) if strict else rr.load_or_none(rr.path_of(root, rid))
        if record is not None:
            records[rid] = record
    unit = common.unit_name(instance)
    return {
        "links": links,
        "records": records,
        "releases": rel.present(root),
        "half_made": rel.half_made(root),
        "unit_sha256": sha256_file(common.unit_path(instance, unit_dir), None),
        "unit_state": systemctl_show(unit, run),
        "replaced": {name: systemctl_show(name, run) for name in replaces or []},
        "secrets_sha256": sha256_file(common.env_file_path(instance, config_dir), None),
        # a run replaced the secrets and did not pass (or finish) its gate since
        "secrets_pending": os.path.exists(common.env_file_path(instance, config_dir) + SECRETS_BACKUP),
    }


# ---- the pieces of a plan --------------------------------------------------------------------------

def unit_env(validation, instance, runtime_env=None):
    """The unit's Environment=: the env's runtime environment (gpu_env_runtime_env: CUDA_HOME and PATH
    for flashinfer's JIT), under the validated env (a spec's own env wins), plus CUDA_VISIBLE_DEVICES
    of the instance."""
    env = dict(runtime_env or {})
    env.update((validation or {}).get("env") or {})
    cvd = (instance or {}).get("cuda_visible_devices")
    if cvd is not None:
        env["CUDA_VISIBLE_DEVICES"] = str(cvd)
    return env


# ---- the validation cache: same inputs, same answer --------------------------------------------------

def validation_key(instance, settings):
    """sha256 of everything a validation of the instance's flags depends on: the validator, the spec, the
    GPUs it sees, the env (python, its lock's hash) and the env's probed capabilities."""
    settings = settings or {}
    return sha256_text(canonical({
        "validator": settings.get("validator"), "spec": (instance or {}).get("spec"),
        "cuda_visible_devices": (instance or {}).get("cuda_visible_devices"), "python": settings.get("python"),
        "lock_hash": settings.get("lock_hash"), "gpus": settings.get("gpus") or [],
        "capabilities": settings.get("capabilities") or {}}))


def earlier_validation(instance, settings, earlier):
    """{key, validation, source}: this run's validation of the same inputs (`earlier`, the role's map of
    instance -> {key, validation}), or validation None."""
    key = validation_key(instance, settings)
    got = (earlier or {}).get((instance or {}).get("name")) or {}
    if got.get("key") == key and got.get("validation"):
        return {"key": key, "validation": got["validation"], "source": "this run", "previous_argv": None}
    return {"key": key, "validation": None, "source": None, "previous_argv": None}


def recorded_validation(found, instance, settings):
    """earlier_validation()'s answer completed from the running release's record (server_validation_reuse):
    its validation when the key matches, and its argv (for the validator's comparison) either way."""
    if found["validation"] is not None:
        return found
    record = rr.load(rr.path_of((settings or {}).get("root") or "/opt/specdeploy", instance=instance["name"]))
    out = dict(found, previous_argv=(record or {}).get("argv"))
    if (settings or {}).get("validation_reuse", True):
        reused = rr.reusable_validation(record, found["key"])
        if reused:
            out.update(validation=reused, source="the running release")
    return out


# server_plan's arguments: the module's, and its action plugin's (which computes action=lines on the
# controller). One definition for both.
ARGUMENT_SPEC = dict(
    action=dict(type="str", required=True,
                choices=["lines", "plan", "secrets", "finish", "smoke_args", "status", "links", "validation"]),
    mode=dict(type="str", choices=["deploy", "rollback"], default="deploy"),
    instance=dict(type="dict"),
    instances=dict(type="list", elements="dict"),
    validation=dict(type="dict"),
    program=dict(type="list", elements="str"),
    runtime_env=dict(type="dict", default={}),
    unit_settings=dict(type="dict", default={}),
    unit_text=dict(type="str"),
    secrets=dict(type="dict", no_log=True),
    manage_secrets=dict(type="bool", default=True),
    state=dict(type="str", choices=["present", "restored", "kept"], default="present"),
    settings=dict(type="dict", default={}),
    plan=dict(type="dict"),
    status=dict(type="str", choices=["staged", "active", "failed"]),
    smoke=dict(type="dict"),
    rollback_smoke=dict(type="dict"),
    error=dict(type="str"),
    refused=dict(type="list", elements="str"),
    timeout=dict(type="float", default=common.HEALTH_TIMEOUT),
    earlier=dict(type="dict", default={}),
)
REQUIRED_IF = [
    ("action", "lines", ("program", "validation", "instance")),
    ("action", "plan", ("instance",)),
    ("action", "secrets", ("instance",)),
    ("action", "finish", ("plan",)),
    ("action", "smoke_args", ("instance",)),
    ("action", "status", ("instances",)),
    ("action", "links", ("instances",)),
    ("action", "validation", ("instance",)),
]


def check_plan(plan):
    """action=finish's plan is one action=plan returned: refuse anything else before reading it."""
    fields = {"rel_dir": str, "release_id": str, "previous_release_id": str, "action": str, "mode": str,
              "reasons": list, "replace": list, "validation": dict}
    bad = [k for k, t in fields.items() if not isinstance((plan or {}).get(k), t)]
    if bad or not isinstance(plan.get("restart"), bool):
        raise PlanError("plan is not one action=plan returned (missing or malformed: %s)"
                        % ", ".join(bad + ([] if isinstance((plan or {}).get("restart"), bool) else ["restart"])))
    if not all(isinstance(r, dict) and isinstance(r.get("unit"), str) for r in plan["replace"]):
        raise PlanError("plan.replace must list {unit, active, enabled}")
    return plan


def check_unit_inputs(program, validation, runtime_env):
    """The shapes unit_lines reads: argv a list of scalars, env and runtime_env mappings of scalars."""
    validation = validation or {}
    argv, env = validation.get("argv") or [], validation.get("env") or {}
    scalar = (str, int, float)
    if not isinstance(argv, list) or not all(isinstance(a, scalar) and not isinstance(a, bool) for a in argv):
        raise PlanError("validation.argv must be a list of strings (one argv item each)")
    for what, mapping in (("validation.env", env), ("runtime_env", runtime_env or {})):
        if not isinstance(mapping, dict) or not all(isinstance(v, scalar) for v in mapping.values()):
            raise PlanError("%s must map variable names to strings" % what)
    if not all(isinstance(w, str) for w in program or []):
        raise PlanError("program must be a list of strings")


def unit_lines(program, validation, instance, runtime_env=None, unit_settings=None):
    """ExecStart and Environment= lines of the unit, and the env they carry. Refuses secret-looking env,
    and role settings (unit_settings: user, group, config_dir, root, device_allow) the unit cannot carry."""
    check_unit_inputs(program, validation, runtime_env)
    found = inputs.unit_settings_problems(unit_settings)
    if found:
        raise PlanError("; ".join(found))
    found = inputs.instance_problems(instance or {})
    if found:
        raise PlanError("; ".join(m for _f, m in found))
    env = unit_env(validation, instance, runtime_env)
    bad = common.secret_like(env)
    if bad:
        raise PlanError("%s look like secrets; put them in server_secrets (0600 EnvironmentFile), not in "
                        "the unit" % ", ".join(bad))
    try:
        return {"exec_lines": common.exec_lines(program, (validation or {}).get("argv") or []),
                "env_lines": common.env_lines(env), "env": env}
    except common.UnitError as exc:
        raise PlanError(str(exc))


def smoke_args(spec, resolved, instance_smoke, defaults, service):
    """smoke_decode's arguments for a release of `spec`: the one mapping the deploy gate, the rollback
    gate, the restore after a failed gate and verify.yml use. An instance's `smoke` dict overrides the
    role's server_smoke_* (defaults); expect holds the resolved settings named by expect_keys."""
    spec = spec or {}
    merged = dict(SMOKE_DEFAULTS)
    merged.update({k: v for k, v in (defaults or {}).items() if k in SMOKE_DEFAULTS})
    merged.update({k: v for k, v in (instance_smoke or {}).items() if k in SMOKE_KEYS})
    keys = merged["expect_keys"] or []
    args = {k: merged[k] for k in SMOKE_KEYS}
    args.update({
        "url": common.base_url(spec),
        "sglang_version": spec.get("sglang_version"),
        "service": service,
        "speculative": bool(spec.get("speculative")),
        "expect": {k: v for k, v in (resolved or {}).items() if k in keys},
    })
    return args


def _validation_summary(validation, validator):
    validation = validation or {}
    return {"validator": validation.get("validator") or validator,
            "ok": bool(validation.get("ok")),
            "reused": bool(validation.get("reused")),
            "notes": [n.get("message") if isinstance(n, dict) else n for n in validation.get("notes") or []]}


def _replace(observed, restart):
    """Units of server_replaces_units to stop before the start ([{unit, active, enabled}]), the ones not
    on the host, and the ones already stopped and disabled."""
    replace, missing, idle = [], [], []
    for name, st in (observed.get("replaced") or {}).items():
        if st.get("LoadState") in ("not-found", "unknown", None):
            missing.append(name)
            continue
        active = st.get("ActiveState") in ACTIVE_STATES
        enabled = st.get("UnitFileState") in ENABLED_STATES
        if active or enabled:
            replace.append({"unit": name, "active": active, "enabled": enabled})
        else:
            idle.append(name)
    if not restart:  # only a restart replaces the hand-made service
        replace = []
    return replace, missing, idle


def plan(instance, settings, observed, mode="deploy", validation=None, unit_text=None, secrets_text_sha256=None):
    """What to do for one instance, and why.

    instance: {name, spec, cuda_visible_devices?, smoke?}; settings: {root, config_dir, lock_hash, python,
    validator, validation_key, smoke (server_smoke_* by key, expect_keys), rollback_to}; observed: observe();
    validation: the flags' validation (deploy); unit_text: the rendered unit (deploy);
    secrets_text_sha256: sha256 of secrets_text() of the instance (deploy; None: secrets not managed)."""
    if mode not in MODES:
        raise PlanError("mode %r: use one of %s" % (mode, ", ".join(MODES)))
    found = inputs.instance_problems(instance or {})
    if found:
        raise PlanError("; ".join(m for _f, m in found))
    name = instance["name"]
    settings = settings or {}
    root = settings.get("root") or "/opt/specdeploy"
    unit = common.unit_name(name)
    links = observed.get("links") or {}
    records = observed.get("records") or {}
    current = links.get("current") or ""
    state = (observed.get("unit_state") or {}).get("ActiveState", "unknown")
    smoke_defaults = settings.get("smoke") or {}
    out = {"mode": mode, "instance": name, "unit": unit, "unit_path": common.unit_path(name),
           "env_file": common.env_file_path(name, settings.get("config_dir") or "/etc/specdeploy"),
           "previous_release_id": current, "reasons": [], "unit_edited": False, "secrets_changed": False,
           "replace": [], "replace_missing": [], "replace_idle": [], "record": None, "restore": None,
           "refused": None}

    if mode == "deploy":
        spec = instance.get("spec") or {}
        if not spec.get("sglang_version"):
            raise PlanError("%s: spec.sglang_version is required" % name)
        if not validation or not validation.get("ok"):
            raise PlanError("%s: no passed validation to plan from" % name)
        if unit_text is None:
            raise PlanError("%s: the rendered unit is required for a deploy plan" % name)
        rid = rel.release_id({"instance": name, "sglang_version": spec["sglang_version"],
                              "lock_hash": settings.get("lock_hash") or "", "unit": unit_text})
        installed = observed.get("unit_sha256")
        reasons = out["reasons"]
        if not current:
            reasons.append("no release installed yet")
        elif current != rid:
            reasons.append("the release changed (current %s)" % current)
        elif installed is None:
            reasons.append("its unit file %s is missing: installed again" % out["unit_path"])
        elif installed != sha256_text(unit_text):
            out["unit_edited"] = True
            reasons.append("its installed unit %s differs from the release (edited by hand?): put back"
                           % out["unit_path"])
        if state != "active" and current:
            reasons.append("the service is %s" % state)
        if current == rid and (records.get(current) or {}).get("status") == "staged":
            reasons.append("its gate did not finish (a host lost during its gate): gated again")
        if secrets_text_sha256 is not None and observed.get("secrets_sha256") != secrets_text_sha256:
            out["secrets_changed"] = True
            reasons.append("its secrets (server_secrets) changed" if observed.get("secrets_sha256")
                           else "its secrets file is written for the first time")
        elif secrets_text_sha256 is not None and observed.get("secrets_pending"):
            out["secrets_changed"] = True
            reasons.append("its secrets changed in an earlier run that did not pass its gate")
        restart = bool(reasons)
        action = ("install" if current != rid else "put_back_unit" if out["unit_edited"] or installed is None
                  else "restart" if restart else "nothing")
        target_spec, target_resolved = spec, (validation or {}).get("resolved") or {}
        out["record"] = {
            "release_id": rid, "instance": name, "status": "staged",
            "inputs": {"spec": spec, "cuda_visible_devices": instance.get("cuda_visible_devices"),
                       "lock_hash": settings.get("lock_hash") or "", "python": settings.get("python") or ""},
            "argv": validation.get("argv") or [], "env": unit_env(validation, instance),
            "validation_env": validation.get("env") or {}, "validation_key": settings.get("validation_key") or "",
            "validation": {"validator": validation.get("validator") or settings.get("validator"),
                           "ok": bool(validation.get("ok")), "resolved": target_resolved,
                           "overrides": validation.get("overrides") or [],
                           "notes": _validation_summary(validation, None)["notes"],
                           "memory_fit": validation.get("memory_fit")},
            "smoke": None}
        out["validation"] = _validation_summary(validation, settings.get("validator"))
        old_record = records.get(current) if current else None
    else:
        to = settings.get("rollback_to") or "previous"
        rid = (links.get("previous") or "") if to == "previous" else to
        target = records.get(rid) if rid else None
        if not rid:
            out["refused"] = "cannot roll back to the previous release: there is none"
        elif target is None and rid in (observed.get("half_made") or []):
            out["refused"] = "cannot roll back: " + rel.half_made_phrase(rid)
        elif target is None:
            out["refused"] = ("cannot roll back to release %s: it is not on this host (pruned or never deployed "
                              "here)" % rid)
        restart = out["refused"] is None and rid != current
        action = "refuse" if out["refused"] else "rollback" if restart else "nothing"
        if restart:
            out["reasons"].append("rolling back from release %s to %s" % (current or "none", rid))
        target_spec, target_resolved = rr.spec(target), rr.resolved(target)
        out["validation"] = {"validator": "rollback", "ok": True, "reused": False, "notes": []}
        old_record = records.get(current) if current else None

    replace, missing, idle = _replace(observed, restart and mode == "deploy")
    out.update({
        "release_id": rid, "restart": restart, "action": action,
        "rel_dir": "%s/releases/%s" % (root, rid) if rid else "",
        "exists": rid in (observed.get("releases") or []),
        "half_made": bool(rid) and rid in (observed.get("half_made") or []),
        "replace": replace, "replace_missing": missing, "replace_idle": idle,
        "port": common.listen_port(target_spec), "url": common.base_url(target_spec),
        "smoke": smoke_args(target_spec, target_resolved, instance.get("smoke"), smoke_defaults, unit),
    })
    out["unit_src"] = "%s/%s" % (out["rel_dir"], unit) if rid else ""
    if current:
        old_spec = rr.spec(old_record) or target_spec
        out["restore"] = {"release_id": current, "unit_src": "%s/releases/%s/%s" % (root, current, unit),
                          "url": common.base_url(old_spec),
                          # the role's smoke settings only: the instance's `smoke` dict belongs to the
                          # release being started (an expect_substrings of a new release is not the old one's)
                          "smoke": smoke_args(old_spec, rr.resolved(old_record), None, smoke_defaults, unit)}
    if not restart and mode == "deploy":
        out["previous_release_id"] = links.get("previous") or ""
    out["unit_text"] = unit_text
    out["message"] = message(out, bool(settings.get("check_mode")))
    out["result"] = result(out, {})
    return out


def message(p, check_mode=False):
    """One sentence: what the plan does for the instance and why (check mode: what it would do)."""
    head = "%s: release %s" % (p["unit"][:-len(".service")], p["release_id"] or "none")
    if p["action"] == "refuse":
        return "%s: %s; current release %s untouched." % (head, p["refused"], p["previous_release_id"] or "none")
    if not p["restart"]:
        return "%s is current and running: nothing to do." % head
    verb = {"install": "installed and started", "put_back_unit": "installed again (its unit put back) and restarted",
            "restart": "restarted", "rollback": "started"}[p["action"]]
    text = "%s %s %s (current: %s), because %s." % (
        head, "would be" if check_mode else "will be", verb, p["previous_release_id"] or "none",
        "; ".join(p["reasons"]))
    if p.get("half_made") and p["mode"] == "deploy":
        text += (" Its directory on the host is half-made (no release.json: an interrupted deploy); it %s made "
                 "again." % ("would be" if check_mode else "is"))
    if p["replace"]:
        text += " Before it starts, %s %s (server_replaces_units, unit files kept)." % (
            "it would stop and disable" if check_mode else "stopping and disabling",
            ", ".join(r["unit"] for r in p["replace"]))
    return text


def _clean_smoke(smoke):
    if not isinstance(smoke, dict):
        return None
    return {k: v for k, v in smoke.items() if k not in ("invocation", "changed", "failed")}


def result(p, outcome):
    """server_results.<instance>: the one record of what happened (the plan's, completed by `outcome`:
    smoke, rollback_smoke, error, refused (list), replaced_restored ([{unit, active, enabled, restored}]),
    restored_lines, check_mode)."""
    outcome = outcome or {}
    ran = p["restart"] and not outcome.get("check_mode")
    failed = bool(outcome.get("error"))
    refused = outcome.get("refused") or ([p["refused"]] if p.get("refused") else [])
    return {
        "release_id": p["release_id"],
        "previous_release_id": p["previous_release_id"],
        "changed": bool(p["restart"]) and not refused,
        "action": p["action"], "reasons": list(p["reasons"]),
        "rollback": p["mode"] == "rollback",
        "failed": failed or bool(refused),
        "refused": refused,
        "error": outcome.get("error"),
        "replaced_units": [r["unit"] for r in p["replace"]],
        "replaced_units_restored": list(outcome.get("restored_lines") or []),
        "smoke": _clean_smoke(outcome.get("smoke")) if ran else None,
        "rollback_smoke": _clean_smoke(outcome.get("rollback_smoke")),
        "validation": dict(p["validation"]),
    }


def restored_units(replace, observed_replaced):
    """After a failed first release put back the units it replaced: per unit whether it is as it was
    ([{unit, active, enabled, restored}]) and one phrase each for the fail message."""
    record, lines = [], []
    for r in replace or []:
        st = (observed_replaced or {}).get(r["unit"]) or {}
        ok = ((not r["active"] or st.get("ActiveState") in ACTIVE_STATES)
              and (not r["enabled"] or st.get("UnitFileState") in ENABLED_STATES))
        record.append(dict(r, restored=ok))
        done = " and ".join(w for w, want in (("enabled", r["enabled"]), ("started", r["active"])) if want)
        lines.append("%s %s (ActiveState=%s, UnitFileState=%s)" % (
            r["unit"], ("%s again" % done) if ok else "could NOT be put back", st.get("ActiveState", "?"),
            st.get("UnitFileState", "?")))
    return record, lines


def record_status(p, status, rollback_smoke=None):
    """The status a release record gets from its gate. A failed restart of the release that stays current
    (secrets changed, a stopped service) whose restore passed leaves it active: it serves."""
    restore = p.get("restore") or {}
    if (status == "failed" and restore.get("release_id") == p.get("release_id")
            and (rollback_smoke or {}).get("passed")):
        return "active"
    return status


def status_record(record, status, smoke=None, rollback_smoke=None, error=None, replaced=None):
    """The release record with the gate's outcome (never a secret: smoke results and messages only)."""
    out = dict(record or {})
    out.update({"status": status, "smoke": _clean_smoke(smoke), "rollback_smoke": _clean_smoke(rollback_smoke),
                "error": error})
    if replaced:
        out["replaced_units"] = replaced
    return out
