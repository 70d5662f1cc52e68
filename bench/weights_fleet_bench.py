#!/usr/bin/env python3
"""Fleet staging bench: one hub download for the fleet (weights_hub_fetch=controller) against every host
fetching from the hub (weights_hub_fetch=host), side by side, through the real weights role and the real
huggingface_hub client against the LAB-ONLY hub stand-in (molecule/shared/hub_standin.py).

Figures, per round (a round runs every case once, on empty models roots; the order rotates per round):
  fleet-1  controller fetch, 1 host        fleet-3  controller fetch, 3 hosts
  host-1   each host fetches, 1 host       host-3   each host fetches, 3 hosts
  - wall of ansible-playbook for each case; goal: fleet-3 / fleet-1 <= 1.3 (median of the per-round ratios)
  - bytes of files the stand-in served (its request log); goal: fleet-3 = 1x the model, host-3 = 3x

"Hosts" are local-connection inventory hosts on this machine, each with its own models root (the lab's
podman hosts are Molecule's; molecule/gpu_env_weights shows the same on three of them over ssh): the
controller-to-host copy is Ansible's copy over the local connection, every host still hashes and publishes
its own copy, and all of them share this machine's cores and disk. The stand-in serves from the local
disk with no bandwidth limit unless --hub-mbps is given (then all its connections share that rate, as
the hosts of a fleet share a rate-limited hub); an unthrottled local hub favours the per-host path.
Each case starts from empty models roots and an empty controller copy; the model directory is made once
(--mb MiB in 64 MiB shards, plus two small files; files of an earlier --mb are removed).
Each host's hub tool venv (weights_hub_tool_venv) is made once in a warm-up round from the lab
wheelhouse (.lab/wheelhouse) and kept, as a host keeps it between deploys.

Usage: bench/weights_fleet_bench.py [--mb 256] [--rounds 3] [--dir /tmp/specdeploy-fleet-bench] [--hub-mbps 0]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv", "bin")
STANDIN = os.path.join(ROOT, "molecule", "shared", "hub_standin.py")
PLAY = os.path.join(ROOT, "bench", "weights_fleet.yml")


def make_model(d, mb):
    os.makedirs(d, exist_ok=True)
    shards = max(2, mb // 64)
    per = mb * 1024 * 1024 // shards
    want = {"model-%05d-of-%05d.safetensors" % (i + 1, shards) for i in range(shards)} | {"config.json", "tokenizer.json"}
    for name in os.listdir(d):
        if name not in want:
            os.unlink(os.path.join(d, name))
    for i in range(shards):
        p = os.path.join(d, "model-%05d-of-%05d.safetensors" % (i + 1, shards))
        if not os.path.exists(p) or os.path.getsize(p) != per:
            with open(p, "wb") as f:
                for _ in range(per // (1 << 20)):
                    f.write(os.urandom(1 << 20))
    for name, body in (("config.json", '{"architectures": ["Qwen3ForCausalLM"]}'), ("tokenizer.json", "{}" * 5000)):
        with open(os.path.join(d, name), "w") as f:
            f.write(body)
    return sum(os.path.getsize(os.path.join(d, n)) for n in os.listdir(d))


def rmtree(d):
    if os.path.isdir(d):
        subprocess.run(["chmod", "-R", "u+w", d], check=True)
        shutil.rmtree(d)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def served_bytes(log):
    total = 0
    with open(log) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "GET" and "/resolve/" in parts[1]:
                total += int(parts[2])
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hosts", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/specdeploy-fleet-bench")
    ap.add_argument("--hub-mbps", type=float, default=0, help="the stand-in hub's total bandwidth, shared by all connections, MB/s (0: no limit)")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    total = make_model(os.path.join(args.dir, "src", "model"), args.mb)
    log = os.path.join(args.dir, "hub.log")
    ready = os.path.join(args.dir, "standin.ready")
    for f in (log, ready):
        if os.path.exists(f):
            os.unlink(f)
    cmd = [sys.executable, STANDIN, "--root", os.path.join(args.dir, "src"), "--repo", "bench/model=model",
           "--port", "0", "--log", log, "--ready-file", ready]
    if args.hub_mbps:
        cmd += ["--mbps", str(args.hub_mbps)]
    standin = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        commit = standin.stdout.readline().split()[-1]
        while not os.path.exists(ready):
            time.sleep(0.05)
        port = int(open(ready).read().split()[1])
        inv = os.path.join(args.dir, "inventory.json")
        hosts = ["h%d" % (i + 1) for i in range(args.hosts)]
        with open(inv, "w") as f:
            json.dump({"bench_hosts": {"hosts": {h: {
                "weights_models_root": os.path.join(args.dir, h, "models"),
                "weights_hub_tool_venv": os.path.join(args.dir, h, "tools", "hf"),
            } for h in hosts}, "vars": {"ansible_connection": "local", "ansible_python_interpreter": sys.executable}}}, f)
        env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=os.path.join(ROOT, ".lab", "collections"),
                   ANSIBLE_CONFIG=os.path.join(ROOT, "ansible.cfg"), PATH=VENV + ":" + os.environ["PATH"])
        wheelhouse = os.path.join(ROOT, ".lab", "wheelhouse")
        extra = {"bench_commit": commit, "weights_hf_endpoint": "http://127.0.0.1:%d" % port,
                 "weights_fleet_root": os.path.join(args.dir, "controller", "models"),
                 "weights_hub_tool_python": "/usr/bin/python3",
                 "weights_hub_tool_pip_args": ["--no-index", "--find-links", wheelhouse]}

        def run(fetch, n):
            for h in hosts:
                rmtree(os.path.join(args.dir, h, "models"))
            rmtree(os.path.join(args.dir, "controller"))
            open(log, "w").close()
            subprocess.run(["sync"], check=True)
            t = time.perf_counter()
            p = subprocess.run([os.path.join(VENV, "ansible-playbook"), "-i", inv, PLAY, "--limit", ",".join(hosts[:n]),
                                "-e", json.dumps(dict(extra, weights_hub_fetch=fetch))],
                               env=env, capture_output=True, text=True)
            took = time.perf_counter() - t
            if p.returncode:
                sys.stderr.write(p.stdout[-4000:] + p.stderr[-2000:])
                raise SystemExit("%s-%d failed" % (fetch, n))
            return took, served_bytes(log)

        cases = [("controller", 1), ("controller", args.hosts), ("host", 1), ("host", args.hosts)]
        walls = {c: [] for c in cases}
        hub = {}
        for r in range(args.rounds + 1):
            order = cases[r % len(cases):] + cases[:r % len(cases)]
            for c in order:
                took, served = run(*c)
                if r:  # round 0 warms up (page cache, the hosts' hub tool venvs)
                    walls[c].append(took)
                    hub[c] = served
                sys.stderr.write("round %d %s-%d: %.2f s, hub served %d bytes\n" % (r, c[0], c[1], took, served))
        name = {("controller", 1): "fleet_1", ("controller", args.hosts): "fleet_%d" % args.hosts,
                ("host", 1): "per_host_1", ("host", args.hosts): "per_host_%d" % args.hosts}
        out = {"model_bytes": total, "rounds": args.rounds, "cores": os.cpu_count(), "hub_mbps": args.hub_mbps,
               "load_after": round(os.getloadavg()[0], 2)}
        for c in cases:
            out[name[c]] = {"wall_median_s": round(median(walls[c]), 2), "walls_s": [round(x, 2) for x in walls[c]],
                            "hub_bytes": hub[c], "hub_copies": round(hub[c] / float(total), 3)}
        fl, fn = walls[cases[0]], walls[cases[1]]
        out["fleet_%d_over_fleet_1" % args.hosts] = {
            "median_of_rounds": round(median([b / a for a, b in zip(fl, fn)]), 3),
            "rounds": [round(b / a, 3) for a, b in zip(fl, fn)], "goal": "<= 1.3"}
        ph1, phn = walls[cases[2]], walls[cases[3]]
        out["per_host_%d_over_per_host_1" % args.hosts] = {
            "median_of_rounds": round(median([b / a for a, b in zip(ph1, phn)]), 3)}
        print(json.dumps(out, indent=1))
    finally:
        standin.kill()
        standin.wait()


if __name__ == "__main__":
    main()
