#!/usr/bin/env bash
# A verification call on a GPU machine: what a grade on `gpu` does to the course as it stands, in one call.
#   1. the sandbox self-test; both lessons' solutions graded on gpu, one grade at a time;
#   2. lesson 04's known answers named on the command line, and every cheat_*, graded on gpu six at a time (each must
#      be rejected for its stated reason, as known_answers checks it on emu).
# Everything goes into one archive, $OUT/verify.tgz, and summary.txt beside it. Needs .deps/ carried
# (scripts/gpu/unpack-deps.sh says how to make it). From the repository root, as one device call:
#   LEFT=330 timeout 420 bash scripts/gpu/verify-grades.sh hunt_mask_host_forged_write pick_packs_host_forged_write
# (LEFT: no known answer starts after this many seconds of the script.) The calls that ran before this script existed
# are recorded as they ran in docs/gpu-runs/*-verify*-cmd.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/gpu/unpack-deps.sh
o=/tmp/verify; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
left() { echo $(( ${LEFT:-420} - ( $(date +%s) - t0 ) )); }
finish() { tar czf "$OUT/verify.tgz" -C /tmp verify; cp "$o/summary.txt" "$OUT/" 2>/dev/null; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
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
python3 - "$@" > "$o/known-list.txt" <<'PY'
import json, sys
w = [e["name"] for e in json.load(open("solutions/04-rmsnorm/wrong/wrong.json"))]
for n in sys.argv[1:] + [n for n in w if n.startswith("cheat_") and n not in sys.argv[1:]]: print(n)
PY
ka() {  # name
  [ "$(left)" -gt 60 ] || { echo "SKIPPED $1"; return; }
  local s=$(date +%s)
  WORKBOOK_TEST_JOBS=1 timeout 90 build/tests/grading/known_answers --root "$PWD" --workbook "$PWD/$wb" \
    --work "/tmp/ka-$1" --lesson 04-rmsnorm --backend gpu --wrong "$1" > "$o/ka-$1.log" 2>&1 \
    && { echo "ok $1 ($(( $(date +%s) - s )) s)"; rm -f "$o/ka-$1.log"; } || echo "FAILED $1 ($(( $(date +%s) - s )) s)"
}
export -f ka left; export t0 o wb LEFT
xargs -P 6 -L 1 bash -c 'ka "$0"' < "$o/known-list.txt" > "$o/known-results.txt"
log "known answers on gpu: $(grep -c '^ok' "$o/known-results.txt") ok, $(grep -c '^FAILED' "$o/known-results.txt") failed, $(grep -c '^SKIPPED' "$o/known-results.txt") not started"
grep '^FAILED' "$o/known-results.txt" | tee -a "$o/summary.txt"
log "done"
