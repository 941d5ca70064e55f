#!/usr/bin/env bash
# Profiles every entry of a variants list (default variants.txt: the slow variants and the lesson's solutions) on the
# CPU emulator through `workbook profile`: M0 rows emulated, predicted for each shape of SHAPES, a list of
# predicted-rows:width[,width...] groups. The first group goes through `workbook profile` (which builds the program
# and reads registers from nvcc); the others rerun the program it built. Writes
# <out>/<name>/{report.txt,profile.jsonl,warp-*.svg}: one profile line per shape, labelled "ROWS x N".
#
#   benchmarks/profile-variants/emu-profile.sh [list] [out-dir] [build-dir]
#   (M0=256 SHAPES="16384:4096,8192 256:4096" by default: the training shapes of the time model)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
list=${1:-$root/benchmarks/profile-variants/variants.txt}
out=${2:-$root/build/profile-variants}
build=${3:-$root/build}
workbook=$build/grader/cli/workbook
[ -x "$workbook" ] || { echo "emu-profile: $workbook missing: build the workbook target first" >&2; exit 2; }
M0=${M0:-256}
read -r -a groups <<< "${SHAPES:-16384:4096,8192 256:4096}"
mkdir -p "$out/logs"
while read -r name src n; do
  [ -n "$name" ] || continue
  first=${groups[0]}
  "$workbook" profile 04 --file "$root/$src" --rows "$M0" --n "${first#*:}" --predict-rows "${first%%:*}" \
    --out "$out/$name" > "$out/logs/$name.log" 2>&1 || { echo "emu-profile: $name failed:"; tail -20 "$out/logs/$name.log"; exit 1; }
  for g in "${groups[@]:1}"; do
    IFS=, read -r -a widths <<< "${g#*:}"
    for w in "${widths[@]}"; do
      EMU_PROFILE="$out/$name" EMU_PROFILE_PTXAS="$out/$name/obj/ptxas.tsv" \
        "$out/$name/obj/profile" once "$M0" "$w" "${g%%:*}" >> "$out/logs/$name.log" 2>&1 ||
        { echo "emu-profile: $name at ${g%%:*} x $w failed:"; tail -20 "$out/logs/$name.log"; exit 1; }
    done
  done
  echo "$name: $(grep -c '^== ' "$out/$name/report.txt") launches profiled"
done < "$list"
