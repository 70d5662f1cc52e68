# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Smoke decode against a running SGLang server: readiness, /server_info, deterministic decode, gates.

Standard library only (urllib), importable without Ansible, so pytest and the host's Python 3.11 both
run it. The module plugins/modules/smoke_decode.py is a thin wrapper around `run_smoke`.

Speculative-decoding fields in `meta_info` (spec_verify_ct, spec_accept_length, spec_accept_rate and
the draft counts) appear only on the final response and only when spec_verify_ct > 0. The names of the
draft counts differ per release; they come from the flags engine's release table (trait meta_info,
docs/sglang-releases.md).
"""
from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases
from ansible_collections.specdeploy.sglang.plugins.module_utils.server_common import HEALTH_TIMEOUT, local_opener

__metaclass__ = type

DEFAULT_PROMPTS = (
    "The quick brown fox",
    "Once upon a time",
    "def fibonacci(n):",
)
# The one definition of the smoke gate's settings and their defaults. The server role's server_smoke_<key>
# (defaults/main.yml, meta/argument_specs.yml), smoke_decode's options and server_plan's smoke arguments
# carry these values; tests/unit/test_smoke_settings.py fails when one of them differs.
#   timeout: readiness deadline after a restart, in seconds (weight load + CUDA graph capture of a large model)
SETTINGS = {
    "timeout": 1800,
    "prompts": list(DEFAULT_PROMPTS),
    "max_new_tokens": 16,
    "runs": 2,
    "min_accept_length": None,
    "min_tokens_per_s": None,
    "expect_substrings": [],
    # the resolved settings the gate compares with the running server's /server_info
    "expect_keys": ["model_path", "speculative_algorithm", "speculative_num_draft_tokens", "speculative_num_steps",
                    "speculative_eagle_topk", "speculative_draft_model_path", "speculative_draft_window_size",
                    "speculative_dflash_tree_verify", "speculative_ddtree_budget", "speculative_dflash_tree_width",
                    "speculative_dflash_enable_ddtree"],
}


class SmokeError(Exception):
    """Bad input to the smoke decode (a message a person can act on)."""


def spec_schema(version):
    """(release the names come from, {"correct": names, "proposed": names}) for `version`'s meta_info.

    The names live in the flags engine's release table (sglang_engine.releases, trait meta_info); a
    release the table does not list reads as the newest listed release before it."""
    if not version:
        raise SmokeError("sglang_version is required to read the speculative fields of meta_info")
    name, schema = releases.meta_info_fields(version)
    if schema is None:
        raise SmokeError(
            "SGLang %s has no DFLASH speculative fields to read; known schemas: %s"
            % (version, releases.known_versions_text()))
    return name, schema


def _first(meta, names):
    for name in names:
        if name in meta and meta[name] is not None:
            return name, meta[name]
    return None, None


def read_spec_fields(meta_info, version):
    """Speculative stats of one final /generate response, by that version's field names.

    Returns None when the response carries no speculative fields at all."""
    schema_name, schema = spec_schema(version)
    verify_ct = meta_info.get("spec_verify_ct")
    if not verify_ct:
        return None
    correct_name, correct = _first(meta_info, schema["correct"])
    proposed_name, proposed = _first(meta_info, schema["proposed"])
    accept_length = meta_info.get("spec_accept_length")
    if accept_length is None and meta_info.get("completion_tokens"):
        accept_length = float(meta_info["completion_tokens"]) / float(verify_ct)
    return {
        "schema": schema_name,
        "verify_ct": int(verify_ct),
        "accept_length": float(accept_length) if accept_length is not None else None,
        "accept_rate": meta_info.get("spec_accept_rate"),
        "correct_drafts": correct,
        "proposed_drafts": proposed,
        "fields": [n for n in (correct_name, proposed_name) if n],
    }


class Http:
    """Tiny JSON-over-HTTP client (urllib). Replaceable in tests."""

    def __init__(self, base_url, api_key=None, timeout=30.0):
        self.base = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self._opener = local_opener()  # the host's own server: never through a proxy

    def request(self, method, path, body=None, timeout=None):
        """Returns (status, parsed JSON or raw text). Raises OSError on connection problems."""
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = "Bearer %s" % self.api_key
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with self._opener.open(req, timeout=timeout or self.timeout) as resp:
                raw = resp.read().decode("utf-8", "replace")
                status = resp.status
        except urllib.error.HTTPError as exc:
            raw = exc.read().decode("utf-8", "replace") if exc.fp else ""
            status = exc.code
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw


def unit_state(service):
    """ActiveState, SubState, Result, NRestarts and MainPID of a systemd unit (None without systemd)."""
    try:
        out = subprocess.run(
            ["systemctl", "show", service, "-p", "ActiveState,SubState,Result,NRestarts,MainPID"],
            check=False, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    state = {}
    for line in out.splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            state[key] = value
    return state


def wait_ready(http, deadline_s, interval=0.5, service=None, clock=time.monotonic, sleep=time.sleep,
               state_reader=unit_state):
    """Poll /health until 200. 503 (starting) and refused connections (loading) are normal.

    With `service`, stop early when the unit failed, ended (inactive) or restarted on its own (the
    process died), so a refused start is reported in seconds, not at the deadline. Returns (ready_after_s, failure|None)."""
    start = clock()
    base_restarts = None
    last = "no answer yet"
    while True:
        elapsed = clock() - start
        if service and state_reader:
            st = state_reader(service) or {}
            restarts = int(st.get("NRestarts", "0") or 0)
            if base_restarts is None:
                base_restarts = restarts
            # inactive: the process ended and systemd will not start it again (a clean exit)
            if st.get("ActiveState") in ("failed", "inactive") or restarts > base_restarts:
                what = ("failed" if st.get("ActiveState") == "failed"
                        else "exited and systemd did not restart it" if st.get("ActiveState") == "inactive"
                        else "exited and was restarted by systemd")
                return None, ("%s %s (the server died while starting): ActiveState=%s SubState=%s "
                              "Result=%s NRestarts=%s after %.1f s (see journalctl -u %s)"
                              % (service, what, st.get("ActiveState"), st.get("SubState"), st.get("Result"),
                                 st.get("NRestarts"), elapsed, service))
        try:
            status, _body = http.request("GET", "/health", timeout=max(1.0, min(HEALTH_TIMEOUT, deadline_s)))
            if status == 200:
                return round(clock() - start, 2), None
            last = "HTTP %s" % status
        except (OSError, socket.timeout) as exc:
            last = str(getattr(exc, "reason", exc))
        if clock() - start >= deadline_s:
            return None, "not ready after %.0f s (last /health: %s)" % (deadline_s, last)
        sleep(interval)


def fetch_server_info(http):
    """GET /server_info, or /get_server_info on versions without it."""
    for path in ("/server_info", "/get_server_info"):
        status, body = http.request("GET", path)
        if status == 200 and isinstance(body, dict):
            return path, body
        if status != 404:
            raise SmokeError("%s answered HTTP %s: %s" % (path, status, str(body)[:200]))
    raise SmokeError("neither /server_info nor /get_server_info answered")


def _same(expected, actual):
    if expected is None or actual is None:
        return expected is None and actual is None
    if isinstance(expected, bool) or isinstance(actual, bool):
        return bool(expected) == bool(actual)
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return float(expected) == float(actual)
    if isinstance(expected, str) and isinstance(actual, str):
        if expected.startswith("/") and actual.startswith("/"):
            return expected.rstrip("/") == actual.rstrip("/")
        return expected == actual
    return expected == actual


def compare_server_info(info, expect):
    """Fields of /server_info that differ from the intended resolved config."""
    mismatches = []
    for field in sorted(expect or {}):
        if field in info:
            actual = info[field]
        else:
            actual = None
        if not _same(expect[field], actual):
            mismatches.append({"field": field, "expected": expect[field], "actual": actual,
                               "present": field in info})
    return mismatches


def decode(http, prompt, max_new_tokens, clock=time.monotonic):
    body = {"text": prompt, "sampling_params": {"temperature": 0, "max_new_tokens": max_new_tokens}}
    t0 = clock()
    status, resp = http.request("POST", "/generate", body)
    elapsed = clock() - t0
    if status != 200 or not isinstance(resp, dict):
        raise SmokeError("/generate answered HTTP %s: %s" % (status, str(resp)[:300]))
    return resp, elapsed


def run_smoke(http, params, clock=time.monotonic, sleep=time.sleep, state_reader=unit_state):
    """The whole smoke decode. `params` is the module's argument dict. Returns the result dict."""
    prompts = list(params.get("prompts") or DEFAULT_PROMPTS)
    runs = int(params.get("runs") or SETTINGS["runs"])
    if runs < 2:
        raise SmokeError("runs must be >= 2 (determinism is checked across runs), got %s" % runs)
    max_new = int(params.get("max_new_tokens") or SETTINGS["max_new_tokens"])
    speculative = bool(params.get("speculative"))
    version = params.get("sglang_version")
    if speculative:
        spec_schema(version)  # bad version -> SmokeError before any request
    result = {
        "passed": False, "failures": [], "ready_after_s": None, "server_info": {},
        "server_info_path": None, "mismatches": [], "tokens_per_s": None, "accept_length": None,
        "spec_verify_ct": None, "spec_schema": None, "outputs": [],
    }
    failures = result["failures"]

    ready_after, why = wait_ready(http, float(params.get("timeout") or SETTINGS["timeout"]), service=params.get("service"),
                                  clock=clock, sleep=sleep, state_reader=state_reader)
    result["ready_after_s"] = ready_after
    if why:
        failures.append("readiness: " + why)
        return result

    try:
        path, info = fetch_server_info(http)
    except (SmokeError, OSError) as exc:
        failures.append("server_info: %s" % exc)
        return result
    expect = params.get("expect") or {}
    keep = set(expect) | {"version", "model_path", "speculative_algorithm", "speculative_num_draft_tokens",
                          "speculative_draft_model_path", "attention_backend", "port"}
    result["server_info_path"] = path
    result["server_info"] = {k: info[k] for k in sorted(keep) if k in info}
    result["mismatches"] = compare_server_info(info, expect)
    for m in result["mismatches"]:
        failures.append("server_info: %s is %r, intended %r%s" % (
            m["field"], m["actual"], m["expected"], "" if m["present"] else " (field absent)"))

    texts = {}
    total_tokens = 0
    total_time = 0.0
    verify_ct = 0
    spec_tokens = 0
    schema_used = None
    for run in range(runs):
        for prompt in prompts:
            try:
                resp, elapsed = decode(http, prompt, max_new, clock=clock)
            except (SmokeError, OSError) as exc:
                failures.append("generate %r: %s" % (prompt, exc))
                return _finish(result)
            meta = resp.get("meta_info") or {}
            text = resp.get("text") or ""
            ids = resp.get("output_ids")
            completion = int(meta.get("completion_tokens") or (len(ids) if ids else 0))
            total_tokens += completion
            total_time += elapsed
            if run == 0:
                result["outputs"].append({"prompt": prompt, "text": text, "completion_tokens": completion})
                if not text.strip() or completion == 0:
                    failures.append("generate %r: empty output" % prompt)
            key = (prompt,)
            sig = (text, tuple(ids) if isinstance(ids, list) else None)
            if key in texts and texts[key] != sig:
                failures.append("generate %r: output differs between runs at temperature 0" % prompt)
            texts.setdefault(key, sig)
            spec = read_spec_fields(meta, version) if version else None
            if spec:
                schema_used = spec["schema"]
                verify_ct += spec["verify_ct"]
                spec_tokens += completion
            elif speculative:
                failures.append("generate %r: speculative decoding expected, but meta_info has no "
                                "spec_verify_ct (speculation is not running)" % prompt)
    if total_time > 0:
        result["tokens_per_s"] = round(total_tokens / total_time, 2)
    if verify_ct:
        result["spec_verify_ct"] = verify_ct
        result["accept_length"] = round(spec_tokens / float(verify_ct), 3)
        result["spec_schema"] = schema_used
        if not speculative:
            failures.append("meta_info reports speculative decoding (spec_verify_ct=%d) but none was "
                            "intended" % verify_ct)

    min_accept = params.get("min_accept_length")
    accept = result["accept_length"]
    if speculative and min_accept is not None and accept is not None and accept < float(min_accept):
        failures.append("accept length %s below the minimum %s" % (format(accept, ".3f"), min_accept))
    min_tps = params.get("min_tokens_per_s")
    if min_tps is not None and (result["tokens_per_s"] or 0) < float(min_tps):
        failures.append("throughput %s tokens/s below the minimum %s" % (result["tokens_per_s"], min_tps))
    joined = "\n".join(o["text"] for o in result["outputs"])
    for sub in params.get("expect_substrings") or []:
        if sub not in joined:
            failures.append("expected text %r not found in any output" % sub)
    return _finish(result)


def _finish(result):
    # de-duplicate while keeping order (the same failure repeats per run)
    seen = []
    for f in result["failures"]:
        if f not in seen:
            seen.append(f)
    result["failures"] = seen
    result["passed"] = not seen
    return result


def summary(result):
    """One line for messages: passed/failed and the reasons."""
    if result.get("passed"):
        extra = ""
        if result.get("accept_length") is not None:
            extra = ", accept length %s" % result["accept_length"]
        return "smoke passed (ready after %ss, %s tokens/s%s)" % (
            result.get("ready_after_s"), result.get("tokens_per_s"), extra)
    return "smoke FAILED: " + "; ".join(result.get("failures") or ["unknown"])
