#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: canary_metrics
short_description: Judge a canary by SGLang's own metrics over a window of real traffic
version_added: 0.3.0
description:
  - Reads C(/metrics) (Prometheus text) of each of O(instances) at the address its current release listens on
    (no proxy), waits O(seconds) while the host serves its traffic, reads again, and compares the window with
    O(thresholds) - the generated tokens per second, the error rate (aborted requests, failed PD transfers and
    HTTP 5xx answers per request) and, for speculative instances, the accept length (generated tokens per verify
    pass where the release counts them, else SGLang's gauge). The decision is
    C(plugins/module_utils/metrics.py) C(canary()); docs/metrics.md lists the metric names per release.
  - A window with fewer than O(min_requests) requests fails (no traffic is no evidence), and so does an instance
    whose C(/metrics) cannot be read (its spec lacks C(enable_metrics), it is down, or it restarted in the window).
  - Fails the task, naming each failure, when any instance fails (O(fail_on_error=true)). Read-only.
author: specdeploy.sglang contributors (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Read-only; reads the metrics in check mode too.
  diff_mode:
    support: none
options:
  root:
    description: Base directory of the host layout (the server role's C(server_root)).
    type: path
    default: /opt/specdeploy
  instances:
    description: Names of the instances to judge (C(server_instances[].name)); each one's current release record gives its address and release.
    type: list
    elements: str
    required: true
  seconds:
    description: Length of the window, in seconds.
    type: float
    default: 300
  thresholds:
    description:
      - C(min_accept_length) (speculative instances only), C(min_tokens_per_s), C(max_error_rate) (0 to 1); an absent
        or null threshold is not checked.
    type: dict
    default: {}
  min_requests:
    description: Requests the window must hold to be judged.
    type: int
    default: 1
  fail_on_error:
    description: Fail the task when an instance fails the analysis.
    type: bool
    default: true
"""

EXAMPLES = r"""
- name: Canary analysis over five minutes of traffic
  specdeploy.sglang.canary_metrics:
    instances: "{{ server_instances | map(attribute='name') }}"
    seconds: 300
    thresholds:
      min_accept_length: 3.0
      min_tokens_per_s: 200
      max_error_rate: 0.01
"""

RETURN = r"""
passed:
  description: Whether every instance passed.
  returned: always
  type: bool
instances:
  description: Per instance C(passed), C(failures), C(window) (C(seconds), C(requests), C(errors), C(tokens), C(tokens_per_s),
    C(error_rate), C(accept_length), C(accept_length_from)) and C(thresholds).
  returned: always
  type: dict
failures:
  description: One phrase per failure, prefixed with the instance's name.
  returned: always
  type: list
  elements: str
"""


from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import metrics
from ansible_collections.specdeploy.sglang.plugins.module_utils import release_record as rr
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type="path", default="/opt/specdeploy"),
            instances=dict(type="list", elements="str", required=True),
            seconds=dict(type="float", default=300),
            thresholds=dict(type="dict", default={}),
            min_requests=dict(type="int", default=1),
            fail_on_error=dict(type="bool", default=True),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"root": "path", "instances": ("instance", "nonempty"), "seconds": "positive",
                                  "min_requests": "size"})
    p = module.params
    targets = []
    try:
        for name in p["instances"]:
            spec = rr.spec(rr.load(rr.path_of(p["root"], instance=name)))
            if not spec:
                module.fail_json(msg="canary_metrics: instance %s has no current release record under %s"
                                 % (name, p["root"]))
            targets.append({"name": name, "url": common.base_url(spec), "sglang_version": spec.get("sglang_version"),
                            "speculative": bool(spec.get("speculative"))})
        out = metrics.canary(targets, p["seconds"], p["thresholds"], p["min_requests"])
    except (metrics.MetricsError, inputs.InputError, rr.RecordError) as exc:
        module.fail_json(msg="canary_metrics: %s" % exc)
    if p["fail_on_error"] and not out["passed"]:
        module.fail_json(msg="canary analysis failed: %s" % "; ".join(out["failures"]), changed=False, **out)
    module.exit_json(changed=False, **out)


if __name__ == "__main__":
    main()
