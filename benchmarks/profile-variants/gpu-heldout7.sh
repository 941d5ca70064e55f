#!/usr/bin/env bash
# On an H200, in one call of under seven minutes: the EIGHTH check of the profiler's time model (docs/emulator.md,
# Profiler: eighth check; its predictions were committed before this call: docs/gpu-runs/2026-12-07-profile8-
# predictions.txt, ptx_fits.py --predict8: the model in profile_model.cpp and the PTX candidate beside it). Every timed
# point is new:
#   1. builds every entry of variants.txt, heldout.txt ... heldout7.txt with nvcc (-Xptxas -v), ~20 s;
#   2. the copy bandwidth; the four NEW variants of heldout7.txt (unroll-controlled contrasts: the same trace as a
#      variant the fit has seen, another number of loads in flight per warp) at five NEW shapes and the 28 shapes of
#      the earlier checks (132 points, ~110 s at the seventh call's 0.8 s a point);
#   3. their partners (warp_row4, warp_row2, rows2, and the several-rows-per-warp variants) at the five new shapes
#      (35 points, ~30 s);
#   4. Nsight Compute, with the shared-memory bank-conflict counters (heldout-lib.sh), on smem_unpadded, smem_padded,
#      smem_pad2 and the four new variants at 256 x 4096 and 57344 x 1024 (~25 s);
#   5. the other 30 old entries at the five new shapes (150 points, ~120 s), until LEFT.
# No step starts after LEFT seconds (default 330) of the script; what finished is kept.
# Results: <out>/<name>.{ptxas,time,ncu.csv}, <out>/copy.txt, <out>/env.txt.
#
#   benchmarks/profile-variants/gpu-heldout7.sh <repo-root> <out>
# As one device call (about 5 min of wall, all steps done near 300 s; 6 min 20 s at most; one file comes back):
#   mkdir -p /tmp/r; LEFT=330 timeout 380 bash benchmarks/profile-variants/gpu-heldout7.sh . /tmp/r \
#     > /tmp/r/console.txt 2>&1; echo "rc=$? at ${SECONDS}s" >> /tmp/r/console.txt
#   tar czf $OUT/heldout8.tgz --exclude=bin -C /tmp r
# The other side: emu-profile.sh (SHAPES of these shapes); the table: ptx_fits.py --eighth.
set -uo pipefail
root=$1
out=$2
left=${LEFT:-330}
here=$root/benchmarks/profile-variants
. "$here/heldout-lib.sh"
mkdir -p "$out"
earlier="$here/variants.txt $here/heldout.txt $here/heldout2.txt $here/heldout3.txt $here/heldout4.txt"
earlier+=" $here/heldout5.txt $here/heldout6.txt"
new_shapes="61440 1024 30720 2048 20480 4096 9216 9216 5632 13312"
old_shapes="16384 4096 16384 8192 65536 1024 32768 2048 4096 16384 16384 2048 8192 6144 2048 16384 32768 3072"
old_shapes+=" 8192 8192 40960 1024 6144 10240 12288 5120 49152 1024 81920 1024 20480 3072 10240 6144 3072 14336"
old_shapes+=" 57344 1024 24576 2048 14336 4096 7168 7168 5120 12288"
old_shapes+=" 98304 1024 28672 2048 18432 3072 11264 5120 3584 15360"
partners="warp_row4 warp_row2 rows2 warp_row4_vec4 warp_row2_ilp bf16_warp_row4 half_warp_row"
record_env
build_lists $earlier "$here/heldout7.txt"
copy_bandwidth
sweep "$here/heldout7.txt" $new_shapes $old_shapes
echo "new variants timed at ${SECONDS}s"
entries $earlier | grep -E "^($(echo $partners | tr ' ' '|')) " > "$out/partners.txt"
sweep "$out/partners.txt" $new_shapes
for name in smem_unpadded smem_padded smem_pad2 $(entries "$here/heldout7.txt" | cut -d' ' -f1); do
  count "$name" 256 4096 57344 1024
done
entries $earlier | grep -v -E "^($(echo $partners | tr ' ' '|')) " > "$out/others.txt"
sweep "$out/others.txt" $new_shapes
echo "done at ${SECONDS}s"
