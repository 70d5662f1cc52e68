#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
module: await_job
short_description: Wait for an async job on the host and print its progress (bytes done, rate) at every poll
description:
  - Runs as an action plugin. Start the long step with C(async) and C(poll=0), then hand its job id to this
    action. At every poll it asks ansible-core's C(ansible.builtin.async_status) for the job's state and,
    with O(path), measures the bytes under O(path) with C(du -sb); it prints one line per poll, for example
    C(gpu-a1 - SGLang env install - 1.2 GiB, 35.1 MiB/s now, 30.2 MiB/s average, 40s elapsed).
  - The result is the job's own result (for a command C(rc), C(stdout), C(delta), ...) plus RV(progress),
    so a task registering it reads it like an C(async) task with C(poll) > 0. A failed job fails this task.
version_added: 0.1.0
author:
  - specdeploy.sglang contributors (@specdeploy)
options:
  jid:
    description: Job id of the async task (its registered C(ansible_job_id)).
    type: str
    required: true
  label:
    description: What the job does, at the start of each progress line.
    type: str
    default: job
  path:
    description: Directory (or file) on the host whose size is the job's progress, for example the venv being
      installed or the staging directory of a download. Without it the lines show the time only.
    type: str
  total_bytes:
    description: Size of the finished result, when known; the lines then show the share done and the time left.
    type: int
  poll:
    description: Seconds between polls.
    type: int
    default: 10
  timeout:
    description: Seconds to wait in all; then this task fails (the job itself ends at its own C(async) limit).
    type: int
    default: 3600
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Only reads; in check mode the async task it waits for is usually skipped, so skip this one with it.
  diff_mode:
    support: none
  action:
    description: Indicates this has a corresponding action plugin so some parts of the options can be executed on the controller.
    support: full
"""

EXAMPLES = r"""
- name: Install the locked stack (started in the background)
  ansible.builtin.command:
    argv: [/opt/envs/abc/bin/python, -m, pip, install, --require-hashes, -r, /opt/envs/abc/specdeploy.lock]
  async: 3600
  poll: 0
  register: install_job
  changed_when: true

- name: Wait for the install, with progress
  specdeploy.sglang.await_job:
    jid: "{{ install_job.ansible_job_id }}"
    label: SGLang env install
    path: /opt/envs/abc
    poll: 10
    timeout: 3600
  register: install
  when: install_job.ansible_job_id is defined
"""

RETURN = r"""
progress:
  description: The last measurement.
  returned: always
  type: dict
  contains:
    polls:
      description: Polls made.
      type: int
    bytes:
      description: Bytes under O(path) at the end (null without O(path)).
      type: int
    seconds:
      description: Seconds waited.
      type: float
    bytes_per_s:
      description: Average rate (null without O(path)).
      type: float
    total_bytes:
      description: O(total_bytes) as given (null when unknown).
      type: int
rc:
  description: Exit status of the job, for a command.
  returned: when the job is a command
  type: int
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs


def main():
    module = AnsibleModule(
        argument_spec=dict(
            jid=dict(type="str", required=True),
            label=dict(type="str", default="job"),
            path=dict(type="str"),
            total_bytes=dict(type="int"),
            poll=dict(type="int", default=10),
            timeout=dict(type="int", default=3600),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, inputs.ACTION_RULES["await_job"])
    module.fail_json(msg="await_job runs as an action plugin on the controller (it polls the job from there); "
                         "this module file was run directly, which cannot wait for a job.")


if __name__ == "__main__":
    main()
