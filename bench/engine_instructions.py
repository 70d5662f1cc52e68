#!/usr/bin/env python3
"""Machine instructions per static validation, this checkout against a baseline one. Prints; asserts nothing.

    .venv/bin/python bench/engine_instructions.py [--against CHECKOUT] [--reps 20]

Rates per second on a shared machine move by a third from one run to the next (other processes, the CPU's
clock); valgrind's callgrind counts the instructions a run executes, which do not. Each checkout runs
bench_flags.specs() through validate() (GPUs and configs given, as bench_flags.py's first figure) `--reps`
times and 0 times under callgrind, with PYTHONHASHSEED=0; the difference over the validations run is the
figure, and the ratio this / baseline the speed change (below 1.0: fewer instructions). The baseline is
another checkout (e.g. `git worktree add /tmp/base <commit>`); only its engine runs, with this script's
driver. Needs valgrind (Debian's package) and about 20 s per checkout.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = r"""
import sys
root, reps = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, root + "/bench")
sys.argv = ["bench_flags"]
import bench_flags as B
cases = B.specs()
for _ in range(reps + 1):  # one pass to warm the caches (parser tables, schemas), then `reps`
    for sp in cases:
        B.S.validate(sp, gpus=B.PRO6000, target_config=B.TARGET, draft_config=B.DRAFT, read_paths=False)
    if reps == 0:
        break
print(len(cases))
"""


def instructions(checkout, reps, driver):
    counts = {}
    for n in (0, reps):
        with tempfile.NamedTemporaryFile(suffix=".cg") as out:
            p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out.name, sys.executable,
                                driver, checkout, str(n)], capture_output=True, text=True,
                               env=dict(os.environ, PYTHONHASHSEED="0"))
            if p.returncode != 0:
                sys.exit("callgrind run failed in %s:\n%s" % (checkout, p.stderr[-2000:]))
            counts[n] = int(re.search(r"Collected : (\d+)", p.stderr).group(1))
            specs = int(p.stdout.split()[-1])
    return (counts[reps] - counts[0]) / float(reps * specs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", help="a baseline checkout of the collection")
    ap.add_argument("--reps", type=int, default=20)
    a = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(DRIVER)
    try:
        this = instructions(ROOT, a.reps, f.name)
        print("instructions per validation: this checkout %.0f" % this)
        if a.against:
            base = instructions(os.path.abspath(a.against), a.reps, f.name)
            print("instructions per validation: baseline %s %.0f; this / baseline %.3f" % (a.against, base, this / base))
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    main()
