// UBSan (-fsanitize=undefined) inside kernels is a diagnostic of the emulator, not the end of the process. Every
// check g++ emits with -fno-sanitize-recover calls a `__ubsan_handle_*_abort` function (or the noreturn
// unreachable / missing-return ones). Inside a kernel, the emulator's definition reports the check like the memory
// checker reports a bad access: what happened (one line), the source file:line UBSan recorded, the kernel, the CUDA
// thread and block, a hint; then it ends the launch with a GPU error (sticky, as on a GPU) and the program, and every
// other verdict of the run, go on. Outside kernels, the call goes to libubsan's own handler (its usual message, then
// abort), found with dlsym(RTLD_NEXT).
//
// The definitions here take precedence over libubsan's, because the executable itself defines them; the data
// layouts below are UBSan's stable ABI (ubsan_handlers.h, ubsan_value.h, as GCC emits them).
#include <dlfcn.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "memcheck.hpp"

namespace {

struct SourceLocation {
    const char* file;
    std::uint32_t line;
    std::uint32_t column;
};

struct TypeDescriptor {
    std::uint16_t kind;  // 0: integer (info = log2(bit width) << 1 | signed), 1: float (info = bit width)
    std::uint16_t info;
    char name[1];  // already quoted: 'float [32]'
};

using ValueHandle = std::uintptr_t;

struct OutOfBoundsData {
    SourceLocation loc;
    const TypeDescriptor* array_type;
    const TypeDescriptor* index_type;
};
struct OverflowData {
    SourceLocation loc;
    const TypeDescriptor* type;
};
struct ShiftOutOfBoundsData {
    SourceLocation loc;
    const TypeDescriptor* lhs_type;
    const TypeDescriptor* rhs_type;
};
struct TypeMismatchData {
    SourceLocation loc;
    const TypeDescriptor* type;
    unsigned char log_alignment;
    unsigned char check_kind;
};
struct VlaBoundData {
    SourceLocation loc;
    const TypeDescriptor* type;
};
struct InvalidValueData {
    SourceLocation loc;
    const TypeDescriptor* type;
};
struct UnreachableData {
    SourceLocation loc;
};
struct NonNullArgData {
    SourceLocation loc;
    SourceLocation attr_loc;
    int arg_index;
};
struct NonNullReturnData {
    SourceLocation attr_loc;
};
struct PointerOverflowData {
    SourceLocation loc;
};
struct InvalidBuiltinData {
    SourceLocation loc;
    unsigned char kind;  // 0: ctz, 1: clz
};

unsigned bit_width(const TypeDescriptor* t) { return t->kind == 0 ? 1u << (t->info >> 1) : t->info; }
bool is_signed(const TypeDescriptor* t) { return t->kind == 0 && (t->info & 1); }

// A value as UBSan passes it: inline when it fits a pointer, else by address.
std::string value_text(const TypeDescriptor* t, ValueHandle v) {
    if (t->kind == 0) {
        const unsigned bits = bit_width(t);
        if (bits <= 64) {
            if (is_signed(t)) {
                const unsigned shift = 64 - bits;
                return std::to_string(static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << shift) >> shift);
            }
            return std::to_string(bits == 64 ? static_cast<std::uint64_t>(v)
                                             : static_cast<std::uint64_t>(v) & ((std::uint64_t{1} << bits) - 1));
        }
        if (bits == 128) {
            // Only the low 64 bits are shown exactly; 128-bit values in kernels are rare.
            std::uint64_t lo;
            std::memcpy(&lo, reinterpret_cast<const void*>(v), sizeof lo);
            return std::to_string(lo) + " (low 64 bits)";
        }
    }
    if (t->kind == 1) {
        char buf[64];
        if (t->info == 32) {
            float f;
            const std::uint32_t b = static_cast<std::uint32_t>(v);
            std::memcpy(&f, &b, sizeof f);
            std::snprintf(buf, sizeof buf, "%g", static_cast<double>(f));
        } else if (t->info == 64) {
            double d;
            std::memcpy(&d, &v, sizeof d);
            std::snprintf(buf, sizeof buf, "%g", d);
        } else {
            return "(value)";
        }
        return buf;
    }
    return "(value)";
}

bool negative(const TypeDescriptor* t, ValueHandle v) {
    return is_signed(t) && bit_width(t) <= 64 && value_text(t, v)[0] == '-';
}

std::string at(const SourceLocation& l) {
    return std::string(l.file ? l.file : "<unknown>") + ":" + std::to_string(l.line);
}

// Inside a kernel: the report, then the launch ends with `cuda_error`. Outside: libubsan's handler `name` runs with
// the same arguments (it prints and aborts); if it cannot be found, the message is printed here and the process aborts.
template <typename... Args>
[[noreturn]] void handle(const char* name, const char* check, const SourceLocation& loc, const std::string& what,
                         const char* hint, int cuda_error, Args... args) {
    if (emu::rt::g_in_kernel) {
        const emu::rt::ThreadInfo& t = emu::rt::current_thread();
        // An array index past its bound is the memory checker's out-of-bounds, found by UBSan first.
        const bool bounds = std::strcmp(check, "array-bounds") == 0;
        emu::mc::fatal(bounds ? "out-of-bounds" : "undefined-behavior",
                       "Undefined behavior (" + std::string(check) + "): " + what + "\n    at " + at(loc) +
                           " in kernel " + emu::rt::kernel_name() + "\n    by thread " + emu::mc::dim_str(t.thread) +
                           " in block " + emu::mc::dim_str(t.block) + "\n    hint: " + hint,
                       cuda_error);
    }
    using Fn = void (*)(Args...);
    // The process aborts: what the program printed before is flushed first, so that the report follows it (piped
    // output is fully buffered and abort() discards the buffer).
    std::fflush(stdout);
    if (auto real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name))) real(args...);
    std::fprintf(stderr, "%s: runtime error: %s\n", at(loc).c_str(), what.c_str());
    std::abort();
}

constexpr int kLaunchFailure = 719;   // cudaErrorLaunchFailure: what a GPU reports for a kernel that went wrong
constexpr int kIllegalAddress = 700;  // cudaErrorIllegalAddress

const char* kOverflowHint =
    "signed overflow is undefined in C++ (the GPU wraps around, but the compiler may assume it never happens); use a "
    "wider or unsigned type";

std::string overflow_what(const OverflowData* d, ValueHandle a, ValueHandle b, const char* op) {
    return "signed integer overflow: " + value_text(d->type, a) + " " + op + " " + value_text(d->type, b) +
           " cannot be represented in type " + d->type->name;
}

}  // namespace

extern "C" {

void __ubsan_handle_out_of_bounds_abort(OutOfBoundsData* d, ValueHandle index) {
    handle("__ubsan_handle_out_of_bounds_abort", "array-bounds", d->loc,
           "Index " + value_text(d->index_type, index) + " out of bounds for type " + d->array_type->name,
           "the index reaches past the array (a __shared__ or local array); check its size and the index range",
           kIllegalAddress, d, index);
}

void __ubsan_handle_shift_out_of_bounds_abort(ShiftOutOfBoundsData* d, ValueHandle lhs, ValueHandle rhs) {
    std::string what;
    const unsigned bits = bit_width(d->lhs_type);
    if (negative(d->rhs_type, rhs)) {
        what = "shift exponent " + value_text(d->rhs_type, rhs) + " is negative";
    } else if (d->rhs_type->kind == 0 && bit_width(d->rhs_type) <= 64 && static_cast<std::uint64_t>(rhs) >= bits) {
        what = "shift exponent " + value_text(d->rhs_type, rhs) + " is too large for " + std::to_string(bits) +
               "-bit type " + d->lhs_type->name;
    } else if (negative(d->lhs_type, lhs)) {
        what = "left shift of negative value " + value_text(d->lhs_type, lhs);
    } else {
        what = "left shift of " + value_text(d->lhs_type, lhs) + " by " + value_text(d->rhs_type, rhs) +
               " places cannot be represented in type " + d->lhs_type->name;
    }
    handle("__ubsan_handle_shift_out_of_bounds_abort", "shift", d->loc, what,
           "a shift by the type's width or more (or by a negative amount) is undefined in C++; the GPU's shl/shr "
           "clamp the amount, so a kernel can look right there and still be wrong: shift a wider type (1ull << n) or "
           "test n first",
           kLaunchFailure, d, lhs, rhs);
}

void __ubsan_handle_add_overflow_abort(OverflowData* d, ValueHandle a, ValueHandle b) {
    handle("__ubsan_handle_add_overflow_abort", "signed-integer-overflow", d->loc, overflow_what(d, a, b, "+"),
           kOverflowHint, kLaunchFailure, d, a, b);
}

void __ubsan_handle_sub_overflow_abort(OverflowData* d, ValueHandle a, ValueHandle b) {
    handle("__ubsan_handle_sub_overflow_abort", "signed-integer-overflow", d->loc, overflow_what(d, a, b, "-"),
           kOverflowHint, kLaunchFailure, d, a, b);
}

void __ubsan_handle_mul_overflow_abort(OverflowData* d, ValueHandle a, ValueHandle b) {
    handle("__ubsan_handle_mul_overflow_abort", "signed-integer-overflow", d->loc, overflow_what(d, a, b, "*"),
           "a product past 2^31 in int is undefined (the GPU's wrap-around is not promised); compute an index such "
           "as row * cols in size_t or long long, and a value in a wider or unsigned type",
           kLaunchFailure, d, a, b);
}

void __ubsan_handle_negate_overflow_abort(OverflowData* d, ValueHandle v) {
    handle("__ubsan_handle_negate_overflow_abort", "signed-integer-overflow", d->loc,
           "negation of " + value_text(d->type, v) + " cannot be represented in type " + d->type->name, kOverflowHint,
           kLaunchFailure, d, v);
}

void __ubsan_handle_divrem_overflow_abort(OverflowData* d, ValueHandle a, ValueHandle b) {
    const bool by_zero = d->type->kind == 0 ? value_text(d->type, b) == "0" : true;
    handle("__ubsan_handle_divrem_overflow_abort", by_zero ? "integer-divide-by-zero" : "signed-integer-overflow",
           d->loc,
           by_zero ? "division by zero"
                   : "division of " + value_text(d->type, a) + " by " + value_text(d->type, b) +
                         " cannot be represented in type " + d->type->name,
           "integer division by zero is undefined (a GPU returns an unspecified value); check the divisor",
           kLaunchFailure, d, a, b);
}

// Returns (only for Thrust's null tag references, below) the pointer it was given: at -O0, where the emulator always
// compiles, g++ falls through from this call to the checked code, which reuses the pointer's register (rax).
ValueHandle __ubsan_handle_type_mismatch_v1_abort(TypeMismatchData* d, ValueHandle pointer) {
    // Thrust binds references to its empty system tags through null pointers (`select_system(*system)` with
    // `System* system = 0`, thrust/detail/reference.h) and never reads them; a GPU build does the same. That one
    // idiom, in Thrust's own headers, is let through; a null reference anywhere else is reported.
    // Each site is looked at once: Thrust reaches it on every element access.
    thread_local const TypeMismatchData* last_thrust_site = nullptr;
    if (pointer == 0 && d == last_thrust_site) return pointer;
    if (pointer == 0 && d->check_kind == 2 && d->loc.file && std::strstr(d->loc.file, "/thrust/")) {
        last_thrust_site = d;
        return pointer;
    }
    static const char* const kinds[] = {"load of",
                                        "store to",
                                        "reference binding to",
                                        "member access within",
                                        "member call on",
                                        "constructor call on",
                                        "downcast of",
                                        "downcast of",
                                        "upcast of",
                                        "cast to virtual base of",
                                        "_Nonnull binding to",
                                        "dynamic operation on"};
    const char* k = d->check_kind < sizeof kinds / sizeof kinds[0] ? kinds[d->check_kind] : "access to";
    const std::uintptr_t align = std::uintptr_t{1} << d->log_alignment;
    std::string what;
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", reinterpret_cast<void*>(pointer));
    if (pointer == 0) what = std::string(k) + " null pointer of type " + d->type->name;
    else if (d->log_alignment && (pointer & (align - 1)))
        what = std::string(k) + " misaligned address " + addr + " for type " + d->type->name + ", which requires " +
               std::to_string(align) + " byte alignment";
    else what = std::string(k) + " address " + addr + " with insufficient space for an object of type " + d->type->name;
    handle("__ubsan_handle_type_mismatch_v1_abort", pointer == 0 ? "null" : "object-size", d->loc, what,
           "the pointer does not point at an object of this type (a null pointer argument, or a pointer past its "
           "object)",
           kIllegalAddress, d, pointer);
}

void __ubsan_handle_vla_bound_not_positive_abort(VlaBoundData* d, ValueHandle bound) {
    handle("__ubsan_handle_vla_bound_not_positive_abort", "vla-bound", d->loc,
           "variable length array bound evaluates to non-positive value " + value_text(d->type, bound),
           "the size of a variable-length array must be positive", kLaunchFailure, d, bound);
}

void __ubsan_handle_load_invalid_value_abort(InvalidValueData* d, ValueHandle v) {
    handle("__ubsan_handle_load_invalid_value_abort", "bool/enum", d->loc,
           "load of value " + value_text(d->type, v) + ", which is not a valid value for type " + d->type->name,
           "a bool or enum read from memory that holds something else (uninitialized, or written as another type)",
           kLaunchFailure, d, v);
}

[[noreturn]] void __ubsan_handle_builtin_unreachable(UnreachableData* d) {
    handle("__ubsan_handle_builtin_unreachable", "unreachable", d->loc,
           "execution reached an unreachable program point (__builtin_unreachable)",
           "a path the code declares impossible was taken", kLaunchFailure, d);
}

[[noreturn]] void __ubsan_handle_missing_return(UnreachableData* d) {
    handle("__ubsan_handle_missing_return", "return", d->loc,
           "execution reached the end of a value-returning function without returning a value",
           "a __device__ function that returns a value must return one on every path", kLaunchFailure, d);
}

void __ubsan_handle_nonnull_arg_abort(NonNullArgData* d) {
    handle("__ubsan_handle_nonnull_arg_abort", "nonnull-attribute", d->loc,
           "null pointer passed as argument " + std::to_string(d->arg_index) + ", which is declared to never be null",
           "a library function (memcpy, memset, …) was given a null pointer", kIllegalAddress, d);
}

void __ubsan_handle_nonnull_return_v1_abort(NonNullReturnData* d, SourceLocation* loc) {
    handle("__ubsan_handle_nonnull_return_v1_abort", "returns-nonnull-attribute", *loc,
           "null pointer returned from function declared to never return null",
           "the function is declared returns_nonnull", kLaunchFailure, d, loc);
}

void __ubsan_handle_pointer_overflow_abort(PointerOverflowData* d, ValueHandle base, ValueHandle result) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "pointer index expression with base %p overflowed to %p",
                  reinterpret_cast<void*>(base), reinterpret_cast<void*>(result));
    handle("__ubsan_handle_pointer_overflow_abort", "pointer-overflow", d->loc, buf,
           "pointer arithmetic wrapped around the address space (a huge or negative offset)", kIllegalAddress, d, base,
           result);
}

void __ubsan_handle_invalid_builtin_abort(InvalidBuiltinData* d) {
    handle("__ubsan_handle_invalid_builtin_abort", "builtin", d->loc,
           std::string("passing zero to ") + (d->kind == 0 ? "ctz()" : "clz()") + ", which is not a valid argument",
           "__builtin_clz/ctz of 0 is undefined; CUDA's __clz(0) is 32, so test for zero first", kLaunchFailure, d);
}

}  // extern "C"
