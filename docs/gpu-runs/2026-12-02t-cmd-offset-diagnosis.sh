#!/usr/bin/env bash
# NOT RUN (h-kernels7b, session 7): the call that would tell where run 16's +0.2-0.35 us a launch came from. Run from
# the checkout's root with this branch's benchmarks/{common,04-rmsnorm,05-layernorm} in .gpu-kernels7b/ and the
# checkout's own benchmarks/ as they were before it (the old driver: one grid-stride copy at the start of the run).
#  1. the old driver built from the checkout's tree, the new one from .gpu-kernels7b/ (both --build-only, at once);
#  2. old, new, old, new: `bench --quick --only rmsnorm:bf16` (no peers), with the SM clock sampled every 100 ms;
#  3. the per-shape copy and the reference at 512 x N compared between the four (run 13: copy 512 x 128 1.48 us,
#     run 16: 1.84). About 90 s on the machine.
set -uo pipefail
start=$(date +%s)
at() { echo "$(($(date +%s) - start)) s"; }
log=$OUT/console.txt
benchmarks/04-rmsnorm/bench.sh --build-only --out /tmp/old > /tmp/build-old.txt 2>&1 &
o=$!
mkdir -p /tmp/newtree && cp -r benchmarks /tmp/newtree/ && cp -r exercises solutions /tmp/newtree/ 2>/dev/null
for d in common 04-rmsnorm 05-layernorm; do rm -rf /tmp/newtree/benchmarks/$d; cp -r .gpu-kernels7b/benchmarks/$d /tmp/newtree/benchmarks/; done
/tmp/newtree/benchmarks/04-rmsnorm/bench.sh --build-only --out /tmp/new > /tmp/build-new.txt 2>&1
echo "new build rc $? at $(at)" >> $log
wait $o; echo "old build rc $? at $(at)" >> $log
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 > $OUT/clocks.csv &
c=$!
for i in 1 2; do
  for v in old new; do
    timeout 60 /tmp/$v/bench --quick --only rmsnorm:bf16 --csv /tmp/$v-$i.csv --svg /tmp/$v-$i.svg > /tmp/$v-$i.txt 2>&1
    echo "$v $i rc $? at $(at)" >> $log
  done
done
kill $c
for f in /tmp/old-1 /tmp/new-1 /tmp/old-2 /tmp/new-2; do
  echo "== $f: $(grep -m1 'copies\|copy (2 GiB)' $f.txt)"
  awk -F, '$5 == 512 && ($8 == "copy" || $8 == "reference") {print $8, $6, $12}' $f.csv
done >> $log
tar czf $OUT/results.tgz /tmp/old-?.* /tmp/new-?.* /tmp/build-*.txt 2>> $log
cat $log
