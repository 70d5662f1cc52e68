"""The KV dtype / pool hooks of kv_cache_hook.py, the HiCache hook's linker and host memory mode, and the Mamba
hook's platform and int8 checks (rules_cache.py, rules_mamba.py): the code a user sees, per release trait."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import messages

TARGET = {"architectures": ["Qwen3ForCausalLM"], "num_hidden_layers": 36, "vocab_size": 151936,
          "max_position_embeddings": 40960}
SWA_TARGET = dict(TARGET, is_hybrid_swa=True)
H200 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
PRO6000 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}] * 2


def verdict(version, *extra, backend="triton", gpus=(), target=None, eagle=False):
    argv = ["--model-path", "/m"] + (["--attention-backend", backend] if backend else []) + list(extra)
    if eagle:
        argv += ["--speculative-algorithm", "EAGLE3", "--speculative-num-steps", "3", "--speculative-eagle-topk", "1",
                 "--speculative-num-draft-tokens", "4", "--speculative-draft-model-path", "/d"]
    r = S.validate_argv(argv, version, gpus=list(gpus), target_config=target or TARGET, read_paths=False)
    return r.sglang_verdict["code"]


PRE = ["--prefill-only-disable-kv-cache", "--is-embedding", "--chunked-prefill-size", "-1", "--disable-radix-cache"]


@pytest.mark.parametrize("extra,kw,code", [
    (["--prefill-only-disable-kv-cache"], {}, "PREFILL_ONLY_NO_KV_CACHE"),
    (PRE, {}, "PREFILL_ONLY_NO_KV_CACHE"), (PRE, {"backend": "fa3"}, None),
    (PRE + ["--enable-hisparse"], {"backend": "fa3"}, "PREFILL_ONLY_NO_KV_CACHE"),
    (["--prefill-kv-cache-dequant-dtype", "fp8_e4m3"], {}, "NVFP4_PREFILL_DEQUANT"),
    (["--kv-cache-dtype", "nvfp4"], {}, "NVFP4_PREFILL_DEQUANT"),
    (["--kv-cache-dtype", "nvfp4"], {"backend": "flashinfer", "gpus": H200}, "KV_CACHE_DTYPE_GPU"),
    (["--kv-cache-dtype", "nvfp4"], {"backend": "flashinfer", "gpus": PRO6000}, None),
    (["--kv-cache-dtype", "fp4_mx_block16"], {}, "KV_CACHE_DTYPE_GPU"),
    (["--kv-cache-dtype", "fp4_mx_block16"], {"backend": "fa3", "gpus": H200}, "KV4_BACKEND"),
    (["--kv-cache-dtype", "fp4_mx_block16", "--enable-unified-memory"], {"gpus": H200}, "KV4_CONFLICT"),
    (["--kv-cache-dtype", "mxfp8"], {"gpus": H200}, "KV_CACHE_DTYPE_GPU"),
    (["--kv-cache-dtype", "mxfp8"], {"gpus": PRO6000}, None),
    (["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-dtype", "float16"], {"gpus": H200}, "MAMBA_FLAGS"),
    (["--enable-int8-mamba-checkpoint", "--enable-lmcache"], {}, "INT8_MAMBA_CHECKPOINT"),
    (["--enable-unified-cache-external-linker", "--disable-radix-cache"], {}, "HICACHE_LINKER"),
    (["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only"], {}, "HICACHE_HOST_MEMORY_MODE"),
    (["--enable-page-major-kv-layout"], {}, "PAGE_MAJOR_KV_LAYOUT"),
    (["--enable-unified-memory"], {"backend": "torch_native"}, "PAGE_MAJOR_KV_LAYOUT"),
    (["--enable-unified-memory"], {"eagle": True}, "UNIFIED_MEMORY"),
    (["--enable-unified-memory"], {"eagle": True, "target": SWA_TARGET}, None),
    (["--enable-unified-memory", "--enable-hierarchical-cache"], {"eagle": True, "target": SWA_TARGET},
     "UNIFIED_MEMORY"),
    (["--enable-unified-memory", "--disaggregation-mode", "prefill", "--disaggregation-transfer-backend", "nixl"], {},
     "UNIFIED_MEMORY"),
])
def test_latest(extra, kw, code):
    assert verdict("0.5.23", *extra, **kw) == code


@pytest.mark.parametrize("version,extra,code", [
    # the NVFP4 prefill dequant hook is 0.5.21's; before, NVFP4 on a CPU host is the KV4 hook's refusal
    ("0.5.20", ["--kv-cache-dtype", "nvfp4"], "KV_CACHE_DTYPE_GPU"),
    ("0.5.20", ["--enable-int8-mamba-checkpoint", "--enable-lmcache"], None),
    ("0.5.22", ["--enable-unified-cache-external-linker", "--disable-radix-cache"], None),
    ("0.5.21", ["--enable-unified-memory", "--enable-unified-cache-external-linker"], None),
    ("0.5.22", ["--enable-unified-memory", "--enable-unified-cache-external-linker"], "UNIFIED_MEMORY"),
    ("0.5.21", ["--enable-unified-memory", "--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d"],
     "UNIFIED_MEMORY"),
    ("0.5.18", ["--enable-page-major-kv-layout"], None),
    ("0.5.19", ["--enable-page-major-kv-layout"], "PAGE_MAJOR_KV_LAYOUT"),
    # -- cache (session 16) --: buffer_only refuses write_back through 0.5.21 (0.5.22 resolves it to write_through)
    ("0.5.21", ["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only", "--hicache-storage-backend",
                "file", "--hicache-write-policy", "write_back"], "HICACHE_HOST_MEMORY_MODE"),
    ("0.5.19", ["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only", "--hicache-storage-backend",
                "file", "--hicache-write-policy", "write_through"], None),
    ("0.5.22", ["--enable-hierarchical-cache", "--hicache-host-memory-mode", "buffer_only", "--hicache-storage-backend",
                "file", "--hicache-write-policy", "write_back"], None),
])
def test_per_release(version, extra, code):
    assert verdict(version, *extra) == code


def test_installed_mode_reads_the_messages():
    for text, code in (("--enable-unified-memory with PD disaggregation supports only these transfer backends",
                        "UNIFIED_MEMORY"), ("KV4 is not tested on non-CUDA platforms.", "KV_CACHE_DTYPE_GPU"),
                       ("--prefill-only-disable-kv-cache currently requires --is-embedding.",
                        "PREFILL_ONLY_NO_KV_CACHE")):
        assert messages.code_for_sglang_message(text) == code


# -- cache (session 18) --
@pytest.mark.parametrize("version, extra, code", [
    # validate_prefill_only_disable_kv_cache_args (0.5.12 on): the FP4 KV dtype of the release (trait kv4_dtypes:
    # fp4_e2m1 to 0.5.15.post1), MXFP8 from 0.5.16
    ("0.5.12", ["--kv-cache-dtype", "fp4_e2m1"], "PREFILL_ONLY_NO_KV_CACHE"),
    ("0.5.15.post1", ["--kv-cache-dtype", "fp4_e2m1"], "PREFILL_ONLY_NO_KV_CACHE"),
    ("0.5.16", ["--kv-cache-dtype", "fp4_e2m1"], None),
    ("0.5.16", ["--kv-cache-dtype", "mxfp8"], "PREFILL_ONLY_NO_KV_CACHE"),
    # prefill CP as the release reads it (trait dsa_prefill_cp_flags): the legacy flag's own field to 0.5.13.post1,
    # an alias of --enable-prefill-cp 0.5.14-0.5.19 (the DSA one too), gone from 0.5.20's parser
    ("0.5.12", ["--enable-prefill-context-parallel"], "PREFILL_ONLY_NO_KV_CACHE"),
    ("0.5.13", ["--enable-dsa-prefill-context-parallel"], None),
    ("0.5.14", ["--enable-prefill-context-parallel"], "PREFILL_ONLY_NO_KV_CACHE"),
    ("0.5.19", ["--enable-dsa-prefill-context-parallel"], "PREFILL_ONLY_NO_KV_CACHE"),
    ("0.5.20", ["--enable-prefill-cp"], "PREFILL_ONLY_NO_KV_CACHE"),
])
def test_prefill_only_kv_dtype_and_prefill_cp(version, extra, code):
    assert verdict(version, *PRE, *extra, backend="fa3") == code


# -- gpu16 (session 17) --
@pytest.mark.parametrize("version, extra, gpus, code", [
    # 0.5.15-0.5.18 server_args.py _handle_unified_memory_pool: the prefill CUDA graph the user sets may not be
    # tc_piecewise (the default's compatibility cascade is not modelled: not judged); DeepEP's normal mode disables it
    ("0.5.16", [], (), None), ("0.5.18", [], H200, None),
    ("0.5.17", ["--cuda-graph-backend-prefill", "tc_piecewise", "--moe-a2a-backend", "deepep", "--deepep-mode", "normal",
                "--tp-size", "2", "--ep-size", "2"], H200, None),
    ("0.5.17", ["--cuda-graph-backend-prefill", "disabled"], (), None),
    ("0.5.17", ["--disable-prefill-cuda-graph"], (), None),
    ("0.5.18", ["--cuda-graph-backend-prefill", "tc_piecewise"], H200, "UNIFIED_MEMORY"),
    ("0.5.16", ["--cuda-graph-config", '{"prefill": {"backend": "tc_piecewise"}}'], H200, "UNIFIED_MEMORY"),
    ("0.5.15", ["--cuda-graph-backend-prefill", "tc_piecewise"], H200, "UNIFIED_MEMORY"),
    # -- cache (session 18) --: 0.5.19 kv_cache_hook.py handle_unified_memory_pool: any prefill graph left on while
    # --cuda-graph-backend-prefill was given (--cuda-graph-config's prefill backend wins over it); 0.5.20 drops it
    ("0.5.19", [], (), None), ("0.5.19", ["--cuda-graph-backend-prefill", "breakable"], H200, "UNIFIED_MEMORY"),
    ("0.5.19", ["--cuda-graph-config", '{"prefill": {"backend": "tc_piecewise"}}'], H200, None),
    ("0.5.19", ["--cuda-graph-backend-prefill", "disabled", "--cuda-graph-config",
                '{"prefill": {"backend": "tc_piecewise"}}'], H200, "UNIFIED_MEMORY"),
    ("0.5.19", ["--cuda-graph-backend-prefill", "tc_piecewise", "--cuda-graph-config",
                '{"prefill": {"backend": "disabled"}}'], H200, None),
    ("0.5.20", ["--cuda-graph-backend-prefill", "tc_piecewise"], H200, None),
])
def test_unified_memory_piecewise_prefill_graph(version, extra, gpus, code):
    assert verdict(version, "--enable-unified-memory", *extra, gpus=gpus) == code


@pytest.mark.parametrize("version, extra, code", [
    # 0.5.15-0.5.16 server_args.py _handle_cache_compatibility: the session radix cache evicts by priority only
    ("0.5.16", [], "SESSION_RADIX_CACHE"), ("0.5.15", [], "SESSION_RADIX_CACHE"),
    ("0.5.16", ["--radix-eviction-policy", "priority"], None), ("0.5.17", [], None),
])
def test_session_radix_cache_needs_priority_eviction(version, extra, code):
    assert verdict(version, "--enable-session-radix-cache", *extra) == code


@pytest.mark.parametrize("version, backend, code", [
    # the attention hook's dual-chunk pass (0.5.11-0.5.19): the target's dual_chunk_attention_config takes
    # dual_chunk_flash_attn only, the default backend included (filled before the pass)
    ("0.5.16", "triton", "DUAL_CHUNK_ATTENTION"), ("0.5.11", None, "DUAL_CHUNK_ATTENTION"),
    ("0.5.19", "triton", "DUAL_CHUNK_ATTENTION"), ("0.5.18", "dual_chunk_flash_attn", None), ("0.5.20", "triton", None),
])
def test_dual_chunk_attention_backend(version, backend, code):
    target = dict(TARGET, dual_chunk_attention_config={"chunk_size": 8192, "local_size": 1024})
    assert verdict(version, backend=backend, target=target) == code


# -- cache (session 18) --: a GPU's default backend, which the engine does not resolve, is never dual_chunk_flash_attn
@pytest.mark.parametrize("version, code", [("0.5.19", "DUAL_CHUNK_ATTENTION"), ("0.5.12", "DUAL_CHUNK_ATTENTION"),
                                           ("0.5.20", None)])
def test_dual_chunk_attention_gpu_default(version, code):
    target = dict(TARGET, dual_chunk_attention_config={"chunk_size": 8192, "local_size": 1024})
    assert verdict(version, backend=None, target=target, gpus=H200[:1]) == code
# -- new19 (session 17) --
DSPARK = ["--speculative-algorithm", "DSPARK", "--speculative-draft-model-path", "/d", "--enable-unified-memory"]


@pytest.mark.parametrize("version,backend,code", [
    # kv_cache_hook.py handle_unified_memory_pool: DSPARK's verify on the unified pool wants audited target backends
    ("0.5.19", "triton", None), ("0.5.19", "fa3", "UNIFIED_MEMORY"), ("0.5.21", "flashinfer", "UNIFIED_MEMORY"),
    ("0.5.22", "fa3", None), ("0.5.22", "flashinfer", None), ("0.5.22", "fa4", "UNIFIED_MEMORY"),
    ("0.5.23", "fa4", None), ("0.5.23", "fa3", None),
])
def test_unified_pool_dspark_backends(version, backend, code):
    assert verdict(version, *DSPARK, backend=backend) == code


def test_unified_pool_dspark_dcp_drops_flashinfer():
    """0.5.22 on: under --dcp-size > 1 flashinfer leaves DSPARK's audited list (as the DFLASH rails)."""
    dcp = DSPARK + ["--tp-size", "2", "--dcp-size", "2"]
    assert messages.code_for_sglang_message("--enable-unified-memory + DSPARK requires spec-verify-audited attention "
                                            "backends ['fa3'] for both prefill and decode; got ['fa4'].") == \
        "UNIFIED_MEMORY"
    assert verdict("0.5.23", *dcp, backend="flashinfer") == "UNIFIED_MEMORY"


@pytest.mark.parametrize("version,fields,code", [
    # kv_cache_hook.py handle_page_major_kv_layout (0.5.19-0.5.22): K and V rows of one width on the unified pool
    ("0.5.19", {"head_dim": 192, "v_head_dim": 128}, "UNIFIED_MEMORY"),
    ("0.5.22", {"hidden_size": 256, "num_attention_heads": 4, "swa_head_dim": 64, "swa_v_head_dim": 32}, "UNIFIED_MEMORY"),
    ("0.5.21", {"head_dim": 64, "v_head_dim": 0}, None),  # 0: v_head_dim is head_dim
    ("0.5.23", {"head_dim": 192, "v_head_dim": 128}, None),
    ("0.5.20", {"head_dim": 192, "v_head_dim": 128, "kv_lora_rank": 64}, None),  # MLA: not judged here
])
def test_unified_pool_uniform_kv_rows(version, fields, code):
    assert verdict(version, "--enable-unified-memory", target=dict(TARGET, **fields)) == code
