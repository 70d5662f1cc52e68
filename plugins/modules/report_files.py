#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
module: report_files
short_description: Write a run's report files (summaries) on the controller
description:
  - Runs as an action plugin on the controller; it does not connect to the host of the task.
  - Writes each of O(files) under O(dest_dir), each to a temporary file renamed over the old one (a reader
    never sees half a file). A file whose content is already the same is left as it is.
  - deploy.yml and rollback.yml use it to rewrite their summary after every host, so the summary is complete
    when a rollout stops at a host.
version_added: 0.1.0
author:
  - specdeploy.sglang contributors (@specdeploy)
options:
  dest_dir:
    description: Existing directory on the controller that receives the files.
    type: path
    required: true
  files:
    description: File name (a plain name, no directory part) to its text.
    type: dict
    required: true
  mode:
    description: Permissions of every file, an octal string such as V(0644).
    type: raw
    default: "0644"
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Writes the report in check mode too (a report of what the run would do); it changes no host.
  diff_mode:
    support: none
  action:
    description: Indicates this has a corresponding action plugin so some parts of the options can be executed on the controller.
    support: full
"""

EXAMPLES = r"""
- name: Write the summary on the controller
  specdeploy.sglang.report_files:
    dest_dir: /var/lib/specdeploy/reports
    files:
      deploy-summary.md: "{{ lookup('ansible.builtin.template', 'summary.md.j2') }}"
      deploy-summary.json: "{{ lookup('ansible.builtin.template', 'summary.json.j2') }}"
  run_once: true
"""

RETURN = r"""
paths:
  description: Every file of O(files), with its directory.
  returned: success
  type: list
  elements: str
written:
  description: The files whose content changed (the others already held the same text).
  returned: success
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs


def main():
    module = AnsibleModule(
        argument_spec=dict(
            dest_dir=dict(type="path", required=True),
            files=dict(type="dict", required=True),
            mode=dict(type="raw", default="0644"),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, inputs.ACTION_RULES["report_files"])
    module.fail_json(msg="report_files runs as an action plugin on the controller; this module file was run "
                         "directly, which has no controller to write to.")


if __name__ == "__main__":
    main()
