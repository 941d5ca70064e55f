// Synonym classes: the words, phrases and symbols that say one idea ("N", "the hidden size", "the row length",
// "隐藏维度"). A class is a list of phrases; a phrase is text tokenized like an answer, in which
//   {name}  stands for any phrase of class `name` ("divide by {N}"),
//   ...     stands for up to six tokens of anything ("divide ... by {N}"),
//   #       stands for any number;
// and a leading "!" marks a phrase that says the idea negated ("!independent of" in class "depend"): what follows it
// in its clause is negated as after "not".
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "written/text.hpp"

namespace workbook::written {

struct Occurrence {
    int cls = -1;
    std::size_t start = 0, end = 0;  // tokens [start, end) of the sentence
    bool denies = false;             // a "!" phrase matched
};

class Lexicon {
 public:
    // `classes`: {"name": ["phrase", …], …}. Also holds the built-in classes of the language module, under the names
    // "@negator", "@post-negator" and "@causal". Throws RubricError for a malformed class or an unknown {reference}.
    explicit Lexicon(const nlohmann::json& classes);

    // The class of `term`: a class name, or else the term as a literal phrase (made into a class of its own).
    int term(const std::string& term);
    int id(const std::string& name) const;  // -1 when there is no such class
    const std::string& name(int cls) const { return names_[static_cast<std::size_t>(cls)]; }

    // Every occurrence of every class in `tokens`, longest first for the same class and start.
    std::vector<Occurrence> find(const std::vector<Token>& tokens) const;

 private:
    struct Part {
        enum Kind { literal, ref, gap, number } kind = literal;
        Token token;   // literal
        int cls = -1;  // ref
        std::string ref_name;
    };
    struct Phrase {
        std::vector<Part> parts;
        bool denies = false;
    };
    std::vector<std::string> names_;
    std::vector<std::vector<Phrase>> phrases_;
    // Per class, its phrases by their first literal token, and those that begin with a {reference}, a gap or a
    // number: a start token is tried only against the phrases that can begin there.
    std::vector<std::map<std::string, std::vector<std::size_t>>> by_first_;
    std::vector<std::vector<std::size_t>> open_first_;
    std::map<std::string, int> ids_;

    int add(const std::string& name, const std::vector<std::string>& phrases);
    void resolve();
    struct Match {
        std::size_t end;
        bool denies;
    };
    // Matches of each class at each start of one token list, computed once: [cls * (tokens + 1) + start].
    struct Memo {
        std::vector<std::vector<Match>> at;
        std::vector<bool> done;
        std::size_t stride = 0;
    };
    const std::vector<Match>& ends(int cls, const std::vector<Token>& t, std::size_t start, Memo& memo,
                                   int depth) const;
    void seq(const Phrase& p, std::size_t k, const std::vector<Token>& t, std::size_t pos, bool denies,
             std::vector<Match>& out, Memo& memo, int depth) const;
};

}  // namespace workbook::written
