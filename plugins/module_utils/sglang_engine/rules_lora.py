# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Refusals of SGLang's LoRA checks that need flags only (0.5.23 srt/arg_groups/lora_hook.py and
argparse_actions.py; through 0.5.18 the same checks in srt/server_args.py), beside the ones resolve._check_lora
holds: the --lora-paths parse action (a JSON item must name lora_name and lora_path), the triton_v2 LoRA
backend's unsupported modes, the rest of the LoRA + speculative decoding compatibility list, and the LoRA MoE
runners' requirements (check_lora_moe_runner_args). The adapter directories themselves are read only when the
server loads them: the argument checks never open them. Each group is gated (common.gate). stdlib only."""
from __future__ import annotations

import json

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get, truthy_env


@gate("lora_paths")
def check_lora_paths_action(args):
    """LoRAPathAction, at argument parsing (every release 0.5.11-0.5.23): an item that looks like a JSON object
    ('{' ... '}', after stripping) is parsed, and must hold the 'lora_name' and 'lora_path' keys."""
    for item in args.get("lora_paths") or ():
        text = str(item).strip()
        if not (text.startswith("{") and text.endswith("}")):
            continue
        try:
            obj = json.loads(text)
        except ValueError as e:
            raise Refused("LORA_PATHS_JSON", "--lora-paths item %r looks like JSON but does not parse: %s." % (text, e),
                          "lora_paths")
        if "lora_path" not in obj or "lora_name" not in obj:
            raise Refused("LORA_PATHS_JSON", "--lora-paths item %r looks like a JSON str, but it does not contain "
                          "'lora_name' and 'lora_path' keys." % text, "lora_paths")


def _v2_unsupported(args, option, env):
    """_check_v2_lora_modes (0.5.23, where --lora-backend triton_v2 and the lora_* MoE runners exist)."""
    attn_dp = get(args, "attn_dp_size", 1) > 1 or (bool(args.get("enable_dp_attention")) and get(args, "dp_size", 1) > 1)
    for unsupported, mode in ((attn_dp, "DP-attention with --attn-dp-size > 1"),
                              (args.get("enable_pdmux"), "PD-multiplexing"),
                              (args.get("enable_two_batch_overlap"), "two-batch overlap"),
                              (truthy_env(env, "SGLANG_EXPERIMENTAL_LORA_OPTI"), "SGLANG_EXPERIMENTAL_LORA_OPTI")):
        if unsupported:
            raise Refused("LORA_V2_MODE", "%s does not yet support %s." % (option, mode), "lora_backend")


@gate("lora_backend", context=("moe_runner_backend", "attn_dp_size", "enable_dp_attention", "dp_size", "enable_pdmux",
                               "enable_two_batch_overlap"))
def check_lora_v2_backend(args, env):
    """check_lora_server_args' first check with LoRA on (0.5.23): --lora-backend triton_v2 without a lora_* MoE
    runner refuses attention DP, PD-multiplexing, two-batch overlap and SGLANG_EXPERIMENTAL_LORA_OPTI. The caller
    runs it with LoRA on."""
    if args.get("lora_backend") == "triton_v2" and not str(get(args, "moe_runner_backend", "auto")).startswith("lora"):
        _v2_unsupported(args, "--lora-backend triton_v2", env)


@gate("moe_runner_backend", "speculative_moe_runner_backend")
def check_lora_spec_runner(args, env, algo):
    """The rest of check_lora_speculative_compatibility (0.5.19 on, after the adaptive check): the caller runs it
    with LoRA on and an algorithm LoRA takes (besides NGRAM). The experimental_sgl_trtllm MoE runner, on the
    target or the draft, is refused."""
    if "experimental_sgl_trtllm" in (args.get("moe_runner_backend"), args.get("speculative_moe_runner_backend")):
        raise Refused("LORA_SPECULATIVE", "LoRA with %s speculative decoding does not support the "
                      "experimental_sgl_trtllm MoE runner." % algo, "moe_runner_backend")


def check_lora_spec_env(env, algo):
    """The last of check_lora_speculative_compatibility (0.5.19 on): SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1."""
    if truthy_env(env, "SGLANG_ENABLE_OVERLAP_PLAN_STREAM"):
        raise Refused("LORA_SPECULATIVE", "LoRA with %s speculative decoding does not support "
                      "SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1: remove it from env." % algo, "env")


@gate("moe_runner_backend", "speculative_moe_runner_backend",
      context=("enable_lora", "lora_paths", "lora_backend", "quantization", "moe_a2a_backend", "ep_join_mode",
               "enable_eplb", "init_expert_location", "ep_num_redundant_experts", "attn_dp_size",
               "enable_dp_attention", "dp_size", "enable_pdmux", "enable_two_batch_overlap"))
def check_lora_moe_runner(args, env, algo):
    """check_lora_moe_runner_args, the last of check_lora_server_args (0.5.23, where the lora_* MoE runners exist),
    whether LoRA is on or not: a draft does not take a lora_* runner; the target's needs LoRA, the triton_v2
    LoRA backend, its supported modes, an unquantized / FP8 / NVFP4 (lora_marlin only) MoE, standard dispatch,
    no elastic EP and trivial expert placement."""
    spec = args.get("speculative_moe_runner_backend")
    if algo is not None and spec is not None and str(spec).startswith("lora"):
        raise Refused("LORA_MOE_RUNNER", "--speculative-moe-runner-backend %s is not supported: the LoRA MoE runner "
                      "serves adapter traffic on the target model." % spec, "speculative_moe_runner_backend")
    backend = str(get(args, "moe_runner_backend", "auto"))
    if not backend.startswith("lora"):
        return
    if not (args.get("enable_lora") or args.get("lora_paths")):
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s requires --enable-lora (or --lora-paths)." % backend,
                      "moe_runner_backend")
    if get(args, "lora_backend", "csgmv") != "triton_v2":
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s requires --lora-backend triton_v2." % backend,
                      "lora_backend")
    _v2_unsupported(args, "--moe-runner-backend %s" % backend, env)
    quant = args.get("quantization")
    if quant not in (None, "fp8", "modelopt_fp4"):
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s supports unquantized BF16, 128-block FP8 and "
                      "ModelOpt NVFP4 MoE, got --quantization %s." % (backend, quant), "quantization")
    if quant == "modelopt_fp4" and backend != "lora_marlin":
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s cannot run ModelOpt NVFP4 MoE; use "
                      "--moe-runner-backend lora_marlin." % backend, "moe_runner_backend")
    if get(args, "moe_a2a_backend", "none") != "none":
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s requires Standard dispatch, got --moe-a2a-backend "
                      "%s." % (backend, args["moe_a2a_backend"]), "moe_a2a_backend")
    if args.get("ep_join_mode") is not None:
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s does not yet support elastic EP." % backend,
                      "ep_join_mode")
    if args.get("enable_eplb") or get(args, "init_expert_location", "trivial") != "trivial" or \
            get(args, "ep_num_redundant_experts", 0) > 0:
        raise Refused("LORA_MOE_RUNNER", "--moe-runner-backend %s currently requires trivial expert placement without "
                      "EPLB or redundant experts." % backend, "moe_runner_backend")
