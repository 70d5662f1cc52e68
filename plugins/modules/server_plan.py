#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: server_plan
short_description: The server role's plan for one SGLang instance (what to do and why), and its outcome
version_added: 0.2.0
description:
  - A thin wrapper around C(plugins/module_utils/server_plan.py), which holds the decisions; the server
    role runs the side effects in order and reads the rest from this module's answers.
  - O(action=lines) escapes the validated argv and env into the unit's ExecStart and Environment= lines
    (one flag with its values per line; C(%) and C($) escaped); secret-looking env names are refused.
  - O(action=plan) reads the host (links, release records, installed unit, unit states, the digest of the
    EnvironmentFile) and returns the plan of O(instance) for O(mode) (C(deploy) or C(rollback)) - the
    C(action) (one of C(install), C(put_back_unit), C(restart), C(rollback), C(nothing), C(refuse)) with its
    C(reasons), the release id, the unit name and path, the C(url) the gate and status probe, the
    C(smoke) arguments of the release it starts and the C(restore) of the release it would go back to,
    the units of a hand-made service to stop first (C(replace)), the C(record) of a new release and the
    C(result). Read-only.
  - O(action=secrets) writes the 0600 EnvironmentFile from O(secrets) when it differs (O(state=present);
    the replaced file is kept beside it for a failed gate), puts that file back (O(state=restored)) or
    drops it once the gate passed (O(state=kept)). Values are never returned or logged.
  - O(action=finish) writes the gate's outcome (O(status), O(smoke), O(rollback_smoke), O(error)) into the
    release record of O(plan), reads back the units a failed first release put back, and returns the
    completed C(result) (C(server_results.<instance>)).
  - O(action=smoke_args) returns the smoke arguments of the release O(instance) runs now (its current
    release record, else its spec), what C(playbooks/verify.yml) smokes.
  - O(action=status) probes, for each of O(instances), the unit, C(/health) and C(/server_info) at the
    address from the same plan, with no proxy, and C(/metrics) of a serving instance (Prometheus text, read by
    C(plugins/module_utils/metrics.py) with the release's metric names; C(off) when the server answers 404,
    as one started without C(--enable-metrics) does); and it returns the host's C(drift)
    (C(plugins/module_utils/drift.py)). Each row carries C(current) and C(previous) (the release links),
    C(release), what the running release's record says (C(plugins/module_utils/release_record.py) C(summary)) -
    its id, SGLang version, verify mode, algorithm and argv; C(gate) (the record's gate status, creation time,
    smoke figures and memory fit); C(pending), how the inventory's spec differs from the running release (not
    deployed yet); C(record_error) when the record is refused; and C(not_gated), the release the
    instance's installed unit starts when that release's gate did not finish (its record still C(staged),
    as a host lost during its gate leaves it), else none. Read-only.
  - O(action=links) returns, for each of O(instances), its C(current) and C(previous) release ids and the
    record of C(current), and the model directories those records load (C(models)). With C(settings.rollback_to)
    it also returns the C(rollback) check - per instance the release a rollback starts (C(targets)), why it
    cannot (C(problems)), the releases on the host, and the model directories of the targets too. Read-only.
  - O(action=validation) returns the validation cache of O(instance) - its C(key) (the hash of the
    validator, spec, GPUs, env and capabilities), this run's validation of the same key (O(earlier)), else the
    running release's recorded validation when it may be reused (C(settings.validation_reuse)), else none, and
    the running release's C(previous_argv). The key and O(earlier) are compared on the controller; the host is
    read only when they do not answer. Read-only.
  - Every release record is read through C(plugins/module_utils/release_record.py), which refuses a record of an
    unknown schema version or a corrupted one with a message naming the file.
author: specdeploy.sglang contributors (@specdeploy)
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying target.
    support: full
    details: O(action=secrets) and O(action=finish) report what they would write without writing.
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode), when in diff mode.
    support: none
  action:
    description: Indicates this has a corresponding action plugin so some parts of the options can be executed on the controller.
    support: full
    details: >-
      O(action=lines) is computed on the controller (it reads nothing from the host), and so is O(action=validation)
      when this run's earlier validation answers; every other action runs on the host.
options:
  action:
    description: What to do.
    type: str
    required: true
    choices: [lines, plan, secrets, finish, smoke_args, status, links, validation]
  mode:
    description: Deploy the instance's spec, or roll back to a release on the host (C(settings.rollback_to)).
    type: str
    choices: [deploy, rollback]
    default: deploy
  instance:
    description: One entry of C(server_instances) (C(name), C(spec), C(cuda_visible_devices), C(smoke)).
    type: dict
  instances:
    description: Entries of C(server_instances) (O(action=status), O(action=links)).
    type: list
    elements: dict
  validation:
    description: The validation of the instance's flags (argv, env, resolved, ok, validator, notes).
    type: dict
  program:
    description: Program words before the flags (O(action=lines)).
    type: list
    elements: str
  runtime_env:
    description:
      - The SGLang env's runtime environment (O(action=lines)), for example C(CUDA_HOME) and C(PATH) that let
        flashinfer's JIT find the env's nvcc (C(gpu_env_runtime_env)); the validated env wins over it.
    type: dict
    default: {}
  unit_settings:
    description:
      - The role settings the unit carries as they are (O(action=lines)) - C(user), C(group), C(config_dir),
        C(root), C(device_allow) - checked by the same rules as on the controller; one the unit cannot carry
        (a space, C(%) or control character in a path, a user name that is none) is refused.
    type: dict
    default: {}
  unit_text:
    description: The rendered unit (O(action=plan), O(mode=deploy)).
    type: str
  secrets:
    description: The instance's entry of C(server_secrets) (name to value). Never returned or logged.
    type: dict
  manage_secrets:
    description: Whether the deploy plan compares the EnvironmentFile with O(secrets) (a change restarts).
    type: bool
    default: true
  state:
    description: For O(action=secrets), write, put back or drop the kept previous file.
    type: str
    choices: [present, restored, kept]
    default: present
  settings:
    description:
      - The role's settings - C(root), C(config_dir), C(lock_hash), C(python), C(validator),
        C(validation_key), C(rollback_to), C(replaces_units), and C(smoke) (C(server_smoke_*) by key,
        plus C(expect_keys)); for O(action=validation) also C(gpus), C(capabilities) and C(validation_reuse).
    type: dict
    default: {}
  plan:
    description: The answer of O(action=plan) (O(action=finish)).
    type: dict
  status:
    description:
      - Outcome of the gate, written into the release record (O(action=finish)); none writes nothing.
      - C(staged) is written as the gate begins (before the restart), so that a gate that never finishes
        (a host lost during it) leaves a record that says so.
    type: str
    choices: [staged, active, failed]
  smoke:
    description: The smoke result of the release the plan started (O(action=finish)).
    type: dict
  rollback_smoke:
    description: The smoke result of the restored release, after a failed gate (O(action=finish)).
    type: dict
  error:
    description: Why the gate failed (O(action=finish)).
    type: str
  refused:
    description: Why the restart was refused before anything was touched (O(action=finish)).
    type: list
    elements: str
  timeout:
    description: Seconds per request (O(action=status)); C(/health) may take up to SGLang's own 20 s health check.
    type: float
    default: 25.0
  earlier:
    description: This run's validations, instance name to C(key) and C(validation) (O(action=validation)).
    type: dict
    default: {}
"""

EXAMPLES = r"""
- name: Plan of the main instance
  specdeploy.sglang.server_plan:
    action: plan
    instance: "{{ server_instances[0] }}"
    validation: "{{ validation }}"
    unit_text: "{{ unit_text }}"
    secrets: "{{ server_secrets.main | default({}) }}"
    settings: {root: /opt/specdeploy}
  register: plan

- name: Say it
  ansible.builtin.debug:
    msg: "{{ plan.plan.message }}"
"""

RETURN = r"""
exec_lines:
  description: ExecStart lines (O(action=lines)).
  returned: when action is lines
  type: list
  elements: str
env_lines:
  description: Environment= values (O(action=lines)).
  returned: when action is lines
  type: list
  elements: str
env:
  description: The unit's environment (O(action=lines)).
  returned: when action is lines
  type: dict
plan:
  description:
    - The plan - C(action), C(reasons), C(message), C(restart), C(release_id), C(previous_release_id),
      C(rel_dir), C(exists), C(unit), C(unit_path), C(unit_src), C(env_file), C(url), C(port), C(smoke),
      C(restore) (C(release_id), C(unit_src), C(url), C(smoke)) or null, C(replace), C(replace_missing),
      C(replace_idle), C(unit_edited), C(secrets_changed), C(record), C(refused), C(validation), C(result).
  returned: when action is plan
  type: dict
result:
  description: The instance's C(server_results) entry (O(action=finish)).
  returned: when action is finish
  type: dict
replaced_units:
  description: The replaced units with whether each was put back (O(action=finish), a failed first release).
  returned: when action is finish
  type: list
  elements: dict
links:
  description: Per instance C(current), C(previous) and C(record) (the current release's record) (O(action=links)).
  returned: when action is links
  type: dict
models:
  description: Model directories the current release records (and the rollback targets) load (O(action=links)).
  returned: when action is links
  type: list
  elements: str
rollback:
  description: C(targets), C(problems), C(releases) and C(models) of a rollback to C(settings.rollback_to) (O(action=links)).
  returned: when action is links and settings.rollback_to is set
  type: dict
key:
  description: The validation cache key of O(instance) (O(action=validation)).
  returned: when action is validation
  type: str
validation:
  description: The validation to take (this run's, or the running release's), or null (O(action=validation)).
  returned: when action is validation
  type: dict
source:
  description: Where C(validation) comes from - C(this run), C(the running release), or null (O(action=validation)).
  returned: when action is validation
  type: str
previous_argv:
  description: The running release's argv, when its record was read (O(action=validation)).
  returned: when action is validation
  type: list
  elements: str
smoke_args:
  description: Arguments of C(specdeploy.sglang.smoke_decode) (O(action=smoke_args)).
  returned: when action is smoke_args
  type: dict
instances:
  description:
    - Per instance C(name), C(unit), C(url), C(unit_state), C(health), C(server_info) and C(metrics)
      (O(action=status)) - C(state) C(ok) with C(accept_length), C(tokens_per_s), C(running), C(queued),
      C(requests_total), C(errors_total), C(generation_tokens_total), C(verify_calls_total), C(names_from); C(off)
      (HTTP 404, started without C(--enable-metrics)), C(down) (no C(/health)), or C(error) with C(error); and
      C(current), C(previous), C(release), C(gate), C(pending), C(record_error) (see O(action=status) above).
  returned: when action is status
  type: list
  elements: dict
drift:
  description:
    - The host's drift (O(action=status)), C(kind) (C(process), C(unit) or C(outside)) and C(what) (one phrase
      naming the unit, process or file; environment differences by name only). Empty when there is none.
  returned: when action is status
  type: list
  elements: dict
"""

import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import drift
from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import metrics
from ansible_collections.specdeploy.sglang.plugins.module_utils import release as rel
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp
from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke


def _plan(p):
    settings = p["settings"] or {}
    observed = sp.observe(settings.get("root") or "/opt/specdeploy", p["instance"].get("name") or "",
                          replaces=settings.get("replaces_units") or [] if p["mode"] == "deploy" else [],
                          rollback_to=settings.get("rollback_to") or "",
                          config_dir=settings.get("config_dir") or "/etc/specdeploy")
    digest = None
    if p["mode"] == "deploy" and p["manage_secrets"]:
        digest = sp.sha256_text(sp.secrets_text(p["instance"].get("name"), p["secrets"]))
    return sp.plan(p["instance"], settings, observed, mode=p["mode"], validation=p["validation"],
                   unit_text=p["unit_text"], secrets_text_sha256=digest)


def _finish(module, p):
    plan = p["plan"]
    outcome = {"smoke": p["smoke"], "rollback_smoke": p["rollback_smoke"], "error": p["error"],
               "refused": p["refused"], "check_mode": module.check_mode}
    replaced = []
    if p["status"] == "failed" and not plan.get("restore") and plan.get("replace"):
        now = {r["unit"]: sp.systemctl_show(r["unit"]) for r in plan["replace"]}
        replaced, outcome["restored_lines"] = sp.restored_units(plan["replace"], now)
    elif plan.get("replace"):
        replaced = [dict(r, restored=False) for r in plan["replace"]]
    path = os.path.join(plan["rel_dir"], rr.NAME)
    changed = False
    if p["status"] and plan.get("rel_dir") and os.path.exists(path):
        record = sp.status_record(rr.load(path), sp.record_status(plan, p["status"], p["rollback_smoke"]),
                                  p["smoke"], p["rollback_smoke"], p["error"], replaced)
        rel.check_no_secrets(rel.canonical(record), p["secrets"])
        changed = rr.write(path, record, module.check_mode)
    return dict(changed=changed, result=sp.result(plan, outcome), replaced_units=replaced)


def _status(p):
    settings = p["settings"] or {}
    root = settings.get("root") or "/opt/specdeploy"
    out = []
    for inst in p["instances"] or []:
        name = inst.get("name") or ""
        try:
            record, record_error = rr.load(rr.path_of(root, instance=name)), None
        except rr.RecordError as exc:
            record, record_error = None, str(exc)
        spec = rr.spec(record) or inst.get("spec") or {}
        http = smoke.Http(common.base_url(spec), timeout=p["timeout"])
        row = {"name": name, "unit": common.unit_name(name), "url": common.base_url(spec),
               "unit_state": sp.systemctl_show(common.unit_name(name)), "health": None, "server_info": None,
               "release": rr.summary(record) if record else None, "record_error": record_error,
               "pending": rr.pending(record, inst.get("spec")) if not record_error else [],
               "gate": {"status": record.get("status"), "created": record.get("created"), "smoke": rr.smoke(record),
                        "memory_fit": (record.get("validation") or {}).get("memory_fit")} if record else {}}
        row.update(rel.links(root, name))
        row["not_gated"] = rel.not_gated(root, name)
        try:
            row["health"], _body = http.request("GET", "/health")
        except OSError as exc:
            row["health"], row["health_error"] = -1, str(getattr(exc, "reason", exc))
        if row["health"] == 200:
            try:
                _path, row["server_info"] = smoke.fetch_server_info(http)
            except (smoke.SmokeError, OSError) as exc:
                row["server_info_error"] = str(exc)
        # asked of every serving instance: a server started by hand with --enable-metrics shows its figures too
        row["metrics"] = metrics.probe(http, spec.get("sglang_version")) if row["health"] == 200 else {"state": "down"}
        out.append(row)
    return out


def main():
    module = AnsibleModule(
        argument_spec=sp.ARGUMENT_SPEC,
        required_if=sp.REQUIRED_IF,
        supports_check_mode=True,
    )
    inputs.check_options(module, {"timeout": "positive"})
    p = module.params
    try:
        if p["action"] in ("secrets", "smoke_args", "plan"):
            inputs.check_instance_name(p["instance"].get("name"), sp.PlanError)
        # an empty setting is an unset one (server_rollback_to: "" deploys)
        given = dict((k, v) for k, v in (p["settings"] or {}).items() if v not in ("", None))
        bad = inputs.option_problems(given, {"root": "path", "config_dir": "path", "rollback_to": "release_id",
                                                     "replaces_units": "service_unit"})
        if bad:
            raise sp.PlanError("settings.%s" % "; settings.".join(bad))
        if p["action"] == "status":
            for inst in p["instances"]:
                inputs.check_instance_name(inst.get("name"), sp.PlanError)
        if p["action"] == "finish":
            sp.check_plan(p["plan"])
        if p["action"] == "lines":
            lines = sp.unit_lines(p["program"], p["validation"], p["instance"], p["runtime_env"], p["unit_settings"])
            module.exit_json(changed=False, **lines)
        elif p["action"] == "plan":
            module.exit_json(changed=False, plan=_plan(p))
        elif p["action"] == "secrets":
            name = p["instance"].get("name") or ""
            path = common.env_file_path(name, (p["settings"] or {}).get("config_dir") or "/etc/specdeploy")
            if p["state"] == "present":
                changed = sp.write_secrets(path, sp.secrets_text(name, p["secrets"]), module.check_mode)
            elif p["state"] == "restored":
                changed = sp.restore_secrets(path, module.check_mode)
            else:
                changed = sp.drop_secrets_backup(path, module.check_mode)
            module.exit_json(changed=changed, path=path)
        elif p["action"] == "finish":
            module.exit_json(**_finish(module, p))
        elif p["action"] == "smoke_args":
            settings = p["settings"] or {}
            name = p["instance"].get("name") or ""
            record = rr.load(rr.path_of(settings.get("root") or "/opt/specdeploy", instance=name))
            spec = rr.spec(record) or p["instance"].get("spec") or {}
            resolved = rr.resolved(record)
            module.exit_json(changed=False, smoke_args=sp.smoke_args(
                spec, resolved, p["instance"].get("smoke"), settings.get("smoke"), common.unit_name(name)))
        elif p["action"] == "links":
            settings = p["settings"] or {}
            root = settings.get("root") or "/opt/specdeploy"
            names = [i.get("name") or "" for i in p["instances"] or []]
            found = rel.instance_links(root, names)
            out = dict(changed=False, links=found, models=rr.model_paths(v["record"] for v in found.values()))
            if settings.get("rollback_to"):
                out["rollback"] = rel.rollback_targets(root, found, settings["rollback_to"], bool(names))
            module.exit_json(**out)
        elif p["action"] == "validation":
            found = sp.earlier_validation(p["instance"], p["settings"], p["earlier"])
            module.exit_json(changed=False, **sp.recorded_validation(found, p["instance"], p["settings"]))
        else:
            settings = p["settings"] or {}
            found = drift.host_drift(settings.get("root") or "/opt/specdeploy",
                                     [i.get("name") or "" for i in p["instances"] or []],
                                     settings.get("replaces_units") or [],
                                     config_dir=settings.get("config_dir") or "/etc/specdeploy")
            module.exit_json(changed=False, instances=_status(p), drift=found)
    except (sp.PlanError, rel.ReleaseError, rr.RecordError, inputs.InputError) as exc:
        module.fail_json(msg="server_plan %s: %s" % (p["action"], exc))


if __name__ == "__main__":
    main()
