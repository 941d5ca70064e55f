#!/usr/bin/env bash
# On an H200, in one short call: the FIFTH check of the profiler's time model (a traffic clock per warp in the L1
# and L2 models; refit on all 350 points of the first four checks and committed, with its predictions, before this
# call). Every timed point is new:
#   1. builds every entry of variants.txt, heldout.txt ... heldout4.txt with nvcc (-Xptxas -v);
#   2. the copy bandwidth, then times (median of 50 launches): the four NEW variants of heldout4.txt at five NEW
#      shapes and at the thirteen shapes of the earlier checks, then the 26 entries of the first four checks at the
#      five new shapes;
#   3. Nsight Compute on the new variants (256 x 4096, 49152 x 1024; stride4_store at 16384 x 8192 too, where its
#      quarter-sector stores leave L2 between the quarters) and on the one-warp-per-row
#      entries of the fourth check's misses (bf16_warp_row, warp_row_vec4) and stride2 at 49152 x 1024 (are its
#      half-sector stores written to DRAM more than once on short rows?): requests, sectors,
#      L1 hits, L2 sectors, DRAM bytes, duration.
# No step starts after LEFT seconds (default 250) of the script; what finished is kept.
# Results: <out>/<name>.{ptxas,time,ncu.csv}, <out>/copy.txt, <out>/env.txt.
#
#   benchmarks/profile-variants/gpu-heldout4.sh <repo-root> <out>
# The other side: emu-profile.sh (SHAPES of these shapes); the table: compare.py --fifth.
set -uo pipefail
root=$1
out=$2
left=${LEFT:-250}
here=$root/benchmarks/profile-variants
mkdir -p "$out/bin"
old="$here/variants.txt $here/heldout.txt $here/heldout2.txt $here/heldout3.txt"
new="$here/heldout4.txt"
new_shapes="49152 1024 81920 1024 20480 3072 10240 6144 3072 14336"
old_shapes="16384 4096 16384 8192 65536 1024 32768 2048 4096 16384 16384 2048 8192 6144 2048 16384 32768 3072"
old_shapes+=" 8192 8192 40960 1024 6144 10240 12288 5120"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2
  ncu --version | tail -1; } > "$out/env.txt" 2>&1
cat $old $new | grep -v '^\s*$' | while read -r name src n; do
  echo "nvcc -std=c++17 -O3 -arch=sm_90 -Xptxas -v -o '$out/bin/$name' '$root/grader/emulator/profile/lesson04_driver.cu' '$root/$src' > '$out/$name.ptxas' 2>&1"
done | xargs -P 16 -I{} sh -c {}
echo "built: $(ls "$out/bin" | wc -l) of $(cat $old $new | grep -cv '^\s*$') at ${SECONDS}s"
"$out/bin/rmsnorm" copy > "$out/copy.txt" 2>&1
cat "$out/copy.txt"
sweep() {  # list, shapes...
  local list=$1; shift
  grep -v '^\s*$' "$list" | while read -r name src n; do
    [ "$SECONDS" -lt "$left" ] || { echo "$name: not timed (${SECONDS}s)"; continue; }
    [ -x "$out/bin/$name" ] || { echo "$name: build failed: $(tail -3 "$out/$name.ptxas")"; continue; }
    "$out/bin/$name" sweep 50 "$@" >> "$out/$name.time" 2>&1
    echo "$name: $(grep -o 'shape [0-9]* [0-9]*: \|time_us [0-9.]*\|WRONG' "$out/$name.time" | tr '\n' ' ')"
  done
}
sweep "$new" $new_shapes $old_shapes
for l in $old; do sweep "$l" $new_shapes; done
echo "timed at ${SECONDS}s"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,lts__t_sectors_srcunit_tex.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
metrics+=,launch__registers_per_thread
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
count() {  # name, driver shapes...
  local name=$1; shift
  [ "$SECONDS" -lt "$left" ] || { echo "$name: not counted (${SECONDS}s)"; return; }
  ncu --clock-control none --kernel-name regex:kernel --launch-count $(( $# / 2 )) --metrics "$metrics" --csv \
      --page raw "$out/bin/$name" shapes "$@" > "$out/$name.ncu.csv" 2>&1 ||
    echo "$name: ncu failed: $(grep -m2 -i 'error' "$out/$name.ncu.csv")"
}
for name in bf16_warp_row16 warp_row2 half_warp_row; do count "$name" 256 4096 49152 1024; done
count stride4_store 256 4096 49152 1024 16384 8192
for name in bf16_warp_row warp_row_vec4 stride2; do count "$name" 49152 1024; done
echo "done at ${SECONDS}s"
