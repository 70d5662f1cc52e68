# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""MoE kernel checks of SGLang's argument resolution: which quantizations and expert-parallel sizes an explicit
--moe-runner-backend takes (0.5.23 srt/arg_groups/moe_hook.py handle_moe_kernel_config; through 0.5.18
ServerArgs._handle_moe_kernel_config). It runs after context parallelism and before the a2a backend, shared-experts
TP, EPLB and elastic EP. The same lists in every release 0.5.11-0.5.23 (read in each kit's source), so no trait.
The other runners' checks need a model's quantization metadata (flashinfer_cutedsl: NVFP4 MoE layers) or an a2a
backend's resolution and are not modelled. stdlib only.
"""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get

_FLASHINFER_CUTLASS_QUANT = ("modelopt_fp4", "modelopt_fp8", "modelopt_mixed", None)


@gate("moe_runner_backend", context=("quantization", "ep_size", "tp_size"))
def check_moe_kernel(args):
    runner = args["moe_runner_backend"]
    quant = args.get("quantization")
    ep, tp = get(args, "ep_size", 1), get(args, "tp_size", 1)
    if runner == "flashinfer_cutlass":
        if quant not in _FLASHINFER_CUTLASS_QUANT:
            raise Refused("MOE_RUNNER_QUANTIZATION", "Invalid quantization %r: FlashInfer Cutlass MoE "
                          "(--moe-runner-backend flashinfer_cutlass) supports only modelopt_fp4, modelopt_fp8, "
                          "modelopt_mixed or bfloat16 (no --quantization)." % quant, "quantization")
        if ep not in (1, tp):
            raise Refused("MOE_RUNNER_EP_SIZE", "The expert parallel size must be 1 or the same as the tensor parallel "
                          "size with --moe-runner-backend flashinfer_cutlass (--ep-size %s, --tp-size %s)." % (ep, tp),
                          "ep_size")
    if runner == "cutlass" and quant in ("fp8", "mxfp8") and ep != 1:
        raise Refused("MOE_RUNNER_EP_SIZE", "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1 (--ep-size %s)."
                      % ep, "ep_size")
