#!/usr/bin/env bash
# Second short call: the timed rmsnorm_fast test after the judge's file-size fix; compute-sanitizer on two wrong
# answers of lesson 04; as many of lesson 05's remaining known answers as fit.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
build/grader/cli/workbook grade 04 --solutions --backend gpu --ex rmsnorm_fast --seed 2026 --json-out "$o/fast.json" > "$o/fast.txt" 2>&1
log "rmsnorm_fast solution on gpu: exit $? — $(grep -E '^(PASSED|NOT PASSED)' "$o/fast.txt" | head -1)"
grep -A3 '^Performance' "$o/fast.txt" | tee -a "$o/summary.txt"
python3 -c "import json; r=json.load(open('$o/fast.json')); print('leaderboard:', r.get('leaderboard'))" | tee -a "$o/summary.txt"
for n in missing_barrier_before_broadcast cache_no_bounds_check; do
  ( timeout 200 build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --work "/tmp/ka-$n" \
      --lesson 04-rmsnorm --backend gpu --sanitize --wrong "$n" > "/tmp/ka-$n.log" 2>&1
    echo "exit $? $n: $(grep -E 'compute-sanitizer errors|FAILED|rejected' "/tmp/ka-$n.log" | head -3 | tr '\n' ' ')" >> "$o/sanitize.txt" ) &
done
python3 -c "
import json
done = set(l.split()[2] for l in open('.gpu-lead/known-05-done.txt') if l.startswith('ok'))
for k in ('wrong', 'alt'):
    for e in json.load(open(f'solutions/05-layernorm/{k}/{k}.json')):
        if e['name'] not in done: print(k, e['name'])" > /tmp/ka05.txt
ka05() {
  build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson 05-layernorm \
    --work "/tmp/ka05-$2" --backend gpu --"$1" "$2" > "/tmp/ka05-$2.log" 2>&1 && echo "ok $1 $2" || echo "FAILED $1 $2"
}
export -f ka05
WORKBOOK_TEST_JOBS=1 timeout 190 xargs -P 6 -L 1 bash -c 'ka05 "$0" "$1"' < /tmp/ka05.txt > "$o/known-05.txt"
wait
log "lesson 05 known answers on gpu (this call): $(grep -c '^ok' "$o/known-05.txt") ok, $(grep -c '^FAILED' "$o/known-05.txt") failed, of $(wc -l < /tmp/ka05.txt) left"
for f in $(grep '^FAILED' "$o/known-05.txt" | awk '{print "/tmp/ka05-"$3".log"}'); do { echo "=== $f"; tail -30 "$f"; } >> "$o/known-05-failures.txt"; done
log "sanitize:"; cat "$o/sanitize.txt" | tee -a "$o/summary.txt"
exit 0
