# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one definition of what an SGLang instance is called and where it is reached, on a host.

Everything else (the server role's plan, the release records, the deploy state check, the smoke
client, the controller's preflight, status and verify) imports these:
- unit_name / unit_path / env_file_path: sglang-<instance>.service in /etc/systemd/system, and its
  0600 EnvironmentFile <config_dir>/<instance>.env;
- listen_host / base_url: the address a probe of the host's own server uses (spec.host, or loopback
  when the server binds every address);
- SECRET_NAME / secret_like: environment names that are secrets (they go to the EnvironmentFile);
- systemd_quote / exec_lines / env_lines / UnitError: systemd_unit's (the one quoting), named here for
  the modules that read them from this one;
- local_opener: the urllib opener for requests to a server on the host, which ignores every proxy
  setting (http_proxy and friends are for leaving the host, never for reaching its own server).
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import re
import urllib.request

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils import systemd_unit

__metaclass__ = type

UNIT_DIR = "/etc/systemd/system"
DEFAULT_PORT = 30000
LOOPBACK = "127.0.0.1"
# a server bound to every address is probed on loopback
WILDCARD_HOSTS = ("", "0.0.0.0", "::", "[::]")
# TOKEN, SECRET, PASSWORD / PASSWD, API_KEY / APIKEY, CREDENTIAL(S), PRIVATE (keys)
SECRET_NAME = re.compile(r"(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|PRIVATE)", re.I)
ENV_NAME = systemd_unit.ENV_NAME
UnitError = systemd_unit.UnitError
systemd_quote = systemd_unit.systemd_quote
flag_groups = systemd_unit.flag_groups
exec_lines = systemd_unit.exec_lines
env_lines = systemd_unit.env_lines


def unit_name(instance):
    return "sglang-%s.service" % instance


def unit_path(instance, unit_dir=UNIT_DIR):
    return "%s/%s" % (unit_dir.rstrip("/"), unit_name(instance))


def env_file_path(instance, config_dir="/etc/specdeploy"):
    return "%s/%s.env" % (config_dir.rstrip("/"), instance)


def listen_host(spec):
    """Where a probe on the host reaches the server of `spec`: spec.host, loopback for a wildcard."""
    host = str((spec or {}).get("host") or "").strip()
    if host in WILDCARD_HOSTS:
        return LOOPBACK
    return host


def listen_port(spec):
    """spec.port (DEFAULT_PORT when unset); a value that is no port 1-65535 is an InputError naming it."""
    port = (spec or {}).get("port")
    if port is None:
        return DEFAULT_PORT
    problem = inputs.port_problem(port)
    if problem:
        raise inputs.InputError("spec.port %s" % problem)
    return int(port)


def base_url(spec):
    """http://<listen_host>:<port> (IPv6 in brackets)."""
    host = listen_host(spec)
    if ":" in host and not host.startswith("["):
        host = "[%s]" % host
    return "http://%s:%d" % (host, listen_port(spec))


def secret_like(mapping):
    """Names in an environment mapping that look like secrets (they belong in the EnvironmentFile)."""
    return sorted(k for k in (mapping or {}) if SECRET_NAME.search(str(k)))


# How long a client waits for GET /health. On an idle server SGLang's /health generates one token and
# answers once the scheduler replied, checking each second for up to SGLANG_HEALTH_CHECK_TIMEOUT (20 s by
# default; sglang/srt/entrypoints/http_server.py, health_generate, 0.5.11 to 0.5.23). A client that gives up
# sooner calls a busy but healthy server down (5 s did, on a loaded CI machine); 25 s leaves SGLang's own
# verdict, 200 or 503, to arrive.
HEALTH_TIMEOUT = 25.0


def local_opener():
    """urllib opener for the host's own servers: no proxy handler at all, whatever http_proxy,
    https_proxy, HTTP_PROXY or no_proxy say (a ProxyHandler({}) reads none of them)."""
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))
