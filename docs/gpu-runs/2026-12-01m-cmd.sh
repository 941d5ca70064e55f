#!/usr/bin/env bash
# h-kernels, runs 2 and 3 (2026-12-01): bench-04 and bench-05 with their tuning sweeps and the torch/Triton peers, in one
# call. Runs from /work/main's copy on the H200 with this branch's benchmarks/ and solutions/ in .gpu-kernels/ (no
# exercises: the student columns are not wanted here).
set -uo pipefail
cd .gpu-kernels
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv;
  nvcc --version | tail -2; python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'; } > $OUT/smi.txt 2>&1
# bench-05 compiles while bench-04 compiles and runs (the CPU work overlaps; the GPU timings are on device events).
benchmarks/05-layernorm/bench.sh --build-only --out /tmp/b5 > $OUT/bench05-console.txt 2>&1 &
timeout 240 benchmarks/04-rmsnorm/bench.sh --tune --out /tmp/b4 > $OUT/bench04-console.txt 2>&1; echo "bench-04 rc $?" >> $OUT/bench04-console.txt
wait
timeout 150 benchmarks/05-layernorm/bench.sh --no-build --tune --replays 10 --out /tmp/b5 >> $OUT/bench05-console.txt 2>&1; echo "bench-05 rc $?" >> $OUT/bench05-console.txt
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
tar czf $OUT/results.tgz -C /tmp b4/bench-04.csv b4/peers.csv b4/bench-04.svg b4/build.log b5/bench-05.csv b5/peers.csv b5/bench-05.svg b5/build.log 2>> $OUT/smi.txt
tail -60 $OUT/bench04-console.txt; tail -40 $OUT/bench05-console.txt
