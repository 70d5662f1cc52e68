# Lab instrumentation for the memory-fit check (not shipped): log the two figures SGLang's KV budget
# is computed from (pre_model_load_memory and the available memory after loading), in every process.
import importlib.abc, importlib.util, sys

TARGET = "sglang.srt.mem_cache.kv_cache_configurator"


def _patch(mod):
    cls = mod.KVCacheConfigurator
    orig = cls._profile_available_bytes
    orig_avail = mod.get_available_gpu_memory

    def avail(*a, **k):
        v = orig_avail(*a, **k)
        print("MEMFIT available=%r" % (v,), file=sys.stderr, flush=True)
        return v

    def profiled(self, pre_model_load_memory):
        print("MEMFIT pre=%r mfs=%r" % (pre_model_load_memory, mod.get_schedule().mem_fraction_static),
              file=sys.stderr, flush=True)
        rest = orig(self, pre_model_load_memory)
        print("MEMFIT rest_bytes=%r" % (rest,), file=sys.stderr, flush=True)
        return rest

    mod.get_available_gpu_memory = avail
    cls._profile_available_bytes = profiled


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != TARGET:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        sys.meta_path.insert(0, self)
        loader = spec.loader
        orig_exec = loader.exec_module

        def exec_module(module):
            orig_exec(module)
            _patch(module)
        loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _Finder())
