#!/usr/bin/env bash
# Session 4, last call, on the merged main: the whole lesson's solutions on gpu (hunt_mask and hunt_race now on the
# emulator inside that grade), and the known answers the first call left without a verdict or judged on the
# emulator's words, 8 at a time.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
git log --oneline -1 | tee -a "$o/summary.txt"
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
cat > /tmp/ka.txt <<'LIST'
solutions -
wrong hunt_mask_as_shipped
wrong hunt_mask_ballot_mask
wrong hunt_race_as_shipped
wrong hunt_align_as_shipped
wrong hunt_align_checks_input_only
wrong bf16_inv_rms_no_barrier
alt rmsnorm_half_operators
starters -
wrong hunt_race_barrier_after_read
wrong hunt_race_fence_not_barrier
wrong hunt_align_checks_length_only
wrong hunt_mask_rounded_without_guards
wrong hunt_mask_store_unguarded
alt hunt_mask_shfl_down
LIST
python3 -c "
import json
for e in json.load(open('solutions/04-rmsnorm/wrong/wrong.json')):
    if e['exercise'] == 'rmsnorm_bf16_fast' and e['name'] != 'bf16_inv_rms_no_barrier': print('wrong', e['name'])" >> /tmp/ka.txt
ka() {
  local s=$(date +%s) what=(--"$1"); [ "$2" = - ] || what+=("$2")
  build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson 04-rmsnorm \
    --work "/tmp/ka-$1-$2" --backend gpu "${what[@]}" > "/tmp/ka-$1-$2.log" 2>&1 && r=ok || r=FAILED
  echo "$r $1 $2 $(( $(date +%s) - s ))s"
}
export -f ka
WORKBOOK_TEST_JOBS=1 timeout $(( 270 - ( $(date +%s) - t0 ) )) xargs -P 8 -L 1 bash -c 'ka "$0" "$1"' < /tmp/ka.txt > "$o/known.txt"
log "known answers on gpu: $(grep -c '^ok' "$o/known.txt") ok, $(grep -c '^FAILED' "$o/known.txt") failed, of $(wc -l < /tmp/ka.txt) listed"
cat "$o/known.txt" >> "$o/summary.txt"
for f in $(grep '^FAILED' "$o/known.txt" | awk '{print "/tmp/ka-"$2"-"$3".log"}'); do { echo "=== $f"; head -60 "$f"; } >> "$o/failures.txt"; done
grep -h -E "ran on the emulator|Ran on|^(PASSED|NOT PASSED)|hunt_mask |hunt_race " /tmp/ka-solutions--.log | head -12 > "$o/solutions-excerpt.txt"
cp /tmp/ka-wrong-hunt_mask_as_shipped.log "$o/hunt_mask_as_shipped.log" 2>/dev/null
exit 0
