# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Progress of a long step (an env install, a weights download), as one line per poll.

The action plugin specdeploy.sglang.await_job polls an async job and measures the bytes its output
directory holds; Tracker turns those samples into what the operator reads: bytes done (of the total
when it is known), the rate since the last poll and on average, the time spent and, with a total,
the time left. Standard library only; tests/unit imports it without Ansible.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.weights import human


def duration(seconds):
    """12 -> '12s', 130 -> '2m10s', 3725 -> '1h02m'."""
    s = int(max(0, round(seconds)))
    if s < 60:
        return "%ds" % s
    if s < 3600:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%dh%02dm" % (s // 3600, (s % 3600) // 60)


def parse_du(stdout):
    """Bytes from `du -sb PATH` output ('12345<TAB>/path'); None when it holds no number."""
    first = (stdout or "").strip().split(None, 1)
    if not first:
        return None
    try:
        return int(first[0])
    except ValueError:
        return None


class Tracker:
    """Samples (seconds since start, bytes done) -> progress lines.

    `base` is what the directory held before the step started (bytes already there are not counted as
    progress of this run); `total`, when known, is the size of the finished result (bytes).
    """

    def __init__(self, total=None, base=0):
        self.total = total if total and total > 0 else None
        self.base = base or 0
        self.samples = []

    def add(self, elapsed, done):
        """Record one poll; `done` is None when nothing could be measured."""
        self.samples.append((float(elapsed), None if done is None else int(done)))
        return self.line()

    def _measured(self):
        return [(t, b) for t, b in self.samples if b is not None]

    def rate_now(self):
        m = self._measured()
        if len(m) < 2 or m[-1][0] <= m[-2][0]:
            return None
        return max(0.0, (m[-1][1] - m[-2][1]) / (m[-1][0] - m[-2][0]))

    def rate_average(self):
        m = self._measured()
        if not m or m[-1][0] <= 0:
            return None
        return max(0.0, (m[-1][1] - self.base) / m[-1][0])

    def line(self):
        if not self.samples:
            return "started"
        elapsed = self.samples[-1][0]
        m = self._measured()
        if not m:
            return "running for %s (size not measurable yet)" % duration(elapsed)
        done = m[-1][1]
        parts = [human(done) + (" of %s (%d%%)" % (human(self.total), min(100, 100 * done // self.total))
                                if self.total else "")]
        now, avg = self.rate_now(), self.rate_average()
        if now is not None:
            parts.append("%s/s now" % human(now))
        if avg is not None:
            parts.append("%s/s average" % human(avg))
        parts.append("%s elapsed" % duration(elapsed))
        if self.total and avg and done < self.total:
            parts.append("about %s left" % duration((self.total - done) / avg))
        return ", ".join(parts)

    def summary(self):
        """What the task result carries: the last measurement and the average rate."""
        m = self._measured()
        return {"polls": len(self.samples), "bytes": m[-1][1] if m else None,
                "seconds": self.samples[-1][0] if self.samples else 0.0,
                "bytes_per_s": self.rate_average(), "total_bytes": self.total}
