#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
module: rollout
short_description: A host's state through a rollout (deploy.yml, rollback.yml) and the rollout's summary
description:
  - Runs as an action plugin on the controller; the decisions are in C(plugins/module_utils/rollout.py). The
    host's state is kept as its fact C(specdeploy_rollout) - C(converged), C(changes), C(links_before), C(links_after) (per instance
    C(current), C(previous) and C(record)), C(failed), C(error), C(rows) (its summary rows once recorded),
    C(now) (its current releases, one phrase), C(analysed) (the instances a canary analysis judges),
    C(unreachable), C(rollout) (it enters the rolling play), C(phase) (C(staged), C(gating), C(done)) and
    C(run_hosts).
  - O(step=before) starts the state from O(links), or from the host's release links read by
    C(specdeploy.sglang.server_plan) O(ignore:action=links) (through the release record module), with the model
    directories their records load (C(models_before)); it creates O(report_dir) on the controller. A host
    that O(check) found unreachable (the check task runs with C(ignore_unreachable)), or that this read cannot
    reach, gets the state C(unreachable) (its rows say C(unreachable before its round)) instead of failing.
  - >-
    O(step=gate) marks the start of the host's round (C(phase=gating): the server role may restart it from
    here on) and rewrites the summary files, so that a host lost from here on is reported
    C(lost during its gate: running release unknown) even when no host is left to write the summary.
  - O(step=failed) marks the host failed, with the message of O(phase) built from O(task) and O(result)
    (the failed task's name and result) - C(task), C(staging), C(rejoin) (a gateway rejoin; appended to an
    earlier failure), C(canary), C(rolled_back) (O(analysed) back to their releases before), C(rollback_failed).
  - >-
    O(step=after) takes the release after (O(links), the links before with O(keep_links), else read on the
    host), decides each instance's result - C(changed), C(restarted) (O(results), the server role's
    C(server_results)), C(unchanged), C(failed), C(failed, still on the release before) - and rewrites
    C(<report>-summary.md) and C(.json) under O(report_dir) with every host of the run, so the summary is
    complete when the rollout stops at a host. A host without rows is C(unreachable before its round) (never
    read, or gone from the play before its round), C(lost during its gate: running release unknown) (gone
    after O(step=gate)) or C(not reached) (still in the play: the rollout stopped before its batch).
  - O(step=summary) rewrites the summary files and returns the summary with C(counts) per result, the
    hosts that failed (C(failed_hosts)) and the hosts that were lost (C(lost)).
version_added: 0.4.0
author:
  - specdeploy.sglang contributors (@specdeploy)
options:
  step:
    description: What to do.
    type: str
    required: true
    choices: [before, gate, failed, after, summary]
  report:
    description: Which rollout, the name of the summary files.
    type: str
    choices: [deploy, rollback]
    default: deploy
  report_dir:
    description: Existing directory on the controller for the summary files (O(step=gate), O(step=after), O(step=summary)).
    type: path
  root:
    description: Where the host's releases are; default its C(server_root), else C(/opt/specdeploy).
    type: path
  instances:
    description: Names of the host's instances; default the names in its C(server_instances).
    type: list
    elements: str
  links:
    description: The release links, when the caller has read them (C(specdeploy.sglang.deploy_state) returns them).
    type: dict
  check:
    description:
      - The registered result of C(specdeploy.sglang.deploy_state) O(ignore:action=check) (O(step=before)) - its
        C(links), and whether the host is C(converged) (unchanged, done); C(changes) says what the run changes.
    type: dict
  keep_links:
    description:
      - O(step=after) takes the links before as the links after (nothing restarted); with O(step=failed) the host's
        rows are recorded too, with the links before (a host that failed before anything restarted).
    type: bool
    default: false
  results:
    description: The server role's C(server_results) of the host (O(step=after)).
    type: dict
    default: {}
  write:
    description: O(step=after) and O(step=gate) rewrite the summary files; false only records the host's state.
    type: bool
    default: true
  run_hosts:
    description: The hosts of the run, in order (O(step=before)); default the play's hosts.
    type: list
    elements: str
  phase:
    description: Where the host failed (O(step=failed)).
    type: str
    choices: [task, staging, rejoin, canary, rolled_back, rollback_failed]
    default: task
  task:
    description: Name of the task that failed (O(step=failed)).
    type: str
  result:
    description: Result of the task that failed (O(step=failed)); C(msg), and C(results) of a loop.
    type: dict
    default: {}
  analysed:
    description: The instances the canary analysis rolled back (O(phase=rolled_back)).
    type: list
    elements: str
    default: []
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Reads the host and writes the summary in check mode too (a report of what the run would do).
  diff_mode:
    support: none
  action:
    description: Indicates this has a corresponding action plugin so some parts of the options can be executed on the controller.
    support: full
"""

EXAMPLES = r"""
- name: Release before this run
  specdeploy.sglang.rollout:
    step: before

- name: Record this host in the summary
  specdeploy.sglang.rollout:
    step: after
    report_dir: /var/lib/specdeploy/reports
    results: "{{ server_results | default({}) }}"
"""

RETURN = r"""
specdeploy_rollout:
  description: The host's state (also set as its fact); see the description.
  returned: when step is not summary
  type: dict
summary:
  description: C(report), C(hosts) (the rows) and C(counts) (rows per result).
  returned: when step is summary
  type: dict
failed_hosts:
  description: The hosts of the run that failed, in order.
  returned: when step is summary
  type: list
  elements: str
lost:
  description:
    - One phrase, host and result, for each host of the run whose rows say it was lost (unreachable before its
      round, or lost during its gate), in order.
  returned: when step is summary
  type: list
  elements: str
paths:
  description: The summary files.
  returned: when step is summary
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils.rollout import ARGUMENT_SPEC


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC, supports_check_mode=True)
    module.fail_json(msg="rollout runs as an action plugin on the controller; this module file was run directly.")


if __name__ == "__main__":
    main()
