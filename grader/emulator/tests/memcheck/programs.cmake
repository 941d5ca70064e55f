# Planted bugs under the real engine (included from CMakeLists.txt when emu_runtime exists).
emu_add_executable(emu_memcheck_planted ${CMAKE_CURRENT_SOURCE_DIR}/programs/planted.cu)
foreach(case broadcast broadcast-fixed cross-warp cross-warp-fixed waw waw-fixed uninit uninit-fixed
             oob-global oob-global-fixed oob-shared oob-shared-fixed oob-shared-index oob-shared-index-fixed use-after-free oob-before-first oob-ldg oob-memcpy host-read-managed oob-bf16-store oob-bf16-store-fixed
             misaligned-float4 misaligned-float4-fixed misaligned-struct misaligned-struct-fixed correct
             global-race global-race-fixed inter-block inter-block-war inter-block-total inter-block-atomic same-value different-value fenced-lock fenced-one-side
             uninit-local uninit-local-fixed)
  add_test(NAME emu.memcheck.${case} COMMAND emu_memcheck_planted ${case})
  set_tests_properties(emu.memcheck.${case} PROPERTIES TIMEOUT 60)
endforeach()
add_test(NAME emu.memcheck.host-read COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu_memcheck_planted> -DARG=host-read
  "-DEXPECT=Host code read 4 bytes of device memory at [^\n]*planted.cu:[0-9]+\n[^\n]*byte 12 of an allocation"
  -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_abort.cmake)
set_tests_properties(emu.memcheck.host-read PROPERTIES TIMEOUT 60)
# A missing barrier must be caught whatever order the threads run in.
foreach(schedule reverse random:7)
  add_test(NAME emu.memcheck.broadcast.${schedule} COMMAND emu_memcheck_planted broadcast-any-order)
  set_tests_properties(emu.memcheck.broadcast.${schedule} PROPERTIES ENVIRONMENT "EMU_SCHEDULE=${schedule}" TIMEOUT 60)
endforeach()

# Uninitialized locals read as poison, and a missing barrier on global memory is caught, in any order.
foreach(schedule reverse random:7)
  foreach(case uninit-local global-race)
    add_test(NAME emu.memcheck.${case}.${schedule} COMMAND emu_memcheck_planted ${case}-any-order)
    set_tests_properties(emu.memcheck.${case}.${schedule} PROPERTIES ENVIRONMENT "EMU_SCHEDULE=${schedule}" TIMEOUT 60)
  endforeach()
endforeach()

# Not tests: the checker's overhead (runtime/NOTES-memcheck.md has the numbers). The second build leaves out the
# ThreadSanitizer instrumentation, so no hook is ever called.
emu_add_executable(emu_memcheck_bench ${CMAKE_CURRENT_SOURCE_DIR}/programs/bench.cu)
set_target_properties(emu_memcheck_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
emu_rewrite_source(_emu_bench_src emu_memcheck_bench_nohooks ${CMAKE_CURRENT_SOURCE_DIR}/programs/bench.cu)
set(_emu_nohook_flags ${EMU_CXXFLAGS_LIST})
list(REMOVE_ITEM _emu_nohook_flags -fsanitize=thread --param=tsan-instrument-func-entry-exit=0)
add_executable(emu_memcheck_bench_nohooks EXCLUDE_FROM_ALL ${_emu_bench_src})
target_compile_options(emu_memcheck_bench_nohooks PRIVATE ${_emu_nohook_flags})
target_link_options(emu_memcheck_bench_nohooks PRIVATE ${EMU_LDFLAGS_LIST})
target_link_libraries(emu_memcheck_bench_nohooks PRIVATE emu_runtime)
