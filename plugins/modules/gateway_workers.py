#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: gateway_workers
short_description: List, drain and join the SGLang workers of a Shepherd Model Gateway (smg)
version_added: 0.1.0
description:
  - Talks to the admin API of a Shepherd Model Gateway (C(smg) 1.13.0) at O(url).
  - O(action=probe) checks that the gateway answers (its C(/readiness) and C(/workers)); it fails with
    a clear message when it does not.
  - O(action=list) returns the workers the gateway routes to with their health and, given O(hosts),
    which fleet instances it lacks (C(missing)) and which workers no inventory host owns (C(unknown)).
  - O(action=drain) removes the instances of O(hosts) from the gateway (it marks them C(draining), routes them no new
    request and lets the ones in flight finish) and waits, at most O(timeout) seconds, until each has
    left its registry. A worker the gateway does not know is already drained.
  - O(action=join) adds the instances of O(hosts) the gateway does not know and waits, at most O(timeout) seconds,
    until the gateway reports each healthy and ready.
author: specdeploy.sglang contributors (@specdeploy)
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying target.
    support: full
    details: In check mode O(action=drain) and O(action=join) only report what they would change.
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode), when in diff mode.
    support: none
options:
  action:
    description: What to do.
    type: str
    required: true
    choices: [probe, list, drain, join]
  url:
    description: Base URL of the gateway (its C(--host) and C(--port)).
    type: str
    required: true
  hosts:
    description:
      - The SGLang hosts concerned, by inventory name, C({instances, advertise}) each - C(instances) their
        C(server_instances), C(advertise) the address the gateway reaches them at when an instance listens
        on a wildcard address.
      - An instance's worker URL is C(http://<spec.host>:<spec.port>) (defaults C(127.0.0.1:30000), as the
        server role), with C(advertise) for a wildcard C(spec.host).
      - O(action=drain) and O(action=join) act on these instances; O(action=list) compares the gateway with them.
    type: dict
    default: {}
  timeout:
    description: Seconds O(action=drain) or O(action=join) may wait.
    type: float
    default: 120.0
  request_timeout:
    description: Seconds each admin API request may take.
    type: float
    default: 10.0
  api_key:
    description: Bearer key of the gateway's control plane (its C(--api-key) or an admin C(--control-plane-api-keys) key).
    type: str
"""

EXAMPLES = r"""
- name: Drain this host's instances from the gateway
  specdeploy.sglang.gateway_workers:
    action: drain
    url: http://127.0.0.1:8000
    hosts:
      gpu-01: {instances: "{{ server_instances }}", advertise: 10.0.0.5}
    timeout: 120

- name: Add them back and wait until the gateway reports them healthy
  specdeploy.sglang.gateway_workers:
    action: join
    url: http://127.0.0.1:8000
    hosts:
      gpu-01: {instances: "{{ server_instances }}", advertise: 10.0.0.5}
"""

RETURN = r"""
fleet:
  description: The instances of O(hosts), C({host, instance, url}) each.
  returned: always
  type: list
  elements: dict
workers:
  description: The gateway's workers, by URL, C({id, url, healthy, status, load}) each (C(load) is its requests in flight).
  returned: always
  type: dict
missing:
  description: Fleet instances (C({host, instance, url})) the gateway does not route to.
  returned: when action is list
  type: list
  elements: dict
unknown:
  description: Worker URLs the gateway routes to that no fleet instance owns.
  returned: when action is list
  type: list
  elements: str
drained:
  description: Per worker URL, C(registered) (it was in the registry), C(in_flight) (its requests then) and C(left_after_s).
  returned: when action is drain
  type: dict
joined:
  description: Per worker URL, C(added) (it was not registered) and C(healthy_after_s).
  returned: when action is join
  type: dict
readiness:
  description: The gateway's C(/readiness) status and body.
  returned: when action is probe
  type: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import gateway as gw


def main():
    module = AnsibleModule(
        argument_spec=dict(
            action=dict(type="str", required=True, choices=["probe", "list", "drain", "join"]),
            url=dict(type="str", required=True),
            hosts=dict(type="dict", default={}),
            timeout=dict(type="float", default=120.0),
            request_timeout=dict(type="float", default=10.0),
            api_key=dict(type="str", no_log=True),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"url": "url", "timeout": "positive", "request_timeout": "positive"})
    p = module.params
    gate = gw.Gateway(p["url"], timeout=p["request_timeout"], api_key=p["api_key"])
    try:
        fleet = gw.fleet_workers(p["hosts"])
        if p["action"] == "probe":
            readiness = gate.readiness()
            module.exit_json(changed=False, readiness=readiness, workers=gate.workers(), fleet=fleet)
        registered = gate.workers()
        if p["action"] == "list":
            diff = gw.registry_diff(fleet, registered)
            module.exit_json(changed=False, workers=registered, missing=diff["missing"], unknown=diff["unknown"],
                             fleet=fleet)
        urls = [gw.normalize_url(f["url"]) for f in fleet]
        if p["action"] == "drain":
            todo = [u for u in urls if u in registered]
            if module.check_mode or not todo:
                module.exit_json(changed=bool(todo), workers=registered, fleet=fleet,
                                 drained={u: {"registered": u in registered} for u in urls})
            drained = gate.drain(urls, p["timeout"])
            module.exit_json(changed=True, drained=drained, workers=gate.workers(), fleet=fleet)
        todo = [u for u in urls if not gw.is_ready(registered.get(u))]
        if module.check_mode:
            module.exit_json(changed=bool(todo), workers=registered, fleet=fleet,
                             joined={u: {"added": u in todo} for u in urls})
        joined = gate.join(urls, p["timeout"])
        module.exit_json(changed=any(j["added"] for j in joined.values()), joined=joined, workers=gate.workers(),
                         fleet=fleet)
    except (gw.GatewayError, inputs.InputError) as exc:
        module.fail_json(msg="gateway_workers %s: %s" % (p["action"], exc))


if __name__ == "__main__":
    main()
