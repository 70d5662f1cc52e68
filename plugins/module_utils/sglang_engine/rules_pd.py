# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""PD and encoder disaggregation checks (0.5.11-0.5.18 srt/server_args.py _handle_pd_disaggregation and
_handle_encoder_disaggregation; from 0.5.19 srt/arg_groups/pd_disaggregation_hook.py). The PD hook runs early,
after the SSL check; the encoder one after the speculative hook, right before the KV cache hook. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get


@gate("disaggregation_decode_host_receive_threshold",
      context=("enable_hisparse", "enable_pd_role_switch", "disaggregation_decode_retraction_backup"))
def check_pd_host_receive(args):
    """--disaggregation-decode-host-receive-threshold (0.5.21 on, where the flag is): in [0, 1]; below 1 the decode
    host pool buffers KV, which HiSparse and role switching do not support and which needs the host-pool
    retraction backup (SGLang then sets it: rules_cache.check_cache_compatibility sees it)."""
    threshold = args.get("disaggregation_decode_host_receive_threshold")
    if threshold is None:
        return
    if not 0 <= threshold <= 1:
        raise Refused("PD_HOST_RECEIVE_THRESHOLD", "--disaggregation-decode-host-receive-threshold must be between 0 "
                      "and 1, got %s." % threshold, "disaggregation_decode_host_receive_threshold")
    if threshold < 1:
        if args.get("enable_hisparse") or args.get("enable_pd_role_switch"):
            raise Refused("PD_HOST_RECEIVE_THRESHOLD", "Decode host receive (--disaggregation-decode-host-receive-"
                          "threshold < 1) does not yet support HiSparse or role switching.",
                          "disaggregation_decode_host_receive_threshold")
        if args.get("disaggregation_decode_retraction_backup") == "cpu_tensor":
            raise Refused("PD_HOST_RECEIVE_THRESHOLD", "Decode host KV buffering (--disaggregation-decode-host-receive-"
                          "threshold < 1) requires --disaggregation-decode-retraction-backup host_pool.",
                          "disaggregation_decode_retraction_backup")


@gate("enable_prefix_mm_cache", "encoder_only", context=("language_only", "disaggregation_mode"))
def check_encoder_disaggregation(args, rules, target_cfg):
    """The encoder-only server's flags, then its architecture (the release's list: encoder_disagg_archs). A
    language-only server is not modelled (0.5.11 also asks for --encoder-urls there)."""
    encoder_only = args.get("encoder_only")
    if args.get("enable_prefix_mm_cache") and not encoder_only:
        raise Refused("ENCODER_DISAGG", "--enable-prefix-mm-cache requires --encoder-only to be enabled.",
                      "enable_prefix_mm_cache")
    if not encoder_only:
        return
    if args.get("language_only"):
        raise Refused("ENCODER_DISAGG", "Cannot set --encoder-only and --language-only together.", "language_only")
    if get(args, "disaggregation_mode", "null") != "null":
        raise Refused("ENCODER_DISAGG", "Cannot set --encoder-only and --disaggregation-mode prefill/decode "
                      "together.", "disaggregation_mode")
    archs = (target_cfg or {}).get("architectures") or [None]
    if archs[0] is not None and archs[0] not in rules["encoder_disagg_archs"]:
        raise Refused("ENCODER_DISAGG_MODEL", "Model type %s is not supported for encoder disaggregation in SGLang %s "
                      "(--encoder-only); it supports %s." % (
                          archs[0], rules["version"], ", ".join(rules["encoder_disagg_archs"])), "encoder_only")
