# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SGLang's own metrics: GET /metrics (Prometheus text) of a server started with --enable-metrics.

- parse(): the Prometheus text exposition format (0.0.4) into {name: [(labels, value), ...]};
- figures(): the figures status.yml reports per instance (live accept length, generation throughput,
  running and queued requests, requests and errors so far), by the names of the release's `metrics`
  trait (sglang_engine/releases.py): the names differ between releases, the code here does not;
- fetch(): the text from the server on the host, through smoke.Http (no proxy: server_common.local_opener);
- window() / analyse(): the canary analysis, two readings some seconds apart under traffic, compared
  with thresholds (minimum accept length, minimum throughput, maximum error rate).

Hand-written rather than prometheus_client's parser: the modules run on the host's own Python, which
has no prometheus_client (it is in the SGLang env, not beside Ansible). Standard library only,
importable without Ansible. docs/metrics.md describes the figures and their SGLang sources.
"""
from __future__ import annotations

import math
import re
import time

from ansible_collections.specdeploy.sglang.plugins.module_utils import smoke
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases

__metaclass__ = type

PATH = "/metrics"
_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|\})')
_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}
# figures a threshold may name, and which way it fails
THRESHOLDS = {"min_accept_length": "accept_length", "min_tokens_per_s": "tokens_per_s",
              "max_error_rate": "error_rate"}


class MetricsError(ValueError):
    """Text that is not Prometheus exposition format, or bad input (a message a person can act on)."""


def _value(text, lineno):
    low = text.lower()
    if low in ("nan",):
        return float("nan")
    if low in ("+inf", "inf"):
        return float("inf")
    if low == "-inf":
        return float("-inf")
    try:
        return float(text)
    except ValueError:
        raise MetricsError("line %d: %r is not a sample value" % (lineno, text))


def _unescape(value):
    return re.sub(r'\\[\\"n]', lambda m: _ESCAPES[m.group(0)], value)


def parse(text):
    """{metric name: [(labels dict, value float), ...]} of Prometheus text; # HELP / # TYPE and blank
    lines are skipped, a timestamp after the value is ignored. Raises MetricsError on a bad line."""
    if not isinstance(text, str):
        raise MetricsError("the /metrics answer is not text (%s)" % type(text).__name__)
    out = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _NAME.match(line)
        if not match:
            raise MetricsError("line %d: no metric name in %r" % (lineno, line[:80]))
        name, rest = match.group(0), line[match.end():]
        labels = {}
        if rest.startswith("{"):
            pos = 1
            if rest[pos:].lstrip().startswith("}"):
                pos = rest.index("}") + 1
            else:
                while True:
                    lab = _LABEL.match(rest, pos)
                    if not lab:
                        raise MetricsError("line %d: bad labels in %r" % (lineno, line[:120]))
                    labels[lab.group(1)] = _unescape(lab.group(2))
                    pos = lab.end()
                    if lab.group(3) == "}":
                        break
                    if rest[pos:].lstrip().startswith("}"):  # a trailing comma
                        pos = rest.index("}", pos) + 1
                        break
            rest = rest[pos:]
        fields = rest.split()
        if not fields or len(fields) > 2:
            raise MetricsError("line %d: expected a value (and an optional timestamp) in %r" % (lineno, line[:120]))
        out.setdefault(name, []).append((labels, _value(fields[0], lineno)))
    return out


def names(version):
    """(release the names come from, the `metrics` trait): the release itself, else the nearest older one
    (a newer release than the table knows keeps the last known names), else (None, None)."""
    rel = releases.release(version)  # a release without a table of its own: the nearest older one's traits
    if rel is None:
        return None, None
    return rel.get("traits_from") or rel["version"], rel["metrics"]


def _finite(value):
    return value is not None and not math.isnan(value) and not math.isinf(value)


def _sum(samples, wanted, where=None):
    """Sum of the samples of every name in `wanted` (None when none of them is in the text)."""
    total, seen = 0.0, False
    for name in wanted or ():
        for labels, value in samples.get(name, ()):
            if where is not None and not where(labels):
                continue
            if _finite(value):
                total += value
                seen = True
    return total if seen else None


def _mean(samples, wanted):
    values = [v for name in wanted or () for _l, v in samples.get(name, ()) if _finite(v)]
    return sum(values) / len(values) if values else None


def _server_errors(labels):
    return str(labels.get("status_code", "")).startswith("5")


def figures(samples, version):
    """The figures of one reading (`samples`: parse()'s) by the release's names:
    accept_length (SGLang's gauge of its last decode log interval; 0 without speculative decoding),
    tokens_per_s (gen_throughput, the same interval), running, queued (every queue gauge summed),
    requests_total, errors_total (aborted requests, failed PD transfers and HTTP 5xx answers),
    generation_tokens_total, verify_calls_total (None where the release has no such counter)."""
    release, table = names(version)
    if table is None:
        raise MetricsError(releases.unknown_version_message(version))
    errors = _sum(samples, table["errors_total"])
    http5xx = _sum(samples, table["http_responses_total"], _server_errors)
    if http5xx is not None:
        errors = (errors or 0.0) + http5xx
    out = {
        "names_from": release,
        "accept_length": _mean(samples, table["accept_length"]),
        "tokens_per_s": _sum(samples, table["throughput"]),
        "running": _sum(samples, table["running"]),
        "queued": _sum(samples, table["queued"]),
        # a counter SGLang creates at the first request: absent before any traffic means 0
        "requests_total": _sum(samples, table["requests_total"]) or 0.0,
        "errors_total": errors or 0.0,
        "generation_tokens_total": _sum(samples, table["generation_tokens_total"]) or 0.0,
        "verify_calls_total": _sum(samples, table["verify_calls_total"]) if table["verify_calls_total"] else None,
    }
    # the scheduler's gauges exist from the start: missing ones mean names this table does not know
    out["missing"] = [", ".join(table[trait]) for key, trait in (("running", "running"), ("queued", "queued"),
                                                                 ("tokens_per_s", "throughput")) if out[key] is None]
    for key in ("running", "queued"):
        if out[key] is not None:
            out[key] = int(out[key])
    for key in ("accept_length", "tokens_per_s"):
        if out[key] is not None:
            out[key] = round(out[key], 3)
    return out


def read(text, version):
    """figures() of a /metrics answer's text."""
    return figures(parse(text), version)


def fetch(http):
    """(HTTP status, text) of GET /metrics with a smoke.Http client (the proxy-less opener)."""
    status, body = http.request("GET", PATH)
    if status == 200 and not isinstance(body, str):  # an answer that happened to be JSON is not Prometheus text
        raise MetricsError("GET %s answered JSON, not Prometheus text" % PATH)
    return status, body


def probe(http, version):
    """What status.yml shows for one instance: {state, ...figures} with state `ok`, `off` (HTTP 404: the
    server runs without --enable-metrics) or `error` (with `error`)."""
    try:
        status, body = fetch(http)
    except (OSError, MetricsError) as exc:
        return {"state": "error", "error": "GET %s: %s" % (PATH, getattr(exc, "reason", exc))}
    if status == 404:
        return {"state": "off", "error": "GET %s: 404 (started without --enable-metrics)" % PATH}
    if status != 200:
        return {"state": "error", "error": "GET %s: HTTP %s" % (PATH, status)}
    try:
        return dict(read(body, version), state="ok")
    except MetricsError as exc:
        return {"state": "error", "error": "GET %s: %s" % (PATH, exc)}


# ---- the canary analysis ------------------------------------------------------------------------

def window(before, after, seconds):
    """The figures of a window between two readings (figures() each) `seconds` apart:
    tokens_per_s = generated tokens / seconds; error_rate = errors / requests finished in the window
    (0 when no request came); accept_length = generated tokens / verify passes where the release table
    names a verify counter, else SGLang's gauge at the end; requests, errors, tokens in the window."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise MetricsError("the window must last a positive number of seconds, got %r" % (seconds,))
    tokens = after["generation_tokens_total"] - before["generation_tokens_total"]
    requests = after["requests_total"] - before["requests_total"]
    errors = after["errors_total"] - before["errors_total"]
    if tokens < 0 or requests < 0 or errors < 0:
        raise MetricsError("a counter went down during the window: the server restarted")
    accept = after.get("accept_length")
    source = "gauge"
    if before.get("verify_calls_total") is not None and after.get("verify_calls_total") is not None:
        calls = after["verify_calls_total"] - before["verify_calls_total"]
        if calls > 0:
            accept, source = round(tokens / calls, 3), "counters"
    return {"seconds": seconds, "requests": int(requests), "errors": int(errors), "tokens": int(tokens),
            "tokens_per_s": round(tokens / seconds, 3), "error_rate": round(errors / requests, 4) if requests else 0.0,
            "accept_length": accept, "accept_length_from": source}


def check_thresholds(thresholds):
    """The thresholds as a dict; unknown names or values that are not numbers raise MetricsError."""
    thresholds = dict(thresholds or {})
    unknown = sorted(set(thresholds) - set(THRESHOLDS))
    if unknown:
        raise MetricsError("unknown canary thresholds %s; known: %s" % (
            ", ".join(unknown), ", ".join(sorted(THRESHOLDS))))
    for name, value in thresholds.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise MetricsError("canary threshold %s must be a number, got %r" % (name, value))
    return thresholds


def analyse(win, thresholds, speculative=True, min_requests=1):
    """The canary's verdict on a window(): {passed, failures, window, thresholds}. Thresholds (None: not
    checked): min_accept_length (speculative instances only), min_tokens_per_s, max_error_rate. A window
    with fewer than `min_requests` requests fails: no traffic is no evidence."""
    thresholds = check_thresholds(thresholds)
    failures = []
    if win["requests"] < (min_requests or 0):
        failures.append("only %d request(s) in %ss of traffic (at least %d needed to judge the canary)"
                        % (win["requests"], win["seconds"], min_requests))
    low = thresholds.get("min_accept_length")
    if low is not None and speculative:
        if win["accept_length"] is None or win["accept_length"] < low:
            failures.append("accept length %s < %s" % (win["accept_length"], low))
    low = thresholds.get("min_tokens_per_s")
    if low is not None and win["tokens_per_s"] < low:
        failures.append("generation throughput %s tokens/s < %s" % (win["tokens_per_s"], low))
    high = thresholds.get("max_error_rate")
    if high is not None and win["error_rate"] > high:
        failures.append("error rate %s (%d of %d requests) > %s" % (win["error_rate"], win["errors"],
                                                                    win["requests"], high))
    return {"passed": not failures, "failures": failures, "window": win, "thresholds": thresholds}


def canary(targets, seconds, thresholds, min_requests=1, http_for=None, sleep=None):
    """The canary analysis of one host: read /metrics of every target ({name, url, sglang_version,
    speculative}), wait `seconds` under the traffic the host serves, read again, and judge each window
    (analyse()). {passed, instances: {name: verdict}, failures: ["<name>: <why>", ...]}. A target whose
    /metrics cannot be read (not enabled, down, a restart inside the window) fails: it gives no evidence."""
    http_for = http_for or (lambda url: smoke.Http(url, timeout=10))
    sleep = sleep or time.sleep
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise MetricsError("the analysis must last a positive number of seconds, got %r" % (seconds,))
    check_thresholds(thresholds)  # bad input is refused before any reading
    clients = dict((t["name"], http_for(t["url"])) for t in targets)
    first = dict((t["name"], probe(clients[t["name"]], t["sglang_version"])) for t in targets)
    sleep(seconds)
    out = {"passed": True, "instances": {}, "failures": []}
    for t in targets:
        name = t["name"]
        second = probe(clients[name], t["sglang_version"])
        bad = [r for r in (first[name], second) if r["state"] != "ok"]
        if bad:
            verdict = {"passed": False, "failures": ["/metrics %s: %s" % (bad[0]["state"], bad[0].get("error"))],
                       "window": None, "thresholds": dict(thresholds or {})}
        else:
            try:
                verdict = analyse(window(first[name], second, seconds), thresholds, bool(t.get("speculative")),
                                  min_requests)
            except MetricsError as exc:
                verdict = {"passed": False, "failures": [str(exc)], "window": None, "thresholds": dict(thresholds or {})}
        out["instances"][name] = verdict
        out["failures"].extend("%s: %s" % (name, why) for why in verdict["failures"])
        out["passed"] = out["passed"] and verdict["passed"]
    return out
