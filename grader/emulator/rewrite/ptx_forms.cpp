#include "ptx_forms.hpp"

#include <map>

namespace emu::rewrite {

namespace {

// Register, with the width its mov reads (u32 into "=r", u64 into "=l"), and the emulator's function
// (include/emu/ptx_registers.hpp). %smid, %nsmid and %warpid name hardware placement the emulator does not have; they
// stay refused.
struct Register {
    const char* mov;
    const char* constraint;
    const char* function;
};
const std::map<std::string, Register>& registers() {
    static const std::map<std::string, Register> r = {
        {"laneid", {"mov.u32", "\"=r\"", "ptx_laneid"}},
        {"lanemask_eq", {"mov.u32", "\"=r\"", "ptx_lanemask_eq"}},
        {"lanemask_lt", {"mov.u32", "\"=r\"", "ptx_lanemask_lt"}},
        {"lanemask_le", {"mov.u32", "\"=r\"", "ptx_lanemask_le"}},
        {"lanemask_gt", {"mov.u32", "\"=r\"", "ptx_lanemask_gt"}},
        {"lanemask_ge", {"mov.u32", "\"=r\"", "ptx_lanemask_ge"}},
        {"clock", {"mov.u32", "\"=r\"", "ptx_clock"}},
        {"clock64", {"mov.u64", "\"=l\"", "ptx_clock64"}},
        {"globaltimer", {"mov.u64", "\"=l\"", "ptx_globaltimer"}},
    };
    return r;
}

// The text of a plain string literal without its quotes; nothing for prefixed or raw literals.
std::optional<std::string> literal(std::string_view t) {
    if (t.size() < 2 || t.front() != '"' || t.back() != '"') return std::nullopt;
    return std::string(t.substr(1, t.size() - 2));
}

}  // namespace

std::optional<PtxRead> ptx_special_register_read(const std::function<std::string_view(std::size_t)>& text,
                                                 std::size_t count, std::size_t at) {
    std::size_t i = at + 1;
    while (i < count && (text(i) == "volatile" || text(i) == "__volatile__")) ++i;
    if (i >= count || text(i) != "(") return std::nullopt;
    std::string tmpl;
    for (++i; i < count; ++i) {
        const auto s = literal(text(i));
        if (!s) break;
        tmpl += *s;
    }
    if (i >= count || text(i) != ":") return std::nullopt;
    const std::string_view constraint = i + 1 < count ? text(i + 1) : std::string_view();
    i += 2;
    if (i >= count || text(i) != "(") return std::nullopt;
    // The output operand: an lvalue expression up to the matching ')'.
    int depth = 0;
    std::string lvalue;
    std::size_t j = i;
    for (; j < count; ++j) {
        if (text(j) == "(") ++depth;
        else if (text(j) == ")" && --depth == 0) break;
        if (j > i) lvalue += (lvalue.empty() ? "" : " ") + std::string(text(j));
    }
    // After the output: no input operand; empty sections and clobbers (`: : "memory"`) change nothing here.
    std::size_t k = j + 1;
    while (k < count && (text(k) == ":" || text(k) == "::" || text(k) == "," || literal(text(k)))) ++k;
    if (k + 1 >= count || text(k) != ")" || text(k + 1) != ";" || lvalue.empty()) return std::nullopt;
    // "mov.u32 %0, %%laneid;" with any blanks, the final ';' optional.
    std::string t;
    for (char c : tmpl)
        if (c != ' ' && c != '\t' && c != '\n') t += c;
    if (!t.empty() && t.back() == ';') t.pop_back();
    const std::size_t comma = t.find(",%%");
    if (comma == std::string::npos) return std::nullopt;
    const std::size_t mov_end = t.find("%0");
    if (mov_end == std::string::npos || mov_end + 2 != comma) return std::nullopt;
    const auto r = registers().find(t.substr(comma + 3));
    if (r == registers().end() || t.substr(0, mov_end) != r->second.mov || constraint != r->second.constraint)
        return std::nullopt;
    return PtxRead{k + 1, "(" + lvalue + ") = ::emu::detail::" + r->second.function + "();"};
}

}  // namespace emu::rewrite
