# Programs that use the toolkit beyond the runtime API, written the way public samples and tutorials use it (none
# copied): Thrust, CUB's device-wide algorithms, the driver API, mapped memory, intrinsics. Each prints "Test PASSED"
# after checking its results against CPU loops, with no emulator diagnostic, in the forward and a seeded random
# thread order (these programs' kernels are short: the third order of the other corpora would add time, not cover).
set(_tk ${CMAKE_CURRENT_LIST_DIR})
set(_tk_programs driver_api_launch cub_device_algorithms toolkit_headers texture_objects simd_intrinsics
    curand_monte_carlo)
# Thrust is Debian's libthrust-dev (scripts/setup/packages.sh); a machine without it builds the rest.
find_path(EMU_THRUST_INCLUDE thrust/version.h)
if(EMU_THRUST_INCLUDE)
  list(APPEND _tk_programs thrust_basics thrust_policies)
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

# A module file cannot be loaded: the driver API's error, after the emulator's sentence saying why.
add_test(NAME emu.programs.toolkit.driver_api_launch.module COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu_toolkit_driver_api_launch> -DARGS=module
  "-DEXPECT=emu: cuModuleLoad\\(\"vector_add_kernel.fatbin\"\\): a module \\(PTX, cubin or fatbin\\) holds GPU code, which the CPU emulator cannot load or run;driver API error 801 \\(CUDA_ERROR_NOT_SUPPORTED\\) at [^ ]*driver_api_launch.cu:61"
  -DSTATUS=nonzero -P ${CMAKE_CURRENT_LIST_DIR}/../driver/expect_output.cmake)
set_tests_properties(emu.programs.toolkit.driver_api_launch.module PROPERTIES TIMEOUT 60)

# A kernel's thrust::seq sort launched with one row too many: the read past the device_vector's storage, in the
# kernel's block 4, with the line that made the vector.
if(EMU_THRUST_INCLUDE)
  add_test(NAME emu.programs.toolkit.thrust_policies.bug COMMAND emu_toolkit_thrust_policies bug)
  set_tests_properties(emu.programs.toolkit.thrust_policies.bug PROPERTIES
    PASS_REGULAR_EXPRESSION "Invalid __global__ read of size 4 bytes\n[^\n]*at [^ ]*thrust_policies.cu:20 in kernel sort_rows\n[^\n]*by thread \\(0,0,0\\) in block \\(4,0,0\\)\n[^\n]*\n[^\n]*0 bytes after the end of an allocation [^\n]* made at [^ ]*thrust_policies.cu:29"
    TIMEOUT 60)
endif()

# The emulator's cuRAND numbers recorded for the GPU comparison (tests/gpu/curand_sequence.sh) must stay the ones it
# gives: a change to curand_kernel.h that moves them fails here, not only on the GPU.
set(_tk_gpu ${CMAKE_CURRENT_LIST_DIR}/../../gpu)
emu_add_executable(emu_toolkit_curand_sequence ${_tk_gpu}/curand_sequence.cu)
add_test(NAME emu.programs.toolkit.curand_sequence_recorded
  COMMAND sh -c "\"$1\" | diff - \"$2\"" sh $<TARGET_FILE:emu_toolkit_curand_sequence> ${_tk_gpu}/curand_sequence.expected)
set_tests_properties(emu.programs.toolkit.curand_sequence_recorded PROPERTIES TIMEOUT 60)
