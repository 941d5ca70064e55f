#include "tools/gradebook.hpp"

#include <cstdio>

namespace workbook::tools {

using nlohmann::json;

namespace {

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

std::string with_max(const std::string& name, double max) { return name + " (" + num(max) + ")"; }

// JSON pointers are built from lesson names; '~' and '/' never occur in them, but escape anyway.
std::string key(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
}

double points_of(const lesson::Lesson& lesson) {
    double total = 0;
    for (const auto& e : lesson.exercises)
        for (const auto& [g, p] : e.points) total += (g == "normal" || g == "edge") ? p : 0;
    for (const auto& w : lesson.written) total += w.points;
    return total;
}

}  // namespace

std::string csv_field(std::string s) {
    if (!s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@')) s = "'" + s;
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::vector<GradebookColumn> gradebook_columns(const lesson::Lesson& lesson) {
    std::vector<GradebookColumn> cols;
    const lesson::Exercise* core = lesson.find(lesson.core);
    if (core) {
        cols.push_back({with_max("core", lesson.core_max()), "/extra_data/core/score"});
        for (const char* g : {"normal", "edge"})
            if (auto it = core->points.find(g); it != core->points.end())
                cols.push_back({with_max(core->name + " " + g, it->second),
                                "/extra_data/exercises/" + key(core->name) + "/groups/" + g + "/score"});
        for (const auto& w : lesson.written)
            if (w.exercise == core->name)
                cols.push_back({with_max(w.id, w.points), "/extra_data/written/" + key(w.id) + "/score"});
    }
    for (const auto& e : lesson.exercises) {
        if (&e == core) continue;
        double max = 0;
        for (const auto& [g, p] : e.points) max += (g == "normal" || g == "edge") ? p : 0;
        cols.push_back({with_max(e.name, max), "/extra_data/exercises/" + key(e.name) + "/score"});
        for (const auto& w : lesson.written)
            if (w.exercise == e.name)
                cols.push_back(
                    {with_max(e.name + " " + w.id, w.points), "/extra_data/written/" + key(w.id) + "/score"});
    }
    cols.push_back({with_max("total", points_of(lesson)), "/score"});
    cols.push_back({"passed", "/extra_data/passed", false});
    cols.push_back({"backend", "/extra_data/backend", false});
    return cols;
}

std::string gradebook_csv(const lesson::Lesson& lesson, const std::vector<GradebookRow>& rows) {
    const auto cols = gradebook_columns(lesson);
    std::string csv = "student";
    for (const auto& c : cols) csv += "," + csv_field(c.header);
    csv += ",reason\n";
    for (const auto& r : rows) {
        csv += csv_field(r.student);
        for (const auto& c : cols) {
            std::string cell;
            if (r.results.is_object()) {
                const json::json_pointer p(c.pointer);
                if (r.results.contains(p)) {
                    const json& v = r.results[p];
                    if (v.is_number()) cell = num(v.get<double>());
                    else if (v.is_boolean()) cell = v.get<bool>() ? "yes" : "no";
                    else if (v.is_string()) cell = v.get<std::string>();
                } else if (c.points) {
                    cell = "0";  // an item this run did not grade scores 0 (never an empty cell that reads as "n/a")
                }
            }
            csv += "," + csv_field(cell);
        }
        std::string reason = r.error;
        if (reason.empty() && r.results.is_object()) {
            std::string joined;
            for (const auto& x : r.results.value("/extra_data/reasons"_json_pointer, json::array()))
                if (x.is_string()) joined += (joined.empty() ? "" : "; ") + x.get<std::string>();
            reason = joined;
        }
        csv += "," + csv_field(reason) + "\n";
    }
    return csv;
}

}  // namespace workbook::tools
