# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The engine's names for the one systemd quoting (plugins/module_utils/systemd_unit.py) and the
secret-name pattern (server_common): nothing is defined here. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils import server_common
from ansible_collections.specdeploy.sglang.plugins.module_utils.systemd_unit import (  # noqa: F401
    argv_diff,
    flag_groups,
    systemd_quote,
    unit_exec_lines,
)

# One pattern with the host's (server_common): the controller refuses what the host refuses.
SECRET_ENV = server_common.SECRET_NAME
