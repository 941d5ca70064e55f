// `workbook profile` (tools/profile.hpp): builds an exercise with the lesson's profile driver for the CPU emulator,
// runs it on representative shapes with EMU_PROFILE set, and prints the profiler's report. Registers come from
// nvcc -Xptxas -v when nvcc is installed (no GPU needed), else the report says they are unknown.
#include "tools/profile.hpp"

#include <cxxabi.h>

#include <iostream>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "util/process.hpp"
#include "util/util.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/lesson.hpp"
#include "review/blanks.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

// Written beside a profile of a student's file: the content it counted (a grade shows counts only for that content).
const char* const kProfiledSource = "profiled-source.json";

std::string demangle(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                  &std::free);
    return status == 0 && d ? std::string(d.get()) : name;
}

void step(const std::vector<std::string>& argv, const std::string& what) {
    const auto r = util::run_program(argv, {}, 600);
    if (!r.started || r.exit_code != 0)
        throw util::UserError("profile: " + what + " failed:\n" + util::trim_lines(util::sanitize_text(r.output), 40));
}

// What `nvcc -Xptxas -v` says about the file's kernels, as EMU_PROFILE_PTXAS lines; empty with the reason in *why.
std::string registers_of(const util::Context& ctx, const fs::path& src, const fs::path& obj_dir, std::string* why) {
    std::string nvcc = util::config_string(ctx, "/cuda/nvcc");
    if (nvcc.empty() || !fs::exists(nvcc)) nvcc = util::which("nvcc");
    if (nvcc.empty()) {
        *why = "unknown: nvcc is not installed (registers come from nvcc -Xptxas -v)";
        return "";
    }
    const auto r = util::run_program({nvcc, "-std=c++17", "-O3", "-arch=sm_90", "-Xptxas", "-v", "-c", src.string(),
                                      "-o", (obj_dir / "ptxas.o").string()},
                                     {}, 600);
    if (!r.started || r.exit_code != 0) {
        *why = "unknown: nvcc -Xptxas -v did not compile the file";
        return "";
    }
    *why = "from nvcc -Xptxas -v (sm_90, -O3)";
    return ptxas_table(r.output);
}

// The widths of the lesson's H200 benchmark (docs/performance.md): a short row, the common one, a wide one.
std::vector<int> default_widths() { return {1024, 4096, 8192}; }

std::string read_report(const fs::path& dir, std::vector<fs::path>* pictures) {
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".svg") pictures->push_back(e.path());
    std::sort(pictures->begin(), pictures->end());
    return util::sanitize_text(util::read_file(dir / "report.txt").value_or(""));
}

void fresh_dir(const fs::path& dir) {
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) fs::remove(e.path());
}

ProfileResult profile_program(const ProfileOptions& opt) {
    ProfileResult res;
    res.out_dir = opt.out.empty() ? fs::temp_directory_path() / ("workbook-profile-" + util::random_hex(4)) : opt.out;
    fresh_dir(res.out_dir);
    util::ProcessSpec spec;
    spec.argv = opt.program;
    spec.env = {{"EMU_PROFILE", res.out_dir.string()}};
    const auto r = util::run_process(spec);
    if (!r.started) throw util::UserError("profile: cannot run " + opt.program.front() + ": " + r.start_error);
    res.report = read_report(res.out_dir, &res.pictures);
    if (res.report.empty())
        throw util::UserError("profile: " + opt.program.front() +
                              " launched no kernel through the emulator (is it built with emu_add_executable?)");
    if (r.exit_code != 0) res.report += "\n(the program exited with status " + std::to_string(r.exit_code) + ")\n";
    res.registers = "unknown for a program (profile a .cu file with --file to read them from nvcc)";
    return res;
}

}  // namespace

std::string ptxas_table(const std::string& out) {
    std::string table, fn;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        for (const std::string key : {"Compiling entry function '", "Function properties for "}) {
            const auto k = line.find(key);
            if (k == std::string::npos) continue;
            std::string name = line.substr(k + key.size());
            name = name.substr(0, name.find_first_of("' "));
            fn = name;
        }
        const auto used = line.find("Used ");
        const auto regs = line.find(" registers");
        if (fn.empty() || used == std::string::npos || regs == std::string::npos) continue;
        const std::string n = line.substr(used + 5, regs - used - 5);
        std::string smem = "0";
        const auto s = line.find(" bytes smem");
        if (s != std::string::npos) {
            auto b = line.rfind(' ', s - 1);
            smem = line.substr(b + 1, s - b - 1);
        }
        table += n + "\t" + smem + "\t" + demangle(fn) + "\n";
    }
    return table;
}

ProfileResult run_profile(const util::Context& ctx, const ProfileOptions& opt) {
    if (!opt.program.empty()) return profile_program(opt);
    const lesson::Lesson L = lesson::load_lesson(ctx.root, opt.lesson.empty() ? "04" : opt.lesson);
    const fs::path driver = ctx.root / "grader" / "emulator" / "profile" / ("lesson" + L.number + "_driver.cu");
    if (!fs::exists(driver))
        throw util::UserError("profile: lesson " + L.number + " has no profile driver (" + driver.string() + ")");
    fs::path src = opt.file;
    std::string name = src.empty() ? opt.exercise : src.stem().string();
    if (src.empty()) {
        if (opt.exercise.empty()) throw util::UserError("profile: say which exercise, e.g. --ex rmsnorm");
        const lesson::Exercise& ex = L.exercise(opt.exercise);
        const fs::path dir = opt.solutions             ? L.solutions_dir()
                             : !opt.submission.empty() ? opt.submission
                                                       : L.exercises_dir();
        src = dir / ex.file();
    }
    if (!fs::exists(src)) throw util::UserError("profile: " + src.string() + " does not exist");
    // A starter's blanks would reach the student as a compiler's "'______' was not declared": name them instead, as a
    // grade does, before anything is compiled.
    if (opt.file.empty() && !opt.solutions) {
        const lesson::Exercise& ex = L.exercise(opt.exercise);
        const auto unfilled = review::find_unfilled(util::read_text(src), ex.blank_ids());
        if (!unfilled.empty()) {
            std::string where;
            for (const auto& u : unfilled)
                where += (where.empty() ? "" : ", ") + (u.id.empty() ? "" : "'" + u.id + "' ") + "on line " +
                         std::to_string(u.line);
            const bool one = unfilled.size() == 1;
            // A student edition has no solutions to offer.
            const std::string or_solution =
                fs::exists(L.solutions_dir() / ex.file())
                    ? ", or profile the solution: make profile-" + L.number + " EX=" + ex.name + " SOLUTIONS=1"
                    : "";
            throw util::UserError("profile: " + ex.file() + " still has " +
                                  (one ? "a blank" : std::to_string(unfilled.size()) + " blanks") + " to fill (" +
                                  where + "); the profiler runs the kernel, so fill " + (one ? "it" : "them") +
                                  " first" + or_solution);
        }
    }

    // emu-nvcc, as the grader's worker compile: every file rewritten after preprocessing, element reads passed into
    // calls instrumented (docs/emulator.md), the emulator's flags from its emu-nvcc.conf.
    const std::string emu_nvcc = util::config_string(ctx, "/emu/nvcc"),
                      runtime = util::config_string(ctx, "/emu/runtime_lib");
    if (emu_nvcc.empty() || runtime.empty())
        throw util::UserError("profile: the CPU emulator is not part of this build (workbook-config.json)");
    std::string cxx = util::config_string(ctx, "/cxx");
    if (cxx.empty()) cxx = util::which("c++");
    const auto ldflags = util::config_list(ctx, "/emu/ldflags");

    ProfileResult res;
    res.out_dir = opt.out.empty() ? ctx.build_dir / "profile" / L.number / name : opt.out;
    const fs::path obj = res.out_dir / "obj";
    fs::create_directories(obj);
    fresh_dir(res.out_dir);
    std::vector<std::string> link = {cxx};
    for (const auto& [in, stem] : {std::pair<fs::path, std::string>{driver, "driver"}, {src, "kernels"}}) {
        const std::string o = (obj / (stem + ".o")).string();
        step({emu_nvcc, "-c", in.string(), "-o", o}, "compiling " + in.filename().string() + " for the emulator");
        link.push_back(o);
    }
    const std::string exe = (obj / "profile").string();
    link.push_back(runtime);
    link.insert(link.end(), ldflags.begin(), ldflags.end());
    link.insert(link.end(), {"-o", exe});
    step(link, "linking the profile program");

    const std::string table = registers_of(ctx, src, obj, &res.registers);
    const fs::path table_file = obj / "ptxas.tsv";
    util::write_file_atomic(table_file, table);

    for (int n : opt.widths.empty() ? default_widths() : opt.widths) {
        util::ProcessSpec spec;
        spec.argv = {exe, "once", std::to_string(opt.rows), std::to_string(n), std::to_string(opt.predict_rows)};
        spec.env = {{"EMU_PROFILE", res.out_dir.string()}};
        if (!table.empty()) spec.env.emplace_back("EMU_PROFILE_PTXAS", table_file.string());
        spec.timeout_s = 600;
        const auto r = util::run_process(spec);
        if (!r.started || r.exit_code != 0)
            throw util::UserError("profile: " + name + " on " + std::to_string(opt.rows) + " x " + std::to_string(n) +
                                  " did not run correctly:\n" +
                                  util::trim_lines(util::sanitize_text(r.out + r.err), 40));
    }
    res.report = read_report(res.out_dir, &res.pictures);
    // Which file content these counts are of: a grade of the same content shows them (profile_advice).
    if (opt.file.empty() && !opt.solutions)
        if (const auto text = util::read_file(src))
            util::write_file_atomic(res.out_dir / kProfiledSource, nlohmann::json{{"exercise", name},
                                                                                  {"file", src.filename().string()},
                                                                                  {"sha256", util::sha256_hex(*text)},
                                                                                  {"rows", opt.rows}}
                                                                           .dump() +
                                                                       "\n");
    return res;
}

std::string format_profile(const ProfileResult& r) {
    std::string s = r.report;
    s += "Registers: " + r.registers + ".\n";
    for (const auto& p : r.pictures) s += "Picture: " + p.string() + "\n";
    s += "Counts are the CPU emulator's; every time and bandwidth above is a PREDICTION of a model "
         "(docs/emulator.md, Profiler), never a measurement. Reports: " +
         r.out_dir.string() + "\n";
    return s;
}

std::string profile_advice(const nlohmann::json& manifest, const std::string& lesson_number,
                           const std::string& exercise, const fs::path& build_dir, const std::string& content_hash) {
    if (!manifest.is_object() || !manifest.contains("exercises") || !manifest["exercises"].is_array()) return "";
    for (const auto& e : manifest["exercises"]) {
        if (!e.is_object() || e.value("name", "") != exercise) continue;
        if (e.value("title", "").find("performance") == std::string::npos) return "";
        const std::string command = "make profile-" + lesson_number + " EX=" + exercise;
        std::string head = "performance: not timed on the emulator (pending GPU verification). Advice, no points: ";
        const fs::path dir = build_dir / "profile" / lesson_number / exercise;
        const auto stamp = util::read_file(dir / kProfiledSource);
        const auto jsonl = util::read_file(dir / "profile.jsonl");
        const auto source = stamp ? nlohmann::json::parse(*stamp, nullptr, false) : nlohmann::json();
        if (!jsonl || !source.is_object() || content_hash.empty() || source.value("sha256", "") != content_hash)
            return head + command + " shows its sectors per request, its DRAM traffic over the minimum and a " +
                   "predicted H200 time";
        // The profile of this very content: its counts, one line per kernel and shape.
        std::string lines;
        std::istringstream in(*jsonl);
        for (std::string line; std::getline(in, line);) {
            const auto k = nlohmann::json::parse(line, nullptr, false);
            if (!k.is_object()) continue;
            const double req = k.value("ld_requests", 0.0), st = k.value("st_requests", 0.0);
            std::string kernel = k.value("kernel", std::string("?"));
            kernel = kernel.substr(0, kernel.find('<'));
            char text[320];
            std::snprintf(text, sizeof text,
                          "\n      %s, %s: %.2f sectors per load request (ideal %.2f), %.2f per store (%.2f); DRAM "
                          "traffic %.2fx the minimum; predicted %.2f TB/s",
                          kernel.c_str(), k.value("label", std::string("?")).c_str(),
                          req > 0 ? k.value("ld_sectors", 0.0) / req : 0.0,
                          req > 0 ? k.value("ld_ideal", 0.0) / req : 0.0,
                          st > 0 ? k.value("st_sectors", 0.0) / st : 0.0, st > 0 ? k.value("st_ideal", 0.0) / st : 0.0,
                          k.value("traffic_ratio", 0.0), k.value("predicted_tbs", 0.0));
            lines += text;
        }
        if (lines.empty()) return head + command + " shows its sectors per request and its DRAM traffic";
        return head + "the emulator's profile of this file (" + command + " redraws it):" + lines +
               "\n      (counts of the CPU emulator; each TB/s is a PREDICTION of a model for an H200, never a "
               "measurement)";
    }
    return "";
}

void add_profile_command(CLI::App& app) {
    auto o = std::make_shared<ProfileOptions>();
    auto* cmd = app.add_subcommand("profile",
                                   "Profile an exercise (or any emulator-built program) on the CPU emulator: "
                                   "sectors per request, bank conflicts, DRAM traffic, predicted H200 time");
    cmd->add_option("lesson", o->lesson, "Lesson number or id, e.g. 04 (default 04)");
    cmd->add_option("--ex", o->exercise, "Exercise (its file's stem, e.g. rmsnorm_fast)");
    cmd->add_option("--file", o->file, "A .cu file defining one of the lesson's entry points, instead of --ex");
    cmd->add_option("--submission", o->submission, "Folder holding the exercise's file (default exercises/<lesson>/)");
    cmd->add_flag("--solutions", o->solutions, "Profile the reference solution");
    cmd->add_option("--rows", o->rows, "Rows emulated per shape (default 64)");
    cmd->add_option("--predict-rows", o->predict_rows, "Rows of the launch the prediction is for (default 16384)");
    cmd->add_option("--n", o->widths, "Row lengths to profile (default: lesson.json, else 1024 4096 8192)")
        ->delimiter(',');
    cmd->add_option("--out", o->out, "Folder for report.txt, profile.jsonl and the pictures");
    cmd->add_option("--program", o->program, "Run this emulator-built program (and its arguments) with the profiler on")
        ->allow_extra_args();
    cmd->callback([o] {
        std::string err;
        auto ctx = util::find_context(o->program.empty(), &err);
        if (!ctx) throw util::UserError(err);
        if (!o->file.empty()) o->file = fs::absolute(o->file).lexically_normal();
        std::cout << format_profile(run_profile(*ctx, *o));
    });
}

}  // namespace workbook::tools
