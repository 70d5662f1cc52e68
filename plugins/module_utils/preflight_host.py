# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The preflight's checks of what deploy will install and run on a host, beyond each instance's flags.

Called by sglang_preflight.check_fleet (so by the playbook, the action and `specdeploy preflight` alike):

- the lock (gpu_env_lock_file) exists and is well formed (lockfile.check_lock), its SGLang version
  is each instance's spec.sglang_version, and a `verify: tree` instance's tree-verify flavor is one the
  lock's build carries (the lock header's tree_verify);
- weights_models: a model from the hub is pinned to a full 40-hex commit (a branch, tag or short hash
  moves or is ambiguous); placeholders (the shipped example's) are recognised and refused, naming where
  the commit comes from;
- the instances of one host share no GPU and no port, and none has a unit server_replaces_units lists
  (the migration would stop and disable the new unit itself);
- every variable named with the collection's prefixes is one the collection reads (a typo such as
  server_replace_units or -e specdeploy_preflight_authorty=true is otherwise silently ignored), with
  a "did you mean".

The known variable names come from the collection's own files (role and playbook argument specs,
role defaults and vars, names its tasks register or set), read once per process.
stdlib and PyYAML (ansible-core's) only.
"""
from __future__ import annotations

import difflib
import glob
import os
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import lockfile
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common
from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import sha256_file

COLLECTION_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the prefixes of every variable the collection reads (roles gpu_env, weights, server, gateway; the
# preflight's declared facts; the playbooks' inputs)
PREFIXES = ("gpu_env_", "weights_", "server_", "gateway_", "sglang_", "specdeploy_")
# keys read here (sglang_preflight.READ_KEYS adds them)
READ_KEYS = ("gpu_env_lock_file", "gpu_env_wheels", "weights_models", "server_replaces_units")
FULL_COMMIT = re.compile(r"^[0-9a-f]{40}$")
PLACEHOLDER = re.compile(r"placeholder|replace|changeme|todo|xxx", re.I)
# the command line shipped in the collection (docs name it as installed: <collection>/bin/specdeploy)
CLI = "specdeploy"


def _err(code, message, field=None, stage="input"):
    return {"code": code, "message": message, "field": field, "stage": stage}


# ----------------------------------------------------------------------------------------------
# the lock
# ----------------------------------------------------------------------------------------------
def lock_path_candidates(name, base_dirs=()):
    """Where gpu_env_lock_file is read from, as the gpu_env role reads it (roles/gpu_env/vars/main.yml):
    a bare file name is a lock shipped in the role's files/; a path is used as it is (a relative one
    from the working directory, then from each of base_dirs)."""
    name = str(name)
    if "/" not in name:
        return [os.path.join(COLLECTION_ROOT, "roles", "gpu_env", "files", name)]
    if os.path.isabs(name):
        return [name]
    return [os.path.abspath(name)] + [os.path.join(d, name) for d in base_dirs if d]


def read_lock(name, base_dirs=(), cache=None):
    """({path, header, text} or None, error or None) of gpu_env_lock_file."""
    if name is None or str(name).strip() == "":
        return None, _err("LOCK_MISSING", "gpu_env_lock_file is not set: name the lock of the SGLang stack the hosts "
                          "install (shipped: sglang-0.5.23-cu13.lock; another release or a build of a pull request: "
                          "`%s lock cuda <version>`, docs/locks.md)" % CLI, field="gpu_env_lock_file")
    key = (str(name), tuple(base_dirs))
    if cache is not None and key in cache:
        return cache[key]
    tried = lock_path_candidates(name, base_dirs)
    path = next((p for p in tried if os.path.isfile(p)), None)
    if path is None:
        shipped = sorted(os.path.basename(p) for p in glob.glob(os.path.join(
            COLLECTION_ROOT, "roles", "gpu_env", "files", "sglang-*.lock")))
        out = None, _err("LOCK_MISSING", "gpu_env_lock_file %s: no such file (looked at %s). A bare name is a lock "
                         "shipped with the collection (%s); a path is read on the controller. Make one with `%s lock "
                         "cuda <version>` (docs/locks.md)" % (name, ", ".join(tried), ", ".join(shipped) or "none", CLI),
                         field="gpu_env_lock_file")
    else:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            problems = lockfile.check_lock(text)
        except (OSError, UnicodeDecodeError) as e:
            problems, text = ["cannot read it: %s" % e], ""
        if problems:
            out = None, _err("LOCK_INVALID", "gpu_env_lock_file %s is not a good lock: %s%s (`%s lock check %s`; "
                             "docs/locks.md)" % (path, "; ".join(problems[:3]), " (and %d more)" % (len(problems) - 3)
                                                 if len(problems) > 3 else "", CLI, path), field="gpu_env_lock_file")
        else:
            hashes = set(h for r in lockfile.parse_requirements(text) for h in r["hashes"])
            out = {"path": path, "name": str(name), "header": lockfile.parse_header(text), "hashes": hashes}, None
    if cache is not None:
        cache[key] = out
    return out


def _public(version):
    return str(version).split("+", 1)[0]


def instance_lock_errors(lock, spec, tree_flavor):
    """Errors of one instance against the lock its host installs."""
    errors = []
    if not lock or not isinstance(spec, dict):
        return errors
    header = lock["header"]
    want = spec.get("sglang_version")
    if want is not None and _public(want) != _public(header["sglang"]):
        errors.append(_err("LOCK_VERSION", "spec.sglang_version is %s, but the lock %s installs SGLang %s: the flags "
                           "would be rendered for one release and run by another. Make them equal (set sglang_version: "
                           "\"%s\", or lock %s: `%s lock cuda %s`)" % (
                               want, lock["name"], header["sglang"], _public(header["sglang"]), want, CLI, want),
                           field="sglang_version"))
    if tree_flavor and tree_flavor not in (header.get("tree_verify") or []):
        has = ", ".join(header.get("tree_verify") or []) or "no tree verification (a released SGLang)"
        errors.append(_err("LOCK_TREE_VERIFY", "verify: tree needs the tree-verify flavor %s (sglang_capabilities), but "
                           "the lock %s installs SGLang %s with %s: its hosts would run plain SGLang and fail at deploy. "
                           "Build SGLang from the source that has it (the pull request's commit) and lock that wheel: "
                           "`%s lock cuda <version>+<local> --sglang-source <tree or git+URL@commit>`, and ship the "
                           "wheel with gpu_env_wheels (docs/ddtree-migration.md)" % (
                               tree_flavor, lock["name"], header["sglang"], has, CLI), field="gpu_env_lock_file"))
    return errors


def wheel_errors(wheels, lock, base_dirs=()):
    """gpu_env_wheels: each a file on the controller whose sha256 the host's lock pins (else pip would
    refuse it on the host, after the copy)."""
    errors = []
    for w in wheels or []:
        path = next((p for p in ([str(w)] + [os.path.join(d, str(w)) for d in base_dirs if d]) if os.path.isfile(p)),
                    None)
        if path is None:
            errors.append(_err("WHEEL_MISSING", "gpu_env_wheels names %s, which is not a file on the controller" % w,
                               field="gpu_env_wheels"))
            continue
        if lock is None:
            continue
        sha = sha256_file(path)
        if sha not in lock["hashes"]:
            errors.append(_err("WHEEL_NOT_LOCKED", "gpu_env_wheels %s (sha256 %s) is not pinned by the lock %s: pip "
                               "would refuse it on the host. Lock this very file (`%s lock cuda <version> "
                               "--extra-wheel %s`) or ship the wheel the lock was made from" % (
                                   path, sha[:16], lock["name"], CLI, path), field="gpu_env_wheels"))
    return errors


# ----------------------------------------------------------------------------------------------
# weights revisions
# ----------------------------------------------------------------------------------------------
def _where_commit(repo):
    return ("the commit you reviewed: `git ls-remote https://huggingface.co/%s HEAD`, or the hub page "
            "https://huggingface.co/%s/commits/main" % (repo, repo))


def is_placeholder(value):
    v = str(value or "")
    return bool(PLACEHOLDER.search(v)) or (len(v) == 40 and len(set(v)) == 1)


def revision_errors(models):
    errors = []
    if not isinstance(models, dict):
        return errors
    for key in sorted(models):
        m = models[key]
        if not isinstance(m, dict):
            continue
        repo = m.get("repo") or "<repo>"
        field = "weights_models.%s" % key
        commit, revision = m.get("commit"), m.get("revision")
        for what, value in (("commit", commit), ("revision", revision)):
            if value is not None and is_placeholder(value):
                errors.append(_err("REVISION_PLACEHOLDER", "%s.%s is a placeholder (%s), not a commit of %s: replace "
                                   "it with %s" % (field, what, value, repo, _where_commit(repo)),
                                   field="%s.%s" % (field, what)))
                break
        else:
            if (m.get("source") or "hub") != "hub":
                continue
            if commit is None:
                errors.append(_err("REVISION_UNPINNED", "%s (hub) has no commit%s: a branch or tag moves, so two hosts "
                                   "(or two runs) could load different weights. Give commit: the full 40-hex commit, %s"
                                   % (field, " (revision %s)" % revision if revision else "", _where_commit(repo)),
                                   field="%s.commit" % field))
            elif not FULL_COMMIT.match(str(commit)):
                kind = "a short hash" if re.match(r"^[0-9a-f]{4,39}$", str(commit)) else "a branch or tag name"
                errors.append(_err("REVISION_NOT_COMMIT", "%s.commit %s looks like %s, not a full commit: give the "
                                   "40-hex commit (lower case), %s" % (field, commit, kind, _where_commit(repo)),
                                   field="%s.commit" % field))
    return errors


# ----------------------------------------------------------------------------------------------
# instances of one host: GPUs, ports, replaced units
# ----------------------------------------------------------------------------------------------
def _gpus(inst):
    cvd = inst.get("cuda_visible_devices")
    if cvd is None or str(cvd).strip() == "":
        return None
    return set(x.strip() for x in str(cvd).split(",") if x.strip())


def sharing_errors(insts, replaces):
    errors = []
    gpu_insts = [i for i in insts if isinstance(i.get("spec"), dict)
                 and str(i["spec"].get("device") or "cuda") != "cpu" and i.get("name")]
    if len(gpu_insts) > 1:
        for i in gpu_insts:
            if _gpus(i) is None:
                errors.append(_err("GPU_SHARED", "instance %s has no cuda_visible_devices, so it sees every GPU of the "
                                   "host next to %s: give each instance its own GPUs" % (i["name"], ", ".join(
                                       j["name"] for j in gpu_insts if j is not i)), field="cuda_visible_devices"))
        seen = {}
        for i in gpu_insts:
            for g in sorted(_gpus(i) or ()):
                if g in seen and seen[g] != i["name"]:
                    errors.append(_err("GPU_SHARED", "instances %s and %s both use GPU %s (cuda_visible_devices): two "
                                       "SGLang servers on one GPU each claim mem_fraction_static of it and one fails "
                                       "to start; give each its own GPUs" % (seen[g], i["name"], g),
                                       field="cuda_visible_devices"))
                seen.setdefault(g, i["name"])
    units = set(str(u) for u in (replaces or []) if u is not None)
    for i in insts:
        if i.get("name") and server_common.unit_name(i["name"]) in units:
            errors.append(_err("REPLACES_OWN_UNIT", "server_replaces_units lists %s, the unit of instance %s itself: the "
                               "migration would stop and disable the new service. List only the hand-made unit being "
                               "replaced, or rename the instance" % (server_common.unit_name(i["name"]), i["name"]),
                               field="server_replaces_units"))
    return errors


# ----------------------------------------------------------------------------------------------
# variable names
# ----------------------------------------------------------------------------------------------
_KNOWN = {}


def _yaml_files():
    pats = ["roles/*/meta/argument_specs.yml", "roles/*/defaults/*.yml", "roles/*/vars/*.yml",
            "roles/*/tasks/*.yml", "roles/*/handlers/*.yml", "playbooks/*.yml", "playbooks/meta/*.yml",
            "playbooks/tasks/*.yml", "playbooks/vars/*.yml"]
    out = []
    for pat in pats:
        out += sorted(glob.glob(os.path.join(COLLECTION_ROOT, pat)))
    return out


def _walk(node, out, where):
    if isinstance(node, dict):
        if where in ("defaults", "vars"):
            out.update(k for k in node if isinstance(k, str))
        if "argument_specs" in node and isinstance(node["argument_specs"], dict):
            for entry in node["argument_specs"].values():
                if isinstance(entry, dict) and isinstance(entry.get("options"), dict):
                    out.update(entry["options"])
        for k, v in node.items():
            if k == "register" and isinstance(v, str):
                out.add(v)
            elif k in ("ansible.builtin.set_fact", "set_fact", "ansible.builtin.set_stats", "vars") and isinstance(v, dict):
                out.update(x for x in (v.get("data") or v) if isinstance(x, str))
            elif k == "loop_control" and isinstance(v, dict) and v.get("loop_var"):
                out.add(v["loop_var"])
            _walk(v, out, None)
    elif isinstance(node, list):
        for x in node:
            _walk(x, out, None)


def known_variables():
    """Every variable name with the collection's prefixes that the collection itself reads or sets."""
    if "names" not in _KNOWN:
        import yaml

        from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_preflight as pf

        out = set(pf.READ_KEYS) | set(READ_KEYS)
        for path in _yaml_files():
            kind = os.path.basename(os.path.dirname(path))
            try:
                with open(path, encoding="utf-8") as f:
                    data = yaml.safe_load(f)
            except (OSError, yaml.YAMLError):
                continue
            _walk(data, out, kind if kind in ("defaults", "vars") else None)
        _KNOWN["names"] = frozenset(n for n in out if isinstance(n, str) and n.startswith(PREFIXES))
    return _KNOWN["names"]


def unknown_variable_errors(names, known=None):
    """An error per variable named with the collection's prefixes that the collection does not know."""
    known = known_variables() if known is None else known
    errors = []
    for name in sorted(set(n for n in names if isinstance(n, str))):
        if not name.startswith(PREFIXES) or name in known:
            continue
        prefix = next(p for p in PREFIXES if name.startswith(p))
        near = difflib.get_close_matches(name, sorted(known), 1, 0.75)
        hint = ("did you mean %s?" % near[0]) if near else ("the %s* names it reads are in docs/reference.md" % prefix)
        what = "playbook input" if prefix == "specdeploy_" else "variable"
        errors.append(_err("UNKNOWN_VARIABLE", "unknown %s %s (no role or playbook of specdeploy.sglang reads it, so it "
                           "would be ignored): %s" % (what, name, hint), field=name))
    return errors
