# cmake -DPROGRAM=… -DARG=… -DEXPECT=<regex> -P expect_abort.cmake
# Passes when the program ends abnormally (as a real CUDA program would crash) and its output matches EXPECT.
execute_process(COMMAND "${PROGRAM}" "${ARG}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "expected the program to abort, it exited normally:\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "output does not match '${EXPECT}':\n${out}${err}")
endif()
