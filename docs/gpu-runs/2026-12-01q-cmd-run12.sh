#!/usr/bin/env bash
# h-kernels5b, run 12 (2026-12-01, session 5). In one call:
#  1. the tuning sweep of the fused add + RMSNorm, bf16 and fp32, with the new kOptLoadsFirst (+first) instances
#     (bench --tune --only fused_add_rmsnorm:bf16 --only fused_add_rmsnorm:fp32);
#  2. make_rule.py --base rule_table.h on that sweep: the four fused tables from it, the norm's four kept as they are
#     (run 11's 16-bit norm tables, whose sweep did not come back, and run 7's fp32 ones);
#  3. this branch's benchmarks/ (with that rule) over the checkout's, the rmsnorm_fast solution (commit 474e8ef's
#     __launch_bounds__) copied into exercises/, and `make bench-04 EX=rmsnorm_fast`: the rule measured directly,
#     torch and Triton beside it, the solutions, the student path.
# Runs from /work/main's copy with this branch's benchmarks/ in .gpu-kernels5b/. Everything returned is in at most
# five files (at most eight come back).
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
left() { echo $(( 185 - ($(date +%s) - start) )); }  # seconds left of the call's share, for each step's timeout
log=$OUT/console.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
k=.gpu-kernels5b/benchmarks/04-rmsnorm
timeout $(left) $k/bench.sh --build-only --out /tmp/t5 > /tmp/tune-build.txt 2>&1; echo "tune build rc $? at $(( $(date +%s) - start )) s" >> $log
timeout $(left) /tmp/t5/bench --tune --only fused_add_rmsnorm:bf16 --only fused_add_rmsnorm:fp32 \
  --csv /tmp/t5/run12-tune.csv --svg /tmp/t5/run12-tune.svg --date "$(date -u +%F)" > /tmp/tune-console.txt 2>&1
echo "tune rc $? at $(( $(date +%s) - start )) s" >> $log
gzip -c /tmp/t5/run12-tune.csv > $OUT/run12-tune.csv.gz
python3 $k/kernels/make_rule.py --base $k/kernels/rule_table.h /tmp/t5/run12-tune.csv > /tmp/rule_table.h 2>> $log
rc=$?; echo "make_rule rc $rc" >> $log
[ $rc = 0 ] && [ -s /tmp/rule_table.h ] && cp /tmp/rule_table.h $k/kernels/rule_table.h
cp $k/kernels/rule_table.h $OUT/rule_table.h
rm -rf benchmarks && cp -r .gpu-kernels5b/benchmarks benchmarks
cp solutions/04-rmsnorm/rmsnorm_fast.cu exercises/04-rmsnorm/rmsnorm_fast.cu
timeout $(left) make bench-04 EX=rmsnorm_fast > /tmp/bench04-console.txt 2>&1; echo "make bench-04 rc $? at $(( $(date +%s) - start )) s" >> $log
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
cp /tmp/tune-console.txt /tmp/bench04-console.txt /tmp/tune-build.txt build/bench-04/ 2>> $log
tar czf $OUT/results.tgz -C build bench-04/bench-04.csv bench-04/peers.csv bench-04/bench-04.svg bench-04/build.log \
  bench-04/tune-console.txt bench-04/bench04-console.txt bench-04/tune-build.txt 2>> $log
cat $log; grep -n "launches match\|copy (2 GiB)\|not timed\|your \|wrong\|FAIL" /tmp/tune-console.txt /tmp/bench04-console.txt | head -20
sed -n '/fused_add_rmsnorm, /,/^$/p' /tmp/bench04-console.txt | head -40
