#!/usr/bin/env bash
# Profiles every entry of variants.txt (the slow variants and the lesson's solutions) on the CPU emulator through
# `workbook profile`, at the count shape (M0 rows of N, the launch gpu-validate.sh has Nsight Compute count) and at
# N = 8192, both predicted for M rows. Writes <out>/<name>/{report.txt,profile.jsonl,warp-*.svg}.
#
#   benchmarks/profile-variants/emu-profile.sh [out-dir] [build-dir]      (M0=256 M=16384 by default)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/profile-variants}
build=${2:-$root/build}
workbook=$build/grader/cli/workbook
[ -x "$workbook" ] || { echo "emu-profile: $workbook missing: build the workbook target first" >&2; exit 2; }
M0=${M0:-256}
M=${M:-16384}
mkdir -p "$out/logs"
while read -r name src n; do
  [ -n "$name" ] || continue
  "$workbook" profile 04 --file "$root/$src" --rows "$M0" --n "$n,8192" --predict-rows "$M" --out "$out/$name" \
    > "$out/logs/$name.log" 2>&1 || { echo "emu-profile: $name failed:"; tail -20 "$out/logs/$name.log"; exit 1; }
  echo "$name: $(grep -c '^== ' "$out/$name/report.txt") launches profiled"
done < "$root/benchmarks/profile-variants/variants.txt"
