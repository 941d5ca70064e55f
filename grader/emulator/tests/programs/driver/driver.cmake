# Programs of the driver's corpus (emu-nvcc): kernels and __shared__ in included headers, launches in macros with ##,
# a helper header, __CUDA_ARCH__ branches, several translation units with a .cpp host file, UBSan in a kernel, and
# planted bugs. Included from ../CMakeLists.txt. Each correct program must print PASS with no emulator diagnostic in
# the forward, reverse and a seeded random thread order; each planted bug must be reported (file:line, thread and
# block) in every order, and its fixed version must pass.
set(_drv ${CMAKE_CURRENT_LIST_DIR})
set(_drv_schedules forward reverse random:11)
set(_drv_expect ${_drv}/expect_output.cmake)

emu_add_executable(emu_driver_shared_in_header ${_drv}/shared_in_header.cu)
emu_add_executable(emu_driver_macro_launch ${_drv}/macro_launch.cu)
emu_add_executable(emu_driver_helper_header ${_drv}/helper_header.cu)
emu_add_executable(emu_driver_arch_branches ${_drv}/arch_branches.cu)
emu_add_executable(emu_driver_multi_tu ${_drv}/multi_tu_main.cpp ${_drv}/multi_tu_saxpy.cu ${_drv}/multi_tu_reduce.cu)
emu_add_executable(emu_driver_ubsan_shift ${_drv}/ubsan_shift.cu)
emu_add_executable(emu_driver_row_bound_bug ${_drv}/row_bound_bug.cu)
emu_add_executable(emu_driver_header_shared_overrun ${_drv}/header_shared_overrun.cu)
emu_add_executable(emu_driver_sample_forms ${_drv}/sample_forms.cu)
emu_add_executable(emu_driver_long_grid ${_drv}/long_grid.cu)
emu_add_executable(emu_driver_implicit_forms ${_drv}/implicit_forms.cu)
emu_add_executable(emu_driver_host_pointer ${_drv}/host_pointer.cu)
emu_add_executable(emu_driver_device_reach_forms ${_drv}/device_reach_forms.cu ${_drv}/device_reach_extern.cu)
emu_add_executable(emu_driver_uninit_after_launch ${_drv}/uninit_after_launch.cu)
emu_add_executable(emu_driver_stack_clash ${_drv}/stack_clash.cu)
emu_add_executable(emu_driver_return_address ${_drv}/return_address.cu)

# Correct programs, and the fixed versions of the planted bugs.
# device_reach_forms: every form of device variable, device-side new/delete, virtual calls, lambdas (what a kernel
# may reach, runtime/kernel_reach.cpp), none refused. uninit_after_launch: a never-written local is the poison on every
# launch path (the launch's own lambdas are not instrumented, so they leave nothing where the kernel's frame lies).
set(_drv_pass shared_in_header macro_launch helper_header arch_branches multi_tu sample_forms device_reach_forms
    uninit_after_launch
    "ubsan_shift fixed" "row_bound_bug fixed" "header_shared_overrun fixed")
foreach(entry IN LISTS _drv_pass)
  separate_arguments(parts UNIX_COMMAND "${entry}")
  list(GET parts 0 program)
  set(args)
  list(LENGTH parts count)
  if(count GREATER 1)
    list(SUBLIST parts 1 -1 args)
  endif()
  string(JOIN "." name ${parts})
  foreach(schedule IN LISTS _drv_schedules)
    string(REPLACE ":" "" suffix "${schedule}")
    set(test emu.programs.driver.${name}.${suffix})
    add_test(NAME ${test} COMMAND emu_driver_${program} ${args})
    set_tests_properties(${test} PROPERTIES
      ENVIRONMENT "EMU_SCHEDULE=${schedule}"
      PASS_REGULAR_EXPRESSION "\nPASS\n"
      FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|\nFAIL"
      TIMEOUT 120)
  endforeach()
endforeach()

# Forms nvcc accepts (no #include, `__shared__` after the type), and a kernel called like a host function: one
# warning naming the call, nothing run, as on a GPU. One schedule: nothing here depends on the thread order.
add_test(NAME emu.programs.driver.implicit_forms COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu_driver_implicit_forms>
  "-DEXPECT=Warning: kernel add_one was called like a host function, without <<<.*>>>, at [^ ]*implicit_forms\\.cu:58;PASS\n"
  "-DFORBID=Error|add_one was called(.|\n)*add_one was called" -DSTATUS=zero -P ${_drv_expect})
set_tests_properties(emu.programs.driver.implicit_forms PROPERTIES TIMEOUT 60)

# The watchdog times one block, not the launch: a grid longer than the limit in all, every block quick, completes.
add_test(NAME emu.programs.driver.long_grid COMMAND emu_driver_long_grid)
set_tests_properties(emu.programs.driver.long_grid PROPERTIES ENVIRONMENT "EMU_WATCHDOG_SECONDS=1"
  PASS_REGULAR_EXPRESSION "\nPASS\n" FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|\nFAIL" TIMEOUT 60)
# A grader also limits the whole launch (EMU_WATCHDOG_LAUNCH_SECONDS): the same grid is then stopped after 1 s of CPU
# time in all, with the variable named, and the program never prints its verdict. 200 blocks (24 s of spinning): the
# launch reaches its 1 s of CPU time however loaded the machine, and the wall-clock backstop stays out of the way.
add_test(NAME emu.programs.driver.long_grid_launch_limit COMMAND emu_driver_long_grid 200)
set_tests_properties(emu.programs.driver.long_grid_launch_limit PROPERTIES
  ENVIRONMENT "EMU_WATCHDOG_SECONDS=1;EMU_WATCHDOG_LAUNCH_SECONDS=1;EMU_WATCHDOG_WALL_SECONDS=50"
  PASS_REGULAR_EXPRESSION "still running after 1 s in all, now in block .*EMU_WATCHDOG_LAUNCH_SECONDS: the CPU time one launch may run"
  FAIL_REGULAR_EXPRESSION "\nPASS\n" TIMEOUT 60)

# Planted bugs: the report, with the original file:line and the CUDA thread, and the program's own verdict.
function(_drv_planted program)
  cmake_parse_arguments(P "" "" "EXPECT" ${ARGN})
  foreach(schedule IN LISTS _drv_schedules)
    string(REPLACE ":" "" suffix "${schedule}")
    set(test emu.programs.driver.${program}.${suffix})
    add_test(NAME ${test} COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:emu_driver_${program}>
      "-DEXPECT=${P_EXPECT}" -DFORBID=FAIL -P ${_drv_expect})
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "EMU_SCHEDULE=${schedule}" TIMEOUT 120)
  endforeach()
endfunction()

_drv_planted(ubsan_shift EXPECT
  "========= Error: Undefined behavior \\(shift\\): shift exponent 32 is too large for 32-bit type 'int'\n=========     at [^\n]*ubsan_shift\\.cu:13 in kernel masks\n=========     by thread \\(32,0,0\\) in block \\(0,0,0\\)"
  "launch: cudaErrorLaunchFailure"
  "survived: the next launch ran\nREPORTED")
add_test(NAME emu.programs.driver.ubsan_shift.host COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu_driver_ubsan_shift> -DARGS=host
  "-DEXPECT=ubsan_shift\\.cu:[0-9]+:[0-9]+: runtime error: shift exponent 32 is too large for 32-bit type 'int';host shift next"
  -DFORBID========== -DSTATUS=nonzero -P ${_drv_expect})
set_tests_properties(emu.programs.driver.ubsan_shift.host PROPERTIES TIMEOUT 60)
_drv_planted(row_bound_bug EXPECT
  "Invalid __global__ read of size 4 bytes\n=========     at [^\n]*row_bound_bug\\.cu:12 in kernel scale_rows\n=========     by thread \\(0,0,0\\) in block \\(3,0,0\\)\n=========     Address [^\n]* is out of bounds"
  "Race reported between Write access at [^\n]*row_bound_bug\\.cu:12 by thread \\(0,0,0\\) in block \\(0,0,0\\)\n=========     and Read access at [^\n]*row_bound_bug\\.cu:12 by thread \\(0,0,0\\) in block \\(1,0,0\\)"
  "launch: cudaErrorIllegalAddress\nREPORTED")
_drv_planted(header_shared_overrun EXPECT
  "Index 66 out of bounds for type 'float \\[66\\]'\n=========     at [^\n]*window_macros\\.cuh:16 in kernel box_filter<1, 64>\n=========     by thread \\(0,0,0\\) in block \\(0,0,0\\)"
  "launch: cudaErrorIllegalAddress\nREPORTED")

# A kernel reaches only what a GPU kernel can (runtime/kernel_reach.cpp): a host pointer passed to it is an illegal
# address with the line, the thread and what the address is; a pointer forged to a host variable too; every memory
# a kernel may use outside cudaMalloc (__device__, __constant__, __managed__, registered host memory, literals, a
# device function's constant table, a by-value struct, locals) is used by the fixed version without a report. One
# schedule: the verdicts do not depend on the thread order.
add_test(NAME emu.programs.driver.host_pointer COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:emu_driver_host_pointer>
  "-DEXPECT========== Error: Invalid __global__ read of size 4 bytes\n=========     at [^\n]*host_pointer\\.cu:36 in kernel add_offsets\n=========     by thread \\(0,0,0\\) in block \\(0,0,0\\)\n=========     Address [^\n]* is an illegal address for a kernel: it is host memory;a host pointer passed to a kernel faults on a GPU;launch: cudaErrorIllegalAddress\nREPORTED"
  -DFORBID=FAIL -P ${_drv_expect})
add_test(NAME emu.programs.driver.host_pointer.forged COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu_driver_host_pointer> -DARGS=forged
  "-DEXPECT=Invalid __global__ write of size 8 bytes\n=========     at [^\n]*host_pointer\\.cu:51 in kernel forge[^\n]*\n[^\n]*\n=========     Address [^\n]* is an illegal address for a kernel: it is a host variable;launch: cudaErrorIllegalAddress\nREPORTED"
  -DFORBID=FAIL -P ${_drv_expect})
# A kernel's free or delete accepts only the device heap's own blocks (runtime/device_heap.cpp): a host block's
# address, forged from an integer, is an illegal address, and the block stays allocated.
foreach(how free delete)
  add_test(NAME emu.programs.driver.host_pointer.forged_${how} COMMAND ${CMAKE_COMMAND}
    -DPROGRAM=$<TARGET_FILE:emu_driver_host_pointer> -DARGS=forged_${how}
    "-DEXPECT========== Error: Invalid ${how}[^\n]* of address [^\n]*\n=========     at [^\n]*host_pointer\\.cu:5[0-9] in kernel forge_${how}[^\n]*\n=========     by thread \\(0,0,0\\) in block \\(0,0,0\\)\n=========     The address is not a block that malloc or new allocated inside a kernel;launch: cudaErrorIllegalAddress\nREPORTED"
    -DFORBID=FAIL -P ${_drv_expect})
  set_tests_properties(emu.programs.driver.host_pointer.forged_${how} PROPERTIES TIMEOUT 60)
endforeach()
# A frame larger than a thread's stack and its guard page: the overflow is the overflowing thread's, at its function
# (-fstack-clash-protection in EMU_CXXFLAGS); without probes the call's unchecked pushes wrote another thread's stack
# and the launch succeeded, in 4 runs of 10 (the address layout is random): ten runs, each must report (the report
# ends the program).
add_test(NAME emu.programs.driver.stack_clash COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:emu_driver_stack_clash>
  -DREPEAT=10
  "-DEXPECT========== Error: Stack overflow in thread \\(0,0,0\\) in block \\(0,0,0\\) of kernel big_frame\n=========     at [^\n]*stack_clash\\.cu:1[0-9]\n"
  -DFORBID=FAIL -P ${_drv_expect})
set_tests_properties(emu.programs.driver.stack_clash PROPERTIES TIMEOUT 60)
# printf's %n in a kernel (device printf is the C library's): refused (runtime/device_printf.cpp), the host variable
# it was aimed at unchanged; "fixed" prints from a kernel (checked format and %s strings).
add_test(NAME emu.programs.driver.host_pointer.forged_printf COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu_driver_host_pointer> -DARGS=forged_printf
  "-DEXPECT========== Error: Unsupported device printf: the %n conversion, which writes through its argument\n=========     at [^\n]*host_pointer\\.cu:5[0-9] in kernel forge_printf[^\n]*\n;launch: cudaErrorLaunchFailure\nREPORTED"
  -DFORBID=FAIL -P ${_drv_expect})
set_tests_properties(emu.programs.driver.host_pointer.forged_printf PROPERTIES TIMEOUT 60)
# A kernel writes its own stack, never the return addresses and saved frame pointers there (kernel_reach.cpp's
# stack_write): a forged return from the kernel and from a device function, each an illegal address at its line.
foreach(how kernel device)
  add_test(NAME emu.programs.driver.return_address.${how} COMMAND ${CMAKE_COMMAND}
    -DPROGRAM=$<TARGET_FILE:emu_driver_return_address> -DARGS=${how}
    "-DEXPECT=Invalid __local__ write of size 8 bytes\n=========     at [^\n]*return_address\\.cu:[0-9]+ in kernel hijack[^\n]*\n[^\n]*\n=========     Address [^\n]* is a return address or saved frame pointer on this thread's stack;launch: cudaErrorIllegalAddress\nREPORTED"
    -DFORBID=FAIL -P ${_drv_expect})
  set_tests_properties(emu.programs.driver.return_address.${how} PROPERTIES TIMEOUT 60)
endforeach()
add_test(NAME emu.programs.driver.host_pointer.fixed COMMAND emu_driver_host_pointer fixed)
set_tests_properties(emu.programs.driver.host_pointer emu.programs.driver.host_pointer.forged
  emu.programs.driver.host_pointer.fixed PROPERTIES TIMEOUT 60)
set_tests_properties(emu.programs.driver.host_pointer.fixed PROPERTIES
  PASS_REGULAR_EXPRESSION "device printf: 7 0\\.5 x%\n(.*\n)?PASS\n" FAIL_REGULAR_EXPRESSION "========= (Error|Warning)|\nFAIL")

# Sources emu-nvcc must refuse, and the driver's command line end to end (several units, a .cpp, nvcc's flags).
add_test(NAME emu.programs.driver.arch_host_device_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/arch_host_device_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/refused.o"
  "-DEXPECT=arch_host_device_refused\\.cu:5: error: 'lane_or_zero' is __host__ __device__ and its body depends on __CUDA_ARCH__"
  -DSTATUS=nonzero -P ${_drv_expect})
# Thread block clusters are refused at compile time, at the launch (or the call of cg::this_cluster()), with why.
add_test(NAME emu.programs.driver.cluster_dims_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/cluster_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/cluster.o"
  "-DEXPECT=cluster_refused\\.cu:[0-9]+:[0-9]+: error: call to [^ ]*pairs[^ ]* declared with attribute error: thread block clusters \\(__cluster_dims__\\) are not emulated"
  -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.this_cluster_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;-DUSE_THIS_CLUSTER;${_drv}/cluster_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/cluster2.o"
  "-DEXPECT=error: static assertion failed: thread block clusters \\(cg::this_cluster\\(\\), cluster.sync\\(\\), map_shared_rank\\) are not emulated"
  -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.compile_error_in_header COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/compile_error_in_header.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/err.o"
  "-DEXPECT=compile_error_in_header\\.cuh:5:[0-9]+: error: [^ ]*undeclared_factor[^ ]* was not declared"
  -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.launch_refused_in_header COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/launch_refused_in_header.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/ref.o"
  "-DEXPECT=refused_in_header\\.cuh:9: error: cannot find the kernel name before '<<<'"
  -DSTATUS=nonzero -P ${_drv_expect})
# Inline PTX other than a special-register read is refused at its line; a missing header is reported once.
add_test(NAME emu.programs.driver.ptx_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/ptx_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/ptx.o"
  "-DEXPECT=ptx_refused\\.cu:5: error: inline assembly in device code \\('which_sm'\\) is GPU code \\(PTX\\) that cannot run on the CPU emulator"
  -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.missing_header_once COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/missing_header.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/missing.o"
  "-DEXPECT=missing_header\\.cu:3:[0-9]+: fatal error: no_such_header_for_emu\\.h: No such file"
  "-DFORBID=no_such_header_for_emu\\.h: No such file(.|\n)*no_such_header_for_emu\\.h: No such file"
  -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.library_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/library_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/lib.o"
  "-DEXPECT=library_refused\\.cu:3:[0-9]+: fatal error: cufft\\.h: No such file;\nemu-nvcc: cufft\\.h is part of cuFFT, which the CPU emulator does not provide"
  -DSTATUS=nonzero -P ${_drv_expect})
# A header included only under __CUDA_ARCH__ and again later through another header: one copy of its declarations,
# and line markers that still nest (no "redefinition", no "linemarker ignored" warning).
add_test(NAME emu.programs.driver.arch_include COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/arch_include.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/arch_include.o"
  "-DFORBID=redefinition|linemarker ignored|error" -DSTATUS=zero -P ${_drv_expect})
# Textures and CUDA graphs are refused at their first use with one sentence (no g++ error follows it).
add_test(NAME emu.programs.driver.texture_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/texture_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/tex.o"
  "-DEXPECT=texture_refused\\.cu:11: error: 3D, layered, cubemap and mipmapped textures, texture gather and texture references \\('tex3D'\\) are not emulated by the CPU emulator"
  "-DFORBID=has not been declared|error:(.|\n)*error:" -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.graph_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;-DUSE_GRAPH;${_drv}/texture_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/graph.o"
  "-DEXPECT=texture_refused\\.cu:21: error: CUDA graphs \\('cudaGraph_t'\\) are not emulated by the CPU emulator"
  "-DFORBID=was not declared|error:(.|\n)*error:" -DSTATUS=nonzero -P ${_drv_expect})
# The driver API is refused at each call with one sentence (cuda.h), and <cuda.h> for CUDA_VERSION alone still builds.
add_test(NAME emu.programs.driver.driver_api_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/driver_api_refused.cpp;-o;${CMAKE_CURRENT_BINARY_DIR}/drvapi.o"
  "-DEXPECT=driver_api_refused\\.cpp:33:[0-9]+: error: call to [^\n]*cuStreamBeginCapture[^\n]* declared with attribute error: the CUDA driver API \\(cuStreamBeginCapture\\) is not emulated by the CPU emulator"
  "-DFORBID=was not declared|has not been declared" -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.driver_api_unlisted_refused COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;-x;cu;-DUNLISTED;${_drv}/driver_api_refused.cpp;-o;${CMAKE_CURRENT_BINARY_DIR}/drvunl.o"
  "-DEXPECT=driver_api_refused\\.cpp:23: error: the CUDA driver API \\(cuMemGetHandleForAddressRange\\) is not emulated by the CPU emulator"
  "-DFORBID=was not declared|has not been declared|cuHelperCount" -DSTATUS=nonzero -P ${_drv_expect})
add_test(NAME emu.programs.driver.driver_header_version COMMAND ${CMAKE_COMMAND}
  -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;-DVERSION_ONLY;${_drv}/driver_api_refused.cpp;-o;${CMAKE_CURRENT_BINARY_DIR}/drvver.o"
  "-DFORBID=error" -DSTATUS=zero -P ${_drv_expect})
set_tests_properties(emu.programs.driver.compile_error_in_header emu.programs.driver.launch_refused_in_header
  emu.programs.driver.ptx_refused emu.programs.driver.missing_header_once emu.programs.driver.library_refused
  emu.programs.driver.texture_refused emu.programs.driver.graph_refused emu.programs.driver.arch_include
  emu.programs.driver.driver_api_refused emu.programs.driver.driver_api_unlisted_refused
  emu.programs.driver.driver_header_version PROPERTIES TIMEOUT 120)
add_test(NAME emu.programs.driver.command_line COMMAND ${CMAKE_COMMAND}
  -DDRIVER=$<TARGET_FILE:emu-nvcc> -DSRC=${_drv} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/driver-command-line
  -P ${_drv}/command_line.cmake)
set_tests_properties(emu.programs.driver.arch_host_device_refused emu.programs.driver.command_line
  PROPERTIES TIMEOUT 180)

# The driver's parts on their own: nvcc's options, the merge of the two __CUDA_ARCH__ passes, the rewrite of
# preprocessed text.
add_executable(emu_driver_unit ${_drv}/driver_unit_test.cpp)
target_link_libraries(emu_driver_unit PRIVATE emu_driver_lib workbook_catch)
target_compile_definitions(emu_driver_unit PRIVATE EMU_INCLUDE_DIR="${EMU_INCLUDE_DIR}")
add_test(NAME emu.programs.driver.unit COMMAND emu_driver_unit)

# emu-nvcc's precompiled prelude (driver/prelude_pch.hpp): the same objects and messages with it as without it, and
# not used where it is not exactly this compile's.
add_test(NAME emu.programs.driver.prelude_pch COMMAND ${CMAKE_COMMAND}
  -DDRIVER=$<TARGET_FILE:emu-nvcc> -DSRC=${_drv} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/driver-prelude-pch
  -P ${_drv}/prelude_pch.cmake)
set_tests_properties(emu.programs.driver.prelude_pch PROPERTIES TIMEOUT 120)
# A CUB header the emulator lacks found in the real CUB (Debian's libcub-dev): one sentence at the include's line.
find_file(EMU_REAL_CUB_HISTOGRAM cub/block/block_histogram.cuh PATHS /usr/include NO_DEFAULT_PATH)
if(EMU_REAL_CUB_HISTOGRAM)
  add_test(NAME emu.programs.driver.real_cub_refused COMMAND ${CMAKE_COMMAND}
    -DPROGRAM=$<TARGET_FILE:emu-nvcc> "-DARGS=-c;${_drv}/real_cub_refused.cu;-o;${CMAKE_CURRENT_BINARY_DIR}/realcub.o"
    "-DEXPECT=real_cub_refused\\.cu:4: error: [^ ]*/cub/block/block_histogram\\.cuh is a header of the real CUB, GPU code \\(inline PTX\\) the CPU emulator cannot compile"
    "-DFORBID=error:(.|\n)*error:" -DSTATUS=nonzero -P ${_drv_expect})
  set_tests_properties(emu.programs.driver.real_cub_refused PROPERTIES TIMEOUT 120)
endif()
