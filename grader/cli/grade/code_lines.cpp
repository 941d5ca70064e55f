#include "grade/code_lines.hpp"

#include <re2/re2.h>

#include <sstream>
#include <vector>

#include "util/subprocess.hpp"

namespace fs = std::filesystem;

namespace workbook::grade {

std::string name_code_lines(const std::string& message, const fs::path& worker) {
    // The whole `pc … (+…)` and its offset.
    static const RE2 kAddress(R"((pc 0x[0-9a-f]+ \(\+(0x[0-9a-f]+)\)))");
    std::vector<std::string> offsets;
    {
        re2::StringPiece rest(message), whole;
        std::string off;
        while (RE2::FindAndConsume(&rest, kAddress, &whole, &off)) offsets.push_back(off);
    }
    if (offsets.empty() || worker.empty()) return message;
    std::vector<std::string> argv = {"addr2line", "-e", worker.string()};
    argv.insert(argv.end(), offsets.begin(), offsets.end());
    const util::RunResult r = util::run_program(argv, {}, 10);
    if (!r.started || r.exit_code != 0) return message;
    std::vector<std::string> places;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
        const auto disc = line.find(" (discriminator");
        if (disc != std::string::npos) line.erase(disc);
        places.push_back(line);
    }
    if (places.size() != offsets.size()) return message;  // a warning among the answers: leave the addresses
    std::string out;
    const char* from = message.data();
    const char* const end = message.data() + message.size();
    re2::StringPiece rest(message), whole;
    std::string off;
    for (std::size_t k = 0; RE2::FindAndConsume(&rest, kAddress, &whole, &off); ++k) {
        out.append(from, static_cast<std::size_t>(whole.data() - from));
        const std::string& place = places[k];
        const std::size_t colon = place.rfind(':');
        // The source as the student knows it: its file name and line (the worker was built from a private copy).
        const bool known = place.rfind("??", 0) != 0 && colon != std::string::npos && place.substr(colon + 1) != "0";
        out += known ? fs::path(place.substr(0, colon)).filename().string() + place.substr(colon) : std::string(whole);
        from = whole.data() + whole.size();
    }
    out.append(from, static_cast<std::size_t>(end - from));
    return out;
}

}  // namespace workbook::grade
