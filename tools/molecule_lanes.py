#!/usr/bin/env python3
"""Run Molecule scenarios in lanes: the scenarios of one lane run one after another, the lanes at once.

    tools/molecule_lanes.py "gpu_env_weights env_host" "server" "fleet"

Each argument is a lane (scenario names separated by spaces). Lab scenarios spend most of their
time in single-threaded work (an SGLang server importing and loading, pip unpacking wheels, Ansible
waiting on podman exec), so on a 2-core machine two lanes take far less wall time than one.
Each scenario's full output goes to <logdir>/<scenario>.log; a line is printed when a scenario starts
and ends (with its duration and each Molecule phase's), every log line carries the time since its
scenario started ([MMmSSs]), and the log of every failed scenario is printed at the end, followed by
a digest of its failures (pytest's summary lines, failed tasks), last, where a truncated CI log keeps it.
Exit status: 0 when every scenario passed, 1 otherwise (a lane stops at its first failure).
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

# lines of a Molecule log that say what failed: pytest's summary and assertion lines, failed tasks
DIGEST = re.compile(r"^(FAILED( (?!- RETRYING)|$)|ERROR |E +|fatal: |failed: |.*Executed: Failed|=+ .*(failed|error).* =+$)")
DIGEST_MAX = 60
# the frame Molecule draws before the output of a phase's command ("  │ "): pytest's lines sit inside it
BOX = re.compile(r"^\s*│ ?")


# Molecule's "<scenario> ➜ <phase>: Executing" line: where each phase (create, converge, verify...) starts
PHASE = re.compile(r"➜ (\w+): Executing")


def mmss(seconds):
    return "%dm%02ds" % (seconds // 60, seconds % 60)


def phase_times(phases, end):
    """(phase, seconds) for each phase, from its start to the next one's (the last one to the end)."""
    return [(name, (phases[i + 1][1] if i + 1 < len(phases) else end) - at) for i, (name, at) in enumerate(phases)]


def digest(path):
    """The lines of a scenario log that say what failed (ANSI colours removed), at most DIGEST_MAX."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            line = BOX.sub("", re.sub(r"^\[\d+m\d\ds\] ", "", re.sub(r"\x1b\[[0-9;]*m", "", line.rstrip("\n"))))
            if DIGEST.match(line):
                out.append(line[:400])
    return out[-DIGEST_MAX:]


def run_lane(scenarios, logdir, results, lock):
    for name in scenarios:
        log = os.path.join(logdir, name + ".log")
        with lock:
            print("== molecule test -s %s (log: %s)" % (name, log), flush=True)
        start = time.monotonic()
        phases = []
        with open(log, "w", encoding="utf-8") as handle:
            # 200 columns: Molecule (rich) and pytest wrap at the terminal's width, 80 in a pipe, which split
            # pytest's "FAILED <test> - <reason>" line in two and the digest missed the test's name
            proc = subprocess.Popen(["molecule", "test", "-s", name], stdout=subprocess.PIPE,
                                    env=dict(os.environ, COLUMNS=os.environ.get("COLUMNS", "200")),
                                    stderr=subprocess.STDOUT, text=True, errors="replace")
            for line in proc.stdout:
                now = time.monotonic() - start
                handle.write("[%s] %s" % (mmss(now), line))
                phase = PHASE.search(re.sub(r"\x1b\[[0-9;]*m", "", line))
                if phase:
                    phases.append((phase.group(1), now))
            rc = proc.wait()
        took = time.monotonic() - start
        results[name] = (rc, took, log)
        with lock:
            print("== %s: %s in %s (%s)" % (name, "passed" if rc == 0 else "FAILED (rc %d)" % rc, mmss(took),
                                           ", ".join("%s %s" % (p, mmss(d)) for p, d in phase_times(phases, took))),
                  flush=True)
        if rc:
            return


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lanes", nargs="+", help="a lane: scenario names separated by spaces")
    parser.add_argument("--logdir", default=os.path.join(".lab", "molecule-logs"))
    args = parser.parse_args(argv)
    lanes = [lane.split() for lane in args.lanes if lane.split()]
    names = [name for lane in lanes for name in lane]
    if len(set(names)) != len(names):
        parser.error("a scenario appears in two lanes: %s" % " ".join(names))
    for name in names:
        if not os.path.isfile(os.path.join("molecule", name, "molecule.yml")):
            parser.error("no scenario %r (molecule/%s/molecule.yml)" % (name, name))
    os.makedirs(args.logdir, exist_ok=True)
    results, lock = {}, threading.Lock()
    threads = [threading.Thread(target=run_lane, args=(lane, args.logdir, results, lock)) for lane in lanes]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [name for name in names if name not in results or results[name][0] != 0]
    for name in failed:
        if name in results:
            print("\n======== log of the failed scenario %s (%s) ========" % (name, results[name][2]))
            with open(results[name][2], encoding="utf-8", errors="replace") as handle:
                sys.stdout.write(handle.read())
    took = time.monotonic() - start
    print("\n== molecule: %d passed, %d failed, %d not run; wall %dm%02ds" % (
        len(names) - len(failed), len([n for n in failed if n in results]), len([n for n in failed if n not in results]),
        took // 60, took % 60))
    for name in names:
        if name in results:
            print("   %-16s %s %dm%02ds" % (name, "ok    " if results[name][0] == 0 else "FAILED",
                                           results[name][1] // 60, results[name][1] % 60))
        else:
            print("   %-16s not run (an earlier scenario of its lane failed)" % name)
    for name in failed:
        if name in results:
            print("\n== what failed in %s (the full log is above and in %s):" % (name, results[name][2]))
            for line in digest(results[name][2]) or ["(no failure line found; read the log)"]:
                print("   " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
