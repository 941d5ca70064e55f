#include "sanitizer_output.hpp"

#include <cstdlib>
#include <sstream>

namespace wb::remote {

namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// "ERROR SUMMARY: 3 errors", "RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)": the error count.
int summary_errors(const std::string& line) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) return 0;
    std::string rest = line.substr(colon + 1);
    const auto paren = rest.find('(');
    if (paren != std::string::npos) rest = rest.substr(paren + 1);  // racecheck: the errors are inside the brackets
    return std::atoi(rest.c_str());
}

}  // namespace

SanitizerReport parse_sanitizer_output(const std::string& output, std::size_t max_findings) {
    SanitizerReport r;
    std::istringstream in(output);
    std::string line;
    std::string current;
    auto flush = [&] {
        if (current.empty()) return;
        if (r.findings.size() < max_findings) r.findings.push_back(current);
        else ++r.findings_left_out;
        current.clear();
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!starts_with(line, "=========")) {
            flush();
            continue;
        }
        std::string body = line.size() > 9 ? line.substr(9) : std::string();
        const bool continuation = starts_with(body, "    ") || starts_with(body, "\t");
        if (!body.empty() && body[0] == ' ' && !continuation) body.erase(0, 1);
        if (starts_with(body, "COMPUTE-SANITIZER")) {
            r.started = true;
            continue;
        }
        if (body.find("SUMMARY:") != std::string::npos) {
            flush();
            r.finished = true;
            r.summary = body;
            r.errors = summary_errors(body);
            continue;
        }
        if (continuation) {
            if (!current.empty()) current += "\n" + body.substr(body.find_first_not_of(" \t"));
            continue;
        }
        flush();
        if (body.empty()) continue;
        // Lines that are no report of their own: the tool's notes about its own run.
        if (starts_with(body, "Target application returned") || starts_with(body, "Saved host backtrace") ||
            starts_with(body, "Host Frame") || starts_with(body, "Device Frame"))
            continue;
        current = body;
    }
    flush();
    return r;
}

nlohmann::json to_json(const std::string& tool, const SanitizerReport& report) {
    nlohmann::json j = {{"tool", tool},
                        {"started", report.started},
                        {"finished", report.finished},
                        {"errors", report.errors},
                        {"summary", report.summary},
                        {"findings", report.findings}};
    if (report.findings_left_out) j["findings_left_out"] = report.findings_left_out;
    return j;
}

}  // namespace wb::remote
