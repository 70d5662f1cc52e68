# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What status.yml reports, as pure functions the `status_report` action calls.

Per host, one row per instance (`host_rows`) from the registered results of server_plan action=status (the
release, unit, health, server info, metrics and drift the host reports) and of smoke_decode (does the server
generate: a short deterministic decode, looped over the instances); a host of the run without rows is
`unreachable` (`fleet_rows`). The fleet's files: status.json (`status_json`) and status.md (`status_md`);
with gateways, per gateway its workers against the rows (`gateway_doc`), gateway-status.json and .md.
Standard library only.
"""
from __future__ import annotations

import json

__metaclass__ = type

STEPS = ("host", "report", "gateway", "gateway_report")
# the status_report action's arguments (plugins/action/status_report.py; the module file documents them)
ARGUMENT_SPEC = dict(
    step=dict(type="str", required=True, choices=list(STEPS)),
    probe=dict(type="dict"),
    generate=dict(type="dict"),
    instances=dict(type="list", elements="str"),
    workers=dict(type="dict"),
    report_dir=dict(type="path"),
)
FACT = "specdeploy_status_host"
GATEWAY_FACT = "specdeploy_status_gateway"

MD_HEADER = ("| host | instance | release | previous | unit | health | SGLang | speculative | draft tokens | verify | "
             "draft attn | accept length (gate) | tokens/s (gate) | accept length (live) | tokens/s (live) | running | "
             "queued | errors | KV tokens/GPU | drift |")


def _dict(value):
    return value if isinstance(value, dict) else {}


def _first(items, default=None):
    return items[0] if items else default


def health_of(code, generated, not_gated=None):
    """`running release not gated (release <id>: ...)` when the release the instance runs never finished its
    gate (its host was lost during the gate); else `healthy` (answers /health and generates), `answers
    /health, does not generate (<why>)`, `unhealthy (HTTP <code>)` or `down`."""
    if not_gated:
        return ("running release not gated (release %s: its gate did not finish; the next deploy gates it)"
                % not_gated)
    if code == 200:
        if generated.get("passed", False):
            return "healthy"
        why = _first(generated.get("failures") or [generated.get("msg", "no result")])
        return "answers /health, does not generate (%s)" % _text(why, none="None")
    return "unhealthy (HTTP %s)" % code if code > 0 else "down"


def host_rows(host, instances, probe, generate, checked_at):
    """The status rows of a host: instances are the names of its server_instances; probe the registered
    result of server_plan action=status; generate the registered result of smoke_decode looped over
    (instance, probe) pairs (an item skipped when the instance does not answer /health)."""
    probe = _dict(probe)
    generate = _dict(generate)
    probes = probe.get("instances") or []
    results = generate.get("results") or []
    drift = [d.get("what") for d in probe.get("drift") or []]
    rows = []
    for i, name in enumerate(instances):
        p = _dict(probes[i]) if i < len(probes) else {}
        gate = p.get("gate") or {}
        run = p.get("release") or {}
        smoke = gate.get("smoke") or {}
        fit = gate.get("memory_fit") or {}
        code = p.get("health") or -1
        si = p.get("server_info") or {}
        unit = _dict(p.get("unit_state", {}))
        gen = (results[i] if i < len(results) else None) or {}
        live = p.get("metrics") or {"state": "off"}
        serving = code == 200
        rows.append({
            "host": host, "instance": name,
            "release": p.get("current"), "previous_release": p.get("previous"),
            "unit": unit.get("ActiveState", "unknown"), "url": p.get("url"),
            "active_since": unit.get("ActiveEnterTimestamp", ""),
            "restarts": unit.get("NRestarts"),
            "health": health_of(code, gen, p.get("not_gated")),
            "generates": gen.get("passed", False) if serving else None,
            "generate_output": _dict(_first(gen.get("outputs") or [{}])).get("text") if serving else None,
            "checked_at": checked_at,
            "last_gate": gate.get("status"),
            "release_created": gate.get("created"),
            "sglang_version": si["version"] if "version" in si else run.get("sglang_version"),
            "release_sglang_version": run.get("sglang_version"),
            "flags": run.get("argv", []),
            "pending": list(p.get("pending") or []) + ([p["record_error"]] if p.get("record_error") else []),
            "model_path": si.get("model_path"),
            "speculative_algorithm": si.get("speculative_algorithm"),
            "speculative_num_draft_tokens": si.get("speculative_num_draft_tokens"),
            "speculative_draft_attention_backend": si.get("speculative_draft_attention_backend"),
            "attention_backend": si.get("attention_backend"),
            "verify": run.get("verify"),
            "accept_length": smoke.get("accept_length"),
            "tokens_per_s": smoke.get("tokens_per_s"),
            "metrics": live.get("state"),
            "metrics_error": live.get("error"),
            "live_accept_length": live.get("accept_length") if run.get("algorithm") else None,
            "live_tokens_per_s": live.get("tokens_per_s"),
            "running_requests": live.get("running"),
            "queued_requests": live.get("queued"),
            "requests_total": live.get("requests_total"),
            "errors_total": live.get("errors_total"),
            "drift": list(drift),
            "memory_fit": fit.get("status"),
            "kv_tokens_per_gpu": fit.get("kv_tokens"),
            "measured_release": p.get("current") if smoke else None})
    return rows


def fleet_rows(hosts):
    """hosts: [(host, rows or None)] in run order -> every row; a host without rows is `unreachable`."""
    out = []
    for host, rows in hosts:
        out.extend(rows) if rows else out.append({"host": host, "instance": "-", "health": "unreachable"})
    return out


def document(rows):
    return {"report": "status", "hosts": rows}


def status_json(rows):
    return json.dumps(document(rows), indent=2, sort_keys=True) + "\n"


def counts(rows):
    """{health: number of rows} (the job artifact's counts)."""
    out = {}
    for r in sorted(rows, key=lambda r: r["health"]):
        out[r["health"]] = out.get(r["health"], 0) + 1
    return out


def _text(value, none=""):
    """A value in a Markdown cell (none prints as `none`: empty, as Ansible's templates printed it)."""
    return none if value is None else str(value)


def _or(value, default):
    return value if value else default


def _int(value):
    """An integer the way Jinja's `int` filter makes one (0 when it cannot)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        try:
            return int(float(value))
        except (TypeError, ValueError):
            return 0


def _md_row(r):
    live = _or(r.get("metrics"), "off") == "ok"
    drift = r.get("drift") or []
    cells = [
        r["host"], r["instance"], _or(r.get("release"), "-"), _or(r.get("previous_release"), "-"),
        _or(r.get("unit"), "-"), r["health"], _or(r.get("sglang_version"), "-"),
        _or(r.get("speculative_algorithm"), "off"), _or(r.get("speculative_num_draft_tokens"), "-"),
        _or(r.get("verify"), "-"), _or(r.get("speculative_draft_attention_backend"), "-"),
        _or(r.get("accept_length"), "-"), _or(r.get("tokens_per_s"), "-"),
        (r.get("live_accept_length") if r.get("live_accept_length") is not None else "-") if live
        else _or(r.get("metrics"), "-"),
        r.get("live_tokens_per_s") if live else "-",
        r.get("running_requests") if live else "-",
        r.get("queued_requests") if live else "-",
        "%d of %d" % (_int(r.get("errors_total")), _int(r.get("requests_total"))) if live else "-",
        _or(_or(r.get("kv_tokens_per_gpu"), r.get("memory_fit")), "-"),
        len(drift) if drift else "none"]
    return "| " + " | ".join(_text(c) for c in cells) + " |"


def status_md(rows):
    lines = ["# specdeploy fleet status", "", MD_HEADER, "|" + "---|" * 20]
    lines += [_md_row(r) for r in rows]
    drifted = {}
    for r in rows:    # per host (sorted), the drift of its first row
        if r.get("drift"):
            drifted.setdefault(r["host"], r["drift"])
    if drifted:
        lines += ["", "## Drift", ""]
        lines += ["- %s: %s" % (host, what) for host in sorted(drifted) for what in drifted[host]]
    pending = [r for r in rows if r.get("pending")]
    if pending:
        lines += ["", "## Pending (the inventory differs from what runs; not deployed yet)", ""]
        lines += ["- %s/%s: %s" % (r["host"], r["instance"], "; ".join(_text(p) for p in r["pending"])) for r in pending]
    return "\n".join(lines) + "\n"


def gateway_doc(gateway, listing, rows):
    """A gateway's workers (gateway_workers action=list: {workers: {url: {healthy, status, load}}, fleet:
    [{url, host, instance}], unknown, missing}) with the release each owner's status row reports."""
    listing = _dict(listing)
    owners = dict((o.get("url"), o) for o in listing.get("fleet") or [])
    release = dict(((r.get("host"), r.get("instance")), r.get("release")) for r in rows or [])
    workers = []
    for url, w in (listing.get("workers") or {}).items():
        o = owners.get(url)
        workers.append({"url": url, "host": o.get("host") if o else None, "instance": o.get("instance") if o else None,
                        "healthy": w.get("healthy"), "status": w.get("status"), "in_flight": w.get("load"),
                        "release": release.get((o.get("host"), o.get("instance"))) if o else None})
    return {"gateway": gateway, "workers": workers, "unknown": listing.get("unknown"),
            "missing": listing.get("missing")}


def gateway_json(gateways):
    return json.dumps(gateways, indent=4, sort_keys=True)


def gateway_md(gateways):
    lines = ["# Gateways"]
    for g in gateways:
        lines += ["", "## %s" % g["gateway"], "", "| worker | host | instance | release | health | status | in flight |",
                  "|---|---|---|---|---|---|---|"]
        for w in g["workers"]:
            lines.append("| %s |" % " | ".join(_text(c) for c in (
                w["url"], w["host"] or "NO INVENTORY HOST", w["instance"] or "-", w["release"] or "-",
                "healthy" if w["healthy"] else "unhealthy", w["status"], w["in_flight"])))
        for m in g.get("missing") or []:
            lines.append("| %s | %s | %s | - | MISSING from the gateway | - | - |" % (
                _text(m.get("url")), _text(m.get("host")), _text(m.get("instance"))))
    return "\n".join(lines) + "\n"


def gateway_lines(g):
    """The gateway's lines in the play's output: `<url>: healthy|unhealthy`, unknown and missing workers."""
    lines = ["%s: %s" % (w["url"], "healthy" if w["healthy"] else "unhealthy") for w in g["workers"]]
    if g.get("unknown"):
        lines.append("routes to %s: no inventory host owns it" % ", ".join(g["unknown"]))
    if g.get("missing"):
        lines.append("lacks %s" % ", ".join(_text(m.get("url")) for m in g["missing"]))
    return lines
