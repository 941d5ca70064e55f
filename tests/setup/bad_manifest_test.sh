#!/usr/bin/env bash
# CMake learns the lessons from the grader's own parser (grader/configure/lessons.cmake), so a manifest or a list of
# known answers that the parser refuses stops the configure with the parser's sentence, naming the file and the key.
# On a copy of the working tree (tracked and untracked files), each case configures a build folder and expects it to
# fail with that sentence. lesson-cmake comes from the build in WORKBOOK_SEED_BUILD when its sources are the copy's
# (seed_lesson_cmake.sh says why and how that is checked); otherwise the first case builds it (through the launcher
# given, ccache if any), and the later ones find it built.
#   bad_manifest_test.sh ROOT [CMAKE_ARG...]
set -uo pipefail
root=$1; shift
work=$(mktemp -d /tmp/workbook-bad-manifest-XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$root" && git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$work" 2>/dev/null)
[ -f "$work/lessons/05-layernorm/lesson.json" ] || { echo "FAILED: the copy has no lessons/05-layernorm/lesson.json"; exit 1; }
[ -n "${WORKBOOK_SEED_BUILD:-}" ] && "$root/tests/setup/seed_lesson_cmake.sh" "$WORKBOOK_SEED_BUILD" "$work/build"
fails=0
# expect_refused NAME SENTENCE: configure must fail, and its output (CMake wraps a message's lines) hold SENTENCE.
expect_refused() {
  local out
  if out=$(cmake -S "$work" -B "$work/build" "${cmake_args[@]}" 2>&1); then
    echo "FAILED: $1: the configure succeeded"; fails=$((fails + 1)); return
  fi
  if ! tr -s ' \n' '  ' <<<"$out" | grep -qF -- "$2"; then
    echo "FAILED: $1: expected «$2» in:"; echo "$out" | tail -n 15; fails=$((fails + 1)); return
  fi
  echo "ok: $1: $2"
}
cmake_args=("$@")
manifest=$work/lessons/05-layernorm/lesson.json
cp "$manifest" "$work/lesson.json.orig"

# A required key misspelt: the first exercise's "section" written "chapter".
python3 - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["exercises"][0]["chapter"] = m["exercises"][0].pop("section")
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
expect_refused "a missing key" "lessons/05-layernorm/lesson.json: exercises[0] (layernorm) has no key 'section' (a string)."

# A key nothing reads.
python3 - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["exercises"][0]["section"] = m["exercises"][0].pop("chapter")
m["exercises"][1]["blank"] = "rstd"
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
expect_refused "an unknown key" "lessons/05-layernorm/lesson.json: exercises[1] (welford) has an unknown key 'blank'"

# A list of known answers with a name twice.
cp "$work/lesson.json.orig" "$manifest"
read -r index first < <(python3 - "$work/solutions/05-layernorm/wrong/wrong.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1])); w.append(dict(w[0]))
json.dump(w, open(sys.argv[1], "w"), indent=2)
print(len(w) - 1, w[0]["name"])
PY
)
expect_refused "a repeated known answer" \
  "solutions/05-layernorm/wrong/wrong.json: entry $index is named '$first', like an entry before it; names are unique."
[ "$fails" -eq 0 ] || exit 1
echo "ok: every refused manifest stopped the configure with the parser's sentence"
