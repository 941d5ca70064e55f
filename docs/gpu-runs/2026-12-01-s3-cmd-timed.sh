#!/usr/bin/env bash
# Session 3: the timed rmsnorm_fast test (8192 x 4096, run last and alone) on the H200: does it fit the 10 s limit,
# what does the report show, what does results.json carry.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
for lim in 3 5; do
  s=$(date +%s.%N)
  WORKBOOK_TEST_TIMEOUT=$lim build/grader/cli/workbook grade 04 --solutions --backend gpu --ex rmsnorm_fast --seed 2026 \
    --json-out "$o/fast-$lim.json" > "$o/fast-$lim.txt" 2>&1
  log "limit $lim s: exit $? in $(python3 -c "import time;print(round(time.time()-$s,1))") s — $(grep -E '8192 x 4096' "$o/fast-$lim.txt" | head -2 | tr '\n' ' ')"
done
s=$(date +%s.%N)
build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 --json-out "$o/all.json" > "$o/all.txt" 2>&1
log "all exercises, default limit: exit $? in $(python3 -c "import time;print(round(time.time()-$s,1))") s — $(grep -E '^(PASSED|NOT PASSED)' "$o/all.txt" | head -1)"
grep -A4 'Performance' "$o/all.txt" | tee -a "$o/summary.txt"
python3 - "$o/all.json" <<'PY' | tee -a "$o/summary.txt"
import json, sys
r = json.load(open(sys.argv[1]))
print("leaderboard:", r.get("leaderboard"))
print("performance:", json.dumps(r.get("extra_data", {}).get("performance"))[:600])
PY
exit 0
