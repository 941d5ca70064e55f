#!/usr/bin/env bash
# Session 5: compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on the solutions of every exercise added
# since session 2's sanitized run of lesson 04's first six: lesson 05 whole, and lesson 04's rmsnorm_bf16_fast and
# four bug hunts. Lesson 05 in the background, lesson 04's five one after another beside it.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
compute-sanitizer --version | tail -1 | tee -a "$o/summary.txt"
git log --oneline -1 | tee -a "$o/summary.txt"
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
wb=build/grader/cli/workbook
grade() {  # lesson label [--ex NAME]
  local l=$1 label=$2; shift 2
  local s=$(date +%s)
  timeout $(( ${LEFT:-300} - ( $(date +%s) - t0 ) )) "$wb" grade "$l" --solutions --backend gpu --sanitize --seed 2026 \
    --json-out "$o/$label.json" "$@" > "$o/$label.txt" 2>&1
  echo "exit $? $label $(( $(date +%s) - s ))s: $(grep -m1 -E '^(PASSED|NOT PASSED|FAILED|PENDING)' "$o/$label.txt")" >> "$o/grades.txt"
}
grade 05 san05 &
for ex in rmsnorm_bf16_fast hunt_align hunt_eps hunt_race hunt_mask; do grade 04 "san04-$ex" --ex "$ex"; done
wait
log "grades:"; cat "$o/grades.txt" | tee -a "$o/summary.txt"
for f in "$o"/san*.txt; do { echo "=== $f"; grep -n -i -A3 'sanitizer\|memcheck\|racecheck\|synccheck\|initcheck' "$f" | head -40; } >> "$o/sanitizer-lines.txt"; done
exit 0
