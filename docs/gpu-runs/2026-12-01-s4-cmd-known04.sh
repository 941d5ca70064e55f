#!/usr/bin/env bash
# Session 4: lesson 04's exercises added or changed since its known answers were last graded on the GPU (the four bug
# hunts, rmsnorm_bf16_fast, the extensions' *_inv_rms blanks), newest first; in parallel, compute-sanitizer on the six
# wrong answers that did not finish in session 3.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
git log --oneline -1 | tee -a "$o/summary.txt"
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
cat > /tmp/san.txt <<'LIST'
04-rmsnorm cache_no_bounds_check memcheck
04-rmsnorm write_no_bounds_check memcheck
04-rmsnorm cache_sum_uninitialized initcheck
05-layernorm block_merge_without_barrier racecheck
05-layernorm cache_past_the_row memcheck
05-layernorm store_always_aligned memcheck
LIST
san() {
  local s=$(date +%s)
  timeout 440 build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson "$1" \
    --work "/tmp/san-$2" --backend gpu --wrong "$2" --sanitize-tools "$3" > "/tmp/san-$2.log" 2>&1
  echo "exit $? $1 $2 [$3] $(( $(date +%s) - s ))s: $(grep -E 'compute-sanitizer errors|rejected|FAILED' "/tmp/san-$2.log" | head -3 | tr '\n' ' ')"
}
export -f san
( WORKBOOK_TEST_JOBS=1 xargs -P 6 -L 1 bash -c 'san "$0" "$1" "$2"' < /tmp/san.txt > "$o/sanitize.txt" ) &
# Newest exercises first, then the solutions and starters, then the extensions whose solutions gained a blank.
python3 - > /tmp/ka04.txt <<'PY'
import json
order = ["hunt_race", "hunt_mask", "hunt_align", "hunt_eps", "rmsnorm_bf16_fast", "@", "rmsnorm_half", "rmsnorm_vec",
         "fused_add_rmsnorm", "rmsnorm_fast", "block_reduce"]
rows = {x: [] for x in order}
for k in ("wrong", "alt"):
    for e in json.load(open(f"solutions/04-rmsnorm/{k}/{k}.json")):
        if e["exercise"] in rows: rows[e["exercise"]].append(f"{k} {e['name']}")
rows["@"] = ["solutions -", "starters -"]
for x in order: print("\n".join(rows[x]))
PY
ka04() {
  local s=$(date +%s) what=(--"$1"); [ "$2" = - ] || what+=("$2")
  build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson 04-rmsnorm \
    --work "/tmp/ka04-$1-$2" --backend gpu "${what[@]}" > "/tmp/ka04-$1-$2.log" 2>&1 && r=ok || r=FAILED
  echo "$r $1 $2 $(( $(date +%s) - s ))s"
}
export -f ka04
left=$(( 540 - ( $(date +%s) - t0 ) ))
WORKBOOK_TEST_JOBS=1 timeout "$left" xargs -P 10 -L 1 bash -c 'ka04 "$0" "$1"' < /tmp/ka04.txt > "$o/known-04.txt"
log "lesson 04 known answers on gpu: $(grep -c '^ok' "$o/known-04.txt") ok, $(grep -c '^FAILED' "$o/known-04.txt") failed, of $(wc -l < /tmp/ka04.txt) listed"
for f in $(grep '^FAILED' "$o/known-04.txt" | awk '{print "/tmp/ka04-"$2"-"$3".log"}'); do { echo "=== $f"; tail -30 "$f"; } >> "$o/known-04-failures.txt"; done
wait
log "compute-sanitizer:"; cat "$o/sanitize.txt" | tee -a "$o/summary.txt"
for n in $(awk '{print $3}' /tmp/san.txt); do cp "/tmp/san-$n.log" "$o/san-$n.log" 2>/dev/null; done
exit 0
