#!/usr/bin/env bash
# A student edition (`make student-edition`: committed content without solutions, tests or CI):
#   - configures: nothing in its CMake reaches for a file the edition leaves out (a student cannot repair a missing
#     grader source);
#   - every test its own `make test` registers finds the files it runs (a test of the instructor's checkout that
#     needs its solutions or its test folders would fail there; the whole run, minutes of building, is done by hand:
#     docs/instructor-guide.md says when);
#   - holds no solution: no blank's fill of any solution (40 characters or more, spaces aside) appears in any of its
#     files but the starters' own (their pristine copies included) and the manifests, whose last hint level is the
#     answer by design. The fills are read from the solutions' markers here, not from the grader.
#   student_edition_test.sh ROOT WORKBOOK [CMAKE_ARG...]   (this build's compilers and launcher: the configure compiles
#                                                          the manifest reader, grader/configure, through ccache;
#                                                          or takes it from WORKBOOK_SEED_BUILD when the edition's
#                                                          copies of its sources are the same: seed_lesson_cmake.sh)
set -u
root=$1 workbook=$2
shift 2
work=$(mktemp -d /tmp/workbook-student-edition-XXXXXX)  # the edition must go outside the repository
trap 'rm -rf "$work"' EXIT
if ! out=$(cd "$root" && "$workbook" student-edition --out "$work/edition" 2>&1); then
  echo "FAILED: make student-edition: $out"; exit 1
fi
echo "$out" | tail -n 1
[ -n "${WORKBOOK_SEED_BUILD:-}" ] && "$root/tests/setup/seed_lesson_cmake.sh" "$WORKBOOK_SEED_BUILD" "$work/build"
if ! cmake -S "$work/edition" -B "$work/build" "$@" > "$work/configure.log" 2>&1; then
  echo "FAILED: the student edition does not configure:"; grep -A3 "CMake Error" "$work/configure.log" | head -30
  exit 1
fi
[ -d "$work/edition/solutions" ] && { echo "FAILED: the edition holds solutions/"; exit 1; }
echo "ok: the student edition configures"
# Its bench-NN says why it times nothing and offers the emulator's traffic analysis where the lesson has it.
out=$(make -s -C "$work/edition" bench-04 2>&1) || { echo "FAILED: the edition's make bench-04 exited non-zero: $out"; exit 1; }
grep -qF "make profile-04 EX=<exercise>" <<<"$out" || { echo "FAILED: the edition's make bench-04: $out"; exit 1; }

ctest --test-dir "$work/build" --show-only=json-v1 > "$work/tests.json" 2> "$work/ctest.err" ||
  { echo "FAILED: ctest cannot list the edition's tests: $(cat "$work/ctest.err")"; exit 1; }
python3 - "$work/tests.json" "$work/edition" "$root" <<'PY' || exit 1
import json, os, re, sys
tests, edition, root = json.load(open(sys.argv[1]))["tests"], sys.argv[2], sys.argv[3]
bad = []
for t in tests:
    for arg in t.get("command", []):
        # An argument that names a source file of the edition must be there (build outputs are made by its build).
        if arg.startswith(edition + "/") and not os.path.exists(arg):
            bad.append(f"{t['name']}: {os.path.relpath(arg, edition)} is not in the edition")
names = [t["name"] for t in tests]
if "setup.commands" not in names:
    bad.append("the edition's make test does not run setup.commands (its documented commands)")
for b in bad: print("FAILED:", b)
if bad: sys.exit(1)
print(f"ok: the edition's make test registers {len(names)} tests, each with its files: {', '.join(names)}")

norm = lambda text: re.sub(r"\s+", "", text)
fills = []
solutions = os.path.join(root, "solutions")
for lesson in sorted(os.listdir(solutions)) if os.path.isdir(solutions) else []:
    folder = os.path.join(solutions, lesson)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".cu"):
            continue
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        found = re.findall(r"/\*BLANK:(\w+)\*/(.*?)/\*END\*/", text, re.S)
        found += re.findall(r"//\s*BLANK:(\w+)[^\n]*\n(.*?)//\s*END BLANK", text, re.S)
        fills += [(f"{lesson}/{name}", blank, norm(fill)) for blank, fill in found if len(norm(fill)) >= 40]
leaks = []
for folder, subfolders, files in os.walk(edition):
    subfolders[:] = [s for s in subfolders if s != ".git"]
    rel = os.path.relpath(folder, edition)
    if rel.split(os.sep)[0] == "exercises" or rel.startswith(os.path.join("grader", "pristine")):
        continue  # the starters: lesson.leaks keeps one exercise's answer out of another's file
    for name in files:
        if name == "lesson.json":
            continue
        try:
            text = norm(open(os.path.join(folder, name), encoding="utf-8").read())
        except (UnicodeDecodeError, OSError):
            continue  # a picture or another binary file: no source text to leak
        leaks += [f"{os.path.join(rel, name)} holds the fill of {src}'s blank '{blank}'"
                  for src, blank, fill in fills if fill in text]
for leak in leaks: print("FAILED:", leak)
if leaks: sys.exit(1)
print(f"ok: none of the solutions' {len(fills)} long fills is in the edition outside the starters and the manifests")
PY
