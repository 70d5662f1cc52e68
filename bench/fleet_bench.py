#!/usr/bin/env python3
"""Fleet benchmarks on lab hosts, as ratios against a baseline run side by side (never as asserts).

  rollout  deploy.yml on 1 fresh host vs deploy.yml on N fresh hosts (default 4), same inventory
           vars (inventories/lab/group_vars). Goal: N-host time / 1-host time <= 2.2.
  noop     on the N deployed hosts: a re-run of deploy.yml (changes nothing) vs bench/baseline.yml
           (template + service + uri), alternating, median of --runs each. Goal: <= 1.5.

Run through make (it exports the lab environment): `make bench` (both), or
`python3 bench/fleet_bench.py rollout|noop|all`. Hosts are containers bench-N booting systemd,
removed at the end (--keep to keep them). Prints one JSON document with every timing.
Each host runs a real SGLang on CPU (~2.1 GB RAM); N=4 needs ~9 GB free. By default the hosts mount
the LAB-ONLY prebuilt env (--env install: each host installs it, sharing this machine's cores).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE = "localhost/specdeploy-debian-systemd:bookworm"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=False, text=True, capture_output=True, **kw)


def podman(*args):
    env = dict(os.environ, CONTAINERS_CONF=os.environ.get("CONTAINERS_CONF", os.path.join(ROOT, "containers.conf")))
    return sh(["podman", *args], env=env)


PREBUILT = "/srv/specdeploy-lab/prebuilt-env"


def start_hosts(names, prebuilt=False):
    for n in names:
        if podman("container", "exists", n).returncode == 0:
            raise SystemExit(f"bench: container {n} exists; remove it first (podman rm -f {n})")
    for n in names:
        out = podman("run", "-d", "--name", n, "--hostname", n, "--network", "none", "--systemd=always",
                     "-v", f"{os.environ['SPECDEPLOY_LAB_WHEELHOUSE']}:/srv/specdeploy-lab/wheelhouse:ro",
                     "-v", f"{os.environ['SPECDEPLOY_LAB_MODELS']}:/srv/specdeploy-lab/models:ro",
                     *(["-v", f"{os.environ['SPECDEPLOY_LAB_PREBUILT_ENV']}:{PREBUILT}:ro"] if prebuilt else []),
                     IMAGE, "/sbin/init")
        if out.returncode:
            raise SystemExit(f"bench: podman run {n} failed: {out.stderr.strip()}")
    for n in names:
        for _ in range(100):
            st = podman("exec", n, "busctl", "get-property", "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                        "org.freedesktop.systemd1.Manager", "SystemState").stdout
            if '"running"' in st or '"degraded"' in st:
                break
            time.sleep(0.3)


def remove_hosts(names):
    if names:
        podman("rm", "-f", "-t", "2", *names)


def inventory(names):
    """A temporary inventory dir: these hosts in sglang_servers + the lab group_vars."""
    d = tempfile.mkdtemp(prefix="bench-inv-")
    with open(os.path.join(d, "hosts.yml"), "w", encoding="utf-8") as f:
        f.write("all:\n  children:\n    sglang_servers:\n      hosts:\n")
        for n in names:
            f.write(f"        {n}:\n          ansible_connection: containers.podman.podman\n"
                    f"          ansible_host: {n}\n          ansible_python_interpreter: /usr/bin/python3\n")
    os.symlink(os.path.join(ROOT, "inventories", "lab", "group_vars"), os.path.join(d, "group_vars"))
    return d


def link_prebuilt(inv):
    """LAB-ONLY: link the mounted prebuilt env where gpu_env looks (molecule/shared/prebuilt_env.yml)."""
    timed_playbook(inv, "molecule/shared/prebuilt_env.yml")


def timed_playbook(inv, playbook, *args):
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=tempfile.mkdtemp(prefix="bench-rep-"))
    t0 = time.monotonic()
    out = sh(["ansible-playbook", "-i", inv, os.path.join(ROOT, playbook), *args], cwd=ROOT, env=env)
    dt = time.monotonic() - t0
    if out.returncode:
        raise SystemExit(f"bench: {playbook} failed (rc {out.returncode}):\n{out.stdout[-3000:]}\n{out.stderr[-2000:]}")
    return dt, out.stdout


def bench_rollout(n, prebuilt):
    single, fleet = ["bench-s1"], [f"bench-{i}" for i in range(1, n + 1)]
    try:
        start_hosts(single, prebuilt)
        inv = inventory(single)
        if prebuilt:
            link_prebuilt(inv)
        t1, _ = timed_playbook(inv, "playbooks/deploy.yml")
    finally:
        remove_hosts(single)      # one SGLang at a time on this machine: free it before the fleet
    start_hosts(fleet, prebuilt)
    inv = inventory(fleet)
    if prebuilt:
        link_prebuilt(inv)
    tn, _ = timed_playbook(inv, "playbooks/deploy.yml")
    return fleet, {"single_host_s": round(t1, 1), f"{n}_hosts_s": round(tn, 1), "ratio": round(tn / t1, 2),
                   "env": "prebuilt (LAB-ONLY mount)" if prebuilt else "installed per host",
                   "goal": "<= 2.2"}


def bench_noop(names, runs):
    inv = inventory(names)
    timed_playbook(inv, "bench/baseline.yml")          # first baseline run writes its file
    deploy, base = [], []
    for _ in range(runs):                                # alternate, so load drifts hit both alike
        dt, out = timed_playbook(inv, "playbooks/deploy.yml")
        if "changed=0" not in out or any(f"changed={i}" in out for i in range(1, 10)):
            raise SystemExit("bench: the deploy re-run changed something; not a no-op:\n" + out[-2000:])
        deploy.append(dt)
        base.append(timed_playbook(inv, "bench/baseline.yml")[0])
    md, mb = statistics.median(deploy), statistics.median(base)
    return {"deploy_noop_s": [round(x, 1) for x in deploy], "baseline_s": [round(x, 1) for x in base],
            "median_deploy_s": round(md, 1), "median_baseline_s": round(mb, 1), "ratio": round(md / mb, 2),
            "goal": "<= 1.5", "hosts": len(names)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["rollout", "noop", "all"])
    p.add_argument("--hosts", type=int, default=4)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--keep", action="store_true", help="keep the bench hosts")
    p.add_argument("--env", choices=["prebuilt", "install"], default="prebuilt",
                   help="prebuilt (default): hosts mount the LAB-ONLY prebuilt SGLang env, as the fleet scenario "
                        "does; install: every host installs the 2.9 GB env itself (on this one machine the "
                        "N hosts' installs share its cores, which real hosts do not)")
    args = p.parse_args(argv)
    for var in ("SPECDEPLOY_LAB_WHEELHOUSE", "SPECDEPLOY_LAB_MODELS", "SPECDEPLOY_LAB_LOCK", "SPECDEPLOY_LAB_PREBUILT_ENV"):
        if not os.environ.get(var):
            raise SystemExit(f"bench: {var} is not set; run through `make bench`")
    result, fleet = {"machine": {"cpus": os.cpu_count(), "load_before": os.getloadavg()}}, []
    try:
        if args.what in ("rollout", "all"):
            fleet, result["rollout"] = bench_rollout(args.hosts, args.env == "prebuilt")
        if args.what in ("noop", "all"):
            if not fleet:
                fleet = [f"bench-{i}" for i in range(1, args.hosts + 1)]
                start_hosts(fleet, args.env == "prebuilt")
                if args.env == "prebuilt":
                    link_prebuilt(inventory(fleet))
                timed_playbook(inventory(fleet), "playbooks/deploy.yml")
            result["noop"] = bench_noop(fleet, args.runs)
    finally:
        if not args.keep:
            remove_hosts(fleet)
    result["machine"]["load_after"] = os.getloadavg()
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
