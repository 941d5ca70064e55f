#include "review/lookalike.hpp"

#include <cstdint>
#include <cstdio>

#include <cxxlex/cxxlex.hpp>

#include "review/tokens.hpp"

namespace workbook::review {
namespace {

// The code point of the UTF-8 sequence at s[i], or -1 when the bytes there are not one.
long code_point(const std::string& s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(k < s.size() ? s[k] : 0); };
    const unsigned char c = b(i);
    const int len = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (len == 0) return -1;
    long cp = c & (0x7f >> len);
    for (int k = 1; k < len; ++k) {
        if ((b(i + k) & 0xc0) != 0x80) return -1;
        cp = (cp << 6) | (b(i + k) & 0x3f);
    }
    return cp;
}

const char* what_it_is(long cp) {
    switch (cp) {
        case 0x00a0: return "a no-break space, which looks like a space";
        case 0x2007:
        case 0x2009:
        case 0x202f:
        case 0x3000: return "a space other than the ASCII one";
        case 0x200b:
        case 0x200c:
        case 0x200d:
        case 0x2060:
        case 0xfeff: return "an invisible zero-width character";
        case 0x2212: return "the minus sign of typesetting, which looks like `-`";
        case 0x2013:
        case 0x2014: return "a dash, which looks like `-`";
        case 0x00d7: return "the multiplication sign, which looks like `x` or `*`";
        case 0x00b7:
        case 0x22c5: return "a dot operator of typesetting, not `*`";
        case 0x2018:
        case 0x2019:
        case 0x201c:
        case 0x201d: return "a typographic quote";
        case 0x2264:
        case 0x2265: return "a typeset `<=` or `>=`";
        default: return nullptr;
    }
}

}  // namespace

std::string lookalike_note(const std::string& source, const std::string& file) {
    for (const Tok& t : code_tokens(source)) {
        if (t.kind == cxxlex::Kind::string || t.kind == cxxlex::Kind::character) continue;
        for (std::size_t i = 0; i < t.text.size(); ++i) {
            if (static_cast<unsigned char>(t.text[i]) < 0x80) continue;
            const long cp = code_point(t.text, i);
            char name[16];
            if (cp < 0) std::snprintf(name, sizeof name, "the byte 0x%02X", static_cast<unsigned char>(t.text[i]));
            else std::snprintf(name, sizeof name, "U+%04lX", cp);
            const char* what = cp < 0 ? nullptr : what_it_is(cp);
            return file + ":" + std::to_string(t.line) + " holds " + name +
                   (what ? std::string(" (") + what + ")" : "") +
                   " in its code, outside a comment: the compiler reads only ASCII there, so retype that character "
                   "(text pasted from a web page or a PDF often brings such characters).";
        }
    }
    return "";
}

}  // namespace workbook::review
