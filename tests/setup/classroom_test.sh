#!/usr/bin/env bash
# GitHub Classroom (.github/workflows/classroom.yml) in a student repository: a clone of the student edition, as the
# Classroom assignment's template makes it. Its steps are run there as the runner would run them, with this build's
# grader (the Makefile's own set-up in a fresh clone, minutes of compiling, is setup.makefile's and CI's):
#   - the workflow, the script its lines call and the lesson's manifest are in the edition;
#   - its rubric lines are the manifest's core rubric, and their points add up to the manifest's core points;
#   - the Grade step's command grades the untouched starters (not passed: exit 1, which the step accepts) and then a
#     solved core exercise; each line's command fails on the first and passes with all its points on the second.
#   classroom_test.sh ROOT WORKBOOK CONFIG
set -uo pipefail
root=$1 workbook=$2 config=$3
work=$(mktemp -d /tmp/workbook-classroom-XXXXXX)  # the edition must go outside the repository
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }

if ! git -C "$root" rev-parse --verify -q HEAD > /dev/null 2>&1; then
  echo "(not a git checkout: no student edition to make; nothing checked)"; exit 0
fi
out=$(cd "$root" && WORKBOOK_CONFIG="$config" "$workbook" student-edition --out "$work/edition" 2>&1) ||
  { echo "FAILED: make student-edition: $out"; exit 1; }
# The template repository, and the student's clone of it.
git -C "$work/edition" init -q && git -C "$work/edition" add -A &&
  git -C "$work/edition" -c user.name=instructor -c user.email=i@example.org commit -qm template ||
  { echo "FAILED: the edition is not a git repository"; exit 1; }
git clone -q "$work/edition" "$work/student" || { echo "FAILED: cloning the template"; exit 1; }
student=$work/student
python3 - "$config" "$student" "$work/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c["repo_root"] = sys.argv[2]; c["build_dir"] = sys.argv[2] + "/build"
json.dump(c, open(sys.argv[3], "w"))
PY
wf=$student/.github/workflows/classroom.yml
for f in "$wf" "$student/scripts/classroom/rubric-line.py" "$student/lessons/04-rmsnorm/lesson.json"; do
  [ -f "$f" ] || fail "${f#"$student/"} is not in the student's repository"
done
[ -x "$student/scripts/classroom/rubric-line.py" ] || fail "scripts/classroom/rubric-line.py is not executable there"
[ "$fails" -eq 0 ] || exit 1

echo "--- the workflow's rubric lines and points against the manifest"
python3 - "$wf" "$student/lessons/04-rmsnorm/lesson.json" 2>&1 > "$work/lines" <<'PY' || fail "workflow against the manifest"
import json, re, sys
wf, manifest = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
steps = re.findall(r'command: "(scripts/classroom/rubric-line.py build/results/04/results.json (\S+))", '
                   r'timeout: \d+, max-score: (\d+)', wf)
core = manifest["pass"]["core"]
want = {"code-" + g: p for ex in manifest["exercises"] if ex["name"] == core for g, p in ex["points"].items()}
want.update({w["id"]: w["points"] for w in manifest["written"] if w.get("exercise") == core})
got = {line: int(points) for _, line, points in steps}
assert got == want, f"workflow lines {got} != the manifest's core rubric {want}"
total = sum(want.values())
print(f"{len(got)} lines, {sum(got.values())} points: the manifest's core points ({total})", file=sys.stderr)
runners = re.search(r"runners: (\S+)", wf).group(1).split(",")
ids = re.findall(r"- id: (\S+)", wf)
assert runners == ids, f"the reporter's runners {runners} are not the graded steps {ids}"
for command, line, _ in steps:
    print(line, command)
PY
grade_line=$(grep -E '^\s+run: make grade-04' "$wf" | sed -E 's/^\s+run: //')
echo "Grade step: $grade_line"
# The Grade step runs make, whose translation into this command setup.makefile checks ("options reach the grade").
[[ "$grade_line" =~ ^make\ grade-04\ BACKEND=emu(\ JOBS=[^ ]+)?\ \|\|\ test\ \$\?\ -eq\ 1$ ]] ||
  fail "the Grade step is not 'make grade-04 BACKEND=emu … || test \$? -eq 1': $grade_line"

grade_and_score() {  # $1: what the repository holds; $2: exit status every line must have; then grade options
  local label=$1 want=$2; shift 2
  (cd "$student" && WORKBOOK_CONFIG=$work/config.json "$workbook" grade 04 --backend emu "$@" > "$work/grade.log" 2>&1)
  local rc=$?
  echo "--- $label: the grade exits $rc"; tail -n 1 "$work/grade.log"
  [ "$rc" -le 1 ] || fail "$label: the Grade step fails (exit $rc): $(tail -n 3 "$work/grade.log")"
  while read -r line command; do
    out=$(cd "$student" && $command 2>&1); rc=$?
    echo "$out" | head -n 1
    [ "$rc" -eq "$want" ] || fail "$label: '$command' exited $rc, not $want"
  done < "$work/lines"
}
grade_and_score "the starters as the template ships them" 1
cp "$root/solutions/04-rmsnorm/rmsnorm.cu" "$root/solutions/04-rmsnorm/answers.md" "$student/exercises/04-rmsnorm/" 2>/dev/null &&
  grade_and_score "a solved core exercise and its answers" 0 --ex rmsnorm

[ "$fails" -eq 0 ] && echo "ok: the Classroom workflow grades a student repository" || { echo "$fails check(s) failed"; exit 1; }
