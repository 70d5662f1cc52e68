# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fleet preflight: every instance of every host validated on the controller, without contacting a host.

The one code path behind specdeploy preflight, the sglang_preflight action (``group:``) and
playbooks/preflight.yml (so deploy.yml's first play). Input per host: the inventory variables the
roles read (docs/interfaces.md), templated as a play sees them:

  server_instances        [{name, spec, cuda_visible_devices, smoke}] - the server role's own input
  sglang_expected_gpus    GPU facts declared for the host (gpu_facts' list shape); omitted = GPU checks skipped.
                          An instance with cuda_visible_devices is checked against those GPUs only.
  sglang_capabilities     expected probe result (sglang_probe's `sglang`), needed for verify: tree
  sglang_target_config / sglang_draft_config   config.json mappings (or paths readable on the controller)
  sglang_allow_overrides  extra allowed overrides

`sglang_spec` / `sglang_specs` (the preflight's own names before server_instances) are no longer read:
a host that still sets them fails, saying so.

Authority mode (opt-in): each distinct instance is also resolved by the real SGLang of its release on
the controller (sglang_flags_run's installed mode, through a cache keyed by the argv, env, configs
and kit), so the verdict is SGLang's own word. stdlib only.
"""
from __future__ import annotations

import json
import os
import threading

from ansible_collections.specdeploy.sglang.plugins.module_utils import preflight_host
from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import canonical, sha256_text
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as spec

HOST_KEYS = ("server_instances", "sglang_expected_gpus", "sglang_capabilities", "sglang_target_config",
             "sglang_draft_config", "sglang_allow_overrides")
# read only to fail a host that still uses them
REMOVED_KEYS = ("sglang_spec", "sglang_specs")
READ_KEYS = HOST_KEYS + REMOVED_KEYS + preflight_host.READ_KEYS
# notes of the engine the fleet treats as errors (playbook: specdeploy_preflight_fatal_notes)
DEFAULT_FATAL_NOTES = ("BLOCK_SIZE_MISMATCH",)


def argument_spec():
    """The sglang_preflight task's options: one spec for the action plugin that runs it on the
    controller and the module file that documents it."""
    return dict(
        hosts=dict(type="dict"),
        group=dict(type="str"),
        read_configs=dict(type="bool", default=False),
        fail_on_error=dict(type="bool", default=True),
        fatal_notes=dict(type="list", elements="str", default=list(DEFAULT_FATAL_NOTES)),
        authority=dict(type="bool", default=False),
        authority_pythons=dict(type="dict", default={}),
        authority_venvs=dict(type="path"),
        authority_cache=dict(type="path"),
    )


# exit codes of specdeploy preflight (and `rc` of the result)
EXIT_PASSED, EXIT_FAILED, EXIT_INPUT, EXIT_NOTHING_CHECKED = 0, 1, 2, 3
VERDICT_KEYS = ("ok", "errors", "notes", "argv", "resolved", "overrides", "tree_verify", "memory_fit")


def _err(code, message, field=None, stage="input"):
    return {"code": code, "message": message, "field": field, "stage": stage}


def _failed_verdict(*errors):
    return {"ok": False, "errors": list(errors), "notes": [], "argv": [], "resolved": {}, "overrides": [],
            "tree_verify": None, "memory_fit": None, "judged_by": "preflight"}


def instances_of(hostvars):
    """(instances [{name, spec, cuda_visible_devices, smoke}] or None when the host has none, host errors)."""
    if not isinstance(hostvars, dict):
        return None, [_err("PREFLIGHT_INPUT", "the host's variables are not a mapping")]
    insts = hostvars.get("server_instances")
    if not insts:
        old = [k for k in REMOVED_KEYS if hostvars.get(k) is not None]
        if old:
            return None, [_err("PREFLIGHT_INPUT", "%s is no longer read by the preflight (removed): give the host "
                               "server_instances [{name, spec, cuda_visible_devices}], the server role's input that "
                               "deploy.yml reads" % " and ".join(old), field=old[0])]
        return None, []
    if not isinstance(insts, list) or not all(isinstance(i, dict) for i in insts):
        return None, [_err("PREFLIGHT_INPUT", "server_instances must be a list of mappings {name, spec, "
                           "cuda_visible_devices, smoke}", field="server_instances")]
    errors, names, ports = [], {}, {}
    for n, inst in enumerate(insts):
        name = inst.get("name")
        if not isinstance(name, str) or not name:
            errors.append(_err("PREFLIGHT_INPUT", "server_instances[%d] has no name" % n, field="server_instances"))
            continue
        names.setdefault(name, 0)
        names[name] += 1
        sp = inst.get("spec")
        if not isinstance(sp, dict):
            errors.append(_err("PREFLIGHT_INPUT", "instance %s: spec must be a mapping (the structured spec), got %s"
                               % (name, type(sp).__name__), field="server_instances"))
            continue
        # the host's own check of an instance (name, version, port, GPUs, every string of the spec)
        found = inputs.instance_problems(inst)
        for field, message in found:
            errors.append(_err("PREFLIGHT_INPUT", message, field=field))
        if not any(f in ("spec.port", "name") for f, _m in found):
            ports.setdefault(str(server_common.listen_port(sp)), []).append(name)
    for name, count in sorted(names.items()):
        if count > 1:
            errors.append(_err("PREFLIGHT_INPUT", "instance name %s is used %d times (one unit sglang-%s.service "
                               "each)" % (name, count, name), field="server_instances"))
    for port, who in sorted(ports.items()):
        if len(who) > 1:
            errors.append(_err("PREFLIGHT_INPUT", "instances %s all listen on port %s" % (", ".join(who), port),
                               field="server_instances"))
    return insts, errors


def instance_gpus(gpus, cuda_visible_devices):
    """The declared GPUs an instance sees (CUDA_VISIBLE_DEVICES: indices or UUIDs), and an error or None."""
    if cuda_visible_devices is None or str(cuda_visible_devices).strip() == "" or not isinstance(gpus, list):
        return gpus, None
    wanted = [x.strip() for x in str(cuda_visible_devices).split(",") if x.strip()]
    known = {}
    for pos, g in enumerate(gpus):
        if isinstance(g, dict):
            known[str(g.get("index", pos))] = g
            if g.get("uuid"):
                known[str(g["uuid"])] = g
    missing = [w for w in wanted if w not in known]
    if missing:
        return gpus, _err("CUDA_VISIBLE_DEVICES", "cuda_visible_devices %s names GPU %s, which sglang_expected_gpus "
                          "does not declare (declared: %s)" % (cuda_visible_devices, ", ".join(missing), ", ".join(
                              sorted(k for k in known if not k.startswith("GPU-")))), field="cuda_visible_devices",
                          stage="hardware")
    return [known[w] for w in wanted], None


def _promote_fatal(v, fatal_notes):
    for n in v.get("notes") or []:
        if n.get("code") in fatal_notes:
            v["errors"].append(_err(n["code"], n["message"] + " (fatal by specdeploy_preflight_fatal_notes)",
                                    stage="policy"))
    v["ok"] = not v["errors"]
    return v


def check_instance(inst, hostvars, read_paths=False, authority=None):
    """The verdict of one instance: ok, errors, notes, argv, resolved, overrides, tree_verify, judged_by."""
    gpus, gpu_error = instance_gpus(hostvars.get("sglang_expected_gpus"), inst.get("cuda_visible_devices"))
    kw = dict(gpus=gpus, capabilities=hostvars.get("sglang_capabilities"),
              target_config=hostvars.get("sglang_target_config"), draft_config=hostvars.get("sglang_draft_config"),
              allow_overrides=list(hostvars.get("sglang_allow_overrides") or ()))
    d = spec.validate(inst["spec"], read_paths=read_paths, **kw).as_dict()
    v = {k: d[k] for k in VERDICT_KEYS}
    v["judged_by"] = "static"
    if authority is not None and not any(e["stage"] == "input" for e in d["errors"]):
        v = authority.judge(inst["spec"], v, read_paths=read_paths, **kw)
    if gpu_error:
        v["errors"].append(gpu_error)
        v["ok"] = False
    return v


def check_fleet(hosts, read_paths=False, fatal_notes=DEFAULT_FATAL_NOTES, authority=None, group=None,
                deploy_checks=False, var_names=None, lock_dirs=()):
    """hosts: {name: hostvars (READ_KEYS)}. Returns the result of the preflight:

    ok, exit_code (EXIT_*), status (passed | failed | nothing checked), verdicts {host: {instance: verdict}},
    failed_hosts, hosts_without_instances, instances_checked, lines (one per instance), summary.

    deploy_checks: also check what deploy installs (preflight_host: the lock and each instance against it,
    the weights' commits, GPUs and units shared between instances, and, with var_names {host: [every
    variable name the host has]}, names with the collection's prefixes that nothing reads). The playbook
    and `specdeploy preflight` read a whole inventory and set it; a mapping given by hand (hosts=) does not.
    """
    if not isinstance(hosts, dict):
        raise TypeError("hosts must map host names to their variables, got %s" % type(hosts).__name__)
    fatal_notes = set(fatal_notes or ())
    verdicts, failed, without, specs, locks, lock_cache = {}, [], [], {}, {}, {}
    for name in sorted(hosts):
        hv = hosts[name]
        try:
            insts, host_errors = instances_of(hv)
            if host_errors:
                verdicts[name] = {"(host)": _failed_verdict(*host_errors)}
                failed.append(name)
                continue
            if insts is None:
                without.append(name)
                continue
            v = {}
            for inst in insts:
                v[inst["name"]] = (name, inst)
                specs[(name, inst["name"])] = inst.get("spec")
            if deploy_checks:
                errs = _deploy_errors(hv, insts, (var_names or {}).get(name), lock_dirs, lock_cache, locks, name)
                if errs:
                    v["(host)"] = _failed_verdict(*errs)
        except Exception as e:  # one host's broken data must not hide the others' verdicts
            v = {"(host)": _failed_verdict(_err("PREFLIGHT_ERROR", "%s: %s" % (type(e).__name__, e)))}
        verdicts[name] = v
        if "(host)" in v:
            failed.append(name)
    _judge_all(verdicts, hosts, read_paths, authority, fatal_notes)
    for (host, inst), sp in specs.items():
        verdict = verdicts.get(host, {}).get(inst)
        if isinstance(verdict, dict) and locks.get(host):
            errs = preflight_host.instance_lock_errors(locks[host], sp, verdict.get("tree_verify"))
            if errs:
                verdict["errors"].extend(errs)
                verdict["ok"] = False
    for name in sorted(verdicts):
        if name not in failed and not all(i["ok"] for i in verdicts[name].values()):
            failed.append(name)
    checked = sum(len([i for i in v if i != "(host)"]) for v in verdicts.values())
    where = ("group %s" % group) if group else "the inventory"
    if not hosts:
        status, rc = "nothing checked", EXIT_NOTHING_CHECKED
        summary = "nothing checked: %s has no hosts" % where
    elif checked == 0 and not failed:
        status, rc = "nothing checked", EXIT_NOTHING_CHECKED
        summary = "nothing checked: no host of %s has server_instances (%d host(s) without)" % (where, len(without))
    else:
        # a host of the group without instances, next to hosts that have some, is a mistake (deploy.yml
        # would serve nothing there)
        failed = sorted(set(failed) | set(without))
        status, rc = ("failed", EXIT_FAILED) if failed else ("passed", EXIT_PASSED)
        summary = "%d instance(s) on %d host(s) checked, %d host(s) failed: %s" % (
            checked, len([h for h in verdicts if [i for i in verdicts[h] if i != "(host)"]]), len(failed), status)
    if authority is not None:
        summary += " (authority: %s)" % authority.stats_text()
    return {"ok": rc == EXIT_PASSED, "exit_code": rc, "status": status, "verdicts": verdicts, "failed_hosts": failed,
            "hosts_without_instances": without, "instances_checked": checked,
            "lines": format_lines(verdicts, without, status), "summary": summary}


def _deploy_errors(hv, insts, names, lock_dirs, lock_cache, locks, host):
    """Host-wide errors of what deploy would install (preflight_host); the host's lock into locks[host]."""
    errs = []
    lock, lock_error = preflight_host.read_lock(hv.get("gpu_env_lock_file"), lock_dirs, lock_cache)
    locks[host] = lock
    if lock_error:
        errs.append(lock_error)
    errs += preflight_host.wheel_errors(hv.get("gpu_env_wheels"), lock, lock_dirs)
    errs += preflight_host.revision_errors(hv.get("weights_models"))
    errs += preflight_host.sharing_errors(insts, hv.get("server_replaces_units"))
    if names is not None:
        errs += preflight_host.unknown_variable_errors(names)
    return errs


def _judge_all(verdicts, hosts, read_paths, authority, fatal_notes):
    """Replace each (host, instance) job in verdicts by its verdict; in parallel with the authority (its
    time is SGLang processes; the cache makes an answer shared by every instance with the same key)."""
    jobs = [(h, i) for h in sorted(verdicts) for i, j in verdicts[h].items() if isinstance(j, tuple)]

    def one(job):
        host, name = job
        _h, inst = verdicts[host][name]
        try:
            return _promote_fatal(check_instance(inst, hosts[host], read_paths, authority), fatal_notes)
        except Exception as e:  # one instance's broken data must not hide the others' verdicts
            return _failed_verdict(_err("PREFLIGHT_ERROR", "%s: %s" % (type(e).__name__, e)))

    if authority is not None and len(jobs) > 1:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=authority.workers) as pool:
            results = list(pool.map(one, jobs))
    else:
        results = [one(j) for j in jobs]
    for (host, name), v in zip(jobs, results):
        verdicts[host][name] = v


def format_lines(verdicts, without=(), status=None, detail=True):
    """One OK/FAIL line per instance (and per host with host-wide errors); with detail, under an instance
    the SGLang flags it renders, one per line as its unit's ExecStart has them, and every note's text."""
    lines = []
    for host in sorted(verdicts):
        for inst, v in sorted(verdicts[host].items()):
            label = host if inst == "(host)" else "%s/%s" % (host, inst)
            by = "" if v.get("judged_by") in (None, "static", "preflight") else " [%s]" % v["judged_by"]
            notes = v.get("notes") or []
            if not by:  # what the static layer leaves to SGLang (the authority, the installed SGLang on the host)
                left = [n["message"].split(";", 1)[0] for n in notes
                        if n["code"] in ("JUDGED_BY_SGLANG", "NOT_IN_TABLES")]
                by = (" [%s]" % left[0]) if left else ""
            if v["ok"]:
                r = v.get("resolved") or {}
                algo = r.get("speculative_algorithm") or "no speculation"
                extra = ""
                if r.get("speculative_algorithm"):
                    extra = " draft_tokens=%s topk=%s" % (
                        r.get("speculative_num_draft_tokens"), r.get("speculative_eagle_topk"))
                tree = (" tree=%s" % v["tree_verify"]) if v.get("tree_verify") else ""
                fit = v.get("memory_fit") or {}
                if fit.get("kv_tokens"):
                    tree += " kv=%d tokens/GPU (weights %.1f GiB/GPU)" % (fit["kv_tokens"], fit["weights_bytes"] / 2.0 ** 30)
                lines.append("OK    %s: %s%s%s (%d notes)%s" % (label, algo, extra, tree, len(notes), by))
            else:
                errors = "; ".join("[%s] %s" % (e["code"], e["message"]) for e in v["errors"])
                lines.append("FAIL  %s: %s%s" % (label, errors, by))
            if detail and inst != "(host)":
                if v.get("argv"):
                    lines.append("      %s flags (as in its unit's ExecStart):" % server_common.unit_name(inst))
                    lines += ["        " + x for x in spec.unit_exec_lines(v["argv"])]
                lines += ["      note [%s] %s" % (n.get("code"), n.get("message")) for n in notes]
    verb = "SKIP" if status == "nothing checked" else "FAIL"
    for host in without:
        lines.append("%s  %s: no server_instances (each host of the group needs at least one instance with a spec)"
                     % (verb, host))
    return lines


# ----------------------------------------------------------------------------------------------
# Authority: the real SGLang of the release, on the controller
# ----------------------------------------------------------------------------------------------
# the directory of controller SGLang venvs, one per release (<dir>/<version>/bin/python), when the task does not
# name one (authority_venvs / specdeploy_authority_venvs); docs/sglang.md says how to build one from a lock
VENVS_ENV = "SPECDEPLOY_AUTHORITY_VENVS"


def default_venvs_dir():
    return os.environ.get(VENVS_ENV) or None


def default_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "specdeploy", "authority")


def oracle_error():
    from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_oracle as oracle

    return oracle.OracleError


def _cache_key(obj):
    """The cache key of a JSON value (the preflight's cache under cache_dir)."""
    return sha256_text(canonical(obj))


class Authority(object):
    """Resolve instance specs with the real SGLang of their release on the controller, cached.

    pythons: {sglang version: python} given by the operator (first choice); then
    <venvs_dir>/<version>/bin/python (venvs_dir: authority_venvs, else $SPECDEPLOY_AUTHORITY_VENVS). Nothing
    else: the collection never looks for an SGLang of its own. Answers are cached under cache_dir by a hash of
    (venv, argv, env, configs).
    """

    # CPU kits carry the lab shim (empty sgl_kernel/torchvision the CPU import path needs); the variable
    # is read by nothing else
    KIT_ENV = {"SPECDEPLOY_LAB_SHIM_MODULES": "sgl_kernel,torchvision"}

    def __init__(self, pythons=None, venvs_dir=None, cache_dir=None, timeout=600, use_cache=True, workers=None):
        self.pythons = {str(k): str(v) for k, v in (pythons or {}).items()}
        self.venvs_dir = venvs_dir or default_venvs_dir()
        self.cache_dir = cache_dir or default_cache_dir()
        self.timeout = timeout
        self.use_cache = use_cache
        self.memo = {}
        # SGLang processes at once (each imports SGLang: CPU-bound)
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._lock = threading.Lock()
        self._key_locks = {}
        self.resolutions = 0
        self.cache_hits = 0

    def stats_text(self):
        return "%d SGLang process(es) run, %d answer(s) from the cache %s" % (
            self.resolutions, self.cache_hits, self.cache_dir)

    def python_for(self, version):
        """(python, [candidates tried])."""
        version = str(version)
        cands = []
        if version in self.pythons:
            cands.append(self.pythons[version])
        if self.venvs_dir:
            cands.append(os.path.join(self.venvs_dir, version, "bin", "python"))
        for c in cands:
            if os.path.exists(c):
                # the venv's real directory (a checkout reached through a symlink is the same kit), not the
                # interpreter's (a venv's bin/python links to its base python)
                venv = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(c))))
                return os.path.join(venv, "bin", os.path.basename(c)), cands
        return None, cands

    def _config_dir(self, source):
        """A controller directory whose config.json is the declared config (SGLang reads the model dir)."""
        cfg = spec.load_config(source)
        if cfg is None:
            return None
        d = os.path.join(self.cache_dir, "configs", _cache_key(cfg)[:16])
        if not os.path.isfile(os.path.join(d, "config.json")):
            os.makedirs(d, exist_ok=True)
            tmp = os.path.join(d, "config.json.tmp%d.%d" % (os.getpid(), threading.get_ident()))
            with open(tmp, "w") as f:
                json.dump(cfg, f, indent=1, sort_keys=True)
            os.replace(tmp, os.path.join(d, "config.json"))
        return d

    def _kit_id(self, python):
        pyvenv = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(python))), "pyvenv.cfg")
        return [os.path.abspath(python), os.stat(pyvenv).st_mtime if os.path.exists(pyvenv) else None]

    def _cached(self, key, compute):
        """The cached answer under `key` (memo, then cache_dir/<key>.json), else compute() once per key."""
        path = os.path.join(self.cache_dir, key + ".json")
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:  # one SGLang process per key, however many instances share it
            hit = self.memo.get(key)
            if hit is None and self.use_cache and os.path.isfile(path):
                try:
                    with open(path) as f:
                        hit = json.load(f)
                except (OSError, ValueError):
                    hit = None
            if hit is not None:
                with self._lock:
                    self.cache_hits += 1
            else:
                hit = compute()
                with self._lock:
                    self.resolutions += 1
                if self.use_cache:
                    os.makedirs(self.cache_dir, exist_ok=True)
                    tmp = path + ".tmp%d.%d" % (os.getpid(), threading.get_ident())
                    with open(tmp, "w") as f:
                        json.dump(hit, f, sort_keys=True, default=str)
                    os.replace(tmp, path)
            self.memo[key] = hit
        return hit

    def kit_probe(self, python):
        """SGLang's probe of the kit (version, flags, tree-verify flavors), cached like the resolutions."""
        from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_oracle as oracle

        return self._cached(_cache_key({"kit": self._kit_id(python), "probe": True}),
                            lambda: {"probe": oracle.probe(python, timeout=self.timeout, extra_env=dict(self.KIT_ENV))})

    def _resolver(self, python, paths, holder):
        """oracle.probe_and_resolve's signature, with the host's model paths swapped for the declared
        configs' directories, and answers cached."""
        from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_oracle as oracle

        back = {v: k for k, v in paths.items()}
        kit_id = self._kit_id(python)

        def swap(argv):
            out, prev = [], None
            for a in argv:
                if prev in ("--model-path", "--speculative-draft-model-path") and a in paths:
                    a = paths[a]
                elif "=" in a and a.split("=", 1)[0] in ("--model-path", "--speculative-draft-model-path") and \
                        a.split("=", 1)[1] in paths:
                    a = "%s=%s" % (a.split("=", 1)[0], paths[a.split("=", 1)[1]])
                out.append(a)
                prev = a if a.startswith("--") else None
            return out

        def resolve(python_, argv, env=None, timeout=300, want_probe=True):
            argv = swap(argv)
            env = dict(self.KIT_ENV, **(env or {}))

            def compute():
                # always probe: the kit's version and tree-verify flavors are checked against the spec
                caps, answer = oracle.probe_and_resolve(python_, argv, env, timeout=self.timeout, want_probe=True)
                return {"probe": caps, "answer": answer}

            hit = self._cached(_cache_key({"kit": kit_id, "argv": argv, "env": env}), compute)
            answer = dict(hit["answer"])
            answer["resolved"] = {k: back.get(v, v) if isinstance(v, str) else v
                                  for k, v in (answer.get("resolved") or {}).items()}
            holder["probe"] = hit["probe"]
            return hit["probe"], answer

        return resolve

    def judge(self, sp, static, read_paths=False, gpus=None, capabilities=None, target_config=None,
              draft_config=None, allow_overrides=()):
        """The verdict of `sp` by its release's SGLang (same shape as the static one)."""
        from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_flags_run as flags_run

        version = str(sp.get("sglang_version"))
        python, tried = self.python_for(version)
        if python is None:
            return _failed_verdict(_err("ORACLE_UNAVAILABLE", "authority: no controller SGLang %s (tried %s); give "
                                        "a venv with that release: specdeploy_authority_pythons {%s: PATH} or "
                                        "specdeploy_authority_venvs DIR (DIR/%s/bin/python); docs/sglang.md, "
                                        "'Validation', says how to build one from a lock" % (
                                            version, ", ".join(tried) or "nothing: none given", version, version),
                                        field="sglang_version"))
        s = sp.get("speculative") if isinstance(sp.get("speculative"), dict) else {}
        missing = [n for n, given in (("sglang_target_config", target_config),
                                      ("sglang_draft_config", draft_config if s.get("algorithm") else True))
                   if given is None]
        if missing:
            return _failed_verdict(_err("AUTHORITY_NEEDS_CONFIG", "authority: SGLang reads the model configs to "
                                        "resolve; declare %s (config.json mapping or controller path)" %
                                        " and ".join(missing), field=missing[0]))
        try:
            paths = {}
            if sp.get("model_path"):
                paths[str(sp["model_path"])] = self._config_dir(target_config)
            if s.get("draft_model_path") and draft_config is not None:
                paths[str(s["draft_model_path"])] = self._config_dir(draft_config)
        except (spec.ConfigError, OSError) as e:
            return _failed_verdict(_err("CONFIG_UNREADABLE", "authority: %s" % e, field="sglang_target_config"))
        flavor = static.get("tree_verify")
        if flavor:
            try:
                kit = self.kit_probe(python)["probe"]
            except oracle_error() as e:
                return _failed_verdict(_err("ORACLE_UNAVAILABLE", "authority: cannot probe %s: %s" % (python, e),
                                            field="sglang_version"))
            if flavor not in (kit.get("tree_verify") or []):
                # the kit is a plain release: it cannot judge a tree-verify build's flags; say so, keep the
                # static verdict
                return dict(static, notes=list(static["notes"]) + [{
                    "code": "AUTHORITY_UNJUDGED", "message": "authority: %s (SGLang %s) has no tree-verify flavor %s, "
                    "so the static verdict stands; map %s to a controller python of that build to have SGLang judge "
                    "it" % (python, kit.get("version"), flavor, version)}], judged_by="static (kit lacks %s)" % flavor)
        holder = {}
        out = flags_run.run_flags({"spec": sp, "mode": "installed", "python": python, "timeout": self.timeout,
                                   "gpus": gpus, "capabilities": capabilities, "target_config": target_config,
                                   "draft_config": draft_config, "allow_overrides": list(allow_overrides or ()),
                                   "read_paths": read_paths}, resolver=self._resolver(python, paths, holder))
        if out.get("input_error"):
            return _failed_verdict(_err("PREFLIGHT_ERROR", out["input_error"]))
        probe = holder.get("probe") or {}
        v = {k: out[k] for k in VERDICT_KEYS}
        v["judged_by"] = "SGLang %s %s" % (probe.get("version") or version, python)
        if probe.get("version") and str(probe["version"]) != version:
            v["errors"].append(_err("VERSION_MISMATCH", "authority: %s has SGLang %s, the spec is for %s" % (
                python, probe["version"], version), field="sglang_version"))
            v["ok"] = False
        return v


def failure_message(out):
    """The one-line failure of a preflight result (the module's and the action's msg)."""
    if out["status"] == "nothing checked":
        return "preflight checked nothing (%s); this is not a pass" % out["summary"]
    brief = format_lines(out["verdicts"], out["hosts_without_instances"], out["status"], detail=False)
    return "preflight failed for %d host(s): %s" % (len(out["failed_hosts"]), " | ".join(
        line for line in brief if line.startswith("FAIL")))
