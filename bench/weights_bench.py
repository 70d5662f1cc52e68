#!/usr/bin/env python3
"""Weights bench: our module_utils against the usual tools, side by side on the same files.

  1. hash verification throughput: weights.verify_dir (parallel threads) vs `sha256sum` run in parallel
     (xargs -P <cores>) over the same files; goal >= 0.8x
  2. first stage from a mirror: weights.stage (copy + fsync + sha256 verify + publish) vs `rsync -a`
     (copy only); goal >= 0.8x
  3. re-stage of the unchanged model: bytes moved and seconds; goal 0 bytes, <= 2 s

Test data: a few hundred MB of random files shaped like a sharded checkpoint (generated, not a model).
The page cache is warm for both sides of each comparison (each side runs once before timing, then the
best of --repeat runs counts), so the figures compare CPU/copy paths, not disk reads.
Usage: bench/weights_bench.py [--mb 512] [--repeat 3] [--dir /tmp/specdeploy-bench]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.path.join(ROOT, ".lab", "pytree")
if not os.path.islink(os.path.join(TREE, "ansible_collections", "specdeploy", "sglang")):
    os.makedirs(os.path.join(TREE, "ansible_collections", "specdeploy"), exist_ok=True)
    os.symlink(ROOT, os.path.join(TREE, "ansible_collections", "specdeploy", "sglang"))
sys.path.insert(0, TREE)
from ansible_collections.specdeploy.sglang.plugins.module_utils import weights as w  # noqa: E402


def make_files(d, mb):
    os.makedirs(d, exist_ok=True)
    shards = max(2, mb // 64)
    per = mb * 1024 * 1024 // shards
    for i in range(shards):
        p = os.path.join(d, "model-%05d-of-%05d.safetensors" % (i + 1, shards))
        if not os.path.exists(p) or os.path.getsize(p) != per:
            with open(p, "wb") as f:
                left = per
                while left:
                    n = min(left, 8 << 20)
                    f.write(os.urandom(n))
                    left -= n
    for name, data in (("config.json", b'{"architectures": ["Qwen3ForCausalLM"]}'), ("tokenizer.json", b"{}" * 50000)):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def best(fn, repeat):
    fn()  # warm-up (page cache, imports)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/specdeploy-bench")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    src = os.path.join(args.dir, "mirror")
    make_files(src, args.mb)
    man = w.make_manifest(src)
    total = sum(e["size"] for e in man.values())
    files = sorted(os.path.join(src, r) for r in man)
    out = {"bytes": total, "files": len(files), "cores": cores}

    # 1. hashing
    def ours_hash():
        assert w.verify_dir(src, man) == []

    def sha256sum():
        subprocess.run("printf '%%s\\0' %s | xargs -0 -n1 -P%d sha256sum >/dev/null" % (
            " ".join("'%s'" % f for f in files), cores), shell=True, check=True)
    t_ours, t_ref = best(ours_hash, args.repeat), best(sha256sum, args.repeat)
    out["hash"] = {"ours_s": round(t_ours, 3), "sha256sum_parallel_s": round(t_ref, 3),
                   "ours_MiB_s": round(total / 1048576 / t_ours), "sha256sum_MiB_s": round(total / 1048576 / t_ref),
                   "ratio": round(t_ref / t_ours, 2)}

    # 2. first stage vs rsync -a
    models = os.path.join(args.dir, "models")
    dst_rsync = os.path.join(args.dir, "rsync-dst")

    def clean():
        for d in (models, dst_rsync):
            if os.path.isdir(d):
                subprocess.run(["chmod", "-R", "u+w", d], check=True)
                shutil.rmtree(d)

    stage_times, rsync_times = [], []
    ours_stage = {}
    for i in range(args.repeat + 1):
        clean()
        t = time.perf_counter()
        ours_stage = w.stage(models, "bench/model", "c0", man, source_dir=src)
        ts = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run(["rsync", "-a", src + "/", dst_rsync + "/"], check=True)
        tr = time.perf_counter() - t
        if i:  # first round warms up
            stage_times.append(ts)
            rsync_times.append(tr)
    out["first_stage"] = {"ours_s": round(min(stage_times), 3), "rsync_a_s": round(min(rsync_times), 3),
                          "ratio": round(min(rsync_times) / min(stage_times), 2),
                          "ours_includes": "copy + fsync per file + sha256 of every staged file + publish",
                          "bytes_copied": ours_stage["bytes_copied"]}

    # 3. re-stage unchanged
    t = time.perf_counter()
    again = w.stage(models, "bench/model", "c0", man, source_dir=src)
    out["restage"] = {"seconds": round(time.perf_counter() - t, 3), "bytes_copied": again["bytes_copied"],
                      "changed": again["changed"]}
    clean()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
