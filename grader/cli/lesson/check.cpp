#include "lesson/check.hpp"

#include <set>
#include <sstream>
#include <system_error>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/answers.hpp"
#include "lesson/catalogue.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"
#include "review/edit_check.hpp"
#include "review/tokens.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::lesson {
namespace {

using util::display_path;
using util::UserError;

std::string list(const std::vector<std::string>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s + "]";
}

// 2 -> "2", 2.5 -> "2.5".
std::string number_text(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

// The function an entry-point declaration names: the identifier before its parameter list.
std::string entry_name(const std::string& declaration) {
    const std::size_t paren = declaration.find('(');
    std::string before = declaration.substr(0, paren);
    while (!before.empty() && before.back() == ' ') before.pop_back();
    const std::size_t start = before.find_last_of(" *&");
    return start == std::string::npos ? before : before.substr(start + 1);
}

// True when `source` defines a function `name` (the name followed by a parameter list and, after it, a body).
bool defines(const std::string& source, const std::string& name) {
    const auto toks = review::code_tokens(source);
    for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
        if (toks[i].text != name || toks[i + 1].text != "(") continue;
        int depth = 0;
        for (std::size_t k = i + 1; k < toks.size(); ++k) {
            if (toks[k].text == "(") ++depth;
            else if (toks[k].text == ")" && --depth == 0) {
                if (k + 1 < toks.size() && toks[k + 1].text == "{") return true;
                break;
            }
        }
    }
    return false;
}

class Checker {
 public:
    Checker(const Lesson& L, std::vector<Problem>& out) : L_(L), out_(out) {}

    void add(std::string what, std::string fix) { out_.push_back({std::move(what), std::move(fix)}); }
    std::string shown(const fs::path& p) const { return display_path(p, L_.root); }
    std::string manifest() const { return shown(L_.manifest()); }

    void exercise(const Exercise& ex) {
        const fs::path sol = L_.solutions_dir() / ex.file();
        const std::string add_it = "(docs/adding-a-lesson.md, \"A new exercise\")";
        if (!fs::exists(L_.lesson_dir() / ex.section))
            add(manifest() + ": exercise '" + ex.name + "' is taught in section '" + ex.section +
                    "', which is not a file of " + shown(L_.lesson_dir()) + ".",
                "name the lesson page that teaches it in its \"section\", or write that page");
        const fs::path test = L_.hidden_tests_dir() / (ex.name + "_test.cpp");
        if (!fs::exists(test))
            add("exercise '" + ex.name + "' has no hidden tests: " + shown(test) + " does not exist.",
                "write its WB_TEST cases there " + add_it);
        if (!fs::exists(sol)) {
            add(manifest() + " lists exercise '" + ex.name + "', but " + shown(sol) + " does not exist.",
                "write the marked solution there " + add_it + ", or remove the exercise from " + manifest());
            return;
        }
        std::string marked;
        lesson::Converted starter;
        try {
            marked = util::read_text(sol);
            starter = lesson::make_starter(marked, shown(sol));
        } catch (const UserError& e) {
            add(e.what(), "fix the blank markers (docs/architecture.md, \"Blank markers\")");
            return;
        }
        std::vector<std::string> marked_ids;
        for (const auto& b : starter.blanks) marked_ids.push_back(b.id);
        bug_hunt(ex, sol, marked, starter);
        if (marked_ids != ex.blank_ids())
            add(shown(sol) + " marks the blanks " + list(marked_ids) + ", but " + manifest() + " lists " +
                    list(ex.blank_ids()) + " for exercise '" + ex.name + "'.",
                "make the exercise's \"blanks\" in " + manifest() + " the markers' ids, in file order");
        for (const auto& decl : ex.entry_points)
            if (!defines(marked, entry_name(decl)))
                add(shown(sol) + " does not define the entry point " + entry_name(decl) + " that " + manifest() +
                        " declares for exercise '" + ex.name + "'.",
                    "define `" + decl + "` in the solution, or correct its \"entry_points\"");
        const fs::path starter_file = L_.exercises_dir() / ex.file();
        std::error_code ec;
        bool same = false;
        if (fs::is_regular_file(starter_file, ec)) {
            try {
                same = util::read_text(starter_file) == starter.text;
            } catch (const UserError&) {
                same = false;  // a huge or binary file there is certainly not the starter
            }
        }
        if (!same)
            add(shown(starter_file) + (fs::exists(starter_file, ec) ? " differs from" : " is missing; it is") +
                    " the starter made from " + shown(sol) + ".",
                "run `make sync` (workbook sync " + L_.number + ")");
    }

    // A bug hunt (fix regions, lesson/markers.hpp): each region's starter must hold a bug, and the solution must be
    // an answer the edit check accepts (a fix that used `::` or a directive would veto the solution itself).
    void bug_hunt(const Exercise& ex, const fs::path& sol, const std::string& marked,
                  const lesson::Converted& starter) {
        bool any = false;
        for (const auto& b : starter.blanks) {
            if (!b.fix) continue;
            any = true;
            const auto tokens = [](const std::string& code) {
                std::string t;
                for (const auto& k : review::code_tokens(code)) t += k.text + " ";
                return t;
            };
            if (tokens(b.code) == tokens(b.starter))
                add(shown(sol) + ": the fix region '" + b.id + "' of exercise '" + ex.name +
                        "' ships the solution's own code, so its starter has no bug to find.",
                    "write the buggy version after '// STARTER', as '//> ' lines");
        }
        if (!any) return;
        const review::EditCheck solved = review::edit_check_text(
            starter.text, lesson::strip_markers(marked, shown(sol)).text, ex.file(), ex.blank_ids());
        if (!solved.ok)
            add(shown(sol) + ": the solution of bug hunt '" + ex.name +
                    "' does not pass the edit check against its "
                    "own starter: " +
                    solved.reason,
                "keep the fix inside its region and within the fill policy (grader/cli/review/fill_policy.hpp)");
    }

    // Pristine starters are derived from the solutions; a copy beside them would be read by nothing and drift.
    void no_pristine_copies() {
        std::error_code ec;
        if (fs::exists(L_.pristine_dir(), ec))
            add(shown(L_.pristine_dir()) + " holds copies of the starters, which the grader makes from the solutions.",
                "remove it (git rm -r " + shown(L_.pristine_dir()) + "); only a student edition carries it");
    }

    void unclaimed(const fs::path& dir) {
        for (const auto& f : util::files_with_ext(dir, ".cu"))
            if (!L_.find(f.stem().string()))
                add(shown(f) + " is not an exercise of " + manifest() + ".",
                    "add an exercise '" + f.stem().string() + "' to " + manifest() + ", or remove the file");
    }

    void answers_and_rubric() {
        const fs::path answers = L_.exercises_dir() / L_.answers_file;
        if (!L_.written.empty() && !fs::exists(answers))
            add(manifest() + " has written items, but their template " + shown(answers) + " does not exist.",
                "write the answers template with one \"## <id>\" section per written item");
        if (L_.written_rubric.empty()) return;
        const fs::path rubric_file = L_.root / L_.written_rubric;
        if (!fs::exists(rubric_file)) {
            add(manifest() + " names the written rubric " + L_.written_rubric + ", which does not exist.",
                "write it (grader/rubrics/README.md), or remove \"written_rubric\"");
            return;
        }
        json rubric;
        try {
            rubric = util::load_json(rubric_file);
        } catch (const UserError& e) {
            add(e.what(), "correct the rubric's JSON");
            return;
        }
        std::vector<std::string> in_rubric, in_manifest;
        const json items = rubric.value("items", json::array());
        for (const auto& item : items) {
            const std::string id = item.value("id", std::string());
            in_rubric.push_back(id);
            for (const auto& w : L_.written)
                if (w.id == id && item.value("points", -1.0) != w.points)
                    add(shown(rubric_file) + " gives item '" + id + "' " + number_text(item.value("points", -1.0)) +
                            " points, but " + manifest() + " gives it " + number_text(w.points) + ".",
                        "make the two agree");
        }
        for (const auto& w : L_.written) in_manifest.push_back(w.id);
        if (in_rubric != in_manifest)
            add(shown(rubric_file) + " has the items " + list(in_rubric) + ", but " + manifest() +
                    " has the written items " + list(in_manifest) + ".",
                "give both the same items, in the same order");
    }

    // wrong/wrong.json and alt/alt.json: each entry names an exercise, and its fills, patch or file must exist.
    void known_answers(const fs::path& catalogue) {
        const std::string where = shown(catalogue);
        std::vector<KnownAnswer> entries;
        try {
            entries = read_known_answers(catalogue, where);
        } catch (const UserError& e) {
            add(e.what(), "correct the list: a JSON array of entries, each with its own \"name\" and an \"exercise\"");
            return;
        }
        for (const auto& answer : entries) {
            try {
                known_answer_text(L_, answer.entry);
            } catch (const UserError& e) {
                add(where + ": " + e.what(), "correct the entry: its exercise is one of " + list(L_.exercise_names()) +
                                                 ", its blanks are the "
                                                 "exercise's in " +
                                                 manifest() + ", a patch's \"find\" is the solution's current text");
            }
        }
    }

    void built_tests(const json& config) {
        const std::vector<std::string> names = L_.exercise_names();
        std::set<std::string> built, manifest_names(names.begin(), names.end());
        const json::json_pointer ptr("/judges/" + L_.id);
        if (config.contains(ptr))
            for (const auto& [name, exe] : config[ptr].items()) built.insert(name);
        if (built != manifest_names) {
            std::vector<std::string> b(built.begin(), built.end()), m(manifest_names.begin(), manifest_names.end());
            add("the build's hidden tests of " + L_.id + " are " + list(b) + ", but " + manifest() + " lists " +
                    list(m) + ".",
                "reconfigure the build (cmake -S . -B build), then run `make check` again");
        }
    }

 private:
    const Lesson& L_;
    std::vector<Problem>& out_;
};

}  // namespace

std::vector<Problem> check_lesson(const fs::path& root, const std::string& name, const json& config,
                                  std::vector<std::string>* notes) {
    std::vector<Problem> out;
    Lesson L;
    try {
        L = load_lesson(root, name);
    } catch (const UserError& e) {
        out.push_back({e.what(), "correct lesson.json (docs/adding-a-lesson.md describes every key)"});
        return out;
    }
    Checker c(L, out);
    for (const auto& ex : L.exercises) c.exercise(ex);
    c.unclaimed(L.exercises_dir());
    c.unclaimed(L.solutions_dir());
    c.no_pristine_copies();
    c.answers_and_rubric();
    c.known_answers(L.solutions_dir() / "wrong" / "wrong.json");
    c.known_answers(L.solutions_dir() / "alt" / "alt.json");
    if (config.is_object()) c.built_tests(config);
    else if (notes) notes->push_back("no build configured: the built hidden tests were not compared with lesson.json");
    return out;
}

}  // namespace workbook::lesson
