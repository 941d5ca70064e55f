// `workbook grade-class 04 --submissions DIR --out DIR`: each subfolder of DIR is one student's hand-in, graded by
// the same pipeline as `make grade-04 SUBMISSION=…` into <out>/<student>/results.json, then a gradebook.csv with
// student, score, passed, backend and vetoes.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::tools {

struct OneGrade {
    int exit_code = 2;          // as the grade command's
    std::string error;          // one sentence when nothing could be graded
    nlohmann::json results;     // results.json content when graded
};

// Grades `submission` and writes its results.json to `results_out`. The CLI passes the pipeline's run_grade here.
using GradeOneFn = std::function<OneGrade(const std::filesystem::path& submission, const std::filesystem::path& results_out)>;

struct StudentRow {
    std::string student;
    double score = 0;
    double max_score = 0;
    bool passed = false;
    std::string backend;
    std::vector<std::string> vetoes;
    std::string error;  // when the hand-in could not be graded
    std::filesystem::path results;
};

// The folder holding a student's files: <dir>/exercises/<lesson> when the student handed in a whole repository,
// else <dir> itself.
std::filesystem::path student_files(const std::filesystem::path& student_dir, const std::string& lesson_id);

// Grades every subfolder (sorted by name; hidden folders skipped). Missing `submissions`: UserError. An existing
// gradebook.csv in `out` is renamed (and the log says so) rather than overwritten.
std::vector<StudentRow> grade_class(const std::filesystem::path& submissions, const std::filesystem::path& out,
                                    const std::string& lesson_id, const GradeOneFn& grade_one, std::ostream& log);

std::string gradebook_csv(const std::vector<StudentRow>& rows);

}  // namespace workbook::tools
