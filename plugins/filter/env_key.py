# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: env_key
short_description: The key of the SGLang env a lock makes (sha256 of the lock's content)
version_added: 0.1.0
description:
  - sha256 hex of the lock's text (trailing whitespace stripped, as the file lookup reads it), with a marker
    added when the LAB-ONLY shim is installed too (that venv differs).
  - The gpu_env role names the env C(<gpu_env_root>/<first 20 hex>); deploy.yml's no-op fast path keys on
    the same value, so an edited lock is a new env for both.
positional: _input, lab_shim
options:
  _input:
    description: The lock's text.
    type: str
    required: true
  lab_shim:
    description: Whether the LAB-ONLY shim is added to the env (C(gpu_env_lab_shim)).
    type: bool
    default: false
"""

EXAMPLES = r"""
- name: Key of the env of a lock
  ansible.builtin.debug:
    msg: "{{ lookup('ansible.builtin.file', gpu_env_lock_file) | specdeploy.sglang.env_key(gpu_env_lab_shim) }}"
"""

RETURN = r"""
_value:
  description: The sha256 hex digest.
  type: str
"""

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.specdeploy.sglang.plugins.module_utils.gpu_env import env_key as _env_key


def env_key(lock_text, lab_shim=False):
    return _env_key(to_text(lock_text), bool(lab_shim))


class FilterModule(object):
    def filters(self):
        return {"env_key": env_key}
