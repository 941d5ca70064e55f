#include "options.hpp"

#include <map>

namespace emu::driver {

namespace {

// nvcc's option names: the short and long spelling of each, whether it takes a value.
struct Spec {
    const char* name;  // canonical (short) spelling
    bool value;
};

const std::map<std::string, Spec>& specs() {
    static const std::map<std::string, Spec> m = {
        {"-o", {"-o", true}},
        {"--output-file", {"-o", true}},
        {"-I", {"-I", true}},
        {"--include-path", {"-I", true}},
        {"-isystem", {"-isystem", true}},
        {"--system-include", {"-isystem", true}},
        {"-D", {"-D", true}},
        {"--define-macro", {"-D", true}},
        {"-U", {"-U", true}},
        {"--undefine-macro", {"-U", true}},
        {"-include", {"-include", true}},
        {"--pre-include", {"-include", true}},
        {"-L", {"-L", true}},
        {"--library-path", {"-L", true}},
        {"-l", {"-l", true}},
        {"--library", {"-l", true}},
        {"-std", {"-std", true}},
        {"--std", {"-std", true}},
        {"-x", {"-x", true}},
        {"--x", {"-x", true}},
        {"-Xcompiler", {"-Xcompiler", true}},
        {"--compiler-options", {"-Xcompiler", true}},
        {"-Xlinker", {"-Xlinker", true}},
        {"--linker-options", {"-Xlinker", true}},
        {"-arch", {"-arch", true}},
        {"--gpu-architecture", {"-arch", true}},
        {"-code", {"-code", true}},
        {"--gpu-code", {"-code", true}},
        {"-gencode", {"-gencode", true}},
        {"--generate-code", {"-gencode", true}},
        {"-rdc", {"-rdc", true}},
        {"--relocatable-device-code", {"-rdc", true}},
        {"-ccbin", {"-ccbin", true}},
        {"--compiler-bindir", {"-ccbin", true}},
        {"-Xptxas", {"-Xptxas", true}},
        {"--ptxas-options", {"-Xptxas", true}},
        {"-Xnvlink", {"-Xnvlink", true}},
        {"--nvlink-options", {"-Xnvlink", true}},
        {"-Xcudafe", {"-Xcudafe", true}},
        {"-maxrregcount", {"-maxrregcount", true}},
        {"--maxrregcount", {"-maxrregcount", true}},
        {"-ftz", {"-ftz", true}},
        {"--ftz", {"-ftz", true}},
        {"-prec-div", {"-prec-div", true}},
        {"--prec-div", {"-prec-div", true}},
        {"-prec-sqrt", {"-prec-sqrt", true}},
        {"--prec-sqrt", {"-prec-sqrt", true}},
        {"-fmad", {"-fmad", true}},
        {"--fmad", {"-fmad", true}},
        {"-default-stream", {"-default-stream", true}},
        {"--default-stream", {"-default-stream", true}},
        {"-t", {"-t", true}},
        {"--threads", {"-t", true}},
        {"-diag-suppress", {"-diag-suppress", true}},
        {"--diag-suppress", {"-diag-suppress", true}},
        {"-MF", {"-MF", true}},
        {"--dependency-output", {"-MF", true}},
        {"-MT", {"-MT", true}},
        {"--dependency-target-name", {"-MT", true}},
        {"--optimize", {"-O", true}},
        {"-O", {"-O", false}},
        {"-c", {"-c", false}},
        {"--compile", {"-c", false}},
        {"-dc", {"-dc", false}},
        {"--device-c", {"-dc", false}},
        {"-lib", {"-lib", false}},
        {"--lib", {"-lib", false}},
        {"-dlink", {"-dlink", false}},
        {"--device-link", {"-dlink", false}},
        {"-E", {"-E", false}},
        {"--preprocess", {"-E", false}},
        {"-g", {"-g", false}},
        {"--debug", {"-g", false}},
        {"-G", {"-G", false}},
        {"--device-debug", {"-G", false}},
        {"-lineinfo", {"-lineinfo", false}},
        {"--generate-line-info", {"-lineinfo", false}},
        {"-use_fast_math", {"-use_fast_math", false}},
        {"--use_fast_math", {"-use_fast_math", false}},
        {"-expt-relaxed-constexpr", {"-expt-relaxed-constexpr", false}},
        {"--expt-relaxed-constexpr", {"-expt-relaxed-constexpr", false}},
        {"-expt-extended-lambda", {"-extended-lambda", false}},
        {"--expt-extended-lambda", {"-extended-lambda", false}},
        {"-extended-lambda", {"-extended-lambda", false}},
        {"--extended-lambda", {"-extended-lambda", false}},
        {"-w", {"-w", false}},
        {"--disable-warnings", {"-w", false}},
        {"-MD", {"-MD", false}},
        {"--generate-dependencies-with-compile", {"-MD", false}},
        {"-MMD", {"-MMD", false}},
        {"--generate-nonsystem-dependencies-with-compile", {"-MMD", false}},
        {"-keep", {"-keep", false}},
        {"--keep", {"-keep", false}},
        {"--emu-keep", {"-keep", false}},
        {"-m64", {"-m64", false}},
        {"--machine", {"-m64", true}},
        {"-res-usage", {"-res-usage", false}},
        {"--resource-usage", {"-res-usage", false}},
        {"-lineinfo", {"-lineinfo", false}},
        {"-src-in-ptx", {"-src-in-ptx", false}},
        {"--source-in-ptx", {"-src-in-ptx", false}},
        {"-Werror", {"-Werror", true}},
        {"--Werror", {"-Werror", true}},
        {"-Wno-deprecated-gpu-targets", {"-Wno-deprecated-gpu-targets", false}},
        {"--Wno-deprecated-gpu-targets", {"-Wno-deprecated-gpu-targets", false}},
        {"-Wno-deprecated-declarations", {"-Wno-deprecated-declarations", false}},
        {"--Wno-deprecated-declarations", {"-Wno-deprecated-declarations", false}},
    };
    return m;
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The compute capability named by sm_90, compute_90a, sm_100f …: 900, 900, 1000; 0 for none (native, all).
int arch_number(const std::string& v) {
    for (const char* p : {"sm_", "compute_", "lto_"}) {
        const std::size_t at = v.find(p);
        if (at == std::string::npos) continue;
        std::size_t i = at + std::string(p).size();
        int n = 0;
        while (i < v.size() && v[i] >= '0' && v[i] <= '9') n = n * 10 + (v[i++] - '0');
        if (n > 0) return n * 10;
    }
    return 0;
}

}  // namespace

ParseResult parse_options(const std::vector<std::string>& args) {
    ParseResult r;
    Options& o = r.options;
    Lang forced = Lang::object;  // -x: Lang::object means "by extension"
    bool forced_set = false;
    auto ignore = [&](const std::string& flag, const std::string& why) { o.ignored.push_back(flag + ": " + why); };
    auto note_arch = [&](const std::string& flag, const std::string& value) {
        for (const std::string& part : split_commas(value)) o.cuda_arch = std::max(o.cuda_arch, arch_number(part));
        ignore(flag,
               "no GPU code is generated; device code runs on the CPU (it sees __CUDA_ARCH__ as the highest "
               "architecture named, 900 when none)");
    };

    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.empty()) continue;
        if (a[0] != '-' || a == "-") {
            Lang lang = forced;
            if (!forced_set || forced == Lang::object) {
                if (ends_with(a, ".cu")) lang = Lang::cuda;
                else if (ends_with(a, ".cpp") || ends_with(a, ".cc") || ends_with(a, ".cxx") || ends_with(a, ".C") ||
                         ends_with(a, ".c++"))
                    lang = Lang::cxx;
                else if (ends_with(a, ".o") || ends_with(a, ".a") || ends_with(a, ".so") ||
                         a.find(".so.") != std::string::npos)
                    lang = Lang::object;
                else {
                    r.error = "don't know what to do with '" + a +
                              "' (the emulator builds .cu, .cpp/.cc/.cxx and links .o/.a/.so; "
                              "use -x cu for CUDA files with another name)";
                    return r;
                }
            }
            o.inputs.push_back({a, lang});
            continue;
        }

        // Find the option: exact name, name=value, or a short option glued to its value (-Idir, -O3, -lfoo).
        std::string name = a, value;
        bool has_value = false;
        auto it = specs().find(a);
        if (it == specs().end()) {
            const std::size_t eq = a.find('=');
            if (eq != std::string::npos && specs().count(a.substr(0, eq))) {
                name = a.substr(0, eq);
                value = a.substr(eq + 1);
                has_value = true;
                it = specs().find(name);
            } else {
                for (const char* glued : {"-I", "-D", "-U", "-L", "-l", "-O", "-x"}) {
                    if (a.rfind(glued, 0) == 0 && a.size() > 2) {
                        name = glued;
                        value = a.substr(2);
                        has_value = true;
                        it = specs().find(name);
                        break;
                    }
                }
            }
        }
        if (it == specs().end()) {
            r.error = "unknown option '" + a +
                      "' (nvcc's options are accepted; pass host compiler options with "
                      "-Xcompiler " +
                      a + ")";
            return r;
        }
        const Spec& spec = it->second;
        const std::string canon = spec.name;
        if (spec.value && !has_value && canon != "-O") {
            if (i + 1 >= args.size()) {
                r.error = "option '" + a + "' needs a value";
                return r;
            }
            value = args[++i];
        }
        const std::string shown = has_value || !spec.value ? a : a + " " + value;

        if (canon == "-o") o.output = value;
        else if (canon == "-I" || canon == "-D" || canon == "-U") o.pp_flags.push_back(canon + value);
        else if (canon == "-isystem" || canon == "-include") o.pp_flags.insert(o.pp_flags.end(), {canon, value});
        else if (canon == "-L") o.link_dirs.push_back(value);
        else if (canon == "-l") o.libs.push_back(value);
        else if (canon == "-std") {
            if (value == "c++03" || value == "c++11" || value == "c++14") {
                ignore(shown, "the emulator's headers need C++17; compiled as c++17");
            } else {
                o.host_flags.push_back("-std=" + value);
            }
        } else if (canon == "-x") {
            forced_set = value != "none";
            if (value == "cu") forced = Lang::cuda;
            else if (value == "c++") forced = Lang::cxx;
            else if (value == "none") forced = Lang::object;
            else {
                r.error = "-x " + value + ": the emulator builds CUDA (-x cu) and C++ (-x c++)";
                return r;
            }
        } else if (canon == "-Xcompiler") {
            for (const std::string& f : split_commas(value)) {
                if (f.rfind("-O", 0) == 0)
                    ignore("-Xcompiler " + f, "the emulator compiles at -O0 so that every access is checked");
                else if (!f.empty()) o.host_flags.push_back(f);
            }
        } else if (canon == "-Xlinker") {
            for (const std::string& f : split_commas(value)) o.linker_flags.push_back("-Wl," + f);
        } else if (canon == "-arch" || canon == "-code") {
            note_arch(shown, value);
        } else if (canon == "-gencode") {
            note_arch(shown, value);
        } else if (canon == "-rdc") {
            if (value != "true" && value != "false") {
                r.error = "-rdc expects true or false, not '" + value + "'";
                return r;
            }
            // Every function is host code to the emulator: separate compilation always works, so both values are honoured.
        } else if (canon == "-dc") {
            o.compile_only = true;
        } else if (canon == "-lib") {
            o.make_library = true;  // nvcc -lib: the inputs' objects into a static library (-o, else a.a)
        } else if (canon == "-dlink") {
            o.device_link = true;
        } else if (canon == "-c") {
            o.compile_only = true;
        } else if (canon == "-E") {
            o.preprocess_only = true;
        } else if (canon == "-g") {
            // The emulator always builds with -g (its reports name file:line).
        } else if (canon == "-O") {
            ignore(shown, "the emulator compiles at -O0 so that every access is checked");
        } else if (canon == "-G" || canon == "-lineinfo" || canon == "-src-in-ptx") {
            ignore(shown, "device code is host code here, always built with -g (reports name file:line)");
        } else if (canon == "-use_fast_math") {
            o.pp_flags.push_back("-D__USE_FAST_MATH__=1");  // nvcc defines it; code may test it
            ignore(shown,
                   "math functions are the host's (exact or correctly rounded), not the GPU's fast approximations; "
                   "__USE_FAST_MATH__ is defined as nvcc does");
        } else if (canon == "-expt-relaxed-constexpr" || canon == "-extended-lambda") {
            // Accepted: host and device are one compiler here, so constexpr host functions and __device__ lambdas work.
        } else if (canon == "-w") {
            o.host_flags.push_back("-w");
        } else if (canon == "-MD" || canon == "-MMD") {
            o.dep_flags.push_back(canon);
        } else if (canon == "-MF" || canon == "-MT") {
            o.dep_flags.insert(o.dep_flags.end(), {canon, value});
        } else if (canon == "-keep") {
            o.keep = true;
        } else if (canon == "-ccbin") {
            ignore(shown, "the emulator builds with the host compiler it was configured with");
        } else if (canon == "-m64") {
            // 64-bit is the only mode (as in current nvcc).
        } else {
            ignore(shown, "no GPU code is generated; this option only concerns the GPU toolchain");
        }
    }
    if (o.inputs.empty()) r.error = "no input files";
    else if (!o.output.empty() && o.compile_only && o.inputs.size() > 1)
        r.error = "-o with -c and several input files (nvcc refuses this too)";
    return r;
}

}  // namespace emu::driver
