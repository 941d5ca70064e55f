#!/usr/bin/env bash
# Compares the emulator's cuRAND XORWOW device generator (include/curand_kernel.h) with NVIDIA's: builds
# curand_sequence.cu with nvcc, runs it on the GPU, and diffs its lines with curand_sequence.expected (the emulator's
# output, written by emu-nvcc's build of the same file). Run from the repository root on a machine with nvcc and a
# GPU; writes $OUT/curand-gpu.txt and $OUT/curand-diff.txt (empty when every line agrees). About 30 s.
set -uo pipefail
here=grader/emulator/tests/gpu
out=${OUT:-.}
nvcc -std=c++17 -O2 -arch=sm_90 "$here/curand_sequence.cu" -o "$out/curand_sequence" || exit 2
"$out/curand_sequence" > "$out/curand-gpu.txt" || exit 2
diff "$here/curand_sequence.expected" "$out/curand-gpu.txt" > "$out/curand-diff.txt"
echo "curand: $(wc -l < "$out/curand-diff.txt") diff lines (0: the emulator's numbers are NVIDIA's)"
