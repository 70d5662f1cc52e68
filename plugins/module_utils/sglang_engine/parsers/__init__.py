# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Captured `sglang serve` parser tables, one module per SGLang release.

Each module is written by tools/sglang-release (never by hand) from that release's real argparse
parser, run in that release's own CPU kit. A module holds either the whole table (BASE = None) or the
difference against an older captured release (BASE = "<version>", ADDED, REMOVED), so adding a release
is a small, reviewable diff. Entry: flag -> (kind, type, choices, dest), kind in store | flag | list
(nargs "+": at least one value) | list* (nargs "*") | optional.

The imports are static (not importlib) so Ansible's module_utils packer ships every table with the
modules that use them. stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.parsers import (  # noqa: F401
    v0_5_11,
    v0_5_12,
    v0_5_12_post1,
    v0_5_13,
    v0_5_13_post1,
    v0_5_14,
    v0_5_15,
    v0_5_15_post1,
    v0_5_16,
    v0_5_17,
    v0_5_18,
    v0_5_19,
    v0_5_20,
    v0_5_21,
    v0_5_22,
    v0_5_23,
)

MODULES = {
    "0.5.11": v0_5_11,
    "0.5.12": v0_5_12,
    "0.5.12.post1": v0_5_12_post1,
    "0.5.13": v0_5_13,
    "0.5.13.post1": v0_5_13_post1,
    "0.5.14": v0_5_14,
    "0.5.15": v0_5_15,
    "0.5.15.post1": v0_5_15_post1,
    "0.5.16": v0_5_16,
    "0.5.17": v0_5_17,
    "0.5.18": v0_5_18,
    "0.5.19": v0_5_19,
    "0.5.20": v0_5_20,
    "0.5.21": v0_5_21,
    "0.5.22": v0_5_22,
    "0.5.23": v0_5_23,
}

_CACHE = {}


def captured():
    """The releases with a captured parser table."""
    return tuple(MODULES)


def table(version):
    """The full parser table of `version` (a dict; do not mutate). KeyError when none is captured."""
    try:
        return _CACHE[version]
    except KeyError:
        pass
    mod = MODULES[version]
    base = getattr(mod, "BASE", None)
    if base is None:
        full = dict(mod.FLAGS)
    else:
        full = dict(table(base))
        for flag in getattr(mod, "REMOVED", ()):
            full.pop(flag, None)
        full.update(getattr(mod, "ADDED", {}))
    _CACHE[version] = full
    return full
