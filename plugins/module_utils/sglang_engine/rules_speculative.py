# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Refusals and rewrites of SGLang's speculative hook (srt/arg_groups/speculative_hook.py) for algorithms
beyond DFLASH and the EAGLE family that need flags only: UNO (_handle_uno, every release whose algorithm
registry has UNO: 0.5.20 on). resolve.resolve() calls it where SGLang's dispatcher does, after the shared
checks of handle_speculative_decoding. Per-release differences are traits (releases.py). stdlib only."""
from __future__ import annotations

import os

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, get
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.rules_parallel import attn_dp_enabled


def _uno(msg, field):
    return Refused("UNO_ARGS", msg, field)


def resolve_uno(args, rules, r, result, prefill, decode):
    """_handle_uno in its order: the device, no draft, the LoRA path, sampling flags, the verify width Q
    (--speculative-num-draft-tokens), the candidate top-k K (tree mode when K > 1: F = num_steps + 1 and the
    tree's limits), the parallel layout, LoRA serving, rejection sampling, and FA3 for prefill and decode."""
    device = str(r.get("device") or "cuda")
    if not device.startswith("cuda"):
        raise _uno("UNO only supports CUDA, got --device %s." % device, "device")
    if args.get("speculative_draft_model_path") is not None:
        raise _uno("UNO reuses the target model and does not accept --speculative-draft-model-path.",
                   "speculative_draft_model_path")
    if args.get("uno_lora_path") is None:
        raise _uno("UNO requires --uno-lora-path.", "uno_lora_path")
    if args.get("enable_deterministic_inference"):
        raise _uno("UNO does not support --enable-deterministic-inference (its sampling path has no per-request "
                   "seeds).", "enable_deterministic_inference")
    if args.get("enable_strict_thinking"):
        raise _uno("UNO does not support --enable-strict-thinking (it needs grammar decoding).",
                   "enable_strict_thinking")
    q = args.get("speculative_num_draft_tokens")
    if q is None or q < 1:
        raise _uno("UNO requires --speculative-num-draft-tokens, a positive verify width Q.",
                   "speculative_num_draft_tokens")
    k = get(args, "speculative_eagle_topk", 1)
    if k < 1:
        raise _uno("UNO requires --speculative-eagle-topk >= 1, got %s." % k, "speculative_eagle_topk")
    steps = args.get("speculative_num_steps")
    if k > 1:
        if steps is None:
            raise _uno("UNO tree mode (--speculative-eagle-topk > 1) requires --speculative-num-steps (draft width "
                       "F = num_steps + 1).", "speculative_num_steps")
        if steps < 1:
            raise _uno("UNO tree mode requires --speculative-num-steps to be positive, got %s." % steps,
                       "speculative_num_steps")
        width = steps + 1
        if q < width:
            raise _uno("UNO tree mode requires Q >= F; got Q=%s, F=%s." % (q, width), "speculative_num_draft_tokens")
        if q > 128:
            raise _uno("UNO tree mode supports at most Q=128 verify nodes, got Q=%s." % q, "speculative_num_draft_tokens")
        if q * k > 2048:
            raise _uno("UNO tree mode supports Q*K <= 2048; got %s*%s." % (q, k), "speculative_num_draft_tokens")
        capacity, level = 1, 1
        for _step in range(steps):
            level *= k
            capacity += level
            if capacity >= q:
                break
        if q > capacity:
            raise _uno("UNO tree mode cannot build Q=%s from F=%s, K=%s (capacity %s)." % (q, width, k, capacity),
                       "speculative_num_draft_tokens")
        if q - 1 > k * max(steps - 1, 0) + 1:
            raise _uno("UNO tree mode cannot represent Q=%s in EAGLE's parent-list ABI: Q-1 exceeds K*(F-2)+1=%s."
                       % (q, k * max(steps - 1, 0) + 1), "speculative_num_draft_tokens")
        if args.get("enable_pdmux"):
            raise _uno("UNO tree mode does not yet support PDMux.", "enable_pdmux")
        if args.get("enable_two_batch_overlap"):
            raise _uno("UNO tree mode does not yet support two-batch overlap.", "enable_two_batch_overlap")
        if get(args, "speculative_accept_threshold_single", 1.0) != 1.0 or \
                get(args, "speculative_accept_threshold_acc", 1.0) != 1.0:
            raise _uno("UNO tree mode requires both speculative accept thresholds to be 1.0.",
                       "speculative_accept_threshold_single")
    else:
        for key in ("speculative_num_steps", "speculative_eagle_topk"):
            if args.get(key) not in (None, 1):
                result.warn("SGLANG_OVERRIDE", "UNO uses %s=1; SGLang overrides %s." % (key, args[key]))
        steps = 1
    r["speculative_num_draft_tokens"], r["speculative_num_steps"], r["speculative_eagle_topk"] = q, steps, k
    if r["tp_size"] != 1 or r["pp_size"] != 1:
        raise _uno("UNO requires --tp-size 1 and --pp-size 1.", "tp_size")
    if rules["uno_attn_dp_resolved"]:  # attention DP as resolved (--dp-size > 1 with it, or --attn-dp-size > 1)
        attn_dp = (bool(args.get("enable_dp_attention")) and r["dp_size"] > 1) or get(args, "attn_dp_size", 1) > 1
        # specserve (session 14): attn_dp_enabled_of counts an Elastic EP scale-up joiner too (ep_scale_joiner_of)
        attn_dp = attn_dp or args.get("ep_join_mode") == "scale"
    else:  # 0.5.20-0.5.21 read the resolving flag, which the data-parallel defaults drop at --dp-size 1 (moe, session 16)
        attn_dp = attn_dp_enabled(args, rules)
    if attn_dp or get(args, "attn_cp_size", 1) != 1:
        raise _uno("UNO does not support DP attention or context parallelism.", "enable_dp_attention")
    if args.get("enable_lora") or args.get("lora_paths"):
        raise _uno("UNO does not support public Multi-LoRA serving.", "enable_lora")
    if args.get("speculative_use_rejection_sampling"):
        raise _uno("UNO manages its own stochastic verification: drop --speculative-use-rejection-sampling.",
                   "speculative_use_rejection_sampling")
    if args.get("enable_mixed_chunk"):
        r["enable_mixed_chunk"] = False
        result.warn("SGLANG_OVERRIDE", "SGLang disables mixed chunked prefill for UNO.")
    if None in (prefill, decode):
        result.warn("UNO_BACKEND_UNKNOWN", "UNO needs fa3 for prefill and decode attention; the backends are chosen "
                    "on the host (no GPU facts given): set --attention-backend fa3.")
    elif (prefill, decode) != ("fa3", "fa3"):
        raise _uno("UNO requires FA3 for both prefill and decode attention; got prefill=%r, decode=%r."
                   % (prefill, decode), "attention_backend")


def resolve_ngram(args, rules, r, result):
    """_handle_ngram in its order (releases with the ngram_rules trait; elsewhere NGRAM passes through unmodelled):
    the device, the defaults (max_running_requests 48, topk = --speculative-ngram-max-bfs-breadth, 12 draft tokens,
    num_steps = draft tokens // topk), the external SAM corpus budgets, topk > 1 with paged KV off flashinfer, and
    attention DP."""
    how = rules["ngram_rules"]
    device = str(r.get("device") or "cuda")
    devices = how["devices"]
    if not (device.startswith("cuda") if devices == "cuda" else device in devices):
        raise Refused("NGRAM_ARGS", "Ngram speculative decoding only supports %s devices in SGLang %s, got --device %s."
                      % ("CUDA" if devices == "cuda" else ", ".join(devices), rules["version"], device), "device")
    if args.get("max_running_requests") is None:
        r["max_running_requests"] = 48
        result.warn("SGLANG_DEFAULT", "max_running_requests is not set: SGLang resets it to 48 for speculative decoding.")
    if args.get("enable_mixed_chunk"):
        r["enable_mixed_chunk"] = False
        result.warn("SGLANG_OVERRIDE", "SGLang disables mixed chunked prefill with NGRAM.")
    topk = get(args, "speculative_ngram_max_bfs_breadth", 10)
    if args.get("speculative_eagle_topk") not in (None, topk):
        result.warn("SGLANG_OVERRIDE", "NGRAM sets speculative_eagle_topk to --speculative-ngram-max-bfs-breadth (%s)."
                    % topk)
    ndt = get(args, "speculative_num_draft_tokens", 12)
    steps = args.get("speculative_num_steps")
    if steps is None and how["steps"]:
        steps = ndt // topk if topk else None
    r["speculative_eagle_topk"], r["speculative_num_draft_tokens"], r["speculative_num_steps"] = topk, ndt, steps
    if args.get("speculative_ngram_external_corpus_path") is not None:
        budget = get(args, "speculative_ngram_external_sam_budget", 0)
        if budget <= 0:
            raise Refused("NGRAM_ARGS", "--speculative-ngram-external-sam-budget must be positive when "
                          "--speculative-ngram-external-corpus-path is set.", "speculative_ngram_external_sam_budget")
        if get(args, "speculative_ngram_external_corpus_max_tokens", 10000000) <= 0:
            raise Refused("NGRAM_ARGS", "--speculative-ngram-external-corpus-max-tokens must be positive when "
                          "--speculative-ngram-external-corpus-path is set.",
                          "speculative_ngram_external_corpus_max_tokens")
        if budget > ndt - 1:
            raise Refused("NGRAM_ARGS", "--speculative-ngram-external-sam-budget (%s) must be <= "
                          "speculative_num_draft_tokens - 1 (%s)." % (budget, ndt - 1),
                          "speculative_ngram_external_sam_budget")
    backend = r.get("attention_backend")
    if topk > 1 and r.get("page_size", 1) > 1 and backend is not None and backend != "flashinfer":
        raise Refused("NGRAM_PAGE_TREE", "NGRAM with speculative_eagle_topk %s (--speculative-ngram-max-bfs-breadth) > 1 "
                      "and page_size %s > 1 is only supported on the flashinfer backend, got %s." % (
                          topk, r["page_size"], backend), "page_size")
    if how["attn_dp"] == "resolved":
        attn_dp = (bool(args.get("enable_dp_attention")) and r["dp_size"] > 1) or get(args, "attn_dp_size", 1) > 1
    else:
        attn_dp = bool(args.get("enable_dp_attention"))
    if attn_dp:
        raise Refused("NGRAM_ARGS", "Currently ngram speculative decoding does not support dp attention.",
                      "enable_dp_attention")


# -- specserve (session 14) --
GEMMA4_DRAFT_ARCHS = ("Gemma4AssistantForCausalLM", "Gemma4UnifiedAssistantForCausalLM")


def check_gemma4_draft(draft_cfg):
    """_resolve_speculative_algorithm_alias (trait gemma4_draft_eagle3_refused, 0.5.12 on): a Gemma4 assistant draft
    takes NEXTN / EAGLE (which SGLang turns into FROZEN_KV_MTP, not modelled), never EAGLE3. An unread draft config
    is not judged."""
    archs = (draft_cfg or {}).get("architectures") or []
    if isinstance(archs, list) and any(a in GEMMA4_DRAFT_ARCHS for a in archs):
        raise Refused("GEMMA4_DRAFT_ALGORITHM", "Gemma4AssistantForCausalLM draft requires --speculative-algorithm NEXTN "
                      "or EAGLE; EAGLE3 is not supported for this draft architecture.", "speculative_algorithm")


# -- misc (session 15) --
def _iquest(msg, field):
    return Refused("IQUEST_MTP_DRAFT", msg, field)


def resolve_iquest_mtp_draft(args, target_cfg, draft_cfg, result):
    """_handle_iquest_q1_mtp_draft (trait iquest_mtp_draft, 0.5.21 on; the EAGLE-family hook, before the automatic
    step choice) in its order: an IQuest Q1 target needs its own draft path, an IQuest Q1 MTP draft checkpoint
    (srt/configs/iquest_q1.py IQuestQ1MTPConfig, model_type iquest_q1_mtp) of the target's width, vocabulary and
    layer count, no token map, steps (given, else the draft's num_draft_slots) of at least 1, top-k 1 and a verify
    width of steps + 1; it then sets the three. Returns (steps, topk, num_draft_tokens), or None for another target
    (or an unread draft config: not judged, with a warning)."""
    archs = (target_cfg or {}).get("architectures") or [None]
    if archs[0] != "IQuestQ1ForCausalLM":
        return None
    if args.get("speculative_draft_model_path") in (None, args.get("model_path")):
        raise _iquest("IQuest Q1 requires an independent draft model path: give --speculative-draft-model-path (its MTP "
                      "draft checkpoint).", "speculative_draft_model_path")
    if draft_cfg is None:
        result.warn("IQUEST_MTP_DRAFT_UNKNOWN", "the IQuest Q1 MTP draft's config.json was not given: SGLang checks it "
                    "against the target and takes the draft steps from its num_draft_slots at start.")
        return None
    if draft_cfg.get("model_type") != "iquest_q1_mtp":
        raise _iquest("IQuest Q1 requires an independent MTP draft checkpoint (model_type iquest_q1_mtp); got %r."
                      % draft_cfg.get("model_type"), "speculative_draft_model_path")
    # IQuestQ1MTPConfig: the draft's own fields over its target_config's, then IQuestQ1Config's defaults
    inner = draft_cfg.get("target_config") if isinstance(draft_cfg.get("target_config"), dict) else {}

    def drafted(key, default):
        return draft_cfg.get(key, inner.get(key, default))
    if drafted("hidden_size", 3072) != target_cfg.get("hidden_size", 3072) or \
            drafted("vocab_size", 160000) != target_cfg.get("vocab_size", 160000):
        raise _iquest("MTP draft hidden size and vocabulary must match the target.", "speculative_draft_model_path")
    layers = draft_cfg.get("num_target_layers")
    if layers is None:
        layers = inner.get("num_hidden_layers", 88)
    if layers != target_cfg.get("num_hidden_layers", 88):
        raise _iquest("MTP draft target layer count must match the target.", "speculative_draft_model_path")
    if args.get("speculative_token_map") is not None:
        raise _iquest("MTP uses its own full-vocabulary embedding and head: drop --speculative-token-map.",
                      "speculative_token_map")
    steps = args.get("speculative_num_steps")
    if steps is None:
        steps = draft_cfg.get("num_draft_slots", 7)
    if steps < 1:
        raise _iquest("MTP requires positive speculative_num_steps.", "speculative_num_steps")
    if args.get("speculative_eagle_topk") not in (None, 1):
        raise _iquest("MTP requires --speculative-eagle-topk 1.", "speculative_eagle_topk")
    if args.get("speculative_num_draft_tokens") not in (None, steps + 1):
        raise _iquest("MTP verification width must equal draft steps + 1 (%s)." % (steps + 1),
                      "speculative_num_draft_tokens")
    return steps, 1, steps + 1


DSPARK_BUNDLE_KEYS = ("dspark_block_size", "dspark_markov_rank", "dspark_noise_token_id", "dspark_target_layer_ids")


def _dspark(msg, field):
    return Refused("DSPARK_ARGS", msg, field)


def _env_bool(env, name):
    """envs.EnvBool.get(): true / 1 / yes / y (any case) is True; unset or anything else the default, False."""
    return str((env or {}).get(name, "")).lower() in ("true", "1", "yes", "y")


def _draft_block_keys(draft_cfg):
    """Whether the draft's config.json names a block size anywhere SGLang's DSpark / DFlash parsers look."""
    for where in (draft_cfg, draft_cfg.get("dflash_config"), draft_cfg.get("dspark_config"), draft_cfg.get("text_config")):
        if isinstance(where, dict) and any(where.get(k) is not None for k in ("block_size", "dspark_block_size")):
            return True
    return False


def resolve_dspark(args, env, rules, r, target_cfg, draft_cfg, result):
    """_handle_dspark (trait dspark_rules, 0.5.16 on) in its order, as far as flags and the target's config.json
    decide: the device, --enable-dp-lm-head under attention DP, pipeline parallelism (PD prefill only from 0.5.21),
    the draft path (a draft bundled in the target's config.json by its dspark_* keys; 0.5.23: or a dspark/
    subfolder of a local target dir), num_steps and topk set to 1, and with --speculative-dspark-block-size the gamma
    (positive) and the verify width gamma + 1, or a draft config.json without any block size (the verify width as
    given, >= 2; else gamma 7). Under attention DP: the MoE a2a backends it takes, SGLANG_RAGGED_VERIFY_MODE static
    with an a2a backend (from 0.5.18) or prefill coordination (from 0.5.22), no context parallelism, a matching
    --speculative-moe-a2a-backend (an NPU exempt from 0.5.18). Past that (a gamma read from the draft's
    config.json, the defaults and backend checks after the verify width) the rest is passed through with
    ALGORITHM_NOT_MODELLED."""
    how = rules["dspark_rules"]
    device = str(r.get("device") or "cuda")
    if not device.startswith(how["devices"]):
        raise _dspark("DSpark speculative decoding only supports %s device, got --device %s." % (
            " / ".join(d.upper() for d in how["devices"]), device), "device")
    if how["attn_dp"] == "flag":
        attn_dp = bool(args.get("enable_dp_attention"))
    elif how["attn_dp"] == "flag_dp":
        attn_dp = bool(args.get("enable_dp_attention")) and r["dp_size"] > 1
    else:  # cfg.attn_dp_size > 1 (the deprecated spelling turned into it)
        attn_dp = get(args, "attn_dp_size", 1) > 1 or (bool(args.get("enable_dp_attention")) and r["dp_size"] > 1)

    def rest(what):
        result.warn("ALGORITHM_NOT_MODELLED", "speculative_algorithm DSPARK: %s is passed through (not modelled); check "
                    "it with mode: installed." % what)

    if attn_dp:
        if not args.get("enable_dp_lm_head"):
            raise _dspark("DSpark with dp attention requires --enable-dp-lm-head.", "enable_dp_lm_head")
        exempt = how["npu_exempt"] and device.startswith("npu")
        a2a = args.get("moe_a2a_backend") or "none"
        if not exempt and a2a not in how["dp_a2a"]:
            raise _dspark("DSpark with dp attention supports moe_a2a_backend %s, got %r." % (
                " / ".join(how["dp_a2a"]), a2a), "moe_a2a_backend")
        coordinated = how["ragged"] == "a2a_or_env" and _env_bool(env, "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION")
        if not exempt and how["ragged"] and (a2a != "none" or coordinated):
            mode = (env or {}).get("SGLANG_RAGGED_VERIFY_MODE", "static")
            if mode not in ("static", "cap-accept", "compact"):
                return rest("an invalid SGLANG_RAGGED_VERIFY_MODE")
            if mode != "static":
                raise _dspark("DSpark DP MoE or prefill coordination requires SGLANG_RAGGED_VERIFY_MODE=static.", "env")
        if get(args, "attn_cp_size", 1) > 1:
            raise _dspark("DSpark with dp attention does not support context parallel (attn_cp_size=%s)."
                          % args["attn_cp_size"], "attn_cp_size")
        spec_a2a = args.get("speculative_moe_a2a_backend")
        if not exempt and spec_a2a is not None and spec_a2a != a2a:
            raise _dspark("DSpark ignores --speculative-moe-a2a-backend; with dp attention it must match the target "
                          "moe_a2a_backend=%r (got %r)." % (a2a, spec_a2a), "speculative_moe_a2a_backend")
    if r["pp_size"] != 1 and (how["pp"] == "any" or args.get("disaggregation_mode") != "prefill"):
        raise _dspark("DSpark speculative decoding requires pp_size == 1%s." % (
            "" if how["pp"] == "any" else " off a PD prefill server"), "pp_size")
    if args.get("speculative_draft_model_path") is None:
        if not isinstance(target_cfg, dict):
            return rest("the draft path (the target's config.json was not read)")
        if any(target_cfg.get(k) is not None for k in DSPARK_BUNDLE_KEYS):
            return rest("the draft bundled in the target checkpoint")
        if how["subfolder"]:
            path = str(args.get("model_path") or "")
            if not os.path.isdir(path):
                return rest("the draft path (a dspark/ subfolder of a target that is not a local directory)")
            if os.path.isfile(os.path.join(path, "dspark", "config.json")):
                return rest("the draft in the target's dspark/ subfolder")
        raise _dspark("DSpark dense speculative decoding requires setting --speculative-draft-model-path.",
                      "speculative_draft_model_path")
    for key in ("speculative_num_steps", "speculative_eagle_topk"):
        if args.get(key) not in (None, 1):
            result.warn("SGLANG_OVERRIDE", "DSpark only supports %s == 1; SGLang overrides %s." % (key, args[key]))
        r[key] = 1
    block = args.get("speculative_dspark_block_size")
    ndt = args.get("speculative_num_draft_tokens")
    if block is None:
        if not isinstance(draft_cfg, dict) or _draft_block_keys(draft_cfg):
            return rest("the gamma read from the draft's config.json")
        # no gamma in the draft's config.json: a given verify width stands (>= 2), else gamma defaults to 7
        if ndt is not None and ndt < 2:
            raise _dspark("DSpark speculative_num_draft_tokens must be >= 2 (= gamma + 1), got %s." % ndt,
                          "speculative_num_draft_tokens")
        r["speculative_num_draft_tokens"] = 8 if ndt is None else ndt
        return rest("the checks after the verify width")
    if block <= 0:
        raise _dspark("DSpark requires --speculative-dspark-block-size to be positive, got %s." % block,
                      "speculative_dspark_block_size")
    if ndt is not None and ndt != block + 1:
        raise _dspark("DSpark speculative_num_draft_tokens must equal gamma + 1 (= %s for gamma=%s), but got "
                      "speculative_num_draft_tokens=%s." % (block + 1, block, ndt), "speculative_num_draft_tokens")
    r["speculative_num_draft_tokens"] = block + 1
    return rest("the checks after the verify width")
