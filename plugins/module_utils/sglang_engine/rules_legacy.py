# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Refusals only the older releases' monolithic srt/server_args.py gives (0.5.11 into the 0.5.1x line), each
behind the release trait that says which releases have it (releases.py), entered from resolve.py, rules_moe.py and
rules_parallel.py where SGLang's own method runs: the intel_xpu MLA prefill refusal (attention hook), --enable-dp-lm-head
without attention DP (data-parallel hook), the Ascend fused-EP mode (a2a hook), --elastic-ep-rejoin (elastic EP hook)
and --lora-use-virtual-experts (check_lora_server_args). stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, get


def check_intel_xpu_mla_prefill(args, prefill, mla):
    """_handle_attention_backend_compatibility (0.5.11-0.5.19; trait intel_xpu_mla_prefill_refused), after the
    TRT-LLM checks: an MLA target's prefill backend (--prefill-attention-backend, else --attention-backend) may not be
    intel_xpu. The caller skips --device xpu, where SGLang may first switch the backend to triton on the host's XMX
    support."""
    if mla and prefill == "intel_xpu" and str(get(args, "device", "cuda")).split(":", maxsplit=1)[0] != "xpu":
        raise Refused("INTEL_XPU_MLA_PREFILL", "intel_xpu backend is only supported on decode for MLA models: set "
                      "--decode-attention-backend intel_xpu and use triton for prefill.", "prefill_attention_backend")


def check_ascend_fuse_mode(args, env):
    """_handle_a2a_moe's ascend_fuseep branch (0.5.11-0.5.15.post1; trait a2a_ascend_fuse_mode), on any device:
    SGLANG_NPU_FUSED_MOE_MODE (EnvInt, default 1) must be 1 or 2, and 2 takes --quantization modelslim only."""
    try:
        mode = int(str((env or {}).get("SGLANG_NPU_FUSED_MOE_MODE", 1)).strip())
    except ValueError:
        return  # EnvInt refuses the value itself, in its own words (not modelled)
    if mode not in (1, 2):
        raise Refused("ASCEND_FUSE_MODE", "Wrong value of fuse_mode=%s, the NPU only support 1 or 2 "
                      "(SGLANG_NPU_FUSED_MOE_MODE)." % mode, "env.SGLANG_NPU_FUSED_MOE_MODE")
    if mode == 2 and args.get("quantization") != "modelslim":
        raise Refused("ASCEND_FUSE_MODE", "When fuse_mode is set to 2, the NPU supports only ModelSlim quantization "
                      "(--quantization modelslim).", "quantization")


def check_fuseep_mode_env(argv, env):
    """prepare_server_args right after the parse (0.5.16-0.5.17 srt/server_args.py _apply_fuseep_mode_env_compat; trait
    fuseep_mode_env_at_parse), on any device: a set SGLANG_NPU_FUSED_MOE_MODE stands for --fuseep-mode unless the argv
    spells that flag (`--fuseep-mode` or `--fuseep-mode=...`), and must then be 1 or 2 (EnvInt: a value int() refuses
    reads as its default, 1)."""
    if any(a == "--fuseep-mode" or str(a).startswith("--fuseep-mode=") for a in argv or ()):
        return
    try:
        mode = int(env["SGLANG_NPU_FUSED_MOE_MODE"])
    except ValueError:
        return
    if mode not in (1, 2):
        raise Refused("ASCEND_FUSE_MODE", "Wrong value of SGLANG_NPU_FUSED_MOE_MODE=%s, the NPU only supports 1 or 2."
                      % mode, "env.SGLANG_NPU_FUSED_MOE_MODE")


def elastic_ep_rejoin(args, style, has_backend, join):
    """--elastic-ep-rejoin in _handle_elastic_ep (trait elastic_ep_rejoin): "assert" (0.5.11-0.5.15.post1) refuses it
    without --elastic-ep-backend, after the backend checks; "recover" (0.5.16-0.5.20, at the hook's head) turns it into
    --elastic-ep-join-mode recover and refuses another join mode. Returns the join mode the later checks read."""
    if not args.get("elastic_ep_rejoin"):
        return join
    if style == "assert":
        if not has_backend:
            raise Refused("ELASTIC_EP", "Elastic EP rejoin requires elastic_ep_backend to be set.", "elastic_ep_rejoin")
        return join
    if style == "recover":
        if join is None:
            return "recover"
        if join != "recover":
            raise Refused("ELASTIC_EP", "--elastic-ep-rejoin (deprecated) conflicts with --elastic-ep-join-mode %s."
                          % join, "elastic_ep_rejoin")
    return join


def check_lora_virtual_experts(args):
    """check_lora_server_args' last check with LoRA on (0.5.11; trait lora_virtual_experts_triton): virtual expert
    computation needs the triton LoRA backend (the default is csgmv)."""
    if args.get("lora_use_virtual_experts") and get(args, "lora_backend", "csgmv") != "triton":
        raise Refused("LORA_VIRTUAL_EXPERTS", "--lora-use-virtual-experts requires --lora-backend triton. Got: %s"
                      % get(args, "lora_backend", "csgmv"), "lora_backend")


LEGACY_GRPC_ENV = "SGLANG_ENABLE_GRPC"  # enters check_server_args' value checks without any of their flags given


def check_legacy_grpc_port(args, env):
    """check_server_args in the releases without --grpc-port (0.5.11-0.5.15.post1): the native gRPC server is
    env-only (SGLANG_ENABLE_GRPC, an EnvBool: true / 1 / yes / y), its port SGLANG_GRPC_PORT or --port + 10000
    (_handle_deprecated_args, which range-checks it first); with gRPC on, the port must differ from --port."""
    if str(env.get(LEGACY_GRPC_ENV, "")).lower() not in ("true", "1", "yes", "y"):
        return
    try:
        grpc = int(str(env.get("SGLANG_GRPC_PORT", "")).strip())
    except ValueError:
        return  # unset: --port + 10000, never --port (an unparsable value: EnvInt refuses it first, not modelled)
    if grpc == get(args, "port", 30000):
        raise Refused("GRPC_PORT", "SGLANG_GRPC_PORT (%s) must differ from --port (%s) with SGLANG_ENABLE_GRPC on."
                      % (grpc, get(args, "port", 30000)), "env.SGLANG_GRPC_PORT")
