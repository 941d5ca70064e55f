// The `grade` subcommand's options, mapped onto GradeOptions.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "util/context.hpp"
#include "grade.hpp"
#include "util/reaper.hpp"
#include "util/util.hpp"

namespace workbook::grade {

void add_grade_command(CLI::App& app) {
    auto opt = std::make_shared<GradeOptions>();
    auto seed = std::make_shared<std::uint64_t>(0);
    auto* cmd = app.add_subcommand("grade", "Grade a lesson's exercises against the hidden tests");
    cmd->add_option("lesson", opt->lesson, "Lesson number or id, e.g. 04 or 04-rmsnorm")->required();
    cmd->add_option("--submission", opt->submission, "Folder holding the files to grade (default: exercises/<lesson>)");
    cmd->add_option("--backend", opt->backend, "auto (default), gpu, emu or static")
        ->check(CLI::IsMember({"auto", "gpu", "emu", "static"}));
    cmd->add_option("--ex", opt->exercise, "Grade this exercise alone (its file's stem, e.g. rmsnorm)");
    cmd->add_flag("--solutions", opt->solutions, "Grade solutions/<lesson> (instructors)");
    cmd->add_flag("--sanitize", opt->sanitize,
                  "On a GPU, also run compute-sanitizer's memcheck, racecheck, synccheck "
                  "and initcheck on every test (advice, no points)");
    cmd->add_option("--sanitize-tools", opt->sanitize_tools,
                    "With --sanitize: only these of compute-sanitizer's tools (comma-separated)")
        ->delimiter(',')
        ->check(CLI::IsMember({"memcheck", "racecheck", "synccheck", "initcheck"}));
    auto* seed_opt = cmd->add_option("--seed", *seed, "Seed of the random test inputs (default: $SEED, else random)");
    cmd->add_option("--json-out", opt->json_out, "Also write results.json to this file (-: only to stdout, no report)");
    cmd->add_option("--work-dir", opt->work_dir,
                    "Build the test programs here instead of in the build folder (not under /tmp: "
                    "the sandbox gives the tests a /tmp of their own)");
    cmd->add_option("--submission-label", opt->submission_label, "How the report names the submission (class grading)");
    cmd->add_option("--hide", opt->hide,
                    "A folder the submission's code, compiling or running, must not see (class grading: the class's "
                    "hand-ins); repeatable");
    cmd->callback([opt, seed, seed_opt] {
        if (seed_opt->count() > 0) opt->seed = *seed;
        if (opt->json_out == "-") {
            opt->print_report = false;
            opt->write_default_results = false;
        }
        if (!opt->sanitize_tools.empty()) opt->sanitize = true;
        if (opt->solutions && !opt->submission.empty())
            throw CLI::ValidationError("--solutions and --submission", "choose one of them");
        std::string err;
        auto ctx = util::find_context(true, &err);
        if (!ctx) {
            std::cerr << "workbook: " << err << "\n";
            throw CLI::RuntimeError(2);
        }
        // What a test leaves running after its process group is killed (a daemon that called setsid) comes back to
        // this process and is killed before the grade is reported.
        util::become_subreaper();
        GradeOutcome out = run_grade(*ctx, *opt);
        util::kill_orphans();
        if (!out.error.empty()) std::cerr << "workbook: " << util::sanitize_text(out.error) << "\n";
        if (out.exit_code != 0) throw CLI::RuntimeError(out.exit_code);
    });
}

}  // namespace workbook::grade
