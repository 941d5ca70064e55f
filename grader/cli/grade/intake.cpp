#include "intake.hpp"

#include <stdlib.h>

#include "util.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;

std::string check_text_file(const fs::path& p, const std::string& label) {
    std::error_code ec;
    const auto st = fs::symlink_status(p, ec);
    if (ec || !fs::exists(st)) return label + " is missing";
    if (fs::is_symlink(st)) return label + " is a symbolic link, not a file";
    if (!fs::is_regular_file(st)) return label + " is not a regular file";
    auto size = fs::file_size(p, ec);
    if (size > kMaxSubmittedFile) return label + " is over the 1024 KiB limit for a submitted file";
    auto text = util::read_file(p);
    if (!text) return label + " cannot be read";
    if (text->find('\0') != std::string::npos) return label + " is a binary file, not source text";
    return {};
}

std::string replace_invalid_utf8(const std::string& text, std::vector<int>* lines) {
    std::string out;
    out.reserve(text.size());
    int line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n > 1 && (i + n > text.size() || !util::is_utf8(text.substr(i, n)))) n = 0;
        if (n == 0) {
            if (lines->empty() || lines->back() != line) lines->push_back(line);
            out += '?';
            ++i;
            continue;
        }
        if (c == '\n') ++line;
        out.append(text, i, n);
        i += n;
    }
    return out;
}

std::string invalid_utf8_warning(const std::string& file, const std::vector<int>& lines) {
    std::vector<std::string> where;
    for (std::size_t i = 0; i < lines.size() && i < 5; ++i) where.push_back(std::to_string(lines[i]));
    return file + ": line" + (lines.size() == 1 ? " " : "s ") + util::join(where, ", ") + (lines.size() > 5 ? ", …" : "") +
           (lines.size() == 1 ? " holds" : " hold") +
           " bytes that are not UTF-8 text (a file saved in another encoding?). It was graded anyway; save it as UTF-8.";
}

ReviewCopies::~ReviewCopies() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
}

fs::path ReviewCopies::copy(const fs::path& original, const std::string& text) {
    if (dir_.empty()) {
        char tmpl[] = "/tmp/workbook-review-XXXXXX";
        if (!::mkdtemp(tmpl)) return original;
        dir_ = tmpl;
    }
    const fs::path p = dir_ / lesson_id_ / original.filename();
    return util::write_file_atomic(p, text) ? p : original;
}

}  // namespace workbook::grade
