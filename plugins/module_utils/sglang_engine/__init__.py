# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""THE flags engine: SGLang speculative-decoding flags per SGLang release, without SGLang.

One code path for the controller preflight and the host validation:

    spec (docs/interfaces.md)  --render.render()-->  argv  --parse.parse_argv()-->  args
    args --resolve.resolve()--> what the release's own argument resolution does to what the spec renders
         + checks: config.json pairing (what SGLang only finds at worker start)
         + gpu: what fails on the hardware
         + overrides (requested vs resolved; a speculative one is an error unless allowed)
         + judged_by_sglang(): what it leaves to SGLang itself (verdict accepted: None), never a guessed yes

What it judges completely is what the collection renders (common.SPEC_FLAGS, common.OWNED_DESTS); any other flag is
checked for existence and type in the release's parser only. docs/sglang.md, "Validation".

Every per-release difference is a trait in releases.py (parser tables in parsers/, captured from each
release's real parser); the modules here read traits, never version strings. docs/sglang-releases.md
lists the traits and their sources. A hand-written command line takes the same path from parse_argv()
on (validate_argv), and render.argv_to_spec() turns it back into a spec for migration.

stdlib only; no Ansible import.
"""
from __future__ import annotations

import os
import re

from ansible_collections.specdeploy.sglang.plugins.module_utils import inputs
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import checks, releases
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import ConfigError, check_context, check_draft_config, checkpoint_files, infer_block_size, load_config  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import (  # noqa: F401
    DFLASH_TARGET_ARCHS, HYBRID_GDN_ARCH, LONG_CONTEXT_ENV, OWNED_BACKENDS, OWNED_DESTS, PLAIN_TARGET_ARCHS, RESOLVED_KEYS,
    SPEC_FLAGS, SPEC_TO_SGLANG, SPECIAL_ATTENTION_KEYS, SPECULATIVE_FIELDS, TREE_FLAVORS, TREE_ORDER, Refused, Result,
    is_int,
)
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.gpu import check_gpus, platform_from_gpus  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.memfit import check_memory
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.messages import code_for_sglang_message  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.parse import parse_argv, strip_program  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.releases import KNOWN_VERSIONS, RELEASES, known_versions_text, version_rules  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.render import SPEC_KEYS, SPECULATIVE_KEYS, argv_to_spec, normalize_spec, render, tree_flavor  # noqa: F401
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.resolve import (  # noqa: F401
    record_arg_overrides, record_overrides, requested_fields, resolve)
# the one systemd quoting and the one secret-name pattern (the controller refuses what the host refuses)
from ansible_collections.specdeploy.sglang.plugins.module_utils.server_common import SECRET_NAME as SECRET_ENV
from ansible_collections.specdeploy.sglang.plugins.module_utils.systemd_unit import argv_diff, flag_groups, systemd_quote, unit_exec_lines  # noqa: F401

_MTP_TARGETS = re.compile(r"(Deepseek|Glm4Moe|GlmMoeDsa|BailingMoe|MistralLarge3|Pixtral|HYV|Qwen4Exp)")


_MODELLED_ALGORITHMS = ("DFLASH", "DDTREE", "EAGLE", "EAGLE3", "NEXTN", "STANDALONE")


def judged_by_sglang(args, env, target_cfg, draft_cfg):
    """What in this validation the static layer does not judge (SGLang does: the authority preflight, the installed
    SGLang on the host): [] when the static verdict is complete. Flags outside common.OWNED_DESTS, SGLang's own
    environment variables, devices and attention backends the rules do not model, a target whose model hooks they do
    not model, and a drafter whose config.json was not read."""
    why = []
    foreign = sorted(d for d in args if d not in OWNED_DESTS)
    if foreign:
        why.append("flags %s" % ", ".join("--" + d.replace("_", "-") for d in foreign))
    sg_env = sorted(k for k in env or {} if k.startswith(("SGLANG_", "SGL_")) and k != LONG_CONTEXT_ENV)
    if sg_env:
        why.append("env %s" % ", ".join(sg_env))
    device = str(args.get("device") or "cuda").split(":", maxsplit=1)[0]
    if device not in ("cuda", "cpu"):
        why.append("device %s" % device)
    for k in ("attention_backend", "prefill_attention_backend", "speculative_draft_attention_backend"):
        if args.get(k) not in OWNED_BACKENDS:
            why.append("%s %s" % (k, args[k]))
    algo = args.get("speculative_algorithm")
    if algo is not None and str(algo).upper() not in _MODELLED_ALGORITHMS:
        why.append("speculative algorithm %s" % algo)
    if target_cfg is None:
        why.append("the target (its config.json was not read here)")
    else:
        arch = (target_cfg.get("architectures") or [None])[0]
        t = checks.text_cfg(target_cfg)
        special = [k for k in SPECIAL_ATTENTION_KEYS if t.get(k) or target_cfg.get(k)]
        if arch not in PLAIN_TARGET_ARCHS or special:
            why.append("target %s%s (its model-specific hooks)" % (arch, (" with %s" % ", ".join(special)) if special else ""))
    if algo is not None and args.get("speculative_draft_model_path") is not None:
        if draft_cfg is None:
            why.append("the drafter at %s (its config.json was not read here; SGLang refuses a drafter it cannot "
                       "read)" % args["speculative_draft_model_path"])
        elif any(x in str((draft_cfg.get("architectures") or [""])[0]) for x in ("Gemma4", "IQuest")):
            why.append("drafter %s" % draft_cfg["architectures"][0])
    return why


def _finish(result, args, env, rel, gpus, draft_cfg, target_cfg, allow_overrides, tree_flavor, platform, read_paths=True):
    version = rel["version"]
    try:
        r = resolve(args, env, rel, draft_cfg, target_cfg, platform, result, tree_flavor)
    except Refused as e:
        result.error(e.code, "SGLang %s would refuse to start: %s" % (version, e.message), field=e.field,
                     stage="resolve")
        result.sglang_verdict = {"accepted": False, "code": e.code, "stage": "resolve", "message": e.message,
                                 "judged_by_sglang": []}
        r = result.resolved
    else:
        record_arg_overrides(result, args, r, allow_overrides)
    algo = r.get("speculative_algorithm")
    if algo in ("DFLASH", "DDTREE") and draft_cfg is not None:
        check_draft_config(draft_cfg, target_cfg, rel, args, env, result)
    elif target_cfg is not None:
        check_context(None, target_cfg, args, env, result, draft_too=False,
                      target_too=not rel["context_check_at_resolution"])
    if algo in ("DFLASH", "DDTREE") and target_cfg is not None:
        arch = (target_cfg.get("architectures") or [None])[0]
        if arch not in DFLASH_TARGET_ARCHS:
            result.warn("TARGET_ARCH_UNVERIFIED", "target architecture %r is not in the list of classes known to "
                        "support DFLASH (set_dflash_layers_to_capture); check with mode: installed." % (arch,))
    if algo in ("EAGLE", "EAGLE3") and args.get("speculative_draft_model_path") is None and target_cfg is not None:
        arch = (target_cfg.get("architectures") or [None])[0]
        if arch and not _MTP_TARGETS.match(arch):
            result.error("EAGLE_NO_DRAFT", "%s needs speculative.draft_model_path for target %s (only MTP targets "
                         "carry their own draft layer)." % (algo, arch), field="speculative_draft_model_path",
                         stage="load")
    for k in (env or {}):
        if SECRET_ENV.search(str(k)):
            result.error("ENV_SECRET", "env %s looks like a secret: put it in the instance's EnvironmentFile "
                         "(/etc/specdeploy/<instance>.env), never in the spec, the unit or the release record." % k,
                         field="env.%s" % k, stage="input")
    check_gpus(gpus, rel, r, args, target_cfg, result)
    check_memory(result, r, args, target_cfg, draft_cfg, gpus, rel, read_paths)
    why = judged_by_sglang(args, env, target_cfg, draft_cfg)
    if rel.get("traits_from"):  # a release without a table of its own: SGLang judges all of it
        why.insert(0, "SGLang %s (not in the tables)" % version)
        if result.sglang_verdict["accepted"]:
            result.sglang_verdict = {"accepted": None, "code": "NOT_IN_TABLES", "stage": None,
                                     "message": releases.not_in_tables_message(rel)}
    elif why:
        message = "judged by SGLang: the static rules do not model %s; SGLang %s itself decides (the authority " \
                  "preflight, and the installed SGLang on the host before any restart)." % ("; ".join(why), version)
        result.warn("JUDGED_BY_SGLANG", message)
        if result.sglang_verdict["accepted"]:
            result.sglang_verdict = {"accepted": None, "code": "JUDGED_BY_SGLANG", "stage": None, "message": message}
    result.sglang_verdict["judged_by_sglang"] = why
    return result


def _load_configs(result, args, draft_config, target_config, read_paths):
    cfgs = {}
    for name, given, path_key in (("draft", draft_config, "speculative_draft_model_path"),
                                  ("target", target_config, "model_path")):
        src = given
        if src is None and read_paths and args.get(path_key) and os.path.isfile(
                os.path.join(str(args[path_key]), "config.json")):
            src = args[path_key]
        try:
            cfgs[name] = load_config(src)
        except ConfigError as e:
            result.error("CONFIG_UNREADABLE", "%s config: %s. Give a readable config.json (dir or file) or a mapping." % (
                name, e), field="%s_config" % name, stage="input")
            cfgs[name] = None
        if name == "target" and cfgs[name] is not None and isinstance(src, str) and os.path.isdir(src):
            side = checkpoint_files(src)  # the checkpoint's other files SGLang reads (checks.CHECKPOINT_FILES)
            if side:
                cfgs[name] = dict(cfgs[name], _checkpoint_files=side)
    if cfgs["draft"] is None and cfgs["target"] is None and not any(e["code"] == "CONFIG_UNREADABLE" for e in result.errors):
        result.warn("CONFIG_UNCHECKED", "no config.json given or readable: drafter/target checks skipped (the host "
                    "validation reads them).")
    return cfgs["draft"], cfgs["target"]


def validate_argv(argv, version, env=None, gpus=None, draft_config=None, target_config=None, capabilities=None,
                  allow_overrides=(), read_paths=True, result=None):
    """Validate an SGLang argv (flags, or a whole command line) for `version`. Returns a Result."""
    result = result or Result()
    rel = version_rules(version, result)
    if rel is None:
        return result
    if not isinstance(argv, (list, tuple, str)):
        result.error("ARGV_TYPE", "argv must be a list of strings or a command line string, got %s." %
                     type(argv).__name__, field="argv", stage="input")
        return result
    try:
        argv = strip_program(argv)
    except ValueError as e:
        result.error("ARGV_SYNTAX", "cannot split the command line: %s (check the quoting)." % e, field="argv",
                     stage="input")
        return result
    return _check_argv(argv, rel, env, gpus, draft_config, target_config, capabilities, allow_overrides, read_paths,
                       result)


def _check_argv(argv, rel, env, gpus, draft_config, target_config, capabilities, allow_overrides, read_paths, result):
    """validate_argv from the parse on: `argv` is flags only (a list of strings), `rel` a known release."""
    version = rel["version"]
    env = {str(k): str(v) for k, v in env.items()} if env else {}
    result.argv = argv
    result.env = env
    extra = {}
    flavor = tree_flavor(capabilities)
    if capabilities and isinstance(capabilities, dict):
        result.capabilities = capabilities
        for fid in capabilities.get("tree_verify") or []:
            extra.update(TREE_FLAVORS.get(fid, {}).get("flags", {}))
    try:
        args, _used, notes = parse_argv(argv, rel, extra)
    except Refused as e:
        hint = ""
        name = (e.field or "").split("=")[0]
        if name in releases.RENAMED and name not in rel["flags"]:
            hint = " Use %s." % releases.RENAMED[name]
        result.error(e.code, "SGLang %s would exit at argument parsing: %s.%s" % (version, e.message, hint),
                     field=e.field, stage="parse")
        result.sglang_verdict = {"accepted": False, "code": e.code, "stage": "parse", "message": e.message,
                                 "judged_by_sglang": []}
        return result
    for code, msg in notes:
        result.warn(code, msg)
    if "model_path" not in args:
        result.error("ARGV_NO_MODEL", "argv has no --model-path: SGLang needs the target model.", field="argv",
                     stage="input")
        return result
    # the spec's input rules (inputs) for what the argv sets: ports 1-65535 (--port, --nccl-port, ...), parallel sizes
    for dest, message in inputs.parsed_args_problems(args):
        result.error("SPEC_VALUE", message + ".", field=dest, stage="input")
    for k in ("tp_size", "dp_size", "pp_size"):
        v = args.get(k)
        if v is not None and is_int(v) and v < 1:
            # every release 0.5.11-0.5.23 takes a size below 1 at argument time; the launch then splits no ranks
            # (--pp-size 0 divides by zero in the engine's rank ranges)
            result.error("PARALLEL_SIZE", "%s must be >= 1, got %s: SGLang accepts it and fails at launch." % (k, v),
                         field=k, stage="load")
    mfs = args.get("mem_fraction_static")
    if mfs is not None and not 0 < mfs < 1:
        result.error("MEM_FRACTION", "mem_fraction_static %s is outside (0, 1): SGLang accepts it and fails when it "
                     "sizes the KV cache. Use e.g. 0.85." % mfs, field="mem_fraction_static", stage="load")
    ndt = args.get("speculative_num_draft_tokens")
    if ndt is not None and ndt < 1:
        result.error("NUM_DRAFT_TOKENS", "speculative_num_draft_tokens %s: SGLang accepts it but cannot draft. Use the "
                     "drafter's block size." % ndt, field="speculative_num_draft_tokens", stage="load")
    draft_cfg, target_cfg = _load_configs(result, args, draft_config, target_config, read_paths)
    platform = platform_from_gpus(gpus if isinstance(gpus, list) else None)
    return _finish(result, args, env, rel, gpus, draft_cfg, target_cfg, allow_overrides, flavor, platform, read_paths)


def validate(spec, gpus=None, draft_config=None, target_config=None, capabilities=None, allow_overrides=(),
             read_paths=True):
    """Validate a structured spec: render it for its SGLang version, then check the argv. Returns a Result."""
    result = Result()
    s = normalize_spec(spec, result)
    if s is None or not result.ok:
        return result
    argv = render(s, result, capabilities)
    if argv is None:
        return result
    allow = list(allow_overrides or []) + list((s.get("speculative") or {}).get("allow_overrides") or [])
    flavor = result.tree_verify
    # render() wrote flags only, as strings, for a known release: the argv checks start at the parse
    _check_argv(argv, releases.release(s["sglang_version"]), s.get("env"), gpus, draft_config, target_config,
                capabilities, allow, read_paths, result)
    result.tree_verify = flavor
    if flavor:
        result.resolved["tree_verify"] = flavor
    return result


# dest -> spec key, for argv_to_spec
