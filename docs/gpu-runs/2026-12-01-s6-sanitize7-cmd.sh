#!/usr/bin/env bash
# Session 6: compute-sanitizer (all four tools) on the solutions not yet run under it since they last changed:
# lesson 05's welford, layernorm_half, fused_add_layernorm, layernorm_fast and lesson 04's first six, one grade per exercise (an interrupted grade records
# nothing, so each finished exercise keeps its report), in four streams, smallest first. Everything is tarred into
# one file: a call returns at most 8 files.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=/tmp/s7; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
finish() { tar czf "$OUT/sanitize7.tgz" -C /tmp s6; cp "$o/summary.txt" "$OUT/" 2>/dev/null; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
compute-sanitizer --version | tail -1 | tee -a "$o/summary.txt"
git log --oneline -1 | tee -a "$o/summary.txt"
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
wb=build/grader/cli/workbook
grade() {  # lesson exercise
  local s=$(date +%s) left=$(( ${LEFT:-400} - ( $(date +%s) - t0 ) ))
  [ "$left" -gt 10 ] || { echo "not started $1 $2" >> "$o/grades.txt"; return; }
  timeout "$left" "$wb" grade "$1" --solutions --backend gpu --sanitize --seed 2026 --ex "$2" > "$o/$1-$2.txt" 2>&1
  local rc=$?
  echo "exit $rc $1 $2 $(( $(date +%s) - s ))s: $(grep -m1 -E '^(PASSED|NOT PASSED|FAILED|PENDING)|Interrupted' "$o/$1-$2.txt")" >> "$o/grades.txt"
  { echo "== $1 $2 (exit $rc)"; sed -n '/^compute-sanitizer/,/^$/p' "$o/$1-$2.txt"; } >> "$o/tools.txt"
}
( grade 05 welford; grade 04 rmsnorm_vec ) &
( grade 05 layernorm_half; grade 04 rmsnorm; grade 04 block_reduce ) &
( grade 05 fused_add_layernorm; grade 04 rmsnorm_half; grade 04 fused_add_rmsnorm ) &
( grade 05 layernorm_fast; grade 04 rmsnorm_fast ) &
wait
log "grades:"; cat "$o/grades.txt" | tee -a "$o/summary.txt"
cat "$o/tools.txt" >> "$o/summary.txt"
exit 0
