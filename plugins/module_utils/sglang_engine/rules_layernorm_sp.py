# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""--enable-layernorm-sp (0.5.19 on; srt/arg_groups/layernorm_sp_hook.py handle_layernorm_sp, right after the
speculative hook): the target's architecture (Qwen3ForCausalLM in every release with the flag; 0.5.23 also the
Muse Spark family, trait layernorm_sp_muse: its TP/EP, quantization and MoE backends, then its MegaMoE prefill token
budget and breakable prefill CUDA graph, or its BF16 FlashInfer A2A dispatch), TP > 1, no attention DP, no
speculation (Muse Spark DFLASH aside), no pipeline parallelism (0.5.22 on, trait layernorm_sp_pp). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import (
    MAX_PREFILL_TOKENS, Refused, gate, get, truthy_env)

LAYERNORM_SP_ARCHS = ("Qwen3ForCausalLM",)
MUSE_SPARK_ARCH = "MuseSparkForConditionalGeneration"
_MEGAMOE_CAPACITY_ENV = "SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK"
_MEGAMOE_CAPACITY = 8192  # srt/environ.py's default


@gate("enable_layernorm_sp", "enable_megamoe_for_layernorm_sp",
      context=("enable_dp_attention", "attn_dp_size", "ep_size", "quantization", "moe_a2a_backend",
               "enable_waterfill", "enable_mixed_chunk", "chunked_prefill_size", "max_prefill_tokens",
               "cuda_graph_backend_prefill", "cuda_graph_bs_prefill", "cuda_graph_max_bs_prefill"))
def check_layernorm_sp(args, r, algo, target_cfg, rules=None, runner=None, env=None):
    """handle_layernorm_sp. runner: the MoE runner backend the MoE hooks resolved (rules_moe.resolved_runner)."""
    megamoe = args.get("enable_megamoe_for_layernorm_sp")
    if not args.get("enable_layernorm_sp"):
        if megamoe:
            raise Refused("LAYERNORM_SP", "--enable-megamoe-for-layernorm-sp requires --enable-layernorm-sp.",
                          "enable_megamoe_for_layernorm_sp")
        return
    if target_cfg is None:
        return  # unknown target: decided by the host's SGLang
    archs = target_cfg.get("architectures") or [None]
    arch = archs[0]
    muse = bool((rules or {}).get("layernorm_sp_muse")) and arch == MUSE_SPARK_ARCH
    if megamoe and not muse:
        raise Refused("LAYERNORM_SP", "--enable-megamoe-for-layernorm-sp supports only Muse Spark (target %s)." % arch,
                      "enable_megamoe_for_layernorm_sp")
    if arch not in LAYERNORM_SP_ARCHS and not muse:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp is only supported for %s; got %s."
                      % (", ".join(LAYERNORM_SP_ARCHS), arch), "enable_layernorm_sp")
    if r["tp_size"] <= 1:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp requires --tp-size > 1: there is no sequence to shard "
                      "across a single TP rank.", "tp_size")
    if muse:
        _check_muse_topology(args, r, runner or "auto", megamoe)
    if (args.get("enable_dp_attention") and r["dp_size"] > 1) or get(args, "attn_dp_size", 1) > 1:
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp is not compatible with attention DP.", "enable_layernorm_sp")
    if algo is not None and not (muse and algo == "DFLASH"):
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp supports speculative decoding only with Muse Spark "
                      "DFLASH, not %s on %s." % (algo, arch), "enable_layernorm_sp")
    if r["pp_size"] > 1 and (rules or {}).get("layernorm_sp_pp", True):
        raise Refused("LAYERNORM_SP", "--enable-layernorm-sp is not compatible with pipeline parallelism "
                      "(--pp-size %s)." % r["pp_size"], "pp_size")
    if muse and megamoe:
        _check_muse_megamoe(args, r, env)
    elif muse and ("SGLANG_MOE_NVFP4_DISPATCH" not in (env or {}) or truthy_env(env, "SGLANG_MOE_NVFP4_DISPATCH")):
        # unset, the FlashInfer A2A hook sets it for a modelopt_fp4 checkpoint (the only one this path takes)
        raise Refused("LAYERNORM_SP_MUSE", "Muse Spark --enable-layernorm-sp requires SGLANG_MOE_NVFP4_DISPATCH=0 (BF16 "
                      "FlashInfer A2A activations).", "env.SGLANG_MOE_NVFP4_DISPATCH")


def _check_muse_topology(args, r, runner, megamoe):
    """validate_layernorm_sp's Muse Spark checks: TP4/EP4 or TP8/EP8, NVFP4 weights (or BF16 with MegaMoE), the
    FlashInfer A2A backend (or none with MegaMoE), the flashinfer_trtllm runner."""
    tp, ep = r["tp_size"], get(args, "ep_size", 1)
    if (tp, ep) not in ((4, 4), (8, 8)):
        raise Refused("LAYERNORM_SP_MUSE", "Muse Spark --enable-layernorm-sp requires TP4/EP4 or TP8/EP8; got TP%s/EP%s."
                      % (tp, ep), "tp_size")
    quant = args.get("quantization")
    if quant != "modelopt_fp4" and not (quant is None and megamoe):
        raise Refused("LAYERNORM_SP_MUSE", "Muse Spark --enable-layernorm-sp requires NVFP4 weights with --quantization "
                      "modelopt_fp4, or BF16 weights with --enable-megamoe-for-layernorm-sp.", "quantization")
    a2a = get(args, "moe_a2a_backend", "none")
    if args.get("enable_waterfill") and a2a not in ("deepep", "megamoe"):
        a2a = "deepep"
    if megamoe and a2a not in ("none", "flashinfer"):
        raise Refused("LAYERNORM_SP_MUSE", "Muse MegaMoE prefill requires --moe-a2a-backend none or flashinfer (got %s)."
                      % a2a, "moe_a2a_backend")
    if not megamoe and a2a != "flashinfer":
        raise Refused("LAYERNORM_SP_MUSE", "Muse Spark --enable-layernorm-sp requires --moe-a2a-backend flashinfer (got "
                      "%s)." % a2a, "moe_a2a_backend")
    if runner != "flashinfer_trtllm":
        raise Refused("LAYERNORM_SP_MUSE", "Muse Spark --enable-layernorm-sp requires --moe-runner-backend "
                      "flashinfer_trtllm (got %s)." % runner, "moe_runner_backend")


def _prefill_capture_max(args):
    """The largest prefill CUDA graph capture size the flags set (cuda_graph_hook.py: the explicit list, else the
    sizes generate_prefill_cuda_graph_batch_sizes gives under --cuda-graph-max-bs-prefill), or None: the default
    sizes, which cover the chunked prefill size."""
    sizes = args.get("cuda_graph_bs_prefill")
    if sizes is not None:
        return max(sizes) if sizes else 0
    max_bs = args.get("cuda_graph_max_bs_prefill")
    if max_bs is None:
        return None
    steps = list(range(4, 33, 4)) + list(range(48, 257, 16)) + list(range(288, 513, 32)) + \
        list(range(576, 1025, 64)) + list(range(1280, 4097, 256)) + list(range(4608, max_bs + 1, 512))
    steps = [s for s in steps if s <= max_bs]
    return max(steps) if steps else 0


def _check_muse_megamoe(args, r, env):
    """handle_layernorm_sp's Muse MegaMoE prefill: no mixed chunks, the per-rank token budget within the MegaMoE
    buffer (validate_muse_megamoe_token_budget), an explicit breakable prefill CUDA graph bounded by a positive
    chunked prefill size its largest capture size covers. (Its pipeline-size check takes --pp-size < 1 only, which
    the engine refuses first.)"""
    if args.get("enable_mixed_chunk"):
        raise Refused("LAYERNORM_SP_MUSE", "--enable-megamoe-for-layernorm-sp is incompatible with --enable-mixed-chunk: "
                      "mixed batches bypass SP prefill.", "enable_mixed_chunk")
    chunk = args.get("chunked_prefill_size")
    try:
        capacity = int(str((env or {}).get(_MEGAMOE_CAPACITY_ENV, _MEGAMOE_CAPACITY)).strip())
    except ValueError:
        capacity = None  # SGLang's own parse answers
    if capacity is not None:
        # an unset chunked prefill size is the one SGLang derives from the GPU memory: positive, within the buffer
        budget = None if chunk is None else chunk if chunk > 0 else get(args, "max_prefill_tokens", MAX_PREFILL_TOKENS)
        if capacity <= 0 or (budget is not None and budget <= 0):
            raise Refused("LAYERNORM_SP_MUSE", "Muse MegaMoE requires positive prefill and per-rank token budgets.",
                          "chunked_prefill_size")
        per_rank = None if budget is None else -(-budget // r["tp_size"])
        if per_rank is not None and per_rank > capacity:
            raise Refused("LAYERNORM_SP_MUSE", "Muse MegaMoE needs %d tokens per rank, exceeding capacity %d; raise %s or "
                          "lower --chunked-prefill-size." % (per_rank, capacity, _MEGAMOE_CAPACITY_ENV),
                          "chunked_prefill_size")
    if args.get("cuda_graph_backend_prefill") == "breakable":
        if chunk is not None and chunk <= 0:
            raise Refused("LAYERNORM_SP_MUSE", "Muse MegaMoE breakable prefill requires a positive "
                          "--chunked-prefill-size.", "chunked_prefill_size")
        top = _prefill_capture_max(args)
        if top is not None and (top == 0 or (chunk is not None and top < chunk)):
            raise Refused("LAYERNORM_SP_MUSE", "Muse MegaMoE breakable prefill requires the largest prefill capture size "
                          "(%s) to cover --chunked-prefill-size (%s)." % (top, chunk), "cuda_graph_bs_prefill")
