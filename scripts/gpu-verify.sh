#!/usr/bin/env bash
# Verifies the grader on a real GPU, in one go (for a lent GPU machine with a time limit, or any CUDA machine):
#   1. builds the project (Debian packages unpacked from .deps/*.deb when the machine cannot install them),
#   2. grades the solutions on the `gpu` backend,
#   3. grades every known wrong answer and every correct alternative on `gpu` (tests/grading/known_answers),
#   4. runs the bandwidth benchmark and the launch-error probe.
# Writes logs and a summary to $OUT (default: ./gpu-verify-out). Usage: scripts/gpu-verify.sh [jobs]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-verify-out}
jobs=${1:-12}
mkdir -p "$out"
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }

if ls .deps/*.deb >/dev/null 2>&1; then
  # Unpacked, not installed (no registry there); a package the machine already has (its own Catch2, say) is skipped.
  mkdir -p /tmp/deps
  for f in .deps/*.deb; do
    pkg=$(basename "$f" | cut -d_ -f1)
    case $pkg in
      catch2) ls /usr/include/catch2 /usr/local/include/catch2 >/dev/null 2>&1 && continue ;;
    esac
    dpkg -x "$f" /tmp/deps
  done
  export CMAKE_PREFIX_PATH=/tmp/deps/usr LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
log "GPU: $(nvidia-smi -L | head -1); nvcc: $(nvcc --version | tail -1)"

cmake -S . -B build -DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:-}" > "$out/configure.log" 2>&1 || { log "configure failed"; tail -20 "$out/configure.log"; exit 1; }
cmake --build build -j"$(nproc)" --target workbook-grader known_answers > "$out/build.log" 2>&1 || { log "build failed"; grep -m20 error "$out/build.log"; exit 1; }
log "built"

build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 > "$out/solutions.txt" 2>&1
log "solutions on gpu: exit $? — $(grep -E '^(PASSED|NOT PASSED)' "$out/solutions.txt" | head -1)"

python3 - > "$out/known.txt" <<'PY'
import json
for kind in ("wrong", "alt"):
    for e in json.load(open(f"solutions/04-rmsnorm/{kind}/{kind}.json")):
        print(kind, e["name"])
PY
ka() { build/tests/grading/known_answers --root "$PWD" --workbook build/grader/cli/workbook --work "/tmp/ka-$1-$2" \
         --backend gpu --"$1" "$2" > "/tmp/ka-$1-$2.log" 2>&1 && echo "ok $1 $2" || echo "FAILED $1 $2"; }
export -f ka
WORKBOOK_TEST_JOBS=1 xargs -P "$jobs" -L 1 bash -c 'ka "$0" "$1"' < "$out/known.txt" > "$out/known-results.txt"
log "known answers on gpu: $(grep -c '^ok' "$out/known-results.txt") ok, $(grep -c '^FAILED' "$out/known-results.txt") failed"
for f in $(grep '^FAILED' "$out/known-results.txt" | awk '{print "/tmp/ka-"$2"-"$3".log"}'); do
  { echo "=== $f"; tail -40 "$f"; } >> "$out/known-failures.txt"
done

nvcc -std=c++17 -O3 -arch=native -o /tmp/bandwidth benchmarks/04-rmsnorm/bandwidth.cu \
  solutions/04-rmsnorm/{rmsnorm,rmsnorm_fast,rmsnorm_half,rmsnorm_vec,fused_add_rmsnorm}.cu 2>"$out/bench-build.log" \
  && /tmp/bandwidth > "$out/bandwidth.txt" 2>&1
log "bandwidth benchmark: exit $?"
nvcc -std=c++17 -arch=native -o /tmp/launch_errors grader/emulator/tests/gpu/launch_errors.cu && /tmp/launch_errors > "$out/launch_errors.txt" 2>&1
log "launch-error probe: exit $?"
