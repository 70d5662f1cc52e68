#!/bin/bash
# Lab check of the memory fit (docs/memory-fit.md, "Checked against SGLang"): start the lab's SGLang on CPU
# with the lab's server flags plus the given ones, wait until it serves or refuses, stop it, keep the log.
# sitecustomize.py (next to this file, on PYTHONPATH) logs SGLang's own `pre` and `available` figures.
#   usage: lab/memfit/run.sh OUT_DIR NAME PORT [sglang flags...]   (MODEL=<dir> to change the model)
# The mid-size model of the table is lab/memfit/mid-qwen3.json as config.json next to tiny-qwen3's
# tokenizer files, loaded with --load-format dummy (random weights: no files needed).
set -u
out=$1; name=$2; port=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
lab=${SPECDEPLOY_LAB:-$here/../../.lab}
mkdir -p "$out"; log=$out/$name.log
PYTHONPATH=$here SGLANG_USE_CPU_ENGINE=1 SPECDEPLOY_LAB_SHIM_MODULES=sgl_kernel,torchvision HF_HUB_OFFLINE=1 \
  nice -n 10 "$lab/sglang-venv/bin/python" -m sglang.launch_server \
  --model-path "${MODEL:-$lab/models/tiny-qwen3}" --device cpu --attention-backend torch_native \
  --sampling-backend pytorch --disable-cuda-graph --skip-server-warmup --sleep-on-idle \
  --host 127.0.0.1 --port "$port" "$@" > "$log" 2>&1 &
pid=$!
for _ in $(seq 1 900); do
  grep -q "fired up\|leave no GPU memory\|Not enough memory" "$log" 2>/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 1
done
sleep 2
kill $pid 2>/dev/null; sleep 5; kill -9 $pid 2>/dev/null
grep "MEMFIT\|KV Cache is allocated\|leave no GPU memory\|fewer than --context-length\|max_running_requests was reduced" "$log"
