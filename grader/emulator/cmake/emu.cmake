# Building CUDA sources for the CPU emulator.
#
#   emu_add_executable(<target> <sources…>)
#
# Each source is compiled by emu-nvcc (grader/emulator/driver), the emulator's nvcc: .cu files are preprocessed
# (device and host pass), rewritten (<<<>>> launches, __shared__ declarations, wherever they come from; line markers
# name the original files), then compiled by the host compiler with EMU_CXXFLAGS: ThreadSanitizer's instrumentation,
# whose __tsan_* hooks the emulator's memory checker defines itself (nothing links libtsan), and UBSan. Other
# sources are compiled with the same flags. The target links emu_runtime with EMU_LDFLAGS.
#
#   emu_rewrite_source(<out_var> <target> <file.cu>) is the older, single-file rewrite (emu-rewrite, no
#   preprocessing): kept for the memory checker's unit scenarios, which compile against a fake prelude.
#
# EMU_CXXFLAGS / EMU_LDFLAGS (strings) and EMU_CXXFLAGS_LIST / EMU_LDFLAGS_LIST (lists) are cache variables, so the
# grader can write them into build/workbook-config.json and compile a student's file the same way without CMake.
include_guard(GLOBAL)

get_filename_component(EMU_ROOT_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(EMU_INCLUDE_DIR "${EMU_ROOT_DIR}/include" CACHE INTERNAL "Emulator headers (cuda_runtime.h, emu/…)")

# -O0: see runtime/NOTES-memcheck.md for the measurements behind the choice (and why not -O1: its scalar
# replacement of aggregates turns a 16-byte vector load into four 4-byte loads, hiding misaligned vector accesses).
set(EMU_CXXFLAGS_LIST
    -std=c++17 -g -O0
    -fsanitize=thread --param=tsan-instrument-func-entry-exit=0
    -fsanitize=undefined -fno-sanitize=alignment,vptr -fno-sanitize-recover=undefined
    -Wno-unknown-pragmas
    # A frame larger than a fiber stack's guard page (a local array of a few KB: legal on a GPU up to 512 KiB a
    # thread) would otherwise step over the guard: the calls' return addresses and saved registers, which no hook
    # checks, then land in the next CUDA thread's stack (measured: a 268 KB array in thread 0 was reported as a stack
    # overflow of thread 4, whose stack it had written). With probes every page, its first touch past the stack
    # faults on the guard, in the thread that overflows (docs/security.md, "Session 10's red team").
    -fstack-clash-protection
    # printf keeps its checked version (emu/checked_libc.hpp): folded into puts or putchar, its string would be read
    # unchecked.
    -fno-builtin-printf
    # g++ 12 crashes (internal compiler error in its waccess pass) on a delete-expression once operator new and
    # delete have other assembler names, as emu/checked_libc.hpp gives them (device-side new: runtime/device_new.cpp);
    # this warning's check is the one that crashes.
    -Wno-free-nonheap-object
    -UNDEBUG  # device assert() stays on, whatever the build type adds before these flags
    -I${EMU_INCLUDE_DIR}
    # Thrust (Debian's libthrust-dev) runs on its host-side CPP system: its CUDA system is CUB's GPU kernels. Its
    # device_vector storage is the emulator's (include/thrust/system/cpp/memory_resource.h).
    -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP
    CACHE INTERNAL "Compile flags of emulated CUDA sources (list)")
# -z now: the program's table of library addresses is read-only once it runs (full RELRO), so a forged pointer in host
# code (two fix regions of lesson 04 are host code, which no hook checks) cannot redirect a call of the runtime's.
set(EMU_LDFLAGS_LIST -fsanitize=undefined -pthread -ldl -Wl,-z,relro,-z,now CACHE INTERNAL
    "Link flags of emulated programs (list)")
string(JOIN " " _emu_cxxflags ${EMU_CXXFLAGS_LIST})
string(JOIN " " _emu_ldflags ${EMU_LDFLAGS_LIST})
set(EMU_CXXFLAGS "${_emu_cxxflags}" CACHE INTERNAL "Compile flags of emulated CUDA sources")
set(EMU_LDFLAGS "${_emu_ldflags}" CACHE INTERNAL "Link flags of emulated programs")

# Rewrites one .cu file on its own (no preprocessing); sets <out_var> to the generated .cpp (in the current binary dir, under emu-rewritten/).
function(emu_rewrite_source out_var target src)
  get_filename_component(abs "${src}" ABSOLUTE)
  get_filename_component(name "${src}" NAME)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/emu-rewritten/${target}/${name}.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "$<TARGET_FILE:emu-rewrite>" "${abs}" "${out}"
    DEPENDS "${abs}" emu-rewrite
    COMMENT "emu-rewrite ${name}"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Every source of the program is compiled by emu-nvcc (the driver the grader uses too): .cu files are preprocessed
# with __CUDA_ARCH__ handled as nvcc does, rewritten after preprocessing (launches and __shared__ in included headers
# and macros too), and compiled with EMU_CXXFLAGS; other sources are compiled with the same flags. The objects are
# linked with emu_runtime and EMU_LDFLAGS. Header dependencies come from the preprocessor (-MD).
function(emu_add_executable target)
  if(NOT ARGN)
    message(FATAL_ERROR "emu_add_executable(${target}): no sources")
  endif()
  set(objects)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME)
    get_filename_component(ext "${src}" LAST_EXT)
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/emu-objects/${target}/${name}.o")
    set(lang)
    if(NOT ext STREQUAL ".cu")
      set(lang -x c++)
    endif()
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND "$<TARGET_FILE:emu-nvcc>" ${lang} -c "${abs}" -o "${obj}" -MD -MF "${obj}.d" -MT "${obj}"
      # After the precompiled prelude, which these compiles use; and again when emu-nvcc's flags change (its .conf:
      # a new EMU_CXXFLAGS left the objects of the emulator's test programs built with the old ones).
      DEPENDS "${abs}" emu-nvcc emu_prelude_pch "$<TARGET_FILE_DIR:emu-nvcc>/emu-nvcc.conf"
      DEPFILE "${obj}.d"
      COMMENT "emu-nvcc ${name}"
      VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()
  add_executable(${target} ${objects})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_options(${target} PRIVATE ${EMU_LDFLAGS_LIST})
  target_link_libraries(${target} PRIVATE emu_runtime)
endfunction()
