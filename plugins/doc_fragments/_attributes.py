# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Wording of the attributes every module of this collection declares (private fragment).

A module extends `specdeploy.sglang._attributes` (check_mode, diff_mode, platform) and, when it sets
facts, `specdeploy.sglang._attributes.facts`; it then states only its own `support` and `details`.
"""
from __future__ import annotations


class ModuleDocFragment:

    # check_mode, diff_mode and platform: every module
    DOCUMENTATION = r"""
options: {}
attributes:
  check_mode:
    description: Can run in check_mode and return changed status prediction without modifying target.
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
  platform:
    description: Target OS/families that can be operated against.
    support: full
    platforms: posix
    details: Linux hosts with systemd (the SGLang servers run as systemd units); Python 3 standard library only.
"""

    # modules that return ansible_facts
    FACTS = r"""
options: {}
attributes:
  facts:
    description: Action returns an C(ansible_facts) dictionary that will update existing host facts.
    support: full
"""
