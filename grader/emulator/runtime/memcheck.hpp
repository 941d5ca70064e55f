// Internals of the memory checker, shared by tsan_hooks.cpp (the entry points instrumented code calls),
// device_memory.cpp (global memory), shared_arena.cpp (the __shared__ arena) and memcheck.cpp (shadow state,
// race and initialization checks, reports).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "exec.hpp"

namespace emu::mc {

// Access flags.
enum : unsigned {
  kWrite = 1,       // else a read
  kAtomic = 2,      // an atomic operation (read-modify-write: checked as a write that also reads)
  kNaturalAlign = 4 // the compiler assumed the address aligned to the access size (plain __tsan_readN/writeN)
};

// Address ranges that hooks check; everything else (fiber stacks, host heap, globals) is ignored.
// Written once at start-up (the regions are reserved whole, so the bounds never move).
extern std::uintptr_t g_heap_lo, g_heap_hi;    // device allocations
extern std::uintptr_t g_arena_lo, g_arena_hi;  // __shared__ arena

void global_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);
void shared_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);

inline void access(const void* p, std::size_t size, unsigned flags, const void* pc) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - g_arena_lo < g_arena_hi - g_arena_lo) shared_access(a, size, flags, pc);
  else if (a - g_heap_lo < g_heap_hi - g_heap_lo) global_access(a, size, flags, pc);
}

// Host code touching device memory that is not host-accessible: reported, then the program aborts.
void host_access(std::uintptr_t addr, std::size_t size, unsigned flags, const void* pc);

// Counts hook calls made inside kernels (for the overhead numbers in docs/emulator.md).
extern std::uint64_t g_hook_calls;

// ---- shared arena (shared_arena.cpp) --------------------------------------------------------------------------
// Every block starts with its shared memory filled with this byte (uninitialized floats read as NaN).
constexpr unsigned char kSharedGarbage = 0xff;
struct SharedVarInfo {
  const char* name;   // "smem", or "dynamic shared memory"
  std::size_t offset; // of the variable's first byte in the arena
  std::size_t size;
};
// The variable whose bytes (or redzone) hold arena offset `off`, or the nearest one before it; false if none.
bool shared_var_at(std::size_t off, SharedVarInfo* out, bool* in_bounds);
extern unsigned char* g_shared_addressable;  // one flag per arena byte: inside a variable of the running launch
inline bool shared_addressable(std::size_t off, std::size_t size) {
  if (off + size > g_arena_hi - g_arena_lo) return false;
  for (std::size_t i = 0; i < size; ++i) {
    if (!g_shared_addressable[off + i]) return false;
  }
  return true;
}
std::size_t shared_dynamic_offset();
std::size_t shared_dynamic_size();
void shared_launch_begin(std::size_t dynamic_bytes);
void shared_block_begin();

// ---- shadow state and reports (memcheck.cpp) ----------------------------------------------------------------
void shadow_check(std::size_t arena_off, std::size_t size, unsigned flags, const void* pc);
void shadow_launch_begin();
void shadow_launch_end();  // reports the races and uninitialized reads collected during the launch

// ---- device memory (device_memory.cpp) ----------------------------------------------------------------------
void device_launch_end();

// ---- message helpers (memcheck.cpp) -------------------------------------------------------------------------
std::string thread_str(unsigned linear);             // "(x,y,z)" of a linear thread index in the running block
std::string dim_str(const rt::Dim3& d);              // "(x,y,z)"
std::string where(const void* pc);                   // "file.cu:LINE" of attribute(pc) (via rt::symbolize)
const void* attribute(const void* pc);               // see memcheck.cpp
// Reports `kind` with the standard header lines and aborts the launch with `cuda_error`.
[[noreturn]] void fatal(const char* kind, const std::string& body, int cuda_error);

}  // namespace emu::mc
