// printf in a .cu file (emu/checked_libc.hpp gives it this assembler name). Device printf is the C library's here,
// and the C library is not instrumented: a kernel's `%n` wrote an int through any pointer, a host variable's made
// from an integer included, past the check of what a kernel may reach (kernel_reach.cpp; docs/security.md, "Session
// 10's red team"), and its format and `%s` strings were read unchecked. Inside a kernel the format is therefore read
// through the checker byte by byte, each `%s` string too, and `%n`, which CUDA's device printf does not have, ends
// the launch; then the C library prints. Host code gets the C library's printf unchanged.
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "exec.hpp"
#include "memcheck.hpp"

namespace emu::rt {
namespace {

// One byte of a string the kernel hands printf, read as the kernel's own read at `pc`.
char checked_byte(const char* p, const void* pc) {
    mc::access(p, 1, 0, pc);
    return *p;
}

// Reads a string of at most `limit` bytes (up to its NUL) through the checker.
void check_string(const char* s, std::size_t limit, const void* pc) {
    for (std::size_t i = 0; i < limit && checked_byte(s + i, pc) != '\0'; ++i) {}
}

[[noreturn]] void refuse(const std::string& what, const void* pc) {
    const ThreadInfo& t = current_thread();
    mc::fatal(
        "printf",
        "Unsupported device printf: " + what + "\n    at " + mc::where(pc) + " in kernel " + kernel_name() +
            "\n    by thread " + mc::dim_str(t.thread) + " in block " + mc::dim_str(t.block) +
            "\n    hint: device printf has the conversions c d i u o x X e E f F g G a A s p (and %% for a percent "
            "sign); it writes nothing through its arguments",
        719 /* cudaErrorLaunchFailure */);
}

// Walks the format and its arguments as the C library will, checking what printf will read.
void check_format(const char* fmt, va_list args, const void* pc) {
    for (std::size_t i = 0;; ++i) {
        char c = checked_byte(fmt + i, pc);
        if (c == '\0') return;
        if (c != '%') continue;
        c = checked_byte(fmt + ++i, pc);
        if (c == '%') continue;
        while (c == '-' || c == '+' || c == ' ' || c == '#' || c == '0') c = checked_byte(fmt + ++i, pc);
        if (c == '*') {
            (void)va_arg(args, int);
            c = checked_byte(fmt + ++i, pc);
        } else {
            while (c >= '0' && c <= '9') c = checked_byte(fmt + ++i, pc);
        }
        std::size_t precision = SIZE_MAX;
        if (c == '.') {
            c = checked_byte(fmt + ++i, pc);
            if (c == '*') {
                const int p = va_arg(args, int);
                precision = p < 0 ? SIZE_MAX : static_cast<std::size_t>(p);
                c = checked_byte(fmt + ++i, pc);
            } else {
                precision = 0;
                while (c >= '0' && c <= '9') {
                    precision = precision * 10 + static_cast<std::size_t>(c - '0');
                    c = checked_byte(fmt + ++i, pc);
                }
            }
        }
        enum { plain, h, l, ll, big } length = plain;
        if (c == 'h') {
            length = h;
            c = checked_byte(fmt + ++i, pc);
            if (c == 'h') c = checked_byte(fmt + ++i, pc);
        } else if (c == 'l') {
            length = l;
            c = checked_byte(fmt + ++i, pc);
            if (c == 'l') length = ll, c = checked_byte(fmt + ++i, pc);
        } else if (c == 'j' || c == 'z' || c == 't') {
            length = ll;  // intmax_t, size_t, ptrdiff_t: 8 bytes here
            c = checked_byte(fmt + ++i, pc);
        } else if (c == 'L') {
            length = big;
            c = checked_byte(fmt + ++i, pc);
        }
        switch (c) {
            case 'd':
            case 'i':
            case 'u':
            case 'o':
            case 'x':
            case 'X':
            case 'c':
                if (c == 'c' && length != plain) refuse("a wide character (%lc)", pc);
                if (length == l || length == ll) (void)va_arg(args, long long);
                else (void)va_arg(args, int);
                break;
            case 'e':
            case 'E':
            case 'f':
            case 'F':
            case 'g':
            case 'G':
            case 'a':
            case 'A':
                if (length == big) (void)va_arg(args, long double);
                else (void)va_arg(args, double);
                break;
            case 'p': (void)va_arg(args, void*); break;
            case 's':
                if (length != plain) refuse("a wide string (%ls)", pc);
                check_string(va_arg(args, const char*), precision, pc);
                break;
            case 'n': refuse("the %n conversion, which writes through its argument", pc);
            default: refuse(std::string("the conversion '%") + (c ? std::string(1, c) : "") + "'", pc);
        }
    }
}

}  // namespace
}  // namespace emu::rt

extern "C" int emu_checked_printf(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    if (emu::rt::g_in_kernel) {
        va_list walk;
        va_copy(walk, args);
        emu::rt::check_format(fmt, walk, __builtin_return_address(0));
        va_end(walk);
    }
    const int n = std::vprintf(fmt, args);
    va_end(args);
    return n;
}
