"""The attention hooks' flag checks (sglang_engine/rules_attention.py), deterministic inference for the DeepSeek family
(rules_platform.py), the FlashInfer Mamba backend (rules_mamba.py) and the PD hook's checks (rules_pd.py): the code
a user sees, per release where the releases differ."""
from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as S

B200 = [{"name": "NVIDIA B200", "compute_capability": "10.0"}] * 2
H200 = [{"name": "NVIDIA H200", "compute_capability": "9.0"}] * 2
DEEPSEEK = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "kv_lora_rank": 64}
EAGLE3 = ("--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
          "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4")


def run(version, *argv, **kw):
    return S.validate_argv(["--model-path", "/m", "--device", "cuda"] + list(argv), version, read_paths=False,
                           gpus=kw.pop("gpus", []), **kw)


def code(version, *argv, **kw):
    return run(version, *argv, **kw).sglang_verdict["code"]


def test_linear_attn_flashkda_decode():
    assert code("0.5.23", "--linear-attn-decode-backend", "flashkda") == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", "--linear-attn-backend", "flashkda") is None  # inherited: decode falls back to triton
    assert code("0.5.14", "--linear-attn-decode-backend", "flashkda") == "PARSE_INVALID_VALUE"


def test_linear_replayssm():
    assert code("0.5.23", "--enable-linear-replayssm") is None
    assert code("0.5.23", "--enable-linear-replayssm", "--linear-attn-decode-backend", "cutedsl") == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", "--enable-linear-replayssm", "--disaggregation-mode", "decode") == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", "--enable-linear-replayssm", "--linear-replayssm-cache-len", "0") == "LINEAR_ATTN_FLAGS"
    # SM100 with bfloat16 Mamba state defaults the decode backend to FlashInfer, which ReplaySSM refuses
    argv = ("--enable-linear-replayssm", "--mamba-ssm-dtype", "bfloat16")
    assert code("0.5.23", *argv, gpus=B200) == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", *argv, gpus=H200) is None


def test_linear_replayssm_spec():
    spec = ("--enable-linear-replayssm-spec",)
    assert code("0.5.23", *spec) is None
    tree = EAGLE3[:-4] + ("--speculative-eagle-topk", "4", "--speculative-num-draft-tokens", "8")
    assert code("0.5.23", *spec, *tree) == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", *spec, "--linear-attn-decode-backend", "cutedsl") == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", *spec, "--disaggregation-mode", "prefill") == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", *spec, "--enable-linear-replayssm") == "LINEAR_ATTN_FLAGS"
    compact = {"SGLANG_RAGGED_VERIFY_MODE": "compact"}
    assert code("0.5.23", *spec, env=compact) == "LINEAR_ATTN_FLAGS"
    dflash = ("--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d")
    assert code("0.5.23", *spec, *dflash, "--linear-attn-verify-backend", "triton", env=compact) is None
    assert code("0.5.23", *spec, env={"SGLANG_RAGGED_VERIFY_MODE": "bogus"}) == "RAGGED_VERIFY_MODE"
    assert code("0.5.16", *spec) == "PARSE_UNRECOGNIZED"  # 0.5.16 spells it --enable-gdn-replayssm-spec


def test_multi_item_scoring_needs_flashinfer():
    assert code("0.5.23", "--enable-mis") == "MULTI_ITEM_SCORING_BACKEND"  # this host's default: triton
    assert code("0.5.23", "--enable-mis", "--attention-backend", "flashinfer") is None
    assert code("0.5.11", "--enable-mis", "--attention-backend", "fa3") == "MULTI_ITEM_SCORING_BACKEND"
    assert code("0.5.23", "--enable-mis", gpus=None) is None  # backend left to the host: not judged


def test_deterministic_deepseek_backends_by_release():
    det = ("--enable-deterministic-inference", "--attention-backend")
    assert code("0.5.23", *det, "flashinfer", target_config=DEEPSEEK) == "DETERMINISTIC_MLA_BACKEND"
    assert code("0.5.23", *det, "fa4", target_config=DEEPSEEK) == "DETERMINISTIC_MLA_BACKEND"
    assert code("0.5.23", *det, "fa4", target_config=DEEPSEEK, gpus=B200) is None
    assert code("0.5.23", *det, "triton", target_config=DEEPSEEK) is None
    assert code("0.5.16", *det, "fa4", target_config=DEEPSEEK, gpus=B200) == "DETERMINISTIC_MLA_BACKEND"
    assert code("0.5.23", *det, "flashinfer") is None  # not the DeepSeek family


def test_mamba_flashinfer_backend():
    assert code("0.5.23", "--mamba-backend", "flashinfer") == "MAMBA_FLASHINFER"  # no GPU: no FlashInfer
    assert code("0.5.11", "--mamba-backend", "flashinfer") == "MAMBA_FLASHINFER"
    assert code("0.5.23", "--mamba-backend", "flashinfer", gpus=H200) is None  # the host's install: not judged


def test_pd_hook_checks():
    decode, prefill = ("--disaggregation-mode", "decode"), ("--disaggregation-mode", "prefill")
    fake = ("--disaggregation-transfer-backend", "fake")
    radix = ("--disaggregation-decode-enable-radix-cache",)
    assert code("0.5.23", *prefill, *fake) == "PD_PREFILL_FAKE"
    assert code("0.5.23", *decode, *fake) is None
    assert code("0.5.23", *decode, *radix, *fake) == "PD_DECODE_RADIX_CONFLICT"
    assert code("0.5.13", *decode, *radix, *fake) == "PD_DECODE_RADIX_BACKEND"
    assert code("0.5.23", *decode, *radix, "--enable-hisparse") == "PD_DECODE_RADIX_CONFLICT"
    staging = {"SGLANG_DISAGG_STAGING_BUFFER": "1"}
    assert code("0.5.23", *decode, *fake, env=staging) == "PD_STAGING_BUFFER"
    assert code("0.5.23", *decode, env=staging) is None
    assert code("0.5.23", *prefill, "--enable-pd-role-switch", *EAGLE3) == "PD_ROLE_SWITCH"
    assert code("0.5.23", *prefill, "--enable-pd-role-switch") is None
    rust = {"SGLANG_RUST_SERVER": "1"}
    assert code("0.5.23", *prefill, "--disaggregation-bootstrap-port", "9999", env=rust) == "PD_RUST_BOOTSTRAP_PORT"
    assert code("0.5.23", *prefill, "--disaggregation-bootstrap-port", "30000", env=rust) is None
    policy = ("--disaggregation-decode-allocation-policy", "prefill_complete")
    assert code("0.5.23", *policy) == "PD_PREFILL_COMPLETE"
    assert code("0.5.23", *prefill, *policy) is None
    assert code("0.5.23", *prefill, *policy, "--tp-size", "2") == "PD_PREFILL_COMPLETE"


NEXT = {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "num_hidden_layers": 8}


def test_mamba_radix_cache_on_a_hybrid_gdn_target():
    assert code("0.5.23", target_config=NEXT) == "MAMBA_RADIX_CACHE"  # extra_buffer by default: no GPU, no snapshots
    assert code("0.5.23", target_config=NEXT, gpus=H200) is None
    r = run("0.5.23", "--disable-overlap-schedule", target_config=NEXT)  # auto: no_buffer without overlap or paging
    assert r.sglang_verdict["accepted"] and r.resolved["disable_overlap_schedule"]
    no_buffer = ("--mamba-radix-cache-strategy", "no_buffer")
    assert code("0.5.23", *no_buffer, target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"  # overlap on
    assert code("0.5.23", *no_buffer, "--disable-overlap-schedule", "--page-size", "16", target_config=NEXT,
                gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.23", "--mamba-radix-cache-strategy", "extra_buffer", "--linear-attn-backend", "cutedsl",
                target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.23", "--mamba-radix-cache-strategy", "extra_buffer_lazy", "--disaggregation-mode", "prefill",
                target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.23", "--enable-linear-replayssm", target_config=NEXT, gpus=H200) == "LINEAR_ATTN_FLAGS"
    assert code("0.5.23", "--enable-linear-replayssm", *no_buffer, "--disable-overlap-schedule", target_config=NEXT,
                gpus=H200) is None
    assert code("0.5.23", "--page-size", "16", "--mamba-track-interval", "24", target_config=NEXT,
                gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.23", "--page-size", "16", "--mamba-track-interval", "32", target_config=NEXT, gpus=H200) is None
    assert code("0.5.23", "--speculative-num-draft-tokens", "16", "--mamba-track-interval", "8", target_config=NEXT,
                gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.16", target_config=NEXT) == "MAMBA_RADIX_CACHE"
    # -- standin (session 16) --: extra_buffer_lazy under PD is refused from 0.5.17 only (trait mamba_lazy_pd_refused)
    lazy_pd = ("--mamba-radix-cache-strategy", "extra_buffer_lazy", "--disaggregation-mode", "prefill")
    assert code("0.5.16", *lazy_pd, target_config=NEXT, gpus=H200) is None
    assert code("0.5.17", *lazy_pd, target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.13", target_config=NEXT) is None  # 0.5.11-0.5.13: no_buffer (below)


# -- mamba (session 18) --
def test_mamba_extra_buffer_with_speculation():
    """An explicit extra_buffer strategy is judged under speculation too (the model hook runs before the speculative
    hooks: the flags given); extra_buffer_lazy with speculation (trait mamba_lazy_spec_refused): draft tokens given
    0.5.14-0.5.16 (with or without an algorithm), DFLASH 0.5.17, taken 0.5.18 on (answers of each kit)."""
    lazy = ("--mamba-radix-cache-strategy", "extra_buffer_lazy")
    dflash = ("--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d")
    draft = ("--speculative-num-draft-tokens", "16")
    for v in ("0.5.14", "0.5.15", "0.5.16"):
        assert code(v, *lazy, *draft, target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
        assert code(v, *lazy, *EAGLE3, target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
    for v in ("0.5.17", "0.5.18", "0.5.23"):
        assert code(v, *lazy, *draft, target_config=NEXT, gpus=H200) is None
        assert code(v, *lazy, *EAGLE3, target_config=NEXT, gpus=H200) is None
    assert code("0.5.17", *lazy, *dflash, target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
    assert code("0.5.18", *lazy, *dflash, target_config=NEXT, gpus=H200) is None
    for v in ("0.5.14", "0.5.17", "0.5.23"):
        assert code(v, "--mamba-radix-cache-strategy", "extra_buffer", "--linear-attn-backend", "cutedsl", *EAGLE3,
                    target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
        assert code(v, "--mamba-radix-cache-strategy", "extra_buffer", "--mamba-track-interval", "2", *EAGLE3,
                    target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
        assert code(v, *lazy, *dflash, target_config=NEXT, gpus=[]) == "MAMBA_RADIX_CACHE"  # no CUDA GPU
        assert code(v, *dflash, target_config=NEXT, gpus=[]) is None  # auto under speculation: not judged


# -- oldgpu (session 17) --
def test_mamba_radix_cache_before_0_5_14():
    """0.5.11-0.5.13 srt/server_args.py _handle_mamba_radix_cache (trait mamba_radix_legacy): auto is no_buffer, whose
    page size becomes 1; extra_buffer's refusals in SGLang's order (answers of each kit through the GPU stand-in)."""
    extra = ("--mamba-scheduler-strategy", "extra_buffer")
    for v in ("0.5.11", "0.5.12", "0.5.13"):
        r = run(v, "--page-size", "16", target_config=NEXT, gpus=H200)
        assert r.sglang_verdict["accepted"] and r.resolved["page_size"] == 1 and r.resolved["disable_overlap_schedule"]
        assert code(v, *extra, "--disable-radix-cache", target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"
        assert code(v, *extra, target_config=NEXT, gpus=[]) == "MAMBA_RADIX_CACHE"  # no CUDA GPU
        assert code(v, *extra, "--page-size", "16", "--mamba-track-interval", "24", target_config=NEXT,
                    gpus=H200) == "MAMBA_RADIX_CACHE"
        assert code(v, *extra, "--page-size", "96", "--mamba-track-interval", "192", target_config=NEXT,
                    gpus=H200) == "MAMBA_CHUNK_PAGE"
        assert code(v, *extra, "--page-size", "16", "--mamba-track-interval", "32", target_config=NEXT, gpus=H200) is None
        r = run(v, "--attention-backend", "trtllm_mha", target_config=NEXT, gpus=B200)  # the radix cache goes off
        assert r.sglang_verdict["accepted"] and r.resolved["page_size"] == 64
        r = run(v, target_config=NEXT, gpus=B200)  # the branch's SM100 default with the no_buffer radix cache
        assert r.sglang_verdict["accepted"] and r.resolved["attention_backend"] == "triton"
        r = run(v, "--disable-radix-cache", target_config=NEXT, gpus=B200)
        assert r.sglang_verdict["accepted"] and r.resolved["attention_backend"] == "trtllm_mha"
    lfm2 = {"architectures": ["Lfm2ForCausalLM"], "model_type": "lfm2", "num_hidden_layers": 8}
    assert code("0.5.11", *extra, "--attention-backend", "flashinfer", target_config=lfm2, gpus=H200) == \
        "MAMBA_RADIX_CACHE"  # the Lfm2 branch takes no extra_buffer
    r = run("0.5.12", "--page-size", "16", "--attention-backend", "flashinfer", target_config=lfm2, gpus=H200)
    assert r.sglang_verdict["accepted"] and r.resolved["page_size"] == 1
    lazy = ("--mamba-scheduler-strategy", "extra_buffer_lazy", "--speculative-num-draft-tokens", "16")
    assert code("0.5.13", *lazy, target_config=NEXT, gpus=H200) == "MAMBA_RADIX_CACHE"


def test_mamba_radix_cache_on_this_host_before_0_5_19():
    """-- mamba (session 16) --: 0.5.14-0.5.18 (srt/server_args.py _validate_mamba_no_buffer / _validate_mamba_extra_buffer)
    on a host without a GPU (no platform override there): no_buffer's page size, overlap and trtllm_mha asserts, and
    extra_buffer's architecture assert before its CUDA one; the FlashInfer Mamba backend refused with no FlashInfer."""
    no_buffer = ("--mamba-radix-cache-strategy", "no_buffer")
    for v in ("0.5.14", "0.5.16", "0.5.18"):
        assert code(v, *no_buffer, "--page-size", "16", "--disable-overlap-schedule", target_config=NEXT) == \
            "MAMBA_RADIX_CACHE"
        assert code(v, *no_buffer, target_config=NEXT) == "MAMBA_RADIX_CACHE"
        assert code(v, *no_buffer, "--disable-overlap-schedule", "--attention-backend", "trtllm_mha",
                    target_config=NEXT) == "MAMBA_RADIX_CACHE"
        assert code(v, *no_buffer, "--disable-overlap-schedule", target_config=NEXT) is None
        assert code(v, "--mamba-radix-cache-strategy", "extra_buffer", "--linear-attn-backend", "cutedsl",
                    target_config=NEXT) == "MAMBA_RADIX_CACHE"
    for v in ("0.5.11", "0.5.14", "0.5.18"):
        assert code(v, "--mamba-backend", "flashinfer", "--disable-radix-cache", target_config=NEXT) == "MAMBA_FLASHINFER"


def test_gdn_replayssm_spec_in_0_5_16():
    """-- mamba (session 16) --: 0.5.16's --enable-gdn-replayssm-spec (srt/server_args.py _handle_linear_attn_backend,
    then _validate_gdn_replayssm_spec_ring after the speculative hook), each refusal in SGLang's order."""
    gdn = ("--enable-gdn-replayssm-spec",)
    eagle3 = ("--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/d", "--speculative-num-steps", "3",
              "--speculative-num-draft-tokens", "4")
    f = "LINEAR_ATTN_FLAGS"
    assert code("0.5.16", *gdn, *eagle3, "--speculative-eagle-topk", "4") == f
    assert code("0.5.16", *gdn, "--linear-attn-decode-backend", "cutedsl") == f
    assert code("0.5.16", *gdn, "--mamba-radix-cache-strategy", "extra_buffer") == f
    assert code("0.5.16", *gdn, "--mamba-radix-cache-strategy", "extra_buffer", "--disable-radix-cache") is None
    assert code("0.5.16", *gdn, "--disaggregation-mode", "prefill") == f
    assert code("0.5.16", *gdn, "--linear-replayssm-cache-len", "0") == f
    assert code("0.5.16", *gdn, "--enable-linear-replayssm") == f
    assert code("0.5.16", *gdn, "--linear-replayssm-cache-len", "12") == f
    assert code("0.5.16", *gdn, "--mamba-ssm-dtype", "bfloat16") == f
    assert code("0.5.16", *gdn) is None and code("0.5.16", *gdn, "--mamba-ssm-dtype", "float32") is None
    assert code("0.5.16", *gdn, *eagle3, "--speculative-eagle-topk", "1", "--linear-replayssm-cache-len", "4") == f
    assert code("0.5.16", *gdn, *eagle3, "--speculative-eagle-topk", "1", "--linear-replayssm-cache-len", "8") is None
