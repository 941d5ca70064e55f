#!/usr/bin/env bash
# Grading latency on this machine (issue: "fast enough to grade interactively"). Prints, for the core exercise:
#   - nvcc -std=c++17 -c of the filled exercise (the source lesson's own check), when nvcc exists;
#   - a full `workbook grade --ex rmsnorm --backend emu` after a change to the file (rewrite, compile, link, run);
#   - the emulated run of the hidden tests alone (the same grade again, build cached);
#   - the hidden tests' process time under the emulator with all diagnostics on.
# Usage: benchmarks/grading-latency.sh [build-dir]   (the build must exist: make grade-04 or cmake --build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
wb="$build/grader/cli/workbook"
[ -x "$wb" ] || { echo "build the grader first (make grade-04)"; exit 2; }
sub=$(mktemp -d)
trap 'rm -rf "$sub"' EXIT
cp solutions/04-rmsnorm/answers.md "$sub/"
sed -e 's#/\*BLANK:[a-z_]*\*/##g; s#/\*END\*/##g' solutions/04-rmsnorm/rmsnorm.cu > "$sub/rmsnorm.cu"

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }

if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  t0=$(now); "$nvcc" -std=c++17 -c "$sub/rmsnorm.cu" -o "$sub/rmsnorm.o"; t1=$(now)
  echo "nvcc -std=c++17 -c rmsnorm.cu:                    $(secs "$t0" "$t1") s"
fi
for i in 1 2 3; do
  echo "// edit $i $(now)" >> "$sub/rmsnorm.cu"  # a changed file: nothing cached
  t0=$(now); "$wb" grade 04 --submission "$sub" --ex rmsnorm --backend emu --seed 1 > "$sub/out.txt" 2>&1 || true; t1=$(now)
  echo "changed exercise, full emu grade (run $i):          $(secs "$t0" "$t1") s   ($(grep -c 'passed' "$sub/out.txt") 'passed' lines)"
done
t0=$(now); "$wb" grade 04 --submission "$sub" --ex rmsnorm --backend emu --seed 1 > "$sub/out.txt" 2>&1 || true; t1=$(now)
echo "unchanged exercise, emu grade (tests only):       $(secs "$t0" "$t1") s"
harness=$(ls -td "$build"/grade/04/rmsnorm/emu/*/harness | head -1)
t0=$(now)
"$harness" --wb-list | python3 -c 'import json,sys; [print(t["name"]) for t in json.load(sys.stdin)]' | while read -r name; do
  echo nonce | "$harness" --wb-run "$name" --wb-result "$sub/r.json" --wb-seed 1 > /dev/null 2>&1
done
t1=$(now)
echo "hidden tests of rmsnorm, one after another, emu:  $(secs "$t0" "$t1") s"
