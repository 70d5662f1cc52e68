"""module_utils/progress.py: the progress lines of long steps (await_job), without Ansible."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import progress

MiB = 1024 * 1024


@pytest.mark.parametrize("seconds,text", [(0, "0s"), (12.4, "12s"), (130, "2m10s"), (3725, "1h02m")])
def test_duration(seconds, text):
    assert progress.duration(seconds) == text


@pytest.mark.parametrize("out,value", [("12345\t/opt/x\n", 12345), ("", None), ("du: cannot access", None)])
def test_parse_du(out, value):
    assert progress.parse_du(out) == value


def test_unknown_total_shows_bytes_and_rates():
    t = progress.Tracker()
    assert t.add(10, 100 * MiB) == "100.0 MiB, 10.0 MiB/s average, 10s elapsed"
    line = t.add(20, 300 * MiB)
    assert line == "300.0 MiB, 20.0 MiB/s now, 15.0 MiB/s average, 20s elapsed"


def test_known_total_shows_share_and_time_left():
    t = progress.Tracker(total=1000 * MiB)
    t.add(10, 100 * MiB)
    line = t.add(20, 250 * MiB)
    assert line.startswith("250.0 MiB of 1000.0 MiB (25%), 15.0 MiB/s now, 12.5 MiB/s average, 20s elapsed")
    assert line.endswith("about 1m00s left")
    assert t.summary() == {"polls": 2, "bytes": 250 * MiB, "seconds": 20.0, "bytes_per_s": 12.5 * MiB,
                           "total_bytes": 1000 * MiB}


def test_nothing_measurable_yet_says_so():
    t = progress.Tracker(total=0)          # 0 = unknown, never a division by zero
    assert t.add(5, None) == "running for 5s (size not measurable yet)"
    assert t.summary()["bytes"] is None


def test_a_shrinking_directory_is_no_negative_rate():
    t = progress.Tracker()
    t.add(10, 200 * MiB)
    assert "0 B/s now" in t.add(20, 100 * MiB)   # pip removing a build dir
