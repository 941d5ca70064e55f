#include "written/formula.hpp"

#include <memory>
#include <utility>
#include <vector>

#include <re2/re2.h>

namespace workbook::written {
namespace {

struct Rewrite {
    std::unique_ptr<RE2> re;
    std::string with;
};

std::vector<Rewrite> make_rewrites() {
    // Order matters: notation first (LaTeX, Unicode), then the ideas built from it.
    const std::vector<std::pair<std::string, std::string>> rules = {
        {R"(\\(varepsilon|epsilon)|ε|ϵ|\bepsilon\b)", " eps "},
        {R"(\\frac\s*\{\s*1\s*\}\s*\{\s*\\sqrt)", " rsqrt "},
        {R"(\\sqrt\s*\[\s*4\s*\]\s*\{?\s*n\s*\}?)", " fourthrootn "},
        {R"(\\sqrt|√)", " sqrt "},
        {R"(\\(cdot|times)|·|×|⋅)", " * "},
        {R"(\\infty|∞)", " inf "},
        {R"(\\sum|∑)", " sum "},
        {R"(\\approx|≈)", " approx "},
        {R"(²)", "^2"},
        {R"(¼)", "(1/4)"},
        {R"(\\(mathrm|text|operatorname|mathbf|lvert|rvert|lVert|rVert|left|right|bigl|bigr|big))", " "},
        {R"(\{)", "("},
        {R"(\})", ")"},
        {R"(\$|\\)", " "},
        {R"(n['’]t\b)", " not"},
        {R"(['’]s\b)", ""},
        // Casts and float spellings of C++ say nothing about the math: static_cast<float>(n), (float)n, 1.0f, sqrtf.
        {R"(\bstatic_cast\s*<\s*\w+\s*>\s*\(\s*(\w+)\s*\))", " \\1 "},
        {R"(\(\s*(float|double|int)\s*\)\s*)", " "},
        {R"(\b(float|double)\s*\(\s*(\w+)\s*\))", " \\2 "},
        {R"(\b(\d+)\.0*f\b)", "\\1"},
        {R"(\b(\d+\.\d*[1-9])f\b)", "\\1"},
        {R"(\bsqrtf\b)", "sqrt"},
        // The reciprocal square root, however it is spelled.
        {R"(\b1\s*/\s*sqrtf?\s*\()", " rsqrt ( "},
        {R"(\b1\s*/\s*sqrtf?\b)", " rsqrt "},
        {R"(\brsqrtf?\b|\brsqrt\w*\b)", " rsqrt "},
        // The fourth root of N, and its reciprocal.
        {R"(\bn\s*(\^|\*\*)\s*\(?\s*-\s*(1\s*/\s*4|0?\.25)\s*\)?)", " 1 / fourthrootn "},
        {R"(\bn\s*(\^|\*\*)\s*\(?\s*(1\s*/\s*4|0?\.25)\s*\)?)", " fourthrootn "},
        {R"(\bsqrtf?\s*\(\s*sqrtf?\s*\(\s*n\s*\)\s*\))", " fourthrootn "},
        {R"(\bsqrtf?\s+sqrtf?\s*\(?\s*n\b\s*\)?)", " fourthrootn "},
        // "8x smaller", "8.46x": a factor, not an identifier.
        {R"(\b(\d+(\.\d+)?)x\b)", " \\1 times "},
        // Traffic counted in M x N elements.
        {R"(\b(\d+)\s*\*?\s*m\s*\*?\s*n\b)", " \\1mn "},
        {R"(\bm\s*(\*|x)\s*n\b)", " mxn "},
    };
    std::vector<Rewrite> out;
    RE2::Options o;
    o.set_log_errors(false);
    for (const auto& [pattern, with] : rules) out.push_back({std::make_unique<RE2>(pattern, o), with});
    // A square of a one-letter variable, with or without an index: x^2, x_i^2, x[i]**2, x*x, x[i] * x[i].
    for (const char* v : {"x", "h", "v", "y", "a"}) {
        const std::string var = std::string(R"(\b)") + v + R"((?:_\w+|\[\w+\])?)";
        out.push_back({std::make_unique<RE2>(var + R"(\s*(?:\^\s*(?:\(\s*2\s*\)|2)|\*\*\s*2)\b)", o),
                       std::string(" ") + v + "sq "});
        out.push_back({std::make_unique<RE2>(var + R"(\s*\*\s*)" + v + R"((?:_\w+|\[\w+\])?\b)", o),
                       std::string(" ") + v + "sq "});
    }
    return out;
}

}  // namespace

std::string canonical_formulas(const std::string& text) {
    static const std::vector<Rewrite> rewrites = make_rewrites();
    std::string s = text;
    for (auto& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    for (const auto& r : rewrites) RE2::GlobalReplace(&s, *r.re, r.with);
    return s;
}

}  // namespace workbook::written
