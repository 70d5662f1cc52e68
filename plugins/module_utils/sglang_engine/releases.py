# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The release table: every difference between SGLang releases the engine knows, in one place.

Rendering, parsing, resolution, config checks, GPU checks, the smoke decode's meta_info reader and
the weights role's drafter check read their per-release behaviour from here; no other module branches
on a version string. docs/sglang-releases.md explains each trait with its source (release, file).

A release entry lists only what changed against the release before it in ORDER; `release(v)` returns
the merged traits. The parser table of a release comes from parsers/ (captured from that release's
real parser by tools/sglang-release); `parser` here names it.

Adding a release: `tools/sglang-release add X.Y.Z` (captures the parser in the release's CPU kit,
writes parsers/vX_Y_Z.py and a stub entry here inheriting the previous release's traits), then review
the diff and run `make oracle-releases RELEASES=X.Y.Z`.

stdlib only.
"""
from __future__ import annotations

import re

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import parsers


# Flags that were renamed (old -> new); a release without the old one gets the new one as a hint.
RENAMED = {
    "--speculative-dflash-draft-window-size": "--speculative-draft-window-size",
    "--mamba-scheduler-strategy": "--mamba-radix-cache-strategy",
    "--cuda-graph-max-bs": "--cuda-graph-max-bs-decode",
    "--cuda-graph-bs": "--cuda-graph-bs-decode",
}

# argparse dests older parsers use for ServerArgs fields (ServerArgs.from_cli_args maps them: 0.5.11 and
# 0.5.12 name --tp-size/--dp-size/--pp-size tensor_parallel_size, data_parallel_size, pipeline_parallel_size),
# and 0.5.11's name of the DFLASH window (speculative_dflash_draft_window_size: the same checks, under its flag).
DEST_ALIASES = {"tensor_parallel_size": "tp_size", "data_parallel_size": "dp_size", "pipeline_parallel_size": "pp_size",
                "speculative_dflash_draft_window_size": "speculative_draft_window_size",
                # the same for --ep-size, --attn-cp-size and --moe-dp-size (0.5.11-0.5.13)
                "expert_parallel_size": "ep_size", "attention_context_parallel_size": "attn_cp_size",
                "moe_data_parallel_size": "moe_dp_size"}

_ALGOS_V1 = ("DFLASH", "EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM")

# /metrics names every release from 0.5.11 exports (the `metrics` trait adds or renames per release)
_QUEUED_V1 = ("sglang:num_queue_reqs", "sglang:num_grammar_queue_reqs", "sglang:num_decode_prealloc_queue_reqs",
              "sglang:num_decode_transfer_queue_reqs")
_METRICS_V1 = {
    "accept_length": ("sglang:spec_accept_length",),
    "throughput": ("sglang:gen_throughput",),
    "running": ("sglang:num_running_reqs",),
    "queued": _QUEUED_V1,
    # share of the KV cache pool in use (0 to 1), per scheduler
    "kv_cache_usage": ("sglang:token_usage",),
    "requests_total": ("sglang:num_requests_total",),
    # aborted requests, and the PD transfers that failed (each fails its request)
    "errors_total": ("sglang:num_aborted_requests_total", "sglang:num_bootstrap_failed_reqs_total",
                     "sglang:num_transfer_failed_reqs_total"),
    "generation_tokens_total": ("sglang:generation_tokens_total",),
    "verify_calls_total": (),
    # by endpoint, method and status_code: its 5xx answers count as errors
    "http_responses_total": ("sglang:http_responses_total",),
}

# Traits (see docs/sglang-releases.md):
#   parser                   release whose captured table this release uses (itself once captured)
#   parser_derived           None, or how the table is derived from `parser` (drop/add/choices) while
#                            no capture exists; a derived table tolerates flags it does not list
#   window_flag              the flag the renderer writes for speculative.draft_window_size
#   deprecated               flag -> replacement, printed by SGLang's parser (startup continues)
#   algorithms               accepted --speculative-algorithm names; algorithm_case_sensitive
#   draft_backends           draft attention backends DFLASH accepts (others fall back, with a warning)
#   dflash_devices           None (no device check) or the devices DFLASH accepts; dflash_device_message
#   dflash_overlap_off       DFLASH forces the overlap scheduler off (V1 worker)
#   dflash_mixed_chunk_off   DFLASH forces mixed chunked prefill off
#   dflash_resets            the fields DFLASH resets to 1 with a warning (num_steps, eagle_topk)
#   trtllm_mha_sms           {phase: SMs} trtllm_mha accepts at argument resolution (None: not checked there)
#   draft_trtllm_sets_page_size  a trtllm_mha draft backend also moves the target page size to 64
#   draft_backend_at_resolution  the draft attention backend is resolved (and falls back) at argument time;
#                            else the draft worker picks it at start and resolution leaves it as given
#   pp_speculation_refused   pp > 1 refuses every speculative algorithm
#   cpu_default_attention    attention backend --device cpu resolves to when none is given (None: not modelled)
#   eagle_paged_tree_backends  attention backends EAGLE topk > 1 accepts with page_size > 1
#   context_check_at_resolution  a context_length above the target's is refused at argument time (else at load)
#   pp_spec_checks           check_server_args refuses pp > 1 with speculation other than EAGLE
#   retired_flag_errors      dests of retired flags whose DeprecatedAction stops the parse with an error message
#   fa4_sm120                fa4 has an sm_120 kernel path (trtllm_mha on sm_120 follows trtllm_mha_sms)
#   hybrid_gdn_sm120_backends   None, or the backends hybrid GDN models may use on Blackwell
#   mask_token_id_top_level  parse_dflash_draft_config reads mask_token_id at the top level too
#   draft_archs              DFLASH draft architectures the release registers
#   meta_info                /generate meta_info names of the draft count fields (correct, proposed)
#   kv_budget_message        what the release prints when the weights leave no room for the KV cache
#   metrics_flag             the flag that turns on GET /metrics (Prometheus text); spec.enable_metrics renders it
#   metrics                  /metrics names per figure metrics.py reads (samples of every name are summed, the
#                            accept length averaged): accept_length, throughput, running, queued, kv_cache_usage
#                            (the monitoring rules' KV cache share; status does not read it), requests_total,
#                            errors_total, generation_tokens_total, verify_calls_total (() where the release has
#                            none), http_responses_total (its status_code 5xx samples count as errors)
#   verified                 its differential tests against its own resolver pass (make oracle samples these)
#   sm100_default_attention  None (the SM100 default attention backend not modelled), or {"dflash_topk_one": DFLASH
#                            counts as top-k one, "asymmetric_fa4": fa4 for unequal K/V rows, "mha_archs": MLA
#                            configs the release's model_config does not know as MLA (MHA defaults)}
#   dflash_trtllm_draft_sm100_fa4  a refused trtllm_mha DFLASH draft backend falls back to fa4 on SM100 (else flashinfer)

ORDER = (
    "0.5.11",
    "0.5.12",
    "0.5.12.post1",
    "0.5.13",
    "0.5.13.post1",
    "0.5.14",
    "0.5.15",
    "0.5.15.post1",
    "0.5.16",
    "0.5.17",
    "0.5.18",
    "0.5.19",
    "0.5.20",
    "0.5.21",
    "0.5.22",
    "0.5.23",
)

_CHANGES = {
    "0.5.22": {  # parser captured; --enable-watermark and --speculative-use-block-verification appear
        "parser": "0.5.22",
        "parser_derived": None,
        "verified": True,  # its differential run passes (204 cases, 2026-12-01)
    },
    "0.5.21": {  # parser captured; --speculative-draft-sink-size appears
        "parser": "0.5.21",
        # metrics_collector.py: the PD decode host-receive queue gauge appears
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_bootstrap_queue_reqs",
                                                          "sglang:num_decode_host_receive_queue_reqs"),
                        verify_calls_total=("sglang:spec_verify_calls_total",)),
        "parser_derived": None,
        "verified": True,  # its differential run passes (2026-12-01)
        "pp_speculation_refused": False,
        "pp_spec_checks": True,
        # srt/managers/: the backward-compat meta_info aliases (spec_accepted_drafts ...) are gone
        "meta_info": {"correct": ("spec_num_correct_drafts",), "proposed": ("spec_num_proposed_drafts",)},
    },
    "0.5.20": {  # the old window flag and --mamba-scheduler-strategy gone; DFLASH dp attention allowed
        "retired_flag_errors": (),  # --enable-expert-distribution-metrics is gone from the parser
        "dflash_devices": ("cuda", "npu", "xpu"),  # speculative_hook.py _handle_dflash
        "parser": "0.5.20",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        # srt/arg_groups/choices.py DRAFT_ATTENTION_BACKEND_CHOICES (read by _resolve_dflash_draft_attention_backend):
        # intel_xpu joins; the list 0.5.23 has (found by a generated case: intel_xpu kept, not replaced by flashinfer)
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend", "trtllm_mha", "intel_xpu"),
    },
    "0.5.19": {  # ServerArgs.resolve_once(); mixed chunk kept with DFLASH; trtllm_mha prefill on SM90/100/120
        # speculative_hook.py _handle_dflash: CUDA and NPU (0.5.20 adds XPU)
        "dflash_devices": ("cuda", "npu"),
        # arg_groups/model_override_base.py get_default_attn_backend (SM100: trtllm_mha for top-k one)
        "sm100_default_attention": {"dflash_topk_one": False, "asymmetric_fa4": True, "mha_archs": ()},
        "parser": "0.5.19",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        "dflash_mixed_chunk_off": False,
        "trtllm_mha_sms": {"prefill": (90, 100, 120), "decode": (90, 100, 120)},
    },
    "0.5.18": {  # parser captured
        # flashattention_backend.py loads flash_attention_v4_sm120 on compute capability 12.x (0.5.18 and 0.5.22
        # kits; 0.5.14 has no such path)
        "fa4_sm120": True,
        # argparse_actions.py DeprecatedAction with an error_message: the retired flag stops the parse
        "retired_flag_errors": ("enable_expert_distribution_metrics",),
        "parser": "0.5.18",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
    },
    "0.5.17": {  # a trtllm_mha draft backend moves the target page size to 64 too
        "parser": "0.5.17",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        "draft_trtllm_sets_page_size": True,  # srt/arg_groups/overrides.py (observed in its resolver)
        "sm100_default_attention": {"dflash_topk_one": False, "asymmetric_fa4": True, "mha_archs": ()},
    },
    "0.5.15.post1": {  # parser captured; traits as 0.5.15's
        "parser": "0.5.15.post1",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
    },
    "0.5.15": {  # DFLASH's draft attention backend resolved (with its fallback) at argument time
        "parser": "0.5.15",
        "parser_derived": None,
        "verified": True,  # its differential run passes (203 cases, 2026-12-01)
        # srt/arg_groups/speculative_hook.py _resolve_dflash_draft_attention_backend (observed in its resolver)
        "draft_backend_at_resolution": True,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend"),
        "draft_archs": ("DFlashDraftModel", "DFlashLagunaForCausalLM"),  # srt/models/ registers the Laguna drafter
    },
    "0.5.14": {  # DFLASH no longer forces the overlap scheduler off (the V1 message is gone)
        "parser": "0.5.14",
        "parser_derived": None,
        "verified": True,
        "dflash_overlap_off": False,
        # the KV budget check names loaded weights (target + draft) and the minimum fraction
        "kv_budget_message": "\"Loaded weights leave no GPU memory for the KV cache\"",
    },
    "0.5.13.post1": {  # parser captured; traits as the release before it
        "parser": "0.5.13.post1",
        "parser_derived": None,
        "verified": True,
    },
    "0.5.13": {  # parser captured; traits as the release before it
        # arg_groups/speculative_hook.py: the window is validated once, for any algorithm, before the algorithm hooks
        "window_check_in_dflash": False,
        "parser": "0.5.13",
        # metrics_collector.py: the counter of verify forward passes appears (accept length from counters)
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_bootstrap_queue_reqs",),
                        verify_calls_total=("sglang:spec_verify_calls_total",)),
        "parser_derived": None,
        "verified": True,
        "eagle_paged_tree_backends": ("flashinfer", "fa3", "triton"),  # server_args.py: the "unstable" message is gone
    },
    "0.5.12.post1": {  # parser captured; traits as the release before it
        "parser": "0.5.12.post1",
        "parser_derived": None,
        "verified": True,
    },
    "0.5.12": {  # srt/arg_groups/ appears; free-form --speculative-algorithm; new meta_info names
        "parser": "0.5.12",
        # metrics_collector.py: the PD prefill queue gauge num_prefill_prealloc_queue_reqs is renamed
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_bootstrap_queue_reqs",)),
        "parser_derived": None,
        "verified": True,
        "window_flag": "--speculative-draft-window-size",
        "deprecated": {"--speculative-dflash-draft-window-size": "--speculative-draft-window-size"},
        "algorithm_case_sensitive": False,
        "meta_info": {"correct": ("spec_num_correct_drafts", "spec_accepted_drafts"),
                      "proposed": ("spec_num_proposed_drafts", "spec_proposed_drafts")},
    },
    "0.5.11": {
        # server_args.py _handle_speculative_decoding: the DFLASH window is validated inside the DFLASH branch, after
        # its dp attention, pp, draft path and block size checks (0.5.11-0.5.12.post1); other algorithms not at all
        "window_check_in_dflash": True,
        "parser": "0.5.11",
        "parser_derived": None,
        "window_flag": "--speculative-dflash-draft-window-size",
        "deprecated": {},
        "algorithm_case_sensitive": True,
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton"),
        "dflash_devices": None,
        "dflash_overlap_off": True,
        "dflash_mixed_chunk_off": True,
        "dflash_resets": ("speculative_num_steps", "speculative_eagle_topk"),
        "trtllm_mha_sms": {"prefill": (100,), "decode": (90, 100, 120)},
        "draft_trtllm_sets_page_size": False,
        "draft_backend_at_resolution": False,
        "pp_speculation_refused": True,
        "cpu_default_attention": "torch_native",
        "eagle_paged_tree_backends": ("flashinfer", "fa3"),
        # server_args.py _get_default_attn_backend (0.5.11-0.5.18), judged through the oracle's GPU stand-in;
        # trtllm_mha's fa4 for unequal K/V rows from 0.5.17 (model_config.has_asymmetric_kv)
        "sm100_default_attention": {"dflash_topk_one": False, "asymmetric_fa4": False,
                                    "mha_archs": ("KimiK3ForConditionalGeneration",)},
        "dflash_trtllm_draft_sm100_fa4": False,
        "kv_budget_message": "\"Not enough memory. Please try to increase --mem-fraction-static\"",
        "context_check_at_resolution": True,
        "pp_spec_checks": False,
        "retired_flag_errors": (),
        "fa4_sm120": False,
        "hybrid_gdn_sm120_backends": None,
        "mask_token_id_top_level": False,
        "draft_archs": ("DFlashDraftModel",),
        "meta_info": {"correct": ("spec_accepted_drafts",), "proposed": ("spec_proposed_drafts",)},
        "metrics_flag": "--enable-metrics",
        # srt/observability/metrics_collector.py (SchedulerMetricsCollector, TokenizerMetricsCollector)
        "metrics": dict(_METRICS_V1, queued=_QUEUED_V1 + ("sglang:num_prefill_prealloc_queue_reqs",)),
        "verified": True,
    },
    "0.5.16": {
        "verified": True,  # its differential run on its captured table passes (203 cases, 2026-12-01)
        "parser": "0.5.16",
        "parser_derived": None,
        "window_flag": "--speculative-draft-window-size",
        "deprecated": dict(RENAMED),
        "dflash_devices": ("cuda",),
        "dflash_overlap_off": False,
        "hybrid_gdn_sm120_backends": ("triton", "trtllm_mha", "flashinfer"),
        "mask_token_id_top_level": True,
        "meta_info": {"correct": ("spec_num_correct_drafts", "spec_accepted_drafts"),
                      "proposed": ("spec_num_proposed_drafts", "spec_proposed_drafts")},
    },
    "0.5.23": {
        # model_override_base.py _forces_eagle_topk_one: DFLASH counts as top-k one for the SM100 default
        "sm100_default_attention": {"dflash_topk_one": True, "asymmetric_fa4": True, "mha_archs": ()},
        "dflash_trtllm_draft_sm100_fa4": True,
        "verified": True,
        "parser": "0.5.23",
        "parser_derived": None,
        "deprecated": {"--enable-dp-attention": "--attn-dp-size",
                       "--disable-cuda-graph": "--cuda-graph-backend-decode=disabled"},
        "draft_backends": ("flashinfer", "fa3", "fa4", "triton", "ascend", "trtllm_mha", "intel_xpu"),
        "dflash_devices": ("cuda", "npu", "xpu"),
        "dflash_mixed_chunk_off": False,
        "trtllm_mha_sms": {"prefill": (90, 100, 120), "decode": (90, 100, 120)},
        "draft_trtllm_sets_page_size": True,
        "draft_backend_at_resolution": True,
        "pp_speculation_refused": False,
        "context_check_at_resolution": True,
        "pp_spec_checks": True,
        "fa4_sm120": True,
        "draft_archs": ("DFlashDraftModel", "DFlashLagunaForCausalLM", "DFlash2DraftModel", "DFlash2BeamDraftModel",
                        "MiniMaxDFlash2DraftModel", "MuseGlimmerAssistantModel"),
        "meta_info": {"correct": ("spec_num_correct_drafts",), "proposed": ("spec_num_proposed_drafts",)},
    },
}


def vtuple(version):
    """'0.5.13.post1' -> (0, 5, 13, 1); a plain release sorts before its post releases."""
    m = re.match(r"^\s*(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?\s*$", str(version))
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4) or 0) if m.group(4) else -1)


def _build():
    out = {}
    prev = {}
    for v in ORDER:
        cur = dict(prev)
        cur.update(_CHANGES[v])
        cur["version"] = v
        out[v] = cur
        prev = cur
    for v, rel in out.items():
        rel["flags"] = _flag_table(rel)
        rel["exact_table"] = rel["parser_derived"] is None
        if "algorithms" not in rel:
            rel["algorithms"] = _algorithms(rel)
    for v, rel in out.items():
        later = set()
        for w in ORDER[ORDER.index(v) + 1:]:
            later.update(out[w]["flags"])
        rel["added_later"] = frozenset(f for f in later if f not in rel["flags"])
    return out


def _algorithms(rel):
    """The --speculative-algorithm names a release accepts: the parser's choices when it has them (0.5.11),
    else its captured SpeculativeAlgorithm members plus NEXTN (an alias of EAGLE in every release)."""
    choices = rel["flags"]["--speculative-algorithm"][2]
    if choices:
        return tuple(choices)
    captured = getattr(parsers.MODULES.get(rel["parser"]), "ALGORITHMS", ())
    return tuple(captured) + ("NEXTN",) if captured else _ALGOS_V1


def _flag_table(rel):
    base = dict(parsers.table(rel["parser"]))
    how = rel["parser_derived"]
    if how:
        for f in how.get("drop", ()):
            base.pop(f, None)
        base.update(how.get("add", {}))
        for f, choices in (how.get("choices") or {}).items():
            kind, typ, _c, dest = base[f]
            base[f] = (kind, typ, tuple(choices), dest)
    return base


RELEASES = _build()
KNOWN_VERSIONS = tuple(ORDER)


def known_versions_text():
    return ", ".join(KNOWN_VERSIONS)


def nearest(version, n=2):
    """The known releases nearest to `version` (the one below and the one above, when they exist)."""
    want = vtuple(version)
    if want is None:
        return list(KNOWN_VERSIONS[-n:])
    below = [v for v in KNOWN_VERSIONS if vtuple(v) < want]
    above = [v for v in KNOWN_VERSIONS if vtuple(v) > want]
    out = below[-1:] + above[:1]
    return out or list(KNOWN_VERSIONS[-n:])


def unknown_version_message(version):
    near = nearest(version)
    return ("SGLang version %r is not a release number this collection can read (X.Y.Z or X.Y.Z.postN, not older "
            "than %s); nearest known: %s (all known: %s)." % (
                version, KNOWN_VERSIONS[0], " and ".join(near), known_versions_text()))


def release(version):
    """The merged traits of `version`, or None when it is not a release number or older than every table. A
    release without a table of its own (newer than the tables, the day it ships) gets the nearest older release's
    traits with `traits_from` naming it and a derived (tolerant) flag table: flag existence is then the installed
    SGLang's (its probe on the host) or a kit's parser (the authority preflight), and SGLang itself judges it."""
    v = str(version) if version is not None else None
    rel = RELEASES.get(v)
    if rel is not None or v is None:
        return rel
    if v not in _DAY_ZERO:
        want = vtuple(v)
        older = [k for k in KNOWN_VERSIONS if want is not None and vtuple(k) < want]
        _DAY_ZERO[v] = dict(RELEASES[older[-1]], version=v.strip(), traits_from=older[-1], exact_table=False,
                            verified=False, added_later=frozenset()) if older else None
    return _DAY_ZERO[v]


_DAY_ZERO = {}


def not_in_tables_message(rel):
    """The one note for a release the tables do not list (release()'s traits_from), or None."""
    if not rel.get("traits_from"):
        return None
    return ("SGLang %s is not in the tables: judged by SGLang %s itself (the static layer checks the spec's "
            "invariants with SGLang %s's traits and flag types; flag existence and SGLang's own resolution come from "
            "the installed SGLang on the host, or a kit through the authority preflight); docs/sglang-releases.md "
            "says how a release joins the tables." % (rel["version"], rel["version"], rel["traits_from"]))


def meta_info_fields(version):
    """(release the names come from, {"correct": names, "proposed": names}) for smoke.py."""
    want = vtuple(version)
    if want is None:
        return None, None
    older = [v for v in KNOWN_VERSIONS if vtuple(v) <= want]
    if not older:
        return None, None
    names = RELEASES[older[-1]]["meta_info"]
    first = older[-1]
    for v in reversed(older):  # name the schema after the release that introduced these names
        if RELEASES[v]["meta_info"] != names:
            break
        first = v
    return first, names


def first_with(trait):
    """The first known release where `trait` is true (for messages), or None."""
    for v in KNOWN_VERSIONS:
        if RELEASES[v].get(trait):
            return v
    return None


def version_rules(version, result=None):
    """The release record for `version`, or None (with UNKNOWN_VERSION on `result`) for an unknown one."""
    rel = release(version)
    if rel is None and result is not None:
        result.error("UNKNOWN_VERSION", unknown_version_message(version), field="sglang_version", stage="input")
    elif rel is not None and result is not None and rel.get("traits_from"):
        result.warn("NOT_IN_TABLES", not_in_tables_message(rel))
    return rel
