"""Refusals in a release's resolution code that no argv can reach on these machines, each with its reason.

The coverage figure counts every refusal on the resolution path (refusals.py); this table says which of the
unreached ones cannot be reached from an argv here, so the rest is the generator's work left. Entries for the
features the static layer leaves to SGLang (MoE, Mamba, DSA/DeepSeek-V4, HiCache, LoRA, PD, SSL serving, ...) and for
runtimes the collection does not deploy on (NPU, XPU, ROCm, MUSA) are gone with their rules: the sweep no longer
aims at those refusals (tests/oracle/cases.py owned_or_sampled). Categories:
- host: needs a file, device or package that exists only on the host (an SSL key, /sys/class/infiniband, an
  optional kernel package).
- internal: an invariant of SGLang's own code (its field declarations, a hook writing the frozen input): no argv
  changes it.
- shadowed: an earlier check always refuses the same input first (the parser's choices, an earlier hook's rewrite).

An entry is (function, message regex, category, why) under the file it sits in; it matches every refusal of that
file whose innermost function is `function` and whose message text matches the regex (line numbers move between
releases, names and messages rarely do). After `why`, an optional Source(regex), which also requires the regex to match the refusal's source
text (refusals.py's row "source": the line that opens the statement's block, then the statement's own lines, each
stripped): it tells apart two refusals of one function that have no message text (bare asserts, a raise of a
variable). Checked by tests/oracle/test_differential.py: no refusal an entry
matches is ever reached (a reached one was expressible after all), and every entry matches a refusal of some
release the engine knows (no stale entries; `make lab-kit` puts every release's source here).
"""
import re


# -- new19 (session 17) --
class Source(str):
    """An entry's marker: a regex its refusal's source text (the opening line of its block, then the statement) must
    match as well (re.search)."""


def _source_ok(entry, row):
    return all(re.search(m, row.get("source") or "") for m in entry[4:] if isinstance(m, Source))


CATEGORIES = {
    "host": (
        "needs a file, device or package that exists only on the host (an SSL key, /sys/class/infiniband, an "
        "optional kernel package)"),
    "internal": (
        "an invariant of SGLang's own code (its field declarations, a hook writing the frozen input): no argv"
        " changes it"),
    "shadowed": (
        "an earlier check always refuses the same input first (the parser's choices, an earlier hook's "
        "rewrite)"),
}

ENTRIES = {
    "sglang/srt/arg_groups/arg_utils.py": [
        ('fallbacks_of', 'fallback', "internal",
         "a field declared with a bad fallback: a check on SGLang's own field declarations"),
    ],
    "sglang/srt/arg_groups/argparse_actions.py": [
        # -- validation (session 14) --
        ('__call__', 'Expected a list of LoRA paths', "internal",
         "--lora-paths is declared nargs='*': argparse always hands LoRAPathAction a list"),
    ],
    "sglang/srt/arg_groups/attention_hook.py": [
        # -- attn (session 14) --
        ('handle_linear_attn_backend', r'flashinfer on SM100\+ requires', "host",
         "reads torch.cuda.get_device_capability() (and torch.version.cuda) on the host itself, not the platform "
         "override: with a CUDA platform presented this CPU torch asserts 'Torch not compiled with CUDA' first, "
         "without one is_cuda is false"),
    ],
    "sglang/srt/arg_groups/fields/__init__.py": [
        ('collect_input_fields', 'declared by both', "internal",
         "a field declared in two namespaces: a check on SGLang's own declarations"),
    ],
    "sglang/srt/arg_groups/kv_cache_hook.py": [
        # -- kv (session 14) --
        ('handle_prefill_only_disable_kv_cache', 'must run after _handle_attention_backend_compatibility', "internal",
         "guards SGLang's own hook order: the attention hook, which runs first, always fills attention_backend"),
        ('handle_page_major_kv_layout', 'requires the Triton Mamba kernels', "host",
         "the only other --mamba-backend choice is flashinfer, which the Mamba hook refuses first unless FlashInfer's "
         "mamba module imports: no flashinfer package on this host"),
        # -- new19 (session 17) --
        ('handle_unified_memory_pool', r'^--enable-unified-memory \+ DSPARK supports a linear draft chain only', "shadowed",
         "speculative_hook.py _handle_dspark, which runs first, resolves --speculative-eagle-topk to 1 (overriding any "
         "other value with a warning) in 0.5.19-0.5.21"),
        ('handle_unified_memory_pool', 'EAGLE/EAGLE3 does not support --disaggregation-decode-retraction-backup=host_pool',
         "shadowed", "the host-pool backup needs a PD decode server (the KV cache hook refuses it elsewhere), where "
         "the pool's PD branch refuses speculation with Mooncake and every other transfer backend first"),
    ],
    "sglang/srt/arg_groups/model_override_base.py": [
        # -- model (session 14) --
        ('_invoke_provider', 'must return a dict', "internal",
         "a registered model-override provider returning a non-dict: a check on SGLang's own providers"),
        ('__setattr__', 'is read-only', "internal",
         "a write through ResolvedView / ResolvingConfig: SGLang's own code writing a read view; argv values go "
         "through declarations"),
    ],
    "sglang/srt/arg_groups/model_path_hook.py": [
        # -- model (session 14) --
        ('handle_load_format', "load_format='ipc_cache' is an internal-only format", "shadowed",
         "--load-format's choices (LOAD_FORMAT_CHOICES) leave ipc_cache out: the parser refuses it first"),
    ],
    "sglang/srt/arg_groups/overrides.py": [
        # -- model (session 14) --
        ('run_post_process_pass', 'post-process pass must return a dict', "internal",
         "a registered post-process pass returning a non-dict: a check on SGLang's own passes"),
        ('declare_resolution', 'declared on the published config', "internal",
         "a hook declaring on the published config after publish: SGLang's own call order, not an input"),
        # -- overrides (session 15) --
        ('declare_resolution', 'are not ServerArgs fields', "internal",
         "a hook or post-process pass declaring a field name ServerArgs lacks: SGLang's own declarations, not an input"),
        ('validate_declarations', 'not model-overridable', "internal",
         "a post-process pass declaring a field outside the publish gate's resolvable set: a check on SGLang's own "
         "passes (every argv-driven declaration names a resolvable field)"),
        ('max_speculative_num_draft_tokens', r'declared max_speculative_num_draft_tokens=', "internal",
         "an algorithm declaring a maximum below its own draft-token count: the default returns the count itself, "
         "and adaptive EAGLE (max(candidate_steps) + 1) has already set the count to num_steps + 1 with num_steps "
         "among the candidates (speculative_hook.py _init_adaptive_speculative_params), so no argv makes it smaller"),
        # -- moe (session 16) --: the override machinery of 0.5.15-0.5.19 (before model_override_base.py took the
        # provider and the view, and the flags tier went)
        ('_invoke_provider', 'must return a dict', "internal",
         "a registered model-override provider returning a non-dict: a check on SGLang's own providers"),
        ('__setattr__', 'is read-only', "internal",
         "a write through ResolvedView: SGLang's own post-process passes writing a read view; argv values go through "
         "declarations"),
        ('declare_late_resolution', 'called on the published config', "internal",
         "a launcher-stage resolver run on the config after publish: SGLang's own call order (the oracle's resolution "
         "never publishes before it), not an input"),
        ('run_post_process_pass', 'on the published config', "internal",
         "a pass declaring on the published instance: only when check_server_args re-runs on an Engine rebuilt after "
         "shutdown, SGLang's own call order, not an input"),
        ('apply_model_overrides', 'nothing was applied', "internal",
         "the flags tier's own layout (a declared field outside the resolvable set, a flag leaf not declared on its "
         "dataclass, a frozen flags bag): checks on SGLang's own declarations and flag dataclasses"),
        ('assert_flag_parity', 'parity broken', "internal",
         "a drift guard between the flags tier and the materialized ServerArgs, both written from the same "
         "declarations by SGLang's own code: no argv makes them differ"),
        # -- gpu16 (session 17) --: Kimi-K3's override in this file (0.5.17-0.5.18)
        ('_require_kimi_k3_cutedsl_dcp_support', r'requires enable_dcp in the signature of', "host",
         "needs a FlashInfer installed whose trtllm_batch_decode_with_kv_cache_mla lacks enable_dcp: no kit here has "
         "FlashInfer (the import fails first: the refusal before it, which the sweep reaches)"),
        ('_kimi_k3_moe_runner_overrides', r'requires a valid\s+SGLANG_TRTLLM_GEN_MOE_CUBIN_POOL', "host",
         "judges the serving host's files (0.5.17): the SiTU cubin pool SGLANG_TRTLLM_GEN_MOE_CUBIN_POOL names and the "
         "installed flashinfer package (kernels/ops/moe/trtllm_gen_moe.py available()), as the InfiniBand sysfs check does"),
    ],
    "sglang/srt/arg_groups/parallel_hook.py": [
        # -- moe (session 16) --
        ('handle_shared_experts_tp', r'^--shared-experts-tp-size requires a Kimi-K3 model configuration', "shadowed",
         "needs --model-path instance://...: an earlier hook reads the model config through "
         "connector.create_remote_connector(url) without a device, whose RemoteInstanceConnector reads device.type "
         "(AttributeError on None) before this hook, on any host (observed on 0.5.21-0.5.23)"),
        # -- parallel (session 14) --
        ('handle_dwdp', r'^dwdp_size must be >= 2 when enabled', "shadowed",
         "the hook returns for dwdp_size <= 1 right before it: a size that gets here is >= 2"),
        ('handle_elastic_ep', r'^elastic EP join rank offset must be >= 0', "shadowed",
         "a non-zero offset needs --elastic-ep-join-mode scale (the assert before it), whose own check asserted the "
         "offset > 0 earlier in the hook"),
        ('handle_elastic_ep', r'^Elastic EP scale-up requires --pp-size 1', "shadowed",
         "scale-up needs --elastic-ep-backend, whose check at the hook's head already asserts pp_size == 1"),
        ('handle_elastic_ep', r'^Elastic EP scale-up requires --moe-dp-size 1', "shadowed",
         "moe_dp_size > 1 needs attn_cp_size == moe_dp_size (the context-parallel hook), so the attn_cp_size == 1 "
         "check right before it refuses first"),
        ('handle_elastic_ep', r'^Invalid attention topology', "internal",
         "raised inside the hook's own try block, whose `except ValueError` re-raises it as an AssertionError a few "
         "lines on: the refusal surfaces there (reached), never at this raise"),
        # -- new19 (session 17) --: the same check before 0.5.22, which named HIP and NPU (0.5.20) or HIP (0.5.21) too
        ('handle_context_parallelism', r'^DeepSeek V3\.2 prefill CP does not support', "host",
         "a DeepSeek V3.2 (DSA) target makes the model-specific hook, before this one, call "
         "torch.cuda.get_device_capability() on every CUDA or ROCm platform: this host has no CUDA device and the "
         "platform override does not reach torch"),
    ],
    "sglang/srt/arg_groups/speculative_hook.py": [
        # -- new19 (session 17) --
        ('_handle_uno', r'^UNO does not support DP attention or context parallelism', "shadowed",
         "0.5.20-0.5.21 read the raw --enable-dp-attention and --attn-cp-size right after 'UNO requires TP=PP=1': at TP 1 "
         "the parallel hooks, which run first, drop --enable-dp-attention at --dp-size 1, refuse a larger DP size "
         "(tp_size % dp_size) and refuse any --attn-cp-size but 1 (tp_size must be divisible by attn_cp_size). 0.5.22 "
         "on read attn_dp_enabled_of() there: reachable", Source(r"^if cfg\.enable_dp_attention or cfg\.attn_cp_size")),
        # -- specserve (session 14) --
        ('_handle_dflash', r'requires SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION=0', "shadowed",
         "handle_speculative_decoding refuses SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION for any algorithm but "
         "single-layer EAGLE / EAGLE3 / DSPARK before the DFLASH branch runs"),
        ('_handle_eagle_family', r'with multi-layer EAGLE .*requires --speculative-eagle-topk 1', "shadowed",
         "the rejection-sampling check just before it refuses any --speculative-eagle-topk other than 1 first"),
        ('_handle_dspark', r'could not resolve speculative_num_draft_tokens', "internal",
         "unreachable: gamma defaults to 7 when neither the block size, the draft's gamma nor the draft token count "
         "is set, and a set gamma declares the draft token count"),
    ],
    "sglang/srt/arg_groups/validation_hook.py": [
        # -- validation (session 14) --
        ('check_pipeline_parallel_compat', 'not compatible with overlap schedule', "shadowed",
         "the post-process _pipeline_parallel_overlap_disable (overrides.py) sets disable_overlap_schedule for pp_size > 1"),
        ('check_pipeline_parallel_compat', 'Pipeline parallel DSPARK requires disaggregation-mode=prefill', "shadowed",
         "speculative_hook.py's DSPARK hook refuses pp_size > 1 outside PD prefill first ('DSpark pipeline parallelism "
         "requires PD prefill')"),
        ('check_server_args', 'enable_mixed_chunk is not supported with speculative_algorithm', "shadowed",
         "every speculative hook (EAGLE family, NGRAM, UNO, FROZEN_KV_MTP) turns enable_mixed_chunk off for an algorithm "
         "without supports_mixed_chunk() before check_server_args"),
        ('validate_buckets_rule', 'cannot be empty list', "shadowed",
         "the line before returns on an empty (or None) rule: the assert can never fail"),
        ('check_watermark_server_args', 'context_window must be an integer from 1 to 64', "shadowed",
         "watermark_context_window is no_cli: only --watermark-config sets it, and its loader refuses a bad window first "
         "(the default, 4, passes)"),
        ('check_watermark_server_args', 'does not support custom sampling backends', "shadowed",
         "--sampling-backend's choices are exactly BUILT_IN_SAMPLING_BACKENDS"),
        ('handle_aux_hidden_state_capture', 'must not be empty', "shadowed",
         "--return-aux-hidden-state-layer-ids is nargs='+': the parser refuses it without a value"),
        # -- misc (session 15) --: the sysfs check itself, like the SSL file checks: an argv with a PD mooncake role and
        # --disaggregation-ib-device reaches it on a host without InfiniBand, but it judges the serving host's
        # /sys/class/infiniband, which the static engine does not read from the controller (mode: installed does)
        ('validate_ib_devices', r'^InfiniBand sysfs path not found', "host",
         "reads the host's /sys/class/infiniband (its InfiniBand drivers): a host device, as the SSL files are"),
        ('validate_ib_devices', '^No IB devices found in', "host",
         "needs /sys/class/infiniband present but empty on the host"),
        ('validate_ib_devices', '^No valid GPU mappings found in IB device JSON', "host",
         "after the /sys/class/infiniband check: needs the host's InfiniBand sysfs"),
        ('validate_ib_devices', '^$', "host",
         "after the /sys/class/infiniband check: needs the host's InfiniBand sysfs"),
        ('_normalize_device_group', '', "host",
         "runs only after the /sys/class/infiniband check passed: needs the host's InfiniBand devices"),
    ],
    "sglang/srt/server_args.py": [
        ('resolve_once', 'resolution already failed', "internal",
         "a second resolve_once() on a ServerArgs whose first one raised: `sglang serve` resolves once and exits on "
         "the first error"),
        ('__setattr__', 'assigned (during|after) resolution', "internal",
         "a hook writing to the operator's frozen input: SGLang's own code, no argv"),
        # -- cache (session 18) --
        ('get_global_server_args', r'^Global server args is not set yet', "internal",
         "the scheduler's / tokenizer's getter of the process-wide ServerArgs (0.5.11-0.5.14 server_args.py; "
         "runtime_context.py after): resolution never calls it; 0.5.14's path names it only through layers/cp/base.py "
         "get_cp_strategy (after _handle_context_parallelism's init_cp_strategy), which catches its ValueError"),
        # -- parallel (session 14) --
        ('_handle_dwdp', r'^dwdp_size must be >= 2 when enabled', "shadowed",
         "the hook returns for dwdp_size <= 1 right before it: a size that gets here is >= 2"),
        ('_handle_elastic_ep', r'^elastic EP join rank offset must be >= 0', "shadowed",
         "a non-zero offset needs --elastic-ep-join-mode scale (the assert before it), whose own check asserted the "
         "offset > 0 earlier in the hook"),
        ('_handle_elastic_ep', r'^Elastic EP scale-up requires --pp-size 1', "shadowed",
         "scale-up needs --elastic-ep-backend, whose check at the hook's head already asserts pp_size == 1"),
        ('_handle_elastic_ep', r'^Elastic EP scale-up requires --moe-dp-size 1', "shadowed",
         "moe_dp_size > 1 needs attn_cp_size == moe_dp_size (the context-parallel hook), so the attn_cp_size == 1 "
         "check right before it refuses first"),
        # -- specserve (session 14): the serving checks before srt/arg_groups/ (0.5.11-0.5.18) --
        ('_handle_ssl_validation', r'^SSL (key|certificate|CA certificates) file not found', "host",
         "os.path.isfile on the key / certificate / CA path where SGLang runs (after the pairing checks): a host file "
         "the static engine does not judge"),
        ('_handle_ssl_validation', r"requires the 'granian' package", "host",
         "`import granian` with --enable-http2: an optional package absent from every kit here"),
        ('_handle_ssl_validation', r'^--enable-ssl-refresh is not supported with --enable-http2', "host",
         "after the granian import (absent here) and the key / certificate files existing on the host"),
        ('_handle_load_balance_method', r'^Invalid disaggregation_mode', "shadowed",
         "--disaggregation-mode has the parser choices null / prefill / decode, and no hook sets another value"),
        ('_handle_return_hidden_states_mode', r'^return_hidden_states_mode must be one of', "shadowed",
         "--return-hidden-states-mode has the parser choices full / last (unset is None)"),
        # -- old-a (session 15) --: the same checks in the older releases' srt/server_args.py (0.5.11-0.5.18), read in
        # each kit; later releases have them in arg_groups/ (the entries above)
        ('_handle_ssl_validation', r'^--enable-http2 does not yet support --tokenizer-worker-num', "host",
         "after the granian import (absent from every kit here), which refuses --enable-http2 first"),
        ('__call__', 'Expected a list of LoRA paths', "internal",
         "--lora-paths is declared nargs='*': argparse always hands LoRAPathAction a list"),
        ('check_lora_server_args', 'max-lora-chunk-size must be a power of 2', "shadowed",
         "the parser's choices (16, 32, 64, 128) refuse any other value first"),
        ('check_lora_server_args', "each dict should contain 'lora_name' and 'lora_path'", "shadowed",
         "LoRAPathAction refuses a JSON item without both keys at parsing"),
        # -- old-b (session 15) --
        # -- oldnon (session 17) --
        ('check_lora_server_args', 'Invalid type for item in --lora-paths list', "internal",
         "LoRAPathAction only yields str items and dicts (json.loads of a '{...}' item): no other type"),
        ('check_lora_server_args', 'Invalid type for --lora-paths:', "internal",
         "LoRAPathAction always stores a list (and the field's default is None): never another type"),
        ('validate_buckets_rule', 'cannot be empty list', "shadowed",
         "the line before returns on an empty (or None) rule: the assert can never fail"),
        ('check_server_args', 'enable_mixed_chunk is required for speculative decoding', "shadowed",
         "every speculative branch of these releases (DFLASH, the EAGLE family, FROZEN_KV_MTP, NGRAM) turns "
         "enable_mixed_chunk off before check_server_args, and an unknown algorithm is refused earlier"),
        ('_validate_ib_devices', r'^(No IB devices found in|Invalid IB devices specified)', "host",
         "after the /sys/class/infiniband check: needs the host's InfiniBand sysfs"),
        ('_handle_linear_attn_backend', r'flashinfer on SM100\+ requires', "host",
         "reads torch.cuda.is_available() of the host itself (no platform override before 0.5.19, and the oracle's "
         "GPU stand-in does not present is_available): this CPU torch has no CUDA device"),
        # -- gpu16 (session 17) --: server_args.py's copies (0.5.11-0.5.18) of the checks listed above for
        # arg_groups/validation_hook.py, kv_cache_hook.py and model_path_hook.py, with the same reasons, read in each kit
        ('_validate_ib_devices', r'^InfiniBand sysfs path not found', "host",
         "reads the host's /sys/class/infiniband (its InfiniBand drivers): a host device, as the SSL files are"),
        ('_validate_ib_devices', r'^(No valid GPU mappings found in IB device JSON|$)', "host",
         "after the /sys/class/infiniband check: needs the host's InfiniBand sysfs"),
        ('_normalize_device_group', '', "host",
         "runs only after the /sys/class/infiniband check passed: needs the host's InfiniBand devices"),
        ('_handle_prefill_only_disable_kv_cache', 'must run after _handle_attention_backend_compatibility', "internal",
         "guards SGLang's own hook order: the attention backend handling, which runs first, always fills "
         "attention_backend"),
        ('_handle_page_major_kv_layout', 'requires the Triton Mamba kernels', "host",
         "the only other --mamba-backend choice is flashinfer, which _handle_mamba_backend (run first) refuses unless "
         "FlashInfer's mamba module imports: no flashinfer package on this host"),
        # -- mamba (session 18) --: server_args.py's copies (0.5.11-0.5.18) of mamba_hook.py's two entries above
        ('_handle_mamba_backend', r'^(FlashInfer mamba module not available, please check flashinfer installation\.)?$',
         "host",
         "--mamba-backend flashinfer where is_flashinfer_available() holds (a CUDA GPU) but `import flashinfer.mamba` "
         "fails: a FlashInfer install without its mamba module, a fact of the host's packages (no argv sets it; the "
         "static engine takes SGLang's dependency as installed on a GPU host; the oracle's GPU stand-in would get here "
         "only because this host has no flashinfer package at all). The raise in the `else` branch (no FlashInfer: "
         "this CPU host) is reached", Source(r"^except \(ImportError")),
        ('_handle_mamba_radix_cache', '^$', "internal",
         "0.5.13's mamba_cache_chunk_size property returns max(chunk_size, page_size) of a page size that is not None "
         "there (or its memo of that value): never None (a None chunk size fails inside max() first)",
         Source(r"assert self\.mamba_cache_chunk_size is not None")),
        ('_validate_mamba_extra_buffer', '^$', "internal",
         "the mamba_cache_chunk_size property (0.5.14-0.5.18) returns max(chunk_size, page_size) of a page size that "
         "is not None there (or its memo of that value): never None (a None chunk size fails inside max() first)",
         Source(r"assert self\.mamba_cache_chunk_size is not None")),
        ('_handle_load_format', "load_format='ipc_cache' is an internal-only format", "shadowed",
         "--load-format's choices (LOAD_FORMAT_CHOICES) leave ipc_cache out: the parser refuses it first"),
        ('_handle_unified_memory_pool', r'^--enable-unified-memory \+ DSPARK supports a linear draft chain only', "shadowed",
         "the speculative hook, which runs before the unified pool (0.5.18 _run_resolution_pipeline), sets a DSPARK "
         "speculative_eagle_topk to 1 (arg_groups/speculative_hook.py _handle_dspark overrides any other value with a "
         "warning)"),
    ],
}


def classify(row, release=None):
    """(category, why) for a refusal row of refusals.enumerate_refusals() that no argv reaches here, else None."""
    for entry in ENTRIES.get(row.get("file"), ()):
        fn, rx, cat, why = entry[:4]
        if (not fn or row.get("function") == fn) and re.search(rx, row.get("message") or "") and _source_ok(entry, row):
            return cat, why
    return None


def matches(entry_file, entry, rows):
    """The rows (of one release) an entry matches."""
    fn, rx, _cat, _why = entry[:4]
    return [r for r in rows if r.get("file") == entry_file and (not fn or r.get("function") == fn)
            and re.search(rx, r.get("message") or "") and _source_ok(entry, r)]
