// `workbook grade-class 04 --submissions DIR [--out DIR]`: each subfolder of DIR is one student's hand-in, graded by
// the same pipeline as `make grade-04 SUBMISSION=…`, one student at a time, each in a child process of its own
// (class_child.hpp) on a private copy of its files, so that a crash, a hang or a hostile hand-in costs only that
// student's row and nothing of one student's run is seen by the next.
//
// Every run keeps its own folder, <out>/<run>/ (gradebook.csv, students/<student>/results.json and grade.log);
// <out>/gradebook.csv and <out>/latest point at the latest run. Earlier runs are never overwritten.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lesson/lesson.hpp"
#include "tools/gradebook.hpp"

namespace workbook::tools {

struct OneGrade {
    nlohmann::json results;  // results.json of the hand-in; null when it could not be graded
    std::string error;       // then why, in a few words and without absolute paths
    std::string log;         // what the grader printed besides the results (kept as grade.log)
};

// Grades the hand-in copied to `submission` (a private folder named after the lesson), building in `work_dir`
// (empty, private). `label` is how people know the hand-in ("handins/alice"). Never throws for a bad hand-in.
using GradeOneFn = std::function<OneGrade(const std::filesystem::path& submission,
                                          const std::filesystem::path& work_dir, const std::string& label)>;

struct ClassRun {
    std::filesystem::path dir;        // <out>/<run>
    std::filesystem::path gradebook;  // <out>/<run>/gradebook.csv
    std::vector<GradebookRow> rows;
    int not_graded = 0;  // rows without results (their reason says why)
};

// The folder holding a student's files: <dir>/exercises/<lesson> when the student handed in a whole repository,
// else <dir> itself.
std::filesystem::path student_files(const std::filesystem::path& student_dir, const std::string& lesson_id);

// Grades every subfolder of `submissions` (sorted by name; hidden folders skipped). The private copies and work
// folders are made under `private_root` (not /tmp for real grading: the sandbox gives the worker a /tmp of its own,
// where it would not find the program built for it) and removed at the end. Missing or empty `submissions`, or an
// `out` that cannot be written: UserError. The gradebook is written whatever happens to each student.
ClassRun grade_class(const std::filesystem::path& submissions, const std::filesystem::path& out,
                     const lesson::Lesson& lesson, const GradeOneFn& grade_one, std::ostream& log,
                     const std::filesystem::path& private_root = "/tmp");

}  // namespace workbook::tools
