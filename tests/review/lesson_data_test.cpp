// The real lesson's data, read the way the grader reads it: review rules that compile and never veto the reference
// solution, a rubric that gives the reference answers full marks and the template none, a hint for every blank.
#include "catch.hpp"

#include "review/comments.hpp"
#include "review/edit_check.hpp"
#include "review/errors.hpp"
#include "review/files.hpp"
#include "review/manifest.hpp"
#include "review/markers.hpp"
#include "review/written.hpp"

using namespace workbook::review;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = WORKBOOK_SOURCE_DIR;

std::vector<LessonPaths> lessons_with_manifest() {
    std::vector<LessonPaths> out;
    for (const auto& id : lesson_ids(kRoot))
        if (fs::exists(kRoot / "lessons" / id / "lesson.json")) out.push_back(resolve_lesson(kRoot, id));
    return out;
}

}  // namespace

TEST_CASE("lesson review rules compile and leave the solutions without comments that veto", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        const auto manifest = load_json(L.manifest());
        REQUIRE_NOTHROW(validate_review_rules(manifest));
        for (const auto& ex : exercises_of(manifest)) {
            const fs::path sol = L.solutions_dir() / ex.file;
            if (!fs::exists(sol)) continue;
            INFO(L.id << "/" << ex.name);
            const std::string solution = strip_markers(read_text(sol), ex.file).text;
            const std::string starter = make_starter(read_text(sol), ex.file).text;
            EditCheck ec = edit_check_text(starter, solution, ex.file, ex.blanks);
            REQUIRE(ec.ok);
            for (const auto& c : apply_review_rules(ex.review, ec.fills, ex.file, ex.name)) {
                INFO("comment on the reference solution: " << c.text);
                CHECK_FALSE(c.veto);
            }
        }
    }
}

TEST_CASE("every blank has four hint levels", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        const fs::path hints_path = L.lesson_dir() / "hints.json";
        if (!fs::exists(hints_path)) continue;
        const auto hints = load_json(hints_path);
        for (const auto& ex : exercises_of(load_json(L.manifest())))
            for (const auto& b : ex.blanks) {
                INFO(L.id << ": " << ex.name << "/" << b);
                const nlohmann::json::json_pointer ptr("/" + ex.name + "/" + b);
                REQUIRE(hints.contains(ptr));
                CHECK(hints[ptr].size() == 4);
            }
    }
}

TEST_CASE("the written rubric: the template scores 0, the solution's answers full marks", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        const fs::path rubric_path = kRoot / "grader" / "rubrics" / (L.id + "-written.json");
        if (!fs::exists(rubric_path)) continue;
        const auto rubric = load_json(rubric_path);
        REQUIRE_NOTHROW(validate_rubric(rubric, rubric_path.string()));
        const auto manifest = load_json(L.manifest());
        const fs::path templ = L.exercises_dir() / "answers.md";
        if (fs::exists(templ)) {
            for (const auto& w : score_answers(rubric, read_text(templ), manifest)) {
                INFO(w.id << ": " << w.answer);
                CHECK(w.score == 0);
            }
        }
        // solutions/<lesson>/answers.md is the filled-in answers file, written as a student would.
        const fs::path ref = L.solutions_dir() / "answers.md";
        if (fs::exists(ref)) {
            for (const auto& w : score_answers(rubric, read_text(ref), manifest)) {
                INFO(w.id << ": " << w.feedback);
                CHECK(w.score == w.max_score);
            }
        }
    }
}
