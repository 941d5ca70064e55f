// Building one exercise's worker for a backend: the student's .cu (rewritten for emu, nvcc for gpu) linked with the
// worker's dispatcher and the lesson's entry-point table (grader/harness/worker). Results are cached by content hash
// under <build>/grade/<lesson number>/<exercise>/<backend>/<key>/, so an unchanged exercise is not rebuilt; a cached
// worker is used only while its bytes still hash to what was recorded when it was built.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "backend.hpp"
#include "sandbox.hpp"
#include "util/process.hpp"
#include "util/context.hpp"
#include "lesson/lesson.hpp"

namespace workbook::grade {

struct BuildJob {
    std::string exercise;
    std::filesystem::path source;  // the student's .cu
    std::string text;              // its bytes as the intake read them, once: what the review read is what is compiled
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

// What the compiler of a submission may see and do. The compiler reads what the submitted source names: an
// `#include "/any/file"` is quoted in its errors, an assembler's `.incbin` copies any file into the worker, which
// prints it. So the compiler sees what the worker sees (the folders the grade hides are hidden from it too:
// wb::sandbox's view) plus the toolchain and the objects it links, writes only into its own build folder and a
// compiler cache the grader was given, and gets an environment of its own: the grader's (tokens, paths) is not the
// student's to read. Inside bubblewrap's namespaces where they work (not with WORKBOOK_SANDBOX=none), else under
// Landlock where the kernel has it; without either, only the environment and the private copy of the source that
// the callers compile are confined (docs/security.md).
class Confinement {
 public:
    // `hide`: the folders hidden from the submission (grade.cpp); `shown`: the toolchain's files and folders inside
    // them; `build_dir`: where the compiler writes; `gpu`: the GPU's device files too (nvcc -arch=native).
    Confinement(const std::vector<std::string>& hide, const std::vector<std::string>& shown,
                const std::filesystem::path& build_dir, bool gpu);
    ~Confinement();
    Confinement(const Confinement&) = delete;
    Confinement& operator=(const Confinement&) = delete;

    // `spec` (its argv, with argv[0] a path, and its cwd set) rewritten to run confined.
    void apply(util::ProcessSpec& spec) const;
    // Whether the command runs in bubblewrap, which exits with 128 + the signal that ended it.
    bool in_namespaces() const { return bwrap_; }

 private:
    bool bwrap_ = false;
    bool gpu_ = false;
    std::vector<wb::sandbox::ViewPath> view_;
    std::vector<std::string> env_;
    int landlock_fd_ = -1;
};

// The first compiler errors, with paths shown relative to `base`.
std::string trim_compiler_output(const std::string& out, const std::filesystem::path& base, std::size_t max_errors = 3);

}  // namespace workbook::grade
