#!/usr/bin/env bash
# Only the submission is read (docs/security.md): a submitted file that is a link, a device, a FIFO or a hard
# link is refused with one sentence and costs its own exercise (the rest of the submission is graded), nothing outside
# the submission folder is opened or quoted, and names that reach the report and results.json are sanitized. Graded
# with the real command, static backend (no build needed).
#   intake.sh ROOT WORKBOOK WORK
set -u
root=$1 workbook=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# A secret outside every submission, and a FIFO outside: the grader must neither quote the one nor open the other
# (opening a FIFO without a writer blocks, so a grader that followed the link would hang until `timeout`).
secret="$work/outside-secret.txt"
echo "SECRET-$$-$RANDOM do not quote" > "$secret"
mkfifo "$work/outside-fifo"

fresh() {  # a submission folder holding the untouched starters
  local dir="$work/$1"
  rm -rf "$dir" && cp -r "$root/exercises/04-rmsnorm" "$dir"
  echo "$dir"
}

# grade DIR -> sets rc, out (stdout+stderr) and json (the --json-out file, if any)
grade() {
  local json_out="$work/results-$(basename "$1").json"
  rm -f "$json_out"
  out=$(cd "$root" && NO_COLOR=1 timeout 120 "$workbook" grade 04 --submission "$1" --backend static \
        --json-out "$json_out" 2>&1)
  rc=$?
  json=""
  [[ -f $json_out ]] && json=$(cat "$json_out")
}

# expect_refused CASE SENTENCE [FILE]: the sentence printed, the file (rmsnorm.cu) not graded, which costs its
# exercise only (exit status 1: graded, not passed; results.json names it as missing), the secret never quoted.
expect_refused() {
  local name=$1 sentence=$2 file=${3:-rmsnorm.cu}
  if [[ $rc == 124 ]]; then fail "$name: the grader hung (it opened something it should not have)"; return; fi
  [[ $rc == 1 ]] || fail "$name: exit status $rc, expected 1 (graded without that file)"
  grep -qF -- "$sentence" <<<"$out" || fail "$name: the report lacks \"$sentence\""
  grep -qF "SECRET-" <<<"$out$json" && fail "$name: the secret outside the submission was quoted"
  if [[ $file == answers.md ]]; then
    grep -qF "\"answers_missing\": \"$sentence" <<<"$json" || fail "$name: results.json does not say answers.md was not graded"
  else
    grep -qF "\"missing\": \"$sentence" <<<"$json" || fail "$name: results.json does not name $file as not graded"
  fi
  grep -qF '"blanks_unfilled": [' <<<"$json" || fail "$name: the other exercises were not graded"
  echo "ok: $name"
}

d=$(fresh symlink); rm "$d/rmsnorm.cu"; ln -s "$secret" "$d/rmsnorm.cu"; grade "$d"
expect_refused "symbolic link to a file outside" "rmsnorm.cu is a symbolic link; a submission holds the files themselves"

d=$(fresh symlink-fifo); rm "$d/rmsnorm.cu"; ln -s "$work/outside-fifo" "$d/rmsnorm.cu"; grade "$d"
expect_refused "symbolic link to a FIFO outside" "rmsnorm.cu is a symbolic link"

d=$(fresh dangling); rm "$d/rmsnorm.cu"; ln -s "$work/no-such-file" "$d/rmsnorm.cu"; grade "$d"
expect_refused "dangling symbolic link" "rmsnorm.cu is a symbolic link"

d=$(fresh answers-link); rm "$d/answers.md"; ln -s "$secret" "$d/answers.md"; grade "$d"
expect_refused "answers.md as a symbolic link" "answers.md is a symbolic link" answers.md

d=$(fresh fifo); rm "$d/rmsnorm.cu"; mkfifo "$d/rmsnorm.cu"; grade "$d"
expect_refused "FIFO" "rmsnorm.cu is a named pipe (FIFO), not a file; it was not opened."

d=$(fresh hardlink); rm "$d/rmsnorm.cu"; ln "$secret" "$d/rmsnorm.cu"; grade "$d"
expect_refused "hard link to a file outside" "rmsnorm.cu has 2 hard links"

d=$(fresh folder); rm "$d/rmsnorm.cu"; mkdir "$d/rmsnorm.cu"; grade "$d"
expect_refused "folder in place of a file" "rmsnorm.cu is a folder, not a file."

d=$(fresh device); rm "$d/rmsnorm.cu"
if mknod "$d/rmsnorm.cu" c 1 3 2>/dev/null; then  # /dev/null's numbers; needs root (CI runs as root)
  grade "$d"
  expect_refused "device file" "rmsnorm.cu is a device file, not a file; it was not opened."
else
  echo "skipped: device file (mknod needs root)"
fi

# Names from the submission reach the report and results.json sanitized: no escape, no extra line.
d=$(fresh names)
evil=$'evil\n\e[32mPASSED\e[0m\xe2\x80\xae.cu'  # newline, ANSI colour, right-to-left override (bytes)
echo x > "$d/$evil"
grade "$d"
[[ $rc == 1 ]] || fail "sanitized names: exit status $rc, expected 1 (graded, not passed)"
grep -q $'\e' <<<"$out$json" && fail "sanitized names: an escape character reached the report or results.json"
grep -q $'\xe2\x80\xae' <<<"$out$json" && fail "sanitized names: a bidirectional override reached the report"
grep -qx "PASSED.*" <<<"$out" && fail "sanitized names: the file name started a line of its own in the report"
grep -qF 'ignored (not part of the submission): evil??[32mPASSED?[0m?.cu' <<<"$out" ||
  fail "sanitized names: the ignored file is not named on one sanitized line"
grep -qF '"ignored (not part of the submission): evil??[32mPASSED?[0m?.cu"' <<<"$json" ||
  fail "sanitized names: results.json does not hold the sanitized name"
echo "ok: sanitized names"

# A file handed in under another name (a browser's "(1)", another case, an added .txt) is named beside the refusal.
d=$(fresh renamed)
mv "$d/rmsnorm.cu" "$d/rmsnorm (1).cu"
mv "$d/block_reduce.cu" "$d/Block_Reduce.cu.txt"
rm "$d/rmsnorm_vec.cu"
grade "$d"
grep -qF 'rmsnorm.cu is missing; the submission holds `rmsnorm (1).cu`, which looks like it under another name: name it rmsnorm.cu.' <<<"$out" ||
  fail "renamed file: the report does not name rmsnorm (1).cu as rmsnorm.cu renamed"
grep -qF 'block_reduce.cu is missing; the submission holds `Block_Reduce.cu.txt`' <<<"$out" ||
  fail "renamed file: the report does not name Block_Reduce.cu.txt as block_reduce.cu renamed"
grep -qF 'rmsnorm_vec.cu is missing.' <<<"$out" ||
  fail "renamed file: a missing file with no copy in the submission is not named missing in so many words"
echo "ok: renamed file"

# Thousands of extra files are named by their first 20 only: an upload cannot fill the report and results.json.
d=$(fresh many)
long=$(printf 'x%.0s' {1..100})
for i in $(seq -w 100 199); do : > "$d/extra-$i-$long"; done
grade "$d"
[[ $rc == 1 ]] || fail "many extra files: exit status $rc, expected 1 (graded, not passed)"
grep -qF ", and 80 more" <<<"$out" || fail "many extra files: the report does not say how many more were ignored"
grep -qF "extra-120-" <<<"$out$json" && fail "many extra files: more than 20 names reached the report"
((${#json} < 200000)) || fail "many extra files: results.json holds ${#json} bytes"
echo "ok: many extra files"

# Class grading: a student's folder that is a link to another's is refused, not graded as theirs.
class="$work/class"; mkdir -p "$class"
cp -r "$root/exercises/04-rmsnorm" "$class/alice"
ln -s "$class/alice" "$class/bob"
out=$(cd "$root" && NO_COLOR=1 timeout 300 "$workbook" grade-class 04 --submissions "$class" --out "$work/class-out" \
      --backend static 2>&1)
grep -qF "bob is a symbolic link; a submission folder holds the files themselves, so it was not followed." \
  "$work/class-out/gradebook.csv" || fail "class grading: bob's linked folder was not refused ($out)"
[[ -e $work/class-out/latest/students/bob/results.json ]] && fail "class grading: bob's linked folder was graded"
echo "ok: class grading refuses a linked student folder"

if ((failures)); then echo "$failures intake check(s) failed"; exit 1; fi
echo "all intake checks passed"
