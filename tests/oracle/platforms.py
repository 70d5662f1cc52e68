"""LAB-ONLY: how the differential tests resolve a case as a GPU host the lab lacks (a prelude of
sglang_oracle's runner, sent with the cases: resolve_many(..., prelude=PRELUDE)).

SGLang's own platform override where the release has one (0.5.19 on), else a NAMED GPU stand-in: the preset's
facts through the probes SGLang reads them from. Never shipped: the collection's runner resolves as the host it
runs on.
"""

# -- standin (session 16), oldgpu (session 17) --: the releases the runner's GPU stand-in (install_stand_in) runs for
# (every release without SGLang's platform override); see the comment there
STAND_IN_RELEASES = ("0.5.11", "0.5.12", "0.5.12.post1", "0.5.13", "0.5.13.post1", "0.5.14", "0.5.15", "0.5.15.post1",
                     "0.5.16", "0.5.17", "0.5.18")
PRELUDE = r'''
import importlib


MEMORY_IMPORTERS = ("sglang.srt.utils.common", "sglang.srt.arg_groups.memory_hook",
                    "sglang.srt.arg_groups.kv_shard_hook", "sglang.srt.arg_groups.model_overrides.qwen3_vl")


# -- standin (session 16) --: a NAMED stand-in for a GPU the lab lacks, on the releases without SGLang's platform
# override (before 0.5.19). Each fact of a preset answers through the sglang.srt.utils.common probes that 0.5.19's
# runtime_context reads it from (_PLATFORM_PROBES / _PLATFORM_VALUES there), and their aliases; every sglang.*
# module holding one of those probes by name gets a function returning the fact (the lru_cache'd wrapper itself
# is replaced, not its cache cleared).
STAND_IN_PROBES = {
    "is_cuda": ("is_cuda",), "is_hip": ("is_hip",), "is_npu": ("is_npu",), "is_xpu": ("is_xpu",),
    "is_musa": ("is_musa",), "is_sm90": ("is_sm90_supported",), "is_sm100": ("is_sm100_supported",),
    "is_sm100_or_sm110": ("is_sm100_or_sm110_supported",), "is_sm120": ("is_sm120_supported",),
    "is_blackwell": ("is_blackwell_supported", "is_blackwell"), "is_hopper_with_cuda_12_3": ("is_hopper_with_cuda_12_3",),
    "has_amx": ("cpu_has_amx_support",), "has_flashinfer": ("is_flashinfer_available",),
    "device_sm": ("get_device_sm",), "device_capability": ("get_device_capability",),
}

STAND_IN_PREIMPORTS = ("sglang.srt.configs.model_config", "sglang.srt.layers.quantization")
# the releases whose differential run agrees on every case through the stand-in (0.5.16-0.5.18 from session 16,
# 0.5.11-0.5.15.post1 from session 17, once the engine modelled what it showed: the MLA backend checks of server_args.py,
# 0.5.11-0.5.13's Qwen3-Next Mamba radix cache, 0.5.14-0.5.15's DSA prefill CP on decode); a release left out resolves
# GPU-host cases as this host ("platform": "unsupported")
STAND_IN_RELEASES = __STAND_IN_RELEASES__  # platforms.STAND_IN_RELEASES, filled in below


def sglang_version():
    try:
        import sglang
        v = getattr(sglang, "__version__", None)
        if v:
            return v
        from importlib.metadata import version as _v
        return _v("sglang")
    except Exception:  # noqa
        return None


def patch_torch_capability(cap):
    """Present `cap` as torch.cuda.get_device_capability() (the hooks that ask torch, not the platform facts, e.g. the
    DSA KV cache dtype and backend passes). Returns (torch.cuda, the original) for the undo, or None."""
    if not cap:
        return None
    try:
        import torch
        saved = (torch.cuda, torch.cuda.get_device_capability)
        torch.cuda.get_device_capability = lambda *a, **k: tuple(cap)
        return saved
    except Exception:  # noqa -- no torch: nothing asks it
        return None


def install_stand_in(platform):
    """The GPU stand-in: the preset's facts through the probes of sglang.srt.utils.common, replaced in every
    sglang.* module that holds them (by identity, so aliases and `from ... import` copies follow), and
    torch.cuda.get_device_capability. Returns an undo callable, or None when this release has no such probes."""
    import importlib
    try:
        common = importlib.import_module("sglang.srt.utils.common")
    except Exception:  # noqa -- not a release this stand-in knows
        return None
    # what resolution imports (the model config, the quantization methods) is imported with the host's own facts
    # first: modules that probe at import time (`if is_flashinfer_available(): import flashinfer`) must not see the
    # stand-in, whose GPU libraries this host lacks
    for name in MEMORY_IMPORTERS + STAND_IN_PREIMPORTS:
        try:
            importlib.import_module(name)
        except Exception:  # noqa -- not every release has every hook
            pass
    facts = platform.get("facts") or {}
    swap = {}  # id(original probe) -> (original, stand-in)
    for fact, value in facts.items():
        value = tuple(value) if isinstance(value, list) else value
        for probe in STAND_IN_PROBES.get(fact, ()):
            orig = getattr(common, probe, None)
            if callable(orig) and id(orig) not in swap:
                swap[id(orig)] = (orig, (lambda v: lambda *a, **k: v)(value))
    mem = platform.get("memory_mib")
    if mem is not None and callable(getattr(common, "get_device_memory_capacity", None)):
        orig = common.get_device_memory_capacity
        swap[id(orig)] = (orig, lambda *a, **k: float(mem))
    back = {id(new): orig for orig, new in swap.values()}

    def replace(table):
        for name, mod in list(sys.modules.items()):
            if mod is None or not (name == "sglang" or name.startswith("sglang.")):
                continue
            d = getattr(mod, "__dict__", None)
            if not isinstance(d, dict):
                continue
            for attr, val in list(d.items()):
                hit = table.get(id(val))
                if hit is not None:
                    d[attr] = hit
    replace({k: new for k, (orig, new) in swap.items()})
    torch_cuda = patch_torch_capability(facts.get("device_capability"))

    def undo():
        # modules imported while the stand-in was up copied the stand-ins too: walk them all again
        replace(back)
        if torch_cuda is not None:
            torch_cuda[0].get_device_capability = torch_cuda[1]
    return undo


def install_platform(platform):
    """Resolve as a GPU host: SGLang's own platform override (facts it does not know are dropped) and
    get_device_memory_capacity replaced where it is imported by name; where the release has no platform
    override (before 0.5.19), the named GPU stand-in (install_stand_in). Returns (undo callable, "override" or
    "stand-in"), or (None, None) when neither applies."""
    import importlib
    try:
        from sglang.srt import runtime_context as rc
    except ImportError:
        rc = None
    if rc is None or not hasattr(rc, "override_platform"):
        if sglang_version() not in STAND_IN_RELEASES:
            return None, None
        undo = install_stand_in(platform)
        return (undo, "stand-in") if undo else (None, None)
    known = set(getattr(rc, "_PLATFORM_PROBES", {})) | set(getattr(rc, "_PLATFORM_VALUES", {}))
    facts = {k: (tuple(v) if isinstance(v, list) else v) for k, v in (platform.get("facts") or {}).items()
             if not known or k in known}
    ov = rc.override_platform(**facts)
    ov.install()
    patched = []
    mem = platform.get("memory_mib")
    if mem is not None:
        for name in MEMORY_IMPORTERS:
            try:
                importlib.import_module(name)
            except Exception:  # noqa -- not every release has every hook
                pass
        for name, mod in list(sys.modules.items()):
            if name.startswith("sglang.") and hasattr(mod, "get_device_memory_capacity"):
                patched.append((mod, mod.get_device_memory_capacity))
                mod.get_device_memory_capacity = lambda *a, **k: float(mem)

    # -- model (session 14) --: the GPU's compute capability, where a hook asks torch for it (the DSA KV cache dtype
    # and backend passes: torch.cuda.get_device_capability())
    torch_cuda = patch_torch_capability((platform.get("facts") or {}).get("device_capability"))

    def undo():
        for mod, fn in patched:
            mod.get_device_memory_capacity = fn
        if torch_cuda is not None:
            torch_cuda[0].get_device_capability = torch_cuda[1]
        ov.restore()
    return undo, "override"
'''

PRELUDE = PRELUDE.replace("__STAND_IN_RELEASES__", repr(STAND_IN_RELEASES))
