#include "review/comments.hpp"

#include <memory>

#include <re2/re2.h>

#include "util/errors.hpp"
#include "util/files.hpp"

namespace fs = std::filesystem;

namespace workbook::review {
namespace {

// RE2 (linear time, no stack growth with the subject's length): a fill is student text of any size.
std::shared_ptr<const RE2> compile_rule_pattern(const std::string& pattern, bool icase, const std::string& where) {
    RE2::Options o;
    o.set_case_sensitive(!icase);
    o.set_log_errors(false);
    auto re = std::make_shared<const RE2>(pattern, o);
    if (!re->ok())
        throw util::UserError(where + " has an invalid pattern (" + re->error() +
                              "); patterns are RE2 syntax, which has no lookaround or backreferences.");
    return re;
}

struct Compiled {
    std::shared_ptr<const RE2> re, unless;  // unless: null when the rule has none
};

Compiled compile_rule(const lesson::ReviewRule& rule, const std::string& where) {
    Compiled c;
    c.re = compile_rule_pattern(rule.pattern, rule.icase, where);
    if (!rule.unless.empty()) c.unless = compile_rule_pattern(rule.unless, rule.icase, where + " (\"unless\")");
    return c;
}

std::string rule_label(const std::string& exercise, std::size_t index) {
    return "lesson.json: review rule " + std::to_string(index + 1) + " of exercise '" + exercise + "'";
}

}  // namespace

void validate_review_rules(const lesson::Manifest& manifest) {
    for (const auto& ex : manifest.exercises)
        for (std::size_t i = 0; i < ex.review.size(); ++i) compile_rule(ex.review[i], rule_label(ex.name, i));
}

std::vector<Comment> apply_review_rules(const lesson::Exercise& exercise, const std::vector<Fill>& fills,
                                        const std::string& file) {
    std::vector<Comment> out;
    for (std::size_t i = 0; i < exercise.review.size(); ++i) {
        const lesson::ReviewRule& r = exercise.review[i];
        const Compiled c = compile_rule(r, rule_label(exercise.name, i));
        std::string subject;
        int line = 0;
        bool any = false;
        for (const auto& f : fills) {
            if (!r.blank.empty() && f.id != r.blank) continue;
            // Nothing to review in a `______` nor in a bug hunt's region as the starter has it: the hidden tests
            // and the emulator's report are the clue there, and a rule would give the bug away.
            if (f.unfilled || f.unchanged) continue;
            subject += (any ? "\n" : "") + (f.region_tokens.empty() ? f.tokens : f.region_tokens);
            if (!any) line = f.line;
            any = true;
        }
        if (!any) continue;
        const bool found = RE2::PartialMatch(subject, *c.re) && !(c.unless && RE2::PartialMatch(subject, *c.unless));
        if (found != r.when_present) continue;
        Comment comment;
        comment.file = file;
        comment.line = line;
        comment.text = r.comment;
        comment.veto = !r.veto.empty();
        comment.veto_kind = r.veto;
        comment.blank = r.blank;
        out.push_back(std::move(comment));
    }
    return out;
}

std::vector<Comment> review_comments_text(const lesson::Exercise& exercise, const std::string& student,
                                          const std::string& pristine, const std::string& file) {
    if (exercise.review.empty()) return {};
    EditCheck ec = edit_check_text(pristine, student, file, exercise.blank_ids());
    if (!ec.ok) return {};
    return apply_review_rules(exercise, ec.fills, file);
}

std::vector<Comment> review_comments(const lesson::Exercise& exercise, const fs::path& student,
                                     const fs::path& pristine) {
    return review_comments_text(exercise, util::read_text(student), util::read_text(pristine),
                                student.filename().string());
}

}  // namespace workbook::review
