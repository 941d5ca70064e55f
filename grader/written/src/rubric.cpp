#include "written/rubric.hpp"

#include <re2/re2.h>

#include "written/error.hpp"

namespace workbook::written {
namespace {

std::shared_ptr<const re2::RE2> compile(const std::string& pattern, const std::string& where) {
    RE2::Options o;
    o.set_case_sensitive(false);
    o.set_log_errors(false);
    auto re = std::make_shared<const RE2>(pattern, o);
    if (!re->ok())
        throw RubricError(where + ": invalid pattern '" + pattern + "' (" + re->error() +
                          "; patterns are RE2 syntax, without lookaround or backreferences).");
    return re;
}

// A claim: ["eps", "zero-row"] (affirmed, two sentences) or {"all": [...], "polarity": "denied", "window": 1}.
Claim claim(const nlohmann::json& j, Lexicon& lex, const std::string& where) {
    Claim c;
    const nlohmann::json terms = j.is_array() ? j : j.is_object() ? j.value("all", nlohmann::json()) : nlohmann::json();
    if (!terms.is_array() || terms.empty()) throw RubricError(where + ": a claim needs a non-empty list of terms.");
    for (const auto& t : terms) {
        if (!t.is_string() || t.get<std::string>().empty()) throw RubricError(where + ": a claim's terms are strings.");
        c.terms.push_back(lex.term(t.get<std::string>()));
    }
    if (j.is_object()) {
        const std::string p = j.value("polarity", std::string("affirmed"));
        if (p == "affirmed") c.polarity = Polarity::affirmed;
        else if (p == "denied") c.polarity = Polarity::denied;
        else if (p == "any") c.polarity = Polarity::any;
        else throw RubricError(where + ": polarity \"" + p + "\" is not affirmed, denied or any.");
        c.window = j.value("window", 2);
        c.ordered = j.value("ordered", false);
        if (c.window < 0 || c.window > 3)
            throw RubricError(where + ": a claim's window is 0 (one clause) to 3 sentences.");
    }
    return c;
}

}  // namespace

Rubric parse_rubric(const nlohmann::json& j, const std::string& label) {
    if (!j.is_object() || !j.contains("items") || !j["items"].is_array() || j["items"].empty())
        throw RubricError(label + " has no \"items\" list.");
    Rubric r;
    const std::string format = j.value("format", std::string());
    if (!format.empty() && format != kFormat)
        throw RubricError(label + ": format \"" + format + "\" is not " + kFormat + ".");
    r.version = format.empty() ? 1 : 2;
    if (r.version == 2) r.lexicon = std::make_shared<Lexicon>(j.value("lexicon", nlohmann::json::object()));
    for (const auto& ji : j["items"]) {
        Item item;
        item.id = ji.value("id", std::string());
        if (item.id.empty()) throw RubricError(label + ": an item has no \"id\".");
        if (!ji.contains("points") || !ji["points"].is_number())
            throw RubricError(label + ": item " + item.id + " has no numeric \"points\".");
        item.points = ji["points"].get<double>();
        item.min_chars = ji.value("min_chars", 0u);
        item.needs_cause = ji.value("needs_cause", true);
        double total = 0;
        for (const auto& jc : ji.value("concepts", nlohmann::json::array())) {
            Concept c;
            c.id = jc.value("id", std::string("?"));
            const std::string where = label + " item " + item.id + " concept " + c.id;
            c.description = jc.value("description", c.id);
            c.found_text = jc.value("found", c.description);
            c.missing_text = jc.value("missing", c.description);
            c.contradiction_text = jc.value("contradiction", "your answer says the opposite of this: " + c.description);
            c.weight = jc.value("weight", 1.0);
            total += c.weight;
            if (r.version == 1) {
                const auto patterns = jc.value("patterns", nlohmann::json::array());
                if (patterns.empty()) throw RubricError(label + ": a concept of item " + item.id + " has no patterns.");
                for (const auto& p : patterns)
                    c.patterns.push_back(compile(p.get<std::string>(), label + " item " + item.id));
            } else {
                for (const auto& cl : jc.value("any", nlohmann::json::array()))
                    c.any.push_back(claim(cl, *r.lexicon, where));
                for (const auto& cl : jc.value("contradicted_by", nlohmann::json::array()))
                    c.contradicted_by.push_back(claim(cl, *r.lexicon, where));
                if (c.any.empty()) throw RubricError(where + " has no claims (\"any\").");
            }
            item.concepts.push_back(std::move(c));
        }
        if (total <= 0) throw RubricError(label + ": item " + item.id + " has no concepts with positive weight.");
        r.items.push_back(std::move(item));
    }
    for (const auto& p : j.value("placeholders", nlohmann::json::array())) compile(p.get<std::string>(), label);
    return r;
}

}  // namespace workbook::written
