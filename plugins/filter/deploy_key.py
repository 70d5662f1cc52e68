# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: deploy_key
short_description: Hash of what a deploy of one host depends on (its role variables and this collection)
version_added: 0.1.0
description:
  - Hashes (sha256) the host's variables named C(gpu_env_*), C(weights_*), C(server_*) and C(sglang_*)
    (templated, so a value taken from a file or an environment variable counts by its value) together
    with the content of this collection's C(roles/), C(plugins/) and C(playbooks/) (so an upgrade of the
    collection changes the key).
  - O(desired) adds what the roles will compute from files the variables only name - the env key of the
    lock's content (the P(specdeploy.sglang.env_key#filter) filter, as the gpu_env role names its env dir) -
    so a lock edited in place changes the key even though C(gpu_env_lock_file) does not.
  - deploy.yml compares it with the key the host recorded after its last deploy that passed
    (M(specdeploy.sglang.deploy_state)). No value is kept; only the hash leaves the controller.
positional: _input
options:
  _input:
    description: The host's variables, usually C(hostvars[inventory_hostname]).
    type: dict
    required: true
  prefixes:
    description: Names of the variables that count start with one of these.
    type: list
    elements: str
    default: [gpu_env_, weights_, server_, sglang_]
  desired:
    description: Desired state derived from content (deploy.yml gives C(env_key)); hashed with the variables.
    type: dict
    default: {}
"""

EXAMPLES = r"""
- name: Key of this host's deploy
  ansible.builtin.debug:
    msg: "{{ hostvars[inventory_hostname] | specdeploy.sglang.deploy_key }}"
"""

RETURN = r"""
_value:
  description: The sha256 hex digest.
  type: str
"""

import os

from ansible.errors import AnsibleFilterError

from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import canonical, hasher, sha256_file, sha256_text

PREFIXES = ("gpu_env_", "weights_", "server_", "sglang_")
COLLECTION_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TREES = ("roles", "plugins", "playbooks")
_TREE_DIGEST = {}


def tree_digest(root=COLLECTION_ROOT, trees=TREES):
    """sha256 over the relative paths and bytes of the files under root/<trees> (cached per process)."""
    if root in _TREE_DIGEST:
        return _TREE_DIGEST[root]
    digest = hasher()
    for tree in trees:
        for base, dirs, files in os.walk(os.path.join(root, tree)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(base, name)
                digest.update(os.path.relpath(path, root).encode("utf-8") + b"\0")
                digest.update(bytes.fromhex(sha256_file(path)))
    _TREE_DIGEST[root] = digest.hexdigest()
    return _TREE_DIGEST[root]


def _plain(value):
    """Templated variable values as plain JSON types."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def deploy_key(variables, prefixes=PREFIXES, desired=None):
    if not hasattr(variables, "keys"):
        raise AnsibleFilterError("deploy_key: expects the host's variables (hostvars[inventory_hostname]), got %s"
                                 % type(variables).__name__)
    chosen = {}
    for name in sorted(str(k) for k in variables.keys()):
        if name.startswith(tuple(prefixes)):
            try:
                chosen[name] = _plain(variables[name])
            except Exception as exc:  # an undefined or broken variable: its raw text still counts
                chosen[name] = "<not templated: %s>" % type(exc).__name__
    return sha256_text(canonical({"variables": chosen, "collection": tree_digest(), "desired": _plain(desired or {})}))


class FilterModule(object):
    def filters(self):
        return {"deploy_key": deploy_key}
