// `workbook profile`: the CPU emulator's profiler (docs/emulator.md, "Profiler") on a lesson's exercise or on any
// program built with the emulator. Counts are the emulator's; every time and bandwidth is a prediction of a model.
//
//   workbook profile 04 --ex rmsnorm_fast [--solutions | --submission DIR | --file X.cu] [--rows 64] [--n 1024,4096]
//   workbook profile --program ./my_emulated_program [args…]
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "util/context.hpp"

namespace workbook::tools {

struct ProfileOptions {
    std::string lesson, exercise;      // lesson mode
    std::filesystem::path file;        // a .cu file with one of the lesson's entry points (instead of --ex)
    std::filesystem::path submission;  // folder with the exercise's file (default: exercises/<lesson>/)
    bool solutions = false;            // profile the reference solution
    int rows = 64;                     // rows emulated per shape
    double predict_rows = 16384;       // rows of the launch the prediction is for
    std::vector<int> widths;           // N of each shape; empty: lesson.json "profile" "n", else 1024, 4096, 8192
    std::vector<std::string> program;  // program mode: argv of an emulator-built program
    std::filesystem::path out;         // default: build/profile/<lesson>/<exercise>
};

struct ProfileResult {
    std::filesystem::path out_dir;
    std::string report;  // the profiler's text report (sanitized)
    std::vector<std::filesystem::path> pictures;
    std::string registers;  // how registers were found, or why they are unknown
};

// Builds and runs; a build or run failure is a util::UserError with the tool's output.
ProfileResult run_profile(const util::Context& ctx, const ProfileOptions& opt);

std::string format_profile(const ProfileResult& r);

// Registers and shared memory per kernel from `nvcc -Xptxas -v` output, as "regs<TAB>smem<TAB>kernel" lines (the
// format EMU_PROFILE_PTXAS reads); kernel names demangled.
std::string ptxas_table(const std::string& ptxas_output);

// For a grade on the emulator: the advice shown under a performance exercise (its lesson.json title says
// "performance"), which the emulator cannot time; empty for other exercises. Profiling at grade time would add a
// build and a run per grade (docs/emulator.md, Profiler: cost), so a grade shows the counts of the last
// `make profile-NN EX=…` (build_dir/profile/NN/EX) when it profiled this very content (content_hash, the file's
// sha256), and otherwise points to the command.
std::string profile_advice(const nlohmann::json& manifest, const std::string& lesson_number,
                           const std::string& exercise, const std::filesystem::path& build_dir,
                           const std::string& content_hash);

void add_profile_command(CLI::App& app);

}  // namespace workbook::tools
