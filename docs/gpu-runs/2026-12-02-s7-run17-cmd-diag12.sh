#!/usr/bin/env bash
# Session 7, last call:
#  1. run 16's per-launch offset (+0.2-0.35 us on every kernel the C++ driver timed): the driver before the new
#     roofline (old, 638a59c's benchmarks) against the new one and three variants of its start (no cudaMemcpyAsync
#     candidate; no check before the copies' timing; no row copies), `bench --quick --only rmsnorm:bf16` each, SM clock
#     sampled;
#  2. the merged main's grading on gpu: lesson 04's solutions and four cheats.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=/tmp/d12; mkdir -p "$o"; t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
left() { echo $(( ${LEFT:-400} - ( $(date +%s) - t0 ) )); }
finish() { tar czf "$OUT/diag12.tgz" -C /tmp d12; cp "$o/summary.txt" "$OUT/" 2>/dev/null; }
trap finish EXIT
git log --oneline -1 | cut -c1-100 | tee -a "$o/summary.txt"
for v in old new nomem nocheck norow; do
  mkdir -p /tmp/t-$v && cp -r exercises solutions /tmp/t-$v/
  if [ $v = old ]; then cp -r .gpu-lead/diag/old/benchmarks /tmp/t-$v/; else cp -r benchmarks /tmp/t-$v/; fi
  case $v in old|new) ;; *) python3 .gpu-lead/diag/variants.py /tmp/t-$v/benchmarks/common/sweep.cu $v ;; esac
  /tmp/t-$v/benchmarks/04-rmsnorm/bench.sh --build-only --no-peers --out /tmp/b-$v > "$o/build-$v.txt" 2>&1 &
done
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || log "configure failed"
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > /tmp/build.log 2>&1 || { log "grader build failed"; grep -m20 error /tmp/build.log >> "$o/summary.txt"; }
wait
log "built: $(for v in old new nomem nocheck norow; do [ -x /tmp/b-$v/bench ] && echo -n "$v "; done)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > "$o/clocks.csv" &
c=$!
for v in old new nomem nocheck norow old new; do
  [ "$(left)" -gt 200 ] || { log "not run: $v"; continue; }
  i=1; [ -e "$o/$v-1.csv" ] && i=2
  timeout 60 /tmp/b-$v/bench --quick --only rmsnorm:bf16 --csv "$o/$v-$i.csv" --svg /tmp/$v-$i.svg > "$o/$v-$i.txt" 2>&1
  log "$v $i rc $?: $(grep -m1 -o 'copies (2 GiB).*\|copy (2 GiB).*' "$o/$v-$i.txt" | cut -c1-150)"
  log "   512-row bf16 copy / reference us: $(awk -F, '$5==512 && $4=="bf16" && $3=="rmsnorm" && ($7=="copy" || $8=="reference") {printf "%s:%s=%s ", $6, $7, $12}' "$o/$v-$i.csv")"
done
kill $c
wb=build/grader/cli/workbook
$wb grade 04 --solutions --backend gpu --seed 2026 > "$o/solutions-04.txt" 2>&1
log "lesson 04 solutions on gpu: exit $? — $(grep -m1 -E '^(PASSED|NOT PASSED)' "$o/solutions-04.txt")"
for n in cheat_compile_include cheat_tamper_cache cheat_read_checkout cheat_protocol_forge; do
  WORKBOOK_TEST_JOBS=1 timeout 90 build/tests/grading/known_answers --root "$PWD" --workbook "$PWD/$wb" \
    --work "/tmp/ka-$n" --lesson 04-rmsnorm --backend gpu --wrong "$n" > "$o/ka-$n.log" 2>&1 && echo "ok $n" >> "$o/ka.txt" || echo "FAILED $n" >> "$o/ka.txt" &
done
wait
log "cheats on gpu: $(tr '\n' ' ' < "$o/ka.txt")"
exit 0
