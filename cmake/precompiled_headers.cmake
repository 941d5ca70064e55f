# One precompiled header for the -O0 test programs and judges that include nlohmann/json (and most, Catch2).
#
# Parsing json.hpp costs about 2 s of CPU per translation unit at -O0 and Catch2's single header about 0.8 s, and the
# TUs listed below (about 45) each parse one or both. The .gch is built once, by workbook_pch_o0, and the other
# targets reuse it (REUSE_FROM), so its build (~5 s) is paid once. Loading it costs about 1 s per TU, so only targets
# whose TUs (nearly) all include json are listed: lesson_tests, say, has one json TU in eight and is left out.
# workbook_lib has a PCH of its own (grader/cli/CMakeLists.txt).
#
# Reuse needs the same compile flags as the owner: these targets are all plain -O0 (no build type, no -O of their
# own), with the project-wide definitions only. GCC checks that on every use (-Winvalid-pch, which CMake adds): a
# mismatch warns and falls back to the header text, so a wrong list costs time, never a different compile.
# Not here: anything that defines CATCH_CONFIG_* before including Catch2 (the judges' main and listener, catch_main),
# since the header is included before the first line of the file; the -O2 hot targets (WORKBOOK_HOT_TARGETS), whose
# -O level a -O0 PCH does not match; the emulator's tests (they force-include the emulator's prelude first).
# WORKBOOK_SHARED_PCH=OFF builds without it: a build of one or two of these targets alone (setup.new_lesson's clone
# builds one judge) is shorter without the ~5 s of the .gch.
option(WORKBOOK_SHARED_PCH "one precompiled header for the -O0 judges and test programs" ON)
function(workbook_share_precompiled_headers)
  if(NOT WORKBOOK_SHARED_PCH)
    return()
  endif()
  if(WORKBOOK_CATCH2_MAJOR EQUAL 3)
    set(catch_headers <catch2/catch_message.hpp> <catch2/catch_test_macros.hpp> <catch2/matchers/catch_matchers.hpp>)
  else()
    set(catch_headers <catch2/catch.hpp>)
  endif()
  add_library(workbook_pch_o0 OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
  target_link_libraries(workbook_pch_o0 PRIVATE nlohmann_json::nlohmann_json Catch2::Catch2)
  target_precompile_headers(workbook_pch_o0 PRIVATE <nlohmann/json.hpp> ${catch_headers} <string> <vector> <map>
                                                    <filesystem>)
  get_property(judges GLOBAL PROPERTY WORKBOOK_JUDGE_TARGETS)
  foreach(target IN LISTS judges ARGN)
    if(TARGET ${target})
      target_precompile_headers(${target} REUSE_FROM workbook_pch_o0)
    endif()
  endforeach()
endfunction()
