#include "written/lexicon.hpp"

#include <algorithm>

#include "written/error.hpp"
#include "written/language.hpp"

namespace workbook::written {
namespace {

constexpr int kMaxDepth = 8;     // {references} nest at most this deep (a cycle stops here rather than looping)
constexpr std::size_t kGap = 6;  // what "..." may skip: "load x + residual from hbm again"

}  // namespace

Lexicon::Lexicon(const nlohmann::json& classes) {
    add("@negator", negator_phrases());
    add("@post-negator", post_negator_phrases());
    add("@causal", causal_phrases());
    if (!classes.is_null() && !classes.is_object()) throw RubricError("\"lexicon\" must be an object of classes.");
    if (classes.is_object())
        for (const auto& [name, list] : classes.items()) {
            if (name.empty() || name[0] == '@') throw RubricError("lexicon class \"" + name + "\": reserved name.");
            if (!list.is_array() || list.empty())
                throw RubricError("lexicon class \"" + name + "\" must be a non-empty list of phrases.");
            std::vector<std::string> phrases;
            for (const auto& p : list) {
                if (!p.is_string()) throw RubricError("lexicon class \"" + name + "\": every phrase is a string.");
                phrases.push_back(p.get<std::string>());
            }
            add(name, phrases);
        }
    resolve();
}

int Lexicon::id(const std::string& name) const {
    auto it = ids_.find(name);
    return it == ids_.end() ? -1 : it->second;
}

int Lexicon::term(const std::string& term) {
    if (int c = id(term); c >= 0) return c;
    const int c = add(term, {term});
    resolve();
    return c;
}

int Lexicon::add(const std::string& name, const std::vector<std::string>& phrases) {
    std::vector<Phrase> compiled;
    for (std::string text : phrases) {
        Phrase p;
        if (!text.empty() && text[0] == '!') p.denies = true, text.erase(0, 1);
        std::string literal;
        auto flush = [&] {
            for (auto& t : phrase_tokens(literal)) p.parts.push_back({Part::literal, t, -1, {}});
            literal.clear();
        };
        for (std::size_t i = 0; i < text.size();) {
            if (text[i] == '{') {
                const std::size_t close = text.find('}', i);
                if (close == std::string::npos)
                    throw RubricError("lexicon class \"" + name + "\": unclosed { in \"" + text + "\".");
                flush();
                p.parts.push_back({Part::ref, {}, -1, text.substr(i + 1, close - i - 1)});
                i = close + 1;
            } else if (text.compare(i, 3, "...") == 0) {
                flush();
                p.parts.push_back({Part::gap, {}, -1, {}});
                i += 3;
            } else if (text[i] == '#') {
                flush();
                p.parts.push_back({Part::number, {}, -1, {}});
                ++i;
            } else {
                literal += text[i++];
            }
        }
        flush();
        if (std::none_of(p.parts.begin(), p.parts.end(), [](const Part& x) { return x.kind != Part::gap; }))
            throw RubricError("lexicon class \"" + name + "\": the phrase \"" + text + "\" has no word to match.");
        compiled.push_back(std::move(p));
    }
    const int c = static_cast<int>(names_.size());
    names_.push_back(name);
    by_first_.emplace_back();
    open_first_.emplace_back();
    for (std::size_t i = 0; i < compiled.size(); ++i) {
        const Part& first = compiled[i].parts.front();
        if (first.kind == Part::literal) by_first_.back()[first.token.form].push_back(i);
        else open_first_.back().push_back(i);
    }
    phrases_.push_back(std::move(compiled));
    ids_[name] = c;
    return c;
}

void Lexicon::resolve() {
    for (std::size_t c = 0; c < phrases_.size(); ++c)
        for (auto& p : phrases_[c])
            for (auto& part : p.parts)
                if (part.kind == Part::ref && part.cls < 0) {
                    part.cls = id(part.ref_name);
                    if (part.cls < 0)
                        throw RubricError("lexicon class \"" + names_[c] + "\" refers to {" + part.ref_name +
                                          "}, which is not a class.");
                }
}

void Lexicon::seq(const Phrase& p, std::size_t k, const std::vector<Token>& t, std::size_t pos, bool denies,
                  std::vector<Match>& out, Memo& memo, int depth) const {
    if (k == p.parts.size()) {
        out.push_back({pos, denies});
        return;
    }
    const Part& part = p.parts[k];
    switch (part.kind) {
        case Part::literal:
            if (pos < t.size() && t[pos].form == part.token.form) seq(p, k + 1, t, pos + 1, denies, out, memo, depth);
            break;
        case Part::number:
            if (pos < t.size() && t[pos].kind == TokenKind::number) seq(p, k + 1, t, pos + 1, denies, out, memo, depth);
            break;
        case Part::gap:
            for (std::size_t g = 0; g <= kGap && pos + g <= t.size(); ++g)
                seq(p, k + 1, t, pos + g, denies, out, memo, depth);
            break;
        case Part::ref:
            for (const auto& m : ends(part.cls, t, pos, memo, depth + 1))
                seq(p, k + 1, t, m.end, denies || m.denies, out, memo, depth);
            break;
    }
}

const std::vector<Lexicon::Match>& Lexicon::ends(int cls, const std::vector<Token>& t, std::size_t start, Memo& memo,
                                                 int depth) const {
    static const std::vector<Match> none;
    if (depth > kMaxDepth || start >= t.size()) return none;
    const std::size_t key = static_cast<std::size_t>(cls) * memo.stride + start;
    if (memo.done[key]) return memo.at[key];
    std::vector<Match> out;
    const auto c = static_cast<std::size_t>(cls);
    auto try_phrase = [&](std::size_t i) { seq(phrases_[c][i], 0, t, start, phrases_[c][i].denies, out, memo, depth); };
    if (auto it = by_first_[c].find(t[start].form); it != by_first_[c].end())
        for (std::size_t i : it->second) try_phrase(i);
    for (std::size_t i : open_first_[c]) try_phrase(i);
    // A match that ends where it starts (a phrase of gaps and empty references) says nothing.
    out.erase(std::remove_if(out.begin(), out.end(), [&](const Match& m) { return m.end <= start; }), out.end());
    memo.done[key] = true;
    memo.at[key] = std::move(out);
    return memo.at[key];
}

std::vector<Occurrence> Lexicon::find(const std::vector<Token>& tokens) const {
    Memo memo;
    memo.stride = tokens.size() + 1;
    memo.at.resize(names_.size() * memo.stride);
    memo.done.assign(names_.size() * memo.stride, false);
    std::vector<Occurrence> out;
    for (int c = 0; c < static_cast<int>(names_.size()); ++c)
        for (std::size_t s = 0; s < tokens.size(); ++s) {
            const auto& m = ends(c, tokens, s, memo, 0);
            if (m.empty()) continue;
            // The longest reading of this start; a denying reading of the same length wins (it is the more specific).
            Occurrence o{c, s, s, false};
            for (const auto& x : m)
                if (x.end > o.end || (x.end == o.end && x.denies)) o.end = x.end, o.denies = x.denies;
            out.push_back(o);
        }
    return out;
}

}  // namespace workbook::written
