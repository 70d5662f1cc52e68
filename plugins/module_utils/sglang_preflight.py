# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fleet preflight: validate every host's SGLang spec on the controller, without contacting hosts.

Input per host (inventory variables; see docs/interfaces.md):
  sglang_spec             the structured spec (one instance), or
  sglang_specs            {instance: spec} (several instances on one host)
  sglang_expected_gpus    GPU facts expected on the host (gpu_facts' list shape); omitted = GPU checks skipped
  sglang_capabilities     expected probe result (sglang_probe's `sglang`), needed for verify: tree
  sglang_target_config / sglang_draft_config   config.json mappings (or paths readable on the controller)
  sglang_allow_overrides  extra allowed overrides

Used by the sglang_preflight module (playbooks/preflight.yml) and tools/specdeploy-preflight.
stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_spec as spec

HOST_KEYS = ("sglang_spec", "sglang_specs", "sglang_expected_gpus", "sglang_capabilities",
             "sglang_target_config", "sglang_draft_config", "sglang_allow_overrides")


def instances_of(hostvars):
    if not isinstance(hostvars, dict):
        return None
    if hostvars.get("sglang_specs") is not None:
        specs = hostvars["sglang_specs"]
        return specs if isinstance(specs, dict) else {"?": specs}
    if hostvars.get("sglang_spec") is not None:
        return {"default": hostvars["sglang_spec"]}
    return None


def check_host(name, hostvars, read_paths=False):
    """{instance: result dict (ok, errors, notes, argv, resolved, overrides)} for one host."""
    out = {}
    instances = instances_of(hostvars)
    if instances is None:
        return None
    gpus = hostvars.get("sglang_expected_gpus")
    for inst, sp in sorted(instances.items()):
        res = spec.validate(sp, gpus=gpus, capabilities=hostvars.get("sglang_capabilities"),
                            target_config=hostvars.get("sglang_target_config"),
                            draft_config=hostvars.get("sglang_draft_config"),
                            allow_overrides=hostvars.get("sglang_allow_overrides") or (), read_paths=read_paths)
        d = res.as_dict()
        out[str(inst)] = {k: d[k] for k in ("ok", "errors", "notes", "argv", "resolved", "overrides", "tree_verify")}
    return out


def check_fleet(hosts, read_paths=False):
    """hosts: {name: hostvars}. Returns {verdicts, failed_hosts, skipped_hosts, lines, ok}."""
    verdicts, failed, skipped = {}, [], []
    if not isinstance(hosts, dict):
        raise TypeError("hosts must map host names to their variables, got %s" % type(hosts).__name__)
    for name in sorted(hosts):
        try:
            v = check_host(name, hosts[name], read_paths)
        except Exception as e:  # one host's broken data must not hide the others' verdicts
            v = {"default": {"ok": False, "errors": [{"code": "PREFLIGHT_ERROR", "message": "%s: %s" % (
                type(e).__name__, e), "field": None, "stage": "input"}], "notes": [], "argv": [], "resolved": {},
                "overrides": [], "tree_verify": None}}
        if v is None:
            skipped.append(name)
            continue
        verdicts[name] = v
        if not all(i["ok"] for i in v.values()):
            failed.append(name)
    return {"verdicts": verdicts, "failed_hosts": failed, "skipped_hosts": skipped, "ok": not failed,
            "lines": format_lines(verdicts, skipped)}


def format_lines(verdicts, skipped=()):
    lines = []
    for host in sorted(verdicts):
        for inst, v in sorted(verdicts[host].items()):
            label = host if inst == "default" else "%s/%s" % (host, inst)
            if v["ok"]:
                r = v.get("resolved") or {}
                algo = r.get("speculative_algorithm") or "no speculation"
                extra = ""
                if r.get("speculative_algorithm"):
                    extra = " draft_tokens=%s topk=%s" % (
                        r.get("speculative_num_draft_tokens"), r.get("speculative_eagle_topk"))
                tree = (" tree=%s" % v["tree_verify"]) if v.get("tree_verify") else ""
                lines.append("OK    %s: %s%s%s (%d notes)" % (label, algo, extra, tree, len(v["notes"])))
            else:
                errors = "; ".join("[%s] %s" % (e["code"], e["message"]) for e in v["errors"])
                lines.append("FAIL  %s: %s" % (label, errors))
    for host in skipped:
        lines.append("SKIP  %s: no sglang_spec / sglang_specs" % host)
    return lines
