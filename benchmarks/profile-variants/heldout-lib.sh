# What the held-out checks' GPU scripts share (gpu-heldout6.sh on; the earlier gpu-heldout*.sh are kept as the calls
# that ran): sourced, with root (the repository), out (the results folder) and left (no step starts after this many
# seconds of the script) set. Each function writes under $out and says on stdout what it did.
#   record_env              env.txt: date, GPU, driver, clocks, nvcc, ncu
#   build_lists LIST...     every entry of the lists built with nvcc -Xptxas -v into $out/bin (16 at once)
#   copy_bandwidth          copy.txt: the device-to-device copy, the model's ceiling
#   sweep LIST M N...       each entry of LIST timed (driver sweep 50: medians of 50 launches) at the shapes
#   count NAME M N...       Nsight Compute (--clock-control none) on NAME's launch at each shape: NAME.ncu.csv

record_env() {
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nvcc --version | tail -2
    ncu --version | tail -1; } > "$out/env.txt" 2>&1
}

entries() { cat "$@" | grep -v '^\s*$'; }

build_lists() {
  mkdir -p "$out/bin"
  entries "$@" | while read -r name src n; do
    echo "nvcc -std=c++17 -O3 -arch=sm_90 -Xptxas -v -o '$out/bin/$name' '$root/grader/emulator/profile/lesson04_driver.cu' '$root/$src' > '$out/$name.ptxas' 2>&1"
  done | xargs -P 16 -I{} sh -c {}
  echo "built: $(ls "$out/bin" | wc -l) of $(entries "$@" | wc -l) at ${SECONDS}s"
}

copy_bandwidth() {
  "$out/bin/rmsnorm" copy > "$out/copy.txt" 2>&1
  cat "$out/copy.txt"
}

sweep() {
  local list=$1; shift
  entries "$list" | while read -r name src n; do
    [ "$SECONDS" -lt "$left" ] || { echo "$name: not timed (${SECONDS}s)"; continue; }
    [ -x "$out/bin/$name" ] || { echo "$name: build failed: $(tail -3 "$out/$name.ptxas")"; continue; }
    "$out/bin/$name" sweep 50 "$@" >> "$out/$name.time" 2>&1
    echo "$name: $(grep -o 'shape [0-9]* [0-9]*: \|time_us [0-9.]*\|WRONG' "$out/$name.time" | tr '\n' ' ')"
  done
}

count_metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
count_metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
count_metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
count_metrics+=,lts__t_sectors_srcunit_tex.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
count_metrics+=,launch__registers_per_thread
count_metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
# The bank-conflict counters themselves (asked for from the eighth call on; the seventh compared wavefronts only).
count_metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum

count() {
  local name=$1; shift
  [ "$SECONDS" -lt "$left" ] || { echo "$name: not counted (${SECONDS}s)"; return; }
  [ -x "$out/bin/$name" ] || { echo "$name: not built"; return; }
  ncu --clock-control none --kernel-name regex:kernel --launch-count $(( $# / 2 )) --metrics "$count_metrics" --csv \
      --page raw "$out/bin/$name" shapes "$@" > "$out/$name.ncu.csv" 2>&1 ||
    echo "$name: ncu failed: $(grep -m2 -i 'error' "$out/$name.ncu.csv")"
  echo "$name: counted at ${SECONDS}s"
}
