// Building one exercise's worker for a backend: the student's .cu (rewritten for emu, nvcc for gpu) linked with the
// worker's dispatcher and the lesson's entry-point table (grader/harness/worker). Results are cached by content hash
// under <build>/grade/<lesson number>/<exercise>/<backend>/<key>/, so an unchanged exercise is not rebuilt; a cached
// worker is used only while its bytes still hash to what was recorded when it was built.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "backend.hpp"
#include "util/context.hpp"
#include "lesson/lesson.hpp"

namespace workbook::grade {

struct BuildJob {
    std::string exercise;
    std::filesystem::path source;  // the student's .cu
};

struct BuildResult {
    std::string exercise;
    bool ok = false;
    bool cached = false;
    bool setup_error = false;      // the grader itself is incomplete (missing objects/tools), not the student's code
    std::filesystem::path worker;  // executable when ok
    std::string message;           // compiler errors (trimmed, student's file:line) or the setup problem
    double seconds = 0;
};

// Builds all jobs, at most `parallel` at a time. The compiler sees the filesystem as the worker will, with `hide`
// hidden (grade.cpp's list), and writes only into its build folder (build.cpp, Confinement).
std::vector<BuildResult> build_workers(const util::Context& ctx, const lesson::Lesson& lesson,
                                       const std::vector<BuildJob>& jobs, Backend backend, int parallel,
                                       const std::vector<std::string>& hide);

// The first compiler errors, with paths shown relative to `base`.
std::string trim_compiler_output(const std::string& out, const std::filesystem::path& base, std::size_t max_errors = 3);

}  // namespace workbook::grade
