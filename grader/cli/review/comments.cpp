#include "review/comments.hpp"

#include <memory>

#include <re2/re2.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "lesson/manifest.hpp"

namespace fs = std::filesystem;

namespace workbook::review {
namespace {

std::string field(const nlohmann::json& rule, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        if (rule.contains(k) && rule[k].is_string()) return rule[k].get<std::string>();
    return "";
}

struct Rule {
    std::string blank, when, comment, veto;
    std::shared_ptr<const RE2> re, unless;  // unless: null when the rule has none
};

// RE2 (linear time, no stack growth with the subject's length): a fill is student text of any size.
std::shared_ptr<const RE2> compile_rule_pattern(const std::string& pattern, bool icase, const std::string& where) {
    RE2::Options o;
    o.set_case_sensitive(!icase);
    o.set_log_errors(false);
    auto re = std::make_shared<const RE2>(pattern, o);
    if (!re->ok())
        throw UserError(where + " has an invalid pattern (" + re->error() +
                        "); patterns are RE2 syntax, which has no lookaround or backreferences.");
    return re;
}

Rule parse_rule(const nlohmann::json& rule, const std::string& exercise, std::size_t index) {
    const std::string where = "lesson.json: review rule " + std::to_string(index + 1) + " of exercise '" + exercise + "'";
    if (!rule.is_object()) throw UserError(where + " is not an object.");
    Rule r;
    r.blank = field(rule, {"blank"});
    r.when = field(rule, {"when", "if"});
    if (r.when.empty()) r.when = "present";
    if (r.when != "present" && r.when != "absent")
        throw UserError(where + " has \"when\": \"" + r.when + "\"; use \"present\" or \"absent\".");
    r.comment = field(rule, {"comment", "message"});
    if (r.comment.empty()) throw UserError(where + " has no \"comment\".");
    if (rule.contains("veto")) {
        if (rule["veto"].is_string()) r.veto = rule["veto"].get<std::string>();
        else if (rule["veto"].is_boolean() && rule["veto"].get<bool>()) r.veto = "accident";
    }
    const std::string pattern = field(rule, {"pattern", "regex"});
    if (pattern.empty()) throw UserError(where + " has no \"pattern\".");
    const bool icase = rule.value("icase", false);
    r.re = compile_rule_pattern(pattern, icase, where);
    const std::string unless = field(rule, {"unless"});
    if (!unless.empty()) r.unless = compile_rule_pattern(unless, icase, where + " (\"unless\")");
    return r;
}

}  // namespace

void validate_review_rules(const nlohmann::json& lesson_json) {
    for (const auto& ex : exercises_of(lesson_json)) {
        for (std::size_t i = 0; i < ex.review.size(); ++i) {
            Rule r = parse_rule(ex.review[i], ex.name, i);
            if (!r.blank.empty()) {
                bool known = false;
                for (const auto& b : ex.blanks) known |= b == r.blank;
                if (!known)
                    throw UserError("lesson.json: review rule " + std::to_string(i + 1) + " of exercise '" + ex.name +
                                    "' names blank '" + r.blank + "', which the exercise does not have.");
            }
        }
    }
}

std::vector<Comment> apply_review_rules(const nlohmann::json& rules, const std::vector<Fill>& fills,
                                        const std::string& file, const std::string& exercise) {
    std::vector<Comment> out;
    if (!rules.is_array()) return out;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const Rule r = parse_rule(rules[i], exercise, i);
        std::string subject;
        int line = 0;
        bool any = false;
        for (const auto& f : fills) {
            if (!r.blank.empty() && f.id != r.blank) continue;
            if (f.unfilled) continue;
            subject += (any ? "\n" : "") + (f.region_tokens.empty() ? f.tokens : f.region_tokens);
            if (!any) line = f.line;
            any = true;
        }
        if (!any) continue;
        const bool found = RE2::PartialMatch(subject, *r.re) && !(r.unless && RE2::PartialMatch(subject, *r.unless));
        if (found != (r.when == "present")) continue;
        Comment c;
        c.file = file;
        c.line = line;
        c.text = r.comment;
        c.veto = !r.veto.empty();
        c.veto_kind = r.veto;
        c.blank = r.blank;
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<Comment> review_comments_text(const nlohmann::json& lesson_json, const std::string& exercise,
                                          const std::string& student, const std::string& pristine,
                                          const std::string& file) {
    const ExerciseInfo ex = find_exercise(lesson_json, exercise);
    if (ex.review.empty()) return {};
    EditCheck ec = edit_check_text(pristine, student, file, ex.blanks);
    if (!ec.ok) return {};
    return apply_review_rules(ex.review, ec.fills, file, exercise);
}

std::vector<Comment> review_comments(const nlohmann::json& lesson_json, const std::string& exercise,
                                     const fs::path& student, const fs::path& pristine) {
    return review_comments_text(lesson_json, exercise, read_text(student), read_text(pristine),
                                student.filename().string());
}

std::vector<Comment> review_comments(const nlohmann::json& lesson_json, const std::string& exercise,
                                     const fs::path& student) {
    const ExerciseInfo ex = find_exercise(lesson_json, exercise);
    fs::path root;
    try {
        root = find_repo_root(fs::current_path());
    } catch (const UserError&) {
        return {};
    }
    const std::string lesson_id = manifest_lesson_id(lesson_json);
    for (const auto& id : lesson_ids(root)) {
        if (!lesson_id.empty() && id != lesson_id) continue;
        fs::path pristine = root / "grader" / "pristine" / id / ex.file;
        if (fs::exists(pristine)) return review_comments(lesson_json, exercise, student, pristine);
    }
    return {};
}

}  // namespace workbook::review
