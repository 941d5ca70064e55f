#!/usr/bin/env bash
# On an H200, in one short call: the THIRD check of the profiler's time model (the model with the L1 model,
# per-instance registers and unseen stores, fitted on the first two runs and committed before this call).
#   1. builds every entry of variants.txt, heldout.txt and heldout2.txt with nvcc (registers from -Xptxas -v);
#   2. the copy bandwidth, then times (median of 50 launches): the entries of the first two runs at four NEW shapes
#      (and at 16384 x 4096, to see the drift since the run they were fitted on), the four NEW variants of
#      heldout2.txt at those and at the five shapes of the earlier runs;
#   3. Nsight Compute on the new variants (256 x 4096 and 16384 x 8192) and on strided and column_major at
#      2048 x 16384: L1 hits (the L1 model's prediction), L2 sectors, DRAM bytes, duration.
# Results: <out>/<name>.{ptxas,time,ncu.csv}, <out>/copy.txt, <out>/env.txt.
#
#   benchmarks/profile-variants/gpu-heldout2.sh <repo-root> <out>
# The other side: emu-profile.sh (SHAPES of these shapes); the table: compare.py --third.
set -uo pipefail
root=$1
out=$2
here=$root/benchmarks/profile-variants
mkdir -p "$out/bin"
old="$here/variants.txt $here/heldout.txt"
new="$here/heldout2.txt"
new_shapes="16384 2048 8192 6144 2048 16384 32768 3072"
old_shapes="16384 4096 16384 8192 65536 1024 32768 2048 4096 16384"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2
  ncu --version | tail -1; } > "$out/env.txt" 2>&1
cat $old $new | grep -v '^\s*$' | while read -r name src n; do
  echo "nvcc -std=c++17 -O3 -arch=sm_90 -Xptxas -v -o '$out/bin/$name' '$root/grader/emulator/profile/lesson04_driver.cu' '$root/$src' > '$out/$name.ptxas' 2>&1"
done | xargs -P 16 -I{} sh -c {}
echo "built: $(ls "$out/bin" | wc -l) of $(cat $old $new | grep -cv '^\s*$')"
"$out/bin/rmsnorm" copy > "$out/copy.txt" 2>&1
cat "$out/copy.txt"
sweep() {  # list, shapes...
  local list=$1; shift
  grep -v '^\s*$' "$list" | while read -r name src n; do
    [ -x "$out/bin/$name" ] || { echo "$name: build failed: $(tail -3 "$out/$name.ptxas")"; continue; }
    "$out/bin/$name" sweep 50 "$@" > "$out/$name.time" 2>&1
    echo "$name: $(grep -o 'shape [0-9]* [0-9]*: \|time_us [0-9.]*\|WRONG' "$out/$name.time" | tr '\n' ' ')"
  done
}
for l in $old; do sweep "$l" 16384 4096 $new_shapes; done
sweep "$new" $old_shapes $new_shapes
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,lts__t_sectors_srcunit_tex.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
metrics+=,launch__registers_per_thread
count() {  # name, driver shapes...
  local name=$1; shift
  ncu --clock-control none --kernel-name regex:kernel --launch-count $(( $# / 2 )) --metrics "$metrics" --csv \
      --page raw "$out/bin/$name" shapes "$@" > "$out/$name.ncu.csv" 2>&1 ||
    echo "$name: ncu failed: $(grep -m2 -i 'error' "$out/$name.ncu.csv")"
}
while read -r name src n; do
  [ -n "$name" ] && count "$name" 256 4096 16384 8192
done < "$new"
for name in strided column_major; do count "$name" 2048 16384; done
echo done
