# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one input validation for every value that can reach a systemd unit, a file name or a path.

The controller's preflight (sglang_preflight), the static validator (sglang_engine's spec check) and the
host (server_plan, server_release, deploy_state, the other modules' option checks) call these same
functions, so a value the preflight passes is one the deploy accepts, and the other way round:

- value_problem: a string a unit line can carry (no control character: CR and NUL end a unit line for
  systemd as LF does; no Unicode line separator, no lone surrogate, not huge);
- INSTANCE_NAME / instance_problems: an instance's name, version, port, GPUs and every string of its spec;
- inside: a path under a root, symlinks resolved (nothing escapes its root);
- option_problems / check_options: a module's options by kind (port, size, count, mode, url, name, ...),
  each message naming the option.
Standard library only, importable without Ansible.
"""
from __future__ import annotations

import math
import os
import re

__metaclass__ = type

# sglang-<name>.service, <config_dir>/<name>.env, <root>/instances/<name>: one path component, no dot
INSTANCE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")
INSTANCE_NAME_RULE = "use lower-case letters, digits, - and _ (max 41, starting with a letter or digit)"
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# a release as SGLang names it (0.5.23, 0.5.10rc1, 0.5.23+pr31069): it reaches the unit's Description=
SGLANG_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$")
# <root>/releases/<id>: one path component (release ids are hex digests; "previous" names a link)
RELEASE_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$")
# systemd service unit names (server_replaces_units)
SERVICE_UNIT = re.compile(r"^[A-Za-z0-9:_.\\@-]{1,247}[.]service$")
# a value longer than this is no flag, path or variable anyone means (systemd's own line limit is 1 MiB)
MAX_VALUE = 65536
PORT_MIN, PORT_MAX = 1, 65535
# tp/dp/pp sizes: a GPU count; more than this is a typo, not a fleet
MAX_PARALLEL = 1024
PARALLEL_KEYS = ("tp_size", "dp_size", "pp_size")
# C0 and C1 control characters (CR, LF, NUL, TAB, ESC, DEL, NEL...), Unicode line and paragraph
# separators (a line break for Python's splitlines, which reads units back), lone surrogates (no UTF-8)
_BAD_CHAR = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_CHAR_NAMES = {"\x00": "NUL", "\r": "CR (carriage return)", "\n": "LF (newline)", "\t": "TAB", "\x1b": "ESC",
               "\x7f": "DEL", "\x85": "NEL", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"}
MODE_MAX = 0o777


class InputError(ValueError):
    """A value refused (a message a person can act on, naming the field)."""


def char_name(ch):
    return _CHAR_NAMES.get(ch, "U+%04X" % ord(ch))


def value_problem(value):
    """Why `value` (as text) cannot go into a unit, a file name or a path; None when it can."""
    text = value if isinstance(value, str) else str(value)
    bad = _BAD_CHAR.search(text)
    if bad:
        return "has the control character %s at position %d (no unit line, file name or path carries one)" % (
            char_name(bad.group()), bad.start())
    if len(text) > MAX_VALUE:
        return "is %d characters long (at most %d)" % (len(text), MAX_VALUE)
    return None


def check_value(value, field):
    problem = value_problem(value)
    if problem:
        raise InputError("%s %s" % (field, problem))
    return value


def walk_problems(obj, where, depth=0):
    """[(field, message)] for every string (key or value) in a nested mapping/list that value_problem refuses."""
    out = []
    if depth > 32:
        return [(where, "%s is nested too deep" % where)]
    if isinstance(obj, dict):
        for key, val in obj.items():
            field = "%s.%s" % (where, key) if isinstance(key, str) and not value_problem(key) else where
            if isinstance(key, str) and value_problem(key):
                out.append((field, "%s: the key %r %s" % (where, key, value_problem(key))))
            out += walk_problems(val, field, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for i, val in enumerate(obj):
            out += walk_problems(val, "%s[%d]" % (where, i), depth + 1)
    elif isinstance(obj, str):
        problem = value_problem(obj)
        if problem:
            out.append((where, "%s %s" % (where, problem)))
    return out


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def port_problem(value):
    if not is_int(value):
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        else:
            return "must be a port number (an integer %d-%d), got %r" % (PORT_MIN, PORT_MAX, value)
    if not PORT_MIN <= value <= PORT_MAX:
        return "must be a port number %d-%d, got %d" % (PORT_MIN, PORT_MAX, value)
    return None


def instance_name_problem(name):
    if not isinstance(name, str) or not INSTANCE_NAME.match(name):
        return "instance name %r: %s" % (name, INSTANCE_NAME_RULE)
    return None


def check_instance_name(name, error=InputError):
    problem = instance_name_problem(name)
    if problem:
        raise error(problem)
    return name


def spec_problems(spec, where="spec"):
    """[(field, message)] of a structured spec's values that reach the unit: every string (control
    characters), the version (the unit's Description), the port, the parallel sizes."""
    if not isinstance(spec, dict):
        return [(where, "%s must be a mapping, got %s" % (where, type(spec).__name__))]
    out = walk_problems(spec, where)
    version = spec.get("sglang_version")
    if version is not None and not (isinstance(version, str) and SGLANG_VERSION.match(version)):
        out.append(("%s.sglang_version" % where, "%s.sglang_version %r is not a release name such as 0.5.23"
                    % (where, version)))
    if spec.get("port") is not None:
        problem = port_problem(spec["port"])
        if problem:
            out.append(("%s.port" % where, "%s.port %s" % (where, problem)))
    for key in PARALLEL_KEYS:  # below 1: the flags engine's PARALLEL_SIZE rule says so
        val = spec.get(key)
        if is_int(val) and val > MAX_PARALLEL:
            out.append(("%s.%s" % (where, key), "%s.%s is %d GPUs: at most %d" % (where, key, val, MAX_PARALLEL)))
    env = spec.get("env")
    if isinstance(env, dict):
        for key in env:
            if not isinstance(key, str) or not ENV_NAME.match(key):
                out.append(("%s.env" % where, "%s.env: %r is not a valid environment variable name" % (where, key)))
    return out


def is_port_dest(dest):
    """A parsed SGLang argument that holds one port number (--port, --nccl-port, --grpc-port, ...)."""
    return isinstance(dest, str) and (dest == "port" or dest.endswith("_port"))


def parsed_args_problems(args):
    """[(dest, message)] of an argv parsed by SGLang's parser table ({dest: value}): the rules of
    spec_problems for what an argv (or a spec's extra_args) sets - every port-like value 1-65535, the
    parallel sizes at most MAX_PARALLEL."""
    out = []
    for dest in sorted(k for k in (args or {}) if isinstance(k, str)):
        value = args[dest]
        if is_port_dest(dest) and is_int(value):
            problem = port_problem(value)
            if problem:
                out.append((dest, "--%s %s" % (dest.replace("_", "-"), problem)))
        elif dest in PARALLEL_KEYS and is_int(value) and value > MAX_PARALLEL:
            out.append((dest, "--%s is %d GPUs: at most %d" % (dest.replace("_", "-"), value, MAX_PARALLEL)))
    return out


def instance_problems(inst, where=None):
    """[(field, message)] of one server_instances entry {name, spec, cuda_visible_devices, smoke}: what the
    preflight, the static validator's caller and the host refuse alike."""
    if not isinstance(inst, dict):
        return [("server_instances", "an instance must be a mapping {name, spec, ...}, got %s" % type(inst).__name__)]
    name = inst.get("name")
    where = where or "instance %s" % (name,)
    out = []
    problem = instance_name_problem(name)
    if problem:
        out.append(("name", problem))
    if "spec" in inst:
        out += [(f, "%s: %s" % (where, m)) for f, m in spec_problems(inst.get("spec"))]
    cvd = inst.get("cuda_visible_devices")
    if cvd is not None:
        if isinstance(cvd, (dict, list, bool)):
            out.append(("cuda_visible_devices", "%s: cuda_visible_devices must be a string of GPU indices or "
                        "UUIDs, got %s" % (where, type(cvd).__name__)))
        elif value_problem(cvd):
            out.append(("cuda_visible_devices", "%s: cuda_visible_devices %s" % (where, value_problem(cvd))))
    if inst.get("smoke") is not None and not isinstance(inst["smoke"], dict):
        out.append(("smoke", "%s: smoke must be a mapping of smoke_decode arguments" % where))
    return out


# role settings the unit template writes unquoted (User=, Group=, EnvironmentFile=, DeviceAllow=)
USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
UNIT_PATH = re.compile(r"^/[A-Za-z0-9._/@+=,:-]*$")
DEVICE_ALLOW = re.compile(r"^[A-Za-z0-9/_:.*+-]+( [rwm]{1,3})?$")


def unit_settings_problems(settings):
    """[message] of the role settings the unit carries as they are: user and group names, the config
    directory (the EnvironmentFile= path), DeviceAllow= entries."""
    out = []
    settings = settings or {}
    for key in ("user", "group"):
        val = settings.get(key)
        if val is not None and not (isinstance(val, str) and USER_NAME.match(val)):
            out.append("server_%s %r: a user or group name (lower-case letters, digits, _ and -)" % (key, val))
    for key in ("config_dir", "root"):
        val = settings.get(key)
        if val is not None and not (isinstance(val, str) and UNIT_PATH.match(val)):
            out.append("server_%s %r: an absolute path of letters, digits and . _ / @ + = , : - (no space, "
                       "%% or control character)" % (key, val))
    devices = settings.get("device_allow")
    if devices is not None:
        if not isinstance(devices, list):
            out.append("server_device_allow must be a list")
        else:
            out += ["server_device_allow entry %r: a device path or class, optionally with r, w and m" % (d,)
                    for d in devices if not (isinstance(d, str) and DEVICE_ALLOW.match(d))]
    return out


def check_instance(inst, error=InputError):
    found = instance_problems(inst)
    if found:
        raise error("; ".join(m for _f, m in found))
    return inst


# ---- paths --------------------------------------------------------------------------------------

def inside(root, path, what="path"):
    """The real path of `path` (relative paths are under root), checked to be within the real `root`:
    `..` and symlinks pointing out are refused. Returns the resolved path."""
    check_value(path, what)
    real_root = os.path.realpath(root)
    full = os.path.realpath(os.path.join(real_root, path))
    if full != real_root and not full.startswith(real_root.rstrip(os.sep) + os.sep):
        raise InputError("%s %s leads out of %s (to %s)" % (what, path, root, full))
    return full


def plain_name(name, what="file name"):
    """A single path component (no /, no .., no control character)."""
    if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name:
        raise InputError("%s %r is not a plain file name" % (what, name))
    return check_value(name, what)


# ---- module options -----------------------------------------------------------------------------

def _mode(value):
    if is_int(value):
        mode = value
    elif isinstance(value, str) and re.match(r"^0?[0-7]{1,4}$", value.strip()):
        mode = int(value.strip(), 8)
    else:
        raise InputError("must be an octal file mode string such as '0644', got %r" % (value,))
    if not 0 <= mode <= MODE_MAX:
        raise InputError("must be a file mode within 0000-0777 (no setuid, setgid or sticky bit), got %r" % (value,))
    return mode


def _url(value):
    from urllib.parse import urlsplit
    if not isinstance(value, str) or value_problem(value) or " " in value:
        raise InputError("must be an http(s) URL such as http://127.0.0.1:30000, got %r" % (value,))
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as exc:
        raise InputError("is not a usable URL (%s): %r" % (exc, value))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("must be an http(s) URL with a host, such as http://127.0.0.1:30000, got %r" % (value,))
    if port is not None and not PORT_MIN <= port <= PORT_MAX:
        raise InputError("has port %d; a port is %d-%d" % (port, PORT_MIN, PORT_MAX))
    return value


def _number(low=None, high=None, positive=False):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or value in (
                float("inf"), float("-inf")):
            raise InputError("must be a number, got %r" % (value,))
        if positive and not value > 0:
            raise InputError("must be greater than 0, got %r" % (value,))
        if low is not None and value < low:
            raise InputError("must be at least %s, got %r" % (low, value))
        if high is not None and value > high:
            raise InputError("must be at most %s, got %r" % (high, value))
        return value
    return check


def _pattern(regex, rule):
    def check(value):
        if not isinstance(value, str) or not regex.match(value):
            raise InputError("%s, got %r" % (rule, value))
        return value
    return check


def _text(value):
    problem = value_problem(value)
    if problem:
        raise InputError(problem)
    return value


def _path(value):
    _text(value)
    if not str(value).strip():
        raise InputError("must be a path, got an empty string")
    return value


KINDS = {
    "port": _number(PORT_MIN, PORT_MAX),
    "size": _number(0),                   # bytes, counts of things that may be none
    "count": _number(1),                  # at least one
    "positive": _number(positive=True),   # seconds, factors
    "fraction": _number(0, 1),
    "mode": _mode,
    "url": _url,
    "instance": _pattern(INSTANCE_NAME, INSTANCE_NAME_RULE),
    "version": _pattern(SGLANG_VERSION, "must be a release name such as 0.5.23"),
    "env_name": _pattern(ENV_NAME, "must be an environment variable name"),
    "service_unit": _pattern(SERVICE_UNIT, "must be a systemd service unit name (name.service)"),
    "release_id": _pattern(RELEASE_ID, "must be a release id (letters, digits, ., _ and -; no path)"),
    "text": _text,
    "path": _path,
}


# options of the modules that run as action plugins on the controller: one set of rules for the action
# and for its module file (which states them first when it is run directly)
ACTION_RULES = {
    "await_job": {"jid": "text", "label": "text", "path": "path", "total_bytes": "size", "poll": "count",
                  "timeout": "count"},
    "report_files": {"dest_dir": "path", "mode": "mode"},
}


def option_problems(params, rules):
    """["option: problem", ...] of module options by kind (KINDS; a list option's elements each; a
    ("kind", "nonempty") tuple also refuses an empty list). None values are skipped (unset)."""
    out = []
    for option, rule in rules.items():
        kinds = rule if isinstance(rule, tuple) else (rule,)
        value = params.get(option)
        if value is None:
            continue
        if "nonempty" in kinds and isinstance(value, (list, dict, str)) and not value:
            out.append("%s: must not be empty" % option)
            continue
        if kinds == ("nonempty",):
            continue
        items = value if isinstance(value, list) else [value]
        for pos, item in enumerate(items):
            label = "%s[%d]" % (option, pos) if isinstance(value, list) else option
            for kind in kinds:
                if kind == "nonempty":
                    continue
                try:
                    KINDS[kind](item)
                except InputError as exc:
                    out.append("%s: %s" % (label, exc))
                    break
    return out


def check_options(module, rules, name=None):
    """fail_json naming every malformed option (module: an AnsibleModule), or return None."""
    found = option_problems(module.params, rules)
    if found:
        module.fail_json(msg="%s: invalid option%s: %s" % (name or module._name, "s" if len(found) > 1 else "",
                                                           "; ".join(found)), invalid=found)
