# emu-nvcc's precompiled prelude (grader/emulator/driver/prelude_pch.hpp), on a copy of the build's: a compile whose
# prefix and flags match uses it and gives the same object, byte for byte, as without it (EMU_NVCC_PCH=off); a
# warning and an error read the same, at the file's own line; a .gch changed since its stamp, a header that is not
# this compile's prelude, other flags and a .gch g++ refuses are each not used, and the object is still the same.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/pch")
get_filename_component(driver_dir "${DRIVER}" DIRECTORY)
file(READ "${driver_dir}/emu-nvcc.conf" conf)
if(NOT conf MATCHES "\npch_dir=([^\n]*)\n")
  message(FATAL_ERROR "emu-nvcc.conf names no pch_dir:\n${conf}")
endif()
file(GLOB made "${CMAKE_MATCH_1}/*.hpp" "${CMAKE_MATCH_1}/*.gch" "${CMAKE_MATCH_1}/*.stamp")
list(LENGTH made count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "the build's precompiled prelude is not one header, one .gch and one stamp: ${made}")
endif()
# A copy, so that the build's own is never changed; cp -p keeps the .gch's time, which its stamp records. No compiler
# cache (launcher): each compile here is the compiler's own.
execute_process(COMMAND cp -p ${made} "${WORK}/pch/" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot copy ${made}")
endif()
string(REGEX REPLACE "\npch_dir=[^\n]*\n" "\npch_dir=${WORK}/pch\n" conf "${conf}")
string(REGEX REPLACE "\nlauncher=[^\n]*\n" "\n" conf "${conf}")
file(WRITE "${WORK}/emu-nvcc.conf" "${conf}")
file(GLOB gch "${WORK}/pch/*.gch")
file(GLOB header "${WORK}/pch/*.hpp")

# A file with a warning g++ gives by default (a missing return) and a kernel, and a file with an error.
file(WRITE "${WORK}/warns.cu" "#include <cstdio>\n__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"
  "int f(int v) {\n  if (v > 0) return 1;\n}\nint main() { k<<<1, 32>>>(nullptr); return f(1) - 1; }\n")
file(WRITE "${WORK}/fails.cu" "__global__ void k(float* x) {\n  x[threadIdx.x] = undeclared_name;\n}\n")

# compile(<name> <file.cu> <expect> [emu-nvcc flags…]) compiles to ${WORK}/<name>.o and sets <name>_out (messages,
# without the verbose lines). expect: used (with the .gch alone), unused (from the whole text alone), fallback (tried
# with the .gch, then from the whole text) or fallback_failed (the same, and a compile error).
function(compile name src expect)
  set(env EMU_NVCC_CONFIG=${WORK}/emu-nvcc.conf EMU_NVCC_VERBOSE=1)
  if(name MATCHES "^off_")
    list(APPEND env EMU_NVCC_PCH=off)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${DRIVER} ${ARGN} -c ${src} -o ${WORK}/${name}.o
    WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  string(FIND "${all}" ".pch.ii -o" at_pch)
  string(FIND "${all}" ".emu.ii -o" at_whole)
  if(expect STREQUAL "fallback_failed")
    if(rc EQUAL 0 OR at_pch EQUAL -1 OR at_whole EQUAL -1)
      message(FATAL_ERROR "${name}: ${src} compiled, or not tried with the .gch and then from the whole text:\n${all}")
    endif()
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: ${src} did not compile (${rc}):\n${all}")
  elseif(expect STREQUAL "used" AND (at_pch EQUAL -1 OR NOT at_whole EQUAL -1))
    message(FATAL_ERROR "${name}: not compiled with the precompiled prelude alone:\n${all}")
  elseif(expect STREQUAL "unused" AND (NOT at_pch EQUAL -1 OR at_whole EQUAL -1))
    message(FATAL_ERROR "${name}: the precompiled prelude was tried:\n${all}")
  elseif(expect STREQUAL "fallback" AND (at_pch EQUAL -1 OR at_whole EQUAL -1))
    message(FATAL_ERROR "${name}: not tried with the precompiled prelude, then from the whole text:\n${all}")
  endif()
  string(REGEX REPLACE "#\\$[^\n]*\n" "" messages "${all}")
  set(${name}_out "${messages}" PARENT_SCOPE)
endfunction()
function(same_object a b)
  file(SHA256 "${WORK}/${a}.o" ha)
  file(SHA256 "${WORK}/${b}.o" hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "${a}.o and ${b}.o differ: the precompiled prelude changed the object")
  endif()
endfunction()

compile(warns warns.cu used)
compile(off_warns warns.cu unused)
same_object(warns off_warns)
if(NOT warns_out STREQUAL off_warns_out OR NOT warns_out MATCHES "warns\\.cu:5:1: warning: control reaches end")
  message(FATAL_ERROR "the warning reads differently with the precompiled prelude:\n${warns_out}\n--- without:\n"
                      "${off_warns_out}")
endif()
# An error: the compile with the .gch fails, and the whole text is compiled again for the messages shown, which are
# therefore those of a compile without it.
compile(fails fails.cu fallback_failed)
if(NOT fails_out MATCHES "fails\\.cu:2:[0-9]+: error: [^\n]*undeclared_name")
  message(FATAL_ERROR "the error is not at the file's own line:\n${fails_out}")
endif()
# Other flags: another command than the one the .gch was made for.
compile(flags warns.cu unused -Xcompiler -Wall)

# A .gch that is no longer the one its stamp describes (rewritten since: another size here) is not used.
execute_process(COMMAND cp -p ${gch} ${WORK}/saved.gch)
file(APPEND "${gch}" "x")
compile(changed warns.cu unused)
same_object(changed off_warns)
# A .gch g++ refuses (not a precompiled header at all, with the size and time of the stamp's): the compile is done
# again from the whole text, silently.
execute_process(COMMAND cp -p ${WORK}/saved.gch ${gch})
execute_process(COMMAND dd if=/dev/zero of=${gch} bs=16 count=1 conv=notrunc status=none)
execute_process(COMMAND touch -r ${WORK}/saved.gch ${gch})
compile(refused warns.cu fallback)
same_object(refused off_warns)
if(NOT refused_out STREQUAL warns_out)
  message(FATAL_ERROR "a refused .gch was reported:\n${refused_out}")
endif()
# A header that is not this compile's prelude (an emulator header changed since it was made) is not used.
execute_process(COMMAND cp -p ${WORK}/saved.gch ${gch})
file(APPEND "${header}" "\n")
compile(stale warns.cu unused)
same_object(stale off_warns)
message(STATUS "precompiled prelude: used where it matches, the same objects and messages; ignored where it does not")
