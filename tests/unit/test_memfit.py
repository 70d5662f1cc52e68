"""The memory fit (sglang_engine/memfit.py): the KV formula on Qwen3-8B + its DFlash drafter, the refusal of
weights that leave no room for the KV cache (controller preflight and host validation), unknown memory never
refusing, weights read from the files where they are, and SGLang's own logged figures from lab runs."""
import json
import os

import pytest
import yaml

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as engine
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_flags_run as flags_run
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_preflight as preflight
from ansible_collections.specdeploy.sglang.plugins.module_utils.sglang_engine import memfit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.environ.get("SPECDEPLOY_LAB_MODELS") or os.path.join(ROOT, ".lab", "models")
GROUP = os.path.join(ROOT, "inventories", "production", "group_vars", "sglang_servers.yml")
MIB = 1 << 20
GIB = 1 << 30


def _prod():
    return yaml.safe_load(open(GROUP))


def target_cfg():
    return _prod()["sglang_target_config"]


def draft_cfg():
    return _prod()["sglang_draft_config"]


def pro6000(n):
    g = _prod()["prod_pro6000"]
    return [dict(g, index=i) for i in range(n)]


def spec(tp=2, mfs=0.85, **kw):
    s = {"sglang_version": "0.5.23", "model_path": "/nonexistent/target", "device": "cuda", "tp_size": tp,
         "attention_backend": "flashinfer", "mem_fraction_static": mfs, "context_length": 32768,
         "max_running_requests": 64,
         "speculative": {"algorithm": "DFLASH", "draft_model_path": "/nonexistent/draft", "block_size": 16}}
    s.update(kw)
    return s


def validate(s, gpus, **kw):
    return engine.validate(s, gpus=gpus, target_config=kw.pop("target_config", target_cfg()),
                           draft_config=kw.pop("draft_config", draft_cfg()), read_paths=kw.pop("read_paths", False),
                           **kw)


def test_qwen3_8b_parameter_count_from_its_architecture():
    # embeddings + LM head (151936 x 4096 each, untied) + 36 layers of q/k/v/o, q/k norms, SwiGLU MLP, 2 norms
    layer = 4096 * 4096 * 2 + 2 * 4096 * 1024 + 2 * 128 + 3 * 4096 * 12288 + 2 * 4096
    assert sum(memfit.param_split(target_cfg())) == 2 * 151936 * 4096 + 36 * layer + 4096 == 8190735360
    # the DFlash drafter: its layer(s) and the fc over 5 captured target layers; no embedding/LM head of its own
    sharded, replicated, vocab = memfit.param_split(draft_cfg(), "dflash")
    assert vocab == 0 and replicated == 5 * 4096 * 4096 + 2 * 4096


@pytest.mark.parametrize("tp,cell,tokens", [(1, 155648, 452266), (2, 77824, 1011720)])
def test_production_example_on_rtx_pro_6000(tp, cell, tokens):
    r = validate(spec(tp=tp), pro6000(tp))
    f = r.as_dict()["memory_fit"]
    assert r.ok, r.errors
    # per token: target 8 KV heads / tp x (128 K + 128 V) x 36 layers x 2 bytes, plus the drafter's own pool
    # (2 KV heads -> max(1, 2 // tp) x (1024 + 1024) x 1 layer x 2 bytes)
    assert f["kv_bytes_per_token"] == (8 // tp) * 256 * 36 * 2 + max(1, 2 // tp) * 2048 * 2 == cell
    assert f["device_memory_bytes"] == 97887 * MIB
    assert f["budget_bytes"] == int(97887 * MIB * 0.85)
    assert f["kv_bytes"] == f["budget_bytes"] - f["target_weights_bytes"] - f["draft_weights_bytes"]
    assert f["kv_tokens"] == f["kv_bytes"] // cell == tokens
    assert f["status"] == "fits" and f["context_fits"] and f["max_running_requests_fits"]
    assert f["full_context_requests"] == tokens // 32768


def test_weights_that_leave_no_kv_room_are_refused_by_the_preflight_naming_the_figures():
    hosts = {"gpu-1": {"server_instances": [{"name": "main", "spec": spec(tp=1, mfs=0.15)}],
                       "sglang_expected_gpus": pro6000(1), "sglang_target_config": target_cfg(),
                       "sglang_draft_config": draft_cfg()}}
    out = preflight.check_fleet(hosts)
    assert not out["ok"] and out["failed_hosts"] == ["gpu-1"]
    v = out["verdicts"]["gpu-1"]["main"]
    err = [e for e in v["errors"] if e["code"] == "MEMORY_WEIGHTS_EXCEED_BUDGET"]
    assert err and err[0]["field"] == "mem_fraction_static", v["errors"]
    msg = err[0]["message"]
    # 15.26 GiB target + 0.44 GiB drafter against 0.15 x 95.59 GiB = 14.34 GiB; minimum fraction 0.1642 (-> 0.165)
    for figure in ("15.69 GiB", "target 15.26 GiB", "drafter 0.44 GiB", "14.34 GiB", "0.15", "95.59 GiB", "0.165",
                   "Loaded weights leave no GPU memory for the KV cache"):
        assert figure in msg, msg
    assert v["memory_fit"]["status"] == "refused" and v["memory_fit"]["kv_tokens"] == 0
    assert any(line.startswith("FAIL  gpu-1/main: [MEMORY_WEIGHTS_EXCEED_BUDGET]") for line in out["lines"])
    # the same instance on 2 GPUs fits: tp 2 halves the weights per GPU
    hosts["gpu-1"]["server_instances"][0]["spec"] = spec(tp=2, mfs=0.15)
    hosts["gpu-1"]["sglang_expected_gpus"] = pro6000(2)
    assert preflight.check_fleet(hosts)["ok"]


def test_older_release_names_its_own_failure():
    r = validate(spec(tp=1, mfs=0.15, sglang_version="0.5.13"), pro6000(1))
    assert "MEMORY_WEIGHTS_EXCEED_BUDGET" in r.codes()
    assert "Not enough memory" in [e for e in r.errors if e["code"] == "MEMORY_WEIGHTS_EXCEED_BUDGET"][0]["message"]


@pytest.mark.parametrize("gpus", [None, [{"index": 0, "name": "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                                          "compute_cap": "12.0"}]])
def test_unknown_gpu_memory_never_refuses(gpus):
    r = validate(spec(tp=1, mfs=0.15), gpus)
    assert "MEMORY_WEIGHTS_EXCEED_BUDGET" not in r.codes()
    f = r.as_dict()["memory_fit"]
    assert f["status"] == "unknown" and "memory is unknown" in f["reason"]
    # the weights are still predicted from the architecture
    assert f["target_weights_bytes"] == 8190735360 * 2


def test_cpu_device_is_unknown_without_host_memory():
    r = validate(spec(tp=1, mfs=0.01, device="cpu", attention_backend="torch_native", speculative=None), [])
    assert r.ok and r.memory_fit["status"] == "unknown" and "host's free memory" in r.memory_fit["reason"]


def test_weights_from_the_safetensors_index_and_the_host_validation(tmp_path):
    tdir = tmp_path / "target"
    tdir.mkdir()
    (tdir / "config.json").write_text(json.dumps(target_cfg()))
    # an index that says 20 GiB (e.g. a checkpoint with extra tensors): the files win over the count
    (tdir / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": 20 * GIB},
                                                                   "weight_map": {}}))
    out = flags_run.run_flags({"spec": spec(tp=1, mfs=0.2, model_path=str(tdir), speculative=None),
                               "gpus": pro6000(1), "mode": "static"})
    f = out["memory_fit"]
    assert f["target_weights_source"] == "model.safetensors.index.json"
    assert abs(f["target_weights_bytes"] - 20 * GIB) < 8 * MIB  # norms are replicated, the rest is split
    assert not out["ok"] and "MEMORY_WEIGHTS_EXCEED_BUDGET" in [e["code"] for e in out["errors"]]


def test_weight_file_sizes_when_there_is_no_index(tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    (d / "model.safetensors").write_bytes(b"\0" * 4096)
    assert memfit.files_bytes(str(d)) == (4096, "weight file sizes")
    assert memfit.files_bytes(str(tmp_path / "missing")) == (None, None)


def test_capacity_warnings_context_and_running_requests():
    # 4 GiB of KV room on one GPU: 27,594 tokens < context 32768; 64 requests still fit (<= tokens // 2)
    r = validate(spec(tp=1, mfs=0.21), pro6000(1))
    f = r.memory_fit
    assert r.ok and f["status"] == "tight" and f["context_fits"] is False and f["full_context_requests"] == 0
    assert "MEMORY_CONTEXT_EXCEEDS_KV" in [w["code"] for w in r.warnings]
    r = validate(spec(tp=1, mfs=0.85, max_running_requests=500000), pro6000(1))
    assert r.memory_fit["max_running_requests_effective"] == r.memory_fit["kv_tokens"] // 2
    assert "MEMORY_RUNNING_REQUESTS_REDUCED" in [w["code"] for w in r.warnings]


def test_max_total_tokens_caps_the_pool_and_page_size_floors_it():
    base = {"tp_size": 1, "mem_fraction_static": 0.85, "device": "cuda"}
    f = memfit.fit(base, {"max_total_tokens": 4096}, target_cfg(), gpus=pro6000(1))
    assert f["kv_tokens"] == 4096 and f["kv_tokens_capped"]
    f = memfit.fit(dict(base, page_size=64), {}, target_cfg(), gpus=pro6000(1))
    assert f["kv_tokens"] % 64 == 0 and f["kv_tokens"] == f["kv_bytes"] // (8 * 256 * 36 * 2) // 64 * 64
    # fp8 KV halves the cell
    f8 = memfit.fit(base, {"kv_cache_dtype": "fp8_e4m3"}, target_cfg(), gpus=pro6000(1))
    assert f8["kv_bytes_per_token"] * 2 == f["kv_bytes_per_token"]


def test_unmodelled_architectures_are_unknown_not_wrong():
    mla = dict(target_cfg(), kv_lora_rank=512)
    assert memfit.fit({"mem_fraction_static": 0.85}, {}, mla, gpus=pro6000(1))["status"] == "unknown"
    quant = dict(target_cfg(), quantization_config={"quant_method": "fp8"})
    f = memfit.fit({"mem_fraction_static": 0.85}, {}, quant, gpus=pro6000(1))
    assert f["status"] == "unknown" and "quantized" in f["reason"]
    odd = dict(target_cfg(), num_experts=8, moe_intermediate_size="big")
    f = memfit.fit({"mem_fraction_static": 0.85}, {}, odd, gpus=pro6000(1))
    assert f["status"] == "unknown" and "config.json" in f["reason"]


# SGLang 0.5.23 on CPU (lab), started with lab/memfit/run.sh (the lab's server flags; sitecustomize.py there logs
# SGLang's own `pre` and `available`, GiB): the figures it logged, docs/memory-fit.md "Checked against SGLang".
LAB_MID = os.path.join(ROOT, "lab", "memfit", "mid-qwen3.json")
LAB_RUNS = [
    # (config, mem_fraction_static, --max-total-tokens, pre, available, rest bytes, logged #tokens or None = refused)
    (LAB_MID, 0.06, None, 11.9766845703125, 12.224346160888672, 1037516636, 31662),
    (os.path.join(MODELS, "tiny-qwen3"), 0.05, 4096, 10.1812744140625, 10.082042694091797, 440053760, 4096),
    (LAB_MID, 0.02, None, 16.949748992919922, 16.283008575439453, None, None),
]


def test_lab_cap_and_running_requests_as_sglang_logged():
    # mid, mfs 0.2, --max-total-tokens 8192 --max-running-requests 8192: SGLang logged pre 14.2557, available
    # 12.5887, rest 1271459840 B, "#tokens: 8192", "max_running_requests was reduced from the requested 8192 to
    # 4096", "KV pool holds 8192 tokens, fewer than --context-length 32768"
    pre, available, rest = 14.255657196044922, 12.588665008544922, 1271459840
    assert int((available - pre * 0.8) * GIB) == rest
    f = memfit.fit({"mem_fraction_static": 0.2, "device": "cpu", "max_running_requests": 8192},
                   {"max_total_tokens": 8192}, engine.load_config(LAB_MID), device_memory_bytes=int(pre * GIB))
    assert min(rest // f["kv_bytes_per_token"], 8192) == 8192 == f["kv_tokens"] and f["kv_tokens_capped"]
    assert f["max_running_requests_effective"] == 4096 and f["max_running_requests_fits"] is False
    assert f["context_fits"] is False and f["status"] == "tight"


@pytest.mark.parametrize("cfg_path,mfs,cap,pre,available,rest,logged", LAB_RUNS)
def test_lab_figures_logged_by_sglang(cfg_path, mfs, cap, pre, available, rest, logged):
    cfg = engine.load_config(cfg_path)
    f = memfit.fit({"mem_fraction_static": mfs, "device": "cpu"}, {"max_total_tokens": cap} if cap else {}, cfg,
                   device_memory_bytes=int(pre * GIB))
    budget = available - pre * (1 - mfs)  # SGLang's rest, from its own two measures
    if logged is None:
        # SGLang refused ("Raise --mem-fraction-static above ...", its minimum 1 - available/pre); so does the fit,
        # whose minimum (weights / pre) is below SGLang's: its own load overhead comes on top
        assert budget <= 0 and f["status"] == "refused"
        assert f["min_mem_fraction_static"] < 1 - available / pre
        return
    assert int(budget * GIB) == rest
    # SGLang's pool = its rest // the engine's bytes per token (mid: 4 KV heads x (128 + 128) x 16 layers x 2 bytes;
    # tiny: 2 x (16 + 16) x 2 x 2), capped by --max-total-tokens
    geometry = memfit._geometry(cfg)
    assert f["kv_bytes_per_token"] == geometry["kv_heads"] * 2 * geometry["head_dim"] * geometry["layers"] * 2
    assert min(rest // f["kv_bytes_per_token"], cap or rest) == logged


def test_the_release_record_keeps_the_capacity():
    from ansible_collections.specdeploy.sglang.plugins.module_utils import server_plan
    out = flags_run.run_flags({"spec": spec(tp=2), "gpus": pro6000(2), "mode": "static",
                               "target_config": target_cfg(), "draft_config": draft_cfg()})
    assert out["ok"], out["errors"]
    inst = {"name": "main", "spec": spec(tp=2)}
    settings = {"root": "/opt/specdeploy", "lock_hash": "L", "python": "/v/bin/python", "validator": "sglang_flags",
                "smoke": {"timeout": 600}}
    observed = {"links": {"current": None, "previous": None}, "records": {}, "releases": [], "unit_sha256": None,
                "unit_state": {"ActiveState": "inactive"}, "replaced": {}, "secrets_sha256": None,
                "secrets_pending": False}
    p = server_plan.plan(inst, settings, observed, validation=dict(out, validator="sglang_flags"), unit_text="[Service]\n")
    assert p["record"]["validation"]["memory_fit"]["kv_tokens"] == 1011720
