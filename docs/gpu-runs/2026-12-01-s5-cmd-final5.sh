#!/usr/bin/env bash
# Session 5, first call (session 4's third was refused): lesson 05 after h-leaks05 rewrote parts of its solutions'
# given code and widened the `mean` blank: the solutions, the starters and the nine known answers whose text changed,
# on gpu, 8 at a time; and the four rmsnorm_fast answers of lesson 04 that session 4's first call did not reach.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
git log --oneline -1 | tee -a "$o/summary.txt"
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
cat > /tmp/ka.txt <<'LIST'
05-layernorm solutions -
05-layernorm starters -
05-layernorm wrong mean_over_block_size
05-layernorm wrong update_squares_old_delta
05-layernorm wrong update_count_after_mean
05-layernorm wrong update_running_sum
05-layernorm wrong as_shipped
05-layernorm wrong shipped_without_clamp
05-layernorm wrong subtraction_in_double
05-layernorm wrong mean_square_as_variance
05-layernorm alt mean_times_reciprocal
04-rmsnorm alt rmsnorm_fast_blocked
04-rmsnorm wrong cache_not_zero_filled
04-rmsnorm wrong cache_sum_uninitialized
04-rmsnorm wrong fast_dispatch_2048_copy_paste
LIST
ka() {
  local s=$(date +%s) what=(--"$2"); [ "$3" = - ] || what+=("$3")
  build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson "$1" \
    --work "/tmp/ka-$1-$2-$3" --backend gpu "${what[@]}" > "/tmp/ka-$1-$2-$3.log" 2>&1 && r=ok || r=FAILED
  echo "$r $1 $2 $3 $(( $(date +%s) - s ))s"
}
export -f ka
WORKBOOK_TEST_JOBS=1 timeout $(( 240 - ( $(date +%s) - t0 ) )) xargs -P 8 -L 1 bash -c 'ka "$0" "$1" "$2"' < /tmp/ka.txt > "$o/known.txt"
log "on gpu: $(grep -c '^ok' "$o/known.txt") ok, $(grep -c '^FAILED' "$o/known.txt") failed, of $(wc -l < /tmp/ka.txt) listed"
cat "$o/known.txt" >> "$o/summary.txt"
for f in $(grep '^FAILED' "$o/known.txt" | awk '{print "/tmp/ka-"$2"-"$3"-"$4".log"}'); do { echo "=== $f"; head -50 "$f"; } >> "$o/failures.txt"; done
exit 0
