# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resolution: what SGLang's own argument resolution of a release does to the settings the collection renders
(common.OWNED_DESTS), read from the release table; and requested-vs-resolved overrides. Whatever else an argv sets
is judged by SGLang itself (judged_by_sglang in __init__.py): no rule here guesses at it. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import dflash_cfg, infer_block_size, text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import (
    LONG_CONTEXT_ENV, RESOLVED_KEYS, SPEC_TO_SGLANG, Refused, get, is_int, truthy_env)


def resolve(args, env, rel, draft_cfg, target_cfg, platform, result, tree_flavor):
    """Emulate release `rel`'s argument resolution for the owned settings, in SGLang's order. Raises Refused."""
    rules = rel
    version = rel["version"]
    r = dict(zip(RESOLVED_KEYS, map(args.get, RESOLVED_KEYS)))  # device among them, as given
    for k in ("tp_size", "dp_size", "pp_size"):
        if r[k] is None:
            r[k] = 1
    r["disable_overlap_schedule"] = bool(r["disable_overlap_schedule"])
    r["enable_mixed_chunk"] = bool(r["enable_mixed_chunk"])
    result.resolved = r
    if args.get("enable_return_aux_hidden_states"):
        # 0.5.23 handle_aux_hidden_state_capture: the algorithm only names the capture convention and SGLang resets
        # it before any hook reads it (the capture's own checks are SGLang's to judge)
        args = dict(args, speculative_algorithm=None)
        r["speculative_algorithm"] = None
    for dest in rules["retired_flag_errors"]:
        if dest in args:  # a retired flag's argparse action (DeprecatedAction with an error message)
            raise Refused("PARSE_RETIRED_FLAG", "--%s is no longer supported in SGLang %s: drop it (see its help for "
                          "the replacement)." % (dest.replace("_", "-"), version), dest)
    if "--grpc-port" not in rules["flags"]:
        # releases without --grpc-port derive the native gRPC port from --port + 10000 and range-check it
        legacy = get(args, "port", 30000) + 10000
        if not 1 <= legacy <= 65535:
            raise Refused("GRPC_ARGS", "the gRPC port %s is out of range in SGLang %s: it is derived from --port + 10000 "
                          "unless SGLANG_GRPC_PORT is set." % (legacy, version), "port")
    if rules["context_check_at_resolution"] and target_cfg is not None:
        # the model config is read before the other hooks: a context longer than the target's is refused here
        tgt_max = text_cfg(target_cfg).get("max_position_embeddings")
        want = args.get("context_length")
        if want is not None and is_int(tgt_max) and want > tgt_max and not truthy_env(env, LONG_CONTEXT_ENV):
            raise Refused("CONTEXT_TOO_LONG", "context_length %s exceeds the target's max_position_embeddings %s. "
                          "Lower context_length or set env %s=1." % (want, tgt_max, LONG_CONTEXT_ENV), "context_length")
    if r["attention_backend"] is None and str(r["device"] or "").split(":", maxsplit=1)[0] == "cpu" and \
            rules["cpu_default_attention"]:
        r["attention_backend"] = rules["cpu_default_attention"]  # the CPU backends hook
    if r["attention_backend"] is None:
        if platform.get("sm") == 100:
            r["attention_backend"] = _sm100_default_attention(args, rules, target_cfg)
        else:
            r["attention_backend"] = platform.get("default_attention_backend")
    if r["attention_backend"] == "fa3" and args.get("kv_cache_dtype") == "fp8_e5m2":
        # FlashAttention 3 takes fp8_e4m3 only: SGLang warns and switches to triton before the draft backend is
        # chosen (every release 0.5.11-0.5.23; 0.5.23 srt/arg_groups/overrides.py _attention_backend_fa3_fp8_fallback)
        result.warn("SGLANG_OVERRIDE", "FlashAttention3 supports only fp8_e4m3 KV cache among the FP8 types: SGLang "
                    "sets attention_backend to triton for kv_cache_dtype fp8_e5m2.")
        r["attention_backend"] = "triton"
    prefill = r["prefill_attention_backend"] or r["attention_backend"]
    decode = args.get("decode_attention_backend") or r["attention_backend"]
    sm = platform.get("sm")
    if r["attention_backend"] == "flex_attention" and args.get("speculative_algorithm") is not None:
        # the attention hook, before its trtllm_mha checks (every release 0.5.11-0.5.23): any algorithm name
        raise Refused("FLEX_ATTENTION_SPECULATIVE", "Speculative decoding is not supported with the Flex Attention "
                      "backend (--attention-backend flex_attention): pick another attention backend.",
                      "attention_backend")
    sms = rules["trtllm_mha_sms"]
    if sms and platform.get("gpus_known"):
        # attention hook, before the speculative one: SM-dependent trtllm_mha checks
        for phase, backend in (("prefill", prefill), ("decode", decode)):
            if backend == "trtllm_mha" and sms.get(phase) is not None and sm not in sms[phase]:
                raise Refused("TRTLLM_MHA_GPU", "TRTLLM MHA backend for %s needs an %s GPU in SGLang %s; this host has "
                              "%s. Use flashinfer or triton." % (
                                  phase, "/".join("SM%s" % x for x in sms[phase]), version,
                                  ("sm_%s" % sm) if sm else "no visible GPU"), "attention_backend")
            if phase == "prefill" and backend == "trtllm_mha" and sm == 120 and args.get("kv_cache_dtype") == "fp8_e4m3":
                raise Refused("TRTLLM_MHA_SM120_FP8", "TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV "
                              "cache: use another kv_cache_dtype or attention backend.", "kv_cache_dtype")
    page = get(args, "page_size", 1)
    backends = [r["attention_backend"], args.get("decode_attention_backend"), r["prefill_attention_backend"]]
    if rules["draft_trtllm_sets_page_size"]:
        backends.append(args.get("speculative_draft_attention_backend"))
    if "trtllm_mha" in backends and page not in (16, 32, 64, 128):
        page = 64  # TensorRT-LLM MHA page sizes (SGLang warns and changes it)
    r["page_size"] = page

    algo = args.get("speculative_algorithm")
    if algo is not None and not rules["algorithm_case_sensitive"]:
        algo = algo.upper()
    if algo in ("NEXTN", "EAGLE"):
        algo = "EAGLE"
    if tree_flavor == "sglang-pr29907" and algo == "DDTREE":
        algo_known = True
    else:
        algo_known = algo is None or algo in rules["algorithms"]
    r["speculative_algorithm"] = algo
    window = args.get("speculative_draft_window_size")
    if window is not None:
        if window <= 0 and not rules["window_check_in_dflash"]:
            raise Refused("WINDOW_NONPOSITIVE", "%s must be positive, got %s." % (rules["window_flag"], window),
                          "speculative_draft_window_size")
        if algo not in ("EAGLE", "EAGLE3", "DFLASH"):
            result.warn("WINDOW_NO_EFFECT", "%s has no effect with speculative_algorithm=%s." % (rules["window_flag"], algo))
    sink = args.get("speculative_draft_sink_size")
    if sink is not None:
        if sink < 0:
            raise Refused("SINK_NEGATIVE", "--speculative-draft-sink-size must be non-negative, got %s." % sink,
                          "speculative_draft_sink_size")
        if window is None:
            raise Refused("SINK_WITHOUT_WINDOW", "--speculative-draft-sink-size requires --speculative-draft-window-size.",
                          "speculative_draft_sink_size")
    if not algo_known:
        raise Refused("UNKNOWN_ALGORITHM", "Unknown speculative algorithm name: %s. SGLang %s knows %s; DDTree needs a "
                      "tree-verify build (use verify: tree with a probe)." % (
                          args.get("speculative_algorithm"), version, ", ".join(rules["algorithms"])),
                      "speculative_algorithm")
    if algo in ("DFLASH", "DDTREE"):
        _resolve_dflash(args, env, version, rules, r, draft_cfg, platform, result, prefill, tree_flavor)
    elif algo in ("EAGLE", "EAGLE3", "STANDALONE"):
        _resolve_eagle(args, rules, r, target_cfg, draft_cfg, result, prefill)
    # check_server_args (after resolution), in its order: pipeline parallelism, then the value checks
    if rules["pp_speculation_refused"] and r["pp_size"] > 1 and algo is not None:
        raise Refused("PP_SPECULATIVE", "Pipeline parallelism is not compatible with speculative decoding in SGLang %s "
                      "(--pp-size %s with %s)." % (version, r["pp_size"], algo), "pp_size")
    if rules["pp_spec_checks"] and r["pp_size"] > 1 and algo is not None and algo != "EAGLE":
        raise Refused("PP_SPECULATIVE", "Pipeline parallelism currently only supports EAGLE (non-multi-layer) "
                      "speculative decoding; got %s with --pp-size %s." % (algo, r["pp_size"]), "pp_size")
    if rules["pp_spec_checks"] and r["pp_size"] > 1 and algo == "EAGLE" and not truthy_env(env, "SGLANG_ENABLE_PP_SPEC") \
            and get(args, "disaggregation_mode", "null") != "prefill":
        raise Refused("PP_SPEC_PREFILL_ONLY", "PP + speculative decoding (MTP) is only supported on prefill nodes "
                      "(disaggregation-mode=prefill), unless SGLANG_ENABLE_PP_SPEC=1; drop --pp-size or the "
                      "speculative algorithm.", "pp_size")
    # served_model_name defaults to the model path; Run:ai object URIs are exempt (srt/utils/runai_utils.py)
    served = str(get(args, "served_model_name", args.get("model_path")) or "")
    if ":" in served and not served.lower().startswith(("s3://", "gs://", "az://")):
        raise Refused("SERVED_MODEL_NAME_COLON", "served_model_name cannot contain a colon (':'), reserved for "
                      "SGLang's 'model:adapter' LoRA syntax; got %r. Set --served-model-name without one." % served,
                      "served_model_name")
    return r


def _sm100_default_attention(args, rules, target_cfg):
    """get_default_attn_backend on an SM100 host (arg_groups/model_override_base.py; server_args.py before 0.5.19):
    trtllm_mha (fa4 when K and V rows differ, 0.5.17 on) while speculation is off or its top-k is one (given, with
    page_size 1; from 0.5.23 DFLASH counts as top-k one), else flashinfer. None where it is not claimed."""
    how = rules["sm100_default_attention"]
    if how is None:
        return None
    t = text_cfg(target_cfg) if target_cfg else {}
    arch = ((target_cfg or {}).get("architectures") or [None])[0]
    if ("kv_lora_rank" in t and arch not in how["mha_archs"]) or t.get("model_type") == "gpt_oss":
        return None
    topk, page = args.get("speculative_eagle_topk"), args.get("page_size")
    algo = args.get("speculative_algorithm")
    if (topk is None or (topk == 1 and page in (None, 1))) and (
            algo is None or topk is not None or (how["dflash_topk_one"] and str(algo).upper() == "DFLASH")):
        head, v_head = t.get("head_dim"), t.get("v_head_dim")
        asym = how["asymmetric_fa4"] and v_head is not None and head is not None and v_head != head
        return "fa4" if asym else "trtllm_mha"
    return "flashinfer"


def _resolve_dflash(args, env, version, rules, r, draft_cfg, platform, result, prefill, tree_flavor):
    device = get(args, "device", platform.get("device", "cuda"))
    allowed = rules["dflash_devices"]
    if allowed is not None and device.split(":")[0] not in allowed:
        raise Refused("DFLASH_DEVICE", "DFLASH speculative decoding is not supported on device %r (SGLang %s needs "
                      "%s)." % (device, version, " or ".join(allowed)), "device")
    if get(args, "pp_size", 1) != 1:
        raise Refused("DFLASH_PP", "Currently DFLASH speculative decoding only supports pp_size == 1; got "
                      "--pp-size %s." % args["pp_size"], "pp_size")
    if args.get("speculative_draft_model_path") is None:
        raise Refused("DFLASH_NO_DRAFT", "DFLASH speculative decoding requires setting "
                      "--speculative-draft-model-path (speculative.draft_model_path).", "speculative_draft_model_path")
    keep_topk = tree_flavor == "sglang-pr31069"
    for key, label in (("speculative_num_steps", "speculative_num_steps"), ("speculative_eagle_topk", "speculative_eagle_topk")):
        v = args.get(key)
        if key == "speculative_eagle_topk" and keep_topk or key not in rules["dflash_resets"]:
            r[key] = v
            continue
        if v is not None and v != 1:
            result.warn("SGLANG_OVERRIDE", "DFLASH only supports %s == 1; SGLang overrides %s=%s to 1%s." % (
                label, label, v, " (DFLASH verify is linear: a topk > 1 asks for a tree SGLang does not build)"
                if key == "speculative_eagle_topk" else ""))
        r[key] = 1
    dbs = args.get("speculative_dflash_block_size")
    ndt = args.get("speculative_num_draft_tokens")
    if dbs is not None:
        if dbs <= 0:
            raise Refused("DFLASH_BLOCK_SIZE_NONPOSITIVE", "DFLASH requires --speculative-dflash-block-size to be "
                          "positive, got %s." % dbs, "speculative_dflash_block_size")
        if ndt is not None and ndt != dbs:
            raise Refused("DFLASH_BLOCK_SIZE_MISMATCH", "Both --speculative-num-draft-tokens (%s) and "
                          "--speculative-dflash-block-size (%s) are set but they differ; for DFLASH they must match: "
                          "keep one." % (ndt, dbs), "speculative_num_draft_tokens")
        ndt = dbs
    window = args.get("speculative_draft_window_size")
    if window is not None and window <= 0 and rules["window_check_in_dflash"]:
        raise Refused("WINDOW_NONPOSITIVE", "%s must be positive, got %s." % (rules["window_flag"], window),
                      "speculative_draft_window_size")
    if ndt is None:
        if draft_cfg is None:
            result.warn("BLOCK_SIZE_UNKNOWN", "speculative_num_draft_tokens is not set and the drafter's config.json "
                        "was not given: SGLang takes it from the drafter at start. Set speculative.block_size.")
        else:
            inferred, parsed = infer_block_size(draft_cfg)
            if not parsed:
                result.warn("SGLANG_DEFAULT", "SGLang cannot parse the drafter's DFLASH config and defaults "
                            "speculative_num_draft_tokens to 16.")
            if inferred is None:
                inferred = 16
                if parsed:
                    result.warn("SGLANG_DEFAULT", "speculative_num_draft_tokens is not set and the drafter has no "
                                "block_size: SGLang defaults to 16.")
            ndt = inferred
    r["speculative_num_draft_tokens"] = ndt
    if window is not None and ndt is not None and window < ndt:
        raise Refused("WINDOW_LT_BLOCK", "%s must be >= --speculative-num-draft-tokens (block_size): window_size=%s, "
                      "block_size=%s." % (rules["window_flag"], window, ndt), "speculative_draft_window_size")
    # draft attention backend (docs/sglang.md, draft attention backend)
    # SGLang takes the explicit flag, else the target's prefill backend, and validates either one.
    explicit = args.get("speculative_draft_attention_backend")
    fallback = "flashinfer"
    chosen = explicit if explicit is not None else prefill
    how = "speculative_draft_attention_backend" if explicit is not None else \
        "the target's prefill attention backend (inherited by the draft)"
    if not rules["draft_backend_at_resolution"]:
        # the draft worker picks (and falls back) at start: argument resolution leaves the flag as given
        r["speculative_draft_attention_backend"] = explicit
        chosen = None if chosen is None or chosen in rules["draft_backends"] else chosen
        if chosen is not None:
            result.warn("SGLANG_OVERRIDE", "DFLASH draft worker does not support attention_backend %r from %s (SGLang "
                        "%s accepts %s); its worker falls back to %r at start." % (
                            chosen, how, version, ", ".join(rules["draft_backends"]), fallback))
    elif chosen is None:
        r["speculative_draft_attention_backend"] = None  # GPU-dependent default, decided on the host
    elif chosen not in rules["draft_backends"]:
        accepted = ", ".join(rules["draft_backends"])
        result.warn("SGLANG_OVERRIDE", "DFLASH draft worker does not support attention_backend %r from %s (SGLang %s "
                    "accepts %s); SGLang falls back to %r." % (chosen, how, version, accepted, fallback))
        r["speculative_draft_attention_backend"] = fallback
    elif chosen == "trtllm_mha":
        ok = False
        if draft_cfg is not None:
            t = text_cfg(draft_cfg)
            lt = draft_cfg.get("layer_types", dflash_cfg(draft_cfg).get("layer_types"))
            nl = t.get("num_hidden_layers")
            ok = (isinstance(lt, list) and lt and len(lt) == nl and set(lt) == {"sliding_attention"}) or \
                t.get("is_causal") is True
        if not ok:
            fb = "fa4" if platform.get("sm") == 100 and rules["dflash_trtllm_draft_sm100_fa4"] else fallback
            result.warn("SGLANG_OVERRIDE", "DFLASH only enables 'trtllm_mha' (from %s) for drafts whose layers all use "
                        "sliding attention or that are explicitly causal; SGLang falls back to %r." % (how, fb))
            r["speculative_draft_attention_backend"] = fb
        else:
            r["speculative_draft_attention_backend"] = chosen
    else:
        r["speculative_draft_attention_backend"] = chosen
    if args.get("max_running_requests") is None:
        r["max_running_requests"] = 48
        result.warn("SGLANG_DEFAULT", "max_running_requests is not set: SGLang resets it to 48 for speculative "
                    "decoding. Set max_running_requests to choose.")
    if rules["dflash_overlap_off"]:
        r["disable_overlap_schedule"] = True
        result.warn("SGLANG_DEFAULT", "SGLang %s disables the overlap scheduler with DFLASH." % version)
    if rules["dflash_mixed_chunk_off"] and args.get("enable_mixed_chunk"):
        r["enable_mixed_chunk"] = False
        result.warn("SGLANG_OVERRIDE", "SGLang %s disables mixed chunked prefill with DFLASH." % version)


def _resolve_eagle(args, rules, r, target_cfg, draft_cfg, result, prefill):
    if args.get("max_running_requests") is None:
        r["max_running_requests"] = 48
        result.warn("SGLANG_DEFAULT", "max_running_requests is not set: SGLang resets it to 48 for speculative decoding.")
    steps, topk, ndt = (args.get("speculative_num_steps"), args.get("speculative_eagle_topk"),
                        args.get("speculative_num_draft_tokens"))
    if "IQuest" in str(((draft_cfg or {}).get("architectures") or [""])[0]):
        # an IQuest MTP draft sets all three from its config (judged by SGLang: judged_by_sglang names the drafter)
        r["speculative_num_steps"], r["speculative_eagle_topk"], r["speculative_num_draft_tokens"] = steps, topk, ndt
        return
    arch = None
    if target_cfg:
        arch = (target_cfg.get("architectures") or [None])[0]
    if steps is None:
        if topk is not None or ndt is not None:
            raise Refused("EAGLE_PARAMS_PARTIAL", "EAGLE: set --speculative-num-steps together with "
                          "--speculative-eagle-topk/--speculative-num-draft-tokens, or none of them (SGLang asserts).",
                          "speculative_num_steps")
        if r["speculative_algorithm"] == "STANDALONE":
            steps, topk, ndt = 3, 1, 4
        elif arch in ("LlamaForCausalLM", "Grok1ForCausalLM", "Grok1VForCausalLM"):
            steps, topk, ndt = 5, 4, 8
        elif arch is None:
            result.warn("EAGLE_PARAMS_UNKNOWN", "the target config was not given: SGLang picks num_steps/topk/"
                        "num_draft_tokens from its architecture at start.")
            steps = topk = ndt = None
        else:
            steps, topk, ndt = 3, 1, 4
    if steps is not None and topk is None and "trtllm_mha" in (prefill, r.get("attention_backend")):
        raise Refused("EAGLE_TOPK_MISSING", "EAGLE with --speculative-num-steps needs --speculative-eagle-topk "
                      "(SGLang fails comparing None).", "speculative_eagle_topk")
    if topk is not None and topk > 1 and "trtllm_mha" in (prefill, r.get("attention_backend")):
        raise Refused("EAGLE_TRTLLM_TOPK", "trtllm_mha backend only supports topk = 1 for speculative decoding.",
                      "speculative_eagle_topk")
    if steps is not None and topk is None:
        # the first comparison of the missing topk (the paged-tree check) raises a TypeError
        raise Refused("EAGLE_TOPK_MISSING", "EAGLE with --speculative-num-steps needs --speculative-eagle-topk "
                      "(SGLang fails comparing None).", "speculative_eagle_topk")
    if topk == 1 and steps is not None and ndt != steps + 1:
        result.warn("SGLANG_OVERRIDE", "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 (%s) "
                    "when speculative_eagle_topk == 1." % (steps + 1))
        ndt = steps + 1
    r["speculative_num_steps"], r["speculative_eagle_topk"], r["speculative_num_draft_tokens"] = steps, topk, ndt
    if topk is not None and topk > 1 and r.get("page_size", 1) > 1 and r.get("attention_backend") not in \
            rules["eagle_paged_tree_backends"]:
        raise Refused("EAGLE_PAGE_TREE", "speculative_eagle_topk > 1 with page_size > 1 (%s) is only supported on "
                      "%s; got attention_backend=%r. Use page_size 1 or one of those backends." % (
                          r["page_size"], ", ".join(rules["eagle_paged_tree_backends"]), r.get("attention_backend")),
                      "speculative_eagle_topk")


def _norm_allow(allow):
    out = set()
    for a in allow or ():
        a = str(a)
        out.add(a)
        out.add(SPEC_TO_SGLANG.get(a, a))
        out.add("speculative_" + a)
    return out


def requested_fields(args):
    return {k: v for k, v in zip(RESOLVED_KEYS, map(args.get, RESOLVED_KEYS)) if v is not None}


_RESOLVED_SET = frozenset(RESOLVED_KEYS)


def record_overrides(result, requested, resolved, allow_overrides=()):
    """Record every requested field the resolution changed; a speculative one is an error unless allowed."""
    _record_overrides(result, requested.get, sorted(requested), resolved, allow_overrides)


def record_arg_overrides(result, args, resolved, allow_overrides=()):
    """record_overrides(result, requested_fields(args), ...) read from the parsed args directly."""
    _record_overrides(result, args.get, sorted(_RESOLVED_SET.intersection(args)), resolved, allow_overrides)


def _record_overrides(result, want_of, fields, resolved, allow_overrides):
    """`fields` in sorted order; want_of(field) the requested value (None: not requested). The allowed set is
    normalised only when a speculative field changed."""
    allow = None
    for field in fields:
        want = want_of(field)
        if want is None or field not in resolved:
            continue
        got = resolved[field]
        if want == got:
            continue
        if field == "speculative_algorithm" and isinstance(want, str) and isinstance(got, str) and want.upper() == got:
            continue
        if isinstance(want, (int, float)) and isinstance(got, (int, float)) and float(want) == float(got):
            continue
        if field == "speculative_draft_model_path" and got is not None:
            continue
        result.overrides.append({"field": field, "requested": want, "resolved": got})
        if field.startswith("speculative_"):
            if allow is None:
                allow = _norm_allow(allow_overrides)
            if field not in allow:
                result.error("SPEC_OVERRIDDEN", "SGLang would silently change %s from %r to %r. Ask for %r instead, or "
                             "list %s in allow_overrides to accept it." % (field, want, got, got, field), field=field,
                             stage="policy")
