# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Mamba backend hook's flag-only checks (0.5.15-0.5.18 srt/server_args.py _handle_mamba_backend; from 0.5.19
srt/arg_groups/mamba_hook.py handle_mamba_backend). Every release runs the hook for any model, right after the
attention backend hook; each check exists where its flag does (--mamba-cache-philox-rounds and
--enable-mamba-cache-stochastic-rounding from 0.5.15, --mamba-max-states-per-path from 0.5.17). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get


@gate("mamba_cache_philox_rounds", "mamba_max_states_per_path", "enable_mamba_cache_stochastic_rounding",
      context=("mamba_ssm_dtype", "mamba_backend"))
def check_mamba_backend_flags(args, rules, platform):
    """In SGLang's order. Stochastic rounding's platform checks after the dtype one (a CUDA platform; SM100 for the
    triton Mamba backend: trait mamba_stochastic_platform_checks) are skipped when the host's GPUs were not given.
    The FlashInfer Mamba backend's import check after them judges the host's install: not modelled."""
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
    if args.get("enable_mamba_cache_stochastic_rounding") and rules["mamba_stochastic_platform_checks"] and \
            platform.get("gpus_known"):
        sm = platform.get("sm")
        if sm is None:
            raise Refused("MAMBA_FLAGS", "Stochastic rounding for the Mamba SSM cache is only supported on NVIDIA CUDA "
                          "platforms.", "enable_mamba_cache_stochastic_rounding")
        if get(args, "mamba_backend", "triton") == "triton" and sm != 100:
            raise Refused("MAMBA_FLAGS", "Stochastic rounding for the Mamba SSM cache with --mamba-backend triton "
                          "requires SM100 (sm_%s here): use --mamba-backend flashinfer." % sm, "mamba_backend")


@gate("enable_int8_mamba_checkpoint", context=("enable_hierarchical_cache", "radix_cache_backend", "enable_lmcache"))
def check_int8_mamba_checkpoint(args, rules):
    """handle_int8_mamba_checkpoint, right after the Mamba backend hook (every release with the flag, 0.5.14 on;
    the LMCache refusal: trait int8_mamba_lmcache_check, 0.5.21 on)."""
    if not args.get("enable_int8_mamba_checkpoint"):
        return
    if args.get("enable_hierarchical_cache"):
        raise Refused("INT8_MAMBA_CHECKPOINT", "--enable-int8-mamba-checkpoint is not supported together with "
                      "--enable-hierarchical-cache.", "enable_hierarchical_cache")
    if args.get("radix_cache_backend") is not None:
        raise Refused("INT8_MAMBA_CHECKPOINT", "--enable-int8-mamba-checkpoint only supports the built-in mamba radix "
                      "cache: omit --radix-cache-backend.", "radix_cache_backend")
    if args.get("enable_lmcache") and rules["int8_mamba_lmcache_check"]:
        raise Refused("INT8_MAMBA_CHECKPOINT", "--enable-int8-mamba-checkpoint is not supported together with "
                      "--enable-lmcache.", "enable_lmcache")


@gate("mamba_backend")
def check_mamba_flashinfer(args, platform):
    """--mamba-backend flashinfer, the Mamba backend hook's last check (every release): refused where FlashInfer is
    not available, as on a host without a visible GPU (has_flashinfer / is_flashinfer_available is false there). On
    a GPU host SGLang imports flashinfer.mamba: the host's install, not modelled."""
    if args.get("mamba_backend") == "flashinfer" and platform.get("gpus_known") and platform.get("sm") is None:
        raise Refused("MAMBA_FLASHINFER", "--mamba-backend flashinfer: the FlashInfer mamba module is not available "
                      "(no FlashInfer on a host without a visible GPU). Use --mamba-backend triton.", "mamba_backend")
