// Class grading's GradeOneFn: `workbook grade` run as a child process (its own process group, a wall-clock limit),
// whose results.json is read from its standard output. Whatever the hand-in does to that process (crash it, hang
// it, fill its output), the class run goes on and the student's row says what happened.
#pragma once

#include <string>
#include <vector>

#include "tools/grade_class.hpp"

namespace workbook::tools {

struct ChildGradeOptions {
    // The command up to its options: {"/path/to/workbook", "grade", "04-rmsnorm"}. The child is given
    // --submission, --work-dir, --submission-label, --backend and --json-out - after it.
    std::vector<std::string> command;
    std::string backend = "auto";
    double timeout_s = 1800;                               // the whole grade of one student
    std::vector<std::pair<std::string, std::string>> env;  // e.g. WORKBOOK_CONFIG, so the child finds this build
};

GradeOneFn grade_in_child(ChildGradeOptions options);

}  // namespace workbook::tools
