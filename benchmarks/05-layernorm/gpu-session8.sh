#!/usr/bin/env bash
# h-layernorm8 (session 8, 2026-12-07): lesson 05's 16-bit LayerNorm on the H200, one call of about 3 minutes (run 20,
# on an H100: 168 s).
# Run from the repository root on the GPU machine (nvcc 13, PyTorch + Triton, ncu, cuobjdump); outputs under $OUT.
# Predictions, committed before the call: docs/gpu-runs/2026-12-07-layernorm8-predictions.md.
#  1. `make bench-05` as it is (benchmarks/05-layernorm/bench.sh: build, torch and Triton, every kernel checked and
#     timed at all 69 shapes in the four groups) with the new kernels and rule;
#  2. the kernels before this branch (main at b86af13, through git archive) and after, built into profile_one
#     (bench/profile_one.cu) while 1 builds, each timed one launch at a time at three bf16 shapes (old vs new in one
#     process each, same inputs), and Nsight Compute (--clock-control none) on each at bf16 16384 x 4096;
#  3. cuobjdump: registers and spills of every instance of both builds, the SASS of the two bf16 rule kernels;
#  4. with the time left, the tuning sweep (bench --tune --quick: every launch shape with and without the capped and
#     streaming options, at the 15 quick shapes of each group), for the rule.
# Everything in $OUT/results.tgz (no binaries, no SASS but the rule's two kernels: well under 16 MiB); also
# $OUT/console.txt (steps and times), $OUT/bench05-console.txt (the table),
# $OUT/bench-05.svg (the figure), $OUT/summary.txt (the lines the write-up needs first).
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
at() { echo "$(($(date +%s) - start)) s"; }
# Seconds left of the call's share (under 3 minutes), at least 1: `timeout 0` would mean no limit at all.
left() {
  local s=$((${1:-178} - ($(date +%s) - start)))
  echo $((s > 1 ? s : 1))
}
r=/tmp/ln8
mkdir -p $r
log="$OUT"/console.txt
step() { echo "$1 at $(at)" | tee -a "$log"; }
{
  date -u
  git log --oneline -1 | cut -c1-100
  git status --short | head -20 # a merge left uncommitted shows here, not in the line above
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  nvcc --version | tail -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
} > $r/smi.txt 2>&1

# 2 (builds): the old kernels from git, both profile_one binaries, in the background while bench.sh builds.
flags=(-std=c++17 -O3 -arch=sm_90 -lineinfo)
(
  mkdir -p /tmp/ln8-old && git archive b86af13 benchmarks | tar -x -C /tmp/ln8-old &&
    cp benchmarks/05-layernorm/bench/profile_one.cu /tmp/ln8-old/benchmarks/05-layernorm/bench/ &&
    cd /tmp/ln8-old/benchmarks/05-layernorm &&
    nvcc "${flags[@]}" -o $r/po-old bench/profile_one.cu kernels/layernorm.cu ../common/device_data.cu
) > $r/build-old.txt 2>&1 &
bo=$!
(cd benchmarks/05-layernorm && nvcc "${flags[@]}" -o $r/po-new bench/profile_one.cu kernels/layernorm.cu \
  ../common/device_data.cu) > $r/build-new.txt 2>&1 &
bn=$!

# 1: make bench-05.
timeout "$(left 150)" benchmarks/05-layernorm/bench.sh > $r/bench05-console.txt 2>&1
step "bench-05 rc $?"
for f in bench-05.csv bench-05.svg peers.csv build.log; do [ -f build/bench-05/$f ] && cp build/bench-05/$f $r/; done
cp $r/bench05-console.txt "$OUT"/ 2>/dev/null
cp $r/bench-05.svg "$OUT"/ 2>/dev/null
wait $bo; step "old profile_one build rc $?"
wait $bn; step "new profile_one build rc $?"

# 2 (timings and ncu): old and new, one launch at a time, 6 launches each (the first wakes the clocks).
for v in old new; do
  for s in "16384 1024" "16384 4096" "8192 16384"; do
    # shellcheck disable=SC2086
    [ -x $r/po-$v ] && timeout 30 $r/po-$v bf16 $s rule 6 >> $r/profile-one.txt 2>&1
  done
  [ -x $r/po-$v ] && timeout 30 $r/po-$v fp32 16384 4096 rule 6 >> $r/profile-one.txt 2>&1
  [ -x $r/po-$v ] && timeout 30 $r/po-$v fused-bf16 8192 16384 rule 6 >> $r/profile-one.txt 2>&1
done
step "profile_one timings done"
for v in old new; do
  [ -x $r/po-$v ] && timeout "$(left 160)" ncu --clock-control none -k regex:layernorm --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis $r/po-$v bf16 16384 4096 rule 3 > $r/ncu-$v.txt 2>&1
  step "ncu $v rc $?"
done

# 3: registers, spills and SASS of both builds. The full SASS dumps (44 and 68 MB in run 20) stay outside the archive,
# which must come back under 16 MiB: only the rule's two kernels are kept, below.
sass=/tmp/ln8-sass
mkdir -p $sass
for v in old new; do
  [ -x $r/po-$v ] || continue
  cuobjdump -res-usage $r/po-$v > $r/res-usage-$v.txt 2>&1
  cuobjdump -sass $r/po-$v > $sass/sass-all-$v.txt 2>&1
done
# The rule's bf16 kernels at 16384 x 4096: old block512x1 weight late ALIGNED, new block256x2 weight late ALIGNED
# (streaming since run 20: the last template flag 1).
python3 - "$sass" > $r/sass-rule-kernels.txt 2>&1 <<'PY'
import re, sys
r = sys.argv[1]
want = {"old": r"layernorm_regs_kernelI13__nv_bfloat16Li0ELi1ELb0ELb0ELb1E",
        "new": r"layernorm_regs_kernelI13__nv_bfloat16Li0ELi2ELb0ELb0ELb1ELb[01]E"}
for v, pat in want.items():
    try:
        text = open(f"{r}/sass-all-{v}.txt").read()
    except OSError:
        continue
    for block in re.split(r"\n(?=\s+Function : )", text):
        if re.search(pat, block.split("\n", 1)[0]):
            print(f"===== {v}\n{block}")
PY
step "cuobjdump done"

# 4: the tuning sweep with what is left (its CSV is written after every group).
if [ "$(left 178)" -gt 15 ]; then
  timeout "$(left 178)" build/bench-05/bench --tune --quick --replays 10 --csv $r/tune.csv --svg $r/tune.svg \
    > $r/tune-console.txt 2>&1
  step "tune rc $?"
else
  step "tune skipped (time)"
fi

{
  date -u
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv
} >> $r/smi.txt 2>&1
{
  cat $r/smi.txt
  grep -E "roofline|copies|FAILED|WRONG|wrong|NOT TIMED|match the fp64" $r/bench05-console.txt | head -20
  cat $r/profile-one.txt
  grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|DRAM Throughput|Memory Throughput|Duration|Issue Slots|No Eligible|Block Limit Registers" $r/ncu-old.txt $r/ncu-new.txt
  grep -E "REG|STACK|LOCAL" $r/res-usage-new.txt | grep -c . | sed 's/^/res-usage lines (new): /'
} > "$OUT"/summary.txt 2>&1
cp "$log" $r/console-copy.txt
# The archive holds no binaries (the two profile_one builds, about 10 MB together) and no full SASS.
tar czf "$OUT"/results.tgz -C /tmp --exclude='ln8/po-old' --exclude='ln8/po-new' ln8 2>> "$log"
du -k "$OUT"/results.tgz | tee -a "$log" # KiB: must stay under 16384
cat "$OUT"/summary.txt
step "done"
