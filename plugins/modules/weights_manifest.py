#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: weights_manifest
short_description: Make a sha256 + size manifest of a model directory (to pin in the inventory)
version_added: 0.1.0
description:
  - Hashes every file under O(path) in parallel (dot directories such as C(.cache) are skipped).
  - Run it once on a trusted copy and pin the result in the inventory; the weights role uses it when
    a source has no hub metadata and none is pinned (and warns that it should be pinned).
  - Read-only.
author: specdeploy developers (@specdeploy)
options:
  path:
    description: Model directory.
    type: path
    required: true
  workers:
    description: Parallel hash workers; 0 = one per core.
    type: int
    default: 0
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
"""

EXAMPLES = r"""
- name: Manifest of a controller mirror directory
  specdeploy.sglang.weights_manifest:
    path: /srv/mirror/Qwen--Qwen3-8B
  delegate_to: localhost
  register: qwen_manifest
"""

RETURN = r"""
manifest:
  description: 'C({relative path: {sha256, size}}).'
  returned: success
  type: dict
total_bytes:
  description: Sum of the file sizes.
  returned: success
  type: int
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w


def main():
    module = AnsibleModule(
        argument_spec=dict(path=dict(type="path", required=True), workers=dict(type="int", default=0)),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"path": "path", "workers": "size"})
    try:
        man = w.make_manifest(module.params["path"], module.params["workers"] or None)
    except w.WeightsError as e:
        module.fail_json(msg=str(e))
    total = sum(e["size"] for e in man.values())
    module.exit_json(changed=False, manifest=man, total_bytes=total,
                     msg="%d files, %s" % (len(man), w.human(total)))


if __name__ == "__main__":
    main()
