#!/usr/bin/env python3
"""Weights bench: our module_utils against the usual tools, side by side on the same files.

  1. deep verify of the published copy (what runs before a restart): weights.check_published (its recorded
     manifest, sizes, full sha256 in one pool of threads) vs `sha256sum` run in parallel (xargs -P <cores>)
     over the same published files; goal >= 1.0x. Rounds alternate ours / sha256sum back to back; the
     median of the per-round ratios is reported next to the ratio of the medians.
  2. first stage from a mirror: weights.stage (copy with sha256 in the same pass, fdatasync of every
     file and fsync of every directory before the atomic publish) vs `rsync -a` (copy only, nothing
     synced to disk); goal >= 0.9x. Rounds alternate which side goes first, with a `sync` before each
     round so no side pays for the other's writeback; the load average before and after is printed.
  3. re-stage of the unchanged model: bytes moved and seconds; goal 0 bytes, <= 2 s

Test data: a few hundred MB of random files shaped like a sharded checkpoint (generated, not a model).
The page cache is warm for both sides of each comparison (each side runs once before the --repeat timed
runs), so the figures compare CPU/copy paths, not disk reads. First stage also
reports CPU seconds (user + system) of each side: on a shared machine they move much less than wall time,
and the median of the per-round ratios (each round runs ours then rsync back to back), which load drift
moves less than the ratio of the two best times.
--profile adds where the stage's time goes (seconds summed over the workers): reads, writes, fdatasync
per file, the early writeback hints, directory/manifest fsyncs, and the rest of the copy loop (sha256
and Python).
Usage: bench/weights_bench.py [--mb 512] [--repeat 5] [--dir /tmp/specdeploy-bench] [--profile] [--workers N]
"""
import argparse
import json
import os
import resource
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


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def profile_stage(models, man, src, workers=0):
    """One more first stage with the weights module's system calls timed (summed over the workers)."""
    import threading
    spent, lock, saved = {}, threading.Lock(), []

    def timed(owner, name, key):
        real = getattr(owner, name)
        saved.append((owner, name, real))

        def call(*a):
            t = time.perf_counter()
            try:
                return real(*a)
            finally:
                with lock:
                    spent[key] = spent.get(key, 0.0) + time.perf_counter() - t
        setattr(owner, name, call)

    for owner, name, key in ((w.os, "preadv", "read"), (w.os, "pwrite", "write"),
                             (w.os, "fdatasync", "fdatasync_files"), (w.os, "posix_fadvise", "writeback_start"),
                             (w.os, "fsync", "fsync_dirs_manifest"), (w, "_copy_hashed", "copy_loop_total")):
        timed(owner, name, key)
    t = time.perf_counter()
    try:
        w.stage(models, "bench/model", "c0", man, source_dir=src, workers=workers)
    finally:
        for owner, name, real in reversed(saved):
            setattr(owner, name, real)
    out = {k: round(v, 3) for k, v in sorted(spent.items())}
    out["sha256_and_python"] = round(spent["copy_loop_total"] - sum(
        spent.get(k, 0.0) for k in ("read", "write", "fdatasync_files", "writeback_start")), 3)
    out["wall"] = round(time.perf_counter() - t, 3)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", default="/tmp/specdeploy-bench")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--workers", type=int, default=0, help="stage workers (0: the module's default)")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    src = os.path.join(args.dir, "mirror")
    make_files(src, args.mb)
    man = w.make_manifest(src)
    total = sum(e["size"] for e in man.values())
    files = sorted(os.path.join(src, r) for r in man)
    out = {"bytes": total, "files": len(files), "cores": cores}

    # 2. first stage vs rsync -a
    models = os.path.join(args.dir, "models")
    dst_rsync = os.path.join(args.dir, "rsync-dst")

    def clean():
        for d in (models, dst_rsync):
            if os.path.isdir(d):
                subprocess.run(["chmod", "-R", "u+w", d], check=True)
                shutil.rmtree(d)

    def cpu(who):
        r = resource.getrusage(who)
        return r.ru_utime + r.ru_stime

    stage_times, rsync_times, stage_cpu, rsync_cpu, rsync_synced_times, floor_times = [], [], [], [], [], []
    def run_ours():
        t, c = time.perf_counter(), cpu(resource.RUSAGE_SELF)
        res = w.stage(models, "bench/model", "c0", man, source_dir=src, workers=args.workers)
        return res, time.perf_counter() - t, cpu(resource.RUSAGE_SELF) - c

    def run_rsync():
        t, c = time.perf_counter(), cpu(resource.RUSAGE_CHILDREN)
        subprocess.run(["rsync", "-a", src + "/", dst_rsync + "/"], check=True)
        tr, cr = time.perf_counter() - t, cpu(resource.RUSAGE_CHILDREN) - c
        # reference only: the same copy made durable as ours is (coreutils `sync --data` = fdatasync per file)
        t = time.perf_counter()
        subprocess.run(["sync", "--data"] + [os.path.join(dst_rsync, r) for r in man], check=True)
        return tr, cr, time.perf_counter() - t

    floor_dir = os.path.join(args.dir, "floor")

    def run_floor():
        # reference: the fastest durable write of these bytes found on this disk, with nothing else to do
        # (no hashing, no renames): every file copied by its own `dd oflag=direct` (each block on the disk
        # when dd returns), all at once. `rsync -a` finishes sooner only because it leaves the bytes in RAM.
        os.makedirs(floor_dir)
        t = time.perf_counter()
        procs = [subprocess.Popen(["dd", "if=" + f, "of=" + os.path.join(floor_dir, "%d" % n), "bs=8M",
                                   "oflag=direct", "status=none"]) for n, f in enumerate(files)]
        if any(p.wait() for p in procs):
            raise SystemExit("dd oflag=direct failed on %s" % floor_dir)
        took = time.perf_counter() - t
        shutil.rmtree(floor_dir)
        return took

    loads = [os.getloadavg()[0]]
    for i in range(args.repeat + 1):
        clean()
        subprocess.run(["sync"], check=True)  # neither side pays for the other's (or the last round's) writeback
        if i % 2:  # alternate which side goes first: load drift within a round favours neither
            tr, cr, tsync = run_rsync()
            ours_stage, ts, cs = run_ours()
        else:
            ours_stage, ts, cs = run_ours()
            tr, cr, tsync = run_rsync()
        subprocess.run(["sync"], check=True)
        tf = run_floor()
        if i:  # first round warms up
            stage_times.append(ts)
            rsync_times.append(tr)
            rsync_synced_times.append(tr + tsync)
            floor_times.append(tf)
            stage_cpu.append(cs)
            rsync_cpu.append(cr)
    loads.append(os.getloadavg()[0])
    pairs = sorted(r / o for o, r in zip(stage_times, rsync_times))
    out["first_stage"] = {"ours_s": round(min(stage_times), 3), "rsync_a_s": round(min(rsync_times), 3),
                          "ours_median_s": round(median(stage_times), 3), "rsync_a_median_s": round(median(rsync_times), 3),
                          "ratio": round(min(rsync_times) / min(stage_times), 2),
                          "ratio_of_medians": round(median(rsync_times) / median(stage_times), 2),
                          "runs": args.repeat,
                          # each round runs ours then rsync back to back: the median of the per-round
                          # ratios is steadier than best-of when the machine's load drifts
                          "ratio_median_of_rounds": round(pairs[len(pairs) // 2], 2),
                          "ratio_rounds": [round(x, 2) for x in pairs],
                          # reference: rsync -a then `sync --data` of its files (durable like ours)
                          "rsync_a_then_sync_median_s": round(median(rsync_synced_times), 3),
                          "ratio_vs_rsync_then_sync_median_of_rounds": round(median(
                              [r / o for o, r in zip(stage_times, rsync_synced_times)]), 2),
                          # reference: the same files written with O_DIRECT, one dd per file at once
                          "durable_floor_median_s": round(median(floor_times), 3),
                          "ratio_vs_durable_floor_median_of_rounds": round(median(
                              [f / o for o, f in zip(stage_times, floor_times)]), 2),
                          "ours_cpu_s": round(min(stage_cpu), 3), "rsync_a_cpu_s": round(min(rsync_cpu), 3),
                          "ours_includes": "copy hashing each chunk once + fdatasync per file + dir fsyncs + publish",
                          "workers": args.workers or w.stage_workers(),
                          "loadavg_1min_before_after": [round(x, 2) for x in loads],
                          "bytes_copied": ours_stage["bytes_copied"]}
    if args.profile:
        clean()
        subprocess.run(["sync"], check=True)
        out["first_stage"]["profile_s"] = profile_stage(models, man, src, args.workers)

    # 1. deep verify of the published copy vs parallel sha256sum on the same files
    clean()
    published = w.stage(models, "bench/model", "c0", man, source_dir=src)["path"]
    pub_files = sorted(os.path.join(published, r) for r in man)

    def ours_check():
        res = w.check_published([published])
        assert res["problems"] == [] and res["bytes_checked"] == total

    def sha256sum():
        subprocess.run("printf '%%s\\0' %s | xargs -0 -n1 -P%d sha256sum >/dev/null" % (
            " ".join("'%s'" % f for f in pub_files), cores), shell=True, check=True)

    ours_check()
    sha256sum()  # warm the page cache for both
    t_ours, t_ref = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        ours_check()
        t_ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        sha256sum()
        t_ref.append(time.perf_counter() - t)
    rounds = sorted(r / o for o, r in zip(t_ours, t_ref))
    out["deep_verify"] = {"ours_median_s": round(median(t_ours), 3), "sha256sum_parallel_median_s": round(median(t_ref), 3),
                          "ours_MiB_s": round(total / 1048576 / median(t_ours)),
                          "sha256sum_MiB_s": round(total / 1048576 / median(t_ref)),
                          "ratio_of_medians": round(median(t_ref) / median(t_ours), 2),
                          "ratio_median_of_rounds": round(median(rounds), 2), "ratio_rounds": [round(x, 2) for x in rounds],
                          "runs": args.repeat}

    # 3. re-stage unchanged
    t = time.perf_counter()
    again = w.stage(models, "bench/model", "c0", man, source_dir=src)
    out["restage"] = {"seconds": round(time.perf_counter() - t, 3), "bytes_copied": again["bytes_copied"],
                      "changed": again["changed"]}
    clean()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
