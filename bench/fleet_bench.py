#!/usr/bin/env python3
"""Fleet benchmarks on lab hosts, as ratios against a baseline run side by side (never as asserts).

  rollout  deploy.yml on 1 fresh host vs deploy.yml on N fresh hosts (default 4), same inventory
           vars (inventories/lab/group_vars). Goal: N-host time / 1-host time <= 2.2.
  noop     on the N deployed hosts: a re-run of deploy.yml (changes nothing) vs bench/baseline.yml
           (template + service + uri), alternating, median of --runs each. Goal: <= 1.5.
  round    on the N deployed hosts (default 2 with `round`): deploy.yml with a new release on every host
           (an env var of the instance spec changes per run, so every host validates, restarts and is
           gated), specdeploy_serial 1 (one host per batch), vs SGLang's own start-to-healthy on the same
           hosts (systemctl restart, /health polled every 0.1 s, as bench/restart_to_smoke.py), alternating,
           --runs each. Per rollout batch (a round) its wall time from the BENCH-ONLY callback
           bench/callback_plugins/bench_timing.py; overhead = median round - median start-to-healthy
           (goal <= 10 s). The fixed part (preflight + stage plays before the first batch, the summary
           after the last) is reported apart, and the round's time per task (median over rounds).
           --against CHECKOUT: that checkout's deploy.yml alternates with this one's on the same hosts
           (a change and its baseline side by side, under the same machine load).

Run through make (it exports the lab environment): `make bench` (both), or
`python3 bench/fleet_bench.py rollout|noop|all`. Hosts are containers bench-N booting systemd,
removed at the end (--keep to keep them). Prints one JSON document with every timing.
Each host runs a real SGLang on CPU (~2.1 GB RAM); N=4 needs ~9 GB free. By default the hosts mount
the LAB-ONLY prebuilt env (--env install: each host installs it, sharing this machine's cores).
"""
import argparse
import collections
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
            # the connection is the lab group_vars' (ssh through lab/ssh_proxy; the Makefile's ANSIBLE_SSH_* exports)
            f.write(f"        {n}:\n"
                    f"          ansible_host: {n}\n          ansible_python_interpreter: /usr/bin/python3\n")
    os.symlink(os.path.join(ROOT, "inventories", "lab", "group_vars"), os.path.join(d, "group_vars"))
    return d


def link_prebuilt(inv):
    """LAB-ONLY: link the mounted prebuilt env where gpu_env looks (molecule/shared/prebuilt_env.yml)."""
    timed_playbook(inv, "molecule/shared/prebuilt_env.yml")


def collection_env(tree):
    """ansible-playbook's environment for the checkout `tree` (another one than this: --against): its
    own collections dir, this checkout's containers.podman."""
    if tree == ROOT:
        return {}
    d = tempfile.mkdtemp(prefix="bench-coll-")
    os.makedirs(os.path.join(d, "ansible_collections", "specdeploy"))
    os.symlink(tree, os.path.join(d, "ansible_collections", "specdeploy", "sglang"))
    os.symlink(os.path.join(ROOT, ".lab", "collections", "ansible_collections", "containers"),
               os.path.join(d, "ansible_collections", "containers"))
    return {"ANSIBLE_COLLECTIONS_PATH": d, "ANSIBLE_CONFIG": os.path.join(tree, "ansible.cfg")}


def timed_playbook(inv, playbook, *args, extra_env=None, tree=ROOT):
    env = dict(os.environ, SPECDEPLOY_REPORT_DIR=tempfile.mkdtemp(prefix="bench-rep-"), **(extra_env or {}))
    t0 = time.monotonic()
    out = sh(["ansible-playbook", "-i", inv, os.path.join(tree, playbook), *args], cwd=tree, env=env)
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


# SGLang's own start-to-healthy, on the host (the same loop as bench/restart_to_smoke.py's baseline)
START_TO_HEALTHY = r"""
import subprocess, time, urllib.request
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
t0 = time.monotonic()
subprocess.run(["systemctl", "reset-failed", "sglang-main.service"])  # as the role does before a restart
subprocess.run(["systemctl", "restart", "sglang-main.service"], check=True)
while True:
    try:
        if opener.open("http://127.0.0.1:30000/health", timeout=5).status == 200:
            break
    except Exception:
        pass
    time.sleep(0.1)
print(round(time.monotonic() - t0, 3))
"""

CALLBACKS = os.path.join(ROOT, "bench", "callback_plugins")


def start_to_healthy(host):
    out = podman("exec", "-i", host, "/usr/bin/python3", "-c", START_TO_HEALTHY)
    if out.returncode:
        raise SystemExit(f"bench: start-to-healthy on {host} failed: {out.stderr[-2000:]}")
    return float(out.stdout.split()[-1])


def round_extra_vars(tag):
    """A new release on every host: the instance spec of inventories/lab with one more env var."""
    spec = ("{{ lab_sglang_spec | combine({'env': lab_sglang_spec.env | combine({'SPECDEPLOY_BENCH_RELEASE': '%s'})}) }}"
            % tag)
    return {"server_instances": [{"name": "main", "spec": spec}], "specdeploy_serial": 1}


# actions that run on the controller alone (no module run on the host)
CONTROLLER_ACTIONS = {"ansible.builtin." + a for a in (
    "set_fact", "debug", "assert", "fail", "include_tasks", "include_role", "import_tasks", "import_role", "meta",
    "group_by", "set_stats", "validate_argument_spec")}


def cut_timings(path):
    """One deploy run's events -> its fixed part, its rollout batches (wall, host, time per task)."""
    with open(path, encoding="utf-8") as f:
        evs = [json.loads(line) for line in f]
    t_start = next(e["t"] for e in evs if e["ev"] == "playbook_start")
    t_end = next(e["t"] for e in reversed(evs) if e["ev"] == "end")
    plays = [(i, e) for i, e in enumerate(evs) if e["ev"] == "play"]
    rounds, first_batch, last_batch_end = [], None, None
    for k, (i, e) in enumerate(plays):
        j, t_next = (plays[k + 1][0], plays[k + 1][1]["t"]) if k + 1 < len(plays) else (len(evs), t_end)
        if not e["name"].startswith("Roll out"):
            continue
        first_batch = e["t"] if first_batch is None else first_batch
        last_batch_end = t_next
        window = evs[i:j]
        res = [x for x in window if x["ev"] == "result"]
        per_task = collections.defaultdict(float)
        for x in res:
            if x.get("start") is not None:
                per_task[x["name"]] += x["t"] - x["start"]
        hosts = sorted({x["host"] for x in res})
        rounds.append({"hosts": hosts, "wall_s": t_next - e["t"],
                       "tasks": sum(1 for x in window if x["ev"] == "task"),
                       "results_ok": sum(1 for x in res if x["status"] == "ok"),
                       "results_skipped": sum(1 for x in res if x["status"] == "skipped"),
                       # tasks that ran a module (a loop counts once; delegated to localhost counts too)
                       "module_tasks": sum(1 for x in res if x["status"] != "skipped"
                                           and x["action"] not in CONTROLLER_ACTIONS),
                       "includes": sum(1 for x in window if x["ev"] == "include"),
                       "in_tasks_s": sum(per_task.values()), "per_task_s": dict(per_task)})
    if first_batch is None:
        raise SystemExit("bench: no rollout batch in this run (did every host come out unchanged?)")
    fixed = {"before_first_round_s": first_batch - t_start, "after_last_round_s": t_end - last_batch_end}
    return fixed, rounds


def bench_round(names, runs, against=None):
    """`runs` deploys of a new release per checkout (this one, and --against's when given, alternating
    with each other and with the start-to-healthy baseline on the same hosts)."""
    inv = inventory(names)
    trees = [("this", ROOT, {})] + ([("against", os.path.abspath(against), collection_env(os.path.abspath(against)))]
                                    if against else [])
    keys = ("round_wall_s", "fixed_before_s", "fixed_after_s", "run_wall_s", "tasks_per_round",
            "includes_per_round", "skipped_per_round", "module_tasks_per_round")
    samples = {label: {k: [] for k in keys} for label, _, _ in trees}
    per_task = {label: collections.defaultdict(list) for label, _, _ in trees}
    healthy = []
    for r in range(runs):
        # alternating: this, baseline[, against] / [against, ]baseline, this
        order = ["deploy:this", "baseline"] + (["deploy:against"] if against else [])
        order = order if r % 2 == 0 else order[::-1]
        for kind in order:
            if kind == "baseline":
                for h in names:
                    healthy.append(start_to_healthy(h))
                    print(f"bench round: run {r + 1} start-to-healthy {h}: {healthy[-1]:.2f} s", file=sys.stderr)
                continue
            label, tree, tenv = next(t for t in trees if t[0] == kind.split(":")[1])
            timing = tempfile.mktemp(prefix="bench-timing-", suffix=".jsonl")
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as ev:
                json.dump(round_extra_vars(f"{os.getpid()}-{label}-{r}"), ev)
            dt, _ = timed_playbook(inv, "playbooks/deploy.yml", "-e", "@" + ev.name, tree=tree, extra_env=dict(tenv, **{
                "SPECDEPLOY_BENCH_TIMING": timing,
                "ANSIBLE_CALLBACK_PLUGINS": CALLBACKS,
                "ANSIBLE_CALLBACKS_ENABLED": ",".join(filter(None, ["bench_timing", os.environ.get("BENCH_EXTRA_CALLBACKS")]))}))
            fixed, rounds = cut_timings(timing)
            if sorted(h for rd in rounds for h in rd["hosts"]) != sorted(names):
                raise SystemExit(f"bench: expected one round per host, got {[rd['hosts'] for rd in rounds]}")
            smp = samples[label]
            smp["run_wall_s"].append(dt)
            smp["fixed_before_s"].append(fixed["before_first_round_s"])
            smp["fixed_after_s"].append(fixed["after_last_round_s"])
            for rd in rounds:
                smp["round_wall_s"].append(rd["wall_s"])
                smp["tasks_per_round"].append(rd["tasks"])
                smp["includes_per_round"].append(rd["includes"])
                smp["skipped_per_round"].append(rd["results_skipped"])
                smp["module_tasks_per_round"].append(rd["module_tasks"])
                for name, sec in rd["per_task_s"].items():
                    per_task[label][name].append(sec)
                per_task[label]["(between tasks: controller, includes, forks)"].append(rd["wall_s"] - rd["in_tasks_s"])
            print(f"bench round: run {r + 1} {label}: {dt:.1f} s, rounds {[round(rd['wall_s'], 1) for rd in rounds]}, "
                  f"load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    m_healthy = statistics.median(healthy)
    out = {"hosts": len(names), "runs_per_checkout": runs,
           "start_to_healthy_s": [round(x, 2) for x in healthy], "median_start_to_healthy_s": round(m_healthy, 2),
           "goal_overhead_per_round_s": "<= 10"}
    for label, tree, _ in trees:
        smp = samples[label]
        med = {k: round(statistics.median(v), 2) for k, v in smp.items()}
        n_rounds = len(smp["round_wall_s"])
        top = sorted(((statistics.median(v + [0.0] * (n_rounds - len(v))), k) for k, v in per_task[label].items()),
                     reverse=True)
        out[label] = {"tree": tree, "commit": sh(["git", "-C", tree, "rev-parse", "--short", "HEAD"]).stdout.strip(),
                      "rounds": n_rounds, "samples": {k: [round(x, 2) for x in v] for k, v in smp.items()},
                      "median": med, "overhead_per_round_s": round(med["round_wall_s"] - m_healthy, 2),
                      "round_time_per_task_median_s": [[round(s_, 2), k] for s_, k in top if s_ >= 0.05]}
    if against:
        out["round_wall_ratio_this_over_against"] = round(
            out["this"]["median"]["round_wall_s"] / out["against"]["median"]["round_wall_s"], 3)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["rollout", "noop", "round", "all"])
    p.add_argument("--hosts", type=int, default=None, help="hosts (default 4; 2 for round)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--keep", action="store_true", help="keep the bench hosts")
    p.add_argument("--reuse", action="store_true",
                   help="round: use the bench hosts a --keep run left (already deployed) instead of new ones")
    p.add_argument("--against", metavar="CHECKOUT",
                   help="round: another checkout of this repo (e.g. `git worktree add /tmp/base main`) whose "
                        "deploy.yml runs alternating with this one's on the same hosts: the baseline of a change")
    p.add_argument("--env", choices=["prebuilt", "install"], default="prebuilt",
                   help="prebuilt (default): hosts mount the LAB-ONLY prebuilt SGLang env, as the fleet scenario "
                        "does; install: every host installs the 2.9 GB env itself (on this one machine the "
                        "N hosts' installs share its cores, which real hosts do not)")
    args = p.parse_args(argv)
    if args.hosts is None:
        args.hosts = 2 if args.what == "round" else 4
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
        if args.what == "round":
            fleet = [f"bench-{i}" for i in range(1, args.hosts + 1)]
            if not args.reuse:
                start_hosts(fleet, args.env == "prebuilt")
                if args.env == "prebuilt":
                    link_prebuilt(inventory(fleet))
                timed_playbook(inventory(fleet), "playbooks/deploy.yml")
            result["round"] = bench_round(fleet, args.runs, args.against)
    finally:
        if not args.keep:
            remove_hosts(fleet)
    result["machine"]["load_after"] = os.getloadavg()
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
