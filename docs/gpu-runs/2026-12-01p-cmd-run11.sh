#!/usr/bin/env bash
# h-kernels5, run 11 (2026-12-01, session 5, call 3 of 3, final). In one call:
#  1. the tuning sweep of the bf16 norm with the new kOptLoadsFirst shapes (bench --tune --only rmsnorm:bf16);
#  2. make_rule.py: the 16-bit norm's tables from that sweep, every other table from run 7's (unchanged instances);
#  3. this branch's benchmarks/ (with that rule) over the checkout's, the rmsnorm_fast solution copied into
#     exercises/, and `make bench-04 EX=rmsnorm_fast`: the rule measured directly with torch and Triton in the same
#     call, the solutions, the student path;
#  4. Nsight Compute on the new rule's kernel at 8192 x 16384 and 512 x 6144.
# Runs from /work/main's copy with this branch's benchmarks/ and run 9's sweep in .gpu-kernels5/.
set -uo pipefail
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
k=.gpu-kernels5/benchmarks/04-rmsnorm
timeout 200 $k/bench.sh --build-only --out /tmp/t4 > $OUT/tune-build.txt 2>&1; echo "tune build rc $?" >> $OUT/tune-build.txt
timeout 200 /tmp/t4/bench --tune --only rmsnorm:bf16 --csv /tmp/t4/tune.csv --svg /tmp/t4/tune.svg \
  --date "$(date -u +%F)" > $OUT/tune-console.txt 2>&1; echo "tune rc $?" >> $OUT/tune-console.txt
python3 $k/kernels/make_rule.py .gpu-kernels5/run7-bench04.csv.gz /tmp/t4/tune.csv > $k/kernels/rule_table.h \
  2> $OUT/rule-err.txt; echo "make_rule rc $?" >> $OUT/rule-err.txt
cp $k/kernels/rule_table.h $OUT/rule_table.h
rm -rf benchmarks && cp -r .gpu-kernels5/benchmarks benchmarks
cp solutions/04-rmsnorm/rmsnorm_fast.cu exercises/04-rmsnorm/rmsnorm_fast.cu
timeout 300 make bench-04 EX=rmsnorm_fast > $OUT/bench04-console.txt 2>&1; echo "make bench-04 rc $?" >> $OUT/bench04-console.txt
b=benchmarks/04-rmsnorm
nvcc -std=c++17 -O3 -arch=sm_90 -o /tmp/profile_one $b/bench/profile_one.cu build/bench-04/obj/kernels_rmsnorm.cu.o \
  build/bench-04/obj/common_device_data.o >> $OUT/tune-build.txt 2>&1
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,sm__cycles_elapsed.max,launch__registers_per_thread,\
launch__occupancy_limit_registers,launch__grid_size,launch__block_size,smsp__inst_executed.sum,\
regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
for c in 8192:16384 512:6144; do
  IFS=: read -r m n <<< "$c"
  timeout 60 ncu --clock-control none --cache-control all -k regex:rmsnorm --launch-skip 1 --launch-count 1 \
    --csv --page raw --metrics "$M" /tmp/profile_one bf16 $m $n rule > /tmp/ncu-$m-$n.csv 2>&1
  echo "ncu $m $n rc $?" >> $OUT/ncu-log.txt
done
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
gzip -c /tmp/t4/tune.csv > $OUT/tune.csv.gz
tar czf $OUT/results.tgz -C build bench-04/bench-04.csv bench-04/peers.csv bench-04/bench-04.svg bench-04/build.log \
  -C /tmp $(cd /tmp && ls ncu-*.csv) 2>> $OUT/smi.txt
cat $OUT/ncu-log.txt $OUT/rule-err.txt; grep -n "launches match\|copy (2 GiB)\|rc \|not timed\|your " $OUT/tune-console.txt \
  $OUT/tune-build.txt $OUT/bench04-console.txt | head -30
