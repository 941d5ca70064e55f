#!/usr/bin/env bash
# h-kernels5, run 10 (2026-12-01, session 5, call 2 of 3): the tuning sweep of the 16-bit norm with the new
# candidates (+rows2, +rows4, +pipe), the reference's current rule and the copy timed by peers.py's own harness beside
# torch and Triton (peers.py --ref-lib), and Nsight Compute on the fastest new shapes and on the copy at 8192 x 16384.
# Runs from /work/main's copy with this branch's benchmarks/ in .gpu-kernels5/.
set -uo pipefail
cd .gpu-kernels5
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/smi.txt 2>&1
b=benchmarks/04-rmsnorm
# The bridge library (peers.py --ref-lib) compiles while bench.sh builds the driver.
{ nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler -fPIC -shared -o /tmp/libbench04_ref.so $b/bench/peer_bridge.cu \
    $b/kernels/rmsnorm.cu benchmarks/common/device_data.cu; echo "bridge rc $?"; } > /tmp/bridge.log 2>&1 &
timeout 200 $b/bench.sh --build-only --out /tmp/b4 > $OUT/build.txt 2>&1; echo "build rc $?" >> $OUT/build.txt
wait
cat /tmp/bridge.log >> $OUT/build.txt
nvcc -std=c++17 -O3 -arch=sm_90 -o /tmp/profile_one $b/bench/profile_one.cu /tmp/b4/obj/kernels_rmsnorm.cu.o \
  /tmp/b4/obj/common_device_data.o >> $OUT/build.txt 2>&1
# 1. The tuning sweep, bf16 norm (fp16 takes bf16's rule).
timeout 200 /tmp/b4/bench --tune --only rmsnorm:bf16 --csv /tmp/b4/tune.csv --svg /tmp/b4/tune.svg \
  --date "$(date -u +%F)" > $OUT/tune-console.txt 2>&1; echo "tune rc $?" >> $OUT/tune-console.txt
# 2. One harness for all: torch, Triton, the reference (current rule) and the copy, timed by peers.py.
timeout 150 python3 $b/peers.py --csv /tmp/b4/peers.csv --ref-lib /tmp/libbench04_ref.so --only rmsnorm:bf16 \
  --only rmsnorm:fp16 > $OUT/peers-console.txt 2>&1; echo "peers rc $?" >> $OUT/peers-console.txt
# 3. Nsight Compute on the fastest new shape at three sizes, and on the copy at 8192 x 16384.
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,\
sm__cycles_elapsed.max,launch__registers_per_thread,launch__occupancy_limit_registers,launch__waves_per_multiprocessor,\
launch__grid_size,launch__block_size,smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
best=$(python3 - /tmp/b4/tune.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["source"] == "tune" and r["status"] == "ok"]
for m, n in ((512, 6144), (8192, 16384), (4096, 5120)):
    new = [r for r in rows if int(r["M"]) == m and int(r["N"]) == n and ("+rows" in r["shape"] or "+pipe" in r["shape"])]
    if new:
        print(f"{m}:{n}:{min(new, key=lambda r: float(r['median_us']))['shape']}")
PY
)
for c in $best 8192:16384:copy; do
  IFS=: read -r m n shape <<< "$c"
  timeout 60 ncu --clock-control none --cache-control all -k regex:'rmsnorm|copy' --launch-skip 1 --launch-count 1 \
    --csv --page raw --metrics "$M" /tmp/profile_one bf16 $m $n $shape > /tmp/ncu-$m-$n-$shape.csv 2>&1
  echo "ncu $m $n $shape rc $?" >> $OUT/ncu-log.txt
done
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
gzip -c /tmp/b4/tune.csv > $OUT/tune.csv.gz
cp /tmp/b4/peers.csv $OUT/peers.csv
tar czf $OUT/ncu.tgz -C /tmp $(cd /tmp && ls ncu-*.csv) 2>> $OUT/smi.txt
cat $OUT/ncu-log.txt; grep -n "launches match\|copy (2 GiB)\|rc " $OUT/tune-console.txt $OUT/build.txt $OUT/peers-console.txt
