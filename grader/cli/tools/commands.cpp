// CLI11 wiring of the student and instructor tools: options in, library calls, messages out. The work itself is in
// the other files of this folder (and review/), which know nothing of the command line.
#include <iostream>
#include <memory>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "util/context.hpp"
#include "grade/grade.hpp"
#include "interfaces.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/check.hpp"
#include "lesson/lesson.hpp"
#include "lesson/scaffold.hpp"
#include "lesson/sync.hpp"
#include "util/process.hpp"
#include "tools/class_child.hpp"
#include "tools/grade_class.hpp"
#include "tools/gradescope.hpp"
#include "tools/hint.hpp"
#include "tools/report.hpp"
#include "tools/reset.hpp"
#include "tools/restore.hpp"
#include "tools/solutions_branch.hpp"
#include "tools/status.hpp"
#include "tools/student_edition.hpp"
#include "tools/watch.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

// The repository root; tools that need the build (watch, class grading) ask for the config too.
util::Context context(bool need_config) {
    std::string err;
    auto ctx = util::find_context(need_config, &err);
    if (!ctx) throw util::UserError(err);
    return *ctx;
}

fs::path from_cwd(const std::string& p) { return fs::absolute(fs::path(p)).lexically_normal(); }

}  // namespace

void add_hint_command(CLI::App& app) {
    struct Opt {
        std::string lesson, ex, blank;
        int level = 0;
    };
    auto o = std::make_shared<Opt>();
    auto* cmd = app.add_subcommand(
        "hint", "Reveal the next hint level for a blank (concept area, direction, key line, full answer)");
    cmd->add_option("lesson", o->lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--ex", o->ex, "Exercise (its file's stem, e.g. rmsnorm)")->required();
    cmd->add_option("--blank", o->blank, "Blank id (default: the first unfilled blank)");
    cmd->add_option("--level", o->level, "Show every level up to this one (1-4)");
    cmd->callback([o] {
        const util::Context ctx = context(false);
        const auto L = lesson::load_lesson(ctx.root, o->lesson);
        std::cout << format_hint(reveal_hint(L, o->ex, o->blank, o->level), L.number);
    });
}

void add_status_command(CLI::App& app) {
    auto lesson = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("status", "Progress per exercise: untouched, in progress, passing; hints used");
    cmd->add_option("lesson", *lesson, "Lesson number or id (default: every lesson)");
    cmd->callback([lesson] {
        const util::Context ctx = context(false);
        std::vector<std::string> ids =
            lesson->empty() ? lesson::lesson_ids(ctx.root) : std::vector<std::string>{*lesson};
        for (const auto& id : ids) {
            const auto L = lesson::load_lesson(ctx.root, id);
            std::cout << format_status(L, lesson_status(L));
        }
    });
}

void add_reset_command(CLI::App& app) {
    auto lesson = std::make_shared<std::string>();
    auto ex = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("reset",
                                   "Restore an exercise's starter, after saving your version under .workbook/backups/");
    cmd->add_option("lesson", *lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--ex", *ex, "Exercise (its file's stem)")->required();
    cmd->callback([lesson, ex] {
        const util::Context ctx = context(false);
        std::cout << reset_exercise(lesson::load_lesson(ctx.root, *lesson), *ex).message << "\n";
    });
}

void add_restore_command(CLI::App& app) {
    struct Opt {
        std::string lesson, ex, backup;
    };
    auto o = std::make_shared<Opt>();
    auto* cmd = app.add_subcommand("restore",
                                   "Bring an exercise back from .workbook/backups/ (the current file is saved first)");
    cmd->add_option("lesson", o->lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--ex", o->ex, "Exercise (its file's stem)")->required();
    cmd->add_option("--backup", o->backup, "The backup's folder name (default: the most recent backup of that file)");
    cmd->callback([o] {
        const util::Context ctx = context(false);
        std::cout << restore_exercise(lesson::load_lesson(ctx.root, o->lesson), o->ex, o->backup).message << "\n";
    });
}

void add_report_command(CLI::App& app) {
    struct Opt {
        std::string lesson, submission, results, out;
    };
    auto o = std::make_shared<Opt>();
    auto* cmd = app.add_subcommand("report",
                                   "Write a Markdown submission report (code, where it ran, results, answers, hints)");
    cmd->add_option("lesson", o->lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--submission", o->submission, "Folder with the files (default: exercises/<lesson>)");
    cmd->add_option("--results", o->results, "results.json to report on (default: build/results/<n>/results.json)");
    cmd->add_option("--out", o->out, "Where to write it (default: build/results/<n>/report.md)");
    cmd->callback([o] {
        const util::Context ctx = context(false);
        const auto L = lesson::load_lesson(ctx.root, o->lesson);
        ReportInput in;
        if (!o->submission.empty()) in.submission = from_cwd(o->submission);
        if (!o->results.empty()) in.results = from_cwd(o->results);
        if (!o->out.empty()) in.out = from_cwd(o->out);
        const ReportOutcome r = write_report(L, in);
        std::cout << "Report written to " << util::display_path(r.path, fs::current_path()) << "\n";
        if (!r.graded)
            std::cout << "Not graded yet: it holds your code and answers, no results. Run `make grade-" << L.number
                      << "` first.\n";
        if (!r.changed.empty()) {
            std::string names;
            for (const auto& c : r.changed) names += (names.empty() ? "" : ", ") + c;
            std::cout << "WARNING: changed since the last grade: " << names << ". Their results are left out of the "
                      << "report. Run `make grade-" << L.number << "`, then `make report-" << L.number << "` again.\n";
        }
    });
}

void add_watch_command(CLI::App& app) {
    struct Opt {
        std::string lesson, exercise, backend, submission;
    };
    auto o = std::make_shared<Opt>();
    auto* cmd =
        app.add_subcommand("watch", "Re-grade whenever an exercise file or answers.md is saved (q or Ctrl-C quits)");
    cmd->add_option("lesson", o->lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--ex", o->exercise, "Watch and grade this exercise alone");
    cmd->add_option("--backend", o->backend, "auto (default), gpu, emu or static")
        ->check(CLI::IsMember({"auto", "gpu", "emu", "static"}));
    cmd->add_option("--submission", o->submission, "Folder to watch and grade (default: exercises/<lesson>)");
    cmd->callback([o] {
        const util::Context ctx = context(true);
        const auto L = lesson::load_lesson(ctx.root, o->lesson);
        const fs::path dir = o->submission.empty() ? L.exercises_dir() : from_cwd(o->submission);
        WatchOptions w;
        if (o->exercise.empty())
            for (const auto& e : L.exercises) w.files.push_back(dir / e.file());
        else w.files.push_back(dir / L.exercise(o->exercise).file());
        w.files.push_back(dir / L.answers_file);
        w.manual_command = "make grade-" + L.number + (o->exercise.empty() ? "" : " EX=" + o->exercise);
        // Each grade is this same program's `grade`, as a child the watch can stop at once.
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        if (ec) throw util::UserError("watch: cannot find its own program (/proc/self/exe) to run the grades.");
        w.grade_command = {self.string(), "grade", L.id};
        if (!o->exercise.empty()) w.grade_command.insert(w.grade_command.end(), {"--ex", o->exercise});
        if (!o->backend.empty()) w.grade_command.insert(w.grade_command.end(), {"--backend", o->backend});
        if (!o->submission.empty()) w.grade_command.insert(w.grade_command.end(), {"--submission", dir.string()});
        w.keys_fd = ::isatty(0) ? 0 : -1;
        w.clear_screen = ::isatty(1);
        watch(w, std::cout);
    });
}

void add_sync_command(CLI::App& app) {
    auto lesson = std::make_shared<std::string>();
    auto check = std::make_shared<bool>(false);
    auto* cmd =
        app.add_subcommand("sync", "Write the starters and pristine copies from the marked solutions (instructors)");
    cmd->add_option("lesson", *lesson, "Lesson number or id (default: every lesson)");
    cmd->add_flag("--check", *check, "Only check that they are in sync; exit 1 listing what differs");
    cmd->callback([lesson, check] {
        const util::Context ctx = context(false);
        std::vector<std::string> ids =
            lesson->empty() ? lesson::lesson_ids(ctx.root) : std::vector<std::string>{*lesson};
        bool all_in_sync = true;
        for (const auto& id : ids) {
            const auto L = lesson::load_lesson(ctx.root, id);
            if (lesson->empty() && !fs::exists(L.solutions_dir())) continue;  // a student edition has none
            const lesson::SyncReport r = lesson::sync_lesson(L, *check);
            if (*check) {
                for (const auto& p : r.problems) std::cout << p << "\n";
                if (r.in_sync) std::cout << L.id << ": starters and pristine copies match the solutions.\n";
                all_in_sync &= r.in_sync;
            } else {
                for (const auto& a : r.actions) std::cout << a << "\n";
            }
        }
        if (!all_in_sync) {
            std::cout << "Run `make sync` (workbook sync) to regenerate them from solutions/.\n";
            throw CLI::RuntimeError(1);
        }
    });
}

void add_check_command(CLI::App& app) {
    auto lesson = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("check",
                                   "Check a lesson against its files: solutions, starters, hidden tests, known "
                                   "answers, the built tests (lesson authors)");
    cmd->add_option("lesson", *lesson, "Lesson number or id (default: every lesson)");
    cmd->callback([lesson] {
        const util::Context ctx = context(false);
        std::vector<std::string> ids =
            lesson->empty() ? lesson::lesson_ids(ctx.root) : std::vector<std::string>{*lesson};
        std::size_t problems = 0;
        for (const auto& id : ids) {
            if (lesson->empty() && !fs::exists(ctx.root / "solutions" / id)) continue;  // a student edition has none
            std::vector<std::string> notes;
            const auto found = lesson::check_lesson(ctx.root, id, ctx.config, &notes);
            for (const auto& p : found) std::cout << "problem: " << p.what << "\n    fix: " << p.fix << "\n";
            for (const auto& n : notes) std::cout << "note: " << n << "\n";
            if (found.empty()) std::cout << id << ": lesson.json and the lesson's files agree.\n";
            problems += found.size();
        }
        if (problems > 0) {
            std::cout << problems << " problem" << (problems == 1 ? "" : "s") << " found.\n";
            throw CLI::RuntimeError(1);
        }
    });
}

void add_new_lesson_command(CLI::App& app) {
    auto slug = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("new-lesson",
                                   "Scaffold a lesson that builds, grades and passes `workbook check` "
                                   "(lesson authors)");
    cmd->add_option("slug", *slug, "NN-name, e.g. 05-softmax")->required();
    cmd->callback([slug] {
        const util::Context ctx = context(false);
        for (const auto& f : lesson::scaffold_lesson(ctx.root, *slug)) std::cout << "wrote " << f.string() << "\n";
        std::cout << "Next: reconfigure (cmake -S . -B build), then `make check` and `make grade-" << slug->substr(0, 2)
                  << " SOLUTIONS=1`; docs/adding-a-lesson.md says how to make the lesson your own.\n";
    });
}

void add_class_command(CLI::App& app) {
    struct Opt {
        std::string lesson, submissions, out, backend = "auto";
        double student_timeout = 1800;
    };
    auto o = std::make_shared<Opt>();
    auto* cmd =
        app.add_subcommand("grade-class", "Grade a folder of submissions (one subfolder per student) into a gradebook");
    cmd->add_option("lesson", o->lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--submissions", o->submissions, "Folder with one subfolder per student")->required();
    cmd->add_option("--out", o->out,
                    "Output folder (default: build/results/<n>/class); every run keeps its own subfolder");
    cmd->add_option("--backend", o->backend, "auto (default), gpu, emu or static")
        ->check(CLI::IsMember({"auto", "gpu", "emu", "static"}));
    cmd->add_option("--student-timeout", o->student_timeout, "Seconds one student's grade may take (default 1800)")
        ->check(CLI::PositiveNumber);
    cmd->callback([o] {
        const util::Context ctx = context(true);
        const auto L = lesson::load_lesson(ctx.root, o->lesson);
        const fs::path out = o->out.empty() ? ctx.build_dir / "results" / L.number / "class" : from_cwd(o->out);
        // Each student is graded by this same program in a child process (tools/class_child.hpp).
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        if (ec) throw util::UserError("Cannot find the workbook program itself (/proc/self/exe).");
        ChildGradeOptions child;
        child.command = {self.string(), "grade", L.id};
        // The class's hand-ins and its gradebooks are not any one student's to read, compiling or running.
        for (const fs::path& h : {from_cwd(o->submissions), out})
            child.command.insert(child.command.end(), {"--hide", fs::absolute(h).string()});
        child.backend = o->backend;
        child.timeout_s = o->student_timeout;
        if (!ctx.config_path.empty()) child.env.push_back({"WORKBOOK_CONFIG", ctx.config_path.string()});
        util::install_interrupt_handler();
        const ClassRun run = grade_class(from_cwd(o->submissions), out, L, grade_in_child(child), std::cout,
                                         ctx.build_dir / "class-work");
        // 0 when everyone was graded, whatever the grades; the gradebook is written in any case.
        if (run.not_graded > 0) throw CLI::RuntimeError(1);
    });
}

void add_gradescope_command(CLI::App& app) {
    auto lesson = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand("gradescope", "Build a Gradescope autograder bundle (.zip)");
    cmd->add_option("lesson", *lesson, "Lesson number or id, e.g. 04")->required();
    cmd->add_option("--out", *out, "The .zip to write (default: build/gradescope-<n>.zip)");
    cmd->callback([lesson, out] {
        const util::Context ctx = context(false);
        const auto L = lesson::load_lesson(ctx.root, *lesson);
        const fs::path zip = out->empty() ? ctx.root / "build" / ("gradescope-" + L.number + ".zip") : from_cwd(*out);
        BundleResult r = write_gradescope_bundle(L, zip);
        if (!r.backup.empty()) std::cout << "The previous bundle was saved to " << r.backup.string() << "\n";
        if (!r.note.empty()) std::cout << "note: " << r.note << "\n";
        if (!r.uncommitted.empty()) {
            std::cout << "WARNING: " << r.uncommitted.size() << " uncommitted change"
                      << (r.uncommitted.size() == 1 ? " is" : "s are") << " not in the bundle (it holds commit "
                      << r.commit.substr(0, 12) << "):\n";
            for (std::size_t i = 0; i < r.uncommitted.size() && i < 10; ++i)
                std::cout << "  " << r.uncommitted[i] << "\n";
            if (r.uncommitted.size() > 10) std::cout << "  … and " << r.uncommitted.size() - 10 << " more\n";
        }
        std::cout << "Gradescope bundle: " << r.zip.string() << " (setup.sh, run_autograder and " << r.files
                  << " repository files; no solutions). Upload it as the assignment's autograder.\n";
    });
}

void add_solutions_branch_command(CLI::App& app) {
    auto branch = std::make_shared<std::string>("solutions");
    auto* cmd =
        app.add_subcommand("solutions-branch", "Create or update the git branch `solutions` (exercises filled in)");
    cmd->add_option("--branch", *branch, "Branch name (default: solutions)");
    cmd->callback([branch] {
        const util::Context ctx = context(false);
        BranchResult r = update_solutions_branch(ctx.root, *branch);
        if (!r.changed)
            std::cout << "Branch '" << r.branch << "' is already up to date (" << r.commit.substr(0, 12) << ").\n";
        else
            std::cout << (r.created ? "Created" : "Updated") << " branch '" << r.branch << "' at "
                      << r.commit.substr(0, 12) << " with " << r.files.size()
                      << " solution files in exercises/; your working tree was not touched.\n";
    });
}

void add_student_edition_command(CLI::App& app) {
    auto out = std::make_shared<std::string>();
    auto* cmd =
        app.add_subcommand("student-edition", "Copy the repository without solutions and instructor-only files");
    cmd->add_option("--out", *out, "New folder to create (default: <repository>-student beside the repository)");
    cmd->callback([out] {
        const util::Context ctx = context(false);
        const fs::path dest =
            out->empty() ? ctx.root.parent_path() / (ctx.root.filename().string() + "-student") : from_cwd(*out);
        EditionResult r = make_student_edition(ctx.root, dest);
        std::cout << "Student edition: " << r.out.string() << " (" << r.files << " files from commit "
                  << r.commit.substr(0, 12) << "; no solutions, no instructor guide, tests or CI).\n";
        if (!r.uncommitted.empty()) {
            std::cout << "WARNING: " << r.uncommitted.size() << " uncommitted change"
                      << (r.uncommitted.size() == 1 ? " is" : "s are")
                      << " NOT in the edition (it holds only committed files); commit them and make it again to "
                         "include them:\n";
            for (std::size_t i = 0; i < r.uncommitted.size() && i < 10; ++i)
                std::cout << "  " << r.uncommitted[i] << "\n";
            if (r.uncommitted.size() > 10) std::cout << "  … and " << r.uncommitted.size() - 10 << " more\n";
        }
    });
}

}  // namespace workbook::tools
