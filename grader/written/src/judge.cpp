#include "written/judge.hpp"

#include <cmath>
#include <set>

#include <re2/re2.h>

namespace workbook::written {
namespace {

constexpr double kMinFunctionShare = 0.1;  // "the", "is", "of" …: about a third of English prose, 0 in a list
constexpr int kMaxContentRun = 7;          // more bare terms in a row than any sentence of this subject needs
// A full answer is one to three paragraphs; the rest of a longer one is not read, so that a 1 MiB answers.md costs
// the grader what a long answer does.
constexpr std::size_t kMaxAnswerChars = 20000;

// `s` cut after `n` code points (UTF-8).
std::string first_code_points(const std::string& s, std::size_t n) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && count++ == n) return s.substr(0, i);
    return s;
}

double round_down_half(double x) { return std::floor(x * 2.0 + 1e-9) / 2.0; }

// A sentence as the claims see it: its occurrences, each knowing whether it lies in a negated stretch.
struct Reading {
    std::vector<Occurrence> occ;
    std::vector<bool> negated;  // per occurrence
    std::vector<int> segment;   // per occurrence: the clause it starts in
    std::size_t size = 0;
};

// A rubric phrase that covers a negator claims its words: "不" in "不变" (unchanged), "no longer" in "save", "skip"
// when the rubric lists it as a way to save.
bool covers(const Occurrence& outer, const Occurrence& inner) {
    return outer.start <= inner.start && inner.end <= outer.end;
}

Reading read(const Sentence& s, const Lexicon& lex) {
    Reading r;
    r.size = s.tokens.size();
    r.occ = lex.find(s.tokens);
    const int neg = lex.id("@negator"), post = lex.id("@post-negator"), cause = lex.id("@causal");
    std::vector<bool> negated(s.tokens.size(), false);
    auto negate = [&](std::size_t from, std::size_t to_segment_of) {
        const int seg = s.tokens[to_segment_of].segment;
        for (std::size_t t = from; t < s.tokens.size() && s.tokens[t].segment == seg; ++t) negated[t] = true;
    };
    for (const auto& o : r.occ) {
        if (o.cls != neg && o.cls != post && !o.denies) continue;
        // "不" inside "不变" (unchanged) or "无" inside "无穷" (infinite) is part of a word, not a negation.
        bool inside_word = false;
        for (const auto& other : r.occ)
            if (&other != &o && other.cls != neg && other.cls != cause && !other.denies && covers(other, o) &&
                (other.cls != post || o.cls == neg))
                inside_word = true;
        if (inside_word) continue;
        if (o.cls == post) {
            // "与输入无关": the whole clause it ends is negated.
            std::size_t first = o.start;
            while (first > 0 && s.tokens[first - 1].segment == s.tokens[o.start].segment) --first;
            negate(first, o.start);
        } else {
            // After the negator's first word, so that "left eps out" and "no longer" negate what they enclose.
            negate(o.cls == neg ? o.start + 1 : o.start, o.start);
        }
    }
    for (const auto& o : r.occ) {
        r.negated.push_back(o.denies || negated[o.start]);
        r.segment.push_back(s.tokens[o.start].segment);
    }
    return r;
}

// Whether the sentences `rs[i .. i+window)` say the claim with its polarity. Affirmed: every term occurs outside a
// negated stretch. Denied: the last of the terms lies in one, so "depends on N, not on the input" denies
// depend+input while it affirms depend+N. Ordered claims need their terms in the rubric's order. Window 0 is one
// clause (`segment` of sentence i): what a contradiction must say in one breath.
bool says(const Claim& c, const std::vector<Reading>& rs, std::size_t i, int segment) {
    struct At {
        std::size_t pos;
        bool negated;
    };
    std::vector<std::vector<At>> seen(c.terms.size());
    std::size_t offset = 0;
    const std::size_t window = c.window == 0 ? 1 : static_cast<std::size_t>(c.window);
    for (std::size_t k = i; k < rs.size() && k < i + window; ++k) {
        for (std::size_t o = 0; o < rs[k].occ.size(); ++o)
            for (std::size_t t = 0; t < c.terms.size(); ++t)
                if (rs[k].occ[o].cls == c.terms[t] && (c.window > 0 || rs[k].segment[o] == segment))
                    seen[t].push_back({offset + rs[k].occ[o].start, rs[k].negated[o]});
        offset += rs[k].size;
    }
    for (const auto& s : seen)
        if (s.empty()) return false;
    auto usable = [&](const At& a, bool last) {
        if (c.polarity == Polarity::affirmed) return !a.negated;
        if (c.polarity == Polarity::denied && last) return a.negated;
        return true;
    };
    if (c.ordered) {
        // Earliest usable occurrence of each term after the previous one; the last term may be any after them.
        std::size_t after = 0;
        bool first = true;
        for (std::size_t t = 0; t < seen.size(); ++t) {
            const bool last = t + 1 == seen.size();
            bool got = false;
            for (const auto& a : seen[t])
                if ((first || a.pos > after) && usable(a, last)) {
                    after = a.pos, got = true, first = false;
                    break;
                }
            if (!got) return false;
        }
        return true;
    }
    for (std::size_t t = 0; t < seen.size(); ++t)
        for (const auto& last : seen[t]) {
            if (!usable(last, true)) continue;
            bool others = true;
            for (std::size_t u = 0; u < seen.size() && others; ++u) {
                if (u == t) continue;
                bool any = false;
                for (const auto& a : seen[u]) any = any || (a.pos <= last.pos && usable(a, false));
                others = any;
            }
            if (others) return true;
        }
    return false;
}

bool says_any(const std::vector<Claim>& claims, const std::vector<Reading>& rs) {
    for (const auto& c : claims)
        for (std::size_t i = 0; i < rs.size(); ++i) {
            if (c.window > 0 && says(c, rs, i, 0)) return true;
            if (c.window == 0)
                for (int seg : std::set<int>(rs[i].segment.begin(), rs[i].segment.end()))
                    if (says(c, rs, i, seg)) return true;
        }
    return false;
}

std::string feedback_of(const Verdict& v) {
    std::string f = "Provisional until an instructor confirms.";
    if (v.too_short) return f + " Too short to score: write the answer out in sentences.";
    if (v.only_lists)
        return f +
               " This reads as a list of terms, not an explanation: no sentence says what happens, because of "
               "what, with what consequence, so no concept is credited.";
    if (v.truncated) f += " Only the first " + std::to_string(kMaxAnswerChars) + " characters were read.";
    if (v.no_cause)
        return f +
               " There are sentences but no causal link (because, so, otherwise, which means, 因为, 所以 …): say "
               "why things happen, not only what happens. No concept is credited until then.";
    for (const auto& c : v.concepts)
        if (c.state == ConceptVerdict::found) f += "\nFound: " + c.concept->found_text;
    for (const auto& c : v.concepts)
        if (c.state == ConceptVerdict::contradicted) f += "\nCheck: " + c.concept->contradiction_text;
    for (const auto& c : v.concepts)
        if (c.state == ConceptVerdict::missing) f += "\nMissing: " + c.concept->missing_text;
    return f;
}

// Few words, with a number or an operator: a formula or a figure, not a list.
bool is_formula_fragment(const Sentence& s) {
    if (s.words > 2) return false;
    for (const auto& t : s.tokens)
        if (t.kind == TokenKind::number || t.kind == TokenKind::symbol) return true;
    return false;
}

}  // namespace

bool has_structure(const Sentence& s) {
    if (s.words < 3 || s.function_words == 0) return false;
    // A formula's names ("unfused = 3mn + 2mn + n") are not prose: one function word holds it together.
    int operators = 0;
    for (const auto& t : s.tokens) operators += t.kind == TokenKind::symbol;
    // Words of Chinese are about two characters long: the share is taken per word, not per character.
    const double words = s.words - s.han / 2.0;
    if (operators < 3 && static_cast<double>(s.function_words) < kMinFunctionShare * words) return false;
    if (s.longest_content_run >= kMaxContentRun) return false;
    // "eps, sqrt, N, NaN, the barrier": most clauses one or two words long.
    if (s.items >= 4 && 2 * s.short_items >= s.items) return false;
    return true;
}

Verdict judge(const Rubric& rubric, const Item& item, const std::string& full_answer) {
    Verdict v;
    v.truncated = code_points(full_answer) > kMaxAnswerChars;
    const std::string answer = v.truncated ? first_code_points(full_answer, kMaxAnswerChars) : full_answer;
    v.max_score = item.points;
    v.too_short = code_points(answer) < item.min_chars;
    double total = 0, credited = 0;
    for (const auto& c : item.concepts) total += c.weight;

    if (rubric.version == 1) {
        for (const auto& c : item.concepts) {
            bool hit = false;
            for (const auto& re : c.patterns) hit = hit || RE2::PartialMatch(answer, *re);
            v.concepts.push_back({hit ? ConceptVerdict::found : ConceptVerdict::missing, &c});
            if (hit) credited += c.weight;
        }
    } else {
        // A formula fragment after a sentence ("N = 4096: 8x.") belongs to it; any other sentence without the shape
        // of one is left out, so a list of terms or a run of bare words says nothing.
        std::vector<Sentence> kept;
        for (auto& s : read_sentences(answer)) {
            if (has_structure(s)) {
                kept.push_back(std::move(s));
            } else if (!kept.empty() && is_formula_fragment(s)) {
                Sentence& prev = kept.back();
                for (auto t : s.tokens) {
                    t.segment += prev.segments;
                    prev.tokens.push_back(std::move(t));
                }
                prev.segments += s.segments;
            }
        }
        std::vector<Reading> rs;
        for (const auto& s : kept) rs.push_back(read(s, *rubric.lexicon));
        const int cause = rubric.lexicon->id("@causal");
        bool any_cause = false;
        for (const auto& r : rs)
            for (const auto& o : r.occ) any_cause = any_cause || o.cls == cause;
        v.only_lists = !v.too_short && rs.empty();
        v.no_cause = !v.too_short && !v.only_lists && item.needs_cause && !any_cause;
        const bool can_credit = !v.only_lists && !v.no_cause;
        for (const auto& c : item.concepts) {
            ConceptVerdict cv{ConceptVerdict::missing, &c};
            // A contradiction is reported even where the idea itself was not found: it is what the student must fix.
            if (can_credit && says_any(c.contradicted_by, rs)) cv.state = ConceptVerdict::contradicted;
            else if (can_credit && says_any(c.any, rs)) cv.state = ConceptVerdict::found;
            if (cv.state == ConceptVerdict::found) credited += c.weight;
            v.concepts.push_back(cv);
        }
    }
    if (!v.too_short) v.score = round_down_half(item.points * credited / total);
    v.feedback = feedback_of(v);
    return v;
}

}  // namespace workbook::written
