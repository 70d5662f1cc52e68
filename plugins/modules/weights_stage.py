#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: weights_stage
short_description: Stage model weights against a sha256 manifest and publish them read-only
version_added: 0.1.0
description:
  - C(action=plan) checks what staging would do and refuses when the disk is too small, before any byte moves.
  - C(action=stage) copies the manifest's files from O(source_dir) (a mirror or mount on the host) into
    C(<models_root>/.staging/<org>--<name>@<commit>), several files in parallel, computing each file's
    sha256 while copying it (every byte is read once); an interrupted copy resumes, and the part kept from
    the earlier run is read back and hashed, so every byte is verified. A kept part whose file then does
    not match is copied again from scratch once. When every file matches the manifest and is on disk
    (synced), the directory is renamed to C(<models_root>/<org>--<name>@<commit>) read-only.
    Without O(source_dir) the files are expected in the staging directory already (hub download,
    controller copy) and are only verified, synced and published.
  - C(action=verify) checks a model directory that is already on the host (O(path)) and never changes it.
  - C(action=check) checks published copies (O(paths), or the copy of O(repo) at O(commit) under O(models_root))
    against the manifest each one recorded when it was published (names and sizes always, and with O(deep)
    the full sha256 of every file, all files hashed in parallel). Read-only. A mismatch fails naming the file
    and both hashes; the weights role and the playbooks run it before any restart that loads the copy.
  - C(action=restage) hashes the published copy of O(repo) at O(commit) under O(models_root) in full against
    its recorded manifest; when it does not match, its bad files and its record are removed and the directory
    is renamed back to its staging name, so the C(stage) that follows fetches the bad files again, verifies
    every file and publishes. A copy that matches is left alone. This is the repair of a damaged published
    copy (the weights role's C(weights_restage=true)).
  - A model already published with the same manifest is left alone (changed=false, zero bytes moved).
author: specdeploy developers (@specdeploy)
options:
  action:
    description: What to do.
    type: str
    choices: [plan, stage, verify, check, restage]
    default: stage
  repo:
    description: Model repository C(<org>/<name>). Required for plan, stage and restage.
    type: str
  commit:
    description: Commit id (or pinned revision label) the files belong to. Required for plan, stage and restage.
    type: str
  manifest:
    description:
      - 'C({relative path: sha256}) or C({relative path: {sha256, size}}) for every file.'
      - Required for plan, stage and verify; action=check reads the manifest each published copy recorded.
    type: dict
  models_root:
    description: Directory that holds published models.
    type: path
    default: /opt/specdeploy/models
  source_dir:
    description: Directory on the host to copy from (mirror or mount).
    type: path
  path:
    description: Model directory to verify (action=verify).
    type: path
  paths:
    description: Published model directories to check (action=check). Without it, O(repo) and O(commit) name one.
    type: list
    elements: path
  deep:
    description: Also hash every file in full (action=check); false checks names and sizes only.
    type: bool
    default: true
  missing_ok:
    description:
      - For action=check, a path that is not a published copy (no directory, or no recorded manifest) is
        reported with RV(published=false) instead of failing.
    type: bool
    default: false
  workers:
    description: Parallel copy and hash workers; 0 = two per core for action=stage (a copy waits on the disk), one per core for hashing alone.
    type: int
    default: 0
  reserve_bytes:
    description: Bytes that must stay free on the models filesystem after staging.
    type: int
    default: 0
  sizes:
    description: 'C({relative path: bytes}) filling sizes missing from O(manifest) (measured at the source).'
    type: dict
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
"""

EXAMPLES = r"""
- name: Refuse early when the disk is too small
  specdeploy.sglang.weights_stage:
    action: plan
    repo: Qwen/Qwen3-8B
    commit: 0123456789abcdef0123456789abcdef01234567
    manifest: "{{ qwen3_manifest }}"

- name: Stage from a mirror mounted on the host
  specdeploy.sglang.weights_stage:
    repo: Qwen/Qwen3-8B
    commit: 0123456789abcdef0123456789abcdef01234567
    manifest: "{{ qwen3_manifest }}"
    source_dir: /mnt/mirror/Qwen--Qwen3-8B

- name: Before a restart, every published file against its recorded manifest (full sha256, in parallel)
  specdeploy.sglang.weights_stage:
    action: check
    paths:
      - /opt/specdeploy/models/Qwen--Qwen3-8B@0123456789abcdef0123456789abcdef01234567
"""

RETURN = r"""
path:
  description: Published (or verified) model directory; for check with repo and commit, and restage, where it is published.
  returned: success
  type: str
bytes_copied:
  description: Bytes copied in this run (0 when the model was already published).
  returned: success
  type: int
files_copied:
  description: Files copied in this run.
  returned: success
  type: int
files_resumed:
  description: Files whose interrupted copy was continued.
  returned: success
  type: int
files_verified:
  description: Files whose sha256 was checked.
  returned: success
  type: int
plan:
  description: Staging plan (published, bytes_needed, files_needed, free_bytes, total_bytes, staging).
  returned: for plan and stage
  type: dict
published:
  description: Whether every checked path is a published copy (action=check).
  returned: for check
  type: bool
manifest:
  description: The manifest the copy of O(repo)@O(commit) recorded (action=check with repo and commit, when published).
  returned: for check
  type: dict
staging:
  description: Staging directory of O(repo)@O(commit) under O(models_root) (action=check with repo and commit, and restage).
  returned: for check and restage
  type: str
checked:
  description: 'What was checked: paths ({path: {published, files, bytes}}), files_checked, bytes_checked, deep, seconds, problems.'
  returned: for check
  type: dict
restaged:
  description: Whether the published copy was damaged and taken back into staging (action=restage).
  returned: for restage
  type: bool
problems:
  description: 'What did not match in the published copy (action=restage): [{path, file, problem, expected, actual}].'
  returned: for restage
  type: list
  elements: dict
bad_files:
  description: Files that failed verification or were missing.
  returned: failure
  type: list
  elements: str
msg:
  description: Summary with sizes, for the play output.
  returned: always
  type: str
"""

import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w


def check(module, p, workers):
    single = not p["paths"]
    if single and not p["commit"]:
        module.fail_json(msg="action=check needs paths, or repo and commit")
    paths = p["paths"] or [p["models_root"].rstrip("/") + "/" + w.model_dirname(p["repo"], p["commit"])]
    res = w.check_published(paths, deep=p["deep"], workers=workers, missing_ok=p["missing_ok"])
    published = all(i["published"] for i in res["paths"].values()) and bool(paths)
    extra = {}
    if single:
        name = w.model_dirname(p["repo"], p["commit"])
        extra = {"manifest": w.recorded_manifest(paths[0]) or {}, "path": paths[0],
                 "staging": os.path.join(p["models_root"], w.STAGING_DIR, name)}
    if res["problems"]:
        module.fail_json(msg="%s. Refused: nothing that loads them is restarted, the running server is untouched. "
                         "Repair: run the same playbook again with -e weights_restage=true (the weights role hashes "
                         "each published copy of weights_models, fetches the damaged files again from their source "
                         "and verifies every file before any restart)." % w.describe_published(res),
                         bad_files=[os.path.join(x["path"], x["file"]) for x in res["problems"]],
                         checked=res, published=published, **extra)
    shown = [x for x, i in res["paths"].items() if i["published"]]
    secs = max(res["seconds"], 0.001)
    msg = "%d published cop%s, %d file(s) / %s: %s match their manifests (%.2f s%s)" % (
        len(shown), "y" if len(shown) == 1 else "ies", res["files_checked"], w.human(res["bytes_checked"]),
        "sha256 and sizes" if p["deep"] else "names and sizes", secs,
        (", %.0f MiB/s" % (res["bytes_checked"] / 1048576.0 / secs)) if p["deep"] else "")
    if not shown:
        msg = "no published copy at %s" % ", ".join(paths)
    module.exit_json(changed=False, msg=msg, published=published, checked=res, **extra)


def restage(module, p, workers):
    try:
        res = w.restage(p["models_root"], p["repo"], p["commit"], workers=workers, check_mode=module.check_mode)
    except (IOError, OSError) as e:
        module.fail_json(msg="re-staging %s@%s failed on the host: %s" % (p["repo"], p["commit"], e))
    if res["restaged"]:
        msg = "%s: %s; %s. Taken back into staging: the stage that follows fetches them again and verifies every file" % (
            res["path"], "would re-stage" if module.check_mode else "re-staged",
            w.describe_published({"problems": res["problems"]}))
    elif os.path.isdir(res["path"]):
        msg = "%s: every file matches its recorded manifest (sha256), nothing to re-stage" % res["path"]
    else:
        msg = "%s: not published, nothing to re-stage" % res["path"]
    module.exit_json(changed=res["restaged"], msg=msg, **res)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            action=dict(type="str", choices=["plan", "stage", "verify", "check", "restage"], default="stage"),
            repo=dict(type="str"),
            commit=dict(type="str"),
            manifest=dict(type="dict"),
            paths=dict(type="list", elements="path"),
            deep=dict(type="bool", default=True),
            missing_ok=dict(type="bool", default=False),
            models_root=dict(type="path", default="/opt/specdeploy/models"),
            source_dir=dict(type="path"),
            path=dict(type="path"),
            workers=dict(type="int", default=0),
            reserve_bytes=dict(type="int", default=0),
            sizes=dict(type="dict"),
        ),
        required_if=[("action", "plan", ("repo", "commit", "manifest")),
                     ("action", "stage", ("repo", "commit", "manifest")),
                     ("action", "restage", ("repo", "commit")),
                     ("action", "verify", ("path", "manifest")), ("action", "check", ("paths", "repo"), True)],
        supports_check_mode=True,
    )
    inputs.check_options(module, {"repo": "text", "commit": "text", "paths": "path", "models_root": "path",
                                  "source_dir": "path", "path": "path", "workers": "size", "reserve_bytes": "size"})
    p = module.params
    workers = p["workers"] or None
    try:
        if p["action"] == "check":
            check(module, p, workers)
        if p["action"] == "restage":
            restage(module, p, workers)
        p["manifest"] = w.with_sizes(p["manifest"], p["sizes"])
    except w.WeightsError as e:
        module.fail_json(msg=str(e))
    try:
        if p["action"] == "verify":
            res = w.verify_in_place(p["path"], p["manifest"], workers)
            module.exit_json(msg="%s: %d files match the manifest" % (p["path"], res["files_verified"]), **res)
        if p["action"] == "plan":
            plan = w.plan(p["models_root"], p["repo"], p["commit"], p["manifest"], p["source_dir"])
            w.check_space(plan, p["reserve_bytes"])
            if plan["published"]:
                msg = "%s is published already (%s): nothing to move" % (plan["name"], w.human(plan["total_bytes"]))
            else:
                msg = "%s: %s in %d file(s) to move (of %s), %s free on the models filesystem" % (
                    plan["name"], w.human(plan["bytes_needed"]), plan["files_needed"], w.human(plan["total_bytes"]),
                    w.human(plan["free_bytes"]))
            module.exit_json(changed=False, msg=msg, path=plan["path"], plan=plan)
        res = w.stage(p["models_root"], p["repo"], p["commit"], p["manifest"], source_dir=p["source_dir"],
                      workers=workers, reserve_bytes=p["reserve_bytes"], check_mode=module.check_mode)
    except w.WeightsError as e:
        module.fail_json(msg=str(e), bad_files=e.files)
    except (IOError, OSError) as e:
        module.fail_json(msg="staging failed on the host: %s" % e)
    if not res["changed"]:
        res["msg"] = "%s: published and unchanged, 0 bytes moved" % res["name"]
    elif module.check_mode:
        res["msg"] = "%s: would move %s" % (res["name"], w.human(res["bytes_copied"]))
    else:
        secs = max(res.get("seconds", 0), 0.001)
        res["msg"] = "%s: moved %s in %d file(s) (%d resumed), verified %d file(s) / %s in %.1f s (%.0f MiB/s), published read-only" % (
            res["name"], w.human(res["bytes_copied"]), res["files_copied"], res["files_resumed"],
            res["files_verified"], w.human(res["total_bytes"]), secs, res["total_bytes"] / 1048576.0 / secs)
    module.exit_json(**res)


if __name__ == "__main__":
    main()
