#!/usr/bin/env bash
# On an H200, in one call of under five minutes: the SEVENTH check of the profiler's time model (docs/emulator.md,
# Profiler: seventh check; its predictions were committed before this call: docs/gpu-runs/2026-12-07-profile7-
# predictions.txt, compare.py --predict7). Every timed point is new:
#   1. builds every entry of variants.txt, heldout.txt ... heldout6.txt with nvcc (-Xptxas -v), ~20 s;
#   2. the copy bandwidth; the three NEW variants of heldout6.txt timed at five NEW shapes and the 23 shapes of the
#      earlier checks (84 points, ~80 s);
#   3. Nsight Compute on the seven variants that lack counters (heldout5.txt's four: the sixth call ran out of time
#      before them; heldout6.txt's three) at 256 x 4096 and 57344 x 1024 (~20 s);
#   4. the 34 old entries at the five new shapes, the sixth check's several-rows-per-warp entries first, until LEFT.
# No step starts after LEFT seconds (default 245) of the script; what finished is kept.
# Results: <out>/<name>.{ptxas,time,ncu.csv}, <out>/copy.txt, <out>/env.txt.
#
#   benchmarks/profile-variants/gpu-heldout6.sh <repo-root> <out>
# As one device call (about 4 min 10 s of wall, 4 min 50 s at most; one file comes back):
#   mkdir -p /tmp/r; LEFT=245 timeout 290 bash benchmarks/profile-variants/gpu-heldout6.sh . /tmp/r \
#     > /tmp/r/console.txt 2>&1; echo "rc=$? at ${SECONDS}s" >> /tmp/r/console.txt
#   tar czf $OUT/heldout7.tgz --exclude=bin -C /tmp r
# The other side: emu-profile.sh (SHAPES of these shapes); the table: compare.py --seventh.
set -uo pipefail
root=$1
out=$2
left=${LEFT:-245}
here=$root/benchmarks/profile-variants
. "$here/heldout-lib.sh"
mkdir -p "$out"
earlier="$here/variants.txt $here/heldout.txt $here/heldout2.txt $here/heldout3.txt $here/heldout4.txt"
new_shapes="98304 1024 28672 2048 18432 3072 11264 5120 3584 15360"
old_shapes="16384 4096 16384 8192 65536 1024 32768 2048 4096 16384 16384 2048 8192 6144 2048 16384 32768 3072"
old_shapes+=" 8192 8192 40960 1024 6144 10240 12288 5120 49152 1024 81920 1024 20480 3072 10240 6144 3072 14336"
old_shapes+=" 57344 1024 24576 2048 14336 4096 7168 7168 5120 12288"
record_env
build_lists $earlier "$here/heldout5.txt" "$here/heldout6.txt"
copy_bandwidth
sweep "$here/heldout6.txt" $new_shapes $old_shapes
echo "new variants timed at ${SECONDS}s"
for name in $(entries "$here/heldout5.txt" "$here/heldout6.txt" | cut -d' ' -f1); do count "$name" 256 4096 57344 1024; done
for l in "$here/heldout5.txt" $earlier; do sweep "$l" $new_shapes; done
echo "done at ${SECONDS}s"
