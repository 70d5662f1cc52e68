# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Compatibility name for the flags engine, which is now the package sglang_engine (by concern:
releases, parsers, render, parse, checks, resolve, gpu, systemd). New code imports sglang_engine.
stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import *  # noqa: F401,F403
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import (  # noqa: F401
    KNOWN_VERSIONS, RELEASES, RESOLVED_KEYS, SECRET_ENV, SPECULATIVE_FIELDS, TREE_FLAVORS, TREE_ORDER, LONG_CONTEXT_ENV,
    ConfigError, Result, argv_diff, argv_to_spec, check_draft_config, code_for_sglang_message, flag_groups,
    known_versions_text, load_config, normalize_spec, parse_argv, record_overrides, render, requested_fields,
    strip_program, systemd_quote, unit_exec_lines, validate, validate_argv, version_rules,
)
