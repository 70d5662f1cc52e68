# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fleet's Prometheus monitoring, written from the inventory (role specdeploy.sglang.monitoring):

- targets(): file_sd target groups, one per instance whose server exports /metrics, labelled with what it
  serves (host, instance, release, sglang_version, algorithm, verify, drafter), from the instance's current
  release record on the host where it was read, else from the inventory's spec (release "unknown");
- rules(): recording rules over SGLang's own series, by the names of every release's `metrics` trait
  (sglang_engine/releases.py: one definition with status.yml and the canary analysis), and alert rules
  whose thresholds are the deploy gate's (server_smoke_min_accept_length) and the canary analysis'
  (specdeploy_canary_analysis.thresholds.max_error_rate), per host;
- dashboard(): a Grafana dashboard over the recording rules; prometheus_config(): a scrape config that
  reads the targets and the rules (`promtool check config` checks it).

Standard library only, importable without Ansible. docs/metrics.md describes the series and alerts.
"""
from __future__ import annotations

import posixpath
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common as common
from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases

__metaclass__ = type

# the labels of every target, and of every recorded series (the recording rules aggregate by them)
LABELS = ("host", "instance", "release", "sglang_version", "algorithm", "verify", "drafter")
GROUP = "specdeploy-sglang"
UNKNOWN = "unknown"
NONE = "none"

# the recording rules: name -> (aggregation, metrics trait); {window} is the rate window
RECORDED = (
    ("specdeploy:accept_length", "avg", "accept_length"),
    ("specdeploy:generation_tokens_per_s", "sum", "throughput"),
    ("specdeploy:running_requests", "sum", "running"),
    ("specdeploy:queued_requests", "sum", "queued"),
    ("specdeploy:kv_cache_usage", "max", "kv_cache_usage"),
)


class MonitoringError(ValueError):
    """Bad input (a message a person can act on)."""


def metric_names(trait):
    """Every name the `metrics` trait gives for `trait` in any release the table knows, sorted: one
    selector then covers a fleet that runs several releases (names renamed between releases included)."""
    out = set()
    for version in releases.KNOWN_VERSIONS:
        out.update(releases.RELEASES[version]["metrics"].get(trait) or ())
    if not out:
        raise MonitoringError("no release names a /metrics series for %r" % trait)
    return sorted(out)


def exposed(name):
    """The names Prometheus may store for an SGLang metric: SGLang's own (`sglang:x`, as the text format and
    OpenMetrics with UTF-8 names give it) and the escaped one (`sglang_x`: prometheus_client answers a scraper
    that negotiates OpenMetrics without `escaping=allow-utf-8`, as Prometheus 2 does, with every `:` as `_`)."""
    escaped = name.replace(":", "_")
    return [name] if escaped == name else [name, escaped]


def selector(trait, matchers=""):
    """A PromQL selector of every name of the trait, in both exposed forms ({__name__=~"a|b"})."""
    names = [n for name in metric_names(trait) for n in exposed(name)]
    # metric names hold no regex metacharacters ([a-zA-Z0-9_:])
    return '{__name__=~"%s"%s}' % ("|".join(names), ", " + matchers if matchers else "")


def _by():
    return "by (job, %s)" % ", ".join(LABELS)


def _str(value):
    return UNKNOWN if value is None or value == "" else str(value)


def instance_labels(host, name, spec, release):
    """The labels of one instance's target, from its spec (the release record's or the inventory's)."""
    spec = spec if isinstance(spec, dict) else {}
    spec_cfg = spec.get("speculative") if isinstance(spec.get("speculative"), dict) else None
    drafter = NONE
    if spec_cfg and spec_cfg.get("draft_model_path"):
        drafter = posixpath.basename(str(spec_cfg["draft_model_path"]).rstrip("/")) or NONE
    return {
        "host": str(host),
        "instance": "%s/%s" % (host, name),
        "release": _str(release),
        "sglang_version": _str(spec.get("sglang_version")),
        "algorithm": str(spec_cfg.get("algorithm") or UNKNOWN) if spec_cfg else NONE,
        "verify": str(spec_cfg.get("verify") or "linear") if spec_cfg else NONE,
        "drafter": drafter,
    }


def _address(host, address, port):
    address = str(address or host)
    if ":" in address and not address.startswith("["):
        address = "[%s]" % address
    return "%s:%d" % (address, port)


def targets(hosts):
    """(target groups, unmonitored). `hosts`: {host: {address, instances: [{name, spec}], read: bool,
    links: {instance: {current, record}}}}. The labels come from the current release record when the host
    was read (`read`), else from the inventory's spec with release "unknown". An instance whose server does
    not export /metrics (its spec lacks enable_metrics) is no target - a scrape would fail as if it were
    down - and is listed in `unmonitored` ("<host>/<instance>: why")."""
    groups, unmonitored = [], []
    for host in sorted(hosts):
        info = hosts[host] or {}
        links = info.get("links") or {}
        for inst in info.get("instances") or []:
            if not isinstance(inst, dict) or not inst.get("name"):
                raise MonitoringError("%s: every server_instances entry needs a name" % host)
            name = inst["name"]
            link = links.get(name) or {}
            record = link.get("record") or {}
            rec_spec = (record.get("inputs") or {}).get("spec") if isinstance(record, dict) else None
            if info.get("read") and rec_spec:
                spec, release = rec_spec, link.get("current")
            elif info.get("read"):
                unmonitored.append("%s/%s: no current release on the host (not deployed yet)" % (host, name))
                continue
            else:
                spec, release = inst.get("spec") or {}, None
            if not spec.get("enable_metrics"):
                unmonitored.append("%s/%s: its spec does not set enable_metrics (no /metrics to scrape)" % (host, name))
                continue
            groups.append({"targets": [_address(host, info.get("address"), common.listen_port(spec))],
                           "labels": instance_labels(host, name, spec, release)})
    return groups, unmonitored


def gateway_targets(gateways):
    """Target groups of the gateways' own Prometheus endpoints: {host: {address, port}}."""
    return [{"targets": [_address(h, (gateways[h] or {}).get("address"), int((gateways[h] or {})["port"]))],
             "labels": {"host": str(h), "instance": "%s/gateway" % h}} for h in sorted(gateways)]


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MonitoringError("%s must be a number, got %r" % (name, value))
    return value


def _threshold_groups(thresholds, key):
    """{value: [instance, ...]} of the instances whose `key` threshold is set (None: not checked, as the gate)."""
    out = {}
    for inst in sorted(thresholds):
        value = (thresholds[inst] or {}).get(key)
        if value is None:
            continue
        out.setdefault(_number("%s of %s" % (key, inst), value), []).append(inst)
    return out


def _instances_matcher(instances):
    """instance=~"a/main|b/main" (regex metacharacters of host names escaped, as PromQL's string needs)."""
    return 'instance=~"%s"' % "|".join(re.sub(r"([.+*?()\[\]{}|^$\\])", r"\\\\\1", i) for i in instances)


def _fmt(value):
    return ("%g" % value) if isinstance(value, float) else str(value)


def rules(job, thresholds, settings):
    """The rule file (a dict for YAML): recording rules, then alerts.
    thresholds: {instance label: {min_accept_length, max_error_rate}} (None: that check is off for the
    instance, as in the gate); settings: rate_window, evaluation_interval, down_for, accept_length_for, queue_for,
    error_rate_for, release_drift_for (Prometheus durations)."""
    s = dict(settings)
    window = s["rate_window"]
    by = _by()
    job_m = 'job="%s"' % job
    recording = []
    for record, agg, trait in RECORDED:
        recording.append({"record": record, "expr": "%s %s (%s)" % (agg, by, selector(trait, job_m))})

    # Counters are summed per name, then added: rate() drops the metric name, so one rate() over several
    # names would hold series that differ by name only (an evaluation error). A counter SGLang has not
    # created yet (it appears at its first event) counts as 0: `or` the zero series of the instance
    # (every server answers its own /metrics scrapes, so sglang:http_responses_total exists).
    # (one metric's two exposed forms are alternatives: `or` keeps one per instance, so a Prometheus that
    # changed its scrape format inside the window does not count a counter twice)
    def rate_of(name, matchers=job_m):
        return " or ".join("sum %s (rate(%s{%s}[%s]))" % (by, n, matchers, window) for n in exposed(name))

    zero = "0 * (%s)" % rate_of(metric_names("http_responses_total")[0])

    def rate_sum(names, matchers=job_m):
        return " + ".join("(%s or %s)" % (rate_of(n, matchers), zero) for n in names)

    recording.append({"record": "specdeploy:requests:rate%s" % window,
                      "expr": rate_sum(metric_names("requests_total"))})
    # errors: aborted requests, failed PD transfers, and HTTP 5xx answers
    recording.append({"record": "specdeploy:errors:rate%s" % window,
                      "expr": rate_sum(metric_names("errors_total")) + " + " + rate_sum(
                          metric_names("http_responses_total"), job_m + ', status_code=~"5.."')})
    recording.append({"record": "specdeploy:error_ratio:rate%s" % window,
                      "expr": ("specdeploy:errors:rate%s / (specdeploy:requests:rate%s > 0)"
                               " or specdeploy:errors:rate%s * 0" % (window, window, window))})
    alerts = [{
        "alert": "SGLangDown",
        "expr": "up{%s} == 0" % job_m,
        "for": s["down_for"],
        "labels": {"severity": "critical"},
        "annotations": {"summary": "SGLang {{ $labels.instance }} does not answer /metrics",
                        "description": "Prometheus could not scrape {{ $labels.instance }} (release "
                                       "{{ $labels.release }}) for %s: the server is down or wedged. "
                                       "ansible-playbook specdeploy.sglang.status shows its unit and health."
                                       % s["down_for"]}}]
    for value, insts in sorted(_threshold_groups(thresholds, "min_accept_length").items()):
        alerts.append({
            "alert": "SGLangAcceptLengthLow",
            "expr": 'specdeploy:accept_length{%s, algorithm!="%s", %s} < %s' % (
                job_m, NONE, _instances_matcher(insts), _fmt(value)),
            "for": s["accept_length_for"],
            "labels": {"severity": "warning", "gate_min_accept_length": _fmt(value)},
            "annotations": {"summary": "{{ $labels.instance }} accepts {{ $value | printf \"%%.2f\" }} tokens per "
                                       "step, under the deploy gate's %s" % _fmt(value),
                            "description": "The accept length of {{ $labels.instance }} (drafter "
                                           "{{ $labels.drafter }}, release {{ $labels.release }}) stayed under "
                                           "server_smoke_min_accept_length (%s) for %s: a drafter that no longer "
                                           "matches its target makes speculation slower than none."
                                           % (_fmt(value), s["accept_length_for"])}})
    alerts.append({
        "alert": "SGLangQueueGrowing",
        "expr": "specdeploy:queued_requests{%s} > 0 and deriv(specdeploy:queued_requests{%s}[%s]) > 0" % (
            job_m, job_m, s["queue_for"]),
        "for": s["queue_for"],
        "labels": {"severity": "warning"},
        "annotations": {"summary": "{{ $labels.instance }} has {{ $value }} queued requests, growing",
                        "description": "Requests queue on {{ $labels.instance }} faster than it serves them "
                                       "(a wedged scheduler, or more traffic than the fleet holds)."}})
    for value, insts in sorted(_threshold_groups(thresholds, "max_error_rate").items()):
        alerts.append({
            "alert": "SGLangErrorRateHigh",
            "expr": "specdeploy:error_ratio:rate%s{%s, %s} > %s" % (window, job_m, _instances_matcher(insts), _fmt(value)),
            "for": s["error_rate_for"],
            "labels": {"severity": "warning", "max_error_rate": _fmt(value)},
            "annotations": {"summary": "{{ $labels.instance }} fails {{ $value | humanizePercentage }} of its "
                                       "requests",
                            "description": "Aborted requests, failed transfers and HTTP 5xx answers over "
                                           "requests, above the canary analysis' max_error_rate (%s)."
                                           % _fmt(value)}})
    alerts.append({
        "alert": "SGLangReleaseDrift",
        "expr": "count by (job) (count by (job, sglang_version) (up{%s})) > 1" % job_m,
        "for": s["release_drift_for"],
        "labels": {"severity": "warning"},
        "annotations": {"summary": "the fleet runs {{ $value }} SGLang releases",
                        "description": "Instances have served different SGLang releases for %s: a rollout that "
                                       "stopped (a failed canary) or ran on part of the fleet. specdeploy.sglang."
                                       "status lists each host's release." % s["release_drift_for"]}})
    return {"groups": [
        {"name": GROUP + "-recording", "interval": s["evaluation_interval"], "rules": recording},
        {"name": GROUP + "-alerts", "interval": s["evaluation_interval"], "rules": alerts}]}


def recorded_names(rule_file):
    """The record names of a rules() file, in order."""
    return [r["record"] for g in rule_file["groups"] for r in g["rules"] if "record" in r]


def dashboard(job, settings):
    """A Grafana dashboard (schema 39) over the recording rules; its datasource is a variable."""
    window = settings["rate_window"]
    ds = {"type": "prometheus", "uid": "${datasource}"}
    legend = "{{instance}} {{release}}"
    panels_spec = [
        ("Accept length (tokens per step)", "specdeploy:accept_length{job=\"%s\"}" % job, "none", legend),
        ("Generation tokens/s", "specdeploy:generation_tokens_per_s{job=\"%s\"}" % job, "none", legend),
        ("Running requests", "specdeploy:running_requests{job=\"%s\"}" % job, "none", legend),
        ("Queued requests", "specdeploy:queued_requests{job=\"%s\"}" % job, "none", legend),
        ("KV cache usage", "specdeploy:kv_cache_usage{job=\"%s\"}" % job, "percentunit", legend),
        ("Requests/s", "specdeploy:requests:rate%s{job=\"%s\"}" % (window, job), "reqps", legend),
        ("Error ratio", "specdeploy:error_ratio:rate%s{job=\"%s\"}" % (window, job), "percentunit", legend),
        ("Up", "up{job=\"%s\"}" % job, "none", legend),
    ]
    panels = []
    for i, (title, expr, unit, fmt) in enumerate(panels_spec):
        panels.append({
            "id": i + 1, "type": "timeseries", "title": title, "datasource": ds,
            "gridPos": {"h": 8, "w": 12, "x": (i % 2) * 12, "y": (i // 2) * 8},
            "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
            "targets": [{"refId": "A", "datasource": ds, "expr": expr, "legendFormat": fmt}]})
    panels.append({
        "id": len(panels) + 1, "type": "table", "title": "Releases serving", "datasource": ds,
        "gridPos": {"h": 8, "w": 24, "x": 0, "y": (len(panels_spec) + 1) // 2 * 8},
        "targets": [{"refId": "A", "datasource": ds, "instant": True, "format": "table",
                     "expr": "count by (%s) (up{job=\"%s\"})" % (", ".join(LABELS), job)}]})
    return {
        "title": "SGLang fleet (specdeploy.sglang)", "uid": "specdeploy-sglang", "schemaVersion": 39,
        "tags": ["sglang", "specdeploy"], "time": {"from": "now-6h", "to": "now"}, "refresh": "30s",
        "templating": {"list": [{"name": "datasource", "type": "datasource", "query": "prometheus",
                                 "label": "Prometheus"}]},
        "panels": panels}


def panel_queries(board):
    """Every query of a dashboard() (the lab scenario runs each against Prometheus)."""
    return [t["expr"] for p in board["panels"] for t in p.get("targets", [])]


def prometheus_config(job, settings, targets_file, rules_file, gateway_targets_file=None):
    """A Prometheus configuration that scrapes the targets and loads the rules (absolute paths)."""
    # Prometheus rereads a target file when it changes (a disk watch); refresh_interval is the fallback
    sd = {"refresh_interval": settings["scrape_interval"]}
    scrape = [{"job_name": job, "scrape_interval": settings["scrape_interval"],
               "file_sd_configs": [dict(sd, files=[targets_file])]}]
    if gateway_targets_file:
        scrape.append({"job_name": job + "-gateway", "scrape_interval": settings["scrape_interval"],
                       "file_sd_configs": [dict(sd, files=[gateway_targets_file])]})
    return {"global": {"scrape_interval": settings["scrape_interval"],
                       "evaluation_interval": settings["evaluation_interval"]},
            "rule_files": [rules_file], "scrape_configs": scrape}


# the durations and windows rules() and prometheus_config() read (the role's variables give them)
SETTINGS = {"scrape_interval": "15s", "evaluation_interval": "30s", "rate_window": "5m", "down_for": "5m",
            "accept_length_for": "15m", "queue_for": "10m", "error_rate_for": "5m", "release_drift_for": "6h"}


def argument_spec():
    """The monitoring_config task's options: one spec for the action plugin and the module file."""
    return dict(
        group=dict(type="str"),
        gateway_group=dict(type="str"),
        hosts=dict(type="dict"),
        gateways=dict(type="dict", default={}),
        job=dict(type="str", default="sglang"),
        settings=dict(type="dict", default={}),
        max_error_rate=dict(type="float"),
        paths=dict(type="dict", required=True),
    )


def _duration(name, value):
    if not isinstance(value, str) or not re.match(r"^([0-9]+(ms|s|m|h|d|w|y))+$", value):
        raise MonitoringError("%s must be a Prometheus duration such as 30s, 5m or 1h, got %r" % (name, value))
    return value


def build(hosts, gateways, job, settings, paths, max_error_rate=None):
    """Everything the role writes, from the hosts' variables:
    hosts: {host: {address, instances (server_instances), read, links, min_accept_length, canary_analysis}};
    gateways: {host: {address, port}}; paths: {targets, rules, gateway_targets} (absolute, where Prometheus
    reads them). min_accept_length is the gate's (server_smoke_min_accept_length); max_error_rate is the
    canary analysis' (canary_analysis.thresholds.max_error_rate), else `max_error_rate`."""
    if not isinstance(job, str) or not job:
        raise MonitoringError("the job name must be a non-empty string")
    s = dict(SETTINGS)
    unknown = sorted(set(settings or {}) - set(SETTINGS))
    if unknown:
        raise MonitoringError("unknown monitoring settings %s; known: %s" % (", ".join(unknown), ", ".join(sorted(SETTINGS))))
    s.update(settings or {})
    for name, value in s.items():
        _duration(name, value)
    for key in ("targets", "rules"):
        if not str((paths or {}).get(key) or "").startswith("/"):
            raise MonitoringError("paths.%s must be an absolute path, got %r" % (key, (paths or {}).get(key)))
    thresholds = {}
    for host, info in (hosts or {}).items():
        info = info or {}
        canary = (info.get("canary_analysis") or {}).get("thresholds") or {}
        err = canary.get("max_error_rate", max_error_rate)
        for inst in info.get("instances") or []:
            if not isinstance(inst, dict) or not inst.get("name"):
                continue  # targets() names it
            # the gate's own merge: an instance's smoke.min_accept_length over the host's
            # server_smoke_min_accept_length (server_plan.smoke_args, what smoke_decode is given)
            gate = server_plan.smoke_args(inst.get("spec") or {}, {}, inst.get("smoke"),
                                          {"min_accept_length": info.get("min_accept_length")}, None)
            thresholds["%s/%s" % (host, inst["name"])] = {
                "min_accept_length": gate["min_accept_length"] if (inst.get("spec") or {}).get("speculative") else None,
                "max_error_rate": max_error_rate if err is None else err}
    groups, unmonitored = targets(hosts or {})
    gw = gateway_targets(gateways or {})
    rule_file = rules(job, thresholds, s)
    board = dashboard(job, s)
    return {
        "targets": groups, "gateway_targets": gw, "unmonitored": unmonitored,
        "not_read": sorted(h for h, i in (hosts or {}).items() if not (i or {}).get("read")),
        "thresholds": thresholds, "rules": rule_file, "recorded": recorded_names(rule_file),
        "dashboard": board, "panel_queries": panel_queries(board),
        "prometheus_config": prometheus_config(job, s, paths["targets"], paths["rules"],
                                               paths.get("gateway_targets") if gw else None),
    }
