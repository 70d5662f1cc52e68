# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""config.json checks: the drafter against the target (what SGLang only finds when the workers load).
stdlib only."""
from __future__ import annotations

import json
import os

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import LONG_CONTEXT_ENV, is_int, truthy_env


class ConfigError(Exception):
    pass


def load_config(source):
    """dict -> itself; path to a dir or a config.json -> parsed dict. Raises ConfigError (readable message)."""
    if source is None:
        return None
    if isinstance(source, dict):
        return source
    if not isinstance(source, str):
        raise ConfigError("a model config must be a mapping or a path, got %s" % type(source).__name__)
    path = os.path.join(source, "config.json") if os.path.isdir(source) else source
    try:
        with open(path, "r") as f:
            data = json.load(f)
    except (OSError, IOError) as e:
        raise ConfigError("cannot read %s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise ConfigError("%s is not valid JSON: %s" % (path, e))
    if not isinstance(data, dict):
        raise ConfigError("%s must hold a JSON object" % path)
    return data


# The files of a checkpoint directory besides config.json that SGLang's model config reads at argument time, each by
# hf_hub cached_file (absent: None): joint_head_config.json, a Clef checkpoint's joint schema head (0.5.22 on
# srt/configs/model_config.py load_joint_head_config). Read with config.json, on its terms (a local directory, read_paths)
CHECKPOINT_FILES = ("joint_head_config.json",)


def checkpoint_files(model_dir):
    """{name: parsed JSON} of the CHECKPOINT_FILES in directory `model_dir` (a file that does not read or parse as
    JSON is left out: SGLang's json.load fails there as it loads the model config, not a resolution refusal)."""
    out = {}
    for name in CHECKPOINT_FILES:
        path = os.path.join(model_dir, name)
        if os.path.isfile(path):
            try:
                with open(path, "r") as f:
                    out[name] = json.load(f)
            except (OSError, IOError, ValueError):
                pass
    return out


def text_cfg(cfg):
    tc = cfg.get("text_config")
    return tc if isinstance(tc, dict) else cfg


# The hybrid targets SGLang's KV cache hook tells apart (0.5.23 srt/configs/hybrid_arch.py mambaish_config: the
# config class, chosen by model_type; srt/configs/model_config.py is_hybrid_swa_model: the architecture, or a text
# config that opts in with is_hybrid_swa). The model types of the Mamba / linear-attention hybrids the generator
# presents, and the SWA architectures without a condition on their config.
MAMBA_HYBRID_MODEL_TYPES = frozenset(("qwen3_next", "qwen3_5", "qwen3_5_moe", "nemotron_h", "falcon_h1", "mamba2",
                                      "mamba", "falcon_mamba", "lfm2", "lfm2_moe"))
HYBRID_SWA_ARCHS = frozenset(("GptOssForCausalLM", "GraniteSWAForCausalLM", "GraniteMoeSWAForCausalLM",
                              "IQuestQ1ForCausalLM", "Llama4ForConditionalGeneration", "Step3p5ForCausalLM",
                              "Gemma4ForCausalLM", "Gemma4ForConditionalGeneration", "MiMoV2ForCausalLM",
                              "MiMoV2FlashForCausalLM", "MellumForCausalLM"))


def hybrid_kind(cfg):
    """"mamba", "swa" or None: the hybrid KV pool SGLang builds for target config `cfg` (None: not given)."""
    if not cfg:
        return None
    if cfg.get("model_type") in MAMBA_HYBRID_MODEL_TYPES:
        return "mamba"
    archs = cfg.get("architectures") or ()
    if any(a in HYBRID_SWA_ARCHS for a in archs) or text_cfg(cfg).get("is_hybrid_swa"):
        return "swa"
    return None


def dflash_cfg(cfg):
    d = cfg.get("dflash_config")
    return d if isinstance(d, dict) else {}


def infer_block_size(draft_cfg):
    """What 0.5.23 infers as speculative_num_draft_tokens from the drafter (None = its default 16).

    Mirrors parse_dflash_draft_config(...).resolve_block_size(): nested dflash_config wins over
    the top level; any invalid field makes the whole parse fail (SGLang then falls back to 16).
    """
    d = dflash_cfg(draft_cfg)
    t = text_cfg(draft_cfg)

    def opt_int(raw, min_value):
        if raw is None:
            return None
        try:
            v = int(raw)
        except (TypeError, ValueError):
            raise ValueError("not an int")
        if v < min_value:
            raise ValueError("too small")
        return v

    try:
        opt_int(t.get("num_hidden_layers"), 1)
        opt_int(d.get("num_target_layers", draft_cfg.get("num_target_layers")), 1)
        block = opt_int(d.get("block_size", draft_cfg.get("block_size")), 1)
        ids = d.get("target_layer_ids", draft_cfg.get("target_layer_ids"))
        if ids is not None:
            if not isinstance(ids, (list, tuple)) or not ids:
                raise ValueError("target_layer_ids")
            [int(x) for x in ids]
        mtid = d.get("mask_token_id", draft_cfg.get("mask_token_id"))
        if mtid is not None and (not is_int(mtid) or mtid < 0):
            raise ValueError("mask_token_id")
        mask_token = d.get("mask_token", draft_cfg.get("mask_token"))
        if mask_token is not None and (not isinstance(mask_token, str) or not mask_token):
            raise ValueError("mask_token")
    except (ValueError, TypeError):
        return None, False
    return block, True


def check_draft_config(draft, target, version, args, env, result):
    """Drafter vs target config.json checks (what SGLang only finds when the workers load)."""
    archs = draft.get("architectures") or []
    rel = version if isinstance(version, dict) else releases.release(version)
    version = rel["version"]
    allowed = rel["draft_archs"]
    if not any(a in allowed for a in archs):
        result.error("DRAFT_ARCHITECTURE", "the drafter's config.json architectures %r are not a DFLASH draft model "
                     "SGLang %s knows (%s); SGLang would load a generic class. Use a DFlash drafter (e.g. "
                     "z-lab/<target>-DFlash)." % (archs, version, ", ".join(allowed)), field="draft_config.architectures",
                     stage="load")
    d = dflash_cfg(draft)
    t = text_cfg(draft)
    nested, top = d.get("block_size"), draft.get("block_size")
    block = nested if nested is not None else top
    if block is None:
        result.warn("DRAFT_BLOCK_SIZE_MISSING", "the drafter's config.json has no block_size; SGLang defaults to 16 "
                    "draft tokens. Set speculative.block_size to the size the drafter was trained with.")
    elif not is_int(block) or block < 1:
        result.error("DRAFT_BLOCK_SIZE", "the drafter's block_size is %r; it must be an integer >= 1 (SGLang would "
                     "fall back to 16 draft tokens with only a warning). Fix the drafter config." % (block,),
                     field="draft_config.block_size", stage="load")
    if nested is not None and top is not None and nested != top:
        result.warn("DRAFT_BLOCK_SIZE_CONFLICT", "the drafter's dflash_config.block_size (%r) and top-level block_size "
                    "(%r) differ; SGLang uses the nested one (%r) without a warning." % (nested, top, nested))
    requested = args.get("speculative_num_draft_tokens", args.get("speculative_dflash_block_size"))
    if is_int(block) and block >= 1 and requested is not None and requested != block:
        # Policy: SGLang only warns ("DFLASH block size mismatch") and serves with acceptance far below what
        # the drafter was trained for; the collection refuses it.
        result.error("BLOCK_SIZE_MISMATCH", "speculative block size %s (speculative.block_size / "
                     "--speculative-num-draft-tokens) differs from the drafter's config.json block_size %s: SGLang "
                     "would start and warn only, but a drafter drafts the block it was trained for, so acceptance "
                     "drops. Set speculative.block_size to %s (or leave it unset to take the drafter's)." % (
                         requested, block, block), field="speculative.block_size", stage="policy")
    nhl = t.get("num_hidden_layers")
    if nhl is None:
        result.error("DRAFT_NUM_LAYERS", "the drafter's config.json has no num_hidden_layers; SGLang requires it.",
                     field="draft_config.num_hidden_layers", stage="load")
    elif not is_int(nhl) or nhl < 1:
        result.error("DRAFT_NUM_LAYERS", "the drafter's num_hidden_layers is %r; it must be >= 1." % (nhl,),
                     field="draft_config.num_hidden_layers", stage="load")
    tt = text_cfg(target) if target else None  # the target's text config, derived once for this call
    target_layers = tt.get("num_hidden_layers") if target else None
    ids = d.get("target_layer_ids", draft.get("target_layer_ids"))
    if ids is None:
        if is_int(target_layers) and target_layers < 4:
            result.error("DRAFT_LAYER_IDS", "the drafter sets no target_layer_ids and the target has %s layers; "
                         "SGLang needs >= 4 to spread them." % target_layers, field="draft_config.target_layer_ids",
                         stage="load")
    elif not isinstance(ids, list) or not ids or not all(is_int(x) for x in ids):
        result.error("DRAFT_LAYER_IDS", "the drafter's target_layer_ids must be a non-empty list of ints, got %r."
                     % (ids,), field="draft_config.target_layer_ids", stage="load")
    elif is_int(target_layers):
        bad = [x for x in ids if x < 0 or x >= target_layers]
        if bad:
            result.error("DRAFT_LAYER_IDS_RANGE", "the drafter reads target layers %s but the target has only %s "
                         "layers (ids 0..%s): this drafter was trained for another target. Pair the drafter "
                         "with its own target." % (bad, target_layers, target_layers - 1),
                         field="draft_config.target_layer_ids", stage="load")
    ntl = d.get("num_target_layers", draft.get("num_target_layers"))
    if is_int(ntl) and is_int(target_layers) and ntl != target_layers:
        result.warn("DRAFT_TARGET_LAYERS", "the drafter was built for a %s-layer target; this target has %s layers."
                    % (ntl, target_layers))
    mtid = d.get("mask_token_id", draft.get("mask_token_id") if rel["mask_token_id_top_level"] else None)
    vocab = tt.get("vocab_size") if target else None
    dvocab = t.get("vocab_size")
    if is_int(vocab) and is_int(dvocab) and dvocab != vocab:
        result.error("DRAFT_VOCAB", "the drafter's vocab_size %s differs from the target's %s: it was trained for "
                     "another tokenizer and would accept about one token per step. Pair the drafter with its own "
                     "target." % (dvocab, vocab), field="draft_config.vocab_size", stage="load")
    if mtid is not None:
        if not is_int(mtid) or mtid < 0:
            result.error("DRAFT_MASK_TOKEN", "the drafter's mask_token_id must be an integer >= 0, got %r." % (mtid,),
                         field="draft_config.mask_token_id", stage="load")
        elif is_int(vocab) and mtid >= vocab:
            result.error("DRAFT_MASK_TOKEN_VOCAB", "the drafter's mask_token_id %s is outside the target vocab (size %s):"
                         " SGLang fails at load. Pair the drafter with its own target." % (mtid, vocab),
                         field="draft_config.mask_token_id", stage="load")
    check_context(draft, target, args, env, result, draft_too=True,
                  target_too=not rel["context_check_at_resolution"])


def check_context(draft, target, args, env, result, draft_too, target_too=True):
    allowed = truthy_env(env, LONG_CONTEXT_ENV)
    tgt_max = text_cfg(target).get("max_position_embeddings") if target else None
    want = args.get("context_length")
    if target_too and want is not None and is_int(tgt_max) and want > tgt_max:
        if allowed:
            result.warn("CONTEXT_OVERWRITE", "context_length %s exceeds the target's max_position_embeddings %s; "
                        "allowed by %s=1." % (want, tgt_max, LONG_CONTEXT_ENV))
        else:
            result.error("CONTEXT_TOO_LONG", "context_length %s exceeds the target's max_position_embeddings %s: SGLang "
                         "refuses it at load. Lower context_length or set env %s=1." % (want, tgt_max, LONG_CONTEXT_ENV),
                         field="context_length", stage="load")
    if not draft_too or draft is None:
        return
    effective = want if want is not None else tgt_max
    dmax = text_cfg(draft).get("max_position_embeddings")
    if is_int(effective) and is_int(dmax) and dmax < effective:
        if allowed:
            result.warn("CONTEXT_OVERWRITE", "the drafter's context (%s) is shorter than the target's (%s); %s=1 makes "
                        "SGLang override the drafter's max_position_embeddings." % (dmax, effective, LONG_CONTEXT_ENV))
        else:
            result.error("CONTEXT_DRAFT_SHORTER", "the drafter's context (%s) is shorter than the target's (%s): the "
                         "draft load fails. Set env %s=1 (as z-lab's launch does) or lower context_length to %s." % (
                             dmax, effective, LONG_CONTEXT_ENV, dmax), field="env", stage="load")
