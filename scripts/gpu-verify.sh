#!/usr/bin/env bash
# Verifies the grader on a real GPU, in one go (for a lent GPU machine with a time limit, or any CUDA machine):
#   1. builds the project (Debian packages unpacked from .deps/*.deb when the machine cannot install them:
#      scripts/gpu/unpack-deps.sh says how to make that folder),
#   2. grades the solutions on the `gpu` backend,
#   3. grades every known wrong answer and every correct alternative on `gpu` (tests/grading/known_answers),
#   4. runs the bandwidth benchmark and the launch-error probe.
# Usage: scripts/gpu-verify.sh [jobs] [list]
#   jobs   known answers graded at once (default 12), spread over every GPU of the machine
#   list   a file of "wrong NAME" / "alt NAME" lines, graded first (default: every entry of wrong.json and alt.json)
#   KNOWN_ONLY=1        grade only the list's entries
#   SKIP="solutions bench"  leave out those steps (to finish an earlier run that hit its time limit)
#   KNOWN_DEADLINE_S=N  start no known answer later than N seconds after the script began (for a call with a time
#                       limit); the ones not started are listed as "SKIPPED", never as graded
#   SANITIZE=1          grade with --sanitize too: the solutions must be clean under compute-sanitizer's four tools,
#                       and each known answer's findings are printed (tests/grading/known_answers --sanitize)
# Writes at most seven files to $OUT (default: ./gpu-verify-out); the build logs stay in /tmp/gpu-verify-logs.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-verify-out}
jobs=${1:-12}
list=${2:-}
logs=/tmp/gpu-verify-logs
mkdir -p "$out" "$logs"
export KNOWN_DEADLINE=$(( $(date +%s) + ${KNOWN_DEADLINE_S:-100000} ))
export NGPU=$(nvidia-smi -L | wc -l)
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }

. scripts/gpu/unpack-deps.sh
log "GPUs: $NGPU × $(nvidia-smi -L | head -1 | cut -d'(' -f1); nvcc: $(nvcc --version | tail -1)"

cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > "$logs/configure.log" 2>&1 || { log "configure failed"; tail -20 "$logs/configure.log" | tee -a "$out/summary.txt"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers wb_sandbox_selftest wb-sandbox-run > "$logs/build.log" 2>&1 || { log "build failed"; grep -m20 error "$logs/build.log" | tee -a "$out/summary.txt"; exit 1; }
log "built"
build/grader/harness/wb_sandbox_selftest > "$out/sandbox-selftest.txt" 2>&1
log "sandbox self-test: exit $? — $(tail -1 "$out/sandbox-selftest.txt")"

skip() { [[ " ${SKIP:-} " == *" $1 "* ]]; }
if ! skip solutions; then
  build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 > "$out/solutions.txt" 2>&1
  log "solutions on gpu: exit $? — $(grep -E '^(PASSED|NOT PASSED)' "$out/solutions.txt" | head -1)"
  if [ "${SANITIZE:-0}" = 1 ]; then
    t0=$(date +%s)
    build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 --sanitize \
      --json-out "$out/solutions-sanitized.json" > "$out/solutions-sanitized.txt" 2>&1
    log "solutions on gpu with --sanitize: exit $? in $(( $(date +%s) - t0 )) s — $(grep -A40 '^compute-sanitizer' "$out/solutions-sanitized.txt" | grep -cE ': clean in') of $(grep -A40 '^compute-sanitizer' "$out/solutions-sanitized.txt" | grep -cE '^  [a-z_]+ (memcheck|racecheck|synccheck|initcheck):') exercise/tool pairs clean"
  fi
fi

# The list's entries first, then every other entry; each line numbered so that consecutive jobs use different GPUs.
python3 - "$list" "${KNOWN_ONLY:-0}" > "$logs/known.txt" <<'PY'
import json, sys
every = [f"{kind} {e['name']}" for kind in ("wrong", "alt")
         for e in json.load(open(f"solutions/04-rmsnorm/{kind}/{kind}.json"))]
first = [l.strip() for l in open(sys.argv[1])] if sys.argv[1] else []
unknown = [l for l in first if l and l not in every]
if unknown: sys.exit(f"not in wrong.json/alt.json: {unknown}")
ordered = [l for l in first if l] + ([] if sys.argv[2] == "1" else [l for l in every if l not in first])
for i, l in enumerate(ordered): print(i, l)
PY
ka() {
  if [ "$(date +%s)" -ge "$KNOWN_DEADLINE" ]; then echo "SKIPPED $2 $3"; return; fi
  local t0=$(date +%s)
  CUDA_VISIBLE_DEVICES=$(( $1 % NGPU )) build/tests/grading/known_answers --root "$PWD" \
    --workbook build/grader/cli/workbook --work "/tmp/ka-$2-$3" --backend gpu ${SANITIZE_FLAG:-} --"$2" "$3" > "/tmp/ka-$2-$3.log" 2>&1 \
    && echo "ok $2 $3 ($(( $(date +%s) - t0 )) s)" || echo "FAILED $2 $3 ($(( $(date +%s) - t0 )) s)"
}
export -f ka
export SANITIZE_FLAG=$([ "${SANITIZE:-0}" = 1 ] && echo --sanitize)
WORKBOOK_TEST_JOBS=1 xargs -P "$jobs" -L 1 bash -c 'ka "$0" "$1" "$2"' < "$logs/known.txt" > "$out/known-results.txt"
log "known answers on gpu: $(grep -c '^ok' "$out/known-results.txt") ok, $(grep -c '^FAILED' "$out/known-results.txt") failed, $(grep -c '^SKIPPED' "$out/known-results.txt") not started (deadline)"
for f in $(grep '^FAILED' "$out/known-results.txt" | awk '{print "/tmp/ka-"$2"-"$3".log"}'); do
  { echo "=== $f"; tail -40 "$f"; } >> "$out/known-failures.txt"
done

skip bench && exit 0
nvcc -std=c++17 -O3 -arch=native -o /tmp/bandwidth benchmarks/04-rmsnorm/bandwidth.cu \
  solutions/04-rmsnorm/{rmsnorm,rmsnorm_fast,rmsnorm_half,rmsnorm_vec,fused_add_rmsnorm}.cu 2>"$logs/bench-build.log" \
  && /tmp/bandwidth > "$out/bandwidth.txt" 2>&1
log "bandwidth benchmark: exit $?"
nvcc -std=c++17 -arch=native -o /tmp/launch_errors grader/emulator/tests/gpu/launch_errors.cu && /tmp/launch_errors > "$out/launch_errors.txt" 2>&1
log "launch-error probe: exit $?"
