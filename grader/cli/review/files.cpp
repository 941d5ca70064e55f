#include "review/files.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <system_error>

#include "review/errors.hpp"

namespace fs = std::filesystem;

namespace workbook::review {

bool valid_utf8(const std::string& text, int* bad_line) {
    int line = 1;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c == '\n') ++line;
        int extra;
        std::uint32_t cp;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3, cp = c & 0x07;
        } else {
            if (bad_line) *bad_line = line;
            return false;
        }
        for (int k = 1; k <= extra; ++k) {
            if (i + k >= n || (s[i + k] & 0xC0) != 0x80) {
                if (bad_line) *bad_line = line;
                return false;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        // Overlong forms and surrogates are as suspicious as stray bytes: refuse them too.
        static const std::uint32_t min_cp[] = {0, 0x80, 0x800, 0x10000};
        if (cp < min_cp[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            if (bad_line) *bad_line = line;
            return false;
        }
        i += extra + 1;
    }
    return true;
}

std::size_t utf8_length(const std::string& text) {
    std::size_t count = 0;
    for (unsigned char c : text)
        if ((c & 0xC0) != 0x80) ++count;
    return count;
}

std::string read_text(const fs::path& file) {
    std::error_code ec;
    auto st = fs::status(file, ec);
    if (ec || !fs::exists(st)) throw UserError("File not found: " + file.string() + ".");
    if (!fs::is_regular_file(st)) throw UserError(file.string() + " is not a regular file.");
    auto size = fs::file_size(file, ec);
    if (!ec && size > kMaxTextFile)
        throw UserError(file.string() + " is larger than 1 MiB (" + std::to_string(size) +
                        " bytes); exercise files are small text files, so it was not read.");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw UserError("Cannot read " + file.string() + ".");
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (text.size() > kMaxTextFile)
        throw UserError(file.string() + " is larger than 1 MiB; exercise files are small text files, so it was not read.");
    int bad_line = 0;
    if (!valid_utf8(text, &bad_line))
        throw UserError(file.string() + " is not UTF-8 text (first invalid byte on line " + std::to_string(bad_line) +
                        "); save it as UTF-8 and try again.");
    return text;
}

void write_text(const fs::path& file, const std::string& text) {
    if (file.has_parent_path()) fs::create_directories(file.parent_path());
    fs::path tmp = file;
    tmp += ".tmp-workbook";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw UserError("Cannot write " + file.string() + ".");
        out << text;
        if (!out.flush()) throw UserError("Cannot write " + file.string() + ".");
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw UserError("Cannot write " + file.string() + ".");
    }
}

fs::path new_backup_dir(const fs::path& repo_root) {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    fs::path base = repo_root / ".workbook" / "backups";
    fs::path dir = base / stamp;
    // Two destructive actions within one second must not share (and overwrite) a backup folder.
    for (int k = 2; fs::exists(dir); ++k) dir = base / (std::string(stamp) + "-" + std::to_string(k));
    fs::create_directories(dir);
    return dir;
}

fs::path backup_file(const fs::path& repo_root, const fs::path& backup_dir, const fs::path& file) {
    std::error_code ec;
    fs::path abs_file = fs::weakly_canonical(file, ec);
    fs::path abs_root = fs::weakly_canonical(repo_root, ec);
    fs::path rel = abs_file.lexically_relative(abs_root);
    if (rel.empty() || *rel.begin() == "..") rel = file.filename();
    fs::path dest = backup_dir / rel;
    fs::create_directories(dest.parent_path());
    fs::copy_file(file, dest, fs::copy_options::overwrite_existing, ec);
    if (ec) throw UserError("Could not save a backup of " + file.string() + " (" + ec.message() + "); nothing was changed.");
    return dest;
}

std::string display_path(const fs::path& p, const fs::path& base) {
    std::error_code ec;
    fs::path abs_p = fs::weakly_canonical(p, ec);
    fs::path abs_b = fs::weakly_canonical(base, ec);
    fs::path rel = abs_p.lexically_relative(abs_b);
    if (rel.empty() || *rel.begin() == "..") return p.string();
    return rel.string();
}

std::vector<fs::path> files_with_ext(const fs::path& dir, const std::string& ext) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace workbook::review
