// The __shared__ arena: one region mapped once, so every shared variable has a fixed address for the whole process.
//
//   [0, 64K)        namespace-scope __shared__ variables (assigned at static initialization, kept forever)
//   [64K, 256K)     the running launch's static __shared__ variables, each followed by a redzone
//   [256K, 512K)    the running launch's dynamic shared memory (extern __shared__), sized per launch
//   [512K, +4K)     tail that is never addressable
//
// A per-byte "addressable" map tells the checker which bytes belong to a variable; redzones and everything past the
// launch's dynamic size are not addressable, so an access there is an out-of-bounds __shared__ access.
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "emu/shared.hpp"
#include "memcheck.hpp"

namespace emu::detail {
std::uint64_t g_shared_launch = 1;
char* g_shared_arena = nullptr;
}  // namespace emu::detail

namespace emu::mc {

unsigned char* g_shared_addressable = nullptr;

namespace {

constexpr std::size_t kPermanentBase = 0, kPermanentCap = 64 * 1024;
constexpr std::size_t kStaticBase = 64 * 1024, kStaticCap = 192 * 1024;
constexpr std::size_t kDynBase = 256 * 1024, kDynCap = 256 * 1024;
constexpr std::size_t kArenaSize = 512 * 1024 + 4096;
constexpr std::size_t kRedzone = 32;
constexpr std::size_t kStaticLimit = 48 * 1024;  // what a CUDA kernel may declare statically
constexpr unsigned char kGarbage = kSharedGarbage;

struct Var {
    const char* name;
    std::size_t offset, size;
};

struct Arena {
    unsigned char* addressable = nullptr;  // one flag per arena byte
    std::vector<Var> vars;                 // permanent ones first, then this launch's, in offset order
    std::size_t permanent_vars = 0;
    std::size_t permanent_used = 0;   // bytes of the permanent part in use (with redzones)
    std::size_t static_used = 0;      // bytes of the static part in use (with redzones)
    std::size_t static_declared = 0;  // sum of this launch's variable sizes (the 48 KB limit)
    std::size_t dyn_size = 0;
    std::unordered_map<SharedSlot*, std::size_t> permanent;
};

Arena& arena() {
    static Arena* a = [] {
        void* p = mmap(nullptr, kArenaSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            std::fputs("emu: cannot map the __shared__ arena\n", stderr);
            std::abort();
        }
        auto* arena = new Arena;
        arena->addressable = static_cast<unsigned char*>(std::calloc(kArenaSize, 1));
        g_shared_addressable = arena->addressable;
        detail::g_shared_arena = static_cast<char*>(p);
        set_arena_bounds(reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + kArenaSize);
        return arena;
    }();
    return *a;
}

std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

std::size_t place(Arena& a, std::size_t base, std::size_t cap, std::size_t* used, const char* name, std::size_t size,
                  std::size_t align, bool* ok) {
    std::size_t off = align_up(base + *used, align);
    *ok = off + size + kRedzone <= base + cap;
    if (!*ok) return 0;
    std::memset(a.addressable + off, 1, size);
    std::memset(detail::g_shared_arena + off, kGarbage, size);
    *used = off + size + kRedzone - base;
    a.vars.push_back({name, off, size});
    return off;
}

}  // namespace

bool shared_var_at(std::size_t off, SharedVarInfo* out, bool* in_bounds) {
    const Var* best = nullptr;
    for (const Var& v : arena().vars) {
        if (v.offset <= off && (!best || v.offset > best->offset)) best = &v;
    }
    if (!best) return false;
    *out = {best->name, best->offset, best->size};
    *in_bounds = off < best->offset + best->size;
    return true;
}

std::size_t shared_dynamic_offset() { return kDynBase; }
std::size_t shared_dynamic_size() { return arena().dyn_size; }

std::vector<std::pair<std::size_t, std::size_t>> shared_live_ranges() {
    const Arena& a = arena();
    return {{kPermanentBase, a.permanent_used}, {kStaticBase, a.static_used}, {kDynBase, a.dyn_size}};
}

void shared_launch_begin(std::size_t dynamic_bytes) {
    Arena& a = arena();
    ++detail::g_shared_launch;
    std::memset(a.addressable + kStaticBase, 0, a.static_used);
    std::memset(a.addressable + kDynBase, 0, a.dyn_size);
    a.vars.resize(a.permanent_vars);
    a.static_used = 0;
    a.static_declared = 0;
    // The engine rejects launches over the device's limit; the arena holds at least that much.
    a.dyn_size = dynamic_bytes < kDynCap - kRedzone ? dynamic_bytes : kDynCap - kRedzone;
    std::memset(a.addressable + kDynBase, 1, a.dyn_size);
    if (a.dyn_size) a.vars.push_back({"dynamic shared memory", kDynBase, a.dyn_size});
}

void shared_block_begin() {
    // Shared memory starts every block with undefined contents; garbage makes a missed write visible in results too.
    Arena& a = arena();
    std::memset(detail::g_shared_arena + kStaticBase, kGarbage, a.static_used);
    std::memset(detail::g_shared_arena + kDynBase, kGarbage, a.dyn_size);
    for (std::size_t i = 0; i < a.permanent_vars; ++i) {
        std::memset(detail::g_shared_arena + a.vars[i].offset, kGarbage, a.vars[i].size);
    }
}

}  // namespace emu::mc

namespace emu::detail {

void* shared_lookup(SharedSlot* slot, const char* name, std::size_t size, std::size_t align) {
    using namespace emu::mc;
    Arena& a = arena();
    bool ok = true;
    if (!rt::g_in_kernel) {
        // A namespace-scope declaration, initialized before main(): its place is fixed for the whole process.
        auto it = a.permanent.find(slot);
        if (it != a.permanent.end()) return g_shared_arena + it->second;
        // Permanent variables must stay in front of the launch's ones in `vars`.
        std::vector<Var> launch_vars(a.vars.begin() + static_cast<std::ptrdiff_t>(a.permanent_vars), a.vars.end());
        a.vars.resize(a.permanent_vars);
        std::size_t off = place(a, kPermanentBase, kPermanentCap, &a.permanent_used, name, size, align, &ok);
        if (!ok) {
            std::fprintf(stderr, "emu: namespace-scope __shared__ variables exceed %zu bytes (at '%s')\n",
                         kPermanentCap, name);
            std::abort();
        }
        a.permanent_vars = a.vars.size();
        a.vars.insert(a.vars.end(), launch_vars.begin(), launch_vars.end());
        a.permanent.emplace(slot, off);
        return g_shared_arena + off;
    }
    a.static_declared += size;
    std::size_t off = place(a, kStaticBase, kStaticCap, &a.static_used, name, size, align, &ok);
    if (!ok || a.static_declared > kStaticLimit) {
        fatal("launch",
              "Kernel " + std::string(rt::kernel_name()) + " declares more than 48 KB of static __shared__ memory (" +
                  std::to_string(a.static_declared) + " bytes once '" + name +
                  "' is added)\n    hint: nvcc rejects this too (\"uses too much shared data\"); use dynamic shared "
                  "memory with cudaFuncSetAttribute for more",
              701 /* cudaErrorLaunchOutOfResources */);
    }
    slot->launch = g_shared_launch;
    slot->offset = off;
    return g_shared_arena + off;
}

void* dynamic_shared_base() {
    emu::mc::arena();
    return g_shared_arena + emu::mc::kDynBase;
}

}  // namespace emu::detail
