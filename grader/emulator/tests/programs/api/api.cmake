# Standalone CUDA programs that exercise the device and runtime APIs real programs use (cooperative groups, warp
# reductions, cache hints, fp8, streams, constant memory, cuBLAS), written the way public sample collections write
# them. Each must print PASS with no emulator diagnostic under the forward, reverse and a random thread order.
# Planted bugs must be reported (file:line and thread ids) and be absent from their fixed version.
set(EMU_API_PROGRAMS
  cg_block_reduce cublas_gemm histogram_shared online_softmax layernorm_cg streams_async fp8_roundtrip
  constant_memory grid_sync warp_aggregated helper_header cache_hints_atomics)
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
