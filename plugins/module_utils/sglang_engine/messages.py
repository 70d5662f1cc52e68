# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""SGLang error text -> the engine's stable codes, for the installed mode (the host's SGLang answers in
text). The differential tests classify SGLang's messages with a table of their own. stdlib only."""
from __future__ import annotations

import re


def code_for_sglang_message(message, parse=False):
    """Map an error text from SGLang (or argparse) onto the engine's stable code."""
    for code, rx in _SGLANG_MESSAGES:
        if re.search(rx, message):
            return code
    return "PARSE_ERROR" if parse else "SGLANG_REJECTED"


_SGLANG_MESSAGES = (
    ("PARSE_AMBIGUOUS", r"ambiguous option"),
    ("PARSE_UNRECOGNIZED", r"unrecognized arguments"),
    ("PARSE_MISSING_VALUE", r"expected (at least )?one argument"),
    ("PARSE_INVALID_VALUE", r"invalid (int|float|choice|human_readable_int)|ignored explicit argument"),
    ("UNKNOWN_ALGORITHM", r"Unknown speculative algorithm name"),
    ("DFLASH_DEVICE", r"DFLASH speculative decoding (is not supported by|only supports CUDA)"),
    ("DFLASH_PP", r"DFLASH speculative decoding only supports pp_size == 1"),
    ("DFLASH_NO_DRAFT", r"DFLASH speculative decoding requires setting --speculative-draft-model-path"),
    ("DFLASH_BLOCK_SIZE_NONPOSITIVE", r"dflash-block-size to be positive"),
    ("DFLASH_BLOCK_SIZE_MISMATCH", r"are set but they differ"),
    ("WINDOW_NONPOSITIVE", r"window-size (must be positive|to be positive)"),
    ("WINDOW_LT_BLOCK", r"window-size must be >="),
    ("SINK_NEGATIVE", r"sink-size must be non-negative"),
    ("SINK_WITHOUT_WINDOW", r"sink-size requires"),
    ("EAGLE_TRTLLM_TOPK", r"trtllm_mha backend only supports topk = 1"),
    ("PP_SPEC_PREFILL_ONLY", r"PP \+ speculative decoding \(MTP\) is only supported on prefill"),
    ("PP_SPECULATIVE", r"Pipeline parallelism currently only supports EAGLE"),
    ("EAGLE_PAGE_TREE", r"speculative_eagle_topk > 1 with page_size > 1"),
    ("TRTLLM_MHA_GPU", r"TRTLLM MHA backend for (prefill|decode)"),
    ("TRTLLM_MHA_SM120_FP8", r"TRTLLM FMHAv2 prefill on SM120"),
    ("MEMORY_WEIGHTS_EXCEED_BUDGET", r"Loaded weights leave no GPU memory for the KV cache|Not enough memory\. Please "
     r"try to increase --mem-fraction-static"),
    ("CONTEXT_TOO_LONG", r"User-specified context_length \(\d+\) is greater than the derived"),
    ("SERVED_MODEL_NAME_COLON", r"served_model_name cannot contain a colon"),
    ("PP_SPECULATIVE", r"Pipeline parallelism is not compatible with overlap schedule, speculative"),
    ("FLEX_ATTENTION_SPECULATIVE", r"Speculative decoding is currently not supported with Flex Attention"),
    ("EAGLE_PARAMS_PARTIAL", r"^AssertionError$|^$"),
    ("EAGLE_TOPK_MISSING", r"'>' not supported between instances of 'NoneType'"),
    ("GRPC_ARGS", r"SGLANG_GRPC_WORKER_THREADS \(-?\d+\) must be >= 1|SGLANG_GRPC_PORT \(-?\d+\) must be "
     r"between|--grpc-port is not supported with"),
    ("PARSE_RETIRED_FLAG", r"error: --[\w-]+ is no longer supported\."),
)
