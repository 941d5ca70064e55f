#include "fill_leaks.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "lesson/markers.hpp"
#include "review/tokens.hpp"

namespace lesson_test {
namespace {

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Type names that may stand in a C-style cast: `(float)n`, `(size_t)row`.
bool is_type_word(const std::string& t) {
    static const std::set<std::string> words = {"int",     "float",    "double",  "unsigned", "signed",
                                                "long",    "short",    "char",    "bool",     "size_t",
                                                "int64_t", "uint64_t", "int32_t", "uint32_t", "uintptr_t"};
    return words.count(t) == 1;
}

bool starts_operand(const workbook::review::Tok& t) {
    return t.kind == cxxlex::Kind::identifier || t.kind == cxxlex::Kind::number || t.text == "(";
}

// A number by value: `0.0f`, `0.` and `0` are all 0; `0xffffffffu` is 4294967295.
std::string canonical_number(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), '\''), s.end());
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    while (!s.empty() && std::string(hex ? "uUlL" : "fFuUlL").find(s.back()) != std::string::npos) s.pop_back();
    char* end = nullptr;
    const double v = hex ? static_cast<double>(std::strtoull(s.c_str(), &end, 16)) : std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0') return s;  // not a plain number (a user-defined literal): keep its spelling
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

bool power_of_two(double v, int& log2) {
    if (v < 1 || v != static_cast<double>(static_cast<long long>(v))) return false;
    const long long n = static_cast<long long>(v);
    if ((n & (n - 1)) != 0) return false;
    log2 = 0;
    while ((1LL << log2) < n) ++log2;
    return true;
}

bool is_operand(const std::string& t) {
    return t == "ID" || (!t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) != 0));
}

constexpr const char* kSentinel = "lesson_fill_sentinel";

int line_of(const std::string& text, std::size_t pos) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

}  // namespace

std::vector<BlankFill> solution_fills(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".cu") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<BlankFill> out;
    for (const auto& f : files) {
        const std::string label = f.filename().string();
        const std::string solution = read_file(f);
        const auto starter = workbook::lesson::make_starter(solution, label);
        if (starter.blanks.empty()) continue;
        // One blank at a time is replaced by a sentinel; what differs from the stripped solution is that blank's
        // fill. (The edit check cannot tell apart two blanks with nothing between them; this can.)
        const std::string stripped = workbook::lesson::strip_markers(solution, label).text;
        for (const auto& b : starter.blanks) {
            const std::string marked = workbook::lesson::fill_blanks(solution, {{b.id, kSentinel}}, label).text;
            std::size_t pre = 0;
            while (pre < stripped.size() && pre < marked.size() && stripped[pre] == marked[pre]) ++pre;
            std::size_t post = 0;
            while (post < stripped.size() - pre && post < marked.size() - pre &&
                   stripped[stripped.size() - 1 - post] == marked[marked.size() - 1 - post])
                ++post;
            // The common prefix or suffix may run into the sentinel itself (a fill that starts "local_sum" shares
            // its "l" with "lesson_fill_sentinel"): the sentinel's own position bounds both.
            const std::size_t at = marked.find(kSentinel);
            if (at == std::string::npos || marked.find(kSentinel, at + 1) != std::string::npos)
                throw std::runtime_error(label + ": blank " + b.id + " could not be isolated");
            pre = std::min(pre, at);
            post = std::min(post, marked.size() - at - std::string(kSentinel).size());
            out.push_back({f.stem().string(), b.id, stripped.substr(pre, stripped.size() - pre - post)});
        }
    }
    return out;
}

std::vector<CodeRegion> code_regions(const std::string& md) {
    std::vector<CodeRegion> out;
    std::size_t pos = 0;
    std::string prose;  // text outside fences, with its start offsets, scanned for spans afterwards
    std::vector<std::pair<std::size_t, std::size_t>> prose_ranges;
    while (pos < md.size()) {
        std::size_t eol = md.find('\n', pos);
        if (eol == std::string::npos) eol = md.size();
        const std::string line = md.substr(pos, eol - pos);
        const std::size_t indent = line.find_first_not_of(' ');
        const bool fence = indent != std::string::npos && indent <= 3 &&
                           (line.compare(indent, 3, "```") == 0 || line.compare(indent, 3, "~~~") == 0);
        if (!fence) {
            prose_ranges.emplace_back(pos, eol);
            pos = eol + 1;
            continue;
        }
        const char c = line[indent];
        const std::size_t run = line.find_first_not_of(c, indent) == std::string::npos
                                    ? line.size() - indent
                                    : line.find_first_not_of(c, indent) - indent;
        std::size_t body = eol + 1, cur = body, end = md.size();
        while (cur < md.size()) {
            std::size_t e = md.find('\n', cur);
            if (e == std::string::npos) e = md.size();
            const std::string l = md.substr(cur, e - cur);
            const std::size_t i = l.find_first_not_of(' ');
            if (i != std::string::npos && i <= 3 && l.compare(i, run, std::string(run, c)) == 0 &&
                l.find_first_not_of(c, i) == std::string::npos) {
                end = cur;
                cur = e + 1;
                break;
            }
            cur = e + 1;
            end = cur;
        }
        out.push_back({line_of(md, body), md.substr(body, std::min(end, md.size()) - std::min(body, md.size()))});
        pos = cur;
    }
    for (const auto& [b, e] : prose_ranges) {
        const std::string line = md.substr(b, e - b);
        for (std::size_t i = 0; i < line.size();) {
            if (line[i] == '`') {
                std::size_t n = line.find_first_not_of('`', i) == std::string::npos
                                    ? line.size() - i
                                    : line.find_first_not_of('`', i) - i;
                const std::string ticks(n, '`');
                std::size_t close = line.find(ticks, i + n);
                while (close != std::string::npos && close + n < line.size() && line[close + n] == '`')
                    close = line.find(ticks, line.find_first_not_of('`', close));
                if (close == std::string::npos) break;
                out.push_back({line_of(md, b), line.substr(i + n, close - i - n)});
                i = close + n;
                continue;
            }
            if (line.compare(i, 8, "\\texttt{") == 0) {
                std::size_t j = i + 8;
                int depth = 1;
                std::string code;
                for (; j < line.size() && depth > 0; ++j) {
                    if (line[j] == '\\' && j + 1 < line.size() &&
                        std::string("_{}").find(line[j + 1]) != std::string::npos) {
                        code += line[++j];
                        continue;
                    }
                    if (line[j] == '{') ++depth;
                    if (line[j] == '}' && --depth == 0) break;
                    code += line[j];
                }
                out.push_back({line_of(md, b), code});
                i = j + 1;
                continue;
            }
            ++i;
        }
    }
    return out;
}

std::vector<std::string> normalized_tokens(const std::string& code) {
    using workbook::review::Tok;
    std::vector<Tok> toks;
    for (const auto& t : workbook::review::code_tokens(code))
        if (t.kind != cxxlex::Kind::preprocessor) toks.push_back(t);

    std::vector<std::string> out;
    for (std::size_t i = 0; i < toks.size(); ++i) {
        const Tok& t = toks[i];
        if (t.text == "const" || t.text == "{" || t.text == "}") continue;
        // static_cast<T>(e) -> (e): the angle brackets and what is between them go.
        if (t.text == "static_cast" || t.text == "reinterpret_cast" || t.text == "const_cast") {
            if (i + 1 < toks.size() && toks[i + 1].text == "<") {
                int depth = 0;
                std::size_t j = i + 1;
                for (; j < toks.size(); ++j) {
                    if (toks[j].text == "<") ++depth;
                    if (toks[j].text == ">" && --depth == 0) break;
                    if (toks[j].text == ">>" && (depth -= 2) <= 0) break;
                }
                i = j;
                continue;
            }
        }
        // (float)n -> n
        if (t.text == "(") {
            std::size_t j = i + 1;
            while (j < toks.size() && is_type_word(toks[j].text)) ++j;
            if (j > i + 1 && j + 1 < toks.size() && toks[j].text == ")" && starts_operand(toks[j + 1])) {
                i = j;
                continue;
            }
        }
        if (t.kind == cxxlex::Kind::number) {
            out.push_back(canonical_number(t.text));
        } else if (t.kind == cxxlex::Kind::identifier) {
            out.push_back("ID");
        } else {
            out.push_back(t.text);
        }
    }

    // A shift or mask by a constant says what a division or remainder by a power of two says.
    for (std::size_t i = 0; i + 1 < out.size(); ++i) {
        int k = 0;
        const std::string& op = out[i];
        char* end = nullptr;
        const double v = std::strtod(out[i + 1].c_str(), &end);
        if (end == out[i + 1].c_str() || *end != '\0') continue;
        char buf[64];
        if ((op == ">>" || op == ">>=" || op == "<<" || op == "<<=") && v >= 0 && v < 63) {
            std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(1LL << static_cast<int>(v)));
            out[i] = op == ">>" ? "/" : op == ">>=" ? "/=" : op == "<<" ? "*" : "*=";
            out[i + 1] = buf;
        } else if (op == "&" && power_of_two(v + 1, k) && v > 0) {
            std::snprintf(buf, sizeof buf, "%.17g", v + 1);
            out[i] = "%";
            out[i + 1] = buf;
        }
    }

    // Parentheses around a single operand say nothing: `(N)`, `((x))`, and the call parentheses of `f(x)`, on both
    // sides alike.
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<std::string> next;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i] == "(" && i + 2 < out.size() && is_operand(out[i + 1]) && out[i + 2] == ")") {
                next.push_back(out[i + 1]);
                i += 2;
                changed = true;
                continue;
            }
            next.push_back(out[i]);
        }
        out.swap(next);
    }
    return out;
}

std::size_t best_match_distance(const std::vector<std::string>& p, const std::vector<std::string>& t) {
    // Sellers' approximate substring match: a match may start anywhere in t, so row 0 costs nothing.
    std::vector<std::size_t> prev(t.size() + 1, 0), cur(t.size() + 1, 0);
    for (std::size_t i = 1; i <= p.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= t.size(); ++j)
            cur[j] = std::min({prev[j - 1] + (p[i - 1] == t[j - 1] ? 0u : 1u), prev[j] + 1, cur[j - 1] + 1});
        prev.swap(cur);
    }
    return *std::min_element(prev.begin(), prev.end());
}

std::size_t leak_threshold(std::size_t fill_tokens) { return fill_tokens / 10; }

std::vector<std::vector<std::string>> long_statements(const std::vector<std::string>& tokens) {
    std::vector<std::vector<std::string>> out;
    std::vector<std::string> cur;
    int depth = 0;
    for (const auto& t : tokens) {
        cur.push_back(t);
        if (t == "(" || t == "[") ++depth;
        if (t == ")" || t == "]") --depth;
        if (t == ";" && depth == 0) {
            if (cur.size() >= kLongStatement) {
                out.push_back(cur);
                // The value of an assignment is the key line without its target: `y[i] = <this>;`.
                int d = 0;
                for (std::size_t i = 0; i < cur.size(); ++i) {
                    const std::string& u = cur[i];
                    if (u == "(" || u == "[") ++d;
                    if (u == ")" || u == "]") --d;
                    if (d == 0 && (u == "=" || u == "+=" || u == "return")) {
                        std::vector<std::string> value(cur.begin() + static_cast<std::ptrdiff_t>(i) + 1, cur.end() - 1);
                        if (value.size() >= kLongStatement) out.push_back(std::move(value));
                        break;
                    }
                }
            }
            cur.clear();
        }
    }
    if (cur.size() >= kLongStatement) out.push_back(cur);
    return out;
}

std::vector<Leak> find_leaks(const std::vector<BlankFill>& fills, const std::string& markdown) {
    std::vector<Leak> leaks;
    const auto regions = code_regions(markdown);
    std::vector<std::vector<std::string>> region_tokens;
    for (const auto& r : regions) region_tokens.push_back(normalized_tokens(r.code));
    for (const auto& f : fills) {
        const auto whole = normalized_tokens(f.text);
        if (whole.empty()) continue;
        std::vector<std::vector<std::string>> patterns{whole};
        for (auto& s : long_statements(whole))
            if (s.size() < whole.size()) patterns.push_back(std::move(s));
        for (std::size_t r = 0; r < regions.size(); ++r) {
            for (const auto& pattern : patterns) {
                const std::size_t d = best_match_distance(pattern, region_tokens[r]);
                if (d <= leak_threshold(pattern.size())) {
                    leaks.push_back({f.exercise + "/" + f.blank, regions[r].line, d, regions[r].code});
                    break;
                }
            }
        }
    }
    return leaks;
}

}  // namespace lesson_test
