#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: gpu_env_host
short_description: Is this host ready for an SGLang lock (glibc, Python with venv, disk, C++ compiler), and the env's runtime environment
version_added: 0.1.0
description:
  - O(action=check) reads the host (glibc version, the interpreter's version and its venv and ensurepip
    modules, free space on the filesystems the install writes to, a C++ compiler) and compares it with what
    the lock declares (O(lock), from the P(specdeploy.sglang.lock_info#filter) filter). It fails, before
    anything is installed, with one message per problem saying what was found, what is needed and what to do.
    A requirement the lock does not declare is not checked; the result's C(notes) say so.
  - O(action=runtime) finds the nvcc a CUDA lock brings in the env (C(site-packages/nvidia/cu13/bin/nvcc))
    and returns C(runtime_env), the unit environment (C(CUDA_HOME), C(PATH)) that lets flashinfer's JIT find it.
    It fails when the lock has flashinfer and a CUDA version but the env has no nvcc.
  - Only reads; the rules are in module_utils/gpu_env.py (docs/gpu-env-host.md).
author: specdeploy developers (@specdeploy)
options:
  action:
    description: What to do.
    type: str
    choices: [check, runtime]
    default: check
  lock:
    description:
      - The lock's C(header), C(packages), C(flashinfer) and C(driver) (the one driver rule), as the
        P(specdeploy.sglang.lock_info#filter) filter gives them.
    type: dict
    required: true
  python:
    description: Interpreter that will create the venv (O(action=check)).
    type: path
    default: /usr/bin/python3
  env_root:
    description: Directory of the envs (its filesystem receives the venv).
    type: path
    default: /opt/specdeploy/envs
  venv:
    description: The env's directory (O(action=runtime)).
    type: path
  offline:
    description: The install reads a local wheelhouse (no downloads, so no temporary or cache copies).
    type: bool
    default: false
  pip_cache:
    description: pip keeps a copy of each download in its cache (false when C(--no-cache-dir) is passed).
    type: bool
    default: true
  tmp_dir:
    description: pip's temporary directory; unset = the host's (C(TMPDIR), else C(/tmp)).
    type: path
  cache_dir:
    description: pip's cache directory; unset = C(PIP_CACHE_DIR), else C(~/.cache/pip) of the user that runs the install.
    type: path
  install_size_factor:
    description: Installed size / download size of the venv (measured 4.13 on the lab's SGLang 0.5.23 CPU stack).
    type: float
    default: 4.2
  reserve_bytes:
    description: Bytes to leave free on the env root's filesystem after the install.
    type: int
    default: 0
  check_disk:
    description: Check free disk space (false when the env is already built, so nothing will be written).
    type: bool
    default: true
attributes:
  check_mode:
    description: Can run in check_mode and return changed status prediction without modifying target.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: none
"""

EXAMPLES = r"""
- name: Is the host ready for this lock?
  specdeploy.sglang.gpu_env_host:
    lock: "{{ lookup('ansible.builtin.file', 'locks/sglang-0.5.23-cu13.lock') | specdeploy.sglang.lock_info }}"
    python: /usr/bin/python3.11

- name: Unit environment of the installed env
  specdeploy.sglang.gpu_env_host:
    action: runtime
    lock: "{{ lookup('ansible.builtin.file', 'locks/sglang-0.5.23-cu13.lock') | specdeploy.sglang.lock_info }}"
    venv: /opt/specdeploy/envs/0123456789abcdef0123
  register: env_runtime
"""

RETURN = r"""
found:
  description: What the host has (glibc, python version/venv/ensurepip, compiler, disks with need and free bytes).
  returned: action is check
  type: dict
problems:
  description: Why the host is not ready (empty when it is).
  returned: always
  type: list
  elements: str
notes:
  description: What was not checked and why, and what the JIT will use.
  returned: always
  type: list
  elements: str
nvcc:
  description: Path of the env's nvcc, or null.
  returned: action is runtime
  type: str
runtime_env:
  description: Environment for the server's unit (C(CUDA_HOME), C(PATH)); empty without an nvcc in the env.
  returned: action is runtime
  type: dict
msg:
  description: Summary.
  returned: always
  type: str
"""

import os
import tempfile

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu_env as ge


def main():
    module = AnsibleModule(
        argument_spec=dict(
            action=dict(type="str", choices=["check", "runtime"], default="check"),
            lock=dict(type="dict", required=True),
            python=dict(type="path", default="/usr/bin/python3"),
            env_root=dict(type="path", default="/opt/specdeploy/envs"),
            venv=dict(type="path"),
            offline=dict(type="bool", default=False),
            pip_cache=dict(type="bool", default=True),
            tmp_dir=dict(type="path"),
            cache_dir=dict(type="path"),
            install_size_factor=dict(type="float", default=ge.INSTALL_SIZE_FACTOR),
            reserve_bytes=dict(type="int", default=0),
            check_disk=dict(type="bool", default=True),
        ),
        required_if=[("action", "runtime", ["venv"])],
        supports_check_mode=True,
    )
    inputs.check_options(module, {"python": "path", "env_root": "path", "venv": "path", "tmp_dir": "path",
                                  "cache_dir": "path", "install_size_factor": "positive", "reserve_bytes": "size"})
    p = module.params
    lock = p["lock"]
    bad_lock = ge.lock_problems(lock)
    if bad_lock:
        module.fail_json(msg="gpu_env_host: %s: regenerate the lock (`specdeploy lock cuda`, docs/locks.md)" % "; ".join(bad_lock))

    if p["action"] == "runtime":
        nvcc = ge.find_nvcc(p["venv"])
        problems = []
        cuda = (lock.get("driver") or {}).get("cuda")
        built = os.path.exists(os.path.join(p["venv"], ge.ENV_MARKER))
        if lock.get("flashinfer") and cuda and not nvcc and built:
            problems.append(
                "the lock has flashinfer (it JIT-compiles its kernels at first start) and CUDA %s, but the env %s "
                "has no nvcc (looked for %s). Regenerate the lock with the CUDA compiler wheels "
                "(nvidia-cuda-nvcc; the SGLang 0.5.23 CUDA stack brings it through humming-kernels)."
                % (cuda, p["venv"], ", ".join(ge.NVCC_GLOBS)))
        env = ge.runtime_env(p["venv"], nvcc)
        msg = ("unit environment: CUDA_HOME=%s (nvcc %s)" % (env["CUDA_HOME"], nvcc) if env
               else "no nvcc in %s%s: the unit gets no CUDA_HOME" % (p["venv"], "" if built else " (not built yet)"))
        if problems:
            module.fail_json(msg=" | ".join(problems), problems=problems, notes=[], nvcc=nvcc, runtime_env=env)
        module.exit_json(changed=False, problems=[], notes=[], nvcc=nvcc, runtime_env=env, msg=msg)

    header = lock["header"]
    driver = lock.get("driver") or {}
    found = {"glibc": ge.glibc_version(), "interpreter": p["python"], "python": ge.probe_python(p["python"]),
             "compiler": ge.find_compiler()}
    disks = None
    raw = header.get("download_bytes")
    if not p["check_disk"]:
        pass
    elif raw not in (None, "", "none"):
        try:
            download = int(raw)
            if download < 0:
                raise ValueError(raw)
        except (TypeError, ValueError):
            module.fail_json(msg="the lock's download_bytes=%r is not a number of bytes: regenerate the lock" % raw)
        tmp_dir = p["tmp_dir"] or os.environ.get("TMPDIR") or tempfile.gettempdir()
        cache_dir = p["cache_dir"] or os.environ.get("PIP_CACHE_DIR") or os.path.join(
            os.environ.get("HOME") or "/root", ".cache", "pip")
        try:
            disks = ge.disk_needs(download, p["env_root"], tmp_dir, cache_dir, factor=p["install_size_factor"],
                                  reserve=p["reserve_bytes"], offline=p["offline"], cache=p["pip_cache"])
        except OSError as exc:
            module.fail_json(msg="cannot read free disk space: %s" % exc)
    found["disks"] = disks
    problems, notes = ge.check_host(lock, found, disks, driver)
    if not p["check_disk"]:
        notes = [n.replace("download_bytes", "download_bytes (the env is built: no disk needed)") for n in notes]
    py = found["python"]
    msg = "host ready for the lock: glibc %s, Python %s with venv, %s" % (
        found["glibc"] or "?", py.get("version", "?"),
        "; ".join("%s free on %s (needs %s)" % (ge._gib(d["free"]), d["path"], ge._gib(d["need"])) for d in disks)
        if disks else "disk not checked (%s)" % (
            "download_bytes not declared" if p["check_disk"] else "the env is built already"))
    if problems:
        module.fail_json(msg="This host is not ready for the lock; nothing was installed. " + " | ".join(problems),
                         problems=problems, notes=notes, found=found)
    module.exit_json(changed=False, found=found, problems=[], notes=notes, msg=msg)


if __name__ == "__main__":
    main()
