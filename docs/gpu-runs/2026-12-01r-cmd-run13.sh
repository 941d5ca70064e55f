#!/usr/bin/env bash
# h-kernels6, run 13 (2026-12-01, session 6). In one call:
#  1. the tuning driver built from this branch's benchmarks/ (.gpu-kernels6/ of the checkout), and profile_one beside
#     it from the same objects;
#  2. the tuning sweep of the fused add + RMSNorm, bf16 and fp32, with the new kOptSharedH (+smem) shapes;
#  3. make_rule.py --base rule_table.h --long-tolerance 0.002 on that sweep (the four fused tables chosen again, each
#     large shape its own fastest shape within 0.2 %; the norm's four kept);
#  4. this branch's benchmarks/ with that rule over the checkout's, the fused_add_rmsnorm solution copied into
#     exercises/, `make bench-04 EX=fused_add_rmsnorm`: the rule measured directly, torch and Triton beside it;
#  5. Nsight Compute on ours (named shapes) and Triton's fused kernel at bf16 8192 x 16384 and 16384 x 1024.
# Everything returned is in at most six files (at most eight come back).
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
at() { echo "$(( $(date +%s) - start )) s"; }
left() { echo $(( ${1:-330} - ($(date +%s) - start) )); }  # seconds left of the call's share
log=$OUT/console.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv;
  ncu --version | tail -1; } > /tmp/smi.txt 2>&1
k=.gpu-kernels6/benchmarks/04-rmsnorm
timeout $(left 150) $k/bench.sh --build-only --out /tmp/t6 > /tmp/tune-build.txt 2>&1
echo "tune build rc $? at $(at)" >> $log
# profile_one (the CPU builds it while the GPU sweeps).
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o /tmp/profile_one $k/bench/profile_one.cu \
  /tmp/t6/obj/kernels_rmsnorm.cu.o /tmp/t6/obj/kernels_fused_add_rmsnorm.cu.o /tmp/t6/obj/common_device_data.o \
  > /tmp/profile-build.txt 2>&1 &
pb=$!
timeout $(left 200) /tmp/t6/bench --tune --only fused_add_rmsnorm:bf16 --only fused_add_rmsnorm:fp32 \
  --csv /tmp/t6/run13-tune.csv --svg /tmp/t6/run13-tune.svg --date "$(date -u +%F)" > /tmp/tune-console.txt 2>&1
echo "tune rc $? at $(at)" >> $log
gzip -c /tmp/t6/run13-tune.csv > $OUT/run13-tune.csv.gz
python3 $k/kernels/make_rule.py --base $k/kernels/rule_table.h --long-tolerance 0.002 /tmp/t6/run13-tune.csv \
  > /tmp/rule_table.h 2>> $log
rc=$?; echo "make_rule rc $rc" >> $log
[ $rc = 0 ] && [ -s /tmp/rule_table.h ] && cp /tmp/rule_table.h $k/kernels/rule_table.h
cp $k/kernels/rule_table.h $OUT/rule_table.h
rm -rf benchmarks && cp -r .gpu-kernels6/benchmarks benchmarks
cp solutions/04-rmsnorm/fused_add_rmsnorm.cu exercises/04-rmsnorm/fused_add_rmsnorm.cu
timeout $(left 360) make bench-04 EX=fused_add_rmsnorm > /tmp/bench04-console.txt 2>&1
echo "make bench-04 rc $? at $(at)" >> $log
wait $pb; echo "profile_one build rc $? at $(at)" >> $log
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,\
sm__cycles_active.avg,sm__cycles_elapsed.max,launch__registers_per_thread,launch__occupancy_limit_registers,\
launch__occupancy_limit_shared_mem,launch__shared_mem_per_block_dynamic,launch__waves_per_multiprocessor,\
launch__grid_size,launch__block_size,smsp__inst_executed.sum,\
regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {  # name, then the command; the second launch is profiled (the first warms)
  local name=$1; shift
  [ "$(left 420)" -gt 15 ] || { echo "$name skipped (time) at $(at)" >> $log; return; }
  timeout 40 ncu --clock-control none --cache-control all -k regex:'rmsnorm' --launch-skip 1 --launch-count 1 \
    --csv --page raw --metrics "$M" "$@" > /tmp/ncu-$name.csv 2> /tmp/ncu-$name.err
  echo "ncu $name rc $? at $(at)" >> $log
}
for c in "ref-8192x16384-x2late /tmp/profile_one fused-bf16 8192 16384 block1024x2+w-late" \
         "ref-8192x16384-smem /tmp/profile_one fused-bf16 8192 16384 block1024x2+w-late+cs+first+smem" \
         "ref-8192x16384-first /tmp/profile_one fused-bf16 8192 16384 block1024x2+w-late+cs+first" \
         "triton-8192x16384 python3 $k/peers.py --profile fused-bf16 8192 16384" \
         "ref-16384x1024-x1cap /tmp/profile_one fused-bf16 16384 1024 block128x1+cap" \
         "triton-16384x1024 python3 $k/peers.py --profile fused-bf16 16384 1024"; do
  set -- $c; prof "$@"
done
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> /tmp/smi.txt 2>&1
cp /tmp/tune-console.txt /tmp/bench04-console.txt /tmp/tune-build.txt /tmp/profile-build.txt /tmp/smi.txt \
  build/bench-04/ 2>> $log
cp /tmp/ncu-* build/bench-04/ 2>> $log
tar czf $OUT/results.tgz -C build bench-04/bench-04.csv bench-04/peers.csv bench-04/bench-04.svg bench-04/build.log \
  bench-04/tune-console.txt bench-04/bench04-console.txt bench-04/tune-build.txt bench-04/profile-build.txt \
  bench-04/smi.txt $(cd build && ls bench-04/ncu-* 2>/dev/null) 2>> $log
cat $log; grep -n "launches match\|copy (2 GiB)\|not timed\|your \|wrong\|FAIL" /tmp/tune-console.txt /tmp/bench04-console.txt | head -20
sed -n '/fused_add_rmsnorm, /,/^$/p' /tmp/bench04-console.txt | head -40
