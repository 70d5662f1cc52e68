# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""--enable-layernorm-sp (0.5.19 on; srt/arg_groups/layernorm_sp_hook.py handle_layernorm_sp, right after the
speculative hook): the target's architecture (Qwen3ForCausalLM in every release with the flag; 0.5.23 also the
Muse Spark family, whose TP/EP, quantization and MoE backend checks are not modelled), TP > 1, no attention DP,
no speculation, no pipeline parallelism. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get

LAYERNORM_SP_ARCHS = ("Qwen3ForCausalLM",)


@gate("enable_layernorm_sp", "enable_megamoe_for_layernorm_sp", context=("enable_dp_attention", "attn_dp_size"))
def check_layernorm_sp(args, r, algo, target_cfg):
    megamoe = args.get("enable_megamoe_for_layernorm_sp")
    if not args.get("enable_layernorm_sp"):
        if megamoe:
            raise Refused("LAYERNORM_SP", "--enable-megamoe-for-layernorm-sp requires --enable-layernorm-sp.",
                          "enable_megamoe_for_layernorm_sp")
        return
    archs = (target_cfg or {}).get("architectures") or [None]
    arch = archs[0]
    if target_cfg is None or "MuseSpark" in str(arch):
        return  # unknown target, or the Muse Spark family: decided by the host's SGLang
    if megamoe:
        raise Refused("LAYERNORM_SP", "--enable-megamoe-for-layernorm-sp supports only Muse Spark (target %s)." % arch,
                      "enable_megamoe_for_layernorm_sp")
    if arch not in LAYERNORM_SP_ARCHS:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp is only supported for %s; got %s."
                      % (", ".join(LAYERNORM_SP_ARCHS), arch), "enable_layernorm_sp")
    if r["tp_size"] <= 1:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp requires --tp-size > 1: there is no sequence to shard "
                      "across a single TP rank.", "tp_size")
    if (args.get("enable_dp_attention") and r["dp_size"] > 1) or get(args, "attn_dp_size", 1) > 1:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp is not compatible with attention DP.", "enable_layernorm_sp")
    if algo is not None:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp supports speculative decoding only with Muse Spark "
                      "DFLASH, not %s on %s." % (algo, arch), "enable_layernorm_sp")
    if r["pp_size"] > 1:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp is not compatible with pipeline parallelism "
                      "(--pp-size %s)." % r["pp_size"], "pp_size")
