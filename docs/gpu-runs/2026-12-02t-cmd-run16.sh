#!/usr/bin/env bash
# h-kernels7b, run 16 (2026-12-02, session 7): the benchmarks with the new roofline (the fastest of four 2 GiB copies
# measured in the same run). Run from the checkout's root with this branch's benchmarks/{common,04-rmsnorm,05-layernorm}
# in .gpu-kernels7b/ (the machine copies the checkout, not the worktree); copied over the tree's before building.
#  1. both benchmarks built at once (bench.sh --build-only, into build/bench-04 and build/bench-05);
#  2. `make bench-04`'s run (bench.sh --no-build: peers.py's torch and Triton first, then every kernel checked and
#     timed at all 69 shapes, fp32/bf16/fp16 norm and fused bf16/fp32);
#  3. if time remains, bench-05's the same way.
# Everything comes back in one archive ($OUT/results.tgz), the plot and the consoles.
set -uo pipefail
export PYTHONUNBUFFERED=1
start=$(date +%s)
at() { echo "$(($(date +%s) - start)) s"; }
left() { echo $((${1:-250} - ($(date +%s) - start))); } # seconds left of the call's share
r=/tmp/k7b
mkdir -p $r
log=$OUT/console.txt
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  nvcc --version | tail -1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
} > $r/smi.txt 2>&1
for d in common 04-rmsnorm 05-layernorm; do rm -rf benchmarks/$d && cp -r .gpu-kernels7b/benchmarks/$d benchmarks/$d; done
git diff --stat HEAD -- benchmarks > $r/tree-diff.txt 2>&1
benchmarks/04-rmsnorm/bench.sh --build-only > $r/build04.txt 2>&1 &
b4=$!
benchmarks/05-layernorm/bench.sh --build-only > $r/build05.txt 2>&1 &
b5=$!
wait $b4; echo "bench-04 build rc $? at $(at)" >> $log
wait $b5; echo "bench-05 build rc $? at $(at)" >> $log
timeout $(left 200) benchmarks/04-rmsnorm/bench.sh --no-build > $r/bench04-console.txt 2>&1
echo "bench-04 rc $? at $(at)" >> $log
if [ "$(left 250)" -gt 70 ]; then
  timeout $(left 250) benchmarks/05-layernorm/bench.sh --no-build > $r/bench05-console.txt 2>&1
  echo "bench-05 rc $? at $(at)" >> $log
else
  echo "bench-05 skipped (time) at $(at)" >> $log
fi
{
  date -u
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv
} >> $r/smi.txt 2>&1
for n in 04 05; do
  for f in bench-$n.csv bench-$n.svg peers.csv build.log; do
    [ -f build/bench-$n/$f ] && cp build/bench-$n/$f $r/bench$n-$f
  done
done
cp $log $r/console-copy.txt
tar czf $OUT/results.tgz -C /tmp k7b 2>> $log
cp $r/bench04-console.txt $OUT/ 2>/dev/null
cp $r/bench04-bench-04.svg $OUT/bench-04.svg 2>/dev/null
cat $log $r/smi.txt
grep -E "roofline|copies|FAILED|WRONG|NOT TIMED|rc " $r/bench04-console.txt $r/bench05-console.txt 2>/dev/null | head -30
