# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: lock_info
short_description: What an SGLang lock declares (its specdeploy-lock header), pins, and the driver it needs
version_added: 0.1.0
description:
  - "Parses the lock's header lines, C(# specdeploy-lock: KEY=VALUE) (sglang, flavor, python, platform, glibc_min,
    cuda, driver_min, download_bytes, exclude_newer, generated_by), and its C(name==version) pins."
  - A key the lock does not declare is absent from C(header) and listed in C(undeclared); the gpu_env role then
    skips that check and says so.
  - C(driver) is the one driver rule - CUDA version from the lock (else O(cuda_version)), minimum driver the
    highest of NVIDIA's floor for it, the lock's C(driver_min) and O(min_driver_version) (docs/gpu-env-host.md).
positional: _input, cuda_version, min_driver_version
options:
  _input:
    description: The lock's text.
    type: str
    required: true
  cuda_version:
    description: CUDA version for a lock that declares none (C(gpu_env_cuda_version)).
    type: str
    default: ""
  min_driver_version:
    description: Operator's minimum driver (C(gpu_env_min_driver_version)); empty = none.
    type: str
    default: ""
"""

EXAMPLES = r"""
- name: What the lock needs
  ansible.builtin.debug:
    msg: "{{ lookup('ansible.builtin.file', gpu_env_lock_file) | specdeploy.sglang.lock_info(gpu_env_cuda_version) }}"
"""

RETURN = r"""
_value:
  description:
    - C(header) (dict), C(packages) (name -> version), C(flashinfer) (bool), C(undeclared) (list),
      C(driver) (C(cuda), C(min_driver), C(min_driver_source), C(notes)).
  type: dict
"""

from ansible.errors import AnsibleFilterError
from ansible.module_utils.common.text.converters import to_text

from ansible_collections.specdeploy.sglang.plugins.module_utils import gpu_env as ge


def lock_info(lock_text, cuda_version="", min_driver_version=""):
    try:
        return ge.lock_info(to_text(lock_text), to_text(cuda_version or ""), to_text(min_driver_version or ""))
    except ValueError as exc:
        raise AnsibleFilterError("lock_info: %s" % exc)


class FilterModule(object):
    def filters(self):
        return {"lock_info": lock_info}
