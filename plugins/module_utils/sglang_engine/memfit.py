# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Memory fit: what SGLang will find when it sizes its KV cache, predicted before any restart.

SGLang (0.5.23: mem_cache/kv_cache_configurator.py `_profile_available_bytes`, model_executor/
pool_configurator.py `DefaultPoolConfigurator`) measures the device's free memory before loading
(`pre`), loads the target and the drafter, measures again (`available`) and gives the KV pool

    rest = available - pre * (1 - mem_fraction_static)  ~=  pre * mem_fraction_static - weights

bytes, or stops with "Loaded weights leave no GPU memory for the KV cache" when rest <= 0 (minimum
fraction 1 - available / pre ~= weights / pre). The pool holds rest // cell tokens (floored to the
page size, capped by --max-total-tokens), cell = bytes per token of the target's KV plus, for DFLASH,
the drafter's own KV (kv heads per GPU x (K + V head dims) x layers x KV dtype bytes).

Here `pre` is the GPU's total memory (gpu facts' memory_total_mib): an upper bound of SGLang's (the
CUDA context and anything else resident come off it), so a refusal is certain and a capacity is a
ceiling. docs/memory-fit.md explains the figures and their sources. stdlib only; no Ansible import.
"""
from __future__ import annotations

import json
import math
import os

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.checks import dflash_cfg, text_cfg
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import is_int

MIB = 1 << 20
GIB = 1 << 30
REFUSAL = "MEMORY_WEIGHTS_EXCEED_BUDGET"

_DTYPE_BYTES = {"float32": 4, "float": 4, "float16": 2, "half": 2, "bfloat16": 2, "bf16": 2,
                "fp8_e4m3": 1, "fp8_e5m2": 1, "mxfp8": 1}
_DFLASH_ALGOS = ("DFLASH", "DDTREE")
_EAGLE_ALGOS = ("EAGLE", "EAGLE3", "NEXTN", "STANDALONE")


class Unknown(Exception):
    """A figure the fit cannot predict (the message says why)."""


def _int(cfg, key, default=None):
    v = cfg.get(key, default)
    if is_int(v) and v >= 0:
        return v
    if default is not None and v is None:
        return default
    raise Unknown("config.json %s is %r" % (key, v))


def _geometry(cfg):
    """The attention geometry SGLang sizes the KV cache from (MHA/GQA only)."""
    t = text_cfg(cfg)
    if t.get("kv_lora_rank") is not None or t.get("q_lora_rank") is not None:
        raise Unknown("MLA attention (kv_lora_rank): its latent KV layout is not modelled")
    types = t.get("layer_types")
    if isinstance(types, list) and any(x != "full_attention" for x in types):
        raise Unknown("hybrid layers (layer_types %s): sliding-window/linear-attention pools are not modelled"
                      % sorted(set(str(x) for x in types)))
    if t.get("sliding_window") and t.get("use_sliding_window"):
        raise Unknown("sliding-window attention: its pool is not modelled")
    hidden = _int(t, "hidden_size")
    heads = _int(t, "num_attention_heads")
    if not hidden or not heads:
        raise Unknown("config.json has no hidden_size/num_attention_heads")
    kv_heads = _int(t, "num_key_value_heads", heads)
    head_dim = t.get("head_dim")
    head_dim = head_dim if is_int(head_dim) and head_dim > 0 else hidden // heads
    return {"hidden": hidden, "heads": heads, "kv_heads": kv_heads or heads, "head_dim": head_dim,
            "layers": _int(t, "num_hidden_layers"), "vocab": _int(t, "vocab_size", 0),
            "intermediate": _int(t, "intermediate_size", 0)}


def _layer_params(t, g):
    """Parameters of one decoder layer: attention (q, k, v, o, q/k norms, biases), MLP or MoE, norms."""
    h, hd = g["hidden"], g["head_dim"]
    q, kv = g["heads"] * hd, g["kv_heads"] * hd
    attn = h * q + 2 * h * kv + q * h + 2 * hd
    if t.get("attention_bias"):
        attn += q + 2 * kv
    experts = t.get("num_experts", t.get("num_local_experts", t.get("n_routed_experts")))
    if is_int(experts) and experts > 0:
        if t.get("first_k_dense_replace") or t.get("mlp_only_layers"):
            raise Unknown("mixed dense/MoE layers: count the weights from their files")
        moe_i = t.get("moe_intermediate_size") or g["intermediate"]
        mlp = experts * 3 * h * int(moe_i) + h * experts
        shared = t.get("shared_expert_intermediate_size") or 0
        if shared:
            mlp += 3 * h * int(shared) + h
    else:
        mlp = 3 * h * g["intermediate"]
    return attn + mlp + 2 * h


def param_split(cfg, draft_kind=None):
    """(parameters sharded over tp x pp, parameters replicated on every GPU, vocab parameters sharded
    over tp) of a model, counted from its config.json. draft_kind 'dflash': a DFlash drafter (no
    embedding or LM head of its own: it uses the target's; its context projection `fc` is replicated)."""
    if (text_cfg(cfg).get("quantization_config") or cfg.get("quantization_config")) is not None:
        raise Unknown("quantized weights (quantization_config): count them from their files")
    t = text_cfg(cfg)
    g = _geometry(cfg)
    layers = g["layers"] * _layer_params(t, g)
    if draft_kind == "dflash":
        d = dflash_cfg(cfg)
        ids = d.get("target_layer_ids", cfg.get("target_layer_ids"))
        features = len(ids) if isinstance(ids, list) and ids else g["layers"]
        return layers, features * g["hidden"] * g["hidden"] + 2 * g["hidden"], 0
    vocab = g["vocab"] * g["hidden"] * (1 if t.get("tie_word_embeddings", cfg.get("tie_word_embeddings")) else 2)
    return layers, g["hidden"], vocab


def files_bytes(model_dir):
    """(bytes, source) of a model's weight files, or (None, None): the safetensors index's
    metadata.total_size, else the sizes of its *.safetensors / *.bin files."""
    if not model_dir or not isinstance(model_dir, str) or not os.path.isdir(model_dir):
        return None, None
    idx = os.path.join(model_dir, "model.safetensors.index.json")
    if os.path.isfile(idx):
        try:
            with open(idx) as f:
                total = (json.load(f).get("metadata") or {}).get("total_size")
            if is_int(total) and total > 0:
                return total, "model.safetensors.index.json"
        except (OSError, ValueError, AttributeError):
            pass
    total = 0
    for name in sorted(os.listdir(model_dir)):
        if name.endswith(".safetensors") or (name.startswith("pytorch_model") and name.endswith(".bin")):
            try:
                total += os.path.getsize(os.path.join(model_dir, name))
            except OSError:
                pass
    return (total, "weight file sizes") if total else (None, None)


def config_dtype_bytes(cfg):
    t = text_cfg(cfg)
    raw = t.get("torch_dtype") or t.get("dtype") or cfg.get("torch_dtype") or cfg.get("dtype")
    return _DTYPE_BYTES.get(str(raw).replace("torch.", "")) if raw else None


def run_dtype_bytes(cfg, dtype_arg):
    """Bytes per weight element SGLang loads: --dtype, or auto (the config's; float32 is cast to 16 bits,
    configs/model_config.py _get_and_verify_dtype)."""
    if dtype_arg and dtype_arg != "auto":
        b = _DTYPE_BYTES.get(str(dtype_arg))
        if b is None:
            raise Unknown("--dtype %s" % dtype_arg)
        return b
    b = config_dtype_bytes(cfg)
    return 2 if b in (None, 4) else b


def kv_dtype_bytes(kv_arg, model_bytes):
    if not kv_arg or kv_arg == "auto":
        return model_bytes
    b = _DTYPE_BYTES.get(str(kv_arg))
    if b is None:
        raise Unknown("--kv-cache-dtype %s is not modelled" % kv_arg)
    return b


def kv_cell_bytes(cfg, tp, pp, dtype_bytes, layers=None):
    """KV bytes per token on one GPU: max(1, kv_heads // tp) x (head_dim K + head_dim V) x layers x bytes."""
    g = _geometry(cfg)
    n_layers = g["layers"] if layers is None else layers
    n_layers = -(-n_layers // max(pp, 1))
    return max(1, g["kv_heads"] // max(tp, 1)) * 2 * g["head_dim"] * n_layers * dtype_bytes


def _weights_per_gpu(cfg, model_dir, tp, pp, dtype_bytes, draft_kind=None):
    """(bytes per GPU, source). From the files when at hand (split by the architecture's count when it
    can be made), else from the parameter count of the config.json."""
    why = None
    try:
        sharded, replicated, vocab = param_split(cfg, draft_kind)
    except Unknown as e:
        if not model_dir:  # no files to fall back on (files_bytes would find none): the count's reason stands
            raise
        why = str(e)
    counted = why is None
    on_disk, source = files_bytes(model_dir)
    if on_disk is not None:
        if not counted:
            return int(on_disk / max(tp * pp, 1)), source + " / (tp x pp)"
        total = sharded + replicated + vocab
        cfg_bytes = config_dtype_bytes(cfg)
        scale = (dtype_bytes / float(cfg_bytes)) if cfg_bytes and cfg_bytes != dtype_bytes else 1.0
        share = (sharded / float(tp * pp) + replicated + vocab / float(tp) / (1 if pp == 1 else 2)) / total
        return int(on_disk * scale * share), source
    if not counted:
        raise Unknown(why)
    per = sharded / float(tp * pp) + replicated + vocab / float(tp) / (1 if pp == 1 else 2)
    return int(per * dtype_bytes), "config.json parameter count (%d parameters)" % (sharded + replicated + vocab)


def _gpu_memory(gpus, need):
    if not isinstance(gpus, list) or not gpus:
        return None
    mibs = []
    for g in gpus[:max(need, 1)]:
        v = g.get("memory_total_mib") if isinstance(g, dict) else None
        if not (is_int(v) or isinstance(v, float)) or v <= 0:
            return None
        mibs.append(v)
    return int(min(mibs) * MIB)


# The fit record before anything is known, in its key order (the two settings are filled from `r`).
_FIT_RECORD = {
    "status": "unknown", "reason": None, "refusal": None, "device_memory_bytes": None, "mem_fraction_static": None,
    "budget_bytes": None, "target_weights_bytes": None, "target_weights_source": None, "draft_weights_bytes": None,
    "draft_weights_source": None, "weights_bytes": None, "min_mem_fraction_static": None, "kv_bytes": None,
    "kv_bytes_per_token": None, "kv_tokens": None, "kv_tokens_capped": False, "context_length": None,
    "context_fits": None, "max_running_requests": None, "max_running_requests_fits": None,
    "max_running_requests_effective": None, "full_context_requests": None}


def fit(r, args, target_cfg, draft_cfg=None, gpus=None, device_memory_bytes=None, target_dir=None,
        draft_dir=None):
    """The memory fit per GPU of the resolved settings `r` (a dict, see the RETURN doc of sglang_flags).

    device_memory_bytes: the memory SGLang measures before loading (`pre`); default the GPU facts' total.
    Never raises: what cannot be predicted gives status 'unknown' with the reason."""
    out = dict(_FIT_RECORD)
    out["mem_fraction_static"] = r.get("mem_fraction_static")
    out["max_running_requests"] = r.get("max_running_requests")
    try:
        _fit(out, r, args, target_cfg, draft_cfg, gpus, device_memory_bytes, target_dir, draft_dir)
    except Unknown as e:
        out["status"] = "unknown"
        out["reason"] = str(e)
    except (TypeError, ValueError, ZeroDivisionError, AttributeError) as e:  # a config.json of unexpected shape
        out["status"] = "unknown"
        out["reason"] = "cannot read the model's geometry from its config.json (%s: %s)" % (type(e).__name__, e)
    return out


def _fit(out, r, args, target_cfg, draft_cfg, gpus, device_memory_bytes, target_dir, draft_dir):
    if target_cfg is None:
        raise Unknown("no target config.json")
    tp, pp, dp = int(r.get("tp_size") or 1), int(r.get("pp_size") or 1), int(r.get("dp_size") or 1)
    algo = r.get("speculative_algorithm")
    wbytes = run_dtype_bytes(target_cfg, args.get("dtype"))
    out["target_weights_bytes"], out["target_weights_source"] = _weights_per_gpu(
        target_cfg, target_dir, tp, pp, wbytes)
    cell = kv_cell_bytes(target_cfg, tp, pp, kv_dtype_bytes(args.get("kv_cache_dtype"), wbytes))
    draft_w = 0
    if algo in _DFLASH_ALGOS or algo in _EAGLE_ALGOS:
        if draft_cfg is None:
            raise Unknown("no drafter config.json (%s loads a drafter next to the target)" % algo)
        dbytes = run_dtype_bytes(draft_cfg, args.get("dtype"))
        kind = "dflash" if algo in _DFLASH_ALGOS else None
        draft_w, out["draft_weights_source"] = _weights_per_gpu(draft_cfg, draft_dir, tp, 1, dbytes, kind)
        dlayers = _geometry(draft_cfg)["layers"]
        if kind:
            # the drafter's own KV pool, per token (speculative/dflash_utils.py dflash_draft_cell_size_per_token)
            draft_kv = args.get("speculative_draft_kv_cache_dtype") or args.get("kv_cache_dtype")
            cell += kv_cell_bytes(draft_cfg, tp, 1, kv_dtype_bytes(draft_kv, dbytes))
        else:
            # EAGLE/STANDALONE: the target's cell scaled by draft layers / target layers
            cell += int(cell * dlayers / max(_geometry(target_cfg)["layers"], 1))
    out["draft_weights_bytes"] = draft_w
    weights = out["target_weights_bytes"] + draft_w
    out["weights_bytes"] = weights
    out["kv_bytes_per_token"] = cell
    ctx = r.get("context_length") or text_cfg(target_cfg).get("max_position_embeddings")
    out["context_length"] = ctx if is_int(ctx) else None
    mem = device_memory_bytes
    if mem is None:
        if str(r.get("device") or args.get("device") or "cuda").lower() == "cpu":
            raise Unknown("device cpu: SGLang sizes the KV pool from the host's free memory at start")
        need = tp * pp if args.get("enable_dp_attention") else tp * pp * dp
        mem = _gpu_memory(gpus, need)
        if mem is None:
            raise Unknown("the GPUs' memory is unknown (no gpu facts with memory_total_mib)")
    out["device_memory_bytes"] = int(mem)
    out["min_mem_fraction_static"] = round(weights / float(mem), 4)
    mfs = r.get("mem_fraction_static")
    if not isinstance(mfs, (int, float)) or isinstance(mfs, bool):
        raise Unknown("mem_fraction_static is not set: SGLang picks it from the GPU memory at start")
    budget = int(mem * mfs)
    out["budget_bytes"] = budget
    kv = budget - weights
    out["kv_bytes"] = kv
    if kv <= 0:
        out["status"] = "refused"
        out["refusal"] = REFUSAL
        out["kv_tokens"] = 0
        return
    page = int(r.get("page_size") or args.get("page_size") or 1)
    tokens = kv // cell // page * page
    cap = args.get("max_total_tokens")
    if is_int(cap) and cap < tokens:
        tokens, out["kv_tokens_capped"] = cap, True
    out["kv_tokens"] = int(tokens)
    if out["context_length"]:
        out["context_fits"] = tokens >= out["context_length"]
        out["full_context_requests"] = int(tokens // out["context_length"])
    mrr = r.get("max_running_requests")
    if is_int(mrr):
        # SGLang lowers max_running_requests to tokens // 2 (kv_cache_configurator.py resolve_max_num_reqs)
        per_worker = max(1, mrr // (dp if args.get("enable_dp_attention") else 1))
        out["max_running_requests_effective"] = int(min(per_worker, tokens // 2))
        out["max_running_requests_fits"] = per_worker <= tokens // 2
    out["status"] = "fits" if out["context_fits"] is not False and out["max_running_requests_fits"] is not False \
        else "tight"


def gib(n):
    return "%.2f GiB" % (n / float(GIB))


def check_memory(result, r, args, target_cfg, draft_cfg, gpus, rel, read_paths=True):
    """Add the fit to `result` (result.memory_fit), refuse a spec whose weights cannot fit, note the rest."""
    tdir = args.get("model_path") if read_paths else None
    ddir = args.get("speculative_draft_model_path") if read_paths else None
    f = fit(r, args, target_cfg, draft_cfg, gpus if isinstance(gpus, list) else None, target_dir=tdir,
            draft_dir=ddir)
    result.memory_fit = f
    version = rel["version"]
    if f["status"] == "refused":
        msg = rel["kv_budget_message"]
        result.error(REFUSAL, "SGLang %s would stop at start (%s): the weights take %s per GPU (target %s, "
                     "drafter %s) of a budget of %s (mem_fraction_static %s x %s GPU memory). Raise "
                     "mem_fraction_static above %.3f (weights / GPU memory, rounded up as SGLang does; the KV cache "
                     "needs room above it) or spread the model over more GPUs (tp_size)." % (
                         version, msg, gib(f["weights_bytes"]), gib(f["target_weights_bytes"]),
                         gib(f["draft_weights_bytes"] or 0), gib(f["budget_bytes"]), f["mem_fraction_static"],
                         gib(f["device_memory_bytes"]), math.ceil(f["min_mem_fraction_static"] * 1000) / 1000.0),
                     field="mem_fraction_static", stage="hardware")
        return f
    if f["status"] == "unknown":
        if f["device_memory_bytes"] is not None or (isinstance(gpus, list) and gpus and str(
                args.get("device") or "cuda").lower() != "cpu"):
            result.warn("MEMORY_FIT_UNKNOWN", "memory fit not predicted: %s." % f["reason"])
        return f
    if f["context_fits"] is False:
        result.warn("MEMORY_CONTEXT_EXCEEDS_KV", "the KV cache holds at most %s tokens per GPU, fewer than "
                    "context_length %s: one full-length request cannot fit (SGLang warns and truncates). Lower "
                    "context_length or raise mem_fraction_static." % (f["kv_tokens"], f["context_length"]))
    if f["max_running_requests_fits"] is False:
        result.warn("MEMORY_RUNNING_REQUESTS_REDUCED", "max_running_requests %s is above half the KV capacity "
                    "(%s tokens): SGLang lowers it to %s." % (
                        f["max_running_requests"], f["kv_tokens"], f["max_running_requests_effective"]))
    return f
