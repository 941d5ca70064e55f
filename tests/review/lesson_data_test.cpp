// The real lesson's data, read the way the grader reads it: review rules that compile and never veto the reference
// solution, a rubric that gives the reference answers full marks and the template none, a hint for every blank.
#include "workbook_catch.hpp"

#include "review/comments.hpp"
#include "review/edit_check.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "lesson/manifest.hpp"
#include "lesson/markers.hpp"
#include "review/tokens.hpp"
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

namespace {

// The starter with each blank replaced by `fills[id]` (a block blank's whole placeholder line is replaced).
std::string fill_starter(const std::string& starter, const std::vector<std::string>& ids, const nlohmann::json& fills) {
    std::vector<Tok> blanks;
    for (const auto& t : code_tokens(starter))
        if (t.is_blank()) blanks.push_back(t);
    REQUIRE(blanks.size() == ids.size());
    std::string out = starter;
    for (std::size_t k = blanks.size(); k-- > 0;) {
        if (!fills.contains(ids[k])) continue;
        std::size_t end = blanks[k].end;
        const std::size_t eol = out.find('\n', end);
        if (out.compare(end, 11, "  // blank:") == 0) end = eol == std::string::npos ? out.size() : eol;
        out.replace(blanks[k].begin, end - blanks[k].begin, fills[ids[k]].get<std::string>());
    }
    return out;
}

// The file a known answer (wrong.json or alt.json entry) stands for: blank fills, a patch of the solution, or a whole
// file. False when the entry gives none of the three.
bool known_answer_text(const LessonPaths& L, const ExerciseInfo& ex, const nlohmann::json& e, std::string& out) {
    const std::string solution = read_text(L.solutions_dir() / ex.file);
    if (e.contains("fills")) {
        out = fill_starter(make_starter(solution, ex.file).text, ex.blanks, e["fills"]);
    } else if (e.contains("patch")) {
        out = strip_markers(solution, ex.file).text;
        for (const auto& p : e["patch"]) {
            const std::string find = p["find"], repl = p["replace"];
            const auto at = out.find(find);
            REQUIRE(at != std::string::npos);
            out.replace(at, find.size(), repl);
        }
    } else if (e.contains("file")) {
        out = read_text(L.solutions_dir() / e["file"].get<std::string>());
    } else {
        return false;
    }
    return true;
}

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
        const auto manifest = load_json(L.manifest());
        for (const auto& w : load_json(catalogue)) {
            const std::string name = w.value("name", std::string());
            INFO(L.id << " wrong answer " << name);
            const ExerciseInfo ex = find_exercise(manifest, w.value("exercise", std::string()));
            const std::string starter = make_starter(read_text(L.solutions_dir() / ex.file), ex.file).text;
            std::string student;
            if (!known_answer_text(L, ex, w, student)) continue;
            const std::string veto = w["expect"].value("veto", std::string());
            EditCheck ec = edit_check_text(starter, student, ex.file, ex.blanks);
            const std::string says = w["expect"].value("veto_says", std::string());
            if (veto == "edit" || veto == "fill") {
                CHECK_FALSE(ec.ok);
                CHECK_FALSE(ec.changes.empty());
                CHECK(ec.refused == (veto == "fill"));  // "fill": the fill policy's veto (review/fill_policy.hpp)
                if (!says.empty()) CHECK(ec.reason.find(says) != std::string::npos);
                continue;
            }
            REQUIRE(ec.ok);
            const auto comments = apply_review_rules(ex.review, ec.fills, ex.file, ex.name);
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
        const auto manifest = load_json(L.manifest());
        for (const auto& a : load_json(catalogue)) {
            INFO(L.id << " alternative " << a.value("name", std::string()));
            const ExerciseInfo ex = find_exercise(manifest, a.value("exercise", std::string()));
            const std::string starter = make_starter(read_text(L.solutions_dir() / ex.file), ex.file).text;
            std::string alt;
            REQUIRE(known_answer_text(L, ex, a, alt));
            EditCheck ec = edit_check_text(starter, alt, ex.file, ex.blanks);
            CHECK(ec.ok == !a.value("edits_outside_blanks", false));
            if (ec.ok) {
                for (const auto& c : apply_review_rules(ex.review, ec.fills, ex.file, ex.name)) {
                    INFO("veto on a correct answer: " << c.text);
                    CHECK_FALSE(c.veto);
                }
            }
        }
    }
}
