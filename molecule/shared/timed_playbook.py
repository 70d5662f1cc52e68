"""ansible-playbook as a scenario's tests run it, timed: each run prints one line to the scenario log with
its wall time and its slowest tasks (a task's time: from its header to the next header), so a slow
test says where its minutes went without a rerun. The output is returned whole, as the tests read it."""
import os
import subprocess
import sys
import threading
import time

HEADERS = ("PLAY [", "TASK [", "RUNNING HANDLER [", "PLAY RECAP")
SHOWN = 6


def run(cmd, cwd, env, timeout=3600):
    """(returncode, stdout and stderr as one text) of `cmd`; prints `playbook <name>: <s> s; slowest: ...`."""
    start = last = time.monotonic()
    current, spent, lines = None, {}, []
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    killer = threading.Timer(timeout, proc.kill)   # a hung run ends (rc -9) instead of holding the lane
    killer.start()
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith(HEADERS):
                now = time.monotonic()
                if current:
                    spent[current] = spent.get(current, 0.0) + now - last
                current, last = line.strip().rstrip("*").strip(), now
        rc = proc.wait()
    finally:
        killer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    slowest = sorted(spent.items(), key=lambda kv: -kv[1])[:SHOWN]
    # the playbook: the first word that is neither an option nor an option's value (-i, -e, --limit)
    words = [a for i, a in enumerate(cmd[1:], 1) if not a.startswith("-") and cmd[i - 1] not in ("-i", "-e", "--limit")]
    name = os.path.basename(words[0]) if words else cmd[0]
    print("\nplaybook %s: %.0f s (rc %d); slowest: %s" % (
        name, time.monotonic() - start, rc, "; ".join("%.0f s %s" % (s, t[:90]) for t, s in slowest)),
        file=sys.stdout, flush=True)
    return rc, "".join(lines)
