// UBSan's array-bounds check (-fsanitize=bounds, part of -fsanitize=undefined) sees `smem[i]` with i past a
// __shared__ or local array before the memory checker does, and would end the whole process. Inside a kernel the
// emulator takes that report over: it names the thread and block, and ends only the launch (cudaErrorIllegalAddress),
// like an out-of-bounds access on the GPU. Outside kernels it behaves as UBSan does (message, then abort).
//
// The definition here takes precedence over libubsan's, because the executable itself defines it; UBSan's data
// layout below is its stable ABI (ubsan_handlers.h, ubsan_value.h).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "memcheck.hpp"

namespace {

struct SourceLocation {
  const char* file;
  std::uint32_t line;
  std::uint32_t column;
};

struct TypeDescriptor {
  std::uint16_t kind;  // 0: integer (info = log2(bit width) << 1 | signed)
  std::uint16_t info;
  char name[1];  // already quoted: 'float [32]'
};

struct OutOfBoundsData {
  SourceLocation loc;
  const TypeDescriptor* array_type;
  const TypeDescriptor* index_type;
};

std::string index_text(const TypeDescriptor* t, std::uintptr_t v) {
  if (t->kind == 0) {
    const unsigned bits = 1u << (t->info >> 1);
    const bool is_signed = t->info & 1;
    if (bits <= 64) {
      if (is_signed) {
        const unsigned shift = 64 - bits;
        return std::to_string(static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << shift) >> shift);
      }
      return std::to_string(static_cast<std::uint64_t>(v));
    }
  }
  return "(index)";
}

}  // namespace

extern "C" void __ubsan_handle_out_of_bounds_abort(OutOfBoundsData* d, std::uintptr_t index) {
  const std::string idx = index_text(d->index_type, index);
  if (emu::rt::g_in_kernel) {
    const emu::rt::ThreadInfo& t = emu::rt::current_thread();
    emu::mc::fatal("out-of-bounds",
                   std::string("Index ") + idx + " out of bounds for type " + d->array_type->name + "\n    at " +
                       d->loc.file + ":" + std::to_string(d->loc.line) + " in kernel " + emu::rt::kernel_name() +
                       "\n    by thread " + emu::mc::dim_str(t.thread) + " in block " + emu::mc::dim_str(t.block) +
                       "\n    hint: the index reaches past the array (a __shared__ or local array); check its size "
                       "and the index range",
                   700 /* cudaErrorIllegalAddress */);
  }
  std::fprintf(stderr, "%s:%" PRIu32 ":%" PRIu32 ": runtime error: index %s out of bounds for type %s\n",
               d->loc.file, d->loc.line, d->loc.column, idx.c_str(), d->array_type->name);
  std::abort();
}
