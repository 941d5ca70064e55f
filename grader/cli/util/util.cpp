#include "util/util.hpp"

#include <openssl/evp.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

namespace workbook::util {

std::optional<std::string> read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool write_file_atomic(const fs::path& p, const std::string& content) {
    std::error_code ec;
    if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
    fs::path tmp = p;
    tmp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return false;
        out << content;
        if (!out.flush()) return false;
    }
    fs::rename(tmp, p, ec);
    if (ec) {
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

// SHA-256 through OpenSSL's libcrypto. A cryptographic hash because verified.json and the worker cache must not
// accept content crafted to collide.
std::string sha256_hex(const std::string& data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &n, EVP_sha256(), nullptr) != 1 || n != 32)
        throw std::runtime_error("SHA-256 failed (OpenSSL)");
    char out[65];
    for (unsigned i = 0; i < 32; ++i) std::snprintf(out + 2 * i, 3, "%02x", digest[i]);
    return std::string(out, 64);
}

std::uint64_t random_u64() {
    std::random_device rd;  // /dev/urandom on Linux
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

std::string random_hex(int bytes) {
    std::string s;
    static const char* digits = "0123456789abcdef";
    std::random_device rd;
    for (int i = 0; i < bytes; ++i) {
        unsigned v = rd() & 0xff;
        s.push_back(digits[v >> 4]);
        s.push_back(digits[v & 15]);
    }
    return s;
}

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t utf8_seq(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n;
    std::uint32_t cp;
    if (c < 0x80) return 1;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        cp = c & 0x07;
    } else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (cc & 0x3f);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return 0;
    return n;
}
}  // namespace

bool is_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        std::size_t n = utf8_seq(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

namespace {

// The code point of the valid n-byte UTF-8 sequence at s[i].
std::uint32_t code_point(const std::string& s, std::size_t i, std::size_t n) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    return cp;
}

std::string sanitize(const std::string& s, bool one_line) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        std::size_t n = utf8_seq(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD
            ++i;
            continue;
        }
        const std::uint32_t cp = code_point(s, i, n);
        const bool kept_control = !one_line && (cp == '\n' || cp == '\t');
        if (cp == '\r' && !one_line) {
            // dropped: a bare CR would let a line overwrite itself on a terminal
        } else if ((cp < 0x20 && !kept_control) || (cp >= 0x7f && cp <= 0x9f)) {
            // Keep ANSI colour out of reports (a program could otherwise paint fake "PASSED" lines).
            out += '?';
        } else if (cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
                   cp == 0x200e || cp == 0x200f || cp == 0x061c) {
            out += '?';
        } else {
            out.append(s, i, n);
        }
        i += n;
    }
    return out;
}

}  // namespace

std::string sanitize_text(const std::string& s) { return sanitize(s, false); }
std::string sanitize_name(const std::string& s) { return sanitize(s, true); }

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> lines;
    std::string cur;
    for (char c : s) {
        if (c == '\n') {
            lines.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty()) lines.push_back(cur);
    return lines;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

std::string trim_lines(const std::string& s, std::size_t max_lines, bool tail) {
    auto lines = split_lines(s);
    std::vector<std::string> kept;
    std::size_t dropped = 0;
    if (lines.size() > max_lines) {
        dropped = lines.size() - max_lines;
        if (tail) kept.assign(lines.end() - static_cast<long>(max_lines), lines.end());
        else kept.assign(lines.begin(), lines.begin() + static_cast<long>(max_lines));
    } else {
        kept = lines;
    }
    for (auto& l : kept)
        if (l.size() > 300) l = l.substr(0, 300) + " …";
    std::string out = join(kept, "\n");
    if (dropped) {
        std::string note = "… (" + std::to_string(dropped) + " more lines)";
        out = tail ? note + "\n" + out : out + "\n" + note;
    }
    return out;
}

std::string indent(const std::string& s, const std::string& prefix) {
    std::string out;
    for (const auto& l : split_lines(s)) out += prefix + l + "\n";
    return out;
}

void erase_all(std::string& s, const std::string& part) {
    if (part.empty()) return;
    for (std::size_t p; (p = s.find(part)) != std::string::npos;) s.erase(p, part.size());
}

std::string trim(const std::string& s) {
    const std::size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string which(const std::string& name) {
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
    const char* path = std::getenv("PATH");
    std::stringstream ss(path ? path : "/usr/bin:/bin");
    std::string dir;
    std::error_code ec;
    while (std::getline(ss, dir, ':')) {
        if (dir.empty()) continue;
        std::string cand = dir + "/" + name;
        if (::access(cand.c_str(), X_OK) == 0 && !fs::is_directory(cand, ec)) return cand;
    }
    return "";
}

std::string iso_time_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace workbook::util
