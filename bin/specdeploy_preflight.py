"""specdeploy preflight: validate every SGLang instance of an inventory on the controller, touching no host.

    specdeploy preflight -i inventories/production [--group G] [--limit PATTERN] [--json]
                         [--authority [--authority-python VERSION=PYTHON ...]]
    ansible-inventory -i INV --list > inv.json && specdeploy preflight --inventory-json inv.json

Reads what deploy.yml reads: each host's `server_instances` ({name, spec, cuda_visible_devices, smoke})
plus the declared `sglang_expected_gpus`, `sglang_capabilities`, `sglang_target_config`,
`sglang_draft_config`, `sglang_allow_overrides`, the lock (`gpu_env_lock_file`), the weights' commits
(`weights_models`), `server_replaces_units`, and every variable with the collection's prefixes
(docs/interfaces.md), templated as a play sees them, for the hosts of --group (default sglang_servers,
as the playbooks). Per instance an OK / FAIL line, then (unless --brief) the SGLang command line it
renders, one flag per line as in the unit, and every note; then a summary. The same code path as
playbooks/preflight.yml (the sglang_preflight action). Exit status: 0 every instance passes; 1 an
instance (or a host) fails; 2 the inventory could not be read, or bad arguments; 3 nothing was checked
(no host, or no host with server_instances). --authority also has each distinct instance resolved by
the real SGLang of its release on the controller (--authority-python / --authority-venvs: a venv of that
release), cached by spec hash under ~/.cache/specdeploy/authority.
"""
import argparse
import json
import os
import sys
import time

import specdeploy_collection

EXIT_INPUT = 2


def _group_members(data, group):
    """Hosts of `group` (children included) in `ansible-inventory --list` output."""
    hosts, stack, seen = set(), [group], set()
    while stack:
        g = stack.pop()
        if g in seen:
            continue
        seen.add(g)
        grp = data.get(g) or {}
        hosts.update(grp.get("hosts") or [])
        stack.extend(grp.get("children") or [])
    return hosts


def _hosts_from_json(data, group, limit, keys):
    from ansible.parsing.dataloader import DataLoader
    from ansible.template import Templar, trust_as_template

    def trusted(v):
        if isinstance(v, str):
            return trust_as_template(v)
        if isinstance(v, dict):
            return {k: trusted(x) for k, x in v.items()}
        if isinstance(v, list):
            return [trusted(x) for x in v]
        return v

    hostvars = (data.get("_meta") or {}).get("hostvars") or {}
    names = _group_members(data, group)
    if limit:
        names &= ({limit} if limit in hostvars else _group_members(data, limit))
    loader, out, var_names = DataLoader(), {}, {}
    for name in names:
        hv = trusted(hostvars.get(name) or {})
        templar = Templar(loader=loader, variables=hv)
        out[name] = {k: templar.template(hv[k]) for k in keys if k in hv}
        var_names[name] = sorted(hv)
    return out, var_names


def _hosts_templated(sources, group, limit, keys):
    """Hosts' variables as a play would see them (Jinja rendered), via ansible-core's inventory API."""
    from ansible.inventory.manager import InventoryManager
    from ansible.parsing.dataloader import DataLoader
    from ansible.template import Templar
    from ansible.vars.manager import VariableManager

    loader = DataLoader()
    inventory = InventoryManager(loader=loader, sources=sources)
    if not inventory.hosts and not any(os.path.exists(s) for s in sources):
        raise OSError("no inventory at %s" % ", ".join(sources))
    variables = VariableManager(loader=loader, inventory=inventory)
    members = inventory.groups[group].get_hosts() if group in inventory.groups else []
    if limit:
        wanted = set(h.name for h in inventory.get_hosts(limit))
        members = [h for h in members if h.name in wanted]
    out, seen, var_names = {}, {}, {}
    for host in members:
        hv = variables.get_vars(host=host, include_hostvars=False)
        var_names[host.name] = sorted(hv)
        # hosts whose variables are the same (but for their own name, when no value mentions it) template
        # to the same values: template once per such group (a fleet shares its group_vars)
        fp = _fingerprint(hv)
        if fp not in seen:
            templar = Templar(loader=loader, variables=hv)
            seen[fp] = {k: templar.template(hv[k]) for k in keys if k in hv}
        out[host.name] = seen[fp]
    return out, var_names


_OWN_NAME = ("inventory_hostname", "inventory_hostname_short")


def _fingerprint(hv):
    """Hosts whose raw variables are the same template once: their text (any value as its repr) hashed."""
    from ansible_collections.specdeploy.sglang.plugins.module_utils.digest import sha256_text

    rest = json.dumps({k: v for k, v in hv.items() if k not in _OWN_NAME}, sort_keys=True, default=repr)
    if any(n in rest for n in _OWN_NAME + ("hostvars",)):  # a value refers to the host itself
        return sha256_text(json.dumps(hv, sort_keys=True, default=repr))
    return sha256_text(rest)


def _pythons(values):
    out = {}
    for v in values or []:
        version, sep, python = v.partition("=")
        if not sep or not version or not python:
            raise ValueError("--authority-python takes VERSION=PYTHON, got %r" % v)
        out[version] = python
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="specdeploy preflight", description=__doc__.split("\n\n", maxsplit=1)[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("-i", "--inventory", action="append", help="inventory source (repeatable)")
    src.add_argument("--inventory-json", help="output of `ansible-inventory --list` (a file, or - for stdin)")
    p.add_argument("--group", default="sglang_servers", help="group whose hosts are checked (specdeploy_group); "
                   "default sglang_servers")
    p.add_argument("--limit", help="only these hosts of the group (a host, group or pattern)")
    p.add_argument("--read-configs", action="store_true", help="read config.json from model paths present here")
    p.add_argument("--fatal-notes", help="comma-separated note codes that fail like errors "
                   "(specdeploy_preflight_fatal_notes; default BLOCK_SIZE_MISMATCH; '' for none)")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.add_argument("--brief", action="store_true", help="one line per instance (without its flags and notes)")
    p.add_argument("--authority", action="store_true", help="also resolve each distinct instance with the real "
                   "SGLang of its release on the controller (cached)")
    p.add_argument("--authority-python", action="append", metavar="VERSION=PYTHON",
                   help="controller python of SGLang VERSION (repeatable; else --authority-venvs)")
    p.add_argument("--authority-venvs", metavar="DIR", help="directory of SGLang venvs, one per release at "
                   "DIR/VERSION/bin/python (default $SPECDEPLOY_AUTHORITY_VENVS; `specdeploy authority-env` builds one)")
    p.add_argument("--authority-cache", help="cache directory (default ~/.cache/specdeploy/authority)")
    p.add_argument("--no-authority-cache", action="store_true", help="resolve everything again (the cache is not read "
                   "or written)")
    a = p.parse_args(argv)
    started = time.monotonic()
    specdeploy_collection.init()
    from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_preflight as pf
    try:
        authority = None
        if a.authority:
            authority = pf.Authority(pythons=_pythons(a.authority_python), venvs_dir=a.authority_venvs,
                                     cache_dir=a.authority_cache, use_cache=not a.no_authority_cache)
        if a.inventory_json:
            fh = sys.stdin if a.inventory_json == "-" else open(a.inventory_json)
            hosts, var_names = _hosts_from_json(json.load(fh), a.group, a.limit, pf.READ_KEYS)
        else:
            hosts, var_names = _hosts_templated(a.inventory, a.group, a.limit, pf.READ_KEYS)
    except (OSError, ValueError) as e:
        sys.stderr.write("specdeploy preflight: cannot read the inventory: %s\n" % e)
        return EXIT_INPUT
    except Exception as e:  # ansible-core's own errors (bad YAML, undefined variable in a template)
        sys.stderr.write("specdeploy preflight: cannot read the inventory: %s: %s\n" % (type(e).__name__, e))
        return EXIT_INPUT
    fatal = pf.DEFAULT_FATAL_NOTES if a.fatal_notes is None else [c for c in a.fatal_notes.split(",") if c]
    # a relative gpu_env_lock_file: from the working directory, then from each inventory's directory
    lock_dirs = [os.path.dirname(os.path.abspath(i)) if os.path.isfile(i) else os.path.abspath(i)
                 for i in (a.inventory or [])]
    out = pf.check_fleet(hosts, read_paths=a.read_configs, fatal_notes=fatal, authority=authority, group=a.group,
                         deploy_checks=True, var_names=var_names, lock_dirs=lock_dirs)
    if a.brief:
        out["lines"] = pf.format_lines(out["verdicts"], out["hosts_without_instances"], out["status"], detail=False)
    if a.json:
        json.dump(out, sys.stdout, indent=1, sort_keys=True, default=str)
        sys.stdout.write("\n")
    else:
        for line in out["lines"]:
            print(line)
        print("%s in %.2f s" % (out["summary"], time.monotonic() - started))
    return out["exit_code"]
