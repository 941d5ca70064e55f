// The real lesson's data, read the way the grader reads it: review rules that compile and never veto the reference
// solution, a rubric that gives the reference answers full marks and the template none.
#include "workbook_catch.hpp"

#include "review/comments.hpp"
#include "review/edit_check.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/answers.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"
#include "review/written.hpp"

using namespace workbook::review;
using namespace workbook::util;
using namespace workbook::lesson;
namespace lesson = workbook::lesson;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = WORKBOOK_SOURCE_DIR;

std::vector<lesson::Lesson> lessons_with_manifest() {
    std::vector<lesson::Lesson> out;
    for (const auto& id : lesson::lesson_ids(kRoot)) out.push_back(lesson::load_lesson(kRoot, id));
    return out;
}

}  // namespace

TEST_CASE("lesson review rules compile and leave the solutions without comments that veto", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        REQUIRE_NOTHROW(validate_review_rules(L));
        for (const auto& ex : L.exercises) {
            const fs::path sol = L.solutions_dir() / ex.file();
            if (!fs::exists(sol)) continue;
            INFO(L.id << "/" << ex.name);
            const std::string solution = strip_markers(read_text(sol), ex.file()).text;
            const std::string starter = make_starter(read_text(sol), ex.file()).text;
            EditCheck ec = edit_check_text(starter, solution, ex.file(), ex.blank_ids());
            REQUIRE(ec.ok);
            for (const auto& c : apply_review_rules(ex, ec.fills, ex.file())) {
                INFO("comment on the reference solution: " << c.text);
                CHECK_FALSE(c.veto);
            }
        }
    }
}

TEST_CASE("the written rubric: the template scores 0, the solution's answers full marks", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        const fs::path rubric_path = kRoot / "grader" / "rubrics" / (L.id + "-written.json");
        if (!fs::exists(rubric_path)) continue;
        const auto rubric = load_json(rubric_path);
        REQUIRE_NOTHROW(validate_rubric(rubric, rubric_path.string()));
        const fs::path templ = L.exercises_dir() / "answers.md";
        if (fs::exists(templ)) {
            for (const auto& w : score_answers(rubric, read_text(templ), L.raw)) {
                INFO(w.id << ": " << w.answer);
                CHECK(w.score == 0);
            }
        }
        // solutions/<lesson>/answers.md is the filled-in answers file, written as a student would.
        const fs::path ref = L.solutions_dir() / "answers.md";
        if (fs::exists(ref)) {
            for (const auto& w : score_answers(rubric, read_text(ref), L.raw)) {
                INFO(w.id << ": " << w.feedback);
                CHECK(w.score == w.max_score);
            }
        }
    }
}

namespace {

bool has_veto(const std::vector<Comment>& comments, const std::string& kind) {
    for (const auto& c : comments)
        if (c.veto && c.veto_kind == kind) return true;
    return false;
}

}  // namespace

TEST_CASE("the catalogue of wrong answers meets the vetoes it expects", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        const fs::path catalogue = L.solutions_dir() / "wrong" / "wrong.json";
        if (!fs::exists(catalogue)) continue;
        for (const auto& w : load_json(catalogue)) {
            const std::string name = w.value("name", std::string());
            INFO(L.id << " wrong answer " << name);
            const lesson::Exercise& ex = L.exercise(w.value("exercise", std::string()));
            const std::string starter = make_starter(read_text(L.solutions_dir() / ex.file()), ex.file()).text;
            const std::string student = lesson::known_answer_text(L, w);
            const std::string veto = w["expect"].value("veto", std::string());
            EditCheck ec = edit_check_text(starter, student, ex.file(), ex.blank_ids());
            const std::string says = w["expect"].value("veto_says", std::string());
            if (veto == "edit" || veto == "fill") {
                CHECK_FALSE(ec.ok);
                CHECK_FALSE(ec.changes.empty());
                CHECK(ec.refused == (veto == "fill"));  // "fill": the fill policy's veto (review/fill_policy.hpp)
                if (!says.empty()) CHECK(ec.reason.find(says) != std::string::npos);
                continue;
            }
            REQUIRE(ec.ok);
            const auto comments = apply_review_rules(ex, ec.fills, ex.file());
            if (veto.empty()) {
                for (const auto& c : comments) {
                    INFO("unexpected veto: " << c.text);
                    CHECK_FALSE(c.veto);
                }
            } else {
                CHECK(has_veto(comments, veto));
            }
        }
    }
}

TEST_CASE("alternative solutions: the edit check agrees with their catalogue", "[lesson_data]") {
    for (const auto& L : lessons_with_manifest()) {
        const fs::path catalogue = L.solutions_dir() / "alt" / "alt.json";
        if (!fs::exists(catalogue)) continue;
        for (const auto& a : load_json(catalogue)) {
            INFO(L.id << " alternative " << a.value("name", std::string()));
            const lesson::Exercise& ex = L.exercise(a.value("exercise", std::string()));
            const std::string starter = make_starter(read_text(L.solutions_dir() / ex.file()), ex.file()).text;
            const std::string alt = lesson::known_answer_text(L, a);
            EditCheck ec = edit_check_text(starter, alt, ex.file(), ex.blank_ids());
            CHECK(ec.ok == !a.value("edits_outside_blanks", false));
            if (ec.ok) {
                for (const auto& c : apply_review_rules(ex, ec.fills, ex.file())) {
                    INFO("veto on a correct answer: " << c.text);
                    CHECK_FALSE(c.veto);
                }
            }
        }
    }
}
