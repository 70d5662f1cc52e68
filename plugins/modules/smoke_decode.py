#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: smoke_decode
short_description: Smoke-test a running SGLang server (readiness, config, deterministic decode, gates)
version_added: 0.1.0
description:
  - Waits until C(/health) answers 200 within O(timeout); HTTP 503 and refused connections while the
    server loads are normal. With O(service), stops early when the systemd unit failed or restarted.
  - Reads C(/server_info) (C(/get_server_info) on older SGLang) and compares it with O(expect).
  - Decodes O(prompts) at temperature 0 O(runs) times via C(/generate); output must be non-empty and
    identical across runs.
  - Measures tokens/s and, with speculative decoding, the accept length from the C(meta_info) fields of
    O(sglang_version) (names changed in 0.5.12, which kept the old ones as aliases until 0.5.21).
  - Speculative decoding expected (O(speculative=true)) but absent from the responses is a failure.
  - Read-only; never changes the host.
author: specdeploy.sglang contributors (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Read-only; runs the same requests in check mode.
  diff_mode:
    support: none
options:
  url:
    description: Base URL of the server, for example C(http://127.0.0.1:30000).
    type: str
    required: true
  sglang_version:
    description: SGLang version the server runs (selects the C(meta_info) field names).
    type: str
    required: true
  service:
    description:
      - systemd unit running the server. When set, the readiness wait ends early (as a failure)
        when the unit failed or restarted on its own.
    type: str
  timeout:
    description: Readiness deadline in seconds (the server role's C(server_smoke_timeout); one definition, C(smoke.SETTINGS)).
    type: int
    default: 1800
  expect:
    description: C(/server_info) fields and their intended values (the resolved config).
    type: dict
    default: {}
  speculative:
    description: Whether speculative decoding is expected.
    type: bool
    default: false
  prompts:
    description: Prompts to decode at temperature 0.
    type: list
    elements: str
    default: ["The quick brown fox", "Once upon a time", "def fibonacci(n):"]
  max_new_tokens:
    description: Tokens to generate per prompt.
    type: int
    default: 16
  runs:
    description: How many times each prompt is decoded (>= 2, outputs must be identical).
    type: int
    default: 2
  min_accept_length:
    description: Minimum mean accept length (speculative decoding only).
    type: float
  min_tokens_per_s:
    description: Minimum decode throughput, completion tokens over wall time of the requests.
    type: float
  expect_substrings:
    description: Strings each of which must appear in at least one output.
    type: list
    elements: str
    default: []
  api_key:
    description: API key of the server (sent as a bearer token).
    type: str
  fail_on_error:
    description: Fail the task when the smoke decode does not pass.
    type: bool
    default: true
"""

EXAMPLES = r"""
- name: Smoke decode a DFLASH server
  specdeploy.sglang.smoke_decode:
    url: http://127.0.0.1:30000
    sglang_version: "0.5.23"
    service: sglang-main.service
    speculative: true
    expect:
      speculative_algorithm: DFLASH
      speculative_num_draft_tokens: 16
    min_accept_length: 2.0
  register: smoke
"""

RETURN = r"""
passed:
  description: Whether every check and gate passed.
  returned: always
  type: bool
failures:
  description: What failed, one sentence each.
  returned: always
  type: list
  elements: str
ready_after_s:
  description: Seconds until C(/health) answered 200 (null when it never did).
  returned: always
  type: float
server_info:
  description: Subset of C(/server_info) (the compared fields and a few identifying ones).
  returned: always
  type: dict
server_info_path:
  description: Which endpoint answered (C(/server_info) or C(/get_server_info)).
  returned: always
  type: str
mismatches:
  description: Fields of O(expect) that differ from C(/server_info).
  returned: always
  type: list
  elements: dict
tokens_per_s:
  description: Completion tokens per second over all requests.
  returned: always
  type: float
accept_length:
  description: Completion tokens per verify step over all requests (speculative decoding only).
  returned: always
  type: float
spec_verify_ct:
  description: Total verify steps reported in C(meta_info).
  returned: always
  type: int
spec_schema:
  description: The C(meta_info) schema (first SGLang version with it) used to read speculative fields.
  returned: always
  type: str
outputs:
  description: The first run's outputs, one per prompt.
  returned: always
  type: list
  elements: dict
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils.smoke import (
    SETTINGS,
    Http,
    SmokeError,
    run_smoke,
    summary,
)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            url=dict(type="str", required=True),
            sglang_version=dict(type="str", required=True),
            service=dict(type="str"),
            timeout=dict(type="int", default=SETTINGS["timeout"]),
            expect=dict(type="dict", default={}),
            speculative=dict(type="bool", default=False),
            prompts=dict(type="list", elements="str", default=list(SETTINGS["prompts"])),
            max_new_tokens=dict(type="int", default=SETTINGS["max_new_tokens"], no_log=False),
            runs=dict(type="int", default=SETTINGS["runs"]),
            min_accept_length=dict(type="float"),
            min_tokens_per_s=dict(type="float", no_log=False),
            expect_substrings=dict(type="list", elements="str", default=list(SETTINGS["expect_substrings"])),
            api_key=dict(type="str", no_log=True),
            fail_on_error=dict(type="bool", default=True),
        ),
        supports_check_mode=True,
    )
    inputs.check_options(module, {"url": "url", "sglang_version": "version", "service": "text", "timeout": "positive",
                                  "max_new_tokens": "count", "runs": "count", "min_accept_length": "size",
                                  "min_tokens_per_s": "size", "prompts": "nonempty"})
    params = module.params
    http = Http(params["url"], api_key=params["api_key"])
    try:
        result = run_smoke(http, params)
    except SmokeError as exc:
        module.fail_json(msg="smoke_decode: %s" % exc)
    if not result["passed"] and params["fail_on_error"]:
        module.fail_json(msg="%s: %s" % (params["url"], summary(result)), **result)
    module.exit_json(changed=False, msg=summary(result), **result)


if __name__ == "__main__":
    main()
