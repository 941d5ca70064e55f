#!/usr/bin/env bash
# On an H200, in one short call: the SIXTH check of the profiler's time model (round trips counted at a warp's
# shuffles and votes as well as at barriers; a launch of fewer blocks than SMs scaled by one whole block per SM in
# the L1 model; the seven constants refit on all 552 points of the first five checks and committed, with their
# predictions, before this call). Every timed point is new:
#   1. builds every entry of variants.txt, heldout.txt ... heldout5.txt with nvcc (-Xptxas -v);
#   2. the copy bandwidth, then times (median of 50 launches): the four NEW variants of heldout5.txt at five NEW
#      shapes and at the eighteen shapes of the earlier checks, then the 30 entries of the first five checks at the
#      five new shapes;
#   3. Nsight Compute on the new variants at 256 x 4096 (fewer blocks than SMs for three of them: the L1 fix) and
#      at 57344 x 1024: requests, sectors, L1 hits, L2 sectors, DRAM bytes, duration.
# No step starts after LEFT seconds (default 230) of the script; what finished is kept.
# Results: <out>/<name>.{ptxas,time,ncu.csv}, <out>/copy.txt, <out>/env.txt.
#
#   benchmarks/profile-variants/gpu-heldout5.sh <repo-root> <out>
# The other side: emu-profile.sh (SHAPES of these shapes); the table: compare.py --sixth.
set -uo pipefail
root=$1
out=$2
left=${LEFT:-230}
here=$root/benchmarks/profile-variants
mkdir -p "$out/bin"
old="$here/variants.txt $here/heldout.txt $here/heldout2.txt $here/heldout3.txt $here/heldout4.txt"
new="$here/heldout5.txt"
new_shapes="57344 1024 24576 2048 14336 4096 7168 7168 5120 12288"
old_shapes="16384 4096 16384 8192 65536 1024 32768 2048 4096 16384 16384 2048 8192 6144 2048 16384 32768 3072"
old_shapes+=" 8192 8192 40960 1024 6144 10240 12288 5120 49152 1024 81920 1024 20480 3072 10240 6144 3072 14336"
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
for name in warp_row4 warp_row2_vec4 bf16_warp_row2 stride2_store; do count "$name" 256 4096 57344 1024; done
echo "done at ${SECONDS}s"
