# -*- coding: utf-8 -*-
# Copyright: specdeploy developers
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""GPU checks: GPU facts to platform facts, and what fails on the hardware (sm_120). stdlib only."""
from __future__ import annotations

import re

from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import releases
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine.common import HYBRID_GDN_ARCH

_SM_CACHE = {}
# SGLang's default attention backend for an MHA target by GPU (sm_120: flashinfer; Hopper: fa3).
# Hopper's default depends on the model (fa3 or flashinfer): left to the host, not claimed here.
_DEFAULT_ATTENTION = {120: "flashinfer"}


def _sm_of(gpu):
    key = (gpu.get("compute_capability"), gpu.get("compute_cap"), gpu.get("sm"), gpu.get("name"))
    try:
        return _SM_CACHE[key]
    except (KeyError, TypeError):
        pass
    sm = _sm_of_uncached(gpu)
    try:
        if len(_SM_CACHE) < 1024:
            _SM_CACHE[key] = sm
    except TypeError:
        pass
    return sm


def _sm_of_uncached(gpu):
    for key in ("compute_capability", "compute_cap", "sm"):
        v = gpu.get(key)
        if v is None:
            continue
        s = str(v).lower().replace("sm_", "").replace("sm", "")
        try:
            if "." in s:
                major, minor = s.split(".", 1)
                return int(major) * 10 + int(minor[:1] or 0)
            return int(s) if int(s) >= 10 else int(s) * 10
        except ValueError:
            continue
    name = str(gpu.get("name", ""))
    if re.search(r"RTX PRO 6000|Blackwell (Server|Workstation|Max-Q)", name, re.I):
        return 120
    return None


def platform_from_gpus(gpus):
    """Platform facts for resolution: device default, sm of the first GPU, attention default (sm_120 .23)."""
    if gpus is None:
        return {"device": "cuda", "sm": None, "gpus_known": False, "default_attention_backend": None}
    if not gpus:  # a host without a visible GPU (e.g. the CPU lab): SGLang resolves `--device cuda` without one
        return {"device": "cuda", "sm": None, "gpus_known": True, "default_attention_backend": "triton",
                "no_gpu": True}  # no device memory either
    sm = _sm_of(gpus[0]) if isinstance(gpus[0], dict) else None
    return {"device": "cuda", "sm": sm, "gpus_known": True,
            "default_attention_backend": _DEFAULT_ATTENTION.get(sm)}


def check_gpus(gpus, rel, r, args, target_cfg, result):
    """Hardware checks for the resolved settings `r` of release `rel` (a releases.release() record)."""
    version = rel["version"]
    if str(args.get("device") or "").lower() == "cpu":
        result.warn("HARDWARE_CPU", "device cpu: GPU count and GPU backend checks do not apply.")
        return
    if gpus is None:
        result.warn("HARDWARE_UNCHECKED", "no GPU facts given (gpus): GPU count and sm_120 backend checks skipped.")
        return
    if not isinstance(gpus, list) or not all(isinstance(g, dict) for g in gpus):
        result.error("GPUS_TYPE", "gpus must be a list of GPU fact mappings (gpu_facts' gpus).", field="gpus",
                     stage="input")
        return
    rules = rel
    tp, dp, pp = r.get("tp_size") or 1, r.get("dp_size") or 1, r.get("pp_size") or 1
    need = tp * pp if args.get("enable_dp_attention") else tp * dp * pp
    if need > len(gpus):
        result.error("GPU_COUNT", "tp_size %s x dp_size %s x pp_size %s needs %s GPUs; this host has %s visible. Lower "
                     "the parallelism or give the instance more GPUs." % (tp, dp, pp, need, len(gpus)), field="tp_size",
                     stage="hardware")
    for g in gpus:
        if _sm_of(g) == 120:
            break
    else:
        return
    for field, b in (("attention_backend", r.get("attention_backend")),
                     ("prefill_attention_backend", r.get("prefill_attention_backend")),
                     ("decode_attention_backend", args.get("decode_attention_backend")),
                     ("speculative_draft_attention_backend", r.get("speculative_draft_attention_backend"))):
        if b == "fa3":
            result.error("FA3_SM120", "%s fa3 fails on sm_120 (RTX PRO 6000) in every SGLang version (\"FlashAttention "
                         "v3 Backend requires SM>=80 and SM<=90\"). Use flashinfer.%s" % (
                             field, " (the draft inherits the target's prefill backend)"
                             if field == "speculative_draft_attention_backend" and args.get(field) is None else ""),
                         field=field, stage="hardware")
        if b == "fa4" and not rules["fa4_sm120"]:
            result.error("FA4_SM120", "%s fa4 has no sm_120 path in SGLang %s (first release with one: %s). Use flashinfer." % (
                field, version, releases.first_with("fa4_sm120")),
                field=field, stage="hardware")
    prefill = r.get("prefill_attention_backend") or r.get("attention_backend")
    sms = (rules["trtllm_mha_sms"] or {}).get("prefill")
    if prefill == "trtllm_mha" and sms is not None and 120 not in sms:
        # the release's own attention hook check (trait trtllm_mha_sms): 0.5.19 on take SM90, SM100 and SM120
        result.error("TRTLLM_MHA_SM120", "trtllm_mha prefill needs an %s GPU in SGLang %s: sm_120 fails. Use "
                     "flashinfer." % ("/".join("SM%s" % x for x in sms), version), field="attention_backend",
                     stage="hardware")
    arch = ((target_cfg or {}).get("architectures") or [""])[0] or ""
    gdn = rules["hybrid_gdn_sm120_backends"]
    if gdn and HYBRID_GDN_ARCH.match(arch) and prefill is not None and prefill not in gdn:
        result.error("HYBRID_GDN_BACKEND", "hybrid GDN models (%s) on Blackwell allow only %s attention in SGLang %s; "
                     "got %s." % (arch, ", ".join(gdn), version, prefill), field="attention_backend",
                     stage="hardware")
