#include "util/files.hpp"

#include "util/util.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errors.hpp"

namespace fs = std::filesystem;

namespace workbook::util {

namespace {

// Why a file of this type is not read, or nullptr for a regular file.
const char* not_a_file(mode_t mode) {
    if (S_ISREG(mode)) return nullptr;
    if (S_ISLNK(mode))
        return " is a symbolic link; a submission holds the files themselves, so it was not followed or read.";
    if (S_ISDIR(mode)) return " is a folder, not a file.";
    if (S_ISFIFO(mode)) return " is a named pipe (FIFO), not a file; it was not opened.";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return " is a device file, not a file; it was not opened.";
    if (S_ISSOCK(mode)) return " is a socket, not a file; it was not opened.";
    return " is not a regular file; it was not opened.";
}

// "UTF-16" or "UTF-32" when `text` looks like text in one of those encodings (a byte order mark, or a 0 byte beside
// every ASCII character of its start), else "". Windows editors ("Unicode") and Windows PowerShell's `>` save so; the
// file is text to its author, not the "binary file" its 0 bytes would otherwise make it.
const char* wide_encoding(const std::string& text) {
    auto starts = [&](const char* bom, std::size_t n) { return text.compare(0, n, bom, n) == 0; };
    if (starts("\xff\xfe\0\0", 4) || starts("\0\0\xfe\xff", 4)) return "UTF-32";
    if (starts("\xff\xfe", 2) || starts("\xfe\xff", 2)) return "UTF-16";
    const std::size_t n = std::min<std::size_t>(text.size(), 200) & ~std::size_t{1};
    if (n < 8) return "";
    std::size_t low_ascii = 0, high_ascii = 0;  // little-endian: ASCII then 0; big-endian: 0 then ASCII
    for (std::size_t i = 0; i < n; i += 2) {
        const auto a = static_cast<unsigned char>(text[i]), b = static_cast<unsigned char>(text[i + 1]);
        low_ascii += a != 0 && a < 0x80 && b == 0;
        high_ascii += a == 0 && b != 0 && b < 0x80;
    }
    return 10 * std::max(low_ascii, high_ascii) >= 9 * (n / 2) ? "UTF-16" : "";
}

}  // namespace

Submitted read_submitted(const fs::path& file, const std::string& label) {
    Submitted r;
    struct stat before {};
    if (::lstat(file.c_str(), &before) != 0) {
        r.refusal = label + " is missing.";
        return r;
    }
    if (const char* why = not_a_file(before.st_mode)) {
        r.refusal = label + why;
        return r;
    }
    // Opened without following a link and without blocking, then checked to be the file lstat saw: a file swapped
    // for a link or a FIFO in between is refused, not read.
    const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        r.refusal = label + (errno == ELOOP ? not_a_file(S_IFLNK) : " cannot be read.");
        return r;
    }
    struct stat st {};
    const bool same = ::fstat(fd, &st) == 0 && st.st_dev == before.st_dev && st.st_ino == before.st_ino;
    if (!same || !S_ISREG(st.st_mode)) {
        ::close(fd);
        r.refusal = label + (same ? not_a_file(st.st_mode) : " changed while it was being read; grade again.");
        return r;
    }
    if (st.st_nlink > 1) {
        ::close(fd);
        r.refusal = label + " has " + std::to_string(st.st_nlink) +
                    " hard links: the same file also has another name, which may lie outside the submission folder, "
                    "so it was not read; hand in a copy of it instead.";
        return r;
    }
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxTextFile) {
        ::close(fd);
        r.refusal =
            label + " is " + std::to_string(st.st_size / 1024) + " KiB, over the 1024 KiB limit for a submitted file.";
        return r;
    }
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(fd);
            r.refusal = label + " cannot be read.";
            return r;
        }
        if (n == 0) break;
        text.append(buf, static_cast<std::size_t>(n));
        if (text.size() > kMaxTextFile) {
            ::close(fd);
            r.refusal = label + " is over the 1024 KiB limit for a submitted file.";
            return r;
        }
    }
    ::close(fd);
    if (const char* encoding = wide_encoding(text); *encoding) {
        r.refusal = label + " is saved as " + encoding +
                    ", a text encoding the compilers do not read (a 0 byte beside each character); save it as UTF-8 "
                    "(the editor's \"Save with Encoding\"; in Windows PowerShell, `> file` writes UTF-16) and grade "
                    "again.";
        return r;
    }
    if (text.find('\0') != std::string::npos) {
        r.refusal = label + " is a binary file, not source text.";
        return r;
    }
    if (!valid_utf8(text)) {
        r.refusal = label + " is not UTF-8 text; save it as UTF-8 and grade again.";
        r.not_utf8 = true;
        r.text = std::move(text);
        return r;
    }
    r.text = std::move(text);
    return r;
}

nlohmann::json load_json(const fs::path& file) {
    const std::string text = read_text(file);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw UserError(file.string() + " is not valid JSON (byte " + std::to_string(e.byte) + ").");
    }
}

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
    auto read = util::read_file(file);  // the one reader of bytes; the checks around it are this function's
    if (!read) throw UserError("Cannot read " + file.string() + ".");
    std::string text = std::move(*read);
    if (text.size() > kMaxTextFile)
        throw UserError(file.string() +
                        " is larger than 1 MiB; exercise files are small text files, so it was not read.");
    int bad_line = 0;
    if (!valid_utf8(text, &bad_line))
        throw UserError(file.string() + " is not UTF-8 text (first invalid byte on line " + std::to_string(bad_line) +
                        "); save it as UTF-8 and try again.");
    return text;
}

void write_text(const fs::path& file, const std::string& text) {
    // The one atomic writer (util::write_file_atomic), with this module's error convention.
    if (!util::write_file_atomic(file, text)) throw UserError("Cannot write " + file.string() + ".");
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
    if (ec)
        throw UserError("Could not save a backup of " + file.string() + " (" + ec.message() +
                        "); nothing was changed.");
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

}  // namespace workbook::util
