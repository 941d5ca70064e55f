#!/usr/bin/env bash
# The copy study's one GPU call (session 7, h-kernels7), run from the checkout's root with this branch's benchmarks/
# in .gpu-kernels7/benchmarks (the machine copies the checkout, not the worktree). In one call:
#  1. copy_study built from those sources (ptxas's registers kept), and while it builds the Python peers of the bf16
#     norm at the quick shapes (torch.nn.functional.rms_norm and the Triton one-step kernel, 16384 x 1024 among them);
#  2. copy_study twice (every design checked, then timed at 32 MiB, the size scan; the bf16 and fp16 norm's every
#     launch shape at 16384 x 1024), then its programmatic-dependent-launch designs in a process of their
#     own;
#  3. Nsight Compute on single launches (caches flushed, and not) of the benchmark's copy, the three fastest copy
#     designs of the first run and the norm's rule shape: elapsed and active cycles.
# (Run 15 also timed and profiled the norm's kOptPersistent shapes, removed after it: docs/gpu-runs.md, and the
# script as it ran, docs/gpu-runs/2026-12-02s-cmd-run15.sh.)
# Everything comes back in one archive ($OUT/results.tgz) and the console.
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
at() { echo "$(($(date +%s) - start)) s"; }
left() { echo $((${1:-200} - ($(date +%s) - start))); } # seconds left of the call's share
r=/tmp/k7
mkdir -p $r
log=$r/console.txt
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  nvcc --version | tail -1
  ncu --version | tail -1
} > $r/smi.txt 2>&1
rm -rf benchmarks && cp -r .gpu-kernels7/benchmarks benchmarks
b=benchmarks
(timeout 90 python3 $b/04-rmsnorm/peers.py --csv $r/peers.csv --only rmsnorm:bf16 --quick > $r/peers-console.txt 2>&1
  echo "peers rc $? at $(at)" >> $log) &
pp=$!
o=$r/obj
mkdir -p $o
pids=()
for f in 04-rmsnorm/copy-study/copy_study.cu 04-rmsnorm/kernels/rmsnorm.cu 04-rmsnorm/bench/check.cu \
  common/timing.cu common/copies.cu common/device_data.cu common/sweep.cu common/verdict.cu; do
  nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -Xptxas -v -c $b/$f -o $o/$(echo $f | tr / _).o \
    > $o/$(echo $f | tr / _).ptxas.txt 2>&1 &
  pids+=($!)
done
brc=0
for p in "${pids[@]}"; do wait $p || brc=1; done
nvcc -arch=sm_90 -o $r/copy_study $o/*.o >> $log 2>&1 || brc=1
echo "build rc $brc at $(at)" >> $log
wait $pp # the peers' timing ends before the study's begins: one process on the GPU at a time
if [ $brc = 0 ]; then
  timeout $(left 120) $r/copy_study --csv $r/study1.csv > $r/study1.txt 2>&1
  echo "study 1 rc $? at $(at)" >> $log
  timeout $(left 140) $r/copy_study --csv $r/study2.csv > $r/study2.txt 2>&1
  echo "study 2 rc $? at $(at)" >> $log
  timeout $(left 150) $r/copy_study --pdl --csv $r/pdl.csv > $r/pdl.txt 2>&1
  echo "pdl rc $? at $(at)" >> $log
  # The three fastest copy designs of run 1 at 32 MiB and the norm's rule shape.
  top=$(awk -F, 'NR > 1 && $2 == 33554432 && $1 !~ /^norm/ && $1 != "bench-copy" && $1 != "memcpy"' $r/study1.csv |
    sort -t, -k3 -g | head -3 | cut -d, -f1 | paste -sd,)
  rule=$(awk -F, 'NR > 1 && $1 ~ /^norm-rule:/ {sub("norm-rule:", "norm:", $1); print $1; exit}' $r/study1.csv)
  names="bench-copy,$top,$rule"
  echo "profiled: $names" >> $log
  M="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg,sm__cycles_active.max,\
gpc__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread,launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,\
lts__t_sector_hit_rate.pct,smsp__inst_executed.sum"
  for cc in all none; do
    [ "$(left 195)" -gt 20 ] || { echo "ncu $cc skipped (time) at $(at)" >> $log; continue; }
    timeout $(($(left 195) - 5)) ncu --clock-control none --cache-control $cc --csv --page raw --metrics "$M" \
      -k regex:'grid_stride|row_kernel|persistent_rows|bulk_copy|copy16|rmsnorm_' \
      $r/copy_study --profile "$names" > $r/ncu-$cc.csv 2> $r/ncu-$cc.err
    echo "ncu $cc rc $? at $(at)" >> $log
  done
fi
{
  date -u
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv
} >> $r/smi.txt 2>&1
cp $log $r/console-copy.txt
tar czf $OUT/results.tgz --exclude="k7/obj/*.o" --exclude=k7/copy_study -C /tmp k7 2>> $log
cat $log
for s in study1 study2 pdl; do
  echo "== $s"
  grep -E "WRONG|checked|roofline|rows in" $r/$s.txt
  sed -n '/^| design (32 MiB/,/^$/p' $r/$s.txt | head -34
  sed -n '/^| design | t0/,/^$/p' $r/$s.txt
done
grep -E "16384,1024" $r/peers.csv
