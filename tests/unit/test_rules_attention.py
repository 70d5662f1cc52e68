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


NEXT = {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "num_hidden_layers": 8}


