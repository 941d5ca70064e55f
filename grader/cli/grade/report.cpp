#include <algorithm>
#include <sstream>
#include "report.hpp"

#include <cctype>
#include <cstdio>
#include <string_view>

#include "clean.hpp"
#include "sanitize.hpp"
#include "score.hpp"
#include "util/util.hpp"
#include "tools/profile.hpp"

namespace workbook::grade {

namespace {

// The lines of a test program's output worth showing a student: its own prints. Drops the emulator's diagnostics
// ("=========" lines, repeated in the failure message) and Catch2's console banner and summary.
std::string program_lines(const std::string& output) {
    std::string kept;
    std::istringstream in(output);
    std::string l;
    bool any_own = false;
    while (std::getline(in, l)) {
        const bool noise = l.rfind("=====", 0) == 0 || l.rfind("~~~~~", 0) == 0 || l.rfind("-----", 0) == 0 ||
                           l.rfind("test cases:", 0) == 0 || l.rfind("assertions:", 0) == 0 ||
                           l.find("is a Catch") != std::string::npos ||
                           l.find("Randomness seeded to") != std::string::npos;
        if (noise) continue;
        const bool header = l.rfind("--- program output", 0) == 0;
        if (!header && l.find_first_not_of(" \t") != std::string::npos) any_own = true;
        kept += l + "\n";
    }
    return any_own ? kept : std::string();
}

struct Style {
    bool on;
    std::string wrap(const char* code, const std::string& s) const {
        return on ? std::string("\033[") + code + "m" + s + "\033[0m" : s;
    }
    std::string good(const std::string& s) const { return wrap("32", s); }
    std::string bad(const std::string& s) const { return wrap("31", s); }
    std::string warn(const std::string& s) const { return wrap("33", s); }
    std::string bold(const std::string& s) const { return wrap("1", s); }
    std::string dim(const std::string& s) const { return wrap("2", s); }
};

std::string pts(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

std::string pad(const std::string& s, std::size_t w) {
    // Width in code points, so Chinese text in names does not skew columns too much.
    std::size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xc0) != 0x80) ++n;
    return n >= w ? s + " " : s + std::string(w - n, ' ');
}

std::string ran_on(const Run& run) {
    std::string s = "Ran on: " + backend_description(run.backend, run.gpu_name);
    if (run.backend != Backend::gpu)
        s += run.gpu_verification_done ? "; this content was verified on a GPU earlier" : "; GPU verification pending";
    // A GPU grade runs an exercise whose manifest says `runs_on_emulator` on the emulator: say so wherever the
    // backend is named, not only in the note above the tests.
    std::vector<std::string> emulated;
    for (const auto& ex : run.exercises)
        if (run.backend == Backend::gpu && ex.backend == Backend::emu && !ex.tests.empty())
            emulated.push_back(ex.info->name);
    if (!emulated.empty()) s += "; " + util::join(emulated, ", ") + " on the CPU emulator (the note above says why)";
    return s;
}

// Which protections confined the submitted code, as the judges reported them.
std::string sandbox_line(const Run& run) {
    if (!run.sandbox.is_object() || run.sandbox.empty()) return {};
    auto field = [&](const char* k) { return run.sandbox.value(k, std::string("unknown")); };
    return "Sandbox: namespaces " + field("namespaces") + "; seccomp " + field("seccomp") + "; filesystem " +
           field("filesystem") + "; rlimits " + field("rlimits");
}

std::string with_period(const std::string& s) { return !s.empty() && s.back() == '.' ? s : s + "."; }

int failed_tests(const Run& run) {
    int n = 0;
    for (const auto& ex : run.exercises)
        for (const auto& t : ex.tests)
            if (!t.passed) ++n;
    return n;
}

// One line per bandwidth the hidden tests measured (testkit/bandwidth.hpp), for the report.
std::string performance_report(const Run& run) {
    std::string o;
    for (const auto& ex : run.exercises)
        for (const auto& t : ex.tests)
            for (const auto& m : t.measurements) {
                const std::string what = "  " + ex.info->name + " " + m.value("dtype", std::string()) + " " +
                                         m.value("shape", std::string()) + ": ";
                if (!m.value("measured", false)) {
                    o += what + "not measured (" + m.value("why_not", std::string("no reason given")) + ")\n";
                    continue;
                }
                char text[160];
                std::snprintf(text, sizeof text,
                              "%.2f TB/s, %.0f%% of the device-to-device copy timed beside it (%.2f TB/s)",
                              m.value("kernel_tb_per_s", 0.0), 100 * m.value("fraction_of_copy", 0.0),
                              m.value("copy_tb_per_s", 0.0));
                o += what + text + "\n";
            }
    return o;
}

}  // namespace

std::string make_verdict(const Run& run) {
    std::string head;
    if (run.pending) {
        head =
            "PENDING — static review only: no hidden test was executed; execution points are pending GPU verification";
        if (!run.vetoes.empty()) head += "; vetoed (" + std::to_string(run.vetoes.size()) + ")";
    } else if (run.passed) {
        head = run.only_exercise.empty() || run.only_exercise == run.lesson.core
                   ? "PASSED — core " + pts(run.core_score) + " / " + pts(run.core_max) + " (pass at " +
                         pts(run.lesson.min_score) + ")"
                   : "PASSED — every hidden test of '" + run.only_exercise + "' passed";
    } else {
        std::vector<std::string> why;
        const int failed = failed_tests(run);
        if (failed) why.push_back(std::to_string(failed) + " hidden test" + (failed == 1 ? "" : "s") + " failed");
        int not_run = 0;
        for (const auto& ex : run.exercises)
            for (const auto& g : ex.groups)
                if (g.state == "not_run") ++not_run;
        if (not_run) why.push_back(std::to_string(not_run) + " test group" + (not_run == 1 ? "" : "s") + " not run");
        std::vector<std::string> missing;
        for (const auto& ex : run.exercises)
            if (!ex.missing.empty()) missing.push_back(ex.info->file());
        if (!run.answers_missing.empty()) missing.push_back(run.lesson.answers_file);
        if (!missing.empty()) why.push_back("not graded: " + util::join(missing, ", "));
        if (!run.vetoes.empty()) {
            std::string reason = run.vetoes.front().reason;  // a sentence; the verdict joins clauses with ';'
            while (!reason.empty() && (reason.back() == '.' || reason.back() == ' ')) reason.pop_back();
            why.push_back("vetoed: " + reason);
        }
        const bool whole = run.only_exercise.empty() || run.only_exercise == run.lesson.core;
        if (whole && run.core_score + 1e-9 < run.lesson.min_score)
            why.push_back("core " + pts(run.core_score) + " / " + pts(run.core_max) + " is below " +
                          pts(run.lesson.min_score));
        head = "NOT PASSED — " + (why.empty() ? std::string("see above") : util::join(why, "; "));
    }
    return head + ". " + ran_on(run) + ".";
}

std::string format_report(const Run& unclean, bool color) {
    const Run run = clean_copy(unclean);  // the only escapes in the report are the Style's own
    const Style st{color};
    std::string o;
    auto line = [&](const std::string& s) { o += s + "\n"; };
    line(st.bold("workbook grade " + run.lesson.id) + "  submission: " + run.submission_label +
         "  backend: " + backend_name(run.backend) +
         (run.backend_reason.empty() ? "" : " (" + run.backend_reason + ")") + "  seed: " + std::to_string(run.seed));
    for (const auto& n : run.notes) line(st.dim("note: " + n));
    if (auto sb = sandbox_line(run); !sb.empty()) line(st.dim(sb));
    for (const auto& w : run.warnings) line(st.warn("warning: ") + w);

    line("");
    line(st.bold("Static review"));
    for (const auto& ex : run.exercises) {
        const std::string file = ex.info->file();
        if (!ex.missing.empty()) {
            line("  " + st.bad("not graded") + " — " + with_period(ex.missing) + " 0 points for " + ex.info->name +
                 ".");
        } else if (!ex.unfilled_message.empty()) {
            line("  " + st.warn("fill the blanks") + " — " + file);
            o += util::indent(ex.unfilled_message, "    ");
        } else {
            line("  " + file + ": blanks filled" +
                 (ex.edit_ok ? "; no edits outside the blanks"
                             : "; " + st.bad(ex.fill_refused ? "a fill was refused (veto; not compiled)"
                                                             : "edits outside the blanks (veto)")));
        }
        if (run.backend == Backend::static_only && !ex.static_compile.empty())
            o += util::indent(ex.static_compile,
                              ex.static_compile_ok ? "    " : "    " + std::string(color ? "\033[31m!\033[0m " : "! "));
    }
    if (!run.answers_missing.empty())
        line("  " + st.bad("not graded") + " — " + with_period(run.answers_missing) + " The written answers score 0.");
    for (const auto& c : run.comments) line("  review: " + c.where + ": " + c.text);

    line("");
    line(st.bold("Hidden tests") + " — " + ran_on(run));
    for (const auto& ex : run.exercises) {
        std::string tag = ex.info->core ? " (core)" : "";
        if (ex.attempted_build && !ex.build.ok) {
            line("  " + pad(ex.info->name + tag, 26) +
                 st.bad(ex.build.setup_error ? "could not be built by the grader" : "did not compile"));
            o += util::indent(ex.build.message, "      ");
        } else if (!ex.list_error.empty()) {
            line("  " + pad(ex.info->name + tag, 26) + st.bad("tests could not be listed"));
            o += util::indent(ex.list_error, "      ");
        }
        for (const auto& g : ex.groups) {
            std::string status;
            if (g.state == "run" && g.vetoed)
                status = st.bad("vetoed (" + std::to_string(g.passed) + "/" + std::to_string(g.total) + " passed)");
            else if (g.state == "run")
                status = (g.passed == g.total
                              ? st.good(std::to_string(g.passed) + "/" + std::to_string(g.total) + " passed")
                              : st.bad(std::to_string(g.passed) + "/" + std::to_string(g.total) + " passed"));
            else if (g.state == "pending") status = st.warn("pending");
            else status = st.bad(g.note);
            line("  " + pad(ex.info->name + tag, 26) + pad(g.name, 8) + pad(status, 24 + (color ? 9 : 0)) +
                 pts(g.earned) + " / " + pts(g.points));
        }
        if (run.backend == Backend::emu)
            if (const auto a = tools::profile_advice(run.lesson.raw, run.lesson.number, ex.info->name, run.build_dir,
                                                     ex.content_hash);
                !a.empty())
                line("    " + st.dim(a));
        // The first failures with the listener's own words; the rest are counted.
        // A failure whose message repeats one already shown (one bug usually fails many tests) is named, not
        // repeated; program output is shown only where it holds the program's own lines, not just the emulator's
        // diagnostics (already in the message) or Catch2's banner.
        int shown = 0, failed = 0;
        std::vector<std::string> messages_shown;
        for (const auto& t : ex.tests) {
            if (t.passed) continue;
            ++failed;
            if (shown >= 3) continue;
            ++shown;
            const bool repeat =
                std::find(messages_shown.begin(), messages_shown.end(), t.message) != messages_shown.end();
            line("    " + st.bad("✗ ") + t.test.name + " [" + t.test.group + "]" +
                 (repeat ? " — the same failure as above" : ""));
            if (repeat) continue;
            messages_shown.push_back(t.message);
            o += util::indent(util::trim_lines(t.message, 12), "        ");
            const std::string own = program_lines(t.output);
            if (!own.empty()) o += util::indent(util::trim_lines(own, 12, true), "        ");
        }
        if (failed > shown)
            line("    … and " + std::to_string(failed - shown) + " more failed tests (all in results.json)");
    }

    if (const std::string perf = performance_report(run); !perf.empty()) {
        line("");
        line(st.bold("Performance") + " — timed on the GPU by your code's own process: advice, no points");
        o += perf;
    }
    if (const std::string san = sanitizer_report(run.sanitizer); !san.empty()) {
        line("");
        line(st.bold("compute-sanitizer") + " — advice beside the tests, no points (SANITIZE=1)");
        o += san;
    }

    line("");
    const lesson::Exercise* core = run.lesson.find(run.lesson.core);
    line(st.bold("Rubric") + (core ? " (core exercise: " + core->name + ")" : ""));
    for (const auto& ex : run.exercises) {
        if (!ex.info->core) continue;
        for (const auto& g : ex.groups)
            line("  " +
                 pad("code — " + std::string(g.name == "normal" ? "normal inputs"
                                             : g.name == "edge" ? "edge inputs"
                                                                : g.name),
                     34) +
                 pts(g.earned) + " / " + pts(g.points) +
                 (g.state == "pending" ? "  (pending)"
                  : g.vetoed           ? "  (vetoed)"
                                       : ""));
    }
    for (const auto& w : run.written)
        if (core && w.exercise == core->name)
            line("  " + pad(w.group == "explanation" ? "explanation (provisional)" : w.id + " (provisional)", 34) +
                 pts(w.score) + " / " + pts(w.max_score));
    if (!run.only_exercise.empty() && core && run.only_exercise != core->name) {
        line("  (EX=" + run.only_exercise + ": the core rubric is not graded in this run)");
    } else {
        line("  " + pad("total", 34) + st.bold(pts(run.core_score) + " / " + pts(run.core_max)) + "   pass at " +
             pts(run.lesson.min_score) + " with every core test passed and no veto");
    }
    bool any_ext = false;
    for (const auto& ex : run.exercises)
        if (!ex.info->core) any_ext = true;
    if (any_ext) {
        line(st.bold("Extensions") + " (own points, beside the core rubric)");
        for (const auto& ex : run.exercises)
            if (!ex.info->core)
                line("  " + pad(ex.info->name, 34) + pts(ex.earned) + " / " + pts(ex.max) +
                     (ex.vetoed             ? "  (vetoed)"
                      : !ex.missing.empty() ? "  (missing)"
                                            : ""));
        for (const auto& w : run.written)
            if (!core || w.exercise != core->name)
                line("  " + pad(w.exercise + " " + w.id + " (provisional)", 34) + pts(w.score) + " / " +
                     pts(w.max_score));
    }

    // The written answers' feedback, as in report.md: which expected concepts were found and which are missing.
    if (!run.written.empty()) {
        line("");
        line(st.bold("Written answers") + " (provisional until your instructor confirms them)");
        for (const auto& w : run.written) {
            line("  " + pad(w.id, 12) + pts(w.score) + " / " + pts(w.max_score));
            if (!w.feedback.empty()) o += util::indent(w.feedback + "\n", "      ");
        }
    }

    if (!run.reasons.empty()) {
        line("");
        line(st.bold("Where points were lost"));
        for (const auto& r : run.reasons) line("  " + r);
    }
    if (!run.vetoes.empty()) {
        line("");
        line(st.bad(st.bold("Vetoes")) + " — a vetoed exercise scores 0 code points, whatever its tests found");
        for (const auto& v : run.vetoes) {
            line("  " + v.reason);
            if (!v.diff.empty()) o += util::indent(util::trim_lines(v.diff, 20), "      ");
        }
    }
    line("");
    line(st.bold(run.passed ? st.good(run.verdict) : run.pending ? st.warn(run.verdict) : st.bad(run.verdict)));
    line("Replay this run: " + replay_command(run));
    return o;
}

namespace {

// The submission folder as one word of the replay command, which a student or an instructor pastes into a shell and
// which make then puts between double quotes in its recipe: bare when the shell reads it as it is; in single quotes
// when it holds only characters that single quotes (for the shell) and the recipe's double quotes both keep as they
// are; otherwise a placeholder, because a name with `$`, a backtick, a quote or a backslash would run as code in one
// of the two (a class hand-in named `x$(touch${IFS}f)` made the pasted replay create f, measured).
std::string replay_folder(const std::string& label) {
    if (label.find_first_of("'\"`$\\") != std::string::npos) return "<folder>";
    const bool bare = !label.empty() && std::all_of(label.begin(), label.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("_./:@%+,=-").find(c) != std::string_view::npos;
    });
    return bare ? label : "'" + label + "'";
}

}  // namespace

std::string replay_command(const Run& run) {
    // Every option that shaped the run, so the replay grades the same files the same way with the same inputs.
    const std::string sub = replay_folder(run.submission_label);
    return "make grade-" + run.lesson.number + " SEED=" + std::to_string(run.seed) +
           (run.submission_label == "exercises/" + run.lesson.id ? "" : " SUBMISSION=" + sub) +
           (run.only_exercise.empty() ? "" : " EX=" + run.only_exercise) + " BACKEND=" + backend_name(run.backend) +
           (run.sanitize ? " SANITIZE=" + (run.sanitize_tools.empty() ? "1" : util::join(run.sanitize_tools, ","))
                         : "") +
           (sub == "<folder>" ? " (<folder>: the submission's folder, whose name a shell would run as code)" : "");
}

std::string exit_status_line(const Run& run) {
    if (run.passed) return "Exit status 0: passed.";
    return std::string("Exit status 1: ") +
           (run.pending ? "pending (a static review alone never passes)" : "not passed") +
           ". The grade itself worked; 0 means passed, 2 a problem with the command or the files.";
}

std::string markdown_report(const Run& run) {
    // The fence is longer than any run of backticks in the report, so no line of it can close the fence early.
    const std::string body = format_report(run, false);
    std::size_t longest = 0, current = 0;
    for (char c : body) {
        current = c == '`' ? current + 1 : 0;
        longest = std::max(longest, current);
    }
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    return fence + "text\n" + body + fence + "\n";
}

}  // namespace workbook::grade
