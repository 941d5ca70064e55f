#include "client.hpp"

#include "sanitizer_output.hpp"
#include "signals.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace wb::remote {

namespace {

Config g_config;

// ---- the arena: one sealed memfd, mapped here at a fixed reserved range and by the worker wherever it likes -----

class Arena {
 public:
    static Arena& get() {
        static Arena arena;
        return arena;
    }
    int fd() const { return fd_; }
    std::uint64_t mapped() const { return mapped_; }

    // Returns the offset of a new block of `size` bytes, 256-byte aligned.
    std::uint64_t allocate(std::uint64_t id, std::size_t size) {
        const std::uint64_t off = (top_ + 255) / 256 * 256;
        ensure(off + std::max<std::size_t>(size, 1));
        top_ = off + std::max<std::size_t>(size, 1);
        live_.push_back({id, off, size});
        return off;
    }
    void release(std::uint64_t id) {
        live_.erase(std::remove_if(live_.begin(), live_.end(), [&](const wire::BufferRef& b) { return b.id == id; }),
                    live_.end());
        if (live_.empty()) top_ = 0;  // every test allocates, runs and frees: the space is reused from the start
    }
    unsigned char* at(std::uint64_t off) const { return base_ + off; }
    const std::vector<wire::BufferRef>& live() const { return live_; }

    // The buffer holding the byte `p` points at; failing that, the buffer `p` is one past the end of (buffers can be
    // adjacent, so the start of one must never be taken for the end of the one before).
    const wire::BufferRef* find(const void* p) const {
        const auto* c = static_cast<const unsigned char*>(p);
        for (const auto& b : live_)
            if (c >= base_ + b.arena_offset && c < base_ + b.arena_offset + b.size) return &b;
        for (const auto& b : live_)
            if (c == base_ + b.arena_offset + b.size) return &b;
        return nullptr;
    }

 private:
    Arena() {
        fd_ = ::memfd_create("wb-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
        // The worker may write into the arena but never shrink it under the judge's mapping (a SIGBUS here).
        ::fcntl(fd_, F_ADD_SEALS, F_SEAL_SHRINK);
        void* p = ::mmap(nullptr, kReserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error(std::string("mmap: ") + std::strerror(errno));
        base_ = static_cast<unsigned char*>(p);
    }
    void ensure(std::uint64_t end) {
        if (end <= mapped_) return;
        if (end > kReserved) throw std::runtime_error("a test asked for more than 64 GiB of device memory");
        const std::uint64_t n = (end + (2u << 20) - 1) / (2u << 20) * (2u << 20);
        if (::ftruncate(fd_, static_cast<off_t>(n)) != 0)
            throw std::runtime_error(std::string("growing the shared arena: ") + std::strerror(errno));
        if (::mmap(base_, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_, 0) == MAP_FAILED)
            throw std::runtime_error(std::string("mapping the shared arena: ") + std::strerror(errno));
        mapped_ = n;
    }
    static constexpr std::uint64_t kReserved = 64ull << 30;
    int fd_ = -1;
    unsigned char* base_ = nullptr;
    std::uint64_t mapped_ = 0, top_ = 0;
    std::vector<wire::BufferRef> live_;
};

std::uint64_t g_next_buffer = 1;

// ---- the worker process ------------------------------------------------------------------------------------------

struct Worker {
    bool started = false, ended = false, timed_out = false, memory_exceeded = false, killed = false;
    bool via_bwrap = false;
    pid_t pid = -1;
    int worker_pid = -1;
    int sock = -1, output = -1;
    int status = 0;
    std::string start_error;
    sandbox::Layers layers;
};
Worker g_worker;
CallResult g_last;

// The last `max_bytes` the worker printed (its stdout and stderr share one memfd, which its output limit keeps under
// 16 MiB: so 16 MiB is all of it).
std::string output_bytes(std::size_t max_bytes) {
    if (g_worker.output < 0) return {};
    const off_t size = ::lseek(g_worker.output, 0, SEEK_END);
    if (size <= 0) return {};
    const off_t from = size > static_cast<off_t>(max_bytes) ? size - static_cast<off_t>(max_bytes) : 0;
    std::string text(static_cast<std::size_t>(size - from), '\0');
    const ssize_t k = ::pread(g_worker.output, text.data(), text.size(), from);
    text.resize(k > 0 ? static_cast<std::size_t>(k) : 0);
    return text;
}

// Its last lines, for a failure message.
std::string output_tail(std::size_t max_lines = 20) {
    std::string text = output_bytes(16384);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    std::size_t pos = text.size(), lines = 0;
    while (pos > 0 && lines < max_lines)
        if (text[--pos] == '\n') ++lines;
    if (lines == max_lines) text = text.substr(pos + 1);
    return text;
}

void kill_worker() {
    if (g_worker.pid > 0 && !g_worker.ended) {
        g_worker.killed = true;
        if (g_worker.worker_pid > 0) ::kill(g_worker.worker_pid, SIGKILL);
        ::kill(g_worker.pid, SIGKILL);
    }
}

// Waits for the worker's end until the deadline (ms, CLOCK_MONOTONIC; <0: do not wait).
bool reap(long long deadline_ms) {
    if (g_worker.ended || g_worker.pid <= 0) return true;
    for (;;) {
        int st = 0;
        const pid_t r = ::waitpid(g_worker.pid, &st, WNOHANG);
        if (r == g_worker.pid) {
            g_worker.ended = true;
            g_worker.status = st;
            return true;
        }
        if (r < 0 && errno != EINTR) {
            g_worker.ended = true;
            return true;
        }
        if (deadline_ms < 0 || wire::now_ms() >= deadline_ms) return false;
        ::usleep(500);
    }
}

// How the worker ended, as the end of a sentence ("crashed (SIGSEGV, a segmentation fault)").
std::string how_it_ended() {
    if (g_worker.timed_out)
        return "did not finish in " + std::to_string(static_cast<int>(g_config.call_timeout_s)) +
               " s and was stopped (an endless loop, a deadlock, or a barrier some threads never "
               "reach?)";
    if (g_worker.memory_exceeded)
        return "used more than " + std::to_string(g_config.rss_limit_mb) + " MiB of memory and was stopped";
    const int st = g_worker.status;
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    // bubblewrap reports a worker killed by a signal as exit status 128 + the signal.
    if (g_worker.via_bwrap && code > 128 && code < 160) {
        sig = code - 128;
        code = -1;
    }
    if (sig) return "crashed (" + signal_description(sig) + ")";
    if (code == 0) return "ended the program (exit status 0) instead of returning to the caller";
    return "ended the program with exit status " + std::to_string(code);
}

std::string with_output(std::string sentence) {
    const std::string tail = output_tail();
    if (!tail.empty()) sentence += "\nlast lines of its output:\n" + tail;
    return sentence;
}

bool start_worker(std::string* why) {
    g_worker.started = true;
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        *why = std::string("socketpair: ") + std::strerror(errno);
        return false;
    }
    g_worker.output = ::memfd_create("wb-worker-output", MFD_CLOEXEC);
    if (g_worker.output < 0) {
        *why = std::string("memfd_create: ") + std::strerror(errno);
        return false;
    }
    auto s =
        sandbox::start(g_config.sandbox, {g_config.worker, "--wb-worker"}, {Arena::get().fd(), sv[1]}, g_worker.output);
    ::close(sv[1]);
    if (!s.error.empty()) {
        ::close(sv[0]);
        *why = s.error;
        return false;
    }
    g_worker.sock = sv[0];
    g_worker.pid = s.pid;
    g_worker.worker_pid = s.worker_pid;
    g_worker.layers = s.layers;
    g_worker.via_bwrap = s.layers.namespaces.rfind("bubblewrap", 0) == 0;
    return true;
}

std::uint64_t resident_mb(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
    std::uint64_t total = 0, resident = 0;
    if (!(in >> total >> resident)) return 0;
    return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) >> 20;
}

// Waits for a reply frame until the deadline, watching the worker's memory and its end meanwhile.
std::optional<std::string> await_reply(long long deadline_ms, std::string* why) {
    for (;;) {
        const long long left = deadline_ms - wire::now_ms();
        if (left <= 0) {
            g_worker.timed_out = true;
            *why = "timed out";
            return std::nullopt;
        }
        pollfd pfd{g_worker.sock, POLLIN, 0};
        const int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 100)));
        if (r > 0) {
            bool timed_out = false;
            auto frame = wire::recv_frame(g_worker.sock, deadline_ms, why, &timed_out);
            if (timed_out) g_worker.timed_out = true;
            return frame;
        }
        if (g_config.rss_limit_mb && g_worker.worker_pid > 0 &&
            resident_mb(g_worker.worker_pid) > g_config.rss_limit_mb) {
            g_worker.memory_exceeded = true;
            *why = "memory";
            return std::nullopt;
        }
    }
}

// The worker did not answer: stop it, wait for its end and say what happened.
void worker_lost(const std::string& entry, const std::string& what) {
    if (g_worker.timed_out || g_worker.memory_exceeded) kill_worker();
    if (!reap(wire::now_ms() + 2000)) {
        kill_worker();
        reap(wire::now_ms() + 5000);
    }
    g_last.timed_out = g_worker.timed_out;
    // bubblewrap's own failures (before the worker ran) are the grader's setup, not the student's code.
    const std::string tail = output_tail(5);
    if (g_worker.via_bwrap && tail.rfind("bwrap: ", 0) == 0) {
        g_last.failure = entry +
                         ": the sandbox for the submitted code could not be set up (a grader problem; "
                         "WORKBOOK_SANDBOX=none runs without namespaces): " +
                         tail;
        return;
    }
    std::string sentence = entry + ": the submitted code " + how_it_ended();
    if (!what.empty() && !g_worker.timed_out && !g_worker.memory_exceeded && g_worker.ended && g_worker.status == 0)
        sentence += " (" + what + ")";
    g_last.failure = with_output(sentence);
}

}  // namespace

void configure(Config config) { g_config = std::move(config); }
const Config& config() { return g_config; }

Buffer::Buffer(std::size_t size) : id_(g_next_buffer++), size_(size) {
    offset_ = Arena::get().allocate(id_, size);
    data_ = Arena::get().at(offset_);
}

Buffer::~Buffer() { Arena::get().release(id_); }

const CallResult& last_call() { return g_last; }

wire::Arg pointer_arg(const void* p) {
    wire::Arg a;
    if (p == nullptr) return a;
    const wire::BufferRef* b = Arena::get().find(p);
    if (b == nullptr) throw std::logic_error("a test passed a pointer that is not in a remote buffer");
    a.tag = wire::ArgTag::pointer;
    a.buffer = b->id;
    a.offset = static_cast<std::uint64_t>(static_cast<const unsigned char*>(p) - Arena::get().at(b->arena_offset));
    return a;
}

wire::Arg scalar_arg(wire::ArgTag tag, std::uint64_t bits) {
    wire::Arg a;
    a.tag = tag;
    a.bits = bits;
    return a;
}

void call_entry(const std::string& entry, std::vector<wire::Arg> args, const Timing& timing) {
    g_last = CallResult{};
    if (g_config.worker.empty()) {
        g_last.failure = entry + ": no worker is configured (the judge was started without --wb-worker)";
        return;
    }
    if (!g_worker.started) {
        std::string why;
        if (!start_worker(&why)) {
            g_worker.start_error = why;
            g_last.failure = entry + ": the sandbox for the submitted code could not be started: " + why;
            return;
        }
    }
    if (g_worker.sock < 0 || g_worker.ended) {
        g_last.failure = entry + ": the submitted code is no longer running (it ended during an earlier call)";
        return;
    }
    wire::Request req;
    req.kind = wire::Kind::call;
    req.entry = entry;
    req.arena_size = Arena::get().mapped();
    req.buffers = Arena::get().live();
    req.args = std::move(args);
    req.timed_repeats = timing.repeats;
    req.copy_bytes = timing.copy_bytes;
    if (!wire::send_frame(g_worker.sock, wire::encode(req))) return worker_lost(entry, "it closed its connection");
    std::string why;
    auto frame = await_reply(wire::now_ms() + static_cast<long long>(g_config.call_timeout_s * 1000), &why);
    if (!frame) return worker_lost(entry, why);
    auto reply = wire::decode_reply(*frame, &why);
    if (!reply) {
        kill_worker();
        reap(wire::now_ms() + 5000);
        g_last.failure = entry + ": the worker running the submitted code broke the protocol (" + why + ")";
        return;
    }
    g_last.answered = true;
    g_last.reply = std::move(*reply);
}

std::vector<std::string> finish() {
    std::vector<std::string> problems;
    if (!g_worker.started || g_worker.pid <= 0) return problems;
    if (!g_worker.ended && g_worker.sock >= 0) {
        wire::Request req;
        req.kind = wire::Kind::finish;
        req.arena_size = Arena::get().mapped();
        std::string why;
        std::optional<std::string> frame;
        if (wire::send_frame(g_worker.sock, wire::encode(req))) frame = await_reply(wire::now_ms() + 10000, &why);
        if (frame) {
            if (auto reply = wire::decode_reply(*frame, &why)) {
                if (!reply->run_error.empty())
                    problems.push_back("a CUDA error was still pending after the test: " + reply->run_error);
                for (auto& d : reply->diagnostics) problems.push_back("the emulator reported:\n" + d);
            } else {
                problems.push_back("the worker running the submitted code broke the protocol at the end (" + why + ")");
            }
        }
    }
    ::close(g_worker.sock);
    g_worker.sock = -1;
    // compute-sanitizer writes its summary after the worker has ended: give it time to.
    if (!reap(wire::now_ms() + (g_config.sanitize_tool.empty() ? 3000 : 60000))) {
        kill_worker();
        reap(wire::now_ms() + 5000);
    }
    return problems;
}

nlohmann::json worker_report() {
    nlohmann::json j = nlohmann::json::object();
    if (!g_worker.started) return j;
    j["sandbox"] = {{"namespaces", g_worker.layers.namespaces},
                    {"seccomp", g_worker.layers.seccomp},
                    {"filesystem", g_worker.layers.filesystem},
                    {"rlimits", g_worker.layers.rlimits}};
    if (!g_worker.start_error.empty()) j["start_error"] = g_worker.start_error;
    j["timed_out"] = g_worker.timed_out;
    j["output"] = output_tail(12);
    if (!g_config.sanitize_tool.empty()) {
        // The whole output: the sanitizer's reports can come before the worker's last lines.
        j["sanitizer"] = to_json(g_config.sanitize_tool, parse_sanitizer_output(output_bytes(16u << 20)));
    }
    return j;
}

bool worker_timed_out() { return g_worker.timed_out; }

}  // namespace wb::remote
