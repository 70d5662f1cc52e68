# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""CUDA graph settings SGLang refuses at argument time (0.5.23 srt/arg_groups/cuda_graph_hook.py, memory_hook.py):
- handle_cuda_graph_config's validate_cuda_graph_config, after DWDP and before the platform hooks: a phase backend of
  --cuda-graph-config outside the phase's list (trait cuda_graph_backends, 0.5.14 on; through 0.5.18 in
  ServerArgs.__post_init__);
- handle_gpu_memory_settings on a CPU device, right after: the CPU graph's batch-size limit (the largest
  --cuda-graph-bs, else --torch-compile-max-bs) must be positive (every release);
- finalize_cuda_graph_prefill_max_context, at the end of the resolution pipeline (0.5.21 on, with
  --cuda-graph-prefill-max-context): the resolved page size, then the size, then its page-aligned value against the
  model's context length.
stdlib only."""
from __future__ import annotations

import json

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, is_int


def _graph_config(args):
    """--cuda-graph-config as SGLang's argparse type reads it (a JSON object of phase settings), or {}."""
    raw = args.get("cuda_graph_config")
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return {}  # SGLang's parser refuses it (not modelled)
    return value if isinstance(value, dict) else {}


@gate("cuda_graph_config", "cuda_graph_bs", "cuda_graph_bs_decode", "torch_compile_max_bs", context=("device",))
def check_cuda_graph_settings(args, rules):
    """validate_cuda_graph_config, then handle_gpu_memory_settings' CPU graph batch-size assert."""
    allowed = rules["cuda_graph_backends"]
    if allowed is not None and args.get("cuda_graph_config") is not None:
        config = _graph_config(args)
        for phase in ("decode", "prefill"):
            settings = config.get(phase)
            backend = settings.get("backend") if isinstance(settings, dict) else None
            if isinstance(backend, str) and backend not in allowed[phase]:
                raise Refused("CUDA_GRAPH_CONFIG", "--cuda-graph-config[%s].backend=%r not allowed; allowed: %s." % (
                    phase, backend, ", ".join(allowed[phase])), "cuda_graph_config")
    if str(args.get("device") or "").split(":", 1)[0] != "cpu":
        return
    bs = args.get("cuda_graph_bs_decode") or args.get("cuda_graph_bs")
    if bs:
        limit = max(bs)
    else:
        limit = args.get("torch_compile_max_bs")  # 0 or unset: the decode graph's max batch size, positive
        if not limit:
            return
    if limit <= 0:
        raise Refused("CUDA_GRAPH_BATCH_SIZES", "The CPU graph's batch sizes must be positive: the largest "
                      "--cuda-graph-bs (else --torch-compile-max-bs) is %s." % limit, "cuda_graph_bs")


@gate("cuda_graph_prefill_max_context", "cuda_graph_config", context=("context_length",))
def check_prefill_graph_max_context(args, rules, r, target_cfg):
    """finalize_cuda_graph_prefill_max_context (0.5.21 on: trait prefill_graph_max_context), at the pipeline's end: `r`
    the resolved settings."""
    if not rules["prefill_graph_max_context"]:
        return
    requested = args.get("cuda_graph_prefill_max_context")
    if requested is None:
        prefill = _graph_config(args).get("prefill")
        requested = prefill.get("max_context_size") if isinstance(prefill, dict) else None
    if not is_int(requested):
        return
    page = r.get("page_size")
    if page is None or page <= 0:
        raise Refused("CUDA_GRAPH_PREFILL_MAX_CONTEXT", "page_size must be resolved (positive) before the prefill CUDA "
                      "graph max context size: --page-size %s." % page, "page_size")
    if requested <= 0:
        raise Refused("CUDA_GRAPH_PREFILL_MAX_CONTEXT", "--cuda-graph-prefill-max-context must be a positive integer, "
                      "got %s." % requested, "cuda_graph_prefill_max_context")
    context = args.get("context_length")
    if context is None and target_cfg is not None:
        context = text_cfg(target_cfg).get("max_position_embeddings")
    aligned = (requested + page - 1) // page * page
    if is_int(context) and context > 0 and aligned > context:
        raise Refused("CUDA_GRAPH_PREFILL_MAX_CONTEXT", "--cuda-graph-prefill-max-context exceeds the model context "
                      "length: aligned size %s > %s." % (aligned, context), "cuda_graph_prefill_max_context")
