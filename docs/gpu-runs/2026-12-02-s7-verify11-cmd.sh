#!/usr/bin/env bash
# Session 7, first call: main after the link-name fix (cc015d5) and the grader-input link check (5b48b94); the
# confined compile (nvcc inside bubblewrap with the device files) was broken on this machine in session 6:
#   1. the sandbox self-test; both lessons' solutions graded on gpu (one grade at a time)
#   2. on gpu: every cheat_* known answer of lesson 04 (the new ones first) and the new include_dev_zero, 6 at once,
#      (session 6 measured the fallback without namespaces; not repeated)
#   3. compute-sanitizer on lesson 04's solutions the first call did not reach, two grades at a time, only while
#      enough time is left for a grade to finish (an interrupted grade records nothing)
# Everything goes into one archive (a call returns at most eight files).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=/tmp/v11; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
left() { echo $(( ${LEFT:-370} - ( $(date +%s) - t0 ) )); }
finish() { tar czf "$OUT/verify11.tgz" -C /tmp v11; cp "$o/summary.txt" "$OUT/" 2>/dev/null; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
git log --oneline -1 | cut -c1-100 | tee -a "$o/summary.txt"
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers wb_sandbox_selftest wb-sandbox-run > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
build/grader/harness/wb_sandbox_selftest > "$o/sandbox-selftest.txt" 2>&1
log "sandbox self-test: exit $? — $(tail -1 "$o/sandbox-selftest.txt")"
wb=build/grader/cli/workbook
for l in 04 05; do
  $wb grade $l --solutions --backend gpu --seed 2026 --json-out "$o/solutions-$l.json" > "$o/solutions-$l.txt" 2>&1
  log "lesson $l solutions on gpu: exit $? — $(grep -m1 -E '^(PASSED|NOT PASSED)' "$o/solutions-$l.txt")"
done
python3 - > "$o/known-list.txt" <<'PY'
import json
w = [e["name"] for e in json.load(open("solutions/04-rmsnorm/wrong/wrong.json"))]
new = ["cheat_compile_include", "cheat_read_checkout", "include_dev_zero"]
cheats = [n for n in w if n.startswith("cheat_") and n not in new]
for n in new + cheats: print("ns", n)
PY
ka() {  # mode name
  [ "$(left)" -gt 150 ] || { echo "SKIPPED $1 $2"; return; }
  local s=$(date +%s) env=""
  [ "$1" = none ] && env="WORKBOOK_SANDBOX=none"
  env $env WORKBOOK_TEST_JOBS=1 timeout 90 build/tests/grading/known_answers --root "$PWD" --workbook "$PWD/$wb" \
    --work "/tmp/ka-$1-$2" --lesson 04-rmsnorm --backend gpu --wrong "$2" > "$o/ka-$1-$2.log" 2>&1 \
    && echo "ok $1 $2 ($(( $(date +%s) - s )) s)" || echo "FAILED $1 $2 ($(( $(date +%s) - s )) s)"
}
export -f ka left; export t0 o wb LEFT
xargs -P 6 -L 1 bash -c 'ka "$0" "$1"' < "$o/known-list.txt" > "$o/known-results.txt"
log "known answers on gpu: $(grep -c '^ok' "$o/known-results.txt") ok, $(grep -c '^FAILED' "$o/known-results.txt") failed, $(grep -c '^SKIPPED' "$o/known-results.txt") not started"
grep '^FAILED' "$o/known-results.txt" | tee -a "$o/summary.txt"
for f in $(grep '^ok' "$o/known-results.txt" | awk '{print "'"$o"'/ka-"$2"-"$3".log"}'); do rm -f "$f"; done
grade() {  # exercise
  local s=$(date +%s) l=$(left)
  [ "$l" -gt 110 ] || { echo "not started 04 $1" >> "$o/grades.txt"; return; }
  timeout "$l" "$wb" grade 04 --solutions --backend gpu --sanitize --seed 2026 --ex "$1" > "$o/san-$1.txt" 2>&1
  local rc=$?
  echo "exit $rc 04 $1 $(( $(date +%s) - s ))s: $(grep -m1 -E '^(PASSED|NOT PASSED)|Interrupted' "$o/san-$1.txt")" >> "$o/grades.txt"
  { echo "== 04 $1 (exit $rc)"; sed -n '/^compute-sanitizer/,/^$/p' "$o/san-$1.txt"
    [ "$rc" = 1 ] && grep -v -E '^\s*(✓|PASS|ok)' "$o/san-$1.txt" | head -60; } >> "$o/tools.txt"
}
( grade block_reduce; grade rmsnorm_vec ) &
( grade fused_add_rmsnorm; grade rmsnorm_fast ) &
wait
log "sanitized grades:"; cat "$o/grades.txt" | tee -a "$o/summary.txt"; cat "$o/tools.txt" >> "$o/summary.txt" 2>/dev/null
exit 0
