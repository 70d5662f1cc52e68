"""One test per rule of the static engine: each fails if its rule is removed.

A valid baseline (a Qwen3-8B target with its b16 DFlash drafter on one RTX PRO 6000) passes with no
error; each case changes one thing and expects one stable error code (or a resolved value).
"""
import copy
import json

import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S

PRO6000 = [{"name": "NVIDIA RTX PRO 6000 Blackwell Server Edition", "compute_capability": "12.0"}]
TARGET = {"architectures": ["Qwen3ForCausalLM"], "num_hidden_layers": 36, "vocab_size": 151936,
          "max_position_embeddings": 40960}
DRAFT = {"architectures": ["DFlashDraftModel"], "block_size": 16, "num_hidden_layers": 1, "num_target_layers": 36,
         "max_position_embeddings": 40960,
         "dflash_config": {"block_size": 16, "mask_token_id": 151669, "target_layer_ids": [1, 9, 17, 25, 33]}}


def base_spec(version="0.5.23", **top):
    spec = {"sglang_version": version, "model_path": "/opt/specdeploy/models/Qwen--Qwen3-8B@abc",
            "attention_backend": "flashinfer", "max_running_requests": 32,
            "speculative": {"algorithm": "DFLASH", "draft_model_path": "/opt/specdeploy/models/z-lab--Qwen3-8B-DFlash-b16@def",
                            "block_size": 16}}
    spec.update(top)
    return spec


def check(spec=None, gpus=PRO6000, target=TARGET, draft=DRAFT, **kw):
    return S.validate(spec if spec is not None else base_spec(), gpus=gpus, target_config=target, draft_config=draft,
                      read_paths=False, **kw)


def sp(**changes):
    spec = base_spec()
    spec["speculative"].update(changes)
    return spec


def args(version, *extra, draft=DRAFT, target=TARGET, gpus=PRO6000, env=None):
    argv = ["--model-path", "/m", "--attention-backend", "flashinfer", "--max-running-requests", "32",
            "--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d"] + list(extra)
    return S.validate_argv(argv, version, env=env, gpus=gpus, draft_config=draft, target_config=target, read_paths=False)


@pytest.mark.parametrize("version", S.KNOWN_VERSIONS)
def test_baseline_is_clean_for_every_version(version):
    r = check(base_spec(version))
    assert r.ok, r.errors
    assert r.resolved["speculative_num_draft_tokens"] == 16
    assert r.resolved["speculative_eagle_topk"] == 1


# --------------------------------------------------------------------- input
def test_unknown_version_names_the_known_ones():
    r = check(base_spec("0.4.99"))
    assert r.codes() == ["UNKNOWN_VERSION"]
    for v in S.KNOWN_VERSIONS:
        assert v in r.errors[0]["message"]


def test_unknown_spec_key_suggests_the_right_one():
    r = check(base_spec(tp_sise=2))
    assert "SPEC_UNKNOWN_KEY" in r.codes() and "tp_size" in r.errors[0]["message"]


def test_unknown_speculative_key():
    r = check(sp(blocksize=8))
    assert "SPEC_UNKNOWN_KEY" in r.codes()


@pytest.mark.parametrize("spec", [base_spec(tp_size="2"), base_spec(tp_size=True), sp(block_size=16.5),
                                  base_spec(speculative=["DFLASH"]), base_spec(extra_args="--foo"),
                                  base_spec(env={"A": {"b": 1}})])
def test_wrong_types(spec):
    assert "SPEC_TYPE" in check(spec).codes()


def test_spec_must_be_a_mapping():
    assert check(["not", "a", "spec"]).codes() == ["SPEC_TYPE"]


def test_model_path_required():
    spec = base_spec()
    del spec["model_path"]
    assert "SPEC_MISSING" in check(spec).codes()


def test_verify_value():
    assert "SPEC_VALUE" in check(sp(verify="chain")).codes()


def test_block_size_and_num_draft_tokens_conflict():
    assert "SPEC_BLOCK_SIZE_CONFLICT" in check(sp(block_size=16, num_draft_tokens=8)).codes()


def test_secret_in_env_refused():
    assert "ENV_SECRET" in check(base_spec(env={"HF_TOKEN": "hf_x"})).codes()


def test_parallel_sizes_positive():
    assert "PARALLEL_SIZE" in check(base_spec(tp_size=0)).codes()


def test_unreadable_config(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text("{not json")
    r = check(draft=str(bad))
    assert "CONFIG_UNREADABLE" in r.codes() and "not valid JSON" in r.errors[0]["message"]
    r = check(draft=str(tmp_path / "missing" / "config.json"))
    assert "CONFIG_UNREADABLE" in r.codes()


def test_config_from_model_dir(tmp_path):
    import json
    (tmp_path / "config.json").write_text(json.dumps(dict(DRAFT, block_size=8, dflash_config=dict(DRAFT["dflash_config"], block_size=8))))
    r = check(sp(block_size=None), draft=str(tmp_path))
    assert r.resolved["speculative_num_draft_tokens"] == 8


def test_gpus_type():
    assert "GPUS_TYPE" in check(gpus=[["x"]]).codes()


def test_argv_without_model():
    r = S.validate_argv(["--tp-size", "1"], "0.5.23")
    assert r.codes() == ["ARGV_NO_MODEL"]


def test_argv_bad_quoting():
    assert S.validate_argv('--model-path "/m', "0.5.23").codes() == ["ARGV_SYNTAX"]


def test_argv_type():
    assert S.validate_argv(42, "0.5.23").codes() == ["ARGV_TYPE"]


# --------------------------------------------------------------------- parsing, per version
@pytest.mark.parametrize("version,flag,code", [
    ("0.5.23", "--speculative-dflash-draft-window-size", "PARSE_UNRECOGNIZED"),
    ("0.5.23", "--mamba-scheduler-strategy", "PARSE_UNRECOGNIZED"),
    ("0.5.23", "--cuda-graph-max-bs", "PARSE_AMBIGUOUS"),
    ("0.5.11", "--speculative-draft-sink-size", "PARSE_UNRECOGNIZED"),
])
def test_removed_or_absent_flags(version, flag, code):
    value = "extra_buffer" if "mamba" in flag else "64"
    r = args(version, flag, value)
    assert r.codes() == [code], r.errors
    assert r.errors[0]["stage"] == "parse"


def test_removed_window_flag_names_the_replacement():
    r = args("0.5.23", "--speculative-dflash-draft-window-size", "64")
    assert "--speculative-draft-window-size" in r.errors[0]["message"]


def test_0_5_16_keeps_old_window_flag_as_deprecated():
    r = args("0.5.16", "--speculative-dflash-draft-window-size", "64")
    assert r.ok, r.errors
    assert "FLAG_DEPRECATED" in [w["code"] for w in r.warnings]
    assert r.resolved["speculative_draft_window_size"] == 64


def test_0_5_11_old_window_flag_is_current():
    r = args("0.5.11", "--speculative-dflash-draft-window-size", "64")
    assert r.ok and not [w for w in r.warnings if w["code"] == "FLAG_DEPRECATED"]


@pytest.mark.parametrize("version,flag", [("0.5.11", "--speculative-dflash-draft-window-size"),
                                          ("0.5.16", "--speculative-draft-window-size"),
                                          ("0.5.23", "--speculative-draft-window-size")])
def test_window_flag_rendered_per_version(version, flag):
    r = check(dict(base_spec(version), speculative=dict(base_spec(version)["speculative"], draft_window_size=64)))
    assert flag in r.argv and r.ok


def test_unique_prefix_is_accepted_with_a_warning():
    r = args("0.5.23", "--speculative-draft-window", "64")
    assert r.ok and "FLAG_ABBREVIATED" in [w["code"] for w in r.warnings]


def test_unknown_flag_is_an_error_on_every_release():
    """Every release's table is captured now (0.5.16's was derived: an unknown flag was only a note)."""
    for v in S.KNOWN_VERSIONS:
        assert args(v, "--no-such-flag").codes() == ["PARSE_UNRECOGNIZED"], v


@pytest.mark.parametrize("extra,code", [(["--speculative-num-steps", "three"], "PARSE_INVALID_VALUE"),
                                        (["--attention-backend", "flashattn"], "PARSE_INVALID_VALUE"),
                                        (["--speculative-num-steps"], "PARSE_MISSING_VALUE"),
                                        # nargs="+" wants a value; nargs="*" takes none
                                        (["--gc-threshold"], "PARSE_MISSING_VALUE"),
                                        (["--gc-threshold", "--enable-mixed-chunk"], "PARSE_MISSING_VALUE"),
                                        (["--enable-mixed-chunk=yes"], "PARSE_INVALID_VALUE"),
                                        (["-x"], "PARSE_UNRECOGNIZED"),
                                        (["stray"], "PARSE_UNRECOGNIZED")])
def test_parse_errors(extra, code):
    assert args("0.5.23", *extra).codes() == [code]


def test_a_list_flag_of_none_or_more_values_takes_none():
    """--uvicorn-access-log-exclude-prefixes is nargs="*" in every release: written alone it parses (to an empty list)."""
    for v in S.KNOWN_VERSIONS:
        assert "PARSE_MISSING_VALUE" not in args(v, "--uvicorn-access-log-exclude-prefixes").codes(), v
        assert args(v, "--gc-threshold").codes() == ["PARSE_MISSING_VALUE"], v


def test_0_5_11_algorithm_is_case_sensitive():
    r = S.validate_argv(["--model-path", "/m", "--speculative-algorithm", "dflash"], "0.5.11")
    assert r.codes() == ["PARSE_INVALID_VALUE"]
    r = S.validate_argv(["--model-path", "/m", "--speculative-algorithm", "dflash", "--speculative-draft-model-path",
                         "/d", "--speculative-num-draft-tokens", "16"], "0.5.23")
    assert r.resolved["speculative_algorithm"] == "DFLASH" and "SPEC_OVERRIDDEN" not in r.codes()


def test_program_prefix_stripped():
    r = S.validate_argv("/opt/venv/bin/python -m sglang.launch_server --model-path /m", "0.5.23")
    assert r.argv == ["--model-path", "/m"]
    assert S.strip_program(["sglang", "serve", "--model-path", "/m"]) == ["--model-path", "/m"]


# --------------------------------------------------------------------- resolution (sglang.md 3.1, 3.2)
def test_unknown_algorithm():
    r = args("0.5.23", "--speculative-algorithm", "DDTREE")
    assert "UNKNOWN_ALGORITHM" in r.codes() and "verify: tree" in r.errors[0]["message"]


def test_no_draft_path():
    r = check(sp(draft_model_path=None))
    assert r.codes()[0] == "DFLASH_NO_DRAFT"


def test_pp_size():
    assert "DFLASH_PP" in check(base_spec(pp_size=2)).codes()


@pytest.mark.parametrize("version,refused", [("0.5.11", False), ("0.5.16", True), ("0.5.23", True)])
def test_device(version, refused):
    r = check(base_spec(version, device="cpu"))
    assert ("DFLASH_DEVICE" in r.codes()) is refused


def test_block_size_flag_nonpositive():
    assert "DFLASH_BLOCK_SIZE_NONPOSITIVE" in args("0.5.23", "--speculative-dflash-block-size", "0").codes()


def test_block_size_flags_must_match():
    r = args("0.5.23", "--speculative-dflash-block-size", "8", "--speculative-num-draft-tokens", "16")
    assert "DFLASH_BLOCK_SIZE_MISMATCH" in r.codes()


def test_block_size_flag_alone_sets_draft_tokens():
    r = args("0.5.23", "--speculative-dflash-block-size", "16")
    assert r.ok and r.resolved["speculative_num_draft_tokens"] == 16


@pytest.mark.parametrize("window,code", [(0, "WINDOW_NONPOSITIVE"), (8, "WINDOW_LT_BLOCK")])
def test_window(window, code):
    assert code in check(sp(draft_window_size=window)).codes()


def test_sink_rules():
    assert "SINK_WITHOUT_WINDOW" in args("0.5.23", "--speculative-draft-sink-size", "4").codes()
    assert "SINK_NEGATIVE" in args("0.5.23", "--speculative-draft-sink-size", "-1",
                                   "--speculative-draft-window-size", "64").codes()
    assert args("0.5.23", "--speculative-draft-sink-size", "4", "--speculative-draft-window-size", "64").ok


def test_topk_override_is_an_error_unless_allowed():
    r = check(sp(eagle_topk=4))
    assert "SPEC_OVERRIDDEN" in r.codes()
    assert {"field": "speculative_eagle_topk", "requested": 4, "resolved": 1} in r.overrides
    r = check(sp(eagle_topk=4, allow_overrides=["eagle_topk"]))
    assert r.ok and r.overrides


def test_num_steps_override():
    r = check(sp(num_steps=3))
    assert r.resolved["speculative_num_steps"] == 1 and "SPEC_OVERRIDDEN" in r.codes()


def test_nextn_becomes_eagle_and_is_reported():
    spec = base_spec(speculative={"algorithm": "NEXTN", "draft_model_path": "/d", "num_steps": 3, "eagle_topk": 1,
                                  "num_draft_tokens": 4})
    r = check(spec, draft=None)
    assert r.resolved["speculative_algorithm"] == "EAGLE"
    assert {"field": "speculative_algorithm", "requested": "NEXTN", "resolved": "EAGLE"} in r.overrides
    assert "SPEC_OVERRIDDEN" in r.codes()


def test_draft_tokens_from_drafter_nested_wins():
    draft = dict(DRAFT, block_size=16, dflash_config=dict(DRAFT["dflash_config"], block_size=8))
    r = check(sp(block_size=None), draft=draft)
    assert r.resolved["speculative_num_draft_tokens"] == 8
    assert "DRAFT_BLOCK_SIZE_CONFLICT" in [w["code"] for w in r.warnings]


def test_draft_tokens_from_top_level_block_size():
    draft = dict(DRAFT, block_size=4, dflash_config={"mask_token_id": 1, "target_layer_ids": [1]})
    assert check(sp(block_size=None), draft=draft).resolved["speculative_num_draft_tokens"] == 4


@pytest.mark.parametrize("draft", [dict(DRAFT, block_size=None, dflash_config={"target_layer_ids": [1]}),
                                   dict(DRAFT, dflash_config={"block_size": 8, "target_layer_ids": []})])
def test_draft_tokens_default_16(draft):
    r = check(sp(block_size=None), draft={k: v for k, v in draft.items() if v is not None})
    assert r.resolved["speculative_num_draft_tokens"] == 16


def test_max_running_requests_default_48_is_reported():
    spec = base_spec()
    del spec["max_running_requests"]
    r = check(spec)
    assert r.resolved["max_running_requests"] == 48
    assert any("48" in w["message"] for w in r.warnings)


@pytest.mark.parametrize("backend,expected", [("FA3", "flashinfer"), ("bogus", "flashinfer"), ("fa4", "fa4"),
                                              ("triton", "triton")])
def test_draft_backend_fallback(backend, expected):
    r = check(sp(draft_attention_backend=backend, allow_overrides=["draft_attention_backend"]))
    assert r.resolved["speculative_draft_attention_backend"] == expected


def test_draft_backend_fallback_is_an_override_error():
    assert "SPEC_OVERRIDDEN" in check(sp(draft_attention_backend="FA3")).codes()


def test_inherited_unsupported_backend_falls_back():
    r = check(base_spec(attention_backend="torch_native"), gpus=None)
    assert r.resolved["speculative_draft_attention_backend"] == "flashinfer"


def test_trtllm_draft_needs_causal_or_sliding_drafter():
    r = check(sp(draft_attention_backend="trtllm_mha", allow_overrides=["draft_attention_backend"]))
    assert r.resolved["speculative_draft_attention_backend"] == "flashinfer"
    r = check(sp(draft_attention_backend="trtllm_mha"), draft=dict(DRAFT, is_causal=True))
    assert r.resolved["speculative_draft_attention_backend"] == "trtllm_mha"


def test_trtllm_draft_not_accepted_before_0_5_23():
    r = check(dict(base_spec("0.5.16"), speculative=dict(base_spec()["speculative"], draft_attention_backend="trtllm_mha")),
              draft=dict(DRAFT, is_causal=True))
    assert r.resolved["speculative_draft_attention_backend"] == "flashinfer"


def test_0_5_11_disables_overlap_and_mixed_chunk():
    r = check(base_spec("0.5.11", extra_args=["--enable-mixed-chunk"]))
    assert r.resolved["disable_overlap_schedule"] is True
    assert r.resolved["enable_mixed_chunk"] is False
    r = check(base_spec("0.5.23", extra_args=["--enable-mixed-chunk"]))
    assert r.resolved["disable_overlap_schedule"] is False and r.resolved["enable_mixed_chunk"] is True


def test_trtllm_without_gpu_refused_at_resolution():
    r = check(base_spec(attention_backend="trtllm_mha"), gpus=[])
    assert "TRTLLM_MHA_GPU" in r.codes()


def test_trtllm_sm120_fp8_kv():
    r = check(base_spec(attention_backend="trtllm_mha", extra_args=["--kv-cache-dtype", "fp8_e4m3"]))
    assert "TRTLLM_MHA_SM120_FP8" in r.codes()


# EAGLE family basics
def eagle(**s):
    spec = base_spec(speculative=dict({"algorithm": "EAGLE3", "draft_model_path": "/e"}, **s))
    return check(spec, draft=None)


def test_eagle_auto_params_by_architecture():
    assert eagle().resolved["speculative_num_steps"] == 3
    llama = check(base_spec(speculative={"algorithm": "EAGLE3", "draft_model_path": "/e"}), draft=None,
                  target=dict(TARGET, architectures=["LlamaForCausalLM"]))
    assert (llama.resolved["speculative_num_steps"], llama.resolved["speculative_eagle_topk"]) == (5, 4)


def test_eagle_partial_params():
    assert "EAGLE_PARAMS_PARTIAL" in eagle(eagle_topk=4).codes()
    assert "EAGLE_TOPK_MISSING" in eagle(num_steps=3).codes()


def test_eagle_draft_tokens_adjusted_for_topk_1():
    r = eagle(num_steps=3, eagle_topk=1, num_draft_tokens=8)
    assert r.resolved["speculative_num_draft_tokens"] == 4 and "SPEC_OVERRIDDEN" in r.codes()


def test_eagle_trtllm_topk():
    r = check(base_spec(attention_backend="trtllm_mha", speculative={"algorithm": "EAGLE3", "draft_model_path": "/e",
                                                                     "num_steps": 3, "eagle_topk": 4,
                                                                     "num_draft_tokens": 8}), draft=None)
    assert "EAGLE_TRTLLM_TOPK" in r.codes()


def test_0_5_11_window_flag_is_checked_against_the_block():
    """0.5.11 names the window speculative_dflash_draft_window_size; its resolver refuses a window below the block
    (found by its differential run) and the engine reads the same field under that flag."""
    r = args("0.5.11", "--speculative-num-draft-tokens", "16", "--speculative-dflash-draft-window-size", "1")
    assert r.codes()[0] == "WINDOW_LT_BLOCK" and "--speculative-dflash-draft-window-size" in r.errors[0]["message"]
    assert "WINDOW_LT_BLOCK" not in args("0.5.11", "--speculative-num-draft-tokens", "16",
                                         "--speculative-dflash-draft-window-size", "64").codes()


def test_eagle_page_tree():
    r = check(base_spec(attention_backend="torch_native", speculative={
        "algorithm": "EAGLE3", "draft_model_path": "/e", "num_steps": 3, "eagle_topk": 4, "num_draft_tokens": 8,
        "draft_attention_backend": "trtllm_mha"}), draft=None, gpus=None)
    assert "EAGLE_PAGE_TREE" in r.codes()


def test_eagle_needs_a_draft_for_non_mtp_targets():
    assert "EAGLE_NO_DRAFT" in eagle(draft_model_path=None).codes()


# --------------------------------------------------------------------- drafter / target configs (sglang.md 4, 10)
@pytest.mark.parametrize("version,arch,ok", [("0.5.11", "DFlash2DraftModel", False), ("0.5.23", "DFlash2DraftModel", True),
                                             ("0.5.23", "Qwen3ForCausalLM", False)])
def test_draft_architecture(version, arch, ok):
    r = check(base_spec(version), draft=dict(DRAFT, architectures=[arch]))
    assert ("DRAFT_ARCHITECTURE" not in r.codes()) is ok


@pytest.mark.parametrize("bs", [0, -1, "16"])
def test_draft_block_size_invalid(bs):
    assert "DRAFT_BLOCK_SIZE" in check(draft=dict(DRAFT, dflash_config=dict(DRAFT["dflash_config"], block_size=bs))).codes()


def test_draft_block_size_missing_warns():
    draft = dict(DRAFT, dflash_config={"mask_token_id": 1, "target_layer_ids": [1]})
    del draft["block_size"]
    assert "DRAFT_BLOCK_SIZE_MISSING" in [w["code"] for w in check(draft=draft).warnings]


def test_block_size_differing_from_the_drafter_is_an_error():
    """A block-size-8 drafter with block_size: 16 in the spec is refused (SGLang itself only warns)."""
    draft8 = dict(DRAFT, block_size=8, dflash_config=dict(DRAFT["dflash_config"], block_size=8))
    r = check(sp(block_size=16), draft=draft8)
    assert not r.ok and "BLOCK_SIZE_MISMATCH" in r.codes()
    err = next(e for e in r.errors if e["code"] == "BLOCK_SIZE_MISMATCH")
    assert err["stage"] == "policy" and "block_size 8" in err["message"]
    assert check(sp(block_size=8), draft=draft8).ok
    assert check(sp(block_size=None), draft=draft8).ok  # unset: SGLang takes the drafter's 8


@pytest.mark.parametrize("layers", [None, 0])
def test_draft_layer_count(layers):
    draft = dict(DRAFT, num_hidden_layers=layers)
    if layers is None:
        del draft["num_hidden_layers"]
    assert "DRAFT_NUM_LAYERS" in check(draft=draft).codes()


def test_target_layer_ids_in_range():
    r = check(target=dict(TARGET, num_hidden_layers=28))
    assert "DRAFT_LAYER_IDS_RANGE" in r.codes() and "33" in r.errors[0]["message"]


@pytest.mark.parametrize("ids", [[], "1,2", [1, "x"]])
def test_target_layer_ids_shape(ids):
    assert "DRAFT_LAYER_IDS" in check(draft=dict(DRAFT, dflash_config=dict(DRAFT["dflash_config"], target_layer_ids=ids))).codes()


def test_absent_layer_ids_need_four_target_layers():
    draft = dict(DRAFT, dflash_config={"block_size": 16, "mask_token_id": 1})
    assert "DRAFT_LAYER_IDS" in check(draft=draft, target=dict(TARGET, num_hidden_layers=2)).codes()
    assert "DRAFT_LAYER_IDS" not in check(draft=draft).codes()


def test_num_target_layers_mismatch_warns():
    assert "DRAFT_TARGET_LAYERS" in [w["code"] for w in check(draft=dict(DRAFT, num_target_layers=48)).warnings]


def test_mask_token_inside_vocab():
    assert "DRAFT_MASK_TOKEN_VOCAB" in check(target=dict(TARGET, vocab_size=151000)).codes()
    assert "DRAFT_MASK_TOKEN" in check(draft=dict(DRAFT, dflash_config=dict(DRAFT["dflash_config"], mask_token_id=-3))).codes()


def test_drafter_vocab_must_match_target():
    assert "DRAFT_VOCAB" not in check().codes()
    r = check(draft=dict(DRAFT, vocab_size=32000))
    assert "DRAFT_VOCAB" in r.codes() and "32000" in r.errors[0]["message"]


def test_0_5_11_reads_mask_token_only_nested():
    draft = dict(DRAFT, mask_token_id=999999, dflash_config={"block_size": 16, "target_layer_ids": [1]})
    assert "DRAFT_MASK_TOKEN_VOCAB" in check(base_spec("0.5.23"), draft=draft).codes()
    assert "DRAFT_MASK_TOKEN_VOCAB" not in check(base_spec("0.5.11"), draft=draft).codes()


def test_drafter_shorter_context_needs_env():
    draft = dict(DRAFT, max_position_embeddings=4096)
    r = check(draft=draft)
    assert "CONTEXT_DRAFT_SHORTER" in r.codes() and S.LONG_CONTEXT_ENV in r.errors[0]["message"]
    r = check(base_spec(env={S.LONG_CONTEXT_ENV: "1"}), draft=draft)
    assert r.ok and "CONTEXT_OVERWRITE" in [w["code"] for w in r.warnings]
    assert check(base_spec(context_length=4096), draft=draft).ok


def test_context_longer_than_target():
    assert "CONTEXT_TOO_LONG" in check(base_spec(context_length=131072)).codes()
    assert check(base_spec(context_length=131072, env={S.LONG_CONTEXT_ENV: "true"}),
                 draft=dict(DRAFT, max_position_embeddings=131072)).ok


def test_mem_fraction_and_zero_draft_tokens():
    assert "MEM_FRACTION" in check(base_spec(mem_fraction_static=1.5)).codes()
    assert "NUM_DRAFT_TOKENS" in check(sp(block_size=0)).codes()


def test_target_architecture_unverified_warns():
    r = check(target=dict(TARGET, architectures=["MistralForCausalLM"]))
    assert "TARGET_ARCH_UNVERIFIED" in [w["code"] for w in r.warnings]


# --------------------------------------------------------------------- GPUs (sglang.md 7)
def test_gpu_count():
    r = check(base_spec(tp_size=2))
    assert "GPU_COUNT" in r.codes()
    assert check(base_spec(tp_size=2), gpus=PRO6000 * 2).ok


def test_fa3_on_sm120_explicit_and_inherited_by_the_draft():
    r = check(base_spec(attention_backend="fa3"))
    fields = [e["field"] for e in r.errors if e["code"] == "FA3_SM120"]
    assert "attention_backend" in fields and "speculative_draft_attention_backend" in fields
    assert check(base_spec(attention_backend="fa3"), gpus=[{"name": "H100", "compute_capability": "9.0"}]).ok


@pytest.mark.parametrize("version,code", [("0.5.11", "TRTLLM_MHA_SM120"), ("0.5.16", "TRTLLM_MHA_SM120"), ("0.5.23", None)])
def test_trtllm_prefill_on_sm120(version, code):
    r = check(base_spec(version, attention_backend="trtllm_mha", speculative=dict(
        base_spec()["speculative"], draft_attention_backend="flashinfer")))
    assert (code in r.codes()) if code else "TRTLLM_MHA_SM120" not in r.codes()


def test_fa4_on_sm120_before_0_5_23():
    assert "FA4_SM120" in check(base_spec("0.5.16", attention_backend="fa4")).codes()
    assert "FA4_SM120" not in check(base_spec("0.5.23", attention_backend="fa4")).codes()


def test_hybrid_gdn_backends_on_blackwell():
    r = check(base_spec(attention_backend="fa4"), target=dict(TARGET, architectures=["Qwen3NextForCausalLM"]))
    assert "HYBRID_GDN_BACKEND" in r.codes()


def test_sm120_detected_by_name_and_default_backend_flashinfer():
    spec = base_spec()
    del spec["attention_backend"]
    r = check(spec, gpus=[{"name": "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"}])
    assert r.resolved["attention_backend"] == "flashinfer"


def test_missing_gpu_facts_warns():
    assert "HARDWARE_UNCHECKED" in [w["code"] for w in check(gpus=None).warnings]


# --------------------------------------------------------------------- DDTree (sglang.md 5)
def test_tree_without_capability_fails_and_says_linear():
    r = check(sp(verify="tree"))
    assert "TREE_VERIFY_UNAVAILABLE" in r.codes()
    assert "linear" in r.errors[0]["message"]
    r = check(sp(verify="tree"), capabilities={"version": "0.5.23", "tree_verify": []})
    assert "TREE_VERIFY_UNAVAILABLE" in r.codes() and "0.5.23" in r.errors[0]["message"]


@pytest.mark.parametrize("flavor,flags", [
    ("sglang-pr29907", ["--speculative-algorithm", "DDTREE", "--speculative-ddtree-budget", "15"]),
    ("sglang-pr31069", ["--speculative-dflash-tree-verify", "--speculative-eagle-topk", "8"]),
    ("sglang-pr36196", ["--speculative-dflash-tree-width", "15"]),
    ("fork-db-guo", ["--speculative-dflash-enable-ddtree"]),
])
def test_tree_flavor_rendered(flavor, flags):
    r = check(sp(verify="tree", tree_budget=15), capabilities={"tree_verify": [flavor]})
    assert r.tree_verify == flavor
    for f in flags:
        assert f in r.argv, (f, r.argv)
    assert not [e for e in r.errors if e["stage"] in ("parse", "resolve")], r.errors


def test_tree_pr31069_keeps_topk_and_checks_it():
    r = check(sp(verify="tree", eagle_topk=8), capabilities={"tree_verify": ["sglang-pr31069"]})
    assert r.ok, r.errors
    assert r.resolved["speculative_eagle_topk"] == 8
    assert "TREE_VERIFY_TOPK" in check(sp(verify="tree", eagle_topk=5),
                                       capabilities={"tree_verify": ["sglang-pr31069"]}).codes()


def test_tree_only_for_dflash_and_budget_rules():
    spec = base_spec(speculative={"algorithm": "EAGLE3", "draft_model_path": "/e", "verify": "tree"})
    assert "TREE_VERIFY_ALGORITHM" in check(spec, draft=None).codes()
    assert "SPEC_VALUE" in check(sp(tree_budget=8)).codes()
    assert "TREE_BUDGET" in check(sp(verify="tree", tree_budget=0), capabilities={"tree_verify": ["sglang-pr29907"]}).codes()


# --------------------------------------------------------------------- rendering, migration, diff
def test_argv_order_and_unit_lines():
    r = check(base_spec(extra_args=["--served-model-name", "a b", "--chat-template", "100%$x"]))
    lines = r.as_dict()["unit_exec_lines"]
    assert lines[0] == '"--model-path" "/opt/specdeploy/models/Qwen--Qwen3-8B@abc"'
    assert '"--served-model-name" "a b"' in lines
    assert '"--chat-template" "100%%$$x"' in lines


def test_argv_to_spec_roundtrip():
    spec = base_spec(tp_size=1, extra_args=["--trust-remote-code"])
    r = check(spec)
    back = S.argv_to_spec(r.argv, "0.5.23")
    assert back["speculative"]["block_size"] == 16
    assert back["extra_args"] == ["--trust-remote-code"]
    assert check(back).argv == r.argv


def test_argv_to_spec_garbage_is_a_readable_error():
    with pytest.raises(ValueError, match="would not parse"):
        S.argv_to_spec(["--model-path", "/m", "--cuda-graph-max-bs", "8"], "0.5.23")
    with pytest.raises(ValueError, match="all known"):
        S.argv_to_spec(["--model-path", "/m"], "9")


def test_argv_diff():
    d = S.argv_diff("python -m sglang.launch_server --model-path /m --tp-size 1", ["--model-path", "/m", "--tp-size", "2",
                                                                                   "--port", "1"])
    assert d["changed"] and d["changed_flags"] == ["--tp-size"] and d["added"] == ["--port"]
    assert not S.argv_diff(["--model-path", "/m"], ["--model-path", "/m"])["changed"]


def test_code_for_sglang_message_maps_every_resolution_code():
    msgs = {"DFLASH_PP": "Currently DFLASH speculative decoding only supports pp_size == 1.",
            "UNKNOWN_ALGORITHM": "Unknown speculative algorithm name: X",
            "PARSE_UNRECOGNIZED": "sglang serve: error: unrecognized arguments: --x"}
    for code, msg in msgs.items():
        assert S.code_for_sglang_message(msg) == code
    assert S.code_for_sglang_message("something new") == "SGLANG_REJECTED"


def test_block_size_unknown_without_drafter_config():
    r = check(sp(block_size=None), draft=None)
    assert r.resolved["speculative_num_draft_tokens"] is None
    assert "BLOCK_SIZE_UNKNOWN" in [w["code"] for w in r.warnings]


def test_configs_not_given_is_said():
    r = check(draft=None, target=None)
    assert "CONFIG_UNCHECKED" in [w["code"] for w in r.warnings]


def note_codes(r):
    return [w["code"] for w in r.warnings]


def test_sglang_default_and_override_notes():
    spec = base_spec()
    del spec["max_running_requests"]
    assert "SGLANG_DEFAULT" in note_codes(check(spec))
    assert "SGLANG_OVERRIDE" in note_codes(check(sp(eagle_topk=4)))


def test_eagle_params_unknown_without_target_config():
    r = check(base_spec(speculative={"algorithm": "EAGLE3", "draft_model_path": "/e"}), draft=None, target=None)
    assert "EAGLE_PARAMS_UNKNOWN" in note_codes(r) and r.resolved["speculative_num_steps"] is None


def test_window_without_effect_noted():
    r = args("0.5.23", "--speculative-draft-window-size", "64", "--speculative-algorithm", "NGRAM")
    assert "WINDOW_NO_EFFECT" in note_codes(r)


def test_tree_flavor_notes():
    r = check(sp(verify="tree", tree_budget=15), capabilities={"tree_verify": ["sglang-pr36196"]})
    assert "TREE_VERIFY_GREEDY" in note_codes(r)
    r = check(sp(verify="tree", tree_budget=15), capabilities={"tree_verify": ["fork-db-guo"]})
    assert "TREE_BUDGET_IGNORED" in note_codes(r)


def test_exec_start_with_continuations_and_systemd_escapes():
    unit = "/opt/v/bin/python -m sglang.launch_server \\\n  --model-path /m \\\n  --chat-template 100%%$$x\n"
    assert S.strip_program(unit) == ["--model-path", "/m", "--chat-template", "100%$x"]
    r = S.validate_argv(S.strip_program(unit), "0.5.23")
    assert '"--chat-template" "100%%$$x"' in r.as_dict()["unit_exec_lines"]


def test_cpu_device_skips_gpu_checks():
    spec = base_spec(device="cpu")
    spec.pop("speculative", None)
    r = S.validate(spec, gpus=[])
    assert "GPU_COUNT" not in r.codes() and "HARDWARE_CPU" in [w["code"] for w in r.warnings]
    assert "GPU_COUNT" in S.validate(dict(spec, device="cuda"), gpus=[]).codes()


LORA = ["--enable-lora", "--max-lora-rank", "8", "--lora-target-modules", "all"]


@pytest.mark.parametrize("version", ["0.5.11", "0.5.23"])
def test_flex_attention_refuses_speculation(version):
    r = args(version, "--attention-backend", "flex_attention")
    assert r.sglang_verdict["code"] == "FLEX_ATTENTION_SPECULATIVE", r.codes()
    plain = S.validate_argv(["--model-path", "/m", "--attention-backend", "flex_attention"], version, gpus=PRO6000,
                            target_config=TARGET, read_paths=False)
    assert plain.sglang_verdict["accepted"], plain.codes()


def test_fa3_with_fp8_e5m2_kv_falls_back_to_triton():
    """SGLang switches fa3 to triton for an fp8_e5m2 KV cache; the DFLASH draft inherits triton."""
    r = S.validate_argv(["--model-path", "/m", "--attention-backend", "fa3", "--kv-cache-dtype", "fp8_e5m2",
                         "--max-running-requests", "8", "--speculative-algorithm", "DFLASH",
                         "--speculative-draft-model-path", "/d"], "0.5.23", gpus=[], draft_config=DRAFT,
                        target_config=TARGET, read_paths=False)
    assert r.resolved["attention_backend"] == "triton"
    assert r.resolved["speculative_draft_attention_backend"] == "triton"


def test_model_path_with_colon_needs_a_served_model_name():
    """served_model_name defaults to the model path: a path with ':' is refused until a name is given."""
    argv = ["--model-path", "/models/qwen3:8b", "--max-running-requests", "8"]
    assert S.validate_argv(argv, "0.5.23", read_paths=False).sglang_verdict["code"] == "SERVED_MODEL_NAME_COLON"
    argv += ["--served-model-name", "qwen3-8b"]
    assert S.validate_argv(argv, "0.5.23", target_config=TARGET, read_paths=False).sglang_verdict["accepted"]


def test_ambiguous_abbreviation_wins_over_an_earlier_bad_value():
    # argparse classifies every option string before taking values: 0.5.11 refuses the ambiguous --speculative-num
    # at the end of argv, not the lowercase algorithm name (not among its choices) before it
    argv = ["--model-path", "/m", "--speculative-algorithm", "dflash", "--speculative-num", "3"]
    assert S.validate_argv(argv, "0.5.11", read_paths=False).codes() == ["PARSE_AMBIGUOUS"]
    assert S.validate_argv(argv[:4], "0.5.11", read_paths=False).codes() == ["PARSE_INVALID_VALUE"]


def test_skip_dp_mlp_sync_gone_in_0_5_23():
    assert args("0.5.23", "--speculative-skip-dp-mlp-sync").sglang_verdict["stage"] == "parse"


@pytest.mark.parametrize("version,refused", [("0.5.16", True), ("0.5.18", True), ("0.5.19", False), ("0.5.22", False),
                                             ("0.5.23", False)])
def test_trtllm_mha_on_sm120_follows_each_release_own_check(version, refused):
    """0.5.19 on (0.5.22 included) SGLang's attention hook allows trtllm_mha prefill on SM90, SM100 and SM120; the
    releases before refuse it outside SM100 (at argument time with a GPU known, and at load)."""
    spec = dict(base_spec(version), attention_backend="trtllm_mha")
    codes = check(spec).codes()
    assert bool({"TRTLLM_MHA_GPU", "TRTLLM_MHA_SM120"} & set(codes)) is refused, codes


@pytest.mark.parametrize("version,refused", [("0.5.14", True), ("0.5.18", False), ("0.5.22", False), ("0.5.23", False)])
def test_fa4_draft_backend_on_sm120_from_0_5_18(version, refused):
    """fa4 has an sm_120 kernel path from 0.5.18 (flash_attention_v4_sm120); 0.5.14 has none."""
    codes = check(sp(draft_attention_backend="fa4") | {"sglang_version": version}).codes()
    assert ("FA4_SM120" in codes) is refused, codes


def test_a_drafter_sglang_cannot_read_is_never_accepted(tmp_path):
    """A drafter path that does not exist, or a directory without config.json: the static verdict is left to
    SGLang (which refuses it), never "accepted"."""
    empty = tmp_path / "drafter-without-config"
    empty.mkdir()
    for path in (str(tmp_path / "missing"), str(empty)):
        spec = sp(draft_model_path=path)
        r = S.validate(spec, gpus=PRO6000, target_config=TARGET, read_paths=True)
        assert r.sglang_verdict["accepted"] is not True, r.sglang_verdict
        assert any(path in w for w in r.sglang_verdict["judged_by_sglang"]), r.sglang_verdict
    # readable: judged here
    (empty / "config.json").write_text(json.dumps(DRAFT))
    r = S.validate(sp(draft_model_path=str(empty)), gpus=PRO6000, target_config=TARGET, read_paths=True)
    assert r.sglang_verdict["accepted"] is True and r.sglang_verdict["judged_by_sglang"] == [], r.sglang_verdict
