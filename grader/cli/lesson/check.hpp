// `workbook check [lesson]`: a lesson against its files, the way a lesson author needs it kept honest. Every exercise
// of the manifest has a marked solution whose blanks are the manifest's, a starter generated from it, a hidden-test
// file and a lesson page; every known answer names a real exercise and blank; no exercise file is unclaimed; the
// built hidden tests are the manifest's exercises. Each problem says what to run or edit to fix it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace workbook::lesson {

struct Problem {
    std::string what;  // "exercises/04-rmsnorm/rmsnorm.cu differs from the starter made from solutions/…"
    std::string fix;   // "run `make sync`"
};

// `config` is build/workbook-config.json, or null where there is no build (the built-tests check is then skipped
// and a note says so in `notes`). A manifest that does not parse is one problem: the parser's sentence.
std::vector<Problem> check_lesson(const std::filesystem::path& root, const std::string& lesson,
                                  const nlohmann::json& config, std::vector<std::string>* notes = nullptr);

}  // namespace workbook::lesson
