#!/usr/bin/env bash
# Gives a build folder that is about to be configured for the first time this build's lesson-cmake (the manifest
# reader the configure compiles and runs, grader/configure/lessons.cmake), so that the tests which configure a copy
# of the course (setup.bad_manifest, setup.student_edition, setup.new_lesson) do not compile it again: about 9 s of
# CPU each in a fresh clone, where there is no ccache (13 s before its six files became two translation units).
# Nothing is trusted blindly: the configure uses the tool only when its stamp equals the hash of the compile command
# and of every file the tool was compiled from, read from the copy being configured. A copy whose reader sources
# differ, or lack one of them (a student edition that left one out), builds it afresh as before.
#   seed_lesson_cmake.sh FROM_BUILD TO_BUILD   (no FROM_BUILD/lesson-cmake/stamp: nothing to give, exit 0)
set -euo pipefail
from=$1/lesson-cmake to=$2/lesson-cmake
[ -f "$from/stamp" ] && [ -f "$from/inputs.txt" ] && [ -x "$from/lesson-cmake" ] || exit 0
mkdir -p "$to"
cp "$from/lesson-cmake" "$from/stamp" "$from/inputs.txt" "$to/"
