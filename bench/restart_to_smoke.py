#!/usr/bin/env python3
"""Restart-to-smoke-passed (the server role's gate) against SGLang's own start-to-healthy, side by side.

Runs on a lab host that the server role deployed (molecule/server, or `make lab`), through
`podman exec`:
  baseline: systemctl restart sglang-<instance>, then poll /health every 0.1 s until 200
  gate:     systemctl restart sglang-<instance>, then smoke_decode's own run_smoke (module_utils/smoke.py,
            the same code and default prompts the role uses) until it passes
Both sides first clear the unit's start limiter (systemctl reset-failed), as the role's gate does: the
unit's StartLimitBurst would otherwise refuse the bench's back-to-back restarts. Rounds alternate the order. Prints one JSON document with every sample, the medians and the ratio
(goal: gate / baseline <= 1.15).

    python3 bench/restart_to_smoke.py --host server-1 --rounds 3
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE_UTILS = os.path.join(ROOT, "plugins", "module_utils")
SMOKE = os.path.join(MODULE_UTILS, "smoke.py")
# smoke.py imports its proxy-less opener from server_common (as a collection module_utils); on the host
# both are plain files in /tmp, so the import is pointed there
SMOKE_IMPORT = "from ansible_collections.specdeploy.sglang.plugins.module_utils.server_common import"

BASELINE = r"""
import subprocess, time, urllib.request
t0 = time.monotonic()
subprocess.run(["systemctl", "reset-failed", "{unit}"])  # as the role does: a bench restart is no crash loop
subprocess.run(["systemctl", "restart", "{unit}"], check=True)
while True:
    try:
        if urllib.request.urlopen("http://127.0.0.1:{port}/health", timeout=5).status == 200:
            break
    except Exception:
        pass
    time.sleep(0.1)
print(round(time.monotonic() - t0, 3))
"""

GATE = r"""
import subprocess, sys, time
sys.path.insert(0, "/tmp")
import bench_smoke as smoke
t0 = time.monotonic()
subprocess.run(["systemctl", "reset-failed", "{unit}"])  # as the role does: a bench restart is no crash loop
subprocess.run(["systemctl", "restart", "{unit}"], check=True)
res = smoke.run_smoke(smoke.Http("http://127.0.0.1:{port}"),
                      {{"sglang_version": "{version}", "timeout": 300, "service": "{unit}"}})
assert res["passed"], res["failures"]
print(round(time.monotonic() - t0, 3), res["ready_after_s"], res["tokens_per_s"])
"""


def podman(*args, **kw):
    proc = subprocess.run(["podman", *args], capture_output=True, text=True, **kw)
    if proc.returncode:
        raise SystemExit("bench: podman %s failed (rc %d):\n%s%s" % (
            " ".join(args[:3]), proc.returncode, proc.stdout[-2000:], proc.stderr[-3000:]))
    return proc.stdout


def run_py(host, code):
    return podman("exec", "-i", host, "/usr/bin/python3", "-", input=code).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="server-1")
    ap.add_argument("--instance", default="main")
    ap.add_argument("--port", type=int, default=30000)
    ap.add_argument("--version", default="0.5.23")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    unit = "sglang-%s.service" % args.instance
    podman("cp", os.path.join(MODULE_UTILS, "server_common.py"), "%s:/tmp/server_common.py" % args.host)
    with open(SMOKE, encoding="utf-8") as handle:
        text = handle.read()
    assert SMOKE_IMPORT in text, "bench: smoke.py no longer imports server_common as expected"
    podman("exec", "-i", args.host, "sh", "-c", "cat > /tmp/bench_smoke.py",
           input=text.replace(SMOKE_IMPORT, "from server_common import"))
    samples = {"baseline_start_to_healthy_s": [], "gate_restart_to_smoke_passed_s": [], "gate_ready_after_s": [],
               "gate_tokens_per_s": []}
    for rnd in range(args.rounds):
        order = ("baseline", "gate") if rnd % 2 == 0 else ("gate", "baseline")
        for kind in order:
            if kind == "baseline":
                out = run_py(args.host, BASELINE.format(unit=unit, port=args.port))
                samples["baseline_start_to_healthy_s"].append(float(out))
            else:
                out = run_py(args.host, GATE.format(unit=unit, port=args.port, version=args.version)).split()
                samples["gate_restart_to_smoke_passed_s"].append(float(out[0]))
                samples["gate_ready_after_s"].append(float(out[1]))
                samples["gate_tokens_per_s"].append(float(out[2]))
            print("round %d %s: %s" % (rnd + 1, kind, out), file=sys.stderr)
    base = statistics.median(samples["baseline_start_to_healthy_s"])
    gate = statistics.median(samples["gate_restart_to_smoke_passed_s"])
    print(json.dumps({"host": args.host, "unit": unit, "rounds": args.rounds, "samples": samples,
                      "median_baseline_s": base, "median_gate_s": gate,
                      "ratio_gate_over_baseline": round(gate / base, 3), "goal_ratio": 1.15}, indent=2))


if __name__ == "__main__":
    main()
