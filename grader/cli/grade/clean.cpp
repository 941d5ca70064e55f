#include "clean.hpp"

#include "util/util.hpp"

namespace workbook::grade {

namespace {

void text(std::string& s) { s = util::sanitize_text(s); }
void name(std::string& s) { s = util::sanitize_name(s); }
void texts(std::vector<std::string>& v) {
    for (auto& s : v) text(s);
}

}  // namespace

Run clean_copy(const Run& run) {
    Run r = run;
    text(r.backend_reason);
    name(r.gpu_name);
    name(r.submission_label);
    name(r.only_exercise);
    texts(r.notes);
    text(r.verdict);
    for (auto& ex : r.exercises) {
        text(ex.unfilled_message);
        texts(ex.unfilled);
        text(ex.static_compile);
        text(ex.build.message);
        text(ex.list_error);
        for (auto& g : ex.groups) text(g.note);
        for (auto& t : ex.tests) {
            name(t.test.name);
            name(t.test.group);
            text(t.message);
            text(t.output);
        }
    }
    for (auto& w : r.written) text(w.feedback);
    for (auto& v : r.vetoes) {
        text(v.reason);
        text(v.diff);
    }
    for (auto& c : r.comments) {
        name(c.where);
        text(c.text);
    }
    return r;
}

void clean_json(nlohmann::json& j) {
    if (j.is_string()) {
        j = util::sanitize_text(j.get<std::string>());
    } else if (j.is_array()) {
        for (auto& x : j) clean_json(x);
    } else if (j.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto& [k, v] : j.items()) {
            clean_json(v);
            out[util::sanitize_name(k)] = std::move(v);
        }
        j = std::move(out);
    }
}

}  // namespace workbook::grade
