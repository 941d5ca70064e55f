#include "review/written.hpp"

#include <memory>
#include <sstream>

#include <re2/re2.h>

#include "util/util.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/lesson.hpp"
#include "written/error.hpp"
#include "written/judge.hpp"

namespace fs = std::filesystem;

namespace workbook::review {
namespace {

// Lines that templates use to mark where the answer goes, in English and Chinese.
const std::vector<std::string> kDefaultPlaceholders = {
    R"(^[\s_*(\[]*(your answer|write your|answer here|todo|tbd|replace this)\b)",
    R"(^[\s_*(\[]*(在此|在这里|请在)(作答|回答|写))",
};

std::string lower_ascii(std::string s) {
    for (auto& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// RE2 in its UTF-8 mode: `.` is one code point and a Chinese character class works (the answers were checked to be
// valid UTF-8 when read), and matching takes time linear in the answer, whose length the student chooses.
std::shared_ptr<const RE2> compile(const std::string& pattern, const std::string& where) {
    RE2::Options o;
    o.set_case_sensitive(false);
    o.set_log_errors(false);
    auto re = std::make_shared<const RE2>(pattern, o);
    if (!re->ok())
        throw util::UserError(where + ": invalid pattern '" + pattern + "' (" + re->error() +
                              "; patterns are RE2 syntax, without lookaround or backreferences).");
    return re;
}

// "Q1: why eps?" matches item "Q1"; "Explanation of my kernel" matches "explanation".
bool heading_is(const std::string& heading, const std::string& id) {
    std::string h = lower_ascii(util::trim(heading)), i = lower_ascii(id);
    if (h.rfind(i, 0) != 0) return false;
    if (h.size() == i.size()) return true;
    unsigned char next = static_cast<unsigned char>(h[i.size()]);
    return !std::isalnum(next);
}

std::string core_exercise(const nlohmann::json& lesson) {
    if (lesson.is_object()) {
        for (const char* k : {"core", "core_exercise"})
            if (lesson.contains(k) && lesson[k].is_string()) return lesson[k].get<std::string>();
        if (lesson.contains("exercises") && lesson["exercises"].is_array())
            for (const auto& e : lesson["exercises"])
                if (e.is_object() && (e.value("core", false) || e.value("kind", std::string()) == "core"))
                    return e.value("name", e.value("id", std::string()));
    }
    return lesson.is_object() && lesson.contains("pass") ? lesson["pass"].value("core", std::string()) : std::string();
}

// lesson.json's written item for `id` ("written" or "questions" array), or null.
nlohmann::json lesson_item(const nlohmann::json& lesson, const std::string& id) {
    if (!lesson.is_object()) return nullptr;
    for (const char* key : {"written", "questions"}) {
        if (!lesson.contains(key) || !lesson[key].is_array()) continue;
        for (const auto& w : lesson[key]) {
            std::string wid = w.is_string() ? w.get<std::string>() : w.value("id", w.value("name", std::string()));
            if (lower_ascii(wid) == lower_ascii(id)) return w.is_object() ? w : nlohmann::json::object();
        }
    }
    return nullptr;
}

}  // namespace

std::map<std::string, std::string> markdown_sections(const std::string& markdown,
                                                     const std::vector<std::string>& item_ids) {
    std::map<std::string, std::string> out;
    // Lines end as an editor may end them: LF, CRLF, or a carriage return alone (a file saved with old Mac line
    // ends, which was one line with no heading: every item scored 0).
    std::string text;
    text.reserve(markdown.size());
    for (std::size_t i = 0; i < markdown.size(); ++i) {
        if (markdown[i] == '\r' && i + 1 < markdown.size() && markdown[i + 1] == '\n') continue;
        text += markdown[i] == '\r' ? '\n' : markdown[i];
    }
    std::istringstream in(text);
    std::string line, heading;
    bool in_section = false, in_fence = false;
    // The text of a heading line of any level that names an item, or "".
    auto item_heading = [&](const std::string& l) {
        const std::size_t hashes = l.find_first_not_of('#');
        if (hashes == 0 || hashes > 6 || hashes == std::string::npos) return std::string();
        const std::string text = util::trim(l.substr(hashes));
        for (const auto& id : item_ids)
            if (!text.empty() && heading_is(text, id)) return text;
        return std::string();
    };
    while (std::getline(in, line)) {
        if (util::trim(line).rfind("```", 0) == 0) in_fence = !in_fence;
        if (const std::string text = in_fence ? std::string() : item_heading(line); !text.empty()) {
            heading = text;
            in_section = true;
            out[heading];
            continue;
        }
        if (!in_fence && line.rfind("## ", 0) == 0) {
            heading = util::trim(line.substr(3));
            // A repeated heading continues the first one rather than silently replacing the answer.
            in_section = true;
            out[heading];
            continue;
        }
        if (!in_fence && line.rfind("# ", 0) == 0) {
            in_section = false;
            continue;
        }
        if (in_section) out[heading] += line + "\n";
    }
    return out;
}

std::string answer_text(const std::string& section, const std::vector<std::string>& placeholder_patterns) {
    std::string s = section;
    for (std::size_t a; (a = s.find("<!--")) != std::string::npos;) {
        std::size_t b = s.find("-->", a + 4);
        s.erase(a, b == std::string::npos ? std::string::npos : b + 3 - a);
    }
    std::vector<std::shared_ptr<const RE2>> placeholders;
    for (const auto& p : kDefaultPlaceholders) placeholders.push_back(compile(p, "built-in placeholder"));
    for (const auto& p : placeholder_patterns) placeholders.push_back(compile(p, "rubric placeholder"));
    std::istringstream in(s);
    std::string line, out;
    while (std::getline(in, line)) {
        std::string t = util::trim(line);
        if (t.empty() || t[0] == '>') continue;
        bool is_placeholder = false;
        for (const auto& re : placeholders) is_placeholder |= RE2::PartialMatch(t, *re);
        if (is_placeholder) continue;
        out += (out.empty() ? "" : " ") + t;
    }
    std::string collapsed;
    for (char c : out) {
        if (c == '\t' || c == '\r' || c == '\n') c = ' ';
        if (c == ' ' && !collapsed.empty() && collapsed.back() == ' ') continue;
        collapsed += c;
    }
    return collapsed;
}

namespace {

// The judge's rubric, or the one sentence that says why it cannot be used.
written::Rubric parsed(const nlohmann::json& rubric, const std::string& label) {
    try {
        return written::parse_rubric(rubric, label);
    } catch (const written::RubricError& e) {
        throw util::UserError(e.what());
    }
}

}  // namespace

void validate_rubric(const nlohmann::json& rubric, const std::string& label) { parsed(rubric, label); }

std::vector<WrittenScore> score_answers(const nlohmann::json& rubric_json, const std::string& answers_markdown,
                                        const nlohmann::json& lesson_json) {
    const written::Rubric rubric = parsed(rubric_json, "written-answer rubric");
    std::vector<std::string> ids;
    for (const auto& item : rubric.items) ids.push_back(item.id);
    const auto sections = markdown_sections(answers_markdown, ids);
    std::vector<std::string> rubric_placeholders;
    for (const auto& p : rubric_json.value("placeholders", nlohmann::json::array())) rubric_placeholders.push_back(p);
    const std::string core = core_exercise(lesson_json);
    std::vector<WrittenScore> out;
    for (std::size_t i = 0; i < rubric.items.size(); ++i) {
        const written::Item& item = rubric.items[i];
        const nlohmann::json& item_json = rubric_json["items"][i];
        WrittenScore w;
        w.id = item.id;
        w.max_score = item.points;
        const nlohmann::json li = lesson_item(lesson_json, w.id);
        w.group = li.is_object() && li.contains("group") ? li["group"].get<std::string>()
                  : lower_ascii(w.id) == "explanation"   ? "explanation"
                                                         : "question";
        w.exercise = li.is_object() && li.contains("exercise") ? li["exercise"].get<std::string>() : core;
        std::string section;
        bool present = false;
        for (const auto& [heading, body] : sections)
            if (heading_is(heading, w.id)) section += body, present = true;
        std::vector<std::string> placeholders = rubric_placeholders;
        for (const auto& p : item_json.value("placeholders", nlohmann::json::array())) placeholders.push_back(p);
        w.answer = answer_text(section, placeholders);
        w.placeholder = w.answer.empty();
        if (!present) {
            w.feedback = "No \"## " + w.id + "\" section was found in answers.md, so this item scores 0.";
            out.push_back(std::move(w));
            continue;
        }
        if (w.placeholder) {
            w.feedback = "Still the template's placeholder (or empty), so this item scores 0.";
            out.push_back(std::move(w));
            continue;
        }
        const written::Verdict v = written::judge(rubric, item, w.answer);
        for (const auto& c : v.concepts)
            (c.state == written::ConceptVerdict::found ? w.found : w.missing).push_back(c.concept->description);
        w.too_short = v.too_short;
        w.score = v.score;
        w.feedback = v.too_short ? "Shorter than the " + std::to_string(item.min_chars) +
                                       " characters this answer needs, so it scores 0 (provisional)."
                                 : v.feedback;
        out.push_back(std::move(w));
    }
    return out;
}

std::vector<WrittenScore> score_written(const nlohmann::json& lesson_json, const fs::path& answers_md,
                                        const fs::path& repo_root) {
    std::string answers;
    if (fs::exists(answers_md)) answers = util::read_text(answers_md);
    return score_written(lesson_json, answers_md, answers, repo_root);
}

std::vector<WrittenScore> score_written(const nlohmann::json& lesson_json, const fs::path& answers_md,
                                        const std::string& answers, const fs::path& repo_root) {
    std::string lesson_id = lesson_json.is_object() ? lesson_json.value("slug", std::string()) : std::string();
    if (lesson_id.empty()) lesson_id = answers_md.parent_path().filename().string();
    if (lesson_id.empty() || !fs::exists(repo_root / "lessons" / lesson_id)) {
        // A submission folder has an arbitrary name: fall back to the only lesson that has a rubric.
        for (const auto& id : lesson::lesson_ids(repo_root))
            if (fs::exists(repo_root / "grader" / "rubrics" / (id + "-written.json"))) lesson_id = id;
    }
    const fs::path rubric_path = repo_root / "grader" / "rubrics" / (lesson_id + "-written.json");
    if (!fs::exists(rubric_path))
        throw util::UserError("The written-answer rubric " + util::display_path(rubric_path, repo_root) +
                              " is missing.");
    const nlohmann::json rubric = util::load_json(rubric_path);
    validate_rubric(rubric, util::display_path(rubric_path, repo_root));
    return score_answers(rubric, answers, lesson_json);
}

}  // namespace workbook::review
