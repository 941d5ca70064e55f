#!/usr/bin/env bash
# The session's last GPU call: the merged main on the H200, each step bounded so that the call ends in time.
#   1. build; grade the solutions on gpu (the timed rmsnorm_fast test: bandwidth line and leaderboard)
#   2. fp8: the emulator's conversions against the GPU's (tests/gpu/fp8_gpu.cu, emu_compare_fp8)
#   3. compute-sanitizer on four wrong answers that are memory or synchronization bugs (known_answers --sanitize)
#   4. bench-04 --tune (the reference kernels' launch shapes, the copy kernel)
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
left() { echo $(( ${BUDGET_S:-540} - ($(date +%s) - t0) )); }
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -30 /tmp/cfg.log > "$o/configure.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers emu_compare_fp8 > /tmp/build.log 2>&1 || { log "build failed"; grep -m30 -B2 error /tmp/build.log > "$o/build-errors.txt"; exit 1; }
log "built"
build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 --json-out "$o/solutions.json" > "$o/solutions.txt" 2>&1
log "lesson 04 solutions on gpu: exit $? — $(grep -E '^(PASSED|NOT PASSED)' "$o/solutions.txt" | head -1)"
grep -A3 '^Performance' "$o/solutions.txt" | tee -a "$o/summary.txt"
build/grader/cli/workbook grade 05 --solutions --backend gpu --seed 2026 > "$o/solutions-05.txt" 2>&1
log "lesson 05 solutions on gpu: exit $? — $(grep -E '^(PASSED|NOT PASSED)' "$o/solutions-05.txt" | head -1)"
# Lesson 05's known answers on gpu, 8 at a time.
python3 -c "
import json
for k in ('wrong', 'alt'):
    for e in json.load(open(f'solutions/05-layernorm/{k}/{k}.json')): print(k, e['name'])" > /tmp/ka05.txt
ka05() {
  build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson 05-layernorm \
    --work "/tmp/ka05-$2" --backend gpu --"$1" "$2" > "/tmp/ka05-$2.log" 2>&1 && echo "ok $1 $2" || echo "FAILED $1 $2"
}
export -f ka05
WORKBOOK_TEST_JOBS=1 timeout 150 xargs -P 8 -L 1 bash -c 'ka05 "$0" "$1"' < /tmp/ka05.txt > "$o/known-05.txt"
log "lesson 05 known answers on gpu: $(grep -c '^ok' "$o/known-05.txt") ok, $(grep -c '^FAILED' "$o/known-05.txt") failed, of $(wc -l < /tmp/ka05.txt)"
for f in $(grep '^FAILED' "$o/known-05.txt" | awk '{print "/tmp/ka05-"$3".log"}'); do { echo "=== $f"; tail -30 "$f"; } >> "$o/known-05-failures.txt"; done
nvcc -std=c++17 -O2 -arch=sm_90 -I grader/emulator/tests/gpu grader/emulator/tests/gpu/fp8_gpu.cu -o /tmp/fp8_gpu > /tmp/fp8-build.log 2>&1 \
  && /tmp/fp8_gpu /tmp/gpu-fp8.bin > "$o/fp8.txt" 2>&1 && build/grader/emulator/tests/types/emu_compare_fp8 /tmp/gpu-fp8.bin >> "$o/fp8.txt" 2>&1
log "fp8 against the GPU: exit $? — $(tail -1 "$o/fp8.txt")"
ka() {
  timeout $(( $(left) - 120 )) build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook \
    --work "/tmp/ka-$1" --lesson 04-rmsnorm --backend gpu --sanitize --wrong "$1" > "/tmp/ka-$1.log" 2>&1
  echo "exit $? $1: $(grep -E 'compute-sanitizer errors|FAILED' "/tmp/ka-$1.log" | head -2 | tr '\n' ' ')"
}
if [ "$(left)" -gt 300 ]; then
  for n in missing_barrier_before_broadcast cache_no_bounds_check aligned_only_no_prefix; do
    WORKBOOK_TEST_JOBS=2 ka "$n" &
  done > "$o/sanitize-known.txt"
  wait
  log "sanitize known answers:"; cat "$o/sanitize-known.txt" | tee -a "$o/summary.txt"
fi
if [ "$(left)" -gt 100 ]; then
  timeout $(( $(left) - 20 )) benchmarks/04-rmsnorm/bench.sh --tune --no-peers --out /tmp/bench > "$o/bench.txt" 2>&1
  log "bench-04 --tune: exit $?"
  tar czf "$o/bench.tgz" -C /tmp bench 2>/dev/null
fi
log "done"
# At most eight files come back: the summary, the two reports, and the rest in one archive.
cd "$o" && tar czf outputs.tgz --exclude=outputs.tgz --exclude=summary.txt --exclude=solutions.txt --exclude=solutions-05.txt -- * 2>/dev/null
find "$o" -maxdepth 1 -type f ! -name summary.txt ! -name outputs.tgz ! -name solutions.txt ! -name solutions-05.txt -delete
find "$o" -mindepth 1 -type d -exec rm -rf {} + 2>/dev/null
exit 0
