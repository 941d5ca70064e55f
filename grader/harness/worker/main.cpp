// The worker: the only process that runs a student's code. It holds no expected value, no nonce and no result file;
// it maps the judge's arena (descriptor 3), answers the judge's requests on its connection (descriptor 4) and exits
// when told to or when the judge goes away. The judge started it confined (remote/sandbox.hpp); its first act is to
// forbid starting any other program.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <string>

#include "device.hpp"
#include "entries.hpp"
#include "sandbox.hpp"
#include "wire.hpp"

namespace {

constexpr int kArenaFd = 3;
constexpr int kControlFd = 4;

class Mirror : public wb::worker::Buffers {
 public:
    // Makes the device side match the call's buffer list: new ids allocated, ids no longer listed freed.
    std::string sync(const std::vector<wb::wire::BufferRef>& refs) {
        std::map<std::uint64_t, Slot> next;
        for (const auto& r : refs) {
            auto it = slots_.find(r.id);
            if (it != slots_.end() && it->second.size == r.size) {
                next[r.id] = it->second;
                slots_.erase(it);
                continue;
            }
            Slot s{nullptr, r.size};
            if (auto e = wb::worker::device_alloc(r.size, &s.device); !e.empty()) {
                for (auto& [id, slot] : next) slots_[id] = slot;
                return "cudaMalloc of " + std::to_string(r.size) + " bytes failed: " + e;
            }
            next[r.id] = s;
        }
        for (auto& [id, slot] : slots_) wb::worker::device_free(slot.device);
        slots_ = std::move(next);
        return {};
    }
    void* device(std::uint64_t id) const override {
        auto it = slots_.find(id);
        if (it == slots_.end()) throw std::runtime_error("a pointer to a buffer that is not part of the call");
        return it->second.device;
    }

 private:
    struct Slot {
        void* device;
        std::uint64_t size;
    };
    std::map<std::uint64_t, Slot> slots_;
};

class ArenaMap {
 public:
    unsigned char* map(std::uint64_t size) {
        if (size > size_) {
            if (base_) ::munmap(base_, size_);
            void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, kArenaFd, 0);
            base_ = p == MAP_FAILED ? nullptr : static_cast<unsigned char*>(p);
            size_ = base_ ? size : 0;
        }
        return base_;
    }

 private:
    unsigned char* base_ = nullptr;
    std::uint64_t size_ = 0;
};

std::string what_of(std::exception_ptr p) {
    try {
        std::rethrow_exception(p);
    } catch (const std::exception& e) {
        return *e.what() ? e.what() : "(no message)";
    } catch (...) {
        return "(not a std::exception)";
    }
}

wb::wire::Reply run_call(const wb::wire::Request& req, Mirror& mirror, ArenaMap& arena) {
    wb::wire::Reply rep;
    const wb::worker::Entry* entry = nullptr;
    for (const auto& e : wb::worker::entries())
        if (req.entry == e.name) entry = &e;
    if (entry == nullptr || !entry->defined) {
        rep.defined = false;
        return rep;
    }
    unsigned char* base = req.buffers.empty() ? nullptr : arena.map(req.arena_size);
    if (!req.buffers.empty() && base == nullptr) {
        rep.copy_error = "the worker could not map the test's buffers";
        return rep;
    }
    if (auto e = mirror.sync(req.buffers); !e.empty()) {
        rep.copy_error = e;
        return rep;
    }
    for (const auto& b : req.buffers)
        if (auto e = wb::worker::copy_to_device(mirror.device(b.id), base + b.arena_offset, b.size); !e.empty()) {
            rep.copy_error = "copying the inputs to the device failed: " + e;
            return rep;
        }
    wb::worker::before_call();
    try {
        entry->invoke(req.args, mirror);
    } catch (...) {
        rep.exception = what_of(std::current_exception());
    }
    wb::worker::after_call(&rep.launch_error, &rep.run_error, &rep.diagnostics);
    const bool clean =
        rep.exception.empty() && rep.launch_error.empty() && rep.run_error.empty() && rep.diagnostics.empty();
    if (req.timed_repeats > 0 && clean) {
        std::string thrown;
        rep.timing_error = wb::worker::time_runs(
            [&] {
                try {
                    entry->invoke(req.args, mirror);
                } catch (...) {
                    if (thrown.empty()) thrown = what_of(std::current_exception());
                }
            },
            req.timed_repeats, req.copy_bytes, &rep.kernel_ms, &rep.copy_ms);
        if (!thrown.empty()) rep.timing_error = "the launcher threw while it was timed: " + thrown;
    } else if (req.timed_repeats > 0) {
        rep.timing_error = "not timed: the first run failed";
    }
    for (const auto& b : req.buffers)
        if (auto e = wb::worker::copy_to_host(base + b.arena_offset, mirror.device(b.id), b.size); !e.empty()) {
            rep.copy_error = "copying the results from the device failed: " + e;
            break;
        }
    return rep;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 || std::strcmp(argv[1], "--wb-worker") != 0) {
        std::fprintf(stderr, "this program runs a submission for a workbook judge and is started by it\n");
        return 2;
    }
    std::string why;
    if (!wb::sandbox::forbid_new_processes(&why)) std::fprintf(stderr, "worker: %s\n", why.c_str());
    Mirror mirror;
    ArenaMap arena;
    for (;;) {
        auto frame = wb::wire::recv_frame(kControlFd, -1, &why);
        if (!frame) return 0;  // the judge is gone
        auto req = wb::wire::decode_request(*frame, &why);
        if (!req) {
            std::fprintf(stderr, "worker: %s\n", why.c_str());
            return 3;
        }
        wb::wire::Reply rep;
        if (req->kind == wb::wire::Kind::finish) {
            wb::worker::at_finish(&rep.run_error, &rep.diagnostics);
            wb::wire::send_frame(kControlFd, wb::wire::encode(rep));
            std::fflush(nullptr);
            return 0;
        }
        try {
            rep = run_call(*req, mirror, arena);
        } catch (const std::exception& e) {
            rep = wb::wire::Reply{};
            rep.copy_error = std::string("the worker could not run the call: ") + e.what();
        }
        std::fflush(nullptr);  // the student's printf output reaches the judge's report in order
        if (!wb::wire::send_frame(kControlFd, wb::wire::encode(rep))) return 0;
    }
}
