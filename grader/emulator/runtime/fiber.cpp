// Fiber stacks and the context switch. The switch is hand-written on x86-64 because it runs twice per CUDA thread per
// barrier or shuffle (tens of millions of times per graded test); swapcontext would also save the signal mask with a
// system call each time. Other architectures use ucontext.
#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <vector>

#if !defined(__x86_64__) || defined(EMU_FIBER_UCONTEXT)
#include <ucontext.h>
#endif

namespace emu::rt {

namespace fiber_detail {
char** g_deepest = nullptr;
unsigned g_deepest_count = 0;
}  // namespace fiber_detail

namespace {

std::size_t page_size() {
    static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return p;
}

std::vector<FiberStack>& pool() {
    static std::vector<FiberStack> stacks;
    return stacks;
}

// What fiber_poison knows about each stack: [floor, top) held only poison before the last thread started; that
// thread changed words from `low` up at least, and blocked at fiber_detail::g_deepest[i] (kept apart, for the
// switch's inline fiber_note_depth).
struct PoisonState {
    char* floor = nullptr;
    char* low = nullptr;
};
std::vector<PoisonState>& poison_states() {
    static std::vector<PoisonState> states;
    return states;
}
std::vector<char*>& deepest_points() {
    static std::vector<char*> points;
    return points;
}
// Grows both tables to cover stack `i`.
void cover_stack(unsigned i) {
    if (poison_states().size() <= i) poison_states().resize(i + 1);
    auto& d = deepest_points();
    if (d.size() <= i) {
        d.resize(i + 1, nullptr);
        fiber_detail::g_deepest = d.data();
        fiber_detail::g_deepest_count = static_cast<unsigned>(d.size());
    }
}

constexpr std::size_t kPoisonInitial = 4096;  // a lesson kernel's thread uses about 2 KiB at -O0; a page is a fault
constexpr std::size_t kPoisonMargin = 256;    // below the lowest changed word seen last time

// The lowest word in [from, to) that is no longer poison, or `to`.
char* lowest_changed(char* from, char* to) {
    auto* p = reinterpret_cast<std::uint64_t*>(from);
    auto* end = reinterpret_cast<std::uint64_t*>(to);
    constexpr std::uint64_t kWord = kStackPoison;
    while (p + 4 <= end && ((p[0] ^ kWord) | (p[1] ^ kWord) | (p[2] ^ kWord) | (p[3] ^ kWord)) == 0) p += 4;
    while (p < end && *p == kWord) ++p;
    return reinterpret_cast<char*>(p);
}

// Both ends 8-byte aligned. The pattern repeats every 4 bytes, the size of glibc's wchar_t: wmemset is the C
// library's vectorized fill for it (measured on 1 M lesson-kernel threads: the poison cost 120 ns per thread with a
// loop of 8-byte stores, 75 ns with wmemset).
static_assert(sizeof(wchar_t) == 4 && (kStackPoison >> 32) == (kStackPoison & 0xffffffffu), "a 4-byte pattern");
void fill_poison(char* from, char* to) {
    std::wmemset(reinterpret_cast<wchar_t*>(from), static_cast<wchar_t>(kStackPoison & 0xffffffffu),
                 static_cast<std::size_t>(to - from) / 4);
}

}  // namespace

FiberStack fiber_stack(unsigned i) {
    auto& stacks = pool();
    if (i < stacks.size() && stacks[i].base) return stacks[i];
    if (i >= stacks.size()) stacks.resize(i + 1);
    // Stack tops 260 KiB apart would all fall into the same cache sets; staggering them by a few cache lines keeps
    // the tops of a block's 256 or 1024 stacks from evicting each other at every switch.
    const std::size_t stagger = (static_cast<std::size_t>(i) * 9 % 256) * 64;
    const std::size_t guard = page_size();
    // MAP_NORESERVE: 1024 threads x 256 KiB is reserved address space, only touched pages cost memory.
    void* m = mmap(nullptr, kFiberStackBytes + guard, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        std::perror("emu: mmap of a fiber stack failed");
        std::abort();
    }
    char* base = static_cast<char*>(m) + guard;
    if (mprotect(base, kFiberStackBytes, PROT_READ | PROT_WRITE) != 0) {
        std::perror("emu: mprotect of a fiber stack failed");
        std::abort();
    }
    stacks[i] = FiberStack{base, kFiberStackBytes - stagger};
    return stacks[i];
}

void fiber_poison(unsigned i) {
    const FiberStack st = fiber_stack(i);
    cover_stack(i);
    PoisonState& ps = poison_states()[i];
    char*& deepest = fiber_detail::g_deepest[i];
    char* const top =
        reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(st.base + st.size) & ~std::uintptr_t{63});
    if (!ps.floor) {
        ps.floor = top - std::min(kPoisonInitial, static_cast<std::size_t>(top - st.base));
        fill_poison(ps.floor, top);
        ps.low = deepest = top;
        return;
    }
    // Where the last thread changed the stack: scan up from a margin below the lowest word changed last time (or the
    // deepest point this thread was seen at, if lower). The words below held poison and, unless a call went deeper
    // than that without touching the word where the scan starts, still do.
    char* start = std::min(ps.low, deepest) - kPoisonMargin;
    start = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(std::max(start, ps.floor)) & ~std::uintptr_t{7});
    char* low = lowest_changed(start, top);
    if (low < start + 64 && start > ps.floor) low = lowest_changed(ps.floor, top);  // changed right at the start
    if (low < ps.floor + kPoisonMargin && ps.floor > st.base) {
        // The thread came close to the poisoned floor: poison twice as deep for the next ones.
        char* deeper =
            ps.floor - std::min(static_cast<std::size_t>(top - ps.floor), static_cast<std::size_t>(ps.floor - st.base));
        fill_poison(deeper, ps.floor);
        ps.floor = deeper;
    }
    fill_poison(low, top);
    ps.low = low;
    deepest = top;
}

namespace {
// The lowest byte a suspended fiber still needs. x86-64: its saved stack pointer (the switch pushed the registers
// below the last frame). ucontext: the deepest point it was noted at, less room for the swapcontext frame below it.
char* suspended_low(unsigned i, const FiberContext& ctx, const FiberStack& st) {
#if defined(__x86_64__) && !defined(EMU_FIBER_UCONTEXT)
    (void)i;
    (void)st;
    return static_cast<char*>(ctx.sp);
#else
    (void)ctx;
    constexpr std::size_t kSwitchFrame = 4096;
    char* deepest = i < fiber_detail::g_deepest_count ? fiber_detail::g_deepest[i] : st.base;
    return deepest - std::min(kSwitchFrame, static_cast<std::size_t>(deepest - st.base));
#endif
}
}  // namespace

void fiber_save_stack(unsigned i, const FiberContext& ctx, std::vector<char>& out) {
    const FiberStack st = fiber_stack(i);
    char* const top = st.base + st.size;
    char* const low = suspended_low(i, ctx, st);
    out.assign(low, top);
}

void fiber_restore_stack(unsigned i, const std::vector<char>& saved) {
    const FiberStack st = fiber_stack(i);
    char* const top = st.base + st.size;
    std::copy(saved.begin(), saved.end(), top - saved.size());
    // The restored bytes are no longer poison: the next fiber_poison of this stack scans from below them.
    fiber_note_depth(i, top - saved.size());
}

bool fiber_guard_hit(const void* addr, unsigned* index) {
    const char* a = static_cast<const char*>(addr);
    const auto& stacks = pool();
    for (unsigned i = 0; i < stacks.size(); ++i) {
        const char* b = stacks[i].base;
        if (b && a < b && a >= b - page_size()) {
            if (index) *index = i;
            return true;
        }
    }
    return false;
}

#if defined(__x86_64__) && !defined(EMU_FIBER_UCONTEXT)

// Callee-saved registers, then MXCSR and the x87 control word (the SysV ABI makes their control bits callee-saved).
// The trampoline's undefined return address ends unwinding and backtraces at the fiber's first frame.
asm(R"(
  .text
  .globl emu_fiber_switch_asm
  .hidden emu_fiber_switch_asm
  .type emu_fiber_switch_asm,@function
emu_fiber_switch_asm:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  /* Reloading MXCSR and the x87 control word stalls the pipeline; kernels almost never change them, so reload
     only when the target's saved value differs from the live one (already stored at (%rdi)'s old stack top). */
  movq (%rdi), %rax
  movl (%rax), %ecx
  cmpl (%rsp), %ecx
  je 1f
  ldmxcsr (%rsp)
1:
  movzwl 4(%rax), %ecx
  cmpw 4(%rsp), %cx
  je 2f
  fldcw 4(%rsp)
2:
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size emu_fiber_switch_asm, .-emu_fiber_switch_asm

  .globl emu_fiber_trampoline
  .hidden emu_fiber_trampoline
  .type emu_fiber_trampoline,@function
emu_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size emu_fiber_trampoline, .-emu_fiber_trampoline
)");

extern "C" void emu_fiber_trampoline();

void fiber_prepare(FiberContext& ctx, const FiberStack& st, FiberEntry entry, void* arg) {
    auto top = reinterpret_cast<std::uintptr_t>(st.base + st.size) & ~std::uintptr_t{15};
    auto* slot = reinterpret_cast<std::uint64_t*>(top);
    // After the switch's final `ret` pops the trampoline address, rsp is top-16: 16-byte aligned, as a call expects.
    slot[-2] = 0;
    slot[-3] = reinterpret_cast<std::uint64_t>(&emu_fiber_trampoline);
    slot[-4] = 0;                                       // rbp
    slot[-5] = 0;                                       // rbx
    slot[-6] = reinterpret_cast<std::uint64_t>(arg);    // r12
    slot[-7] = reinterpret_cast<std::uint64_t>(entry);  // r13
    slot[-8] = 0;                                       // r14
    slot[-9] = 0;                                       // r15
    std::uint32_t mxcsr;
    std::uint16_t fcw;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fcw));
    slot[-10] = mxcsr | (static_cast<std::uint64_t>(fcw) << 32);
    ctx.sp = &slot[-10];
}

#else  // ucontext fallback

namespace {
struct UcStart {
    FiberEntry entry;
    void* arg;
};
void uc_start(unsigned hi, unsigned lo) {
    auto* s = reinterpret_cast<UcStart*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
    s->entry(s->arg);
    std::abort();
}
}  // namespace

void fiber_prepare(FiberContext& ctx, const FiberStack& st, FiberEntry entry, void* arg) {
    struct Box {
        ucontext_t uc;
        UcStart start;
    };
    auto* box = static_cast<Box*>(ctx.uc);
    if (!box) {
        box = new Box();
        ctx.uc = box;
    }
    getcontext(&box->uc);
    box->uc.uc_stack.ss_sp = st.base;
    box->uc.uc_stack.ss_size = st.size;
    box->uc.uc_link = nullptr;
    box->start = UcStart{entry, arg};
    auto p = reinterpret_cast<std::uintptr_t>(&box->start);
    makecontext(&box->uc, reinterpret_cast<void (*)()>(&uc_start), 2, static_cast<unsigned>(p >> 32),
                static_cast<unsigned>(p & 0xffffffffu));
}

void fiber_switch(FiberContext& from, const FiberContext& to) {
    if (!from.uc) from.uc = new ucontext_t();
    swapcontext(static_cast<ucontext_t*>(from.uc), static_cast<ucontext_t*>(to.uc));
}

#endif

}  // namespace emu::rt
