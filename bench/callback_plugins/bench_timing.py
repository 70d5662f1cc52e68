# -*- coding: utf-8 -*-
# BENCH-ONLY (bench/fleet_bench.py round): not part of the collection. Writes one JSON line per play
# start, task start and per-host task result (with monotonic times) to $SPECDEPLOY_BENCH_TIMING, so the
# bench can cut a run into its plays and rollout batches and attribute each batch's time to its tasks.
from __future__ import annotations

DOCUMENTATION = """
name: bench_timing
type: aggregate
short_description: BENCH-ONLY timings of plays, tasks and per-host results as JSON lines
description: Used by bench/fleet_bench.py; writes to the file named by SPECDEPLOY_BENCH_TIMING.
requirements: [enable in callbacks_enabled]
"""

import json
import os
import time

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "bench_timing"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        path = os.environ.get("SPECDEPLOY_BENCH_TIMING")
        self._out = open(path, "a", encoding="utf-8") if path else None  # noqa: SIM115
        self._starts = {}

    def _emit(self, **ev):
        if self._out:
            ev["t"] = time.monotonic()
            self._out.write(json.dumps(ev) + "\n")
            self._out.flush()

    def v2_playbook_on_start(self, playbook):
        self._emit(ev="playbook_start")

    def v2_playbook_on_play_start(self, play):
        self._emit(ev="play", name=play.get_name())

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._emit(ev="task", name=task.get_name(), action=task.action, uuid=task._uuid)

    def v2_playbook_on_handler_task_start(self, task):
        self._emit(ev="task", name=task.get_name(), action=task.action, uuid=task._uuid)

    def v2_playbook_on_include(self, included_file):
        self._emit(ev="include", file=included_file._filename, hosts=[h.name for h in included_file._hosts])

    def v2_runner_on_start(self, host, task):
        self._starts[(host.name, task._uuid)] = time.monotonic()

    def _result(self, result, status):
        key = (result._host.name, result._task._uuid)
        t0 = self._starts.pop(key, None)
        self._emit(ev="result", host=result._host.name, name=result._task.get_name(), action=result._task.action,
                   uuid=result._task._uuid, status=status, start=t0)

    def v2_runner_on_ok(self, result):
        self._result(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result(result, "failed")

    def v2_runner_on_skipped(self, result):
        self._result(result, "skipped")

    def v2_runner_on_unreachable(self, result):
        self._result(result, "unreachable")

    def v2_playbook_on_stats(self, stats):
        self._emit(ev="end")
