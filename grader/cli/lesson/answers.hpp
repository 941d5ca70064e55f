// Known answers of a lesson (solutions/<lesson>/wrong/wrong.json, alt/alt.json) as the file a student would hand in.
// An entry is a delta from the marked solution, so it follows the solution when the solution changes:
//   "fills": {"<blank>": "<code>"}                the solution with those blanks written differently (a block blank's
//                                                 code is one line, at its marker's indentation)
//   "patch": [{"find": "…", "replace": "…"}]      the solution without its markers, each text replaced once, in order;
//                                                 a text the solution holds with other whitespace or line breaks
//                                                 (as make format lays it out) is found by its tokens
//   "file": "alt/<name>.cu"                       a whole file, where no delta can say it
//   "starter": true                               a bug hunt's starter as it is handed out, its fix regions unchanged
//                                                 (only for an exercise whose blanks are all fix regions)
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "lesson/lesson.hpp"

namespace workbook::lesson {

// The student's file for `entry`. UserError naming the entry when its exercise, a blank or a patch's text is not
// in the lesson, or its file is missing.
std::string known_answer_text(const Lesson& lesson, const nlohmann::json& entry);

}  // namespace workbook::lesson
