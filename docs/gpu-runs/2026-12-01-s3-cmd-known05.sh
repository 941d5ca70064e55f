#!/usr/bin/env bash
# Session 3: every lesson-05 known answer not yet graded on the GPU, 14 at a time (nvcc dominates each one).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
t0=$(date +%s)
log() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$o/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$o/summary.txt"
cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > /tmp/cfg.log 2>&1 || { log "configure failed"; tail -20 /tmp/cfg.log >> "$o/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > /tmp/build.log 2>&1 || { log "build failed"; grep -m20 error /tmp/build.log | tee -a "$o/summary.txt"; exit 1; }
log "built"
python3 -c "
import json
done = set(l.split()[2] for l in open('.gpu-lead/known-05-done.txt') if l.startswith('ok'))
for k in ('wrong', 'alt'):
    for e in json.load(open(f'solutions/05-layernorm/{k}/{k}.json')):
        if e['name'] not in done: print(k, e['name'])" > /tmp/ka05.txt
log "to run: $(wc -l < /tmp/ka05.txt)"
ka05() {
  local s=$(date +%s)
  build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --lesson 05-layernorm \
    --work "/tmp/ka05-$2" --backend gpu --"$1" "$2" > "/tmp/ka05-$2.log" 2>&1 && r=ok || r=FAILED
  echo "$r $1 $2 $(( $(date +%s) - s ))s"
}
export -f ka05
WORKBOOK_TEST_JOBS=1 timeout 470 xargs -P 14 -L 1 bash -c 'ka05 "$0" "$1"' < /tmp/ka05.txt > "$o/known-05.txt"
log "lesson 05 known answers on gpu: $(grep -c '^ok' "$o/known-05.txt") ok, $(grep -c '^FAILED' "$o/known-05.txt") failed, of $(wc -l < /tmp/ka05.txt)"
for f in $(grep '^FAILED' "$o/known-05.txt" | awk '{print "/tmp/ka05-"$3".log"}'); do { echo "=== $f"; tail -30 "$f"; } >> "$o/known-05-failures.txt"; done
exit 0
