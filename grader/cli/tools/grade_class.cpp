#include "tools/grade_class.hpp"

#include <algorithm>
#include <ctime>
#include <system_error>

#include "grade/util.hpp"
#include "review/errors.hpp"
#include "review/files.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {
namespace {

// RFC 4180: quote fields holding separators, quotes or line breaks; a leading = + - @ is neutralized so a
// spreadsheet never runs a student-chosen folder name as a formula.
std::string csv_field(std::string s) {
    if (!s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@')) s = "'" + s;
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

}  // namespace

fs::path student_files(const fs::path& student_dir, const std::string& lesson_id) {
    std::error_code ec;
    const fs::path nested = student_dir / "exercises" / lesson_id;
    return fs::is_directory(nested, ec) ? nested : student_dir;
}

std::string gradebook_csv(const std::vector<StudentRow>& rows) {
    std::string csv = "student,score,max_score,passed,backend,vetoes,error\n";
    for (const auto& r : rows) {
        std::string vetoes;
        for (const auto& v : r.vetoes) vetoes += (vetoes.empty() ? "" : "; ") + v;
        csv += csv_field(r.student) + "," + num(r.score) + "," + num(r.max_score) + "," + (r.passed ? "yes" : "no") + "," +
               csv_field(r.backend) + "," + csv_field(vetoes) + "," + csv_field(r.error) + "\n";
    }
    return csv;
}

std::vector<StudentRow> grade_class(const fs::path& submissions, const fs::path& out, const std::string& lesson_id,
                                    const GradeOneFn& grade_one, std::ostream& log) {
    std::error_code ec;
    if (!fs::is_directory(submissions, ec))
        throw review::UserError("The submissions folder " + submissions.string() + " does not exist.");
    std::vector<fs::path> students;
    // A student's folder that is a link is listed (and refused below), not followed into someone else's files.
    for (const auto& e : fs::directory_iterator(submissions, ec))
        if ((e.is_symlink() || e.is_directory()) && e.path().filename().string().rfind('.', 0) != 0)
            students.push_back(e.path());
    std::sort(students.begin(), students.end());
    if (students.empty())
        throw review::UserError("The submissions folder " + submissions.string() +
                                " has no subfolders; put each student's files in a folder named after them.");
    fs::create_directories(out, ec);
    if (ec) throw review::UserError("Cannot create the output folder " + out.string() + ".");

    std::vector<StudentRow> rows;
    for (const auto& dir : students) {
        StudentRow row;
        row.student = util::sanitize_name(dir.filename().string());  // shown in the log and the gradebook
        row.results = out / dir.filename() / "results.json";
        log << "grading " << row.student << " ... " << std::flush;
        OneGrade g;
        try {
            const fs::path files = student_files(dir, lesson_id);
            if (fs::is_symlink(dir, ec) || fs::is_symlink(files, ec))
                throw review::UserError(row.student + (fs::is_symlink(dir, ec) ? "" : "/exercises/" + lesson_id) +
                                        " is a symbolic link; a submission folder holds the files themselves, so it "
                                        "was not followed.");
            g = grade_one(files, row.results);
        } catch (const std::exception& e) {
            g.exit_code = 2;
            g.error = e.what();
        }
        if (g.results.is_object()) {
            const auto& x = g.results.value("extra_data", nlohmann::json::object());
            row.score = g.results.value("score", 0.0);
            row.max_score = g.results.value("max_score", 0.0);
            row.passed = x.value("passed", false);
            row.backend = x.value("backend", std::string());
            for (const auto& v : x.value("vetoes", nlohmann::json::array()))
                row.vetoes.push_back(v.is_object() ? v.value("exercise", std::string()) + ": " + v.value("reason", std::string())
                                                   : v.dump());
            review::write_text(row.results, g.results.dump(2) + "\n");
        } else {
            row.error = g.error.empty() ? "not graded (exit status " + std::to_string(g.exit_code) + ")"
                                        : util::sanitize_name(g.error);
        }
        log << (row.error.empty() ? num(row.score) + "/" + num(row.max_score) + (row.passed ? " passed" : " not passed")
                                  : "error: " + row.error)
            << "\n";
        rows.push_back(row);
    }
    const fs::path book = out / "gradebook.csv";
    if (fs::exists(book)) {
        std::time_t t = std::time(nullptr);
        std::tm tm{};
        gmtime_r(&t, &tm);
        char stamp[32];
        std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        fs::path old = out / ("gradebook-" + std::string(stamp) + ".csv");
        for (int k = 2; fs::exists(old); ++k) old = out / ("gradebook-" + std::string(stamp) + "-" + std::to_string(k) + ".csv");
        fs::rename(book, old);
        log << "the previous gradebook was kept as " << old.string() << "\n";
    }
    review::write_text(book, gradebook_csv(rows));
    log << "gradebook: " << book.string() << " (" << rows.size() << " students)\n";
    return rows;
}

}  // namespace workbook::tools
