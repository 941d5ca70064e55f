# Standalone CUDA programs that exercise the device and runtime APIs real programs use (cooperative groups, warp
# reductions, cache hints, fp8, streams, constant memory, cuBLAS), written the way public sample collections write
# them. Each must print PASS with no emulator diagnostic under the forward, reverse and a random thread order.
# Planted bugs must be reported (file:line and thread ids) and be absent from their fixed version.
set(EMU_API_PROGRAMS cg_block_reduce)
foreach(program IN LISTS EMU_API_PROGRAMS)
  emu_add_executable(emu_api_${program} ${CMAKE_CURRENT_LIST_DIR}/${program}.cu)
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
