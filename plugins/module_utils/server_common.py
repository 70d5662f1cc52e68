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
- systemd_quote / exec_lines / env_lines: ExecStart and Environment= escaping;
- local_opener: the urllib opener for requests to a server on the host, which ignores every proxy
  setting (http_proxy and friends are for leaving the host, never for reaching its own server).
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import re
import urllib.request

__metaclass__ = type

UNIT_DIR = "/etc/systemd/system"
DEFAULT_PORT = 30000
LOOPBACK = "127.0.0.1"
# a server bound to every address is probed on loopback
WILDCARD_HOSTS = ("", "0.0.0.0", "::", "[::]")
# TOKEN, SECRET, PASSWORD / PASSWD, API_KEY / APIKEY, CREDENTIAL(S), PRIVATE (keys)
SECRET_NAME = re.compile(r"(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|PRIVATE)", re.I)
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class UnitError(ValueError):
    """A value systemd cannot carry (a message a person can act on)."""


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
    return int((spec or {}).get("port") or DEFAULT_PORT)


def base_url(spec):
    """http://<listen_host>:<port> (IPv6 in brackets)."""
    host = listen_host(spec)
    if ":" in host and not host.startswith("["):
        host = "[%s]" % host
    return "http://%s:%d" % (host, listen_port(spec))


def secret_like(mapping):
    """Names in an environment mapping that look like secrets (they belong in the EnvironmentFile)."""
    return sorted(k for k in (mapping or {}) if SECRET_NAME.search(str(k)))


def systemd_quote(arg, dollar=True):
    """One ExecStart word for systemd: double-quoted, with % (specifiers) and, for ExecStart, $
    (variable expansion) escaped, and backslash and quote escaped for systemd's C-style unquoting.
    Environment= does not expand $, so env values keep it (dollar=False)."""
    arg = str(arg)
    if "\n" in arg:
        raise UnitError("argument %r has a newline; systemd cannot carry it" % arg)
    arg = arg.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    if dollar:
        arg = arg.replace("$", "$$")
    return '"%s"' % arg


def flag_groups(argv):
    """[[flag, value...], ...]: one group per --flag (a leading non-flag token is its own group)."""
    groups = []
    for arg in argv or []:
        arg = str(arg)
        if arg.startswith("--") or not groups:
            groups.append([arg])
        else:
            groups[-1].append(arg)
    return groups


def exec_lines(program, argv):
    """ExecStart as a list of lines: the program words (if any), then one flag with its values per line."""
    lines = [list(program)] if program else []
    lines += flag_groups(argv)
    return [" ".join(systemd_quote(w) for w in line) for line in lines]


def env_lines(env):
    """Environment= values, sorted by name, escaped the same way (% only: Environment= keeps $)."""
    out = []
    for key in sorted(env or {}):
        if not ENV_NAME.match(str(key)):
            raise UnitError("environment name %r is not a valid variable name" % key)
        out.append(systemd_quote("%s=%s" % (key, env[key]), dollar=False))
    return out


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
