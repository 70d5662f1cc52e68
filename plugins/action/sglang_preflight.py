# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for sglang_preflight: runs entirely on the controller and reads the hosts' variables itself.

With `group`, it reads the preflight's variables (server_instances and the declared sglang_* facts)
of that group's hosts from hostvars, templated the way a play would see them, so nothing large is
serialized and no host is contacted. With `hosts`, it takes the given mapping. The checks are
module_utils/sglang_preflight.check_fleet, the same as specdeploy preflight. The module file
holds the documentation and argument spec.
"""
from __future__ import annotations

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_preflight as pf

ARGUMENT_SPEC = pf.argument_spec()


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _requires_connection = False

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        task_vars = task_vars or {}
        _validation, args = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC,
                                                        mutually_exclusive=[("hosts", "group")],
                                                        required_one_of=[("hosts", "group")])
        if args["group"] is not None:
            groups = task_vars.get("groups") or {}
            hostvars = task_vars.get("hostvars") or {}
            hosts, var_names = {}, {}
            for name in groups.get(args["group"]) or []:
                hv = hostvars[name]
                hosts[name] = {k: hv[k] for k in pf.READ_KEYS if k in hv}
                # every name the host has (inventory and extra vars): a prefixed one nothing reads is a typo
                var_names[name] = [k for k in hv.keys() if k.startswith(pf.preflight_host.PREFIXES)]
        else:
            var_names = None
            hosts = {name: ({k: hv.get(k) for k in pf.READ_KEYS} if isinstance(hv, dict) else hv)
                     for name, hv in args["hosts"].items()}
        authority = None
        if args["authority"]:
            authority = pf.Authority(pythons=args["authority_pythons"], venvs_dir=args["authority_venvs"],
                                     cache_dir=args["authority_cache"])
        try:
            # the whole inventory (group=) is checked as deploy will use it: the lock (a relative path from
            # the working directory, then the playbook's and the inventory's directories), weights
            # commits, shared GPUs and units, unknown variables
            lock_dirs = [task_vars.get("playbook_dir"), task_vars.get("inventory_dir")]
            out = pf.check_fleet(hosts, read_paths=args["read_configs"], fatal_notes=args["fatal_notes"],
                                 authority=authority, group=args["group"], deploy_checks=args["group"] is not None,
                                 var_names=var_names, lock_dirs=[d for d in lock_dirs if d])
        except TypeError as e:
            raise AnsibleActionFail("sglang_preflight: %s" % e)
        result.update(out)
        result["changed"] = False
        if not out["ok"] and args["fail_on_error"]:
            result["failed"] = True
            result["msg"] = pf.failure_message(out)
        return result
