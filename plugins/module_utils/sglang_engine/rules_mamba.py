# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Mamba backend hook's flag-only checks (0.5.15-0.5.18 srt/server_args.py _handle_mamba_backend; from 0.5.19
srt/arg_groups/mamba_hook.py handle_mamba_backend). Every release runs the hook for any model, right after the
attention backend hook; each check exists where its flag does (--mamba-cache-philox-rounds and
--enable-mamba-cache-stochastic-rounding from 0.5.15, --mamba-max-states-per-path from 0.5.17). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate


@gate("mamba_cache_philox_rounds", "mamba_max_states_per_path", "enable_mamba_cache_stochastic_rounding",
      context=("mamba_ssm_dtype",))
def check_mamba_backend_flags(args):
    """In SGLang's order. Stochastic rounding's platform checks (CUDA, SM100 for the triton backend) that follow
    the dtype one are not modelled; the generator does not reach them."""
    rounds = args.get("mamba_cache_philox_rounds")
    if rounds is not None and rounds < 0:
        raise Refused("MAMBA_FLAGS", "--mamba-cache-philox-rounds must be non-negative, got %s." % rounds,
                      "mamba_cache_philox_rounds")
    states = args.get("mamba_max_states_per_path")
    if states is not None and (states == 0 or states < -1):
        raise Refused("MAMBA_FLAGS", "--mamba-max-states-per-path must be -1 (unlimited) or a positive integer, got "
                      "%s." % states, "mamba_max_states_per_path")
    if args.get("enable_mamba_cache_stochastic_rounding") and args.get("mamba_ssm_dtype") != "float16":
        raise Refused("MAMBA_FLAGS", "Stochastic rounding for the Mamba SSM cache "
                      "(--enable-mamba-cache-stochastic-rounding) requires --mamba-ssm-dtype float16, got %r."
                      % args.get("mamba_ssm_dtype"), "mamba_ssm_dtype")
