# Runs PROGRAM (with ARGS, a ;-list) and checks its combined output and exit status:
#   -DEXPECT=<regex>[;<regex>…]   each must match the output
#   -DFORBID=<regex>              must not match (optional)
#   -DSTATUS=zero|nonzero         the exit status (default: any)
# Used for planted bugs, whose report and the program's own verdict must all appear (PASS_REGULAR_EXPRESSION would
# accept any one of several), and for sources emu-nvcc must refuse.
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
foreach(re IN LISTS EXPECT)
  if(NOT all MATCHES "${re}")
    message(FATAL_ERROR "missing from the output: ${re}\n--- output ---\n${all}")
  endif()
endforeach()
if(DEFINED FORBID AND all MATCHES "${FORBID}")
  message(FATAL_ERROR "the output matches ${FORBID}\n--- output ---\n${all}")
endif()
if(STATUS STREQUAL "zero" AND NOT status EQUAL 0)
  message(FATAL_ERROR "exit status ${status}, expected 0\n--- output ---\n${all}")
elseif(STATUS STREQUAL "nonzero" AND status EQUAL 0)
  message(FATAL_ERROR "exit status 0, expected a failure\n--- output ---\n${all}")
endif()
message(STATUS "${all}")
