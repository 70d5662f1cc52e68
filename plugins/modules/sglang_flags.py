#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

DOCUMENTATION = r"""
---
module: sglang_flags
short_description: Validate and render SGLang speculative-decoding flags before a restart
version_added: "0.1.0"
description:
  - Renders a structured SGLang spec (or takes an existing command line) into the exact argv for one
    SGLang version and checks it the way SGLang would, before any server is restarted.
  - C(mode=static) uses the collection's release table (the SGLang releases listed in
    docs/sglang-releases.md, each with its parser captured from that release) and needs no SGLang; it runs
    anywhere, typically on the controller. It judges completely what the spec renders; other flags (from
    C(extra_args) or a command line) and SGLang's own C(SGLANG_*) variables are checked for existence and type
    only, and the verdict leaves their compatibility to SGLang (C(sglang_verdict.accepted) null, note
    C(JUDGED_BY_SGLANG)). A release newer than the tables uses the nearest older release's traits with the note
    C(NOT_IN_TABLES) and is judged by that SGLang itself (docs/sglang.md, Validation).
  - C(mode=installed) runs the host's installed SGLang's own argument resolution in the given venv
    (C(prepare_server_args), C(resolve_once), C(check_server_args)), without a server, a GPU or weights;
    only the two C(config.json) files are read, and probes which flags and tree-verify flavors it has.
  - Besides what SGLang refuses, it checks the drafter against the target (architecture, block size,
    target layer ids, mask token, context lengths), the GPUs (count, sm_120 backends), and reports every
    setting SGLang would silently change. A silent change of a speculative setting is an error unless
    listed in O(allow_overrides).
  - C(verify=tree) (DDTree) renders the tree-verify flag set the probed SGLang has, and fails when it has
    none, because released DFLASH verify is linear. It never falls back to linear.
author:
  - specdeploy developers (@specdeploy)
extends_documentation_fragment:
  - specdeploy.sglang._attributes
attributes:
  check_mode:
    support: full
    details: Read-only; runs the same in check mode.
  diff_mode:
    support: full
    details: Returns a flag-per-line diff against O(previous_argv) when given.
options:
  mode:
    description:
      - V(static) checks with the rule tables; V(installed) asks the SGLang in O(python)'s venv.
    type: str
    choices: [static, installed]
    default: static
  spec:
    description:
      - The structured spec (see docs/interfaces.md), for example C(sglang_version), C(model_path),
        C(tp_size), C(attention_backend), C(speculative.algorithm), C(speculative.draft_model_path),
        C(speculative.verify), C(speculative.block_size), C(extra_args), C(env).
      - Mutually exclusive with O(argv).
    type: dict
  argv:
    description:
      - An existing SGLang command line (list of arguments, or one string), for example a hand-written
        unit's C(ExecStart) being migrated. A leading program (C(python -m sglang.launch_server),
        C(sglang serve)) is ignored. One string is read like a systemd C(ExecStart) value (continuation
        lines joined, C(%%) and C($$) unescaped). The result's RV(spec) is the structured spec it stands for.
    type: raw
  env:
    description:
      - Server environment that goes with O(argv) (ignored with O(spec), which carries its own C(env)).
      - In installed mode the resolution also runs with it.
    type: dict
    default: {}
  sglang_version:
    description:
      - SGLang version of O(argv)'s rule table. Required with O(argv).
    type: str
  python:
    description:
      - The SGLang venv's python (for example the gpu_env role's C(gpu_env_python)). Required when O(mode=installed).
    type: path
  gpus:
    description:
      - GPU facts of the host (the gpu_facts module's list; each item may carry C(name) and
        C(compute_capability) such as C(12.0), and C(memory_total_mib) for the memory fit). An empty list
        means a host without a visible GPU. Omitted means GPU checks are skipped (with a warning).
    type: list
    elements: dict
  capabilities:
    description:
      - A probe result (the C(sglang) value returned by M(specdeploy.sglang.sglang_probe)), used to render O(spec) C(verify=tree). Installed mode probes itself.
    type: dict
  target_config:
    description:
      - The target's C(config.json) as a mapping, or a path to it or to its model directory.
        Default is the model path's C(config.json) when readable here.
    type: raw
  draft_config:
    description:
      - The drafter's C(config.json) as a mapping, or a path to it or to its model directory.
        Default is the draft model path's C(config.json) when readable here.
    type: raw
  previous_argv:
    description:
      - The argv currently deployed; the result then carries RV(argv_diff) (and a diff in diff mode).
    type: raw
  allow_overrides:
    description:
      - Fields whose silent change by SGLang is accepted (SGLang or spec names, for example
        C(speculative_eagle_topk) or C(eagle_topk)). Added to the spec's C(speculative.allow_overrides).
    type: list
    elements: str
    default: []
  fail_on_error:
    description:
      - Fail the task when the result is not RV(ok). With V(false) the task reports RV(errors) and succeeds.
    type: bool
    default: true
  timeout:
    description:
      - Seconds allowed for the installed SGLang's probe and resolution.
    type: int
    default: 300
notes:
  - Installed mode adds C(--device cuda) when the argv names no device, so a host without a visible GPU
    resolves like the GPU host would (SGLang would otherwise pick C(cpu)).
  - A release whose parser table is still derived rather than captured (docs/sglang-releases.md) reports
    flags it does not list as notes, not errors. Use installed mode for the final word.
seealso:
  - module: specdeploy.sglang.sglang_probe
"""

EXAMPLES = r"""
- name: Validate the instance's flags on the controller (no SGLang needed)
  specdeploy.sglang.sglang_flags:
    spec: "{{ sglang_spec }}"
    gpus: "{{ gpu_env_expected_gpus | default(omit) }}"
  delegate_to: localhost

- name: Validate with the installed SGLang as the authority, without starting it
  specdeploy.sglang.sglang_flags:
    mode: installed
    python: "{{ gpu_env_python }}"
    spec: "{{ sglang_spec }}"
    gpus: "{{ gpu_env_gpus }}"
    previous_argv: "{{ previous_release.argv | default(omit) }}"
  register: flags

- name: Migrate a hand-written NEXTN unit (reports NEXTN -> EAGLE as an override)
  specdeploy.sglang.sglang_flags:
    argv: "python3 -m sglang.launch_server --model-path /models/m --speculative-algorithm NEXTN"
    sglang_version: "0.5.23"
    fail_on_error: false
  register: migrated
"""

RETURN = r"""
ok:
  description: True when there is no error.
  returned: always
  type: bool
argv:
  description: The SGLang flags (no program), in order.
  returned: always
  type: list
  elements: str
  sample: ["--model-path", "/opt/specdeploy/models/Qwen--Qwen3-8B@abc", "--speculative-algorithm", "DFLASH"]
env:
  description: The server environment.
  returned: always
  type: dict
errors:
  description: Problems, each with a stable C(code), a C(message) saying what to do, the C(field) and the C(stage)
    (input, parse, resolve, load, hardware, policy).
  returned: always
  type: list
  elements: dict
  sample: [{"code": "SPEC_OVERRIDDEN", "field": "speculative_eagle_topk", "stage": "policy",
            "message": "SGLang would silently change speculative_eagle_topk from 4 to 1. ..."}]
notes:
  description: Things to know, each with a C(code) and a C(message) (SGLang's own log warnings in installed mode).
    Named C(notes) because Ansible reserves C(warnings).
  returned: always
  type: list
  elements: dict
resolved:
  description: The settings as SGLang resolves them (SGLang's names, as in /server_info).
  returned: always
  type: dict
  sample: {"speculative_algorithm": "DFLASH", "speculative_num_draft_tokens": 16, "speculative_eagle_topk": 1}
overrides:
  description: Every setting SGLang would change silently, as C(field), C(requested), C(resolved).
  returned: always
  type: list
  elements: dict
sglang_verdict:
  description:
    - Whether SGLang itself would accept the arguments (C(accepted), C(code), C(stage), C(message)).
    - C(accepted) is null when the static mode leaves the verdict to SGLang; C(judged_by_sglang) lists what
      (flags, env, target, drafter or release it does not model), empty when the verdict is complete.
  returned: always
  type: dict
capabilities:
  description: The probe of the installed SGLang (installed mode) or the given O(capabilities).
  returned: always
  type: dict
tree_verify:
  description: The tree-verify flavor rendered for C(verify=tree), or null.
  returned: always
  type: str
memory_fit:
  description:
    - The memory fit per GPU (docs/memory-fit.md) - C(status) (V(fits), V(tight), V(refused), V(unknown) with
      C(reason)), C(device_memory_bytes), C(budget_bytes), C(target_weights_bytes), C(draft_weights_bytes) (with
      their C(*_source)), C(min_mem_fraction_static), C(kv_bytes), C(kv_bytes_per_token), C(kv_tokens),
      C(kv_tokens_capped), C(context_length), C(context_fits), C(full_context_requests), C(max_running_requests),
      C(max_running_requests_fits), C(max_running_requests_effective), C(refusal).
    - A V(refused) fit is the error C(MEMORY_WEIGHTS_EXCEED_BUDGET). Without the GPUs' memory the fit is
      V(unknown) and never refuses.
  returned: when the spec or argv got as far as the checks
  type: dict
unit_exec_lines:
  description: The argv escaped for a systemd C(ExecStart) (C(%) and C($) doubled, quoted where needed), one flag per line.
  returned: always
  type: list
  elements: str
spec:
  description: The structured spec O(argv) stands for (migration of a hand-written command line).
  returned: when O(argv) is given and parses
  type: dict
argv_diff:
  description: Flag-by-flag comparison with O(previous_argv) (C(changed), C(added), C(removed), C(changed_flags), C(before), C(after)).
  returned: when O(previous_argv) is given
  type: dict
mode:
  description: The mode used.
  returned: always
  type: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_flags_run as run


def main():
    module = AnsibleModule(
        argument_spec=dict(
            mode=dict(type="str", choices=["static", "installed"], default="static"),
            spec=dict(type="dict"),
            argv=dict(type="raw"),
            env=dict(type="dict", default={}),
            sglang_version=dict(type="str"),
            python=dict(type="path"),
            gpus=dict(type="list", elements="dict"),
            capabilities=dict(type="dict"),
            target_config=dict(type="raw"),
            draft_config=dict(type="raw"),
            previous_argv=dict(type="raw"),
            allow_overrides=dict(type="list", elements="str", default=[]),
            fail_on_error=dict(type="bool", default=True),
            timeout=dict(type="int", default=300),
        ),
        mutually_exclusive=[("spec", "argv")],
        required_one_of=[("spec", "argv")],
        required_by={"argv": ("sglang_version",)},
        required_if=[("mode", "installed", ("python",))],
        supports_check_mode=True,
    )
    inputs.check_options(module, {"sglang_version": "version", "python": "path", "timeout": "positive"})
    out = run.run_flags(module.params)
    if module._diff and "argv_diff" in out:
        out["diff"] = {"before": out["argv_diff"]["before"], "after": out["argv_diff"]["after"]}
    if out.get("input_error"):
        module.fail_json(msg=out.pop("input_error"), **out)
    if not out["ok"] and module.params["fail_on_error"]:
        module.fail_json(msg=run.summary(out), **out)
    module.exit_json(changed=False, **out)


if __name__ == "__main__":
    main()
