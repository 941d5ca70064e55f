#!/usr/bin/env bash
# Builds every profile variant (and the lesson's fp32/bf16 solutions) for the CPU emulator and profiles each on
# the count shape (M0 rows of N, predicted for M rows) and at N = 8192: what gpu-validate.sh measures on an H200.
# Writes <out>/<name>/{report.txt,profile.jsonl,warp-*.svg}. PTXAS_DIR: folder of <name>.tsv register tables
# (workbook profile's format) for the occupancy.
#
#   benchmarks/profile-variants/emu-profile.sh [out-dir] [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/profile-variants}
build=${2:-$root/build}
cfg=$build/workbook-config.json
[ -f "$cfg" ] || { echo "emu-profile: $cfg missing: configure the project first (make configure)" >&2; exit 2; }
rewrite=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emu']['rewrite'])" "$cfg")
runtime=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['emu']['runtime_lib'])" "$cfg")
mapfile -t cxxflags < <(python3 -c "import json,sys; print('\n'.join(json.load(open(sys.argv[1]))['emu']['cxxflags']))" "$cfg")
mapfile -t ldflags < <(python3 -c "import json,sys; print('\n'.join(json.load(open(sys.argv[1]))['emu']['ldflags']))" "$cfg")
mkdir -p "$out/obj"
compile() {  # file.cu -> object
  local src=$1 obj=$2
  "$rewrite" "$src" "$obj.cpp"
  g++ "${cxxflags[@]}" -c "$obj.cpp" -o "$obj"
}
compile "$root/grader/emulator/profile/lesson04_driver.cu" "$out/obj/driver.o"
# name  source  N  (count shape: M0 rows of N, predicted for M rows)
M0=${M0:-256}; M=${M:-16384}
while read -r name src n; do
  [ -n "$name" ] || continue
  compile "$root/$src" "$out/obj/$name.o"
  g++ "$out/obj/driver.o" "$out/obj/$name.o" "$runtime" "${ldflags[@]}" -o "$out/obj/$name"
  rm -rf "${out:?}/$name"; mkdir -p "$out/$name"
  # The count shape (the launch Nsight Compute counts too), then the large width for the prediction.
  for width in "$n" 8192; do
    EMU_PROFILE="$out/$name" ${PTXAS_DIR:+EMU_PROFILE_PTXAS=$PTXAS_DIR/$name.tsv} "$out/obj/$name" once "$M0" "$width" "$M"
  done
done < "$root/benchmarks/profile-variants/variants.txt"
