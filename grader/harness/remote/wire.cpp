#include "wire.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace wb::wire {

namespace {

constexpr std::uint32_t kMagic = 0x57425732;  // "WBW2"

class Writer {
 public:
    void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    void u64(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    void str(const std::string& s) {
        // Longer texts are cut (with a mark) so that a reply always fits in a frame.
        const std::size_t n = s.size() < 64 * 1024 ? s.size() : 64 * 1024;
        u32(static_cast<std::uint32_t>(n));
        out_.append(s, 0, n);
    }
    std::string take() { return std::move(out_); }

 private:
    std::string out_;
};

class Reader {
 public:
    explicit Reader(const std::string& in) : in_(in) {}
    bool ok() const { return ok_; }
    bool at_end() const { return pos_ == in_.size(); }
    std::uint8_t u8() {
        if (pos_ >= in_.size()) return fail();
        return static_cast<std::uint8_t>(in_[pos_++]);
    }
    std::uint32_t u32() {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= std::uint32_t{u8()} << (8 * i);
        return v;
    }
    std::uint64_t u64() {
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= std::uint64_t{u8()} << (8 * i);
        return v;
    }
    std::string str() {
        const std::uint32_t n = u32();
        if (!ok_ || n > in_.size() - pos_) {
            fail();
            return {};
        }
        std::string s = in_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    std::uint32_t count() {
        const std::uint32_t n = u32();
        if (n > kMaxItems) fail();
        return ok_ ? n : 0;
    }

 private:
    std::uint8_t fail() {
        ok_ = false;
        pos_ = in_.size();
        return 0;
    }
    const std::string& in_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

bool write_all(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        // MSG_NOSIGNAL: a worker that died must not kill the judge with SIGPIPE.
        ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && errno == ENOTSOCK) k = ::write(fd, p, n);
        if (k <= 0) return false;
        p += k;
        n -= static_cast<std::size_t>(k);
    }
    return true;
}

// Reads exactly n bytes before the deadline. 0: done, 1: end of stream, 2: error, 3: deadline.
int read_all(int fd, char* p, std::size_t n, long long deadline_ms) {
    while (n > 0) {
        if (deadline_ms >= 0) {
            const long long left = deadline_ms - now_ms();
            if (left <= 0) return 3;
            pollfd pfd{fd, POLLIN, 0};
            int r = ::poll(&pfd, 1, static_cast<int>(left > 1000000 ? 1000000 : left));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) return 2;
            if (r == 0) continue;
        }
        ssize_t k = ::read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return 2;
        if (k == 0) return 1;
        p += k;
        n -= static_cast<std::size_t>(k);
    }
    return 0;
}

}  // namespace

long long now_ms() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

std::string encode(const Request& r) {
    Writer w;
    w.u32(kMagic);
    w.u8(static_cast<std::uint8_t>(r.kind));
    w.str(r.entry);
    w.u64(r.arena_size);
    w.u32(static_cast<std::uint32_t>(r.buffers.size()));
    for (const auto& b : r.buffers) {
        w.u64(b.id);
        w.u64(b.arena_offset);
        w.u64(b.size);
    }
    w.u32(static_cast<std::uint32_t>(r.args.size()));
    for (const auto& a : r.args) {
        w.u8(static_cast<std::uint8_t>(a.tag));
        w.u64(a.buffer);
        w.u64(a.offset);
        w.u64(a.bits);
    }
    w.u32(r.timed_repeats);
    w.u64(r.copy_bytes);
    return w.take();
}

std::string encode(const Reply& r) {
    Writer w;
    w.u32(kMagic);
    w.u8(static_cast<std::uint8_t>(Kind::reply));
    w.u8(r.defined ? 1 : 0);
    w.str(r.exception);
    w.str(r.launch_error);
    w.str(r.run_error);
    w.str(r.copy_error);
    const std::size_t n = r.diagnostics.size() < 64 ? r.diagnostics.size() : 64;
    w.u32(static_cast<std::uint32_t>(n));
    for (std::size_t i = 0; i < n; ++i) w.str(r.diagnostics[i]);
    for (const auto* times : {&r.kernel_ms, &r.copy_ms}) {
        const std::size_t k = times->size() < kMaxItems ? times->size() : kMaxItems;
        w.u32(static_cast<std::uint32_t>(k));
        for (std::size_t i = 0; i < k; ++i) {
            std::uint32_t bits;
            std::memcpy(&bits, &(*times)[i], 4);
            w.u32(bits);
        }
    }
    w.str(r.timing_error);
    return w.take();
}

std::optional<Request> decode_request(const std::string& payload, std::string* why) {
    Reader in(payload);
    Request r;
    if (in.u32() != kMagic) {
        *why = "not a workbook request";
        return std::nullopt;
    }
    const std::uint8_t kind = in.u8();
    if (kind != static_cast<std::uint8_t>(Kind::call) && kind != static_cast<std::uint8_t>(Kind::finish)) {
        *why = "unknown request kind";
        return std::nullopt;
    }
    r.kind = static_cast<Kind>(kind);
    r.entry = in.str();
    r.arena_size = in.u64();
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok(); ++i) {
        BufferRef b;
        b.id = in.u64();
        b.arena_offset = in.u64();
        b.size = in.u64();
        if (b.arena_offset > r.arena_size || b.size > r.arena_size - b.arena_offset) {
            *why = "a buffer lies outside the arena";
            return std::nullopt;
        }
        r.buffers.push_back(b);
    }
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok(); ++i) {
        Arg a;
        const std::uint8_t tag = in.u8();
        if (tag > static_cast<std::uint8_t>(ArgTag::stream)) {
            *why = "unknown argument tag";
            return std::nullopt;
        }
        a.tag = static_cast<ArgTag>(tag);
        a.buffer = in.u64();
        a.offset = in.u64();
        a.bits = in.u64();
        r.args.push_back(a);
    }
    r.timed_repeats = in.u32();
    r.copy_bytes = in.u64();
    if (r.timed_repeats > kMaxItems) {
        *why = "too many timed repeats";
        return std::nullopt;
    }
    if (!in.ok() || !in.at_end()) {
        *why = "a truncated or oversized request";
        return std::nullopt;
    }
    return r;
}

std::optional<Reply> decode_reply(const std::string& payload, std::string* why) {
    Reader in(payload);
    Reply r;
    if (in.u32() != kMagic || in.u8() != static_cast<std::uint8_t>(Kind::reply)) {
        *why = "the worker sent something that is not a reply";
        return std::nullopt;
    }
    const std::uint8_t defined = in.u8();
    r.defined = defined == 1;
    r.exception = in.str();
    r.launch_error = in.str();
    r.run_error = in.str();
    r.copy_error = in.str();
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok(); ++i) r.diagnostics.push_back(in.str());
    for (auto* times : {&r.kernel_ms, &r.copy_ms})
        for (std::uint32_t i = 0, n = in.count(); i < n && in.ok(); ++i) {
            const std::uint32_t bits = in.u32();
            float v;
            std::memcpy(&v, &bits, 4);
            times->push_back(v);
        }
    r.timing_error = in.str();
    if (!in.ok() || !in.at_end() || defined > 1) {
        *why = "the worker sent a malformed reply";
        return std::nullopt;
    }
    return r;
}

bool send_frame(int fd, const std::string& payload) {
    if (payload.size() > kMaxFrame) return false;
    char len[4];
    const auto n = static_cast<std::uint32_t>(payload.size());
    for (int i = 0; i < 4; ++i) len[i] = static_cast<char>(n >> (8 * i));
    return write_all(fd, len, 4) && write_all(fd, payload.data(), payload.size());
}

std::optional<std::string> recv_frame(int fd, long long deadline_ms, std::string* why, bool* timed_out) {
    if (timed_out) *timed_out = false;
    auto fail = [&](int rc) -> std::optional<std::string> {
        if (rc == 3 && timed_out) *timed_out = true;
        *why = rc == 1 ? "the worker closed its end of the connection" : rc == 3 ? "no answer in time" : "read error";
        return std::nullopt;
    };
    unsigned char len[4];
    if (int rc = read_all(fd, reinterpret_cast<char*>(len), 4, deadline_ms)) return fail(rc);
    const std::uint32_t n = len[0] | len[1] << 8 | len[2] << 16 | static_cast<std::uint32_t>(len[3]) << 24;
    if (n > kMaxFrame) {
        *why = "an oversized message (" + std::to_string(n) + " bytes)";
        return std::nullopt;
    }
    std::string payload(n, '\0');
    if (int rc = read_all(fd, payload.data(), n, deadline_ms)) return fail(rc);
    return payload;
}

}  // namespace wb::wire
