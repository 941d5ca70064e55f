// The source lesson's own check without a GPU: `nvcc -std=c++17 -arch=sm_90 -c FILE -Xptxas -v`, with ptxas's
// resource report (registers, spills, shared memory, stack) turned into one readable line per kernel.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "util/process.hpp"

namespace workbook::review {

struct KernelResources {
    std::string name;  // demangled when possible: "rmsnorm_kernel(float const*, …)"
    std::string mangled;
    int registers = -1;
    int barriers = -1;
    long smem_bytes = 0;  // static shared memory
    long stack_frame = 0;
    long spill_stores = 0;  // bytes
    long spill_loads = 0;   // bytes
    long cumulative_stack = 0;
};

struct StaticCompile {
    bool ran = false;
    bool ok = false;
    std::string output;        // compiler diagnostics, trimmed, as "file:line: error: …"
    std::string ptxas_report;  // one line per kernel, readable
    std::vector<KernelResources> kernels;
    std::vector<std::string> notes;  // advice drawn from the report (spills, local stack)
};

// Kernels (entry functions) described by `ptxas -v` output.
std::vector<KernelResources> parse_ptxas(const std::string& output);
std::string format_kernel(const KernelResources& k);

// nvcc's diagnostics without ptxas chatter, "file(12): error" rewritten as "file:12: error".
std::string compiler_diagnostics(const std::string& output);

// nvcc from $CUDACXX, $CUDA_HOME/bin, PATH or /usr/local/cuda/bin; empty when none.
std::string find_nvcc();

// `nvcc` empty = find_nvcc(); ran=false when none is found. nvcc compiles a copy of `student` by its bare name, alone
// in a folder of `work_dir`, which also receives the object file; `confine` (when given) rewrites the command to run
// confined (grade/confine.hpp: the compiler sees what the submission's worker sees).
StaticCompile nvcc_static_compile(const std::string& nvcc, const std::filesystem::path& student,
                                  const std::filesystem::path& work_dir,
                                  const std::function<void(util::ProcessSpec&)>& confine = {},
                                  const std::string* text = nullptr);

}  // namespace workbook::review
