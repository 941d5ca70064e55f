// A lesson's lists of known answers, solutions/<slug>/wrong/wrong.json and alt/alt.json: an array of entries, each
// with a "name" (unique in its list; it names the entry's ctest) and the "exercise" it answers. What an entry holds
// beyond those two (its fills, patch or file, what a wrong answer must fail) is read where it is used
// (lesson/answers.hpp, tests/grading/known_answers.cpp); this is the one reader of the lists themselves, for the
// build (grader/configure), `workbook check` and the known-answers runner alike.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::lesson {

struct KnownAnswer {
    std::string name;      // letters, digits and '_'
    std::string exercise;  // an exercise of the lesson (answers.hpp's known_answer_text checks that it exists)
    nlohmann::json entry;  // the whole entry as written
};

// The entries of `file`, in order; none when the file does not exist. `shown` names the file in errors. UserError
// naming the file and the entry when the list is not an array of objects, an entry lacks a "name" or an "exercise"
// string, a name is not a word of letters, digits and '_', or a name repeats.
std::vector<KnownAnswer> read_known_answers(const std::filesystem::path& file, const std::string& shown);

// The entry named `name` of `file`; UserError when there is none.
KnownAnswer find_known_answer(const std::filesystem::path& file, const std::string& shown, const std::string& name);

}  // namespace workbook::lesson
