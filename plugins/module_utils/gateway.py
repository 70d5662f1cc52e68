# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fleet behind Shepherd Model Gateway (smg 1.13.0): worker URLs, registry diff, drain and join waits.

Pure Python (no Ansible): the gateway_workers module is a thin wrapper, the unit tests import this.
The gateway's admin API, as smg 1.13.0 serves it (read from its wheel and checked against a running
gateway, see docs/gateway.md):
  GET    /workers             {"workers": [{"id", "url", "is_healthy", "status", "load", ...}], "total"}
  POST   /workers {"url"}     202 {"status": "accepted", "worker_id"}: registration runs in the background
  DELETE /workers/{id}        202: the worker turns status "draining" (no new request is routed to it,
                              the ones in flight finish; "load" counts them), then leaves the registry
  GET    /readiness           200 {"status": "ready", "healthy_workers", "total_workers"}
"""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common
from ansible_collections.specdeploy.sglang.plugins.module_utils.smoke import Http


class GatewayError(Exception):
    """A gateway answered badly or not at all; the message says which and what to do."""


def instance_url(spec, advertise=None):
    """URL of an instance (its spec) as the gateway reaches it.

    The instance listens where server_common says (spec.host:spec.port, the address the server role's
    gate and status probe on the host). A wildcard listen address (0.0.0.0, ::) is reached at
    `advertise` (the host's address as the gateway sees it: the inventory's gateway_worker_address,
    else ansible_host, else the inventory name); a specific address is reached at itself.
    """
    spec = dict(spec or {})
    if str(spec.get("host") or "").strip() in server_common.WILDCARD_HOSTS and spec.get("host") is not None:
        if not advertise:
            raise GatewayError("instance listens on %r: set gateway_worker_address for its host" % spec["host"])
        spec["host"] = str(advertise)
    return server_common.base_url(spec)


def fleet_workers(hosts):
    """[{host, instance, url}] of the fleet from {host: {"instances": server_instances, "advertise": addr}}.

    Raises GatewayError when two instances claim one URL (the gateway would route both to one server).
    """
    out, seen = [], {}
    for name in sorted(hosts):
        info = hosts[name] or {}
        if not isinstance(info, dict) or not isinstance(info.get("instances") or [], list):
            raise GatewayError("hosts.%s must be {instances: [server_instances entries], advertise: address}" % name)
        for inst in info.get("instances") or []:
            if not isinstance(inst, dict) or not isinstance(inst.get("spec") or {}, dict):
                raise GatewayError("hosts.%s.instances: each must be a server_instances entry {name, spec}" % name)
            try:
                url = instance_url(inst.get("spec"), info.get("advertise"))
            except ValueError as exc:  # inputs.InputError: a port that is none
                raise GatewayError("hosts.%s instance %s: %s" % (name, inst.get("name"), exc))
            if url in seen:
                raise GatewayError("%s/%s and %s have the same URL %s" % (name, inst.get("name"), seen[url], url))
            seen[url] = "%s/%s" % (name, inst.get("name"))
            out.append({"host": name, "instance": inst.get("name"), "url": url})
    return out


def normalize_url(url):
    return str(url).rstrip("/")


def parse_workers(payload):
    """{url: {id, url, healthy, status, load}} from GET /workers."""
    if not isinstance(payload, dict) or not isinstance(payload.get("workers"), list):
        raise GatewayError("GET /workers did not answer a worker list: %r" % (payload,))
    out = {}
    for w in payload["workers"]:
        url = normalize_url(w.get("url", ""))
        out[url] = {"id": w.get("id"), "url": url, "healthy": bool(w.get("is_healthy")),
                    "status": w.get("status"), "load": w.get("load")}
    return out


def registry_diff(desired, registered):
    """What the gateway lacks and what it routes to that the fleet does not own.

    desired: [{host, instance, url}]; registered: parse_workers() result.
    Returns {"missing": [desired rows not registered], "unknown": [registered urls no host owns],
             "present": [desired rows registered, with healthy/status]}.
    """
    want = {normalize_url(d["url"]): d for d in desired}
    missing = [d for u, d in want.items() if u not in registered]
    present = [dict(d, healthy=registered[u]["healthy"], status=registered[u]["status"])
               for u, d in want.items() if u in registered]
    unknown = sorted(u for u in registered if u not in want)
    return {"missing": missing, "unknown": unknown, "present": present}


def is_ready(worker):
    return bool(worker) and worker.get("healthy") and worker.get("status") in (None, "ready")


class Gateway:
    """One gateway's admin API. `http` is smoke.Http-like (request(method, path, body) -> (status, body))."""

    def __init__(self, base_url, http=None, timeout=10.0, api_key=None, clock=time.monotonic, sleep=time.sleep):
        self.base = base_url.rstrip("/")
        self.http = http or Http(self.base, api_key=api_key, timeout=timeout)
        self.clock = clock
        self.sleep = sleep

    def _call(self, method, path, body=None):
        try:
            status, data = self.http.request(method, path, body)
        except OSError as exc:
            raise GatewayError("gateway %s unreachable (%s %s: %s)" % (self.base, method, path, exc))
        return status, data

    def workers(self):
        status, data = self._call("GET", "/workers")
        if status != 200:
            raise GatewayError("gateway %s: GET /workers answered %s: %s" % (self.base, status, data))
        return parse_workers(data)

    def add(self, url):
        status, data = self._call("POST", "/workers", {"url": normalize_url(url)})
        if status not in (200, 201, 202):
            raise GatewayError("gateway %s refused to add %s (%s): %s" % (self.base, url, status, data))

    def remove(self, worker_id):
        status, data = self._call("DELETE", "/workers/%s" % worker_id)
        if status not in (200, 202, 204, 404):
            raise GatewayError("gateway %s refused to remove %s (%s): %s" % (self.base, worker_id, status, data))

    def drain(self, urls, timeout, interval=0.5):
        """Take urls out of rotation and wait (at most timeout s) until each has left the registry.

        The gateway marks a removed worker "draining": it routes it nothing new, lets its in-flight
        requests finish, then drops it. Returns {url: {"registered", "in_flight", "left_after_s"}}.
        Raises GatewayError naming the workers still there, and their in-flight count, after timeout.
        """
        start = self.clock()
        reg = self.workers()
        out = {}
        for url in map(normalize_url, urls):
            w = reg.get(url)
            out[url] = {"registered": w is not None, "in_flight": (w or {}).get("load"), "left_after_s": 0.0}
            if w is not None and w.get("status") != "draining":
                self.remove(w["id"])
        pending = [u for u in out if out[u]["registered"]]
        while pending:
            reg = self.workers()
            now = self.clock()
            for url in list(pending):
                if url not in reg:
                    out[url]["left_after_s"] = round(now - start, 2)
                    pending.remove(url)
            if not pending:
                break
            if now - start >= timeout:
                raise GatewayError(
                    "gateway %s: %s still draining after %ss (in flight: %s); nothing was restarted. Raise "
                    "gateway_drain_timeout, or find the request that does not end"
                    % (self.base, ", ".join(pending), timeout,
                       ", ".join("%s=%s" % (u, reg[u].get("load")) for u in pending)))
            self.sleep(interval)
        return out

    def join(self, urls, timeout, interval=1.0):
        """Register urls (those not already there) and wait (at most timeout s) until each is healthy and ready.

        Returns {url: {"added", "healthy_after_s"}}. Raises GatewayError naming those not healthy in time.
        """
        start = self.clock()
        reg = self.workers()
        out = {}
        for url in map(normalize_url, urls):
            w = reg.get(url)
            if w is not None and w.get("status") == "draining":
                # a worker still leaving (drained by an earlier run that stopped): let it go, then add it
                self.drain([url], timeout)
                w = None
            out[url] = {"added": w is None, "healthy_after_s": None}
            if w is None:
                self.add(url)
        pending = list(out)
        while True:
            reg = self.workers()
            now = self.clock()
            for url in list(pending):
                if is_ready(reg.get(url)):
                    out[url]["healthy_after_s"] = round(now - start, 2)
                    pending.remove(url)
            if not pending:
                return out
            if now - start >= timeout:
                raise GatewayError(
                    "gateway %s: %s not healthy after %ss (%s); the rollout stops here. Check the instance "
                    "(/health) and the gateway's journal" % (
                        self.base, ", ".join(pending), timeout,
                        ", ".join("%s: %s" % (u, (reg.get(u) or {}).get("status", "not registered"))
                                  for u in pending)))
            self.sleep(interval)

    def readiness(self):
        """GET /readiness: the gateway answers (raises GatewayError when it does not)."""
        status, data = self._call("GET", "/readiness")
        if status >= 500 and not isinstance(data, dict):
            raise GatewayError("gateway %s: /readiness answered %s: %s" % (self.base, status, data))
        return {"status": status, "body": data}
