# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""PD and encoder disaggregation checks (0.5.11-0.5.18 srt/server_args.py _handle_pd_disaggregation and
_handle_encoder_disaggregation; from 0.5.19 srt/arg_groups/pd_disaggregation_hook.py). The PD hook runs early,
after the SSL check; the encoder one after the speculative hook, right before the KV cache hook. stdlib only."""
from __future__ import annotations

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import Refused, gate, get


@gate("disaggregation_decode_host_receive_threshold",
      context=("enable_hisparse", "enable_pd_role_switch", "disaggregation_decode_retraction_backup"))
def check_pd_host_receive(args):
    """--disaggregation-decode-host-receive-threshold (0.5.21 on, where the flag is): in [0, 1]; below 1 the decode
    host pool buffers KV, which HiSparse and role switching do not support and which needs the host-pool
    retraction backup (SGLang then sets it: rules_cache.check_cache_compatibility sees it)."""
    threshold = args.get("disaggregation_decode_host_receive_threshold")
    if threshold is None:
        return
    if not 0 <= threshold <= 1:
        raise Refused("PD_HOST_RECEIVE_THRESHOLD", "--disaggregation-decode-host-receive-threshold must be between 0 "
                      "and 1, got %s." % threshold, "disaggregation_decode_host_receive_threshold")
    if threshold < 1:
        if args.get("enable_hisparse") or args.get("enable_pd_role_switch"):
            raise Refused("PD_HOST_RECEIVE_THRESHOLD", "Decode host receive (--disaggregation-decode-host-receive-"
                          "threshold < 1) does not yet support HiSparse or role switching.",
                          "disaggregation_decode_host_receive_threshold")
        if args.get("disaggregation_decode_retraction_backup") == "cpu_tensor":
            raise Refused("PD_HOST_RECEIVE_THRESHOLD", "Decode host KV buffering (--disaggregation-decode-host-receive-"
                          "threshold < 1) requires --disaggregation-decode-retraction-backup host_pool.",
                          "disaggregation_decode_retraction_backup")


@gate("enable_prefix_mm_cache", "encoder_only", "enable_adaptive_dispatch_to_encoder", "language_only",
      context=("disaggregation_mode", "encoder_urls"))
def check_encoder_disaggregation(args, rules, target_cfg):
    """The encoder hook (_handle_encoder_disaggregation; from 0.5.19 pd_disaggregation_hook.py): the prefix mm cache
    needs --encoder-only, which refuses --language-only and a PD role; a language-only server needs --encoder-urls in
    0.5.11-0.5.12.post1 (trait language_only_needs_urls; from 0.5.13 its encoders may register later); then an
    encoder-only or language-only server's architecture (the release's list: encoder_disagg_archs; -- oldnon (session
    17) --: language-only servers were not checked, every release checks both), then Muse Spark's adaptive dispatch
    (trait muse_language_only_adaptive, 0.5.23: the hook's last check)."""
    encoder_only, language_only = args.get("encoder_only"), args.get("language_only")
    if args.get("enable_prefix_mm_cache") and not encoder_only:
        raise Refused("ENCODER_DISAGG", "--enable-prefix-mm-cache requires --encoder-only to be enabled.",
                      "enable_prefix_mm_cache")
    if not encoder_only and not language_only:
        return
    if encoder_only and language_only:
        raise Refused("ENCODER_DISAGG", "Cannot set --encoder-only and --language-only together.", "language_only")
    if encoder_only and get(args, "disaggregation_mode", "null") != "null":
        raise Refused("ENCODER_DISAGG", "Cannot set --encoder-only and --disaggregation-mode prefill/decode "
                      "together.", "disaggregation_mode")
    if rules["language_only_needs_urls"] and language_only and not args.get("encoder_urls"):
        raise Refused("ENCODER_DISAGG", "--language-only requires at least one encoder URL (--encoder-urls) in SGLang "
                      "%s." % rules["version"], "encoder_urls")
    archs = (target_cfg or {}).get("architectures") or [None]
    if archs[0] is not None and archs[0] not in rules["encoder_disagg_archs"]:
        raise Refused("ENCODER_DISAGG_MODEL", "Model type %s is not supported for encoder disaggregation in SGLang %s "
                      "(%s); it supports %s." % (archs[0], rules["version"],
                                                 "--encoder-only" if encoder_only else "--language-only",
                                                 ", ".join(rules["encoder_disagg_archs"])),
                      "encoder_only" if encoder_only else "language_only")
    if rules["muse_language_only_adaptive"] and archs[0] == "MuseSparkForConditionalGeneration" and \
            language_only and args.get("enable_adaptive_dispatch_to_encoder"):
        # -- misc (session 15) --: after the architecture list (which takes Muse Spark)
        raise Refused("ENCODER_DISAGG", "Muse language-only servers do not load local encoders; "
                      "--enable-adaptive-dispatch-to-encoder is not supported.", "enable_adaptive_dispatch_to_encoder")


# -- attn (session 14) --
def _env_on(env, name):
    """An EnvBool of SGLang's environ.py: true for 1 / true / yes / y (any case)."""
    return str((env or {}).get(name, "")).strip().lower() in ("1", "true", "yes", "y")


def _backend(args):
    """--disaggregation-transfer-backend as the PD hook reads it (mooncake_tcp is mooncake over TCP)."""
    backend = get(args, "disaggregation_transfer_backend", "mooncake")
    return "mooncake" if backend == "mooncake_tcp" else backend


@gate("disaggregation_decode_allocation_policy",
      context=("disaggregation_mode", "disaggregation_transfer_backend", "pp_size", "attn_cp_size", "dcp_size",
               "tp_size", "dp_size", "enable_dp_attention", "attn_dp_size", "enable_pdmux", "decoupled_spec_role",
               "enable_pd_role_switch", "encoder_only", "language_only", "enable_hisparse",
               "disaggregation_decode_host_receive_threshold", "disaggregation_decode_enable_radix_cache",
               "enable_hierarchical_cache", "hicache_storage_backend", "hicache_write_policy"))
def check_pd_prefill_complete(args, env):
    """--disaggregation-decode-allocation-policy prefill_complete (0.5.22 on, where the value is), the PD hook's first
    check: refused with any of the features it lists. Attention DP written as --attn-dp-size is not judged."""
    if args.get("disaggregation_decode_allocation_policy") != "prefill_complete":
        return
    mode = get(args, "disaggregation_mode", "null")
    tp = get(args, "tp_size", 1)
    attn_dp = get(args, "dp_size", 1) if args.get("enable_dp_attention") else 1
    hicache = args.get("enable_hierarchical_cache")
    found = [what for what, hit in (
        ("aggregated serving", mode not in ("prefill", "decode")),
        ("transfer backends other than Mooncake", _backend(args) != "mooncake"),
        ("pipeline or attention context parallelism", get(args, "pp_size", 1) != 1 or
         get(args, "attn_cp_size", 1) != 1 or get(args, "dcp_size", 1) != 1),
        ("attention tensor parallelism greater than one", tp != attn_dp and args.get("attn_dp_size") is None),
        ("PD multiplexing or decoupled speculation", args.get("enable_pdmux") or
         get(args, "decoupled_spec_role", "null") != "null"),
        ("runtime PD role switching", args.get("enable_pd_role_switch")),
        ("encoder disaggregation", args.get("encoder_only") or args.get("language_only")),
        ("HiSparse", args.get("enable_hisparse")),
        ("decode host KV buffering", get(args, "disaggregation_decode_host_receive_threshold", 1) < 1),
        ("decode radix cache or decode HiCache", mode == "decode" and (
            args.get("disaggregation_decode_enable_radix_cache") or hicache)),
        ("prefill HiCache other than L2 write_back", mode == "prefill" and hicache and (
            args.get("hicache_storage_backend") is not None or
            get(args, "hicache_write_policy", "write_through") != "write_back")),
        ("staging buffers", _env_on(env, "SGLANG_DISAGG_STAGING_BUFFER")),
        ("the Rust bootstrap registry", _env_on(env, "SGLANG_RUST_SERVER"))) if hit]
    if found:
        raise Refused("PD_PREFILL_COMPLETE", "--disaggregation-decode-allocation-policy prefill_complete does not yet "
                      "support %s." % ", ".join(found), "disaggregation_decode_allocation_policy")


@gate("disaggregation_mode",
      context=("disaggregation_decode_enable_radix_cache", "enable_hisparse", "disaggregation_transfer_backend",
               "disaggregation_bootstrap_port", "port", "enable_pd_role_switch", "speculative_algorithm", "pp_size",
               "ep_size", "dcp_size", "moe_a2a_backend", "enable_dp_attention", "attn_dp_size", "dp_size",
               "enable_hierarchical_cache"))
def check_pd_roles(args, rules, env):
    """The PD hook past its host-receive checks, in SGLang's order: a decode server's radix cache refuses HiSparse and
    (trait pd_radix_fake_check) the fake transfer backend, or takes the backends of trait pd_radix_backends; a prefill server refuses the fake backend and, with
    SGLANG_RUST_SERVER (trait pd_rust_bootstrap), a bootstrap port other than the default or --port (the Mooncake
    backend; the others' bootstrap servers are not modelled); both roles: SGLANG_DISAGG_STAGING_BUFFER's transfer
    backends (trait pd_staging_backends), then --enable-pd-role-switch (trait pd_role_switch_checks) with
    speculation, pipeline, expert or decode context parallelism, or an a2a backend (attention / data parallelism,
    listed differently per release, not judged)."""
    mode = args.get("disaggregation_mode")
    if mode not in ("prefill", "decode"):
        return
    backend = _backend(args)
    dcp = rules["pd_decode_dcp"]
    if mode == "decode" and dcp and get(args, "dcp_size", 1) > 1:
        # -- old-b (session 15) --: 0.5.17-0.5.21 (trait pd_decode_dcp): a decode server with DCP takes these transfer
        # backends and (0.5.17-0.5.20) only the chunk cache
        if backend not in dcp["backends"]:
            raise Refused("PD_DECODE_DCP", "PD decode DCP requires --disaggregation-transfer-backend %s, got %r." % (
                " or ".join(dcp["backends"]), backend), "disaggregation_transfer_backend")
        if dcp["chunk_cache"] and args.get("disaggregation_decode_enable_radix_cache"):
            raise Refused("PD_DECODE_DCP", "PD decode DCP currently requires chunk cache; "
                          "--disaggregation-decode-enable-radix-cache is not supported.",
                          "disaggregation_decode_enable_radix_cache")
        if dcp["chunk_cache"] and args.get("enable_hierarchical_cache"):
            raise Refused("PD_DECODE_DCP", "PD decode DCP currently requires chunk cache; --enable-hierarchical-cache is "
                          "not supported.", "enable_hierarchical_cache")
    if mode == "decode" and args.get("disaggregation_decode_enable_radix_cache"):
        if args.get("enable_hisparse"):
            raise Refused("PD_DECODE_RADIX_CONFLICT", "--disaggregation-decode-enable-radix-cache is incompatible with "
                          "--enable-hisparse.", "disaggregation_decode_enable_radix_cache")
        allowed = rules["pd_radix_backends"]
        if allowed is not None and backend not in allowed:
            raise Refused("PD_DECODE_RADIX_BACKEND", "--disaggregation-decode-enable-radix-cache currently requires "
                          "--disaggregation-transfer-backend in %s (SGLang %s), got %s." % (
                              ", ".join(allowed), rules["version"], backend), "disaggregation_transfer_backend")
        if backend == "fake" and rules["pd_radix_fake_check"]:
            raise Refused("PD_DECODE_RADIX_CONFLICT", "--disaggregation-decode-enable-radix-cache is incompatible with "
                          "--disaggregation-transfer-backend fake.", "disaggregation_transfer_backend")
    if mode == "prefill":
        if backend == "fake":
            raise Refused("PD_PREFILL_FAKE", "A PD prefill server does not support 'fake' as the transfer backend.",
                          "disaggregation_transfer_backend")
        port = get(args, "disaggregation_bootstrap_port", 8998)
        if rules["pd_rust_bootstrap"] and _env_on(env, "SGLANG_RUST_SERVER") and backend == "mooncake" and \
                port not in (8998, get(args, "port", 30000)):
            raise Refused("PD_RUST_BOOTSTRAP_PORT", "SGLANG_RUST_SERVER serves the PD KV bootstrap registry on the api "
                          "port: --disaggregation-bootstrap-port %s conflicts with --port %s; drop it." % (
                              port, get(args, "port", 30000)), "disaggregation_bootstrap_port")
    staging = rules["pd_staging_backends"]
    if _env_on(env, "SGLANG_DISAGG_STAGING_BUFFER") and backend not in staging:
        raise Refused("PD_STAGING_BUFFER", "SGLANG_DISAGG_STAGING_BUFFER requires --disaggregation-transfer-backend %s, "
                      "got %s." % (" or ".join(staging), backend), "disaggregation_transfer_backend")
    if args.get("enable_pd_role_switch") and rules["pd_role_switch_checks"]:
        found = [what for what, hit in (
            ("expert parallelism", get(args, "ep_size", 1) > 1),
            ("MoE all-to-all", get(args, "moe_a2a_backend", "none") != "none"),
            ("pipeline parallelism", get(args, "pp_size", 1) > 1),
            ("decode context parallelism", get(args, "dcp_size", 1) > 1),
            ("speculative decoding", args.get("speculative_algorithm") is not None)) if hit]
        if found:
            raise Refused("PD_ROLE_SWITCH", "--enable-pd-role-switch does not rebuild role-specific state for: %s. "
                          "Remove these options or drop --enable-pd-role-switch." % ", ".join(found),
                          "enable_pd_role_switch")
