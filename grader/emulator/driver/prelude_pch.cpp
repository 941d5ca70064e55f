#include "prelude_pch.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>

#include "files.hpp"

namespace emu::driver {

namespace {

// The line marker by which the preprocessor returns to the command line after a forced include (-include):
// `# 0 "<command-line>" 2`. Returns the start of the next such line at or after `from`, and its end in *line_end.
std::size_t next_return_marker(const std::string& text, std::size_t from, std::size_t* line_end) {
    static const std::string tail = " \"<command-line>\" 2\n";
    for (std::size_t at = text.find(tail, from); at != std::string::npos; at = text.find(tail, at + 1)) {
        const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
        // "# <digits>" and nothing else before the file name: a line marker, not text that happens to hold one.
        bool marker = at > start + 2 && text.compare(start, 2, "# ") == 0;
        for (std::size_t i = start + 2; marker && i < at; ++i) marker = text[i] >= '0' && text[i] <= '9';
        if (!marker) continue;
        *line_end = at + tail.size();
        return start;
    }
    return std::string::npos;
}

// FNV-1a, 64 bits: names the files only. Their contents are compared in full before use, so a collision costs the
// precompiled header, never correctness.
std::string hash_hex(const std::string& s) {
    std::uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

}  // namespace

PreludeSpan find_prelude(const std::string& text) {
    PreludeSpan span;
    std::size_t first_end = 0, second_end = 0;
    // The first return is from the compiler's own stdc-predef.h; the prelude (emu/rewritten.hpp, forced first by
    // emu-nvcc) follows it up to the next return, after which the file itself begins.
    if (next_return_marker(text, 0, &first_end) == std::string::npos) return span;
    const std::size_t second = next_return_marker(text, first_end, &second_end);
    if (second == std::string::npos) return span;
    const std::size_t first_line_end = text.find('\n', first_end);
    if (first_line_end == std::string::npos || first_line_end > second ||
        text.substr(first_end, first_line_end - first_end).find("emu/rewritten.hpp\" 1") == std::string::npos)
        return span;
    span.begin = first_end;
    span.end = second;
    span.rest = second_end;
    span.found = true;
    return span;
}

PreludePch prelude_pch_files(const std::string& dir, const std::string& text, const PreludeSpan& span,
                             const std::string& cxx, const std::vector<std::string>& flags) {
    PreludePch p;
    p.command = cxx + "\n";
    for (const std::string& f : flags) p.command += f + "\n";
    // The header opens and closes the command line's forced include as the translation unit did, so that g++'s
    // "In file included from …" notes for the prelude's lines read the same with the .gch as without it.
    const std::string leave = text.substr(span.end, span.rest - span.end);
    const std::string enter = leave.substr(0, leave.size() - 3) + "\n";  // without the " 2" flag: the file itself
    p.header_text = enter + text.substr(span.begin, span.end - span.begin) + leave;
    const std::string base = dir + "/" + hash_hex(p.command + '\0' + p.header_text);
    p.header = base + ".hpp";
    p.gch = base + ".hpp.gch";
    p.stamp = base + ".stamp";
    return p;
}

std::string prelude_pch_stamp(const PreludePch& p) {
    struct stat st {};
    if (::stat(p.gch.c_str(), &st) != 0) return "";
    return p.command + "gch " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + "\n";
}

std::string text_with_prelude_pch(const PreludePch& p, const std::string& text, const PreludeSpan& span) {
    std::string stamp, header;
    const std::string now = prelude_pch_stamp(p);
    if (now.empty() || !read_file(p.stamp, &stamp) || stamp != now) return "";
    if (!read_file(p.header, &header) || header != p.header_text) return "";
    if (p.gch.find_first_of("\"\\\n") != std::string::npos) return "";  // not a name the pragma's string can hold
    // The pragma stands where the header's text stood: between the compiler's own stdc-predef.h and the file itself.
    return text.substr(0, span.begin) + "#pragma GCC pch_preprocess \"" + p.gch + "\"\n" + text.substr(span.rest);
}

}  // namespace emu::driver
