#!/usr/bin/env bash
# The commands of README.md, docs/student-guide.md and docs/instructor-guide.md, run for real by the `workbook`
# subcommands their make targets call, on a copy of the course (the copy's build config points the workbook at it,
# so the checkout itself is never changed): status, hint, reset, restore, report, watch (through a pseudo-terminal),
# the student edition and the solutions branch (GitHub Classroom's workflow: classroom_test.sh). Then every `make …`
# command the three documents name must be in the table at the bottom, which says where it is exercised.
# Usage: commands_test.sh ROOT WORKBOOK CONFIG
set -uo pipefail
root=$1 workbook=$2 config=$3
# Outside the repository: a student edition may not be made inside it.
work=$(mktemp -d /tmp/workbook-commands-XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }
expect() { grep -qF -- "$2" <<<"$1" || fail "$3: expected «$2» in:"$'\n'"$1"; }
course=$work/course
mkdir -p "$course/grader" "$course/solutions"
cp -r "$root/lessons" "$root/exercises" "$course/"
cp -r "$root/grader/rubrics" "$course/grader/"
# A student edition has no solutions: its starters' pristine copies (the edit check's reference) come with it.
[ -d "$root/grader/pristine" ] && cp -r "$root/grader/pristine" "$course/grader/"
cp -r "$root/solutions/04-rmsnorm" "$course/solutions/" 2>/dev/null || true
retarget() {  # a copy of the build config whose repository is $1
  python3 - "$config" "$1" "$2" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c["repo_root"] = sys.argv[2]; c["build_dir"] = sys.argv[2] + "/build"
json.dump(c, open(sys.argv[3], "w"))
PY
}
retarget "$course" "$work/config.json"
export WORKBOOK_CONFIG=$work/config.json
wb() { (cd "$course" && "$workbook" "$@" 2>&1); }
ex=$course/exercises/04-rmsnorm

echo "--- make status: the exercises and answers.md"
out=$(wb status); echo "$out"
expect "$out" "answers.md         untouched     0 of 4 answered" "status shows answers.md"

echo "--- make hint-04 EX=rmsnorm: the follow-up names the same blank"
out=$(wb hint 04 --ex rmsnorm); echo "$out"
expect "$out" "make hint-04 EX=rmsnorm BLANK=inv_rms" "hint follow-up"

echo "--- make reset-04 / make restore-04: nothing is lost"
echo "// my work" >> "$ex/rmsnorm.cu"; mine=$(cat "$ex/rmsnorm.cu")
out=$(wb reset 04 --ex rmsnorm); echo "$out"
expect "$out" "To bring your version back: make restore-04 EX=rmsnorm" "reset names restore"
out=$(wb restore 04 --ex rmsnorm); echo "$out"
[ "$(cat "$ex/rmsnorm.cu")" = "$mine" ] || fail "restore did not bring the work back"
stamp=$(ls "$course/.workbook/backups" | sort -V | tail -n 1)  # the starter, saved by the restore above
out=$(wb restore 04 --ex rmsnorm --backup "$stamp"); echo "$out"
expect "$out" "from the backup $stamp" "BACKUP= restores that one"

echo "--- make grade-04 (static), then make report-04 with a changed file"
# The filled-in answers where there are solutions (a student edition has none: its answers stay unanswered).
cp "$root/solutions/04-rmsnorm/answers.md" "$ex/answers.md" 2>/dev/null
out=$(wb grade 04 --backend static --ex rmsnorm --seed 7); rc=$?; echo "$out" | tail -n 4
[ "$rc" -eq 1 ] || fail "a static grade is pending: exit 1 (got $rc)"
expect "$out" "Replay this run: make grade-04 SEED=7 EX=rmsnorm BACKEND=static" "replay carries every option"
expect "$(tail -n 1 <<<"$out")" "Exit status 1: pending" "the last line says what the exit status means"
expect "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["extra_data"]["replay"])' "$course/build/results/04/results.json")" \
       "make grade-04 SEED=7 EX=rmsnorm BACKEND=static" "results.json replay"
out=$(wb report 04); echo "$out"
expect "$out" "Report written to" "report"
# A GPU grade runs a `runs_on_emulator` exercise on the emulator: the report names it (results.json as a GPU grade
# writes it, made from this one, since this machine may have no GPU).
python3 - "$course/build/results/04/results.json" "$course/gpu-like.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); x = r["extra_data"]
x["backend"] = "gpu"; x["ran_on"] = "GPU (gpu, a stand-in)"
x.setdefault("exercises", {})["hunt_mask"] = {"backend": "emu", "tests_total": 5, "tests_passed": 5}
json.dump(r, open(sys.argv[2], "w"))
PY
wb report 04 --results "$course/gpu-like.json" --out "$course/gpu-like.md" > /dev/null
expect "$(cat "$course/gpu-like.md")" "\`hunt_mask\` ran on backend \`emu\`" "report names an exercise emulated in a GPU grade"
echo "--- a static grade of a bug hunt as shipped: said, and nvcc not run on it"
out=$(wb grade 04 --backend static --ex hunt_race --seed 7)
expect "$out" "hunt_race.cu is as shipped: not compiled" "an untouched bug hunt is not compiled"
echo "--- make grade-04 SANITIZE=1 without a GPU: said, and in the replay"
out=$(wb grade 04 --backend static --ex rmsnorm --seed 7 --sanitize); echo "$out" | grep -E "SANITIZE|Replay"
expect "$out" "SANITIZE=1 runs compute-sanitizer on the hidden tests, and a static review runs none" "sanitize note"
expect "$out" "Replay this run: make grade-04 SEED=7 EX=rmsnorm BACKEND=static SANITIZE=1" "replay carries SANITIZE"
out=$(wb grade 04 --backend static --ex rmsnorm --seed 7 --sanitize-tools racecheck,initcheck)
expect "$out" "Replay this run: make grade-04 SEED=7 EX=rmsnorm BACKEND=static SANITIZE=racecheck,initcheck" \
       "replay carries the tools SANITIZE named"
echo "// changed" >> "$ex/rmsnorm.cu"
out=$(wb report 04); echo "$out"
expect "$out" "WARNING: changed since the last grade: rmsnorm.cu" "report names the changed file"
expect "$(cat "$course/build/results/04/report.md")" "**Changed since the last grade: \`rmsnorm.cu\`.**" "report.md says so"

echo "--- make watch-04: q and Ctrl-C quit at once; a burst of saves is one grade"
for key in q ctrl-c; do
  WATCHED=$ex/rmsnorm.cu python3 "$root/tests/setup/watch_pty.py" "$key" "$workbook" watch 04 --ex rmsnorm --backend static \
    --submission "$ex" || fail "watch with $key"
done

if git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  echo "--- make student-edition: committed files, no solutions, no instructor commands"
  out=$(cd "$root" && WORKBOOK_CONFIG="$config" "$workbook" student-edition --out "$work/edition" 2>&1); echo "$out"
  expect "$out" "Student edition:" "student edition made"
  [ -d "$work/edition/solutions" ] && fail "solutions/ in the edition"
  [ -d "$work/edition/grader/emulator/tests" ] && fail "the emulator's test programs (lesson kernels) in the edition"
  grep -rl -E "BLANK:" --include=*.cu "$work/edition" && fail "blank markers in the edition"
  # Nor commands that need what the edition leaves out: the solutions (check, sync, figures) or the benchmarks.
  grep -n -E "make (grade-class|gradescope|solutions-branch|student-edition|check|sync|format|figures|bench)|SOLUTIONS=1|instructor-guide|scripts/gpu-verify" \
      "$work/edition/README.md" "$work/edition/docs/"*.md && fail "the edition's docs name instructor commands"
  [ -e "$work/edition/docs/gpu-runs" ] && fail "the GPU runs' raw outputs are in the edition"
  if [ -d "$root/solutions" ]; then  # an instructor's command: a student edition has no solutions to put there
    echo "--- make solutions-branch (in a clone): exercises/ and answers.md filled in"
    git clone -q "$root" "$work/clone" && retarget "$work/clone" "$work/clone.json"
    out=$(cd "$work/clone" && WORKBOOK_CONFIG="$work/clone.json" "$workbook" solutions-branch 2>&1); echo "$out"
    expect "$out" "branch 'solutions'" "solutions branch"
    diff <(git -C "$work/clone" show solutions:exercises/04-rmsnorm/answers.md) "$work/clone/solutions/04-rmsnorm/answers.md" >/dev/null ||
      fail "answers.md on the branch is not the filled-in one"
  fi
else
  echo "(not a git checkout: student edition and solutions branch not exercised here)"
fi

echo "--- make bench-NN without a GPU: says that timings need one, and exits 0"
if ! nvidia-smi -L >/dev/null 2>&1 && [ -f "$root/benchmarks/04-rmsnorm/bench.sh" ]; then
  for n in 04 05; do
    out=$(make -s -C "$root" "bench-$n" 2>&1) || fail "make bench-$n without a GPU exited non-zero"
    expect "$out" "timings need a GPU" "make bench-$n without a GPU"
  done
  out=$(make -s -C "$root" bench-04 2>&1)
  expect "$out" "make profile-04 EX=<exercise>" "make bench-04 without a GPU offers the emulator's traffic analysis"
fi

echo "--- make profile-04: the emulator's counts, and which file content they are of (what a grade shows them for)"
if [ -f "$root/grader/emulator/profile/lesson04_driver.cu" ] && [ -f "$root/solutions/04-rmsnorm/rmsnorm_fast.cu" ]; then
  mkdir -p "$course/grader/emulator" "$work/fast"
  cp -r "$root/grader/emulator/profile" "$course/grader/emulator/"
  cp "$root/solutions/04-rmsnorm/rmsnorm_fast.cu" "$work/fast/"
  out=$(wb profile 04 --ex rmsnorm_fast --submission "$work/fast" --n 512 --rows 8); echo "$out" | grep -m2 -E "sectors/request"
  expect "$out" "global loads" "the profile counts the loads"
  expect "$out" "PREDICTION" "its times are labelled predictions"
  # The starter as shipped: its blanks named before anything is compiled, not a compiler's "'______' was not declared".
  out=$(wb profile 04 --ex rmsnorm --n 512 --rows 8) && fail "profile of an unfilled starter exited 0"
  expect "$out" "rmsnorm.cu still has" "profile of an unfilled starter names its blanks"
  expect "$out" "SOLUTIONS=1" "profile of an unfilled starter offers the solution's"
  grep -q "was not declared" <<<"$out" && fail "profile of an unfilled starter shows a compiler error"
  stamp=$course/build/profile/04/rmsnorm_fast/profiled-source.json
  [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sha256"])' "$stamp" 2>/dev/null)" = \
    "$(sha256sum "$work/fast/rmsnorm_fast.cu" | cut -d' ' -f1)" ] || fail "the profile does not name the content it counted"
fi

echo "--- every make command of the three documents is exercised somewhere"
# target → where it is exercised (this file, setup_test.sh with stand-ins, or the ctest that covers it)
covered="grade-04:setup_test.sh+grading.* test:ctest watch-04:here hint-04:here status:here reset-04:here
restore-04:here report-04:here grade-class:review.tools gradescope-04:review.tools solutions-branch:here
student-edition:here bench-04:here bench-05:here profile-04:here"
docs=$(cd "$root" && ls README.md docs/student-guide.md docs/instructor-guide.md 2>/dev/null)  # the edition has no guide
for t in $(cd "$root" && grep -ohE '`make [a-z0-9-]+' $docs | sed 's/`make //' | sort -u); do
  grep -qE "(^| )$t:" <<<"$covered" || fail "'make $t' is documented but no test exercises it"
done

[ "$fails" -eq 0 ] && echo "ok" || { echo "$fails check(s) failed"; exit 1; }
