#include "solution_blanks.hpp"

#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

namespace lesson_test {

std::map<std::string, std::map<std::string, std::string>> solution_blanks(const std::filesystem::path& dir) {
    static const std::regex inline_blank(R"(/\*BLANK:(\w+)\*/([\s\S]*?)/\*END\*/)");
    static const std::regex open_line(R"(^\s*// BLANK:(\w+)\s*$)");
    static const std::regex close_line(R"(^\s*// END BLANK\s*$)");
    std::map<std::string, std::map<std::string, std::string>> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (e.path().extension() != ".cu") continue;
        std::ifstream in(e.path());
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        auto& blanks = out[e.path().stem().string()];
        for (auto it = std::sregex_iterator(text.begin(), text.end(), inline_blank); it != std::sregex_iterator(); ++it)
            blanks[(*it)[1].str()] = (*it)[2].str();
        std::istringstream lines(text);
        std::string line, open_id, body;
        while (std::getline(lines, line)) {
            std::smatch m;
            if (open_id.empty() && std::regex_match(line, m, open_line)) {
                open_id = m[1].str();
                body.clear();
            } else if (!open_id.empty() && std::regex_match(line, close_line)) {
                blanks[open_id] = body;
                open_id.clear();
            } else if (!open_id.empty()) {
                body += line + "\n";
            }
        }
        if (blanks.empty()) out.erase(e.path().stem().string());
    }
    return out;
}

std::string code_only(const std::string& code) {
    std::string out;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code.compare(i, 2, "//") == 0) {
            i = code.find('\n', i);
            if (i == std::string::npos) break;
            continue;
        }
        if (code.compare(i, 2, "/*") == 0) {
            i = code.find("*/", i + 2);
            if (i == std::string::npos) break;
            ++i;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(code[i]))) out += code[i];
    }
    return out;
}

}  // namespace lesson_test
