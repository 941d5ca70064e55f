#!/usr/bin/env bash
# Session 8's one GPU call for issue 13 (h-kernels8): lesson 04's reference kernels against the copy of the same
# bytes, and programmatic dependent launch as a labelled launch mode. Predictions, committed before the call:
# docs/gpu-runs/2026-12-07-kernels8-predictions.md (P1-P8). Self-locating: run it from anywhere as
#   OUT=/some/dir bash <tree>/benchmarks/04-rmsnorm/gpu-session8.sh
# where <tree> is this branch's checkout (its benchmarks/, solutions/04-rmsnorm/, exercises/04-rmsnorm/); it builds
# into /tmp/k8 and touches nothing of the tree. About 3 minutes (run 19, on an H100: 187 s; a budget of 230 s,
# every step guarded; the last ones are skipped, and say so, if time runs short). In one call:
#  1. nvidia-smi's clocks sampled every 500 ms for the whole call (clocks.csv), the versions (env.txt);
#  2. the benchmark built (bench.sh --build-only), and beside it the reference kernels again with -DRMSREF_NO_PDL
#     (no griddepcontrol pair at the start of each kernel: what the pair costs a plain launch, linked into bench-nopdl);
#  3. peers.py's torch and Triton at all 69 shapes (what `make bench-04` times first);
#  4. the tuning sweep at the five large shapes (bench --tune --large-only) for the norm in fp32, bf16, fp16 and the
#     fused add in bf16 (the groups with misses), each large shape also with: the rule's shape under programmatic
#     dependent launch ("reference+pdl"), the copy designs of the same bytes (row copies of 2 KiB rows and of the
#     kernel's own row, 1/2/4 words a thread; plain, plain with the pair ("+wait"), and "+pdl"), the grid-stride copy;
#  5. make_rule.py --base rule_table.h --long-tolerance 0.002 on that sweep: if a long-batch table changes, the three
#     objects that include the rule are rebuilt and linked (bench-rule). The committed rule and the figures of record
#     are the H200's: only on an H200 is the new rule one to adopt; on any other device the console and the summary
#     say "rule tuned on this device (<name>), not committed" (run 19 ran on an H100 and moved three long tables);
#  6. the whole benchmark (all 69 shapes, five groups, torch and Triton beside) with the rule as measured (bench, or
#     bench-rule where the rule changed): the tables of record;
#  7. the pair's cost: bench-nopdl and bench alternately (A B A B), --quick, the bf16 norm and fused add.
# Everything comes back as $OUT/console.txt (steps, rc, times), $OUT/summary.txt (the large-shape tables of step 6
# and the 512 x N sweep's ranges, under a line that says which rule they were timed with)
# and $OUT/results.tgz (every CSV, console, build log, ptxas report, the clocks, the new rule).
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
at() { echo "$(($(date +%s) - start)) s"; }
left() { echo $((${1:-230} - ($(date +%s) - start))); } # seconds left of the call's share
here=$(cd "$(dirname "$0")" && pwd)                     # benchmarks/04-rmsnorm of the tree under test
common=$(cd "$here/../common" && pwd)
OUT=${OUT:-/tmp/k8-out}
r=/tmp/k8
rm -rf $r && mkdir -p $r/obj-nopdl $OUT
log=$OUT/console.txt
echo "gpu-session8 from $here, $(date -u)" > $log
nvidia-smi --query-gpu=timestamp,name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 500 \
  > $r/clocks.csv 2>&1 &
smi=$!
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu \
    --format=csv
  nvcc --version | tail -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  (cd "$here" && git rev-parse HEAD 2>/dev/null)
} > $r/env.txt 2>&1

# 2. Builds: the benchmark, and the kernels without the pair (ptxas's registers kept for both).
flags=(-std=c++17 -O3 -arch=sm_90 -lineinfo)
BENCH_ARCH=sm_90 timeout "$(left 100)" "$here/bench.sh" --build-only --out $r/b > $r/build.txt 2>&1 &
bb=$!
compiles=()
for f in rmsnorm fused_add_rmsnorm; do
  nvcc "${flags[@]}" -Xptxas -v -DRMSREF_NO_PDL -c "$here/kernels/$f.cu" -o $r/obj-nopdl/kernels_$f.cu.o \
    > $r/ptxas-nopdl-$f.txt 2>&1 &
  compiles+=($!)
  # ptxas's registers of the plain build's kernels too (the pair is in every kernel now).
  nvcc "${flags[@]}" -Xptxas -v -c "$here/kernels/$f.cu" -o /dev/null > $r/ptxas-$f.txt 2>&1 &
  compiles+=($!)
done
wait $bb
echo "build rc $? at $(at)" >> $log
for p in "${compiles[@]}"; do wait "$p"; done # not the clock sampler, which runs to the end
ls $r/obj-nopdl/*.o >> $log 2>&1
# bench.sh's objects (obj/<path with / as _>.o): the lesson's kernels, its driver, the common files, the solutions.
others=("$r"/b/obj/bench_check.cu.o "$r"/b/obj/common_*.o "$r"/b/obj/solution_*.o)
nvcc "${flags[@]}" -o $r/bench-nopdl $r/obj-nopdl/kernels_rmsnorm.cu.o $r/obj-nopdl/kernels_fused_add_rmsnorm.cu.o \
  $r/b/obj/bench_suite.cu.o $r/b/obj/bench_bench.cu.o "${others[@]}" >> $r/build-nopdl.txt 2>&1
echo "bench-nopdl link rc $? at $(at)" >> $log
not_built=()
while read -r e; do [ -n "$e" ] && not_built+=(--not-built "$e"); done < $r/b/not-built

# 3. Peers at all 69 shapes, five groups.
timeout "$(left 130)" python3 "$here/peers.py" --csv $r/peers.csv > $r/peers-console.txt 2>&1
echo "peers rc $? at $(at)" >> $log

# 4. The tuning sweep at the large shapes (with the +pdl rows and the copy designs).
date=$(date -u +%F)
timeout "$(left 170)" $r/b/bench --tune --large-only --only rmsnorm:fp32 --only rmsnorm:bf16 --only rmsnorm:fp16 \
  --only fused_add_rmsnorm:bf16 --peers $r/peers.csv --csv $r/tune.csv --svg $r/tune.svg --date "$date" \
  "${not_built[@]}" > $r/tune-console.txt 2>&1
echo "tune rc $? at $(at)" >> $log

# 5. The rule from the sweep; rebuilt only if a table changed.
bin=$r/b/bench
python3 "$here/kernels/make_rule.py" --base "$here/kernels/rule_table.h" --long-tolerance 0.002 $r/tune.csv \
  > $r/rule_table.h 2>> $log
echo "make_rule rc $? at $(at)" >> $log
strip() { grep -v '^//' "$1" | grep -v '^ *//' | sed 's|//.*||; s/[[:space:]]//g' | grep -v '^$'; }
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -1)
rule_label="rule of record (benchmarks/04-rmsnorm/kernels/rule_table.h, tuned on the H200)"
if [ -s $r/rule_table.h ] &&
  ! diff <(strip "$here/kernels/rule_table.h") <(strip $r/rule_table.h) > $r/rule-diff.txt; then
  echo "rule changed (rule-diff.txt); rebuilding with it at $(at)" >> $log
  if [ "$(left)" -gt 100 ]; then
    mkdir -p $r/rule/kernels $r/rule/bench $r/obj-rule
    cp "$here"/kernels/* $r/rule/kernels/ && cp $r/rule_table.h $r/rule/kernels/rule_table.h
    cp "$here"/bench/* $r/rule/bench/
    ln -sfn "$common" $r/common # the copies' ../../common/ includes
    pids=()
    for f in kernels/rmsnorm.cu kernels/fused_add_rmsnorm.cu bench/suite.cu bench/bench.cu; do
      nvcc "${flags[@]}" -c "$r/rule/$f" -o "$r/obj-rule/${f//\//_}.o" >> $r/build-rule.txt 2>&1 &
      pids+=($!)
    done
    okall=1
    for p in "${pids[@]}"; do wait $p || okall=0; done
    if [ $okall = 1 ]; then
      nvcc "${flags[@]}" -o $r/bench-rule $r/obj-rule/*.o "${others[@]}" >> $r/build-rule.txt 2>&1 &&
        bin=$r/bench-rule
    fi
    if [ "$bin" = $r/bench-rule ]; then
      # The committed rule is the H200's: a tune on another chip is a finding, never the rule of record.
      case "$device" in
        *H200*) rule_label="rule tuned on this H200 ($device): to adopt, copy results.tgz's k8/rule_table.h over kernels/rule_table.h" ;;
        *) rule_label="rule tuned on this device ($device), not committed: the committed rule is the H200's" ;;
      esac
    fi
    echo "rule rebuild ok=$okall, timing with $bin at $(at)" >> $log
  else
    echo "no time to rebuild with the new rule: timing the committed rule" >> $log
  fi
else
  echo "rule unchanged at $(at)" >> $log
fi

# 6. The whole benchmark with the rule as measured (what make bench-04 runs after its peers).
echo "tables timed with the $rule_label" >> $log
if [ "$(left)" -gt 50 ]; then
  timeout "$(left 222)" $bin --peers $r/peers.csv --csv $r/bench04.csv --svg $r/bench04.svg --date "$date" \
    "${not_built[@]}" > $r/bench04-console.txt 2>&1
  echo "bench rc $? at $(at)" >> $log
else
  timeout "$(left 222)" $bin --large-only --peers $r/peers.csv --csv $r/bench04.csv --svg $r/bench04.svg \
    --date "$date" "${not_built[@]}" > $r/bench04-console.txt 2>&1
  echo "bench (large shapes only: time) rc $? at $(at)" >> $log
fi

# 7. The pair's cost on plain launches: the same driver without it (A) and with it (B), alternately.
for i in 1 2; do
  for v in nopdl pdl; do
    b=$r/bench-nopdl
    [ $v = pdl ] && b=$r/b/bench
    [ "$(left)" -gt 12 ] || { echo "ab $v $i skipped (time) at $(at)" >> $log; continue; }
    timeout "$(left 228)" $b --quick --only rmsnorm:bf16 --only fused_add_rmsnorm:bf16 --csv $r/ab-$v-$i.csv \
      --svg /dev/null --date "$date" "${not_built[@]}" > $r/ab-$v-$i-console.txt 2>&1
    echo "ab $v $i rc $? at $(at)" >> $log
  done
done

kill $smi 2> /dev/null
{
  echo "Timed on $device with the $rule_label."
  sed -n '/^###/,$p' $r/bench04-console.txt
} > $OUT/summary.txt 2>&1
tar czf $OUT/results.tgz --exclude=k8/b/obj --exclude=k8/b/bench --exclude=k8/bench-nopdl --exclude=k8/bench-rule \
  --exclude='k8/obj-*' --exclude=k8/rule --exclude=k8/common -C /tmp k8 2>> $log
echo "done at $(at)" >> $log
