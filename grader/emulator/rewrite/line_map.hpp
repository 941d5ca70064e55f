// Where each line of `g++ -E` output came from, read from its line markers (`# 12 "file.cu" 1 3`): the rewriter and
// emu-nvcc report problems at the original file and line with it.
#pragma once
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace emu::rewrite {

class LineMap {
 public:
    explicit LineMap(std::string_view text) {
        std::string file;
        int line = 1;
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string_view::npos) end = text.size();
            const std::string_view l = text.substr(start, end - start);
            std::size_t p = 0;
            while (p < l.size() && (l[p] == ' ' || l[p] == '\t')) ++p;
            int number = 0;
            std::string name;
            if (marker(l.substr(p), &number, &name)) {
                lines_.push_back({file, line});  // the marker line itself
                file = name;
                line = number;
            } else {
                lines_.push_back({file, line++});
            }
            if (end == text.size()) break;
            start = end + 1;
        }
    }
    // 1-based line of the preprocessed text → original file and line.
    std::pair<std::string, int> at(int line) const {
        if (line < 1 || lines_.empty()) return {"", line};
        const auto& e = lines_[std::min<std::size_t>(static_cast<std::size_t>(line - 1), lines_.size() - 1)];
        return {e.first, e.second};
    }

 private:
    std::vector<std::pair<std::string, int>> lines_;

    // `# N "name" flags…` or `#line N "name"`.
    static bool marker(std::string_view l, int* number, std::string* name) {
        if (l.empty() || l[0] != '#') return false;
        std::size_t p = 1;
        while (p < l.size() && l[p] == ' ') ++p;
        if (l.compare(p, 4, "line") == 0) p += 4;
        while (p < l.size() && l[p] == ' ') ++p;
        if (p >= l.size() || l[p] < '0' || l[p] > '9') return false;
        long n = 0;
        while (p < l.size() && l[p] >= '0' && l[p] <= '9') n = n * 10 + (l[p++] - '0');
        while (p < l.size() && l[p] == ' ') ++p;
        if (p >= l.size() || l[p] != '"') return false;
        std::string s;
        for (++p; p < l.size() && l[p] != '"'; ++p) {
            if (l[p] == '\\' && p + 1 < l.size()) ++p;
            s += l[p];
        }
        *number = static_cast<int>(n);
        *name = s;
        return true;
    }
};

}  // namespace emu::rewrite
