// What a fill in host code may hold. A kernel's accesses are checked by the emulator (a kernel reaches only what a
// GPU kernel can: emulator/runtime/kernel_reach.cpp), but host code runs in the worker unchecked: a fill in a
// launcher that made a pointer could write the emulator's heap objects, its shadow memory or the report list, and
// the grade would rest on a forged state (docs/security.md, "Session 10's red team"). A list of the ways C++ makes a
// pointer (casts, `&`, unions, memcpy, bit_cast, placement new, arrays, lambdas, function pointers, asm…) is never
// complete, so a host fill is held to a grammar instead: integer and floating arithmetic on
//   - numbers,
//   - the names this host code can see that the starter declares with an arithmetic type (`int`, `const long`,
//     `constexpr int` …): the function's parameters and locals declared before the blank, the file's constants,
//   - the names the fill itself declares with an arithmetic type, used after their declaration and inside its scope,
//   - calls of `min`, `max` and of the starter's host functions whose parameters and result are all arithmetic;
// with the operators of arithmetic, comparison, assignment and control flow (`if`, `for`, `while`, `switch`,
// `return`, `sizeof`, `static_cast`). No unary `*` or `&` (no dereference, no address, no pointer declarator), no
// `[ ]` (no array, no lambda), no `.` or `->`, no other keyword (`auto`, `decltype`, `struct`, `union`, `typedef`,
// `reinterpret_cast`, `nullptr` …), no name it cannot see declared as a number: nothing in such a fill has a pointer
// type, so nothing in it can write anywhere but its own and the launcher's numbers.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "review/fill_policy.hpp"
#include "review/tokens.hpp"

namespace workbook::review {

struct HostContext {
    bool host = false;                // the blank lies outside every __global__ / __device__ function body
    std::set<std::string> values;     // arithmetic names visible there (innermost declaration arithmetic)
    std::set<std::string> functions;  // host functions visible there whose parameters and result are arithmetic
};

// One context per `______` of a starter's pattern tokens (review/tokens.hpp), in order.
std::vector<HostContext> host_contexts(const std::vector<Tok>& pattern);

// The first token of the fill `toks[b, e)` that the host grammar refuses, or nothing.
std::optional<Refusal> refuse_host_fill(const std::vector<Tok>& toks, std::size_t b, std::size_t e,
                                        const HostContext& context);

}  // namespace workbook::review
