#include "fake_engine.hpp"

#include "memcheck.hpp"

#include <emu/api.h>

#include <dlfcn.h>

#include <setjmp.h>
#include <cstdio>
#include <map>
#include <memory>

namespace emu::rt {

thread_local bool g_in_kernel __attribute__((tls_model("initial-exec"))) = false;

namespace {
ThreadInfo g_cur;
std::uint32_t g_epoch = 0;
std::vector<std::uint32_t> g_warp_epochs;
std::uint64_t g_serial = 0;
Dim3 g_block_dim, g_grid_dim;
const char* g_name = "";
sigjmp_buf g_abort_point;
std::vector<fake::Diag> g_diags;
}  // namespace

const ThreadInfo& current_thread() { return g_cur; }
std::uint32_t block_epoch() { return g_epoch; }
std::uint32_t warp_epoch(unsigned w) { return w < g_warp_epochs.size() ? g_warp_epochs[w] : 0; }
std::uint64_t block_serial() { return g_serial; }
Dim3 block_dim() { return g_block_dim; }
Dim3 block_index() { return g_cur.block; }
Dim3 grid_dim() { return g_grid_dim; }
const char* kernel_name() { return g_name; }
bool launch_is_cooperative() { return false; }

[[noreturn]] void abort_launch(int cuda_error) { siglongjmp(g_abort_point, cuda_error); }

// No host memory is registered here (runtime/host_register.cpp is not linked).
bool host_registered(const void*, std::size_t) { return false; }

// file:line through addr2line (the real engine keeps a helper process; a test can afford one per address).
std::string symbolize(const void* pc) {
    static std::map<const void*, std::string> cache;
    auto it = cache.find(pc);
    if (it != cache.end()) return it->second;
    Dl_info info{};
    std::string out = "??";
    if (dladdr(pc, &info) && info.dli_fname) {
        char cmd[1024];
        std::snprintf(cmd, sizeof cmd, "addr2line -e %s 0x%lx", info.dli_fname,
                      static_cast<unsigned long>(reinterpret_cast<std::uintptr_t>(pc) - 1 -
                                                 reinterpret_cast<std::uintptr_t>(info.dli_fbase)));
        if (FILE* p = popen(cmd, "r")) {
            char buf[1024];
            if (std::fgets(buf, sizeof buf, p)) {
                out = buf;
                while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
                const auto disc = out.find(" (discriminator");
                if (disc != std::string::npos) out.erase(disc);
            }
            pclose(p);
        }
    }
    cache[pc] = out;
    return out;
}

void report(Diagnostic d) {
    std::fprintf(stderr, "========= %s\n", d.message.c_str());
    g_diags.push_back({d.kind, d.message});
}

}  // namespace emu::rt

namespace fake {

using namespace emu::rt;

std::vector<Diag> take() {
    std::vector<Diag> out;
    out.swap(g_diags);
    return out;
}

int run(const Launch& l, const std::vector<Phase>& phases) {
    g_block_dim = l.block;
    g_grid_dim = Dim3{l.blocks, 1, 1};
    g_name = l.name;
    // The phases run on this thread's stack, next to the test's own state: the whole address space is reachable (one
    // registered device range), so the fake engine leaves the check of a kernel's reach (kernel_reach.cpp) out. Not
    // as the CUDA thread's stack: the hooks test the stack range before the __shared__ arena and device memory,
    // which therefore must not lie inside it (memcheck.hpp's access). The reach check reads the program's segments
    // once, with library code the scenarios' instrumented copies may stand in for: it does so here, outside a kernel,
    // where their hooks return at once (a string literal is read-only data).
    emu::mc::g_stack_lo = emu::mc::g_stack_hi = 0;
    emu::register_device_range(reinterpret_cast<const void*>(1), ~std::uintptr_t{0} - 1);
    emu::mc::outside_access(reinterpret_cast<std::uintptr_t>("x"), 1, 0, nullptr);
    const unsigned n = l.block.x * l.block.y * l.block.z;
    on_launch_begin(l.dynamic_shared);
    int err = sigsetjmp(g_abort_point, 0);
    static unsigned block_x;  // survives the longjmp
    if (err == 0) {
        for (block_x = 0; block_x < l.blocks; ++block_x) {
            ++g_serial;
            g_epoch = 0;
            g_warp_epochs.assign((n + 31) / 32, 0);
            g_cur.block = Dim3{block_x, 0, 0};
            on_block_begin();
            for (const Phase& p : phases) {
                for (unsigned k = 0; k < n; ++k) {
                    const unsigned i = l.order == Order::forward ? k : n - 1 - k;
                    g_cur.linear = i;
                    g_cur.thread = Dim3{i % l.block.x, (i / l.block.x) % l.block.y, i / (l.block.x * l.block.y)};
                    g_cur.block = Dim3{block_x, 0, 0};
                    g_cur.warp = i / 32;
                    g_cur.lane = i % 32;
                    g_in_kernel = true;
                    p.body(i);
                    g_in_kernel = false;
                }
                if (p.barrier_after) {
                    ++g_epoch;
                    on_barrier();
                }
                if (p.syncwarp_after) {
                    for (auto& e : g_warp_epochs) ++e;
                    for (unsigned w = 0; w < g_warp_epochs.size(); ++w) on_warp_sync(w);
                }
            }
        }
    }
    g_in_kernel = false;
    on_launch_end();
    return err;
}

}  // namespace fake
