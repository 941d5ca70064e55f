# Standalone CUDA programs that exercise the device and runtime APIs real programs use (cooperative groups, warp
# reductions, cache hints, fp8, streams, constant memory, cuBLAS), written the way public sample collections write
# them. Each must print PASS with no emulator diagnostic under the forward, reverse and a random thread order.
# Planted bugs must be reported (file:line and thread ids) and be absent from their fixed version.
set(EMU_API_PROGRAMS
  cg_block_reduce cublas_gemm histogram_shared online_softmax layernorm_cg streams_async fp8_roundtrip
  constant_memory grid_sync warp_aggregated helper_header cache_hints_atomics launch_void_ptr
  lowp_call_reads lowp_call_stores async_copy_tiles barrier_pipeline atomic_ref host_threads
  kernel_param_bytes device_clock)
foreach(program IN LISTS EMU_API_PROGRAMS)
  emu_add_executable(emu_api_${program} ${CMAKE_CURRENT_LIST_DIR}/${program}.cu)
  if(program MATCHES "^cublas")
    target_link_libraries(emu_api_${program} PRIVATE emu_cublas)
  endif()
  foreach(schedule forward reverse random:5)
    string(REPLACE ":" "" suffix "${schedule}")
    set(test emu.programs.api.${program}.${suffix})
    add_test(NAME ${test} COMMAND emu_api_${program})
    set_tests_properties(${test} PROPERTIES
      ENVIRONMENT "EMU_SCHEDULE=${schedule}"
      PASS_REGULAR_EXPRESSION "\nPASS\n"
      FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|\nFAIL"
      TIMEOUT 120)
  endforeach()
endforeach()

emu_add_executable(emu_api_planted_bugs ${CMAKE_CURRENT_LIST_DIR}/planted_bugs.cu)
foreach(pair
    "tile-exit|Divergent thread\\(s\\) in tile of threads \\(64,0,0\\)-\\(127,0,0\\).*wait at thread_block_tile<64>::sync\\(\\) in [^ ]*planted_bugs.cu:18.*exited without reaching it: thread\\(s\\) \\(70,0,0\\)"
    "race|Race reported between Write access at [^ ]*planted_bugs.cu:25 by thread \\([0-9]+,0,0\\).*and Read access at [^ ]*planted_bugs.cu:27 by thread \\([3-6][0-9],0,0\\)"
    "overflow|planted_bugs.cu:36.*thread \\(31,0,0\\)")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 mode)
  list(GET parts 1 expect)
  add_test(NAME emu.programs.api.planted_bugs.${mode} COMMAND emu_api_planted_bugs ${mode})
  set_tests_properties(emu.programs.api.planted_bugs.${mode} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
endforeach()
foreach(schedule forward reverse random:5)
  string(REPLACE ":" "" suffix "${schedule}")
  add_test(NAME emu.programs.api.planted_bugs.fixed.${suffix} COMMAND emu_api_planted_bugs fixed)
  set_tests_properties(emu.programs.api.planted_bugs.fixed.${suffix} PROPERTIES
    ENVIRONMENT "EMU_SCHEDULE=${schedule}"
    PASS_REGULAR_EXPRESSION "\nPASS\n" FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|\nFAIL" TIMEOUT 60)
endforeach()

# The grid barrier of a cooperative launch: a block that never arrives, a missing grid.sync() between blocks, and
# grid.sync() in an ordinary launch.
emu_add_executable(emu_api_grid_sync_bugs ${CMAKE_CURRENT_LIST_DIR}/grid_sync_bugs.cu)
foreach(pair
    "early-exit|Deadlock at grid_group::sync\\(\\) in kernel .*block\\(s\\) \\(0,0,0\\), \\(1,0,0\\), \\(3,0,0\\) wait at grid_group::sync\\(\\) in [^ ]*grid_sync_bugs.cu:24.*block\\(s\\) \\(2,0,0\\) exited without reaching it.*early-exit: cudaErrorLaunchFailure"
    "missing-sync|Race reported between Read access at [^ ]*grid_sync_bugs.cu:25 by thread \\(0,0,0\\) in block \\(0,0,0\\)[^\n]*\n[^\n]*and Write access at [^ ]*grid_sync_bugs.cu:22 by thread \\(0,0,0\\)"
    "not-cooperative|grid_group::sync\\(\\) at [^ ]*grid_sync_bugs.cu:24 by thread \\([0-9]+,0,0\\) in block \\(0,0,0\\).*not launched with cudaLaunchCooperativeKernel.*not-cooperative: cudaErrorLaunchFailure")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 mode)
  list(GET parts 1 expect)
  add_test(NAME emu.programs.api.grid_sync_bugs.${mode} COMMAND emu_api_grid_sync_bugs ${mode})
  set_tests_properties(emu.programs.api.grid_sync_bugs.${mode} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
endforeach()
foreach(schedule forward reverse random:5)
  string(REPLACE ":" "" suffix "${schedule}")
  add_test(NAME emu.programs.api.grid_sync_bugs.fixed.${suffix} COMMAND emu_api_grid_sync_bugs fixed)
  set_tests_properties(emu.programs.api.grid_sync_bugs.fixed.${suffix} PROPERTIES
    ENVIRONMENT "EMU_SCHEDULE=${schedule}"
    PASS_REGULAR_EXPRESSION "\nPASS\n" FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|\nFAIL" TIMEOUT 60)
endforeach()

# An off-by-one bound in a kernel launched through cudaLaunchKernel((void*)kernel, …): the last row's last thread
# writes past the buffer.
add_test(NAME emu.programs.api.launch_void_ptr.bug COMMAND emu_api_launch_void_ptr bug)
set_tests_properties(emu.programs.api.launch_void_ptr.bug PROPERTIES
  PASS_REGULAR_EXPRESSION "launch_void_ptr.cu:22[^\n]*\n[^\n]*by thread \\(48,0,0\\) in block \\(3,0,0\\)" TIMEOUT 60)

# bf16/fp16 elements read straight into calls: a read past the buffer and a shared-memory race, both at the call's
# line.
foreach(pair
    "bound|Invalid __global__ read of size 2 bytes[^\n]*\n[^\n]*at [^ ]*lowp_call_reads.cu:22[^\n]*\n[^\n]*by thread \\(0,0,0\\) in block \\(2,0,0\\)"
    "race|Race reported between Write access at [^ ]*lowp_call_reads.cu:[23][90] by thread \\([0-9]+,0,0\\)[^\n]*\n[^\n]*and Read access at [^ ]*lowp_call_reads.cu:33 by thread \\([3-6][0-9],0,0\\)")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 mode)
  list(GET parts 1 expect)
  add_test(NAME emu.programs.api.lowp_call_reads.${mode} COMMAND emu_api_lowp_call_reads ${mode})
  set_tests_properties(emu.programs.api.lowp_call_reads.${mode} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
endforeach()

# Asynchronous copies: a copy that reads past the input, reported at the memcpy_async's line; a tile read before
# cg::wait, reported as a read of shared memory nothing has written yet.
foreach(pair
    "oob|Invalid __global__ read of size [0-9]+ bytes[^\n]*\n[^\n]*at [^ ]*async_copy_tiles.cu:30 in kernel tile_sums"
    "early-read|Uninitialized __shared__ memory read[^\n]*\n[^\n]*at [^ ]*async_copy_tiles.cu:43")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 mode)
  list(GET parts 1 expect)
  add_test(NAME emu.programs.api.async_copy_tiles.${mode} COMMAND emu_api_async_copy_tiles ${mode})
  set_tests_properties(emu.programs.api.async_copy_tiles.${mode} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
endforeach()

# Structs that a call returns, stored straight into memory: a bf16 conversion stored past the output, two warps
# storing __hadd results into the same shared slots (in every schedule), a make_float4 stored at a misaligned address,
# and a local bf16 array written one past its end (UBSan's report, kept by emu-nvcc's rewrite of the store), each with
# its line and thread.
foreach(pair
    "bound|Invalid __global__ write of size 2 bytes\n[^\n]*at [^ ]*lowp_call_stores.cu:20 in kernel to_bf16\n[^\n]*by thread \\(36,0,0\\) in block \\(1,0,0\\)"
    "misaligned|Invalid __global__ write of size 16 bytes\n[^\n]*at [^ ]*lowp_call_stores.cu:38 in kernel widen4\n[^\n]*by thread \\(0,0,0\\) in block \\(0,0,0\\)\n[^\n]*is misaligned"
    "local|Undefined behavior \\(object-size\\): store to address [^\n]* with insufficient space for an object of type 'struct __nv_bfloat16'\n[^\n]*at [^ ]*lowp_call_stores.cu:37 in kernel widen4\n[^\n]*by thread \\(0,0,0\\) in block \\(0,0,0\\)")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 mode)
  list(GET parts 1 expect)
  add_test(NAME emu.programs.api.lowp_call_stores.${mode} COMMAND emu_api_lowp_call_stores ${mode})
  set_tests_properties(emu.programs.api.lowp_call_stores.${mode} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
endforeach()
foreach(schedule forward reverse random:5)
  string(REPLACE ":" "" suffix "${schedule}")
  add_test(NAME emu.programs.api.lowp_call_stores.race.${suffix} COMMAND emu_api_lowp_call_stores race)
  set_tests_properties(emu.programs.api.lowp_call_stores.race.${suffix} PROPERTIES
    ENVIRONMENT "EMU_SCHEDULE=${schedule}"
    PASS_REGULAR_EXPRESSION "Race reported between Write access at [^ ]*lowp_call_stores.cu:28 by thread \\(([0-9]|[12][0-9]|3[01]),0,0\\)\n[^\n]*and Write access at [^ ]*lowp_call_stores.cu:28 by thread \\((3[2-9]|[4-5][0-9]|6[0-3]),0,0\\) in block \\(0,0,0\\)|Race reported between Write access at [^ ]*lowp_call_stores.cu:28 by thread \\((3[2-9]|[4-5][0-9]|6[0-3]),0,0\\)\n[^\n]*and Write access at [^ ]*lowp_call_stores.cu:28 by thread \\(([0-9]|[12][0-9]|3[01]),0,0\\) in block \\(0,0,0\\)"
    TIMEOUT 60)
endforeach()

# Block-scoped cuda::barrier and cuda::pipeline: a tile read before the barrier's phase (or the pipeline's stage)
# completed, in every schedule, as an uninitialized read at the reading line and in the kernel; a thread that returns
# before its arrival (the deadlock, with the barrier's init line and the thread that exited); a use of the barrier
# that no __syncthreads() separates from thread 0's init (a race in the forward order; in the reverse order the use
# comes first, before any init).
foreach(schedule forward reverse random:5)
  string(REPLACE ":" "" suffix "${schedule}")
  foreach(pair
      "no-wait|Uninitialized __shared__ memory read of size 4 bytes\n[^\n]*at [^ ]*barrier_pipeline.cu:38 by thread \\([0-9]+,0,0\\) in block \\(0,0,0\\)\n[^\n]*on __shared__ tile .*in kernel tile_sums_barrier\\]"
      "no-consumer-wait|Uninitialized __shared__ memory read of size 4 bytes\n[^\n]*at [^ ]*barrier_pipeline.cu:38 by thread \\([0-9]+,0,0\\) in block \\(0,0,0\\)\n[^\n]*on __shared__ buf .*in kernel tile_sums_pipeline\\]")
    string(REPLACE "|" ";" parts "${pair}")
    list(GET parts 0 mode)
    list(GET parts 1 expect)
    add_test(NAME emu.programs.api.barrier_pipeline.${mode}.${suffix} COMMAND emu_api_barrier_pipeline ${mode})
    set_tests_properties(emu.programs.api.barrier_pipeline.${mode}.${suffix} PROPERTIES
      ENVIRONMENT "EMU_SCHEDULE=${schedule}" PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
  endforeach()
endforeach()
foreach(pair
    "missing-arrive|forward|Deadlock at a barrier phase in block \\(0,0,0\\) of kernel tile_sums_barrier:\n[^\n]*thread\\(s\\) \\(0,0,0\\)-\\(4,0,0\\), \\(6,0,0\\)-\\(63,0,0\\) wait at cuda::barrier::arrive_and_wait\\(\\) in [^ ]*barrier_pipeline.cu:67 for phase 0 of the barrier initialized at [^ ]*barrier_pipeline.cu:56 for 64 arrivals; 63 arrived, 1 missing\n[^\n]*exited: thread\\(s\\) \\(5,0,0\\).*cudaErrorLaunchFailure"
    "init-race|forward|Race reported between Write access at [^ ]*barrier_pipeline.cu:56 by thread \\(0,0,0\\)\n[^\n]*and Atomic access at [^ ]*barrier_pipeline.cu:67 by thread \\([1-9][0-9]*,0,0\\) in block \\(0,0,0\\)\n[^\n]*on __shared__ bar"
    "init-race|reverse|cuda::barrier::arrive_and_wait\\(\\) at [^ ]*barrier_pipeline.cu:67 by thread \\(63,0,0\\) in block \\(0,0,0\\) of kernel tile_sums_barrier\n[^\n]*the barrier was not initialized in this block")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 mode)
  list(GET parts 1 schedule)
  list(GET parts 2 expect)
  add_test(NAME emu.programs.api.barrier_pipeline.${mode}.${schedule} COMMAND emu_api_barrier_pipeline ${mode})
  set_tests_properties(emu.programs.api.barrier_pipeline.${mode}.${schedule} PROPERTIES
    ENVIRONMENT "EMU_SCHEDULE=${schedule}" PASS_REGULAR_EXPRESSION "${expect}" TIMEOUT 60)
endforeach()

# libcu++ atomics race with a plain store to the same object (the shared counter's line 32 against the atomic
# increment on line 31).
add_test(NAME emu.programs.api.atomic_ref.race COMMAND emu_api_atomic_ref race)
set_tests_properties(emu.programs.api.atomic_ref.race PROPERTIES
  PASS_REGULAR_EXPRESSION "Race reported between Write access at [^ ]*atomic_ref.cu:32 by thread \\(5,0,0\\)[^\n]*\n[^\n]*and Atomic access at [^ ]*atomic_ref.cu:31"
  TIMEOUT 60)
