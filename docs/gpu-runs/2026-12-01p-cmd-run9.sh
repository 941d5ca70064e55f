#!/usr/bin/env bash
# h-kernels5, run 9 (2026-12-01, session 5, call 1 of 3): diagnosis. Nsight Compute (--clock-control none) on the
# reference bf16 norm and Triton's one-step kernel where the reference is behind (8192 x 16384; 512 x 6144 of the
# sweep) and at the two large shapes short of 95 % of copy (16384 x 1024, 4096 x 5120, with the copy of the same
# bytes); then the existing tuning sweep of the bf16 norm alone (bench --tune --only rmsnorm:bf16), a fresh baseline.
# Runs from /work/main's copy with this branch's benchmarks/ in .gpu-kernels5/.
set -uo pipefail
cd .gpu-kernels5
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv;
  ncu --version | tail -1; } > $OUT/smi.txt 2>&1
b=benchmarks/04-rmsnorm
timeout 150 $b/bench.sh --build-only --out /tmp/b4 > $OUT/build.txt 2>&1; echo "build rc $?" >> $OUT/build.txt
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o /tmp/profile_one $b/bench/profile_one.cu /tmp/b4/obj/kernels_rmsnorm.cu.o \
  /tmp/b4/obj/common_device_data.o >> $OUT/build.txt 2>&1
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,sm__warps_active.avg.pct_of_peak_sustained_active,\
sm__cycles_active.avg,sm__cycles_active.min,sm__cycles_active.max,sm__cycles_elapsed.max,launch__registers_per_thread,\
launch__occupancy_limit_registers,launch__waves_per_multiprocessor,launch__grid_size,launch__block_size,\
smsp__inst_executed.sum,smsp__cycles_active.avg,\
regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
prof() {  # name, then the command; the second launch of the kernel is profiled (the first warms)
  local name=$1; shift
  timeout 60 ncu --clock-control none --cache-control all -k regex:'rmsnorm|copy' --launch-skip 1 --launch-count 1 \
    --csv --page raw --metrics "$M" "$@" > /tmp/ncu-$name.csv 2> /tmp/ncu-$name.err
  local rc=$?
  echo "$name rc $rc" >> $OUT/ncu-log.txt
  # A metric name this ncu does not know fails the whole run: then the sections' own text instead.
  if [ $rc -ne 0 ]; then
    timeout 60 ncu --clock-control none --cache-control all -k regex:'rmsnorm|copy' --launch-skip 1 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis "$@" > /tmp/ncu-$name.txt 2>> /tmp/ncu-$name.err
    echo "$name sections rc $?" >> $OUT/ncu-log.txt
  fi
}
for c in "ref-8192x16384 /tmp/profile_one bf16 8192 16384 rule" \
         "triton-8192x16384 python3 $b/peers.py --profile bf16 8192 16384" \
         "ref-512x6144 /tmp/profile_one bf16 512 6144 rule" \
         "ref-512x6144-fill /tmp/profile_one bf16 512 6144 block512x2" \
         "triton-512x6144 python3 $b/peers.py --profile bf16 512 6144" \
         "ref-16384x1024 /tmp/profile_one bf16 16384 1024 rule" \
         "copy-16384x1024 /tmp/profile_one bf16 16384 1024 copy" \
         "ref-4096x5120 /tmp/profile_one bf16 4096 5120 rule" \
         "copy-4096x5120 /tmp/profile_one bf16 4096 5120 copy"; do
  set -- $c; prof "$@"
done
# The existing tuning sweep, bf16 norm only (fresh baseline of every shape at this session's clocks).
timeout 120 /tmp/b4/bench --tune --only rmsnorm:bf16 --csv /tmp/b4/tune.csv --svg /tmp/b4/tune.svg \
  --date "$(date -u +%F)" > $OUT/tune-console.txt 2>&1; echo "tune rc $?" >> $OUT/tune-console.txt
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
tar czf $OUT/ncu.tgz -C /tmp $(cd /tmp && ls ncu-*) 2>> $OUT/smi.txt
gzip -c /tmp/b4/tune.csv > $OUT/tune.csv.gz
cat $OUT/ncu-log.txt; grep -n "launches match\|copy (2 GiB)\|rc " $OUT/tune-console.txt $OUT/build.txt
