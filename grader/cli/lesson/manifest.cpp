#include "lesson/manifest.hpp"

#include <set>

#include "util/errors.hpp"
#include "util/files.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace workbook::lesson {

namespace {

using util::UserError;

const char* type_name(const json& v) {
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "true or false";
    if (v.is_number()) return "a number";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return "null";
}

// One JSON object of the manifest, read key by key. Reading a key marks it known; done() then refuses every key that
// was not read, so a misspelt or obsolete key is an error instead of a setting that silently does nothing.
class Fields {
 public:
    Fields(const json& j, std::string where, const fs::path& file) : j_(j), where_(std::move(where)), file_(file) {
        if (!j_.is_object()) fail("is " + std::string(type_name(j_)) + ", not an object");
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw UserError(file_.string() + ": " + (where_.empty() ? "" : where_ + " ") + what + ".");
    }

    bool has(const char* key) const { return j_.contains(key); }

    const json& get(const char* key, bool (json::*is)() const, const char* expected) {
        seen_.insert(key);
        if (!j_.contains(key)) fail("has no key '" + std::string(key) + "' (" + expected + ")");
        const json& v = j_.at(key);
        if (!(v.*is)()) fail("'" + std::string(key) + "' is " + type_name(v) + ", not " + expected);
        return v;
    }

    std::string text(const char* key) {
        std::string s = get(key, &json::is_string, "a string").get<std::string>();
        if (s.empty()) fail("'" + std::string(key) + "' is empty");
        return s;
    }
    std::string text_or(const char* key, const std::string& fallback) {
        return has(key) ? text(key) : mark(key, fallback);
    }
    double number(const char* key) { return get(key, &json::is_number, "a number").get<double>(); }
    bool boolean_or(const char* key, bool fallback) {
        return has(key) ? get(key, &json::is_boolean, "true or false").get<bool>() : mark(key, fallback);
    }
    const json& array(const char* key) { return get(key, &json::is_array, "an array"); }
    const json& object(const char* key) { return get(key, &json::is_object, "an object"); }
    std::vector<std::string> texts(const char* key) {
        std::vector<std::string> out;
        for (const auto& v : array(key)) {
            if (!v.is_string()) fail("'" + std::string(key) + "' holds " + type_name(v) + "; it must hold strings");
            out.push_back(v.get<std::string>());
        }
        return out;
    }
    std::string where(const std::string& child) const { return (where_.empty() ? "" : where_ + ", ") + child; }
    // Errors from here on also name the object by what it holds: "exercises[2] (rmsnorm_half)".
    void name_as(const std::string& name) { where_ += " (" + name + ")"; }

    void done() const {
        for (auto it = j_.begin(); it != j_.end(); ++it)
            if (!seen_.count(it.key())) {
                std::string known;
                for (const auto& k : seen_) known += (known.empty() ? "" : ", ") + k;
                fail("has an unknown key '" + it.key() + "' (known here: " + known + ")");
            }
    }

 private:
    template <class T>
    T mark(const char* key, T value) {
        seen_.insert(key);
        return value;
    }

    const json& j_;
    std::string where_;
    const fs::path& file_;
    std::set<std::string> seen_;
};

ReviewRule parse_rule(const json& j, const std::string& where, const fs::path& file) {
    Fields f(j, where, file);
    ReviewRule r;
    r.blank = f.text_or("blank", "");
    r.pattern = f.text("pattern");
    r.unless = f.text_or("unless", "");
    const std::string when = f.text_or("when", "present");
    if (when != "present" && when != "absent") f.fail("has \"when\": \"" + when + "\"; use \"present\" or \"absent\"");
    r.when_present = when == "present";
    r.comment = f.text("comment");
    r.veto = f.text_or("veto", "");
    if (!r.veto.empty() && r.veto != "accident")
        f.fail("has \"veto\": \"" + r.veto + "\"; the one kind is \"accident\"");
    r.icase = f.boolean_or("icase", false);
    f.done();
    return r;
}

Blank parse_blank(const json& j, const std::string& where, const fs::path& file) {
    Fields f(j, where, file);
    Blank b;
    b.id = f.text("id");
    b.summary = f.text("summary");
    const auto hints = f.texts("hints");
    if (hints.size() != kHintLevels)
        f.fail("has " + std::to_string(hints.size()) + " hints; a blank has " + std::to_string(kHintLevels) +
               " (concept area, direction, key line, full answer)");
    for (std::size_t i = 0; i < kHintLevels; ++i) b.hints[i] = hints[i];
    f.done();
    return b;
}

Exercise parse_exercise(const json& j, const std::string& where, const fs::path& file) {
    Fields named(j, where, file);
    Exercise e;
    e.name = named.text("name");
    if (!is_plain_name(e.name))
        named.fail("has \"name\": \"" + e.name +
                   "\"; an exercise's name is letters, digits and '_' (it names its files, targets and tests)");
    named.name_as(e.name);
    e.title = named.text("title");
    e.section = named.text("section");
    e.entry_points = named.texts("entry_points");
    if (e.entry_points.empty()) named.fail("lists no entry points");
    std::set<std::string> ids;
    const json& blanks = named.array("blanks");
    for (std::size_t i = 0; i < blanks.size(); ++i) {
        e.blanks.push_back(parse_blank(blanks[i], named.where("blanks[" + std::to_string(i) + "]"), file));
        if (!ids.insert(e.blanks.back().id).second) named.fail("names blank '" + e.blanks.back().id + "' twice");
    }
    Fields points(named.object("points"), named.where("points"), file);
    for (const char* group : {"normal", "edge"}) e.points[group] = points.number(group);
    points.done();
    const json& rules = named.has("review") ? named.array("review") : json::array();
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const std::string at = named.where("review[" + std::to_string(i) + "]");
        e.review.push_back(parse_rule(rules[i], at, file));
        if (!e.review.back().blank.empty() && !ids.count(e.review.back().blank))
            throw UserError(file.string() + ": " + at + " names blank '" + e.review.back().blank +
                            "', which exercise '" + e.name + "' does not have.");
    }
    e.runs_on_emulator = named.text_or("runs_on_emulator", "");
    named.done();
    return e;
}

WrittenItem parse_written(const json& j, const std::string& where, const fs::path& file) {
    Fields f(j, where, file);
    WrittenItem w;
    w.id = f.text("id");
    w.points = f.number("points");
    w.group = f.text("group");
    if (w.group != "explanation" && w.group != "question")
        f.fail("has \"group\": \"" + w.group + "\"; use \"explanation\" or \"question\"");
    w.exercise = f.text("exercise");
    w.title = f.text("title");
    f.done();
    return w;
}

}  // namespace

bool is_plain_name(const std::string& name) {
    if (name.empty()) return false;
    for (const char c : name)
        if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
    return true;
}

std::vector<std::string> Exercise::blank_ids() const {
    std::vector<std::string> ids;
    for (const auto& b : blanks) ids.push_back(b.id);
    return ids;
}

const Blank* Exercise::blank(const std::string& id) const {
    for (const auto& b : blanks)
        if (b.id == id) return &b;
    return nullptr;
}

double Exercise::execution_points() const {
    double total = 0;
    for (const auto& [group, p] : points) total += p;
    return total;
}

const Exercise* Manifest::find(const std::string& name) const {
    for (const auto& e : exercises)
        if (e.name == name) return &e;
    return nullptr;
}

const Exercise& Manifest::exercise(const std::string& name) const {
    if (const Exercise* e = find(name)) return *e;
    std::string names;
    for (const auto& e : exercises) names += (names.empty() ? "" : ", ") + e.name;
    throw UserError("Unknown exercise '" + name + "'; this lesson has: " + names + ".");
}

std::vector<std::string> Manifest::exercise_names() const {
    std::vector<std::string> v;
    for (const auto& e : exercises) v.push_back(e.name);
    return v;
}

double Manifest::core_max() const {
    const Exercise* c = find(core);
    double total = c ? c->execution_points() : 0;
    for (const auto& w : written)
        if (w.exercise == core) total += w.points;
    return total;
}

Manifest parse_manifest(const json& j, const fs::path& file) {
    Fields f(j, "", file);
    Manifest m;
    m.file = file;
    const json& version = f.get("format_version", &json::is_number_integer, "a whole number");
    if (version.get<int>() != kFormatVersion)
        f.fail("has format_version " + version.dump() + "; this grader reads version " +
               std::to_string(kFormatVersion));
    m.slug = f.text("slug");
    m.title = f.text("title");
    Fields pass(f.object("pass"), "pass", file);
    m.min_score = pass.number("min_score");
    m.core = pass.text("core");
    pass.done();
    m.answers_file = f.text("answers_file");
    m.written_rubric = f.text_or("written_rubric", "");
    const json& exercises = f.array("exercises");
    if (exercises.empty()) f.fail("lists no exercises");
    for (std::size_t i = 0; i < exercises.size(); ++i) {
        m.exercises.push_back(parse_exercise(exercises[i], "exercises[" + std::to_string(i) + "]", file));
        if (m.exercises.back().name == m.core) m.exercises.back().core = true;
        for (std::size_t k = 0; k + 1 < m.exercises.size(); ++k)
            if (m.exercises[k].name == m.exercises.back().name)
                f.fail("lists exercise '" + m.exercises.back().name + "' twice");
    }
    if (!m.find(m.core)) f.fail("names core exercise '" + m.core + "' in \"pass\", which it does not list");
    const json& written = f.has("written") ? f.array("written") : json::array();
    for (std::size_t i = 0; i < written.size(); ++i) {
        const std::string at = "written[" + std::to_string(i) + "]";
        m.written.push_back(parse_written(written[i], at, file));
        if (!m.find(m.written.back().exercise))
            f.fail(at + " counts toward exercise '" + m.written.back().exercise + "', which it does not list");
    }
    f.done();
    return m;
}

Manifest read_manifest(const fs::path& file) { return parse_manifest(util::load_json(file), file); }

}  // namespace workbook::lesson
