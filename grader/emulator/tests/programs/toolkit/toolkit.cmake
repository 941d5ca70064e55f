# Programs that use the toolkit beyond the runtime API, written the way public samples and tutorials use it (none
# copied): Thrust, CUB's device-wide algorithms, the driver API, mapped memory, intrinsics. Each prints "Test PASSED"
# after checking its results against CPU loops, with no emulator diagnostic, in the forward and a seeded random
# thread order (these programs' kernels are short: the third order of the other corpora would add time, not cover).
set(_tk ${CMAKE_CURRENT_LIST_DIR})
set(_tk_programs)
# Thrust is Debian's libthrust-dev (scripts/setup/packages.sh); a machine without it builds the rest.
find_path(EMU_THRUST_INCLUDE thrust/version.h)
if(EMU_THRUST_INCLUDE)
  list(APPEND _tk_programs thrust_basics)
endif()
foreach(program IN LISTS _tk_programs)
  emu_add_executable(emu_toolkit_${program} ${_tk}/${program}.cu)
  foreach(schedule forward random:3)
    string(REPLACE ":" "" suffix "${schedule}")
    set(test emu.programs.toolkit.${program}.${suffix})
    add_test(NAME ${test} COMMAND emu_toolkit_${program})
    set_tests_properties(${test} PROPERTIES
      ENVIRONMENT "EMU_SCHEDULE=${schedule}"
      PASS_REGULAR_EXPRESSION "(^|\n)Test PASSED\n"
      FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|FAILED|mismatch"
      TIMEOUT 60)
  endforeach()
endforeach()
