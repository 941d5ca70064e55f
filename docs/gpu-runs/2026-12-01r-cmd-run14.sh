#!/usr/bin/env bash
# h-kernels6, run 14 (2026-12-01, session 6): the fused add's rule of run 13 (committed as kernels/rule_table.h)
# measured again, twice in one call, with torch and Triton beside it each time: this branch's benchmarks/ over the
# checkout's, the driver built once (bench.sh --build-only), then twice peers.py and bench for the two fused groups
# (--only fused_add_rmsnorm:bf16 --only fused_add_rmsnorm:fp32). Nothing else changes between run 13 and this one.
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
at() { echo "$(( $(date +%s) - start )) s"; }
log=$OUT/console.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
rm -rf benchmarks && cp -r .gpu-kernels6/benchmarks benchmarks
b=benchmarks/04-rmsnorm
timeout 150 $b/bench.sh --build-only --out /tmp/b14 > /tmp/build.txt 2>&1; echo "build rc $? at $(at)" >> $log
only=(--only fused_add_rmsnorm:bf16 --only fused_add_rmsnorm:fp32)
for i in 1 2; do
  timeout 90 python3 $b/peers.py --csv /tmp/b14/peers-$i.csv "${only[@]}" > /tmp/b14/peers-$i.txt 2>&1
  echo "peers $i rc $? at $(at)" >> $log
  timeout 90 /tmp/b14/bench "${only[@]}" --peers /tmp/b14/peers-$i.csv --csv /tmp/b14/run14-$i.csv \
    --svg /tmp/b14/run14-$i.svg --date "$(date -u +%F)" > /tmp/b14/bench-$i.txt 2>&1
  echo "bench $i rc $? at $(at)" >> $log
done
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
cp /tmp/build.txt /tmp/b14/build.txt
tar czf $OUT/run14.tgz -C /tmp b14/peers-1.csv b14/peers-2.csv b14/run14-1.csv b14/run14-2.csv b14/peers-1.txt \
  b14/peers-2.txt b14/bench-1.txt b14/bench-2.txt b14/build.txt b14/build.log 2>> $log
cat $log; grep -h "launches match" /tmp/b14/bench-*.txt
for i in 1 2; do sed -n '/fused_add_rmsnorm, bf16/,/^CSV/p' /tmp/b14/bench-$i.txt | grep -v "^$"; done
