#include "grade.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include <unistd.h>

#include "../interfaces.hpp"
#include "backend.hpp"
#include "build.hpp"
#include "intake.hpp"
#include "lesson/lesson.hpp"
#include "lesson/sync.hpp"
#include "model.hpp"
#include "util/process.hpp"
#include "report.hpp"
#include "result_files.hpp"
#include "util/files.hpp"
#include "results.hpp"
#include "runner.hpp"
#include "sanitize.hpp"
#include "score.hpp"
#include "util/util.hpp"
#include "verification.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

GradeOutcome usage_error(const std::string& msg, int code = 2) {
    GradeOutcome o;
    o.exit_code = code;
    o.error = msg;
    return o;
}

std::string shown_path(const fs::path& p, const fs::path& root) { return util::display_path(p, root); }

std::uint64_t env_seed() {
    const char* s = std::getenv("SEED");
    if (!s || !*s) return 0;
    char* end = nullptr;
    auto v = std::strtoull(s, &end, 10);
    return (end && *end == '\0') ? v : 0;
}

// One grade run as its stages, in order. Each stage reads what the earlier ones left in the members and returns an
// outcome only when the run stops there (a usage error, an interrupted run).
class Pipeline {
 public:
    Pipeline(const util::Context& ctx, const GradeOptions& opt) : ctx(ctx), opt(opt) {}

    GradeOutcome run_all() {
        for (auto stage : {&Pipeline::select, &Pipeline::check_submission, &Pipeline::choose_backend, &Pipeline::review,
                           &Pipeline::build, &Pipeline::run_hidden_tests, &Pipeline::score_written, &Pipeline::score})
            if (auto stopped = (this->*stage)()) return *stopped;
        return write_results();
    }

 private:
    // The lesson, and which of its exercises are graded.
    std::optional<GradeOutcome> select() {
        try {
            run.lesson = lesson::load_lesson(ctx.root, opt.lesson);
        } catch (const util::UserError& e) {
            return usage_error(e.what());
        }

        // Which exercises.
        if (!opt.exercise.empty()) {
            const lesson::Exercise* e = L.find(opt.exercise);
            if (!e)
                return usage_error("Unknown exercise '" + opt.exercise + "' in lesson " + L.id +
                                   "; known exercises: " + util::join(L.exercise_names(), ", ") + ".");
            selected.push_back(e);
            run.only_exercise = e->name;
        } else {
            for (const auto& e : L.exercises) selected.push_back(&e);
        }
        whole_lesson = run.only_exercise.empty() || run.only_exercise == L.core;
        return std::nullopt;
    }

    // The submission folder and its files.
    std::optional<GradeOutcome> check_submission() {
        if (!opt.submission.empty()) dir = fs::absolute(opt.submission);
        else dir = ctx.root / (opt.solutions ? "solutions" : "exercises") / L.id;
        std::error_code ec;
        if (!fs::is_directory(dir, ec))
            return usage_error("The submission folder " + shown_path(dir, ctx.root) + " does not exist" +
                               (fs::exists(dir, ec) ? " as a folder." : "."));
        run.submission = dir;
        run.build_dir = ctx.build_dir;
        run.submission_label =
            util::sanitize_name(opt.submission_label.empty() ? shown_path(dir, ctx.root) : opt.submission_label);
        // Each submitted file is read once, here, without following links (util::read_submitted); the review uses
        // these texts, so nothing outside the submission folder is opened or quoted. A file that is missing or cannot
        // be graded costs its own exercise (or the written answers) only: the rest of the submission is graded. A byte
        // that is not UTF-8 is a warning, not a refusal: the file is graded, the review reads it with such bytes
        // replaced.
        auto take = [&](const std::string& file) {
            auto got = util::read_submitted(dir / file, file);
            if (got.refusal.empty() || got.not_utf8) {
                hashes[file] = util::sha256_hex(got.text);
                as_read[file] = got.text;
            }
            if (got.not_utf8) {
                std::vector<int> lines;
                submitted[file] = replace_invalid_utf8(got.text, &lines);
                run.warnings.push_back(invalid_utf8_warning(file, lines));
            } else if (!got.refusal.empty()) {
                unusable[file] = got.refusal;
            } else {
                submitted[file] = std::move(got.text);
            }
        };
        for (const auto* e : selected) {
            expected.insert(e->file());
            take(e->file());
        }
        answers = dir / L.answers_file;
        grade_written = whole_lesson && !L.written.empty();
        if (grade_written) {
            expected.insert(L.answers_file);
            take(L.answers_file);
            if (auto u = unusable.find(L.answers_file); u != unusable.end()) run.answers_missing = u->second;
        }
        {
            std::vector<std::string> extra;
            std::set<std::string> all_files;
            for (const auto& e : L.exercises) all_files.insert(e.file());
            for (const auto& d : fs::directory_iterator(dir, ec)) {
                const std::string name = d.path().filename().string();
                if (expected.count(name) || (!run.only_exercise.empty() && all_files.count(name))) continue;
                if (name == L.answers_file) continue;
                extra.push_back(util::sanitize_name(name) +
                                (d.symlink_status(ec).type() == fs::file_type::directory ? "/" : ""));
            }
            std::sort(extra.begin(), extra.end());
            // A missing file handed in under another name (`rmsnorm (1).cu` from a browser's download, `RMSNorm.cu`,
            // `rmsnorm.cu.txt`) is named beside the refusal, with the name it needs.
            for (auto& [file, why] : unusable) {
                if (why != file + " is missing.") continue;
                std::vector<std::string> like;
                for (const auto& name : extra)
                    if (looks_renamed(name, file)) like.push_back("`" + name + "`");
                if (!like.empty())
                    why = file + " is missing; the submission holds " + util::join(like, ", ") +
                          ", which looks like it under another name: name it " + file + ".";
            }
            // The first names only: a hand-in of 20000 files made a note of 3 MB, twice in results.json (6.5 MB,
            // beyond what a gradebook or Gradescope shows), which a student's upload must not be able to do.
            constexpr std::size_t kNamed = 20;
            if (extra.size() > kNamed) {
                const std::size_t more = extra.size() - kNamed;
                extra.resize(kNamed);
                extra.push_back("and " + std::to_string(more) + " more");
            }
            if (!extra.empty()) run.notes.push_back("ignored (not part of the submission): " + util::join(extra, ", "));
        }
        return std::nullopt;
    }

    // Where the hidden tests run, and the seed of their inputs.
    std::optional<GradeOutcome> choose_backend() {
        run.sanitize = opt.sanitize;
        run.sanitize_tools = opt.sanitize_tools;
        if (opt.sanitize && opt.backend == "static")
            run.notes.push_back("SANITIZE=1 runs compute-sanitizer on the hidden tests, and a static review runs none");
        if (opt.backend == "static") {
            run.backend = Backend::static_only;
        } else if (opt.backend == "emu") {
            run.backend = Backend::emu;
        } else if (opt.backend == "gpu" || opt.backend == "auto") {
            GpuProbe g = probe_gpu(ctx);
            if (g.usable) {
                run.backend = Backend::gpu;
                run.gpu_name = g.name;
                if (opt.backend == "auto") run.backend_reason = "auto: a CUDA device is usable";
            } else if (opt.backend == "gpu") {
                return usage_error("BACKEND=gpu needs a usable CUDA device, but " + g.reason +
                                   "; use BACKEND=emu (CPU emulator) or BACKEND=static.");
            } else {
                run.backend = Backend::emu;
                run.backend_reason = "auto: " + g.reason;
            }
        } else {
            return usage_error("Unknown backend '" + opt.backend + "'; use auto, gpu, emu or static.");
        }

        if (opt.seed) run.seed = *opt.seed;
        else if (auto s = env_seed()) run.seed = s;
        else run.seed = util::random_u64() % 10000000000ULL;  // ten digits: easy to copy into SEED=

        // Harness builds go to the build folder, or to --work-dir (class grading gives each student a fresh one, so
        // nothing one student's run left there is seen by the next).
        build_ctx = ctx;
        if (!opt.work_dir.empty()) build_ctx.build_dir = fs::absolute(opt.work_dir);
        return std::nullopt;
    }

    // Static review first: blanks, the token edit check, review comments (and nvcc for static).
    std::optional<GradeOutcome> review() {
        std::error_code ec;
        const std::string nvcc = run.backend == Backend::static_only ? find_nvcc(ctx) : std::string();
        for (const auto* e : selected) {
            ExerciseResult ex;
            ex.info = e;
            ex.file = dir / e->file();
            if (auto u = unusable.find(e->file()); u != unusable.end()) {
                ex.missing = u->second;
                run.exercises.push_back(std::move(ex));
                continue;
            }
            const std::string& text = submitted[e->file()];
            ex.content_hash = hashes[e->file()];
            std::optional<std::string> pristine_text;
            try {
                pristine_text = lesson::pristine_starter(L, *e);
                if (!pristine_text)
                    run.notes.push_back("the edit check of " + e->file() +
                                        " could not run: " + shown_path(L.pristine_dir() / e->file(), ctx.root) +
                                        " is missing (the grader is incomplete)");
            } catch (const util::UserError& err) {
                run.notes.push_back("the edit check of " + e->file() + " could not run: " + err.what());
            }
            try {
                auto unfilled = review::find_unfilled(text, e->blank_ids(), pristine_text);
                for (const auto& u : unfilled)
                    ex.unfilled.push_back(u.id.empty() ? "line " + std::to_string(u.line) : u.id);
                ex.unfilled_message = review::unfilled_message(e->file(), e->name, L.number, unfilled);
                if (pristine_text && unfilled.empty()) {
                    auto check = review::edit_check_text(*pristine_text, text, e->file(), e->blank_ids());
                    ex.edit_ok = check.ok;
                    ex.fill_refused = check.refused;
                    if (!check.ok) run.vetoes.push_back({e->name, check.reason, check.diff});
                }
                for (const auto& c : pristine_text ? review::review_comments_text(*e, text, *pristine_text, e->file())
                                                   : std::vector<review::Comment>{}) {
                    const std::string where = e->file() + (c.line > 0 ? ":" + std::to_string(c.line) : "");
                    if (c.veto) run.vetoes.push_back({e->name, where + ": " + c.text, ""});
                    else run.comments.push_back({e->name, where, c.text});
                }
                // A file exactly as shipped (a bug hunt not yet touched) holds nothing of the student's to compile,
                // and nvcc costs seconds per file: said, not run.
                const bool as_shipped = pristine_text && text == *pristine_text;
                if (run.backend == Backend::static_only && ex.unfilled.empty() && !ex.fill_refused) {
                    if (as_shipped) {
                        ex.static_compile = e->file() + " is as shipped: not compiled (nothing of yours to check yet).";
                    } else {
                        const fs::path work = build_ctx.build_dir / "grade" / L.number / e->name / "static";
                        fs::create_directories(work, ec);
                        const Confinement confined(hidden_from_submission(), {util::which(nvcc)}, work, false);
                        const auto read = as_read.find(e->file());
                        auto sc = review::nvcc_static_compile(
                            nvcc, ex.file, work, [&](util::ProcessSpec& spec) { confined.apply(spec); },
                            read == as_read.end() ? nullptr : &read->second);
                        if (!sc.ran) {
                            ex.static_compile =
                                "nvcc not found: the static review could not compile " + e->file() + ".";
                        } else {
                            ex.static_compile_ok = sc.ok;
                            ex.static_compile = sc.ok ? "nvcc -std=c++17 -c: compiled.\n" + sc.ptxas_report
                                                      : "nvcc -std=c++17 -c: did not compile.\n" + sc.output;
                        }
                    }
                }
            } catch (const util::UserError& ue) {
                return usage_error(ue.what());
            }
            run.exercises.push_back(std::move(ex));
        }
        return std::nullopt;
    }

    // Where an exercise's hidden tests run: on the run's backend, except that on a GPU an exercise whose manifest
    // record says runs_on_emulator runs on the emulator, whose checks see what the GPU executes without a trace.
    Backend backend_of(const ExerciseResult& ex) const {
        return run.backend == Backend::gpu && !ex.info->runs_on_emulator.empty() ? Backend::emu : run.backend;
    }

    // The workers of the exercises that can run, and the judges' test lists.
    std::optional<GradeOutcome> build() {
        if (run.backend == Backend::static_only) return std::nullopt;
        for (auto& ex : run.exercises) {
            ex.backend = backend_of(ex);
            if (ex.backend != run.backend && ex.missing.empty())
                run.notes.push_back(ex.info->name +
                                    " ran on the emulator, not on the GPU: " + ex.info->runs_on_emulator);
        }
        if (auto stopped = build_for(run.backend, test_jobs)) return stopped;
        if (run.backend == Backend::gpu)
            if (auto stopped = build_for(Backend::emu, emulated_jobs)) return stopped;
        return std::nullopt;
    }

    // build(), for the exercises whose tests run on `backend`: their workers built, their tests listed into `into`.
    std::optional<GradeOutcome> build_for(Backend backend, std::vector<TestJob>& into) {
        std::vector<BuildJob> jobs;
        std::vector<std::size_t> job_index;
        for (std::size_t i = 0; i < run.exercises.size(); ++i)
            if (run.exercises[i].backend == backend && run.exercises[i].missing.empty() &&
                run.exercises[i].unfilled.empty() && !run.exercises[i].fill_refused) {
                const auto read = as_read.find(run.exercises[i].info->file());
                if (read == as_read.end()) continue;  // not read: the exercise is already marked missing
                jobs.push_back({run.exercises[i].info->name, run.exercises[i].file, read->second});
                job_index.push_back(i);
            }
        if (jobs.empty()) return std::nullopt;
        auto built = build_workers(build_ctx, L, jobs, backend, 2, hidden_from_submission());
        bool any_setup_error = false;
        std::string setup_message;
        for (std::size_t k = 0; k < built.size(); ++k) {
            auto& ex = run.exercises[job_index[k]];
            ex.attempted_build = true;
            ex.build = built[k];
            if (built[k].setup_error) {
                any_setup_error = true;
                setup_message = built[k].message;
            }
            if (!ex.build.ok) continue;
            // The test list is the judge's, built with the grader: no submission can shorten it.
            const std::string judge = util::config_string(ctx, "/judges/" + L.id + "/" + ex.info->name);
            if (judge.empty()) {
                ex.list_error = "the judge of '" + ex.info->name + "' is not part of this build (workbook-config.json)";
                continue;
            }
            std::string list_err;
            auto tests = list_tests(judge, ex.info->name, &list_err);
            if (!tests) {
                ex.list_error = list_err;
            } else if (tests->empty()) {
                ex.list_error = "the test program lists no hidden tests for '" + ex.info->name + "'";
            } else {
                for (const auto& t : *tests) into.push_back({t, judge, ex.build.worker});
            }
        }
        if (any_setup_error && into.empty() && jobs.size() == built.size()) {
            bool all_setup =
                std::all_of(built.begin(), built.end(), [](const BuildResult& b) { return b.setup_error; });
            if (all_setup)
                return usage_error(setup_message + " Build the grader first: `make grade-" + L.number +
                                       "` does it, or `cmake --build build`.",
                                   3);
        }
        return std::nullopt;
    }

    // What the submission's code, compiled and run, must not see: the grading checkout (an instructor's holds the
    // solutions, the reference answers and their history in .git), the build (other grades' folders, the class's
    // staged hand-ins), the student state with its GPU verifications, earlier results, the submission folder and
    // the folder around it (in a class, the other students' submissions; unless it holds the grader itself), what
    // the caller names (class grading: the submissions folder), and the key that seals GPU verifications. The
    // sandbox shows the worker its own program again, and the compiler its toolchain.
    std::vector<std::string> hidden_from_submission() const {
        std::vector<std::string> hide = {ctx.root.string(), ctx.build_dir.string(), (ctx.root / ".workbook").string(),
                                         (ctx.build_dir / "results").string(), dir.string()};
        std::error_code canon_ec;
        const fs::path around = fs::weakly_canonical(dir, canon_ec).parent_path();
        auto inside = [](const fs::path& p, const fs::path& base) {
            const auto rel = p.lexically_relative(base);
            return !rel.empty() && rel.native().rfind("..", 0) != 0;
        };
        if (!around.empty() && around != around.root_path() && !inside(ctx.root, around) &&
            !inside(ctx.build_dir, around) && !opt.solutions)
            hide.push_back(around.string());
        for (const auto& h : opt.hide) hide.push_back(h);
        // The key that seals GPU verifications (verification.hpp): code that read it could seal its own.
        if (const fs::path keys = verification_key_dir(); !keys.empty() && fs::is_directory(keys, canon_ec))
            hide.push_back(keys.string());
        return hide;
    }

    // The hidden tests, each a judge and its sandboxed worker.
    std::optional<GradeOutcome> run_hidden_tests() {
        if (run.backend == Backend::static_only) return std::nullopt;
        util::install_interrupt_handler();
        auto sanitized = util::config_list(ctx, "/emu/cxxflags");
        const bool has_sanitizer = std::any_of(sanitized.begin(), sanitized.end(),
                                               [](const std::string& f) { return f.rfind("-fsanitize=", 0) == 0; });
        RunLimits limits = default_limits(run.backend, has_sanitizer);
        limits.hide = hidden_from_submission();
        auto outcomes = run_tests(test_jobs, run.seed, limits);
        if (!emulated_jobs.empty() && !util::interrupted()) {
            RunLimits emu_limits = default_limits(Backend::emu, has_sanitizer);
            emu_limits.hide = limits.hide;
            for (auto& o : run_tests(emulated_jobs, run.seed, emu_limits)) outcomes.push_back(std::move(o));
        }
        if (util::interrupted()) return usage_error("Interrupted; nothing was recorded.", 130);
        // The student knows their file as "rmsnorm.cu:6", not by the submission folder's absolute path.
        const std::string prefix = dir.string() + "/";
        for (auto& o : outcomes) {
            util::erase_all(o.message, prefix);
            util::erase_all(o.output, prefix);
        }
        if (opt.sanitize && run.backend == Backend::gpu) {
            run.sanitizer = run_compute_sanitizer(test_jobs, run.seed, limits, prefix, opt.sanitize_tools);
            // An interrupt kills the tool's runs: they did not crash, so nothing of them may be reported.
            if (util::interrupted()) return usage_error("Interrupted; nothing was recorded.", 130);
            std::set<std::string> emulated;
            for (const auto& j : emulated_jobs) emulated.insert(j.test.exercise);
            if (!emulated.empty())
                run.notes.push_back("compute-sanitizer did not run on " +
                                    util::join(std::vector<std::string>(emulated.begin(), emulated.end()), ", ") +
                                    ": its tests ran on the emulator, whose own checks (out of bounds, misaligned, "
                                    "races, barriers, uninitialized memory) ran instead");
        } else if (opt.sanitize)
            run.notes.push_back(
                "SANITIZE=1 runs compute-sanitizer, which needs the gpu backend; on emu the "
                "emulator's own checks (out of bounds, misaligned, races, barriers, uninitialized "
                "memory) ran as always");
        for (auto& o : outcomes)
            if (run.sandbox.is_null() && o.sandbox.is_object() && !o.sandbox.empty()) run.sandbox = o.sandbox;
        for (auto& o : outcomes)
            for (auto& ex : run.exercises)
                if (ex.info->name == o.test.exercise) ex.tests.push_back(std::move(o));
        return std::nullopt;
    }

    // Written answers (provisional) and hints.
    std::optional<GradeOutcome> score_written() {
        if (grade_written && !run.answers_missing.empty()) {
            for (const auto& w : L.written)
                run.written.push_back({w.id, w.group, w.exercise, "not graded: " + run.answers_missing, 0, w.points});
        } else if (grade_written) {
            try {
                for (const auto& w : review::score_written(L.raw, answers, submitted[L.answers_file], ctx.root))
                    run.written.push_back(
                        {w.id, w.group, w.exercise.empty() ? L.core : w.exercise, w.feedback, w.score, w.max_score});
            } catch (const util::UserError& ue) {
                // The answers file was checked above, so this is the grader's rubric: the items score 0, visibly.
                run.notes.push_back(std::string("the written answers could not be scored: ") + ue.what());
                for (const auto& w : L.written)
                    run.written.push_back(
                        {w.id, w.group, w.exercise, std::string("not scored: ") + ue.what(), 0, w.points});
            }
        }
        // The hints recorded in this checkout's .workbook/ are its student's: a hand-in graded from elsewhere (class
        // grading, Gradescope) must not be charged with them.
        if (opt.submission.empty() && !opt.solutions) {
            std::string problem;
            run.hints_used = tools::hints_used(ctx.root, L.id, &problem);
            if (!problem.empty()) run.notes.push_back(problem);
        }
        return std::nullopt;
    }

    // The rubric applied, and the verdict.
    std::optional<GradeOutcome> score() {
        score_run(run);
        update_gpu_verification(run, ctx.root);
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        run.verdict = make_verdict(run);
        return std::nullopt;
    }

    // results.json, where it was asked for, and the report.
    GradeOutcome write_results() {
        GradeOutcome out;
        out.passed = run.passed;
        out.exit_code = run.passed ? 0 : 1;
        out.results = results_json(run, markdown_report(run));
        // The replay names every option that shaped the run (results_json's own line leaves out SUBMISSION and EX).
        out.results["extra_data"]["replay"] = replay_command(run);
        // What `make report` compares the answers file with, as content_sha256 does for each exercise file.
        if (grade_written)
            out.results["extra_data"]["answers_sha256"] = util::sha256_hex(util::read_file(answers).value_or(""));
        // Student output and compiler messages quoting a student's line may hold bytes that are not UTF-8: replaced,
        // so that results.json is always valid JSON.
        const std::string dumped = out.results.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
        const fs::path results_dir = ctx.build_dir / "results" / L.number;
        if (opt.write_default_results) {
            out.results_path = new_run_dir(results_dir) / "results.json";
            if (!util::write_file_atomic(out.results_path, dumped))
                return usage_error("Cannot write " + out.results_path.string() + ".", 3);
            publish_latest(results_dir, out.results_path);
        }
        if (opt.json_out == "-") {
            std::cout << dumped;
            std::cout.flush();
        } else if (!opt.json_out.empty()) {
            if (!util::write_file_atomic(fs::absolute(opt.json_out), dumped))
                return usage_error("Cannot write " + opt.json_out + ".", 3);
            if (out.results_path.empty()) out.results_path = fs::absolute(opt.json_out);
        }
        if (opt.print_report) {
            const bool color = ::isatty(1) && !std::getenv("NO_COLOR");
            std::cout << format_report(run, color);
            if (opt.write_default_results)
                std::cout << "Results: " << shown_link(results_dir / "results.json", ctx.root)
                          << " (this run: " << shown_path(out.results_path, ctx.root) << ")\n";
            else if (!out.results_path.empty())
                std::cout << "Results: " << shown_path(out.results_path, ctx.root) << "\n";
            if (!opt.json_out.empty() && opt.write_default_results)
                std::cout << "Also written to: " << opt.json_out << "\n";
            std::cout << exit_status_line(run) << "\n";
            std::cout.flush();
        }
        return out;
    }

    const util::Context& ctx;
    const GradeOptions& opt;
    const std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    Run run;
    const lesson::Lesson& L = run.lesson;
    std::vector<const lesson::Exercise*> selected;
    bool whole_lesson = true;
    fs::path dir;  // the submission folder
    std::set<std::string> expected;
    std::map<std::string, std::string> submitted;  // file name -> text, for the files that can be graded
    std::map<std::string, std::string> unusable;   // file name -> why not (read_submitted's sentence)
    std::map<std::string, std::string> hashes;     // file name -> SHA-256 of its bytes as submitted
    std::map<std::string, std::string> as_read;    // file name -> its bytes as submitted: what is compiled
    fs::path answers;
    bool grade_written = false;
    util::Context build_ctx;             // harness builds go to its build folder
    std::vector<TestJob> test_jobs;      // the tests that run on run.backend
    std::vector<TestJob> emulated_jobs;  // on a GPU: the tests of the exercises that run on the emulator
};

}  // namespace

GradeOutcome run_grade(const util::Context& ctx, const GradeOptions& opt) { return Pipeline(ctx, opt).run_all(); }

}  // namespace workbook::grade
