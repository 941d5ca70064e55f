// A written-answer rubric, parsed and checked. Format "workbook-written-rubric/2" (grader/rubrics/README.md):
// concepts are key ideas, each met by any of its claims; a claim names synonym classes of the rubric's lexicon
// that must occur together (in one sentence, or in two that follow each other) with a polarity: "affirmed" (said,
// not negated), "denied" (said negated: "does not depend on the input") or "any". A rubric without "format" is
// the first version: concepts as regular expressions, matched as they are (kept so old rubrics still load).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "written/lexicon.hpp"

namespace re2 {
class RE2;
}

namespace workbook::written {

inline constexpr const char* kFormat = "workbook-written-rubric/2";

enum class Polarity { affirmed, denied, any };

struct Claim {
    std::vector<int> terms;  // lexicon classes
    Polarity polarity = Polarity::affirmed;
    int window = 2;        // sentences the terms may spread over; 0: one clause of one sentence
    bool ordered = false;  // the terms must occur in this order ("output ... too large")
};

struct Concept {
    std::string id, description;
    std::string found_text, missing_text, contradiction_text;  // how a teaching assistant says it
    double weight = 1;
    std::vector<Claim> any;              // version 2: one of these says the idea
    std::vector<Claim> contradicted_by;  // version 2: these say the opposite; the idea is then not credited
    std::vector<std::shared_ptr<const re2::RE2>> patterns;  // version 1
};

struct Item {
    std::string id;
    double points = 0;
    std::size_t min_chars = 0;
    bool needs_cause = true;  // version 2: an answer without a causal connective earns nothing
    std::vector<Concept> concepts;
};

struct Rubric {
    int version = 1;
    std::shared_ptr<Lexicon> lexicon;  // version 2
    std::vector<Item> items;
};

// Throws RubricError naming `label` and the part that is wrong.
Rubric parse_rubric(const nlohmann::json& rubric, const std::string& label);

}  // namespace workbook::written
