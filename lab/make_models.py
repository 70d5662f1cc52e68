#!/usr/bin/env python3
"""Generate the lab's models without any hub access, deterministically from a seed.

Runs in the kit's SGLang venv (it has torch, transformers, tokenizers). Writes under --out:

  tiny-qwen3/            a real, servable random Qwen3 model (2 layers, hidden 64) with a byte-level
                         BPE tokenizer trained in-process; SGLang serves it on CPU
  tiny-qwen3-dflash-b16/ DFlash drafter config dir for tiny-qwen3 (config.json only, block size 16):
                         for validation, DFLASH cannot run on CPU
  tiny-qwen3-dflash-b8/  the same with block size 8
  qwen3-8b-config/       config.json shaped like Qwen/Qwen3-8B (36 layers, vocab 151936, 40960 ctx)
  qwen3-8b-dflash-b16-config/  config.json shaped like z-lab/Qwen3-8B-DFlash-b16
  MANIFEST.json          sha256 of every file written

The *-config dirs are stand-ins for hub repos (no hub here): only their config.json exists, which is
all SGLang's argument resolution reads.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile

CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Speculative decoding drafts several tokens and verifies them in one pass.",
    "A server that restarts must come back healthy before traffic returns.",
    "Blackwell GPUs run large language models with fast attention kernels.",
    "Every release is validated before the restart and smoke tested after it.",
    "Hello world, this is a tiny model for the specdeploy lab.",
]
SPECIALS = ["<unk>", "<s>", "</s>", "<pad>"]


def write_json(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")


def make_tokenizer(out_dir):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=512, special_tokens=SPECIALS, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(CORPUS * 50, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                                   eos_token="</s>", pad_token="<pad>")
    fast.chat_template = ("{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
                          "{% if add_generation_prompt %}assistant: {% endif %}")
    fast.save_pretrained(out_dir)
    return fast


def make_target(out_dir, seed):
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    tok = make_tokenizer(out_dir)
    vocab = len(tok)
    torch.manual_seed(seed)
    cfg = Qwen3Config(vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                      max_position_embeddings=2048, tie_word_embeddings=False,
                      bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
                      pad_token_id=tok.pad_token_id, torch_dtype="bfloat16")
    model = Qwen3ForCausalLM(cfg).to(torch.bfloat16)
    model.save_pretrained(out_dir, safe_serialization=True)
    return vocab


def drafter_config(block_size, target_layers, mask_token_id, max_pos, hidden, vocab, layer_ids):
    return {
        "architectures": ["DFlashDraftModel"],
        "model_type": "qwen3",
        "block_size": block_size,
        "dflash_config": {"block_size": block_size, "target_layer_ids": layer_ids,
                          "mask_token_id": mask_token_id},
        "num_hidden_layers": 1,
        "num_target_layers": target_layers,
        "hidden_size": hidden,
        "intermediate_size": hidden * 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": hidden // 4,
        "vocab_size": vocab,
        "max_position_embeddings": max_pos,
        "rms_norm_eps": 1e-6,
        "torch_dtype": "bfloat16",
    }


QWEN3_8B = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096,
    "intermediate_size": 12288, "num_hidden_layers": 36, "num_attention_heads": 32,
    "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
    "max_position_embeddings": 40960, "rope_theta": 1000000, "rms_norm_eps": 1e-6,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "bos_token_id": 151643,
    "eos_token_id": 151645,
}


def manifest(root):
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            rel = os.path.relpath(p, root)
            if rel == "MANIFEST.json":
                continue
            out[rel] = hashlib.sha256(open(p, "rb").read()).hexdigest()
    return dict(sorted(out.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1234)
    args = ap.parse_args()
    stamp = os.path.join(args.out, ".seed")
    if os.path.exists(stamp) and open(stamp).read().strip() == str(args.seed) \
            and os.path.exists(os.path.join(args.out, "MANIFEST.json")):
        print(f"models: up to date in {args.out} (seed {args.seed})")
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".models-", dir=os.path.dirname(os.path.abspath(args.out)))
    try:
        target = os.path.join(tmp, "tiny-qwen3")
        os.makedirs(target)
        vocab = make_target(target, args.seed)
        mask = vocab - 1  # the <pad>-adjacent last id: inside the target vocab
        for b in (16, 8):
            d = os.path.join(tmp, f"tiny-qwen3-dflash-b{b}")
            os.makedirs(d)
            write_json(os.path.join(d, "config.json"),
                       drafter_config(b, 2, mask, 2048, 64, vocab, [0, 1]))
        d = os.path.join(tmp, "qwen3-8b-config")
        os.makedirs(d)
        write_json(os.path.join(d, "config.json"), QWEN3_8B)
        d = os.path.join(tmp, "qwen3-8b-dflash-b16-config")
        os.makedirs(d)
        write_json(os.path.join(d, "config.json"),
                   drafter_config(16, 36, 151669, 40960, 4096, 151936, [1, 9, 17, 25, 33]))
        write_json(os.path.join(tmp, "MANIFEST.json"), manifest(tmp))
        with open(os.path.join(tmp, ".seed"), "w") as f:
            f.write(f"{args.seed}\n")
        if os.path.exists(args.out):
            shutil.rmtree(args.out)
        os.rename(tmp, args.out)
    except Exception:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    print(f"models: wrote tiny-qwen3 (vocab {vocab}) and drafter/config dirs to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
