// Judges one written answer against one rubric item. Version 2 reads for meaning: only sentences count (a list of
// terms, or a run of content words with nothing to hold them together, is skipped), a causal connective must occur
// somewhere, and a concept counts when one of its claims is said with the right polarity and none of its
// contradicting claims is. The score is points x (credited weight / total weight), rounded down to 0.5.
#pragma once

#include <string>
#include <vector>

#include "written/rubric.hpp"

namespace workbook::written {

struct ConceptVerdict {
    enum State { found, missing, contradicted } state = missing;
    const Concept* concept = nullptr;
};

struct Verdict {
    double score = 0, max_score = 0;
    bool too_short = false;
    bool only_lists = false;  // no sentence with structure: a list of terms
    bool no_cause = false;    // sentences, but no causal connective anywhere
    bool truncated = false;   // longer than the judge reads (20 000 characters); the rest was not read
    std::vector<ConceptVerdict> concepts;
    // What a teaching assistant would write: what was found, what is missing, in the concepts' own words; it begins
    // by saying the score is provisional.
    std::string feedback;
};

Verdict judge(const Rubric& rubric, const Item& item, const std::string& answer);

// Whether a sentence has the shape of one (enough function words, not a list, no long run of bare terms).
bool has_structure(const Sentence& s);

}  // namespace workbook::written
