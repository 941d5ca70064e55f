// What a blank's fill may hold. A fill in this lesson is arithmetic and control flow on the kernel's own values, and
// it is the only code of the student's that the edit check lets through; in the worker process it is linked with the
// emulator runtime, so anything more (a directive, a system call, a name of the grader's internals) is refused
// before anything is compiled. The policy is by token class, allow-listed where a list can be complete:
//
//   numbers                 allowed
//   punctuators             allowed, except `#` `##` (preprocessing), `::` (a fill names nothing by qualified name:
//                           no `std::`, `emu::`, `wb::`), `<<<` `>>>` (launches), `[[` (attributes)
//   keywords                an allow-list: types, cv, control flow, casts, sizeof/alignof/decltype, local
//                           struct/union/enum/class/typedef, lambdas' mutable/noexcept; so no asm, static, extern,
//                           thread_local, namespace, using, new, delete, throw, try, goto, template, operator …
//   identifiers             allowed, except a deny-list by class (the grader's namespaces and macros; process
//                           control; dynamic loading; environment; files, streams and descriptors; raw system calls,
//                           memory mapping and allocation; signals and threads; the CUDA runtime API `cuda*`, host
//                           code; the C library's functions that read or write through a pointer and have no device
//                           version, out of the emulator's checker's sight: review/c_library.hpp), and except names
//                           reserved to the
//                           implementation (`__x`, `_X`: `__CUDA_ARCH__`, `__tsan_*`, `__attribute__`, `__asm__`,
//                           `_Pragma`) other than CUDA's documented device functions and types; names the starter
//                           itself uses are always allowed
//   string and character literals, stray characters   refused (no paths, no asm text, no _Pragma operands)
//   directives              refused, except `#pragma unroll [n]`, which the solutions use and which changes no result
//
// The whole file is also refused when it holds a line splice or a trigraph that the starter does not: compilers and
// the grader's own tools would not all read it the same way.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "review/tokens.hpp"

namespace workbook::review {

// Far above any fill of the lesson (the longest solution fill has 71 tokens); a longer one is refused before
// any rule or diff runs on it.
inline constexpr std::size_t kMaxFillTokens = 1000;

struct Refusal {
    int line = 0;
    std::string what;  // a clause: "holds a preprocessor directive (`#define X 1`)"
};

// Identifiers of the starter's code: names a fill may always use (its parameters, locals, helpers, `______`).
std::set<std::string> starter_names(const std::vector<Tok>& pristine);

// The first token of `toks[b, e)` (one fill) that the policy refuses, or nothing.
std::optional<Refusal> refuse_fill(const std::vector<Tok>& toks, std::size_t b, std::size_t e,
                                   const std::set<std::string>& allowed_names);

// A line splice or trigraph in `student` beyond those of `pristine`, or nothing.
std::optional<Refusal> refuse_source(const std::string& student, const std::string& pristine);

}  // namespace workbook::review
