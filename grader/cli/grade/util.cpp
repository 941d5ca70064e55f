#include "util.hpp"

#include <array>
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

namespace {
constexpr std::array<std::uint32_t, 64> K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};
inline std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
}  // namespace

// SHA-256 (FIPS 180-4). A cryptographic hash because verified.json must not accept content crafted to collide.
std::string sha256_hex(const std::string& data) {
    std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::string msg = data;
    const std::uint64_t bit_len = static_cast<std::uint64_t>(data.size()) * 8;
    msg.push_back(static_cast<char>(0x80));
    while (msg.size() % 64 != 56) msg.push_back('\0');
    for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bit_len >> (i * 8)) & 0xff));
    for (std::size_t off = 0; off < msg.size(); off += 64) {
        std::uint32_t w[64];
        for (int i = 0; i < 16; ++i) {
            const auto* b = reinterpret_cast<const unsigned char*>(msg.data() + off + i * 4);
            w[i] = (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) | b[3];
        }
        for (int i = 16; i < 64; ++i) {
            std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; ++i) {
            std::uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            std::uint32_t ch = (e & f) ^ (~e & g);
            std::uint32_t t1 = hh + S1 + ch + K[i] + w[i];
            std::uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
            std::uint32_t t2 = S0 + maj;
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    char out[65];
    for (int i = 0; i < 8; ++i) std::snprintf(out + i * 8, 9, "%08x", h[i]);
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
    if ((c & 0xe0) == 0xc0) { n = 2; cp = c & 0x1f; }
    else if ((c & 0xf0) == 0xe0) { n = 3; cp = c & 0x0f; }
    else if ((c & 0xf8) == 0xf0) { n = 4; cp = c & 0x07; }
    else return 0;
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
        if (tail)
            kept.assign(lines.end() - static_cast<long>(max_lines), lines.end());
        else
            kept.assign(lines.begin(), lines.begin() + static_cast<long>(max_lines));
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

std::string trim(const std::string& s) {
    const std::size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string which(const std::string& name) {
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
    const char* path = std::getenv("PATH");
    if (!path) return "";
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        if (dir.empty()) continue;
        std::string cand = dir + "/" + name;
        if (::access(cand.c_str(), X_OK) == 0) return cand;
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
