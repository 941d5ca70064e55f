#!/usr/bin/env bash
# Issue 10, item 4, with the real grader on a copy of the course: a compiler killed by a signal (Ctrl-C, the
# out-of-memory killer) is never cached as "did not compile", and a compile failure read back from the cache shows
# the compiler's own message. The emulator's compiler is replaced, through the build config, by a stand-in that kills
# itself with SIGKILL on its first call and runs the real one afterwards.
#   compile_interrupt_test.sh ROOT WORKBOOK CONFIG
set -uo pipefail
root=$1 workbook=$2 config=$3
work=$(mktemp -d /tmp/workbook-compile-interrupt-XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }
expect() { grep -qF -- "$2" <<<"$1" || fail "$3: expected «$2» in:"$'\n'"$1"; }
reject() { grep -qF -- "$2" <<<"$1" && fail "$3: unexpected «$2» in:"$'\n'"$1"; }
[ -f "$root/solutions/04-rmsnorm/rmsnorm.cu" ] || { echo "FAILED: no solutions/04-rmsnorm/rmsnorm.cu to grade"; exit 1; }

course=$work/course
mkdir -p "$course/grader" "$work/good" "$work/broken"
cp -r "$root/lessons" "$root/exercises" "$course/"
cp -r "$root/grader/rubrics" "$course/grader/"
mkdir -p "$course/solutions" && cp -r "$root/solutions/04-rmsnorm" "$course/solutions/"
cp "$root/solutions/04-rmsnorm/rmsnorm.cu" "$root/solutions/04-rmsnorm/answers.md" "$work/good/"
# A fill that names an undeclared variable: a real compile error, in the student's file and line.
sed 's|+ eps) /\*END\*/|+ epsilon) /*END*/|' "$root/solutions/04-rmsnorm/rmsnorm.cu" > "$work/broken/rmsnorm.cu"
grep -q epsilon "$work/broken/rmsnorm.cu" || { echo "FAILED: the broken copy was not made (the solution's fill changed?)"; exit 1; }

# The compile is confined (grade/build.cpp): the compiler sees, of this test's folder, only its own folder, read-only,
# and an environment of its own. So the stand-in lives in a folder with a copy of the real compiler and its
# emu-nvcc.conf, and takes its orders from files the test puts beside it: kill-next (die as a compiler killed by the
# out-of-memory killer would), refuse (a verdict that must come from the cache; say so if called); otherwise it is
# the real compiler.
mkdir -p "$work/cc"
real=$(python3 - "$config" "$course" "$work/cc/emu-nvcc" "$work/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c["repo_root"] = sys.argv[2]; c["build_dir"] = sys.argv[2] + "/build"
print(c["emu"]["nvcc"]); c["emu"]["nvcc"] = sys.argv[3]
json.dump(c, open(sys.argv[4], "w"))
PY
)
cp "$real" "$work/cc/emu-nvcc.real"
cp "$(dirname "$real")/emu-nvcc.conf" "$work/cc/emu-nvcc.conf"
cat > "$work/cc/emu-nvcc" <<'SH'
#!/usr/bin/env bash
here=$(dirname "$0")
if [ -e "$here/refuse" ]; then echo "stand-in: compiled again"; exit 1; fi
if [ -e "$here/kill-next" ]; then kill -KILL $$; fi
exec "$here/emu-nvcc.real" "$@"
SH
chmod +x "$work/cc/emu-nvcc"
export WORKBOOK_CONFIG=$work/config.json
grade() { (cd "$course" && "$workbook" grade 04 --backend emu --ex rmsnorm --seed 3 --submission "$1" 2>&1); }

echo "--- a correct file whose compiler is killed: said, not cached"
touch "$work/cc/kill-next"
out=$(grade "$work/good"); rc=$?
rm -f "$work/cc/kill-next"
echo "$out" | grep -E "compiler|compile|PASSED|Exit status"
expect "$out" "the compiler was stopped by SIGKILL" "the signal is named"
expect "$out" "(the compiler did not finish, so nothing was cached)" "nothing cached"
[ "$rc" -ne 0 ] || fail "a grade whose compile was killed passed"
echo "--- the same file again: compiled and graded"
out=$(grade "$work/good"); rc=$?
echo "$out" | grep -E "PASSED|Exit status"
[ "$rc" -eq 0 ] || fail "the second grade of a correct file does not pass (exit $rc): $(tail -n 3 <<<"$out")"
reject "$out" "stopped by SIGKILL" "the killed compile was cached"

echo "--- a file that does not compile, twice: the second, from the cache, shows the compiler's message too"
first=$(grade "$work/broken")
touch "$work/cc/refuse"
second=$(grade "$work/broken")
rm -f "$work/cc/refuse"
reject "$second" "stand-in: compiled again" "the second grade compiled again: its verdict did not come from the cache"
for out in "$first" "$second"; do
  expect "$out" "did not compile" "the verdict"
  expect "$out" "epsilon" "the compiler's message names the undeclared name"
  expect "$out" "rmsnorm.cu:" "the message points at the student's file"
done
grep -E "rmsnorm.cu:[0-9]+" <<<"$second" | head -n 2

echo "--- a link that cannot open a library of the grader's build: the grader's problem, not \"did not compile\""
python3 - "$work/config.json" "$work/config-nolib.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["link_libs"]["emu"] = c["link_libs"].get("emu", []) + ["/nonexistent-workbook-lib/libgone.so"]
json.dump(c, open(sys.argv[2], "w"))
PY
out=$(WORKBOOK_CONFIG=$work/config-nolib.json grade "$work/good"); rc=$?
echo "$out" | grep -E "could not link|did not compile|Exit status" | head -n 3
expect "$out" "The grader could not link the tests" "the grader's own link failure is said as such"
expect "$out" "/nonexistent-workbook-lib/libgone.so" "the missing file is named"
reject "$out" "did not compile" "the grader's link failure is not the student's"
[ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] || fail "a grade the grader could not build exits neither 0 nor 1 (got $rc)"

echo "--- SIGTERM while the hidden tests run: the grade says it was interrupted and records nothing"
# The compile is cached by now, so the tests start at once; the signal comes as soon as a judge runs.
results=$course/build/results/04/results.json
before=$(readlink -f "$results" 2>/dev/null)
(cd "$course" && exec "$workbook" grade 04 --backend emu --ex rmsnorm --seed 3 --submission "$work/good" \
  > "$work/interrupted.txt" 2>&1) &
pid=$!
# Only this grade's judges (its children): other tests may be running judges of their own beside this one.
judges() { pgrep -P "$pid" -f -- "--wb-run"; }
for _ in $(seq 400); do judges > /dev/null && break; sleep 0.05; done
judges > /dev/null || fail "no judge of the grade was seen running"
kill -TERM "$pid"
wait "$pid"; rc=$?
out=$(cat "$work/interrupted.txt"); tail -n 2 <<<"$out"
[ "$rc" -eq 130 ] || fail "an interrupted grade exits 130 (got $rc)"
expect "$out" "Interrupted; nothing was recorded." "the interrupt is said"
reject "$out" "judge crashed" "killed tests are not reported as crashes"
reject "$out" "PASSED" "no verdict after an interrupt"
[ "$(readlink -f "$results" 2>/dev/null)" = "$before" ] || fail "an interrupted grade replaced the latest results"
mine=$(pgrep -f -- "--wb-worker $course/"); [ -z "$mine" ] || fail "a judge outlived the interrupted grade: $mine"

[ "$fails" -eq 0 ] && echo "ok" || { echo "$fails check(s) failed"; exit 1; }
