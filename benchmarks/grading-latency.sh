#!/usr/bin/env bash
# Grading latency on this machine (issue: "fast enough to grade interactively"). Prints, for a lesson's core exercise:
#   - nvcc -std=c++17 -c of the filled exercise (the source lesson's own check), when nvcc exists;
#   - a full `workbook grade --ex <core> --backend emu` after a change to the file (rewrite, compile, link, run);
#   - the emulated run of the hidden tests alone (the same grade again, build cached);
#   - the hidden tests one after another, each a judge starting the submission's worker, with the sandbox's
#     namespaces (bubblewrap) and without them (seccomp and rlimits only), and the cost of the sandbox per test.
# Each grade's CPU time (all its processes) is printed beside its wall time when perf is installed.
# Usage: benchmarks/grading-latency.sh [build-dir] [lesson number]   (default: build, the last lesson; the build must
# exist: make grade-NN or cmake --build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
number=${2:-$(ls -d lessons/*/ | tail -1 | xargs basename | cut -d- -f1)}
slug=$(basename "$(ls -d lessons/"$number"-*/ | head -1)")
ex=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pass"]["core"])' "lessons/$slug/lesson.json")
wb="$build/grader/cli/workbook"
[ -x "$wb" ] || { echo "build the grader first (make grade-$number)"; exit 2; }
sub=$(mktemp -d)
trap 'rm -rf "$sub"' EXIT
cp "solutions/$slug/answers.md" "$sub/" 2>/dev/null || true
# The marked solution as it is: its blank markers are comments, which neither the compiler nor the review reads.
cp "solutions/$slug/$ex.cu" "$sub/$ex.cu"

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
# CPU seconds of a command and every process under it (sandboxed workers included, which getrusage misses), when
# perf can count them: on a machine shared with other work the wall time says little, the CPU time holds.
cpu_of() {
  if perf stat -x, -e task-clock -o "$sub/perf.txt" -- true > /dev/null 2>&1; then
    perf stat -x, -e task-clock -o "$sub/perf.txt" -- "$@"
    local rc=$?
    printf '%s' "$(awk -F, '/task-clock/ { printf "   (CPU %.2f s)", $1 / 1000 }' "$sub/perf.txt")" >> "$sub/cpu.txt"
    return $rc
  fi
  "$@"
}
cpu() { cat "$sub/cpu.txt" 2>/dev/null; rm -f "$sub/cpu.txt"; }

if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  t0=$(now); "$nvcc" -std=c++17 -c "$sub/$ex.cu" -o "$sub/$ex.o"; t1=$(now)
  echo "nvcc -std=c++17 -c $ex.cu:                    $(secs "$t0" "$t1") s"
fi
for i in 1 2 3; do
  echo "// edit $i $(now)" >> "$sub/$ex.cu"  # a changed file: nothing cached
  t0=$(now); cpu_of "$wb" grade "$number" --submission "$sub" --ex "$ex" --backend emu --seed 1 > "$sub/out.txt" 2>&1 || true; t1=$(now)
  echo "changed exercise, full emu grade (run $i):          $(secs "$t0" "$t1") s$(cpu)   ($(grep -c 'passed' "$sub/out.txt") 'passed' lines)"
done
t0=$(now); cpu_of "$wb" grade "$number" --submission "$sub" --ex "$ex" --backend emu --seed 1 > "$sub/out.txt" 2>&1 || true; t1=$(now)
echo "unchanged exercise, emu grade (tests only):       $(secs "$t0" "$t1") s$(cpu)"
worker=$(ls -td "$build"/grade/"$number"/"$ex"/emu/*/worker | head -1)
judge="$build/judges/$slug/judge-$ex"
names=$("$judge" --wb-list | python3 -c 'import json,sys; [print(t["name"]) for t in json.load(sys.stdin)]')
count=$(echo "$names" | wc -l)
for mode in bwrap none; do
  t0=$(now)
  while read -r name; do
    echo nonce | "$judge" --wb-run "$name" --wb-result "$sub/r.json" --wb-seed 1 --wb-worker "$worker" \
      --wb-sandbox "$mode" > /dev/null 2>&1 || true
  done <<< "$names"
  t1=$(now)
  echo "$count hidden tests of $ex, one after another, sandbox $mode: $(secs "$t0" "$t1") s"
done
# The sandbox's own cost: starting a confined worker that runs nothing, against starting it bare.
t0=$(now); for i in $(seq 20); do bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp /bin/true; done; t1=$(now)
echo "bubblewrap start and exit of /bin/true, mean of 20:  $(echo "($t1 - $t0) / 20" | bc -l | cut -c1-6) s"
t0=$(now); for i in $(seq 20); do /bin/true; done; t1=$(now)
echo "plain start and exit of /bin/true, mean of 20:       $(echo "($t1 - $t0) / 20" | bc -l | cut -c1-6) s"
