#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: gpu_facts
short_description: NVIDIA GPU, driver and CUDA facts from nvidia-smi, with requirement checks
version_added: 0.1.0
description:
  - Reads C(nvidia-smi) (the default table for driver and CUDA versions, C(--query-gpu) CSV for each GPU)
    and C(/proc/driver/nvidia/version) or C(modinfo nvidia) for the kernel module flavour.
  - A host without C(nvidia-smi) is reported as having no GPU (C(present=false) with a reason), not as an error.
  - Optionally checks the facts against requirements and fails with messages that say what to do.
author: specdeploy developers (@specdeploy)
options:
  require_gpu:
    description: Fail when no GPU is usable. False lets a lab host without a GPU pass (the result says so).
    type: bool
    default: true
  cuda_version:
    description: CUDA release the pinned stack is built for (e.g. C(13.0)); sets the minimum driver.
    type: str
  min_driver_version:
    description: Minimum driver version; overrides the one derived from O(cuda_version).
    type: str
  require_blackwell:
    description: Fail unless every GPU is Blackwell-class (compute capability 10.x, 11.x or 12.x).
    type: bool
    default: false
  min_gpus:
    description: Fail when the host has fewer GPUs than this.
    type: int
    default: 0
  require_open_module:
    description: Fail when the proprietary (not open) NVIDIA kernel module is in use.
    type: bool
    default: false
extends_documentation_fragment:
  - specdeploy.sglang._attributes
  - specdeploy.sglang._attributes.facts
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
"""

EXAMPLES = r"""
- name: GPU facts and requirements for the SGLang 0.5.23 CUDA 13 stack
  specdeploy.sglang.gpu_facts:
    cuda_version: "13.0"
    require_blackwell: true
    min_gpus: 1

- name: Lab host without a GPU
  specdeploy.sglang.gpu_facts:
    require_gpu: false
"""

RETURN = r"""
ansible_facts:
  description: Facts set on the host.
  returned: always
  type: dict
  contains:
    gpu_facts:
      description: What nvidia-smi reported.
      type: dict
      returned: always
      contains:
        present:
          description: At least one GPU is usable.
          type: bool
        nvidia_smi:
          description: nvidia-smi is installed.
          type: bool
        driver_version:
          description: NVIDIA driver version.
          type: str
        cuda_version:
          description: Highest CUDA version the driver supports (from the nvidia-smi header).
          type: str
        gpus:
          description: One entry per GPU (index, name, uuid, pci_bus_id, memory_total_mib, compute_cap,
            compute_cap_source, persistence_mode, mig_mode, blackwell, driver_version).
          type: list
          elements: dict
        kernel_module:
          description: loaded, open (true = open kernel modules), version, source.
          type: dict
        source:
          description: Which nvidia-smi output the GPU list came from.
          type: str
        reason:
          description: Why no GPU is present, when none is.
          type: str
problems:
  description: Requirement checks that failed, each with what to do (the task fails when not empty).
  returned: always
  type: list
  elements: str
msg:
  description: One-line summary for the play output.
  returned: always
  type: str
"""

import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu


def main():
    module = AnsibleModule(
        argument_spec=dict(
            require_gpu=dict(type="bool", default=True),
            cuda_version=dict(type="str"),
            min_driver_version=dict(type="str"),
            require_blackwell=dict(type="bool", default=False),
            min_gpus=dict(type="int", default=0),
            require_open_module=dict(type="bool", default=False),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"min_gpus": "size", "cuda_version": "text", "min_driver_version": "text"})
    p = module.params

    def run(argv):
        path = module.get_bin_path(argv[0], opt_dirs=["/usr/sbin", "/sbin", "/usr/bin"])
        if path is None:
            return None
        return module.run_command([path] + argv[1:], environ_update={"LC_ALL": "C"})

    def read_file(path):
        try:
            with open(path) as f:
                return f.read()
        except (IOError, OSError):
            return None

    try:
        facts = gpu.gather(run, read_file)
    except gpu.GpuParseError as e:
        module.fail_json(msg="Cannot read nvidia-smi output: %s. Run nvidia-smi on the host to see "
                             "what it prints; a driver/library mismatch usually needs a reboot." % e)
    try:
        problems = gpu.check_requirements(
            facts, require_gpu=p["require_gpu"], cuda_version=p["cuda_version"],
            min_driver_version=p["min_driver_version"], require_blackwell=p["require_blackwell"],
            min_gpus=p["min_gpus"], require_open_module=p["require_open_module"])
    except ValueError as e:
        module.fail_json(msg=str(e), ansible_facts={"gpu_facts": facts})

    if facts["present"]:
        msg = "%d GPU(s): %s; driver %s, CUDA %s" % (
            len(facts["gpus"]), ", ".join("%s (sm_%s)" % (g["name"], (g["compute_cap"] or "?").replace(".", ""))
                                          for g in facts["gpus"]),
            facts["driver_version"], facts["cuda_version"])
    elif not p["require_gpu"]:
        msg = "NO GPU on %s (%s): continuing because require_gpu is false (lab mode)." % (
            os.uname()[1], facts["reason"])
    else:
        msg = "no GPU: %s" % facts["reason"]
    result = dict(changed=False, ansible_facts={"gpu_facts": facts}, problems=problems, msg=msg)
    if problems:
        result["msg"] = "GPU requirements not met on this host: " + " | ".join(problems)
        module.fail_json(**result)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
