#!/usr/bin/env bash
# On an H200: builds every entry of variants.txt with nvcc (registers from -Xptxas -v), checks and times each at the
# large shapes, and reads Nsight Compute's counters for the same launch the emulator profiles (the count shape) and
# for a large one (DRAM bytes). Results: <out>/<name>.{ptxas,time,ncu-count.csv,ncu-large.csv}, <out>/copy.txt.
#
#   benchmarks/profile-variants/gpu-validate.sh <repo-root> <out>
# The emulator side of the comparison: emu-profile.sh; the table of that first run came from compare.py as of
# commit dc88f15 (git show dc88f15:benchmarks/profile-variants/compare.py); the held-out run: gpu-heldout.sh.
set -uo pipefail
root=$1
out=$2
M0=${M0:-256}
mkdir -p "$out/bin"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum,gpu__time_duration.sum
metrics+=,smsp__sass_branch_targets_threads_divergent.sum,launch__registers_per_thread
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
core=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
core+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
core+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,dram__bytes_read.sum,gpu__time_duration.sum
# Build in parallel (16 cores there).
grep -v '^\s*$' "$root/benchmarks/profile-variants/variants.txt" | while read -r name src n; do
  echo "nvcc -std=c++17 -O3 -arch=sm_90 -Xptxas -v -o '$out/bin/$name' '$root/grader/emulator/profile/lesson04_driver.cu' '$root/$src' > '$out/$name.ptxas' 2>&1"
done | xargs -P 12 -I{} sh -c {}
"$out/bin/rmsnorm" copy > "$out/copy.txt" 2>&1
while read -r name src n; do
  [ -n "$name" ] || continue
  [ -x "$out/bin/$name" ] || { echo "$name: build failed"; tail -5 "$out/$name.ptxas"; continue; }
  {
    for shape in "16384 $n" "16384 8192"; do
      echo "shape $shape: $("$out/bin/$name" time $shape 50 | tr '\n' ' ')"
    done
  } > "$out/$name.time" 2>&1
  # The count shape: the driver's first launch, the one the emulator profiles.
  for run in "count $M0 $n" "large 16384 8192"; do
    set -- $run
    ncu --clock-control none --kernel-name regex:kernel --launch-count 1 --metrics "$metrics" --csv --page raw \
        "$out/bin/$name" once "$2" "$3" > "$out/$name.ncu-$1.csv" 2>&1 ||
      # A metric this ncu does not know fails the whole call: retry with the core counters alone.
      ncu --clock-control none --kernel-name regex:kernel --launch-count 1 --metrics "$core" --csv --page raw \
          "$out/bin/$name" once "$2" "$3" > "$out/$name.ncu-$1.csv" 2>&1
  done
  echo "$name: $(tr '\n' ' ' < "$out/$name.time" | cut -c1-200)"
done < "$root/benchmarks/profile-variants/variants.txt"
