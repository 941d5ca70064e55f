# What the build knows of the lessons (their exercises, entry points and known answers) is read by the grader's own
# parser of the manifest (grader/cli/lesson/manifest.cpp) and of the lists of known answers (catalogue.cpp), not by
# a second reader written in CMake: lesson-cmake (lesson_cmake.cpp beside this file) is built from those sources with
# the host compiler when the build is configured, and run; it writes <build>/generated/<slug>/entry_points.hpp and a
# CMake fragment, included here, which sets
#   WORKBOOK_MANIFEST_LESSONS                every lessons/<slug>/ with a lesson.json
#   WORKBOOK_EXERCISES_<slug>                the lesson's exercises, in the manifest's order
#   WORKBOOK_KNOWN_ANSWERS_<wrong|alt>_<slug>  "<exercise>|<name>" per entry of solutions/<slug>/<kind>/<kind>.json
# A manifest the parser refuses stops the configure with the parser's sentence, which names the file and the key.
#
# lesson-cmake is compiled again only when a file it is compiled from (a source, or a header of this repository it
# includes, as the compiler listed them) or the compile command changed: a re-configure costs one run of it. Its
# objects compile in parallel and through the build's compiler launcher (ccache), when there is one.
#
# The six sources are compiled as two translation units, each a source with the others of its group forced in first
# (-include, read from the source folder like the source itself): the configure of a fresh clone runs before anything
# else can, and each of the six parsed nlohmann/json and the standard headers again (15.6 s of CPU, about 7.8 s on two
# cores). Two units take 9.2 s of CPU, 4.8 s of wall time (session 7, docs/test-time.md). The sources share no
# file-local names (they are compiled together in workbook_lib's unity build too).
# One group a line: "<source>|<source forced in first>|…".
set(WORKBOOK_LESSON_CMAKE_GROUPS
    "grader/configure/lesson_cmake.cpp|grader/cli/lesson/lesson.cpp|grader/cli/lesson/manifest.cpp"
    "grader/cli/lesson/catalogue.cpp|grader/cli/util/files.cpp|grader/cli/util/util.cpp")
set(WORKBOOK_LESSON_CMAKE_SOURCES "")
foreach(group IN LISTS WORKBOOK_LESSON_CMAKE_GROUPS)
  string(REPLACE "|" ";" files "${group}")
  list(APPEND WORKBOOK_LESSON_CMAKE_SOURCES ${files})
endforeach()

# The hash of the compile command and of every file listed in `inputs_file` (one path a line, relative to the source
# folder); empty when the list or one of its files is missing, which forces a build.
function(_wb_lesson_cmake_key out command inputs_file)
  set(${out} "" PARENT_SCOPE)
  if(NOT EXISTS ${inputs_file})
    return()
  endif()
  file(STRINGS ${inputs_file} inputs)
  set(key "${command}")
  foreach(f IN LISTS inputs)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${f})
      return()
    endif()
    file(SHA256 ${PROJECT_SOURCE_DIR}/${f} h)
    string(APPEND key "\n${f} ${h}")
  endforeach()
  string(SHA256 key "${key}")
  set(${out} ${key} PARENT_SCOPE)
endfunction()

# Builds <build>/lesson-cmake/lesson-cmake when its stamp is stale; sets `out_inputs` to the files it is built from.
function(_wb_build_lesson_cmake tool out_inputs)
  get_filename_component(dir ${tool} DIRECTORY)
  get_target_property(json_includes nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
  # Relative paths from the source folder: the compiler's dependency lists then hold no spaces of the checkout's
  # path, and ccache finds the objects of another checkout of the same sources.
  set(flags -std=c++17 -O0 -Igrader/cli)
  foreach(inc IN LISTS json_includes OPENSSL_INCLUDE_DIR)
    # The compiler's own folders (/usr/include) stay out: named with -isystem they would come before its C++
    # headers' #include_next.
    if(inc AND NOT inc IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
      list(APPEND flags -isystem ${inc})
    endif()
  endforeach()
  set(link ${WORKBOOK_LINK_FLAGS} ${OPENSSL_CRYPTO_LIBRARY})
  set(command "${CMAKE_CXX_COMPILER};${flags};${link};${WORKBOOK_LESSON_CMAKE_GROUPS}")
  _wb_lesson_cmake_key(key "${command}" ${dir}/inputs.txt)
  set(stamp "")
  if(EXISTS ${dir}/stamp AND EXISTS ${tool})
    file(READ ${dir}/stamp stamp)
  endif()
  if(key STREQUAL "" OR NOT stamp STREQUAL key)
    message(STATUS "Building lesson-cmake, the manifest reader the configure runs (grader/configure)")
    file(MAKE_DIRECTORY ${dir})
    # execute_process runs its COMMANDs at the same time (as a pipeline; a compiler reads no standard input and
    # writes its messages to standard error), so the objects compile in parallel.
    set(compiles "")
    set(objects "")
    set(depfiles "")
    foreach(group IN LISTS WORKBOOK_LESSON_CMAKE_GROUPS)
      string(REPLACE "|" ";" files "${group}")
      list(POP_FRONT files src)
      get_filename_component(name ${src} NAME_WE)
      set(forced "")
      foreach(f IN LISTS files)
        list(APPEND forced -include ${f})
      endforeach()
      list(APPEND compiles COMMAND ${CMAKE_CXX_COMPILER_LAUNCHER} ${CMAKE_CXX_COMPILER} ${flags} ${forced} -MMD -MF
           ${dir}/${name}.d -c ${src} -o ${dir}/${name}.o)
      list(APPEND objects ${dir}/${name}.o)
      list(APPEND depfiles ${dir}/${name}.d)
    endforeach()
    execute_process(${compiles} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} RESULTS_VARIABLE results
                    ERROR_VARIABLE errors)
    foreach(rc IN LISTS results)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "lesson-cmake, the manifest reader of the configure, does not compile:\n${errors}")
      endif()
    endforeach()
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} ${objects} -o ${tool}.new ${link} RESULT_VARIABLE rc
                    ERROR_VARIABLE errors)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "lesson-cmake, the manifest reader of the configure, does not link:\n${errors}")
    endif()
    file(RENAME ${tool}.new ${tool})
    # Its inputs, as the compiler listed them (-MMD: the repository's files, not the system's headers).
    set(inputs "")
    foreach(depfile IN LISTS depfiles)
      file(READ ${depfile} deps)
      string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
      string(REPLACE "\\\n" " " deps "${deps}")
      separate_arguments(deps UNIX_COMMAND "${deps}")
      list(APPEND inputs ${deps})
    endforeach()
    list(REMOVE_DUPLICATES inputs)
    list(JOIN inputs "\n" text)
    file(WRITE ${dir}/inputs.txt "${text}\n")
    _wb_lesson_cmake_key(key "${command}" ${dir}/inputs.txt)
    file(WRITE ${dir}/stamp "${key}")
  endif()
  file(STRINGS ${dir}/inputs.txt inputs)
  list(TRANSFORM inputs PREPEND ${PROJECT_SOURCE_DIR}/)
  set(${out_inputs} ${inputs} PARENT_SCOPE)
endfunction()

set(_wb_lesson_cmake ${PROJECT_BINARY_DIR}/lesson-cmake/lesson-cmake)
_wb_build_lesson_cmake(${_wb_lesson_cmake} _wb_lesson_cmake_inputs)
execute_process(COMMAND ${_wb_lesson_cmake} ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated
                        ${PROJECT_BINARY_DIR}/lesson-cmake/lessons.cmake
                RESULT_VARIABLE _wb_rc ERROR_VARIABLE _wb_error)
if(NOT _wb_rc EQUAL 0)
  string(STRIP "${_wb_error}" _wb_error)
  message(FATAL_ERROR "${_wb_error}\n(docs/adding-a-lesson.md describes every key of a lesson's manifest.)")
endif()
include(${PROJECT_BINARY_DIR}/lesson-cmake/lessons.cmake)
# Configure again when a manifest or a list changes, when a lesson or a list appears, or when the parser does.
file(GLOB _wb_lesson_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lessons/*/lesson.json
     ${PROJECT_SOURCE_DIR}/solutions/*/wrong/wrong.json ${PROJECT_SOURCE_DIR}/solutions/*/alt/alt.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${WORKBOOK_MANIFEST_INPUTS} ${_wb_lesson_cmake_inputs})
