# Planted bugs under the real engine (included from CMakeLists.txt when emu_runtime exists).
emu_add_executable(emu_memcheck_planted ${CMAKE_CURRENT_SOURCE_DIR}/programs/planted.cu)
foreach(case broadcast broadcast-fixed cross-warp cross-warp-fixed waw waw-fixed uninit uninit-fixed
             oob-global oob-global-fixed oob-shared oob-shared-fixed use-after-free oob-bf16-store oob-bf16-store-fixed
             misaligned-float4 misaligned-float4-fixed misaligned-struct misaligned-struct-fixed correct)
  add_test(NAME emu.memcheck.${case} COMMAND emu_memcheck_planted ${case})
  set_tests_properties(emu.memcheck.${case} PROPERTIES TIMEOUT 60)
endforeach()
# A missing barrier must be caught whatever order the threads run in.
foreach(schedule reverse random:7)
  add_test(NAME emu.memcheck.broadcast.${schedule} COMMAND emu_memcheck_planted broadcast-any-order)
  set_tests_properties(emu.memcheck.broadcast.${schedule} PROPERTIES ENVIRONMENT "EMU_SCHEDULE=${schedule}" TIMEOUT 60)
endforeach()
