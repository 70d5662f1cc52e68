# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Action for await_job: wait for an async job on the host, printing its progress at every poll.

Each poll runs ansible-core's own async_status module (the job's state) and, when `path` is given,
`du -sb PATH` (the bytes written so far); module_utils/progress.py turns the samples into the line the
operator reads. The result is the job's own result (rc, stdout, delta, ... of the command), so a task
that registers it reads it like an `async` task with `poll` > 0. The module file holds the docs.
"""
from __future__ import annotations

import time

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import progress

display = Display()

ARGUMENT_SPEC = dict(
    jid=dict(type="str", required=True),
    label=dict(type="str", default="job"),
    path=dict(type="str"),
    total_bytes=dict(type="int"),
    poll=dict(type="int", default=10),
    timeout=dict(type="int", default=3600),
)
# keys of async_status's answer that describe the polling, not the job
_POLL_KEYS = ("started", "finished", "ansible_job_id", "results_file", "erased", "stdout_lines", "stderr_lines")


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _supports_check_mode = True
    _supports_async = False

    def _status(self, jid, async_dir, task_vars, mode="status"):
        return self._execute_module(module_name="ansible.legacy.async_status", task_vars=task_vars,
                                    module_args={"jid": jid, "mode": mode, "_async_dir": async_dir})

    def _bytes(self, path, task_vars):
        out = self._execute_module(module_name="ansible.legacy.command", task_vars=task_vars,
                                   module_args={"argv": ["du", "-sb", path]})
        return progress.parse_du(out.get("stdout")) if out.get("rc") == 0 else None

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        task_vars = task_vars or {}
        _validation, args = self.validate_argument_spec(argument_spec=ARGUMENT_SPEC)
        problems = inputs.option_problems(args, inputs.ACTION_RULES["await_job"])
        if problems:
            raise AnsibleActionFail("await_job: %s" % "; ".join(problems))
        host = task_vars.get("inventory_hostname", "?")
        async_dir = self._remote_expand_user(self.get_shell_option("async_dir", default="~/.ansible_async"))
        tracker = progress.Tracker(total=args["total_bytes"])
        start = time.monotonic()
        while True:
            status = self._status(args["jid"], async_dir, task_vars)
            if status.get("finished") or (status.get("failed") and status.get("_ansible_parsed", True)):
                break
            elapsed = time.monotonic() - start
            done = self._bytes(args["path"], task_vars) if args["path"] else None
            line = tracker.add(elapsed, done)
            display.display("  %s - %s - %s" % (host, args["label"], line))
            if elapsed >= args["timeout"]:
                result.update(failed=True, progress=tracker.summary(),
                              msg="%s did not finish within %d s (await_job timeout); last progress: %s"
                                  % (args["label"], args["timeout"], line))
                return result
            time.sleep(args["poll"])
        if status.get("finished"):
            try:
                self._status(args["jid"], async_dir, task_vars, mode="cleanup")
            except Exception as exc:  # the job's result is what matters; a stale status file is harmless
                display.vvv("await_job: cleanup of job %s failed: %s" % (args["jid"], exc))
        if args["path"]:
            tracker.add(time.monotonic() - start, self._bytes(args["path"], task_vars))
        result.update({k: v for k, v in status.items() if k not in _POLL_KEYS})
        result["progress"] = tracker.summary()
        return result
