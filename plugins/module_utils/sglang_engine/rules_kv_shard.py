# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""--enable-kv-cache-sharding (0.5.22 on; srt/arg_groups/kv_shard_hook.py handle_kv_cache_sharding), which runs right
after context parallelism and before the MoE kernel checks. Modelled: PD prefill workers only, then speculative
decoding (0.5.22: none; 0.5.23: GLM DSA single-layer NextN EAGLE only, the trait kv_sharding_spec_arch), then, without
speculation, the rest of the chain for a model the engine can read as non-MLA: SGLang refuses it somewhere in the
chain unless prefill context parallelism shards it (--enable-prefill-cp with --attn-cp-size > 1), so the engine gives
one code for that whole chain (KV_SHARDING). MLA models, prefill CP and unread configs are not modelled further
(the host's SGLang answers them: mode installed). stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get


@gate("enable_kv_cache_sharding", context=("disaggregation_mode", "speculative_algorithm", "speculative_eagle_topk",
                                           "enable_prefill_cp", "attn_cp_size"))
def check_kv_cache_sharding(args, rules, target_cfg):
    if not args.get("enable_kv_cache_sharding"):
        return
    if get(args, "disaggregation_mode", "null") != "prefill":
        raise Refused("KV_SHARDING_PREFILL_ONLY", "--enable-kv-cache-sharding is only supported on PD prefill workers "
                      "(--disaggregation-mode prefill).", "enable_kv_cache_sharding")
    algo = args.get("speculative_algorithm")
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    if algo is not None:
        allowed = rules["kv_sharding_spec_arch"]
        if allowed is None or algo != "EAGLE" or (target_cfg is not None and arch != allowed) or \
                get(args, "speculative_eagle_topk", 1) != 1:
            raise Refused("KV_SHARDING_SPECULATIVE", "--enable-kv-cache-sharding does not support speculative decoding "
                          "%s(got --speculative-algorithm %s)." % (
                              "" if allowed is None else "except single-layer NextN EAGLE with topk 1 on %s " % allowed,
                              algo), "enable_kv_cache_sharding")
        return  # the GLM DSA MTP path: not modelled further
    if target_cfg is None or "kv_lora_rank" in text_cfg(target_cfg):
        return  # MLA (or unknown) attention: not modelled
    if not (args.get("enable_prefill_cp") and get(args, "attn_cp_size", 1) > 1):
        raise Refused("KV_SHARDING", "--enable-kv-cache-sharding for a GQA/MHA model needs prefill context parallelism "
                      "(--enable-prefill-cp with --attn-cp-size > 1), a PD transfer backend, a python radix tree core "
                      "and no cache extension; SGLang refuses this configuration.", "enable_kv_cache_sharding")
