# emu-nvcc as a user calls it: nvcc's usual flags, two .cu units and a .cpp host file compiled separately with -c
# and linked, then the same in one command; the program must print PASS, and the driver must name the flags it
# ignored.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(flags -arch=sm_90 -gencode arch=compute_90,code=sm_90 -O3 -std=c++17 -lineinfo --use_fast_math
    --expt-relaxed-constexpr --expt-extended-lambda -rdc=true -Xcompiler -Wall,-Wno-unused -DUNUSED_MACRO=1 -I${SRC})
function(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}${err}")
  endif()
  set(last "${out}${err}" PARENT_SCOPE)
endfunction()
run(${DRIVER} ${flags} -c ${SRC}/multi_tu_saxpy.cu -o saxpy.o)
foreach(ignored "ignored -arch=sm_90" "ignored -O3" "ignored --use_fast_math" "ignored -lineinfo")
  string(FIND "${last}" "${ignored}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "emu-nvcc did not say '${ignored}':\n${last}")
  endif()
endforeach()
run(${DRIVER} ${flags} -dc ${SRC}/multi_tu_reduce.cu)  # no -o: multi_tu_reduce.o, as nvcc names it
run(${DRIVER} -x c++ -c ${SRC}/multi_tu_main.cpp -o main.o)
run(${DRIVER} -o separate saxpy.o multi_tu_reduce.o main.o -lcudart)
run(${WORK}/separate)
if(NOT last MATCHES "\nPASS\n")
  message(FATAL_ERROR "separately compiled program:\n${last}")
endif()
# The samples' simpleSeparateCompilation build: a device library made with -lib from a -dc object, linked with -L/-l;
# and the -dlink step of a CMake-style separable build, whose object must link in too.
run(${DRIVER} -lib -o libreduce.a multi_tu_reduce.o)
run(${DRIVER} -dlink -o dlink.o saxpy.o main.o)
run(${DRIVER} -o with_library saxpy.o main.o dlink.o -L. -lreduce)
run(${WORK}/with_library)
if(NOT last MATCHES "\nPASS\n")
  message(FATAL_ERROR "program linked with a -lib library and a -dlink object:\n${last}")
endif()
# -Xcompiler options reach the link as nvcc passes them (-Xcompiler -fopenmp needs libgomp there); -lnvToolsExt needs
# nothing (NVTX's annotations are inline no-ops here).
run(${CMAKE_COMMAND} -E env EMU_NVCC_VERBOSE=1 ${DRIVER} -Xcompiler -fopenmp -o with_openmp saxpy.o multi_tu_reduce.o
    main.o -lnvToolsExt)
if(NOT last MATCHES "#\\$ [^\n]*-fopenmp[^\n]*with_openmp")
  message(FATAL_ERROR "-Xcompiler -fopenmp did not reach the link:\n${last}")
endif()
run(${DRIVER} ${flags} -o together ${SRC}/multi_tu_main.cpp ${SRC}/multi_tu_saxpy.cu ${SRC}/multi_tu_reduce.cu)
run(${WORK}/together)
if(NOT last MATCHES "\nPASS\n")
  message(FATAL_ERROR "program built in one command:\n${last}")
endif()
# A flag nvcc does not know is refused, like nvcc does.
execute_process(COMMAND ${DRIVER} --no-such-flag -c ${SRC}/multi_tu_saxpy.cu WORKING_DIRECTORY "${WORK}"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "unknown option '--no-such-flag'")
  message(FATAL_ERROR "an unknown flag was accepted: ${err}")
endif()
# -lcublas links the emulator's cuBLAS when the build has one (emu-nvcc.conf names it), else it is refused by name.
get_filename_component(driver_dir "${DRIVER}" DIRECTORY)
file(READ "${driver_dir}/emu-nvcc.conf" conf)
execute_process(COMMAND ${DRIVER} -o with_cublas saxpy.o multi_tu_reduce.o main.o -lcublas -lcublasLt
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(conf MATCHES "\ncublas_lib=")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "-lcublas did not link against the emulator's cuBLAS: ${err}")
  endif()
elseif(rc EQUAL 0 OR NOT err MATCHES "-lcublas: this emulator build has no cuBLAS")
  message(FATAL_ERROR "-lcublas without emu_cublas was not refused by name: ${err}")
endif()
