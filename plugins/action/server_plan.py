# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for server_plan: action=lines on the controller (and action=validation when this run's earlier
validation of the same inputs answers), every other action on the host.

The unit's ExecStart and Environment= lines are a pure function of the validation, the instance and the
program (module_utils/server_plan.py unit_lines): computing them needs nothing from the host, so a deploy
does not pay a module start on the host for them in every rollout round. The other actions read or write
the host (its units, release records, secrets file, servers) and run as the module. The module file holds
the docs; module_utils/server_plan.py holds the arguments of both.
"""
from __future__ import annotations

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase

from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan as sp


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _supports_async = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        action = self._task.args.get("action")
        if action in ("lines", "validation"):
            _spec, p = self.validate_argument_spec(argument_spec=sp.ARGUMENT_SPEC, required_if=sp.REQUIRED_IF)
            if action == "lines":
                try:
                    lines = sp.unit_lines(p["program"], p["validation"], p["instance"], p["runtime_env"],
                                          p["unit_settings"])
                except (sp.PlanError, ValueError) as exc:
                    raise AnsibleActionFail("server_plan lines: %s" % exc)
                result.update(changed=False, **lines)
                return result
            # this run's validation of the same inputs answers on the controller (no module start on the host)
            found = sp.earlier_validation(p["instance"], p["settings"], p["earlier"])
            if found["validation"] is not None:
                result.update(changed=False, **found)
                return result
        try:
            result.update(self._execute_module(module_name="specdeploy.sglang.server_plan",
                                               module_args=self._task.args, task_vars=task_vars))
        finally:
            self._remove_tmp_path(self._connection._shell.tmpdir)
        return result
