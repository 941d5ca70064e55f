#!/usr/bin/env bash
# h-kernels, run 6 (2026-12-01, session 4): the new rule (rule_table.h) measured directly, no tuning, with torch and
# Triton in the same call; bench-05 (lesson 05, which shares launch_shape.h) built and run beside it.
set -uo pipefail
cd .gpu-kernels
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
benchmarks/05-layernorm/bench.sh --build-only --out /tmp/b5 > $OUT/bench05-console.txt 2>&1 &
timeout 240 benchmarks/04-rmsnorm/bench.sh --out /tmp/b4 > $OUT/bench04-console.txt 2>&1; echo "bench-04 rc $?" >> $OUT/bench04-console.txt
wait
timeout 120 benchmarks/05-layernorm/bench.sh --no-build --no-peers --out /tmp/b5 >> $OUT/bench05-console.txt 2>&1; echo "bench-05 rc $?" >> $OUT/bench05-console.txt
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
tar czf $OUT/results.tgz -C /tmp b4/bench-04.csv b4/peers.csv b4/bench-04.svg b5/bench-05.csv 2>> $OUT/smi.txt
grep -n "launches match\|copy (2 GiB)" $OUT/bench04-console.txt $OUT/bench05-console.txt; tail -3 $OUT/bench05-console.txt
