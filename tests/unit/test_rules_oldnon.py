"""-- oldnon (session 17) --: the non-GPU leftovers of 0.5.11-0.5.15.post1 (encoder disaggregation, 0.5.11's speculative
MoE runner and PD decode radix cache, dual chunk attention, HiSparse on the DSA NextN head): each refusal, the neighbour
SGLang accepts, and the releases it holds for. Every answer expected here was the release's own to the same flags in its
kit, on this host without a GPU (cases.OLD_SWEEP_EXTRA "on17-*")."""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import sglang_engine as E

BASE = ["--model-path", "/m", "--device", "cuda", "--max-running-requests", "8"]
QWEN3 = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
         "max_position_embeddings": 40960, "vocab_size": 151936}
QWEN3_VL = dict(QWEN3, architectures=["Qwen3VLForConditionalGeneration"])
DUAL = dict(QWEN3, architectures=["Qwen2ForCausalLM"], model_type="qwen2",
            dual_chunk_attention_config={"chunk_size": 262144, "local_size": 8192})
DSA_NEXTN = {"architectures": ["DeepseekV3ForCausalLMNextN"], "model_type": "deepseek_v3", "num_hidden_layers": 8,
             "max_position_embeddings": 163840, "vocab_size": 129280, "kv_lora_rank": 64, "index_topk": 64}
DFLASH = ["--speculative-algorithm", "DFLASH", "--speculative-draft-model-path", "/d"]
PD_RADIX = ["--disaggregation-mode", "decode", "--disaggregation-decode-enable-radix-cache"]


def refusal(extra, version, target=QWEN3, gpus=()):
    r = E.validate_argv(BASE + extra, version, gpus=None if gpus is None else list(gpus), read_paths=False,
                        target_config=target)
    if not r.sglang_verdict["accepted"]:
        return r.sglang_verdict["code"]
    codes = [e["code"] for e in r.errors if e["stage"] in ("parse", "resolve", "input") and e["code"] != "GPU_COUNT"]
    return codes[0] if codes else None


DSA_V3 = dict(DSA_NEXTN, architectures=["DeepseekV3ForCausalLM"], q_lora_rank=96)
NSA_CP = ["--enable-nsa-prefill-context-parallel"]


