"""Generated configurations for the differential tests: config.json dirs and SGLang 0.5.23 argvs.

Models are config.json-only dirs written to a tmp dir (SGLang's resolution reads only config.json).
"""
import json
import os

from hypothesis import strategies as st

TARGETS = {
    # name: (architecture, layers, vocab, max_position_embeddings)
    "qwen3-36l": ("Qwen3ForCausalLM", 36, 151936, 40960),
    "qwen3-8l-small-vocab": ("Qwen3ForCausalLM", 8, 465, 2048),
    "llama-32l": ("LlamaForCausalLM", 32, 128256, 131072),
}

DRAFTS = {
    # name: dict of config.json fields (besides the common ones)
    "b16": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 9, 17, 25, 33]}},
    "b8": {"block_size": 8,
           "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": [1, 9, 17]}},
    "top-only-b4": {"block_size": 4, "dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "nested-only-b12": {"dflash_config": {"block_size": 12, "mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "nested-wins-b8-top16": {"block_size": 16, "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": [1]}},
    "no-block-size": {"dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "block-size-0": {"block_size": 0, "dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 2]}},
    "empty-layer-ids": {"block_size": 8, "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": []}},
    "layer-ids-out-of-range": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 40]}},
    "mask-outside-small-vocab": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": 9999, "target_layer_ids": [0, 1]}},
    "negative-mask": {"block_size": 16, "dflash_config": {"block_size": 16, "mask_token_id": -1, "target_layer_ids": [0, 1]}},
    "no-layer-count": {"block_size": 16, "num_hidden_layers": None, "dflash_config": {"block_size": 16, "target_layer_ids": [0, 1]}},
    "zero-layers": {"block_size": 16, "num_hidden_layers": 0, "dflash_config": {"block_size": 16, "target_layer_ids": [0, 1]}},
    "sliding-b16": {"block_size": 16, "layer_types": ["sliding_attention"], "sliding_window": 2048,
                    "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 9]}},
    "causal-b8": {"block_size": 8, "is_causal": True, "dflash_config": {"block_size": 8, "mask_token_id": 151669, "target_layer_ids": [1, 9]}},
    "short-context": {"block_size": 16, "max_position_embeddings": 1024, "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 2]}},
}


def write_models(root):
    """Write every target and drafter config.json under `root`; return {name: dir}."""
    dirs = {}
    for name, (arch, layers, vocab, ctx) in TARGETS.items():
        d = os.path.join(root, "target-" + name)
        os.makedirs(d, exist_ok=True)
        cfg = {"architectures": [arch], "model_type": "llama" if "llama" in name else "qwen3", "hidden_size": 256,
               "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
               "num_hidden_layers": layers, "vocab_size": vocab, "max_position_embeddings": ctx,
               "rms_norm_eps": 1e-6, "torch_dtype": "bfloat16", "tie_word_embeddings": False}
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f)
        dirs["target-" + name] = d
    for name, extra in DRAFTS.items():
        d = os.path.join(root, "draft-" + name)
        os.makedirs(d, exist_ok=True)
        cfg = {"architectures": ["DFlashDraftModel"], "model_type": "qwen3", "hidden_size": 256,
               "intermediate_size": 512, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
               "num_hidden_layers": 1, "vocab_size": 151936, "max_position_embeddings": 40960,
               "num_target_layers": 36, "rms_norm_eps": 1e-6, "torch_dtype": "bfloat16"}
        cfg.update(extra)
        cfg = {k: v for k, v in cfg.items() if v is not None}
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f)
        dirs["draft-" + name] = d
    return dirs


ATTN = st.sampled_from(["triton", "flashinfer", "fa3", "torch_native", "fa4"] * 2 + ["trtllm_mha"])
DRAFT_ATTN = st.sampled_from(["flashinfer", "fa3", "fa4", "triton", "trtllm_mha", "ascend", "intel_xpu", "FA3",
                              "torch_native", "bogus"])


def often_none(strategy, nones=3):
    """None `nones` times out of nones+1: most generated configurations set few flags, like real ones."""
    return st.tuples(st.sampled_from(range(nones + 1)), strategy).map(lambda t: t[1] if t[0] == 0 else None)


case_strategy = st.fixed_dictionaries({
    "algorithm": st.sampled_from(["DFLASH"] * 12 + ["dflash", "NEXTN", "EAGLE", "EAGLE3", "DDTREE", None]),
    "target": st.sampled_from(sorted(TARGETS)),
    "draft": st.sampled_from(sorted(DRAFTS) * 4 + [None]),
    "num_draft_tokens": often_none(st.integers(-1, 20), 2),
    "dflash_block_size": often_none(st.integers(-1, 20), 5),
    "num_steps": often_none(st.integers(1, 5), 2),
    "eagle_topk": often_none(st.integers(1, 8), 2),
    "window": often_none(st.integers(0, 40), 2),
    "sink": often_none(st.integers(-1, 8), 12),
    "max_running_requests": often_none(st.integers(1, 64), 1),
    "pp_size": st.sampled_from([1] * 15 + [2]),
    "device": st.sampled_from(["cuda"] * 15 + ["cpu"]),
    "attention_backend": often_none(ATTN, 1),
    "prefill_attention_backend": often_none(ATTN, 3),
    "draft_attention_backend": often_none(DRAFT_ATTN, 1),
    "note": st.just(None),
    "env": st.sampled_from([{}] * 14 + [{"SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION": "1"},
                                         {"SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN": "1"}, {"SGLANG_ENABLE_PP_SPEC": "1"}]),
    "style": st.sampled_from(["plain"] * 20 + ["equals"] * 4 + ["prefix-window", "removed-window", "cuda-graph-max-bs",
                                                                 "mamba-scheduler", "garbage-int"]),
})


def argv_for(case, dirs):
    """The SGLang argv a generated case stands for."""
    argv = ["--model-path", dirs["target-" + case["target"]], "--device", case["device"]]
    eq = case["style"] == "equals"

    def add(flag, value):
        if value is None:
            return
        if eq:
            argv.append("%s=%s" % (flag, value))
        else:
            argv.extend([flag, str(value)])

    add("--speculative-algorithm", case["algorithm"])
    if case["draft"] is not None:
        add("--speculative-draft-model-path", dirs["draft-" + case["draft"]])
    add("--speculative-num-draft-tokens", case["num_draft_tokens"])
    add("--speculative-dflash-block-size", case["dflash_block_size"])
    add("--speculative-num-steps", case["num_steps"])
    add("--speculative-eagle-topk", case["eagle_topk"])
    window_flag = {"prefix-window": "--speculative-draft-window",
                   "removed-window": "--speculative-dflash-draft-window-size"}.get(case["style"],
                                                                                 "--speculative-draft-window-size")
    add(window_flag, case["window"])
    add("--speculative-draft-sink-size", case["sink"])
    add("--max-running-requests", case["max_running_requests"])
    if case["pp_size"] != 1:
        add("--pp-size", case["pp_size"])
    add("--attention-backend", case["attention_backend"])
    add("--prefill-attention-backend", case["prefill_attention_backend"])
    add("--speculative-draft-attention-backend", case["draft_attention_backend"])
    if case["style"] == "cuda-graph-max-bs":
        argv.extend(["--cuda-graph-max-bs", "8"])
    elif case["style"] == "mamba-scheduler":
        argv.extend(["--mamba-scheduler-strategy", "extra_buffer"])
    elif case["style"] == "garbage-int":
        argv.extend(["--speculative-num-steps", "three"])
    return argv


# The speculative settings compared when both sides accept.
COMPARED = ("speculative_algorithm", "speculative_num_draft_tokens", "speculative_num_steps",
            "speculative_eagle_topk", "speculative_draft_attention_backend", "max_running_requests",
            "speculative_draft_window_size")


def compare(static, answer, oracle_mod):
    """None when the static verdict and resolved settings agree with SGLang's answer, else a reason."""
    s_ok = static.sglang_verdict["accepted"] and not any(e["stage"] in ("parse", "resolve") for e in static.errors)
    o_ok = answer.get("error") is None
    if s_ok != o_ok:
        return "verdict: static %s (%s) vs SGLang %s (%s)" % (
            "accepts" if s_ok else "refuses", static.sglang_verdict.get("code") or [e["code"] for e in static.errors],
            "accepts" if o_ok else "refuses", answer.get("error"))
    if not o_ok:
        s_code = static.sglang_verdict.get("code") or next(
            e["code"] for e in static.errors if e["stage"] in ("parse", "resolve"))
        o_code = oracle_mod.classify(answer)
        if s_code != o_code:
            return "reason: static %s vs SGLang %s (%s)" % (s_code, o_code, answer.get("error"))
        return None
    res = answer.get("resolved") or {}
    diffs = []
    for k in COMPARED:
        sv = static.resolved.get(k)
        if k == "speculative_draft_attention_backend" and sv is None:
            continue  # the static engine leaves a GPU-dependent default unresolved
        if k in ("speculative_num_draft_tokens",) and sv is None and static.resolved.get("speculative_algorithm") is None:
            continue
        if sv != res.get(k):
            diffs.append("%s: static %r vs SGLang %r" % (k, sv, res.get(k)))
    return "; ".join(diffs) or None
