#!/usr/bin/env bash
# A machine where nvidia-smi lists a GPU that the CUDA runtime cannot use (a driver older than the toolkit, say) must
# not be graded on `gpu`: every test would fail on its first cudaMalloc and a correct kernel would score 0.
#   BACKEND=gpu   stops with one sentence naming the CUDA error, exit 2, nothing graded;
#   auto          grades on the emulator and says why.
# The GPU is faked with an nvidia-smi on PATH; the probe itself is real. Skipped (77) where the runtime can use a device.
# Usage: unusable_gpu.sh ROOT WORKBOOK PROBE WORKDIR
set -uo pipefail
root=$1 workbook=$2 probe=$3 work=$4
if "$probe" >/dev/null 2>&1; then echo "a usable CUDA device is present: nothing to check here"; exit 77; fi
rm -rf "$work" && mkdir -p "$work/bin"
printf '#!/bin/sh\necho "GPU 0: Fake GPU (UUID: GPU-00000000)"\n' > "$work/bin/nvidia-smi"
chmod +x "$work/bin/nvidia-smi"
fail() { echo "FAILED: $*"; exit 1; }
cd "$root"

out=$(PATH="$work/bin:$PATH" "$workbook" grade 04 --solutions --ex block_reduce --backend gpu \
        --json-out "$work/gpu.json" 2>&1); rc=$?
echo "--- BACKEND=gpu (exit $rc):"; echo "$out"
[ "$rc" -eq 2 ] || fail "BACKEND=gpu should exit 2, not $rc"
grep -q "cannot use the GPU that nvidia-smi lists (Fake GPU): cuda" <<<"$out" || fail "the message does not name the CUDA error"
grep -q "Hidden tests" <<<"$out" && fail "tests ran on an unusable GPU"

out=$(PATH="$work/bin:$PATH" "$workbook" grade 04 --solutions --ex block_reduce --backend auto \
        --json-out "$work/auto.json" 2>&1); rc=$?
echo "--- BACKEND=auto (exit $rc):"; echo "$out"
[ "$rc" -eq 0 ] || fail "auto should grade the solution on the emulator and pass"
grep -q "Ran on: CPU emulator" <<<"$out" || fail "auto did not fall back to the emulator"
grep -q "auto: the CUDA runtime cannot use the GPU" <<<"$out" || fail "auto does not say why it chose the emulator"
echo "ok"
