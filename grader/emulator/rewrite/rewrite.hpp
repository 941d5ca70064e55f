// Source-to-source rewrite of a CUDA .cu file into C++ the host compiler accepts, for the emulator.
//
//   k<<<cfg>>>(args)        → ::emu::launch("k", [=](auto&&... emu_a_) { k(emu_a_...); }, cfg)(args)
//   __shared__ T x[A][B];   → auto& x = ::emu::shared_var<T[A][B]>(<key per declaration>, "x");
//   extern __shared__ T s[];→ auto* const s = ::emu::dynamic_shared<T>();
//
// The rewrite works on tokens (cxxlex), edits only those constructs, and never adds or removes a newline, so every
// line of the output is the same line of the input; a "#line 1" directive on top names the original file, so the
// compiler's messages point at the student's file and line.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace emu::rewrite {

struct Problem {
    int line;
    int column;
    std::string message;
    std::string file;  // set by rewrite_preprocessed (from the line markers); rewrite() leaves it empty (its `path`)
};

struct Result {
    std::string text;               // the rewritten source (complete even when problems were found)
    std::vector<Problem> problems;  // constructs the rewriter could not handle; the build should fail on them
};

// `path` is written into the #line directive (as given). When `source_dir` is not empty, `#include "x"` directives
// that name a file next to the source become absolute, so the output compiles from any directory.
Result rewrite(std::string_view source, const std::string& path, const std::string& source_dir = "");

// The output of `g++ -E` (line markers kept, the prelude force-included, the CUDA qualifiers __global__, __device__,
// __host__ and __noinline__ left unexpanded: EMU_KEEP_QUALIFIERS), as emu-nvcc produces it for every translation
// unit. Launches and __shared__ declarations are rewritten wherever they came from (included headers, macro
// expansions, token pasting); the qualifiers are spelled out for g++; no line is added or removed, so the line markers
// keep naming the original files. Problems name the original file and line. The result compiles with
// `-fpreprocessed` (no macro is expanded again).
Result rewrite_preprocessed(std::string_view preprocessed);

// The header every rewritten file includes first.
inline constexpr const char* kPreludeHeader = "emu/rewritten.hpp";

}  // namespace emu::rewrite
