# The time model's two copies agree (CMakeLists.txt beside this): runs PROGRAM (the core exercise with the profile
# driver) on 16 rows of 4096 predicted for 16384, then `fit_model.py check`, which recomputes the prediction from the
# report's model inputs with the constants of profile_model.cpp and fails when it differs from the report's own
# predicted time. So a change to one copy of the model (C++ or the fitting script) and not the other fails here.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/rmsnorm")
set(ENV{EMU_PROFILE} "${WORK}/rmsnorm")
execute_process(COMMAND "${PROGRAM}" once 16 4096 16384 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${FIT}" check "${WORK}" "${MEASURED}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fit_model.py check failed (${rc})")
endif()
