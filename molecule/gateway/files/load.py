#!/usr/bin/env python3
"""Bounded load through the gateway, run on the gateway host (stdlib only): a fixed number of /generate
requests at a fixed rate, each in its own thread (a slow answer does not slow the rate), and a watcher
that polls the gateway's GET /workers, recording when each worker left rotation (draining, unhealthy or
gone) and when it was back (healthy and ready). Stops by itself once every request has answered; prints
one JSON object: sent, ok, failed, the failures' reasons, p50/p99 latency (s), the transitions
(t seconds from the start), and the gateway's retry counter before and after (its Prometheus metrics).

    load.py --url http://127.0.0.1:8000 --metrics http://127.0.0.1:29000/metrics --count 300 --rate 2
"""
import argparse
import json
import threading
import time
import urllib.error
import urllib.request


def post(url, body, timeout):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return resp.status, json.loads(resp.read().decode() or "null")


def get_json(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return json.loads(resp.read().decode())


def retries(metrics_url):
    """Sum of smg_worker_retries_total (the gateway's retries of a request on another try)."""
    try:
        with urllib.request.urlopen(metrics_url, timeout=5) as resp:
            text = resp.read().decode()
    except (OSError, ValueError):
        return None
    total = 0.0
    for line in text.splitlines():
        if line.startswith("smg_worker_retries_total"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def percentile(values, q):
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(round(q * (len(values) - 1))))], 3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--metrics", default="")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--rate", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--max-new-tokens", type=int, default=8)
    args = ap.parse_args()
    base = args.url.rstrip("/")
    results, lock, done = [], threading.Lock(), threading.Event()
    start = time.monotonic()
    transitions, last = [], {}

    def watch():
        while not done.is_set():
            now = round(time.monotonic() - start, 2)
            try:
                workers = {w["url"]: w for w in get_json(base + "/workers")["workers"]}
            except (OSError, ValueError, KeyError) as exc:
                workers = None
                if last.get("_gateway") != "down":
                    transitions.append({"t": now, "worker": "gateway", "event": "unreachable: %s" % exc})
                    last["_gateway"] = "down"
            if workers is not None:
                last["_gateway"] = "up"
                for url in set(workers) | {u for u in last if not u.startswith("_")}:
                    w = workers.get(url)
                    state = "in" if w and w.get("is_healthy") and w.get("status") == "ready" else (
                        w.get("status") if w else "gone")
                    if last.get(url) != state:
                        if url in last or state != "in":
                            transitions.append({"t": now, "worker": url, "event": state})
                        last[url] = state
            time.sleep(0.25)

    def one(i):
        t0 = time.monotonic()
        body = {"text": "Request %d: the quick brown fox" % i,
                "sampling_params": {"temperature": 0, "max_new_tokens": args.max_new_tokens}}
        try:
            status, out = post(base + "/generate", body, args.timeout)
            ok = status == 200 and (out or {}).get("meta_info", {}).get("completion_tokens", 0) > 0
            why = None if ok else "status %s: %s" % (status, str(out)[:200])
        except urllib.error.HTTPError as exc:
            ok, why = False, "HTTP %s: %s" % (exc.code, exc.read().decode("utf-8", "replace")[:200])
        except OSError as exc:
            ok, why = False, "%s: %s" % (type(exc).__name__, exc)
        with lock:
            results.append({"i": i, "t": round(t0 - start, 2), "ok": ok,
                            "latency": time.monotonic() - t0, "error": why})

    retries_before = retries(args.metrics) if args.metrics else None
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    threads = []
    for i in range(args.count):
        delay = start + i / args.rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        t = threading.Thread(target=one, args=(i,), daemon=True)
        t.start()
        threads.append(t)
    for t in threads:
        t.join(args.timeout + 5)
    done.set()
    watcher.join(2)
    ok = [r for r in results if r["ok"]]
    failed = [r for r in results if not r["ok"]]
    print(json.dumps({
        "sent": args.count, "answered": len(results), "ok": len(ok), "failed": len(failed),
        "errors": [{"t": r["t"], "error": r["error"]} for r in failed][:20],
        "p50_s": percentile([r["latency"] for r in ok], 0.50),
        "p99_s": percentile([r["latency"] for r in ok], 0.99),
        "duration_s": round(time.monotonic() - start, 1),
        "rate": args.rate,
        "retries_before": retries_before,
        "retries_after": retries(args.metrics) if args.metrics else None,
        "transitions": transitions,
    }))


if __name__ == "__main__":
    main()
