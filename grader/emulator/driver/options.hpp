// emu-nvcc's command line: nvcc's options, read the way nvcc reads them (`-I dir`, `-Idir`, `--include-path=dir`,
// `-arch=sm_90`, `-gencode arch=…,code=…`, `-x cu` for the inputs after it, `-Xcompiler a,b`), into what the
// emulator's build needs. Options that mean nothing on the CPU are kept with the reason, so the driver can say so.
#pragma once
#include <string>
#include <vector>

namespace emu::driver {

enum class Lang { cuda, cxx, object };

struct Input {
    std::string path;
    Lang lang;
};

struct Options {
    std::vector<Input> inputs;
    std::string output;                     // -o
    bool compile_only = false;              // -c / -dc
    bool preprocess_only = false;           // -E: the rewritten translation unit, to -o or stdout
    bool make_library = false;              // -lib: compile, then archive the objects into -o (a.a)
    bool device_link = false;               // -dlink: nvcc's device-link step; nothing to link here
    std::vector<std::string> pp_flags;      // -I -isystem -D -U -include, in order, as g++ spells them
    std::vector<std::string> host_flags;    // -Xcompiler, -w, -std=…: to g++ when compiling and linking
    std::vector<std::string> link_dirs;     // -L
    std::vector<std::string> libs;          // -l (without the -l)
    std::vector<std::string> linker_flags;  // -Xlinker (each as -Wl,…)
    std::vector<std::string> dep_flags;     // -MD -MMD -MF f -MT t: for the host pass's preprocessing
    int cuda_arch = 0;                      // from -arch/-gencode/-code (highest compute capability named), or 0
    bool keep = false;                      // -keep / --emu-keep: leave the intermediate files, print where
    std::vector<std::string> ignored;       // "flag: why it has no effect here"
};

struct ParseResult {
    Options options;
    std::string error;  // non-empty: the command line is not one emu-nvcc accepts
};

ParseResult parse_options(const std::vector<std::string>& args);

}  // namespace emu::driver
