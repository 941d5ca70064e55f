#include "tools/grade_class.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include <stdlib.h>

#include "util/process.hpp"
#include "util/reaper.hpp"
#include "util/util.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::tools {
namespace {

// Bytes of a file copied into a hand-in's copy: one more than the grader accepts, so that an oversized file is still
// refused as oversized, while a hand-in of gigabytes costs nothing to copy.
constexpr std::uintmax_t kCopyLimit = 1024 * 1024 + 1;

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

std::string utc_stamp() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    return buf;
}

// Copies the top level of a hand-in: the files the lesson grades (`graded`: its exercise files and answers) with
// their bytes (at most kCopyLimit each), every other regular file as an empty file and a folder as an empty folder
// (so the report can name them as ignored), links as links (the grader refuses them rather than follow them to
// another student's files). Returns the SHA-256 of every regular file copied. A hand-in of 200 sparse 10 GB files
// (20 KB on disk) made the copies write 402 MB before the other files were copied empty: that grew with the number
// of files, until the instructor's disk was full.
std::map<std::string, std::string> copy_handin(const fs::path& from, const fs::path& to,
                                               const std::set<std::string>& graded) {
    std::map<std::string, std::string> hashes;
    std::error_code ec;
    fs::create_directories(to, ec);
    if (ec) throw util::UserError("Cannot create " + to.string() + ".");
    for (const auto& e : fs::directory_iterator(from, ec)) {
        const std::string name = e.path().filename().string();
        const auto st = e.symlink_status(ec);
        if (fs::is_symlink(st)) {
            fs::copy_symlink(e.path(), to / name, ec);
        } else if (fs::is_directory(st)) {
            fs::create_directory(to / name, ec);
        } else if (fs::is_regular_file(st)) {
            std::string data;
            if (graded.count(name)) {
                std::ifstream in(e.path(), std::ios::binary);
                data.assign(kCopyLimit, '\0');
                in.read(data.data(), static_cast<std::streamsize>(data.size()));
                data.resize(static_cast<std::size_t>(in.gcount()));
            }
            std::ofstream(to / name, std::ios::binary) << data;
            hashes[name] = util::sha256_hex(data);
        }
    }
    return hashes;
}

// Replaces `link` by a relative symbolic link to `target` (atomically, through a rename). A regular file left there
// by an older version of this command is kept under a dated name first.
void point_link(const fs::path& link, const fs::path& target, std::ostream& log) {
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(link, ec))) {
        fs::path old = link.parent_path() / (link.stem().string() + "-" + utc_stamp() + link.extension().string());
        fs::rename(link, old, ec);
        if (!ec) log << "the previous " << link.filename().string() << " was kept as " << old.string() << "\n";
    }
    const fs::path tmp = link.parent_path() / ("." + link.filename().string() + "." + util::random_hex(6));
    fs::create_symlink(target.lexically_relative(link.parent_path()), tmp, ec);
    if (!ec) fs::rename(tmp, link, ec);
    if (ec) fs::remove(tmp, ec);
}

std::string summary(const GradebookRow& row) {
    if (!row.results.is_object()) return "not graded: " + row.error;
    const auto& x = row.results.value("extra_data", json::object());
    return num(row.results.value("score", 0.0)) + "/" + num(row.results.value("max_score", 0.0)) +
           (x.value("passed", false) ? " passed" : " not passed");
}

}  // namespace

fs::path student_files(const fs::path& student_dir, const std::string& lesson_id) {
    std::error_code ec;
    const fs::path nested = student_dir / "exercises" / lesson_id;
    return fs::is_directory(fs::symlink_status(nested, ec)) ? nested : student_dir;
}

ClassRun grade_class(const fs::path& submissions, const fs::path& out, const lesson::Lesson& lesson,
                     const GradeOneFn& grade_one, std::ostream& log, const fs::path& private_root) {
    std::error_code ec;
    if (!fs::is_directory(submissions, ec))
        throw util::UserError("The submissions folder " + submissions.string() + " does not exist.");
    std::vector<fs::path> students;
    // A student's folder that is a link is listed (and refused below), not followed into someone else's files.
    for (const auto& e : fs::directory_iterator(submissions, ec))
        if ((e.is_symlink() || e.is_directory()) && e.path().filename().string().rfind('.', 0) != 0)
            students.push_back(e.path());
    std::sort(students.begin(), students.end());
    if (students.empty())
        throw util::UserError("The submissions folder " + submissions.string() +
                              " has no subfolders; put each student's files in a folder named after them.");

    ClassRun run;
    const std::string stamp = utc_stamp();
    run.dir = out / stamp;
    for (int k = 2; fs::exists(run.dir, ec); ++k) run.dir = out / (stamp + "-" + std::to_string(k));
    fs::create_directories(run.dir / "students", ec);
    if (ec) throw util::UserError("Cannot create the output folder " + run.dir.string() + ".");

    // Every hand-in is copied before any student's code runs, into a private staging folder, and graded from a
    // fresh copy of that copy whose content must still match: code of one student that rewrites another's files
    // (in the submissions folder or in the staging folder) cannot change what is graded for them.
    fs::create_directories(private_root, ec);
    std::string tmpl = (private_root / "workbook-class-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
        throw util::UserError("Cannot create a private folder for class grading in " + private_root.string() + ".");
    const fs::path staging = tmpl;
    struct Handin {
        std::string folder;   // the student's folder name, as it is
        std::string student;  // as shown in the log and the gradebook
        fs::path snapshot;
        std::map<std::string, std::string> hashes;
        std::string refusal;  // a folder that is a link is not followed into someone else's files
    };
    std::vector<Handin> handins;
    std::set<std::string> graded = {lesson.answers_file};
    for (const auto& e : lesson.exercises) graded.insert(e.file());
    for (std::size_t i = 0; i < students.size(); ++i) {
        const std::string folder = students[i].filename().string();
        Handin h{folder, util::sanitize_name(folder), staging / ("handin-" + std::to_string(i)), {}, {}};
        const fs::path nested = students[i] / "exercises" / lesson.id;
        if (fs::is_symlink(students[i], ec) || fs::is_symlink(nested, ec) ||
            fs::is_symlink(students[i] / "exercises", ec))
            h.refusal = h.student + (fs::is_symlink(students[i], ec) ? "" : "/exercises/" + lesson.id) +
                        " is a symbolic link; a submission folder holds the files themselves, so it was not followed.";
        else h.hashes = copy_handin(student_files(students[i], lesson.id), h.snapshot, graded);
        handins.push_back(std::move(h));
    }

    util::become_subreaper();  // what a student's run leaves behind comes back to us, and is killed before the next
    for (std::size_t i = 0; i < handins.size(); ++i) {
        const Handin& h = handins[i];
        GradebookRow row;
        row.student = h.student;
        log << "grading " << row.student << " ... " << std::flush;
        if (!h.refusal.empty()) {
            row.error = h.refusal;
        } else if (util::interrupted()) {
            row.error = "interrupted before this student was graded";
        } else {
            // The copy sits alone in a folder of its own: the grader hides the folder around a submission from
            // the submission's code, and the work folder, where the code's own program is built, must stay visible.
            const fs::path private_dir = staging / ("run-" + std::to_string(i));
            const fs::path copy = private_dir / "submission" / lesson.id;
            const fs::path work = private_dir / "work";
            fs::create_directories(work, ec);
            const auto hashes = copy_handin(h.snapshot, copy, graded);
            std::vector<std::string> changed;
            for (const auto& [name, hash] : h.hashes)
                if (!hashes.count(name) || hashes.at(name) != hash) changed.push_back(name);
            for (const auto& [name, hash] : hashes)
                if (!h.hashes.count(name)) changed.push_back(name);
            OneGrade g;
            if (!changed.empty()) {
                g.error = "the copy of this hand-in changed during class grading (" + util::join(changed, ", ") +
                          "); grade this student again on their own";
            } else {
                fs::path folder =
                    submissions.filename().empty() ? submissions.parent_path().filename() : submissions.filename();
                const std::string label = util::sanitize_name((folder / h.folder).string());
                try {
                    g = grade_one(copy, work, label);
                } catch (const std::exception& e) {
                    g.results = nullptr;
                    g.error = std::string("the grader failed: ") + e.what();
                }
            }
            util::kill_orphans();
            fs::remove_all(private_dir, ec);
            const fs::path student_dir = run.dir / "students" / h.folder;
            fs::create_directories(student_dir, ec);
            if (!g.log.empty()) util::write_text(student_dir / "grade.log", g.log);
            if (g.results.is_object()) {
                row.results = g.results;
                util::write_text(student_dir / "results.json",
                                 g.results.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
            } else {
                row.error = g.error.empty() ? "not graded" : g.error;
            }
        }
        if (!row.results.is_object()) ++run.not_graded;
        log << summary(row) << "\n";
        run.rows.push_back(std::move(row));
    }
    fs::remove_all(staging, ec);

    run.gradebook = run.dir / "gradebook.csv";
    util::write_text(run.gradebook, gradebook_csv(lesson, run.rows));
    point_link(out / "gradebook.csv", run.gradebook, log);
    point_link(out / "latest", run.dir, log);
    log << "gradebook: " << run.gradebook.string() << " (" << run.rows.size() << " students";
    if (run.not_graded) log << ", " << run.not_graded << " not graded: see the reason column";
    log << "; " << (out / "gradebook.csv").string() << " is the latest)\n";
    return run;
}

}  // namespace workbook::tools
