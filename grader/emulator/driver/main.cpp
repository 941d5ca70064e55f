// emu-nvcc: nvcc's command line, building for the CPU emulator of CUDA.
//
//   emu-nvcc [nvcc options] -o prog a.cu b.cu host.cpp -lcublas
//
// Each .cu file is preprocessed twice by the host compiler (a device pass with __CUDA_ARCH__ defined and a host pass
// without, as nvcc does), the two are merged (arch_merge.hpp), every launch and __shared__ declaration of the whole
// translation unit is rewritten (included headers and macro expansions too; rewrite.hpp), and the result is compiled
// with the emulator's checks. .cpp files are compiled as host C++ with the same checks. Line markers survive every
// step, so compiler errors and emulator reports name the original file and line. Messages are nvcc's style:
// "emu-nvcc fatal   : …" for a command line it refuses, "file:line: error: …" for source it cannot handle.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "arch_merge.hpp"
#include "files.hpp"
#include "line_map.hpp"
#include "missing_library.hpp"
#include "options.hpp"
#include "prelude_pch.hpp"
#include "rewrite.hpp"
#include "toolchain.hpp"

namespace {

using emu::driver::read_file;
using emu::driver::write_file;

using emu::driver::Input;
using emu::driver::Lang;
using emu::driver::Options;
using emu::driver::Toolchain;

int fatal(const std::string& msg) {
    std::cerr << "emu-nvcc fatal   : " << msg << "\n";
    return 1;
}

// Starts argv; stdout goes to `out_path`, stderr to `err_path` when given. Returns the pid, or -1.
pid_t start(const std::vector<std::string>& argv, const std::string& out_path = "", const std::string& err_path = "") {
    std::vector<char*> a;
    for (const std::string& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        if (!out_path.empty()) {
            const int fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 1) < 0) _exit(127);
            close(fd);
        }
        if (!err_path.empty()) {
            const int fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, 2) < 0) _exit(127);
            close(fd);
        }
        execvp(a[0], a.data());
        std::fprintf(stderr, "emu-nvcc fatal   : cannot run %s: %s\n", a[0], std::strerror(errno));
        _exit(127);
    }
    return pid;
}

bool finish(pid_t pid) {
    if (pid < 0) return false;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return false;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// With EMU_NVCC_VERBOSE, each command is shown before it runs, as nvcc -v shows its steps.
void say(const std::vector<std::string>& argv) {
    if (!std::getenv("EMU_NVCC_VERBOSE")) return;
    std::string line = "#$";
    for (const std::string& s : argv) line += " " + s;
    std::cerr << line << "\n";
}

bool run(const std::vector<std::string>& argv, const std::string& out_path = "") {
    say(argv);
    return finish(start(argv, out_path));
}

std::string stem(const std::string& path) {
    std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    const std::size_t dot = base.rfind('.');
    return dot == std::string::npos ? base : base.substr(0, dot);
}

void make_parent(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
}

struct Build {
    const Toolchain& tc;
    const Options& o;
    std::string tmp;  // private folder for intermediate files
    int serial = 0;

    std::vector<std::string> compiler() const {
        std::vector<std::string> v;
        if (!tc.launcher.empty()) v.push_back(tc.launcher);
        v.push_back(tc.cxx);
        return v;
    }

    // Flags of every compile: host compiler options first, so that the emulator's -O0 and checks win.
    std::vector<std::string> compile_flags() const {
        std::vector<std::string> v = o.host_flags;
        for (const std::string& f : tc.cxxflags) v.push_back(f);
        for (const std::string& f : o.host_flags)
            if (f.rfind("-std=", 0) == 0) v.push_back(f);  // the user's standard over the emulator's default c++17
        return v;
    }

    // The preprocessing command of one pass of a .cu file.
    std::vector<std::string> preprocess(const std::string& src, const std::string& out, bool device) const {
        std::vector<std::string> v = {tc.cxx};
        for (const std::string& f : compile_flags()) v.push_back(f);
        v.insert(v.end(), {"-E", "-DEMU_KEEP_QUALIFIERS", "-include", "emu/rewritten.hpp"});
        const int arch = o.cuda_arch > 0 ? o.cuda_arch : tc.default_arch;
        v.push_back("-D__CUDA_ARCH_LIST__=" + std::to_string(arch));
        if (device) v.push_back("-D__CUDA_ARCH__=" + std::to_string(arch));
        for (const std::string& f : o.pp_flags) v.push_back(f);
        if (!device) v.insert(v.end(), o.dep_flags.begin(), o.dep_flags.end());
        v.insert(v.end(), {"-x", "c++", src, "-o", out});
        return v;
    }

    // One .cu file to an object (or, with -E, to the rewritten translation unit).
    bool compile_cuda(const std::string& src, const std::string& obj) {
        const std::string base = tmp + "/" + std::to_string(serial++) + "-" + stem(src);
        const std::string host_ii = base + ".host.ii", device_ii = base + ".device.ii", out_ii = base + ".emu.ii";
        // The two passes are independent: run them side by side. The device pass's messages are held back: a
        // missing header or a #error would otherwise be printed twice, once per pass; they are shown only when the
        // host pass succeeded (a failure of the device pass alone, such as an #error under __CUDA_ARCH__).
        const std::string host_err = base + ".host.err", device_err = base + ".device.err";
        const pid_t h = start(preprocess(src, host_ii, false), "", host_err);
        const pid_t d = start(preprocess(src, device_ii, true), "", device_err);
        const bool hok = finish(h), dok = finish(d);
        std::string messages;
        if (read_file(hok && !dok ? device_err : host_err, &messages)) std::cerr << messages;
        if (!hok || !dok) {
            // A header of a CUDA library the emulator does not have: say so, after the compiler's "No such file".
            const std::string note = emu::driver::missing_library_note(messages);
            if (!note.empty()) std::cerr << note << "\n";
            return false;
        }
        std::string host, device;
        if (!read_file(host_ii, &host) || !read_file(device_ii, &device)) {
            std::cerr << "emu-nvcc fatal   : cannot read the preprocessed " << src << "\n";
            return false;
        }
        if (const emu::driver::RealCub cub = emu::driver::real_cub_header(host); cub.found) {
            const auto at = emu::rewrite::LineMap(host).at(static_cast<int>(cub.line));
            std::cerr << (at.first.empty() ? src : at.first) << ":" << at.second << ": error: " << cub.file
                      << " is a header of the real CUB, GPU code (inline PTX) the CPU emulator cannot compile; the "
                         "emulator's CUB has BlockReduce, BlockScan, BlockLoad, BlockStore, WarpReduce, WarpScan and "
                         "DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSegmentedReduce (include <cub/cub.cuh>)\n";
            return false;
        }
        const emu::driver::MergeResult merged = emu::driver::merge_arch_passes(host, device);
        for (const auto& p : merged.problems)
            std::cerr << (p.file.empty() ? src : p.file) << ":" << p.line << ": error: " << p.message << "\n";
        if (!merged.problems.empty()) return false;
        const emu::rewrite::Result r = emu::rewrite::rewrite_preprocessed(merged.text);
        for (const auto& p : r.problems)
            std::cerr << (p.file.empty() ? src : p.file) << ":" << p.line << ": error: " << p.message << "\n";
        if (!r.problems.empty()) return false;
        const std::string target = o.preprocess_only ? (obj.empty() ? out_ii : obj) : out_ii;
        if (!write_file(target, r.text)) {
            std::cerr << "emu-nvcc fatal   : cannot write " << target << "\n";
            return false;
        }
        if (o.preprocess_only) {
            if (obj.empty()) std::cout << r.text;
            return true;
        }
        std::vector<std::string> cc = compiler();
        for (const std::string& f : compile_flags()) cc.push_back(f);
        if (compile_with_prelude_pch(cc, r.text, base, obj)) return true;
        cc.insert(cc.end(), {"-c", out_ii, "-o", obj});
        return run(cc);
    }

    // The build's precompiled prelude (prelude_pch.hpp), where it was made for this very prefix and command: true
    // when the object was compiled with it. A compile that fails with it is not reported: the caller compiles the
    // whole text, whose messages are the ones shown. EMU_NVCC_WRITE_PCH=1 (the build's step) writes it first;
    // EMU_NVCC_PCH=off leaves it unused.
    bool compile_with_prelude_pch(const std::vector<std::string>& cc, const std::string& text, const std::string& base,
                                  const std::string& obj) {
        const char* use = std::getenv("EMU_NVCC_PCH");
        if (tc.pch_dir.empty() || (use && std::string(use) == "off")) return false;
        const emu::driver::PreludeSpan span = emu::driver::find_prelude(text);
        if (!span.found) return false;
        const emu::driver::PreludePch p =
            emu::driver::prelude_pch_files(tc.pch_dir, text, span, tc.cxx, compile_flags());
        const char* write = std::getenv("EMU_NVCC_WRITE_PCH");
        if (write && std::string(write) == "1" && !write_prelude_pch(p)) return false;
        const std::string with_pch = emu::driver::text_with_prelude_pch(p, text, span);
        const std::string pch_ii = base + ".pch.ii", pch_err = base + ".pch.err";
        if (with_pch.empty() || !write_file(pch_ii, with_pch)) return false;
        std::vector<std::string> argv = cc;
        argv.insert(argv.end(), {"-c", pch_ii, "-o", obj});
        say(argv);
        if (!finish(start(argv, "", pch_err))) return false;
        std::string warnings;
        if (read_file(pch_err, &warnings)) std::cerr << warnings;
        return true;
    }

    // Writes the precompiled prelude for this prefix and command into the build's folder: the header, its .gch (by
    // the compiler itself, never through a compiler cache), then the stamp that makes them usable; each under a
    // temporary name first, so that a compile running beside it never reads a half-written file. Entries of other
    // preludes (an emulator header changed since) are removed.
    bool write_prelude_pch(const emu::driver::PreludePch& p) {
        std::error_code ec;
        std::filesystem::create_directories(tc.pch_dir, ec);
        for (const auto& e : std::filesystem::directory_iterator(tc.pch_dir, ec)) {
            const std::string path = e.path().string();
            if (path.rfind(p.header, 0) != 0 && path != p.stamp) std::filesystem::remove(e.path(), ec);
        }
        const std::string suffix = ".tmp" + std::to_string(getpid());
        if (!write_file(p.header + suffix, p.header_text)) return false;
        std::filesystem::rename(p.header + suffix, p.header, ec);
        if (ec) return false;
        std::vector<std::string> argv = {tc.cxx};
        for (const std::string& f : compile_flags()) argv.push_back(f);
        argv.insert(argv.end(), {"-fpreprocessed", "-x", "c++-header", p.header, "-o", p.gch + suffix});
        if (!run(argv)) return false;
        std::filesystem::rename(p.gch + suffix, p.gch, ec);
        if (ec) return false;
        if (!write_file(p.stamp + suffix, emu::driver::prelude_pch_stamp(p))) return false;
        std::filesystem::rename(p.stamp + suffix, p.stamp, ec);
        return !ec;
    }

    bool compile_cxx(const std::string& src, const std::string& obj) {
        std::vector<std::string> cc = compiler();
        for (const std::string& f : compile_flags()) cc.push_back(f);
        for (const std::string& f : o.pp_flags) cc.push_back(f);
        cc.insert(cc.end(), o.dep_flags.begin(), o.dep_flags.end());
        if (o.preprocess_only) cc.push_back("-E");
        cc.insert(cc.end(), {"-c", src});
        if (!obj.empty()) cc.insert(cc.end(), {"-o", obj});
        return run(cc);
    }

    // nvcc -lib: the objects into a static library, replaced whole as nvcc writes it.
    bool archive(const std::vector<std::string>& objects, const std::string& out) {
        std::error_code ec;
        std::filesystem::remove(out, ec);
        std::vector<std::string> ar = {"ar", "rcs", out};
        ar.insert(ar.end(), objects.begin(), objects.end());
        return run(ar);
    }
    bool empty_object(const std::string& out) {
        const std::string src = tmp + "/dlink.cpp";
        if (!write_file(src, "// emu-nvcc -dlink: no device code to link on the CPU\n")) return false;
        return run({tc.cxx, "-c", src, "-o", out});
    }

    // Libraries: the CUDA runtime is built in; cuBLAS is the emulator's own (target emu_cublas).
    bool link(const std::vector<std::string>& objects, const std::string& out) {
        // The host compiler's options reach the link too, as nvcc passes them (-Xcompiler -fopenmp needs libgomp).
        std::vector<std::string> ld = {tc.cxx};
        ld.insert(ld.end(), o.host_flags.begin(), o.host_flags.end());
        ld.insert(ld.end(), objects.begin(), objects.end());
        ld.insert(ld.end(), {"-o", out});
        for (const std::string& d : o.link_dirs) ld.push_back("-L" + d);
        bool cublas = false;
        for (const std::string& l : o.libs) {
            if (l == "cudart" || l == "cudart_static" || l == "cuda" || l == "cudadevrt") continue;  // built in
            if (l == "nvToolsExt") continue;  // NVTX's annotations are inline no-ops (include/nvToolsExt.h)
            if (l == "curand" || l == "curand_static") continue;  // header-only here (include/curand.h)
            if (l == "cublas" || l == "cublasLt" || l == "cublas_static" || l == "cublasLt_static") {
                if (tc.cublas_lib.empty()) {
                    std::cerr << "emu-nvcc fatal   : -l" << l
                              << ": this emulator build has no cuBLAS (no target emu_cublas was configured)\n";
                    return false;
                }
                cublas = true;
                continue;
            }
            if (l.rfind("cu", 0) == 0 || l.rfind("nv", 0) == 0) {
                std::cerr << "emu-nvcc fatal   : -l" << l << ": the emulator does not provide this CUDA library\n";
                return false;
            }
            ld.push_back("-l" + l);
        }
        ld.insert(ld.end(), o.linker_flags.begin(), o.linker_flags.end());
        if (cublas) ld.push_back(tc.cublas_lib);
        ld.push_back(tc.runtime_lib);
        ld.insert(ld.end(), tc.ldflags.begin(), tc.ldflags.end());
        return run(ld);
    }
};

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << "usage: emu-nvcc [nvcc options] [-c] [-o out] file.cu… [file.cpp…] [-lcublas]\n"
                     "Builds CUDA programs for the CPU emulator of CUDA, with its checks (docs/emulator.md).\n";
        return args.empty() ? 1 : 0;
    }
    const emu::driver::ParseResult parsed = emu::driver::parse_options(args);
    if (!parsed.error.empty()) return fatal(parsed.error);
    const Options& o = parsed.options;
    Toolchain tc;
    std::string error;
    if (!emu::driver::load_toolchain(&tc, &error)) return fatal(error);
    // Said on every run, so a build log shows what had no effect.
    for (const std::string& why : o.ignored) std::cerr << "emu-nvcc: ignored " << why << "\n";

    const char* tmpdir = std::getenv("TMPDIR");
    std::string templ = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/emu-nvcc.XXXXXX";
    if (!mkdtemp(templ.data())) return fatal("cannot create a temporary folder in " + templ);
    Build b{tc, o, templ};

    // Like nvcc (and g++), write where asked even into a folder that does not exist yet.
    for (std::size_t i = 0; i + 1 < o.dep_flags.size(); ++i)
        if (o.dep_flags[i] == "-MF") make_parent(o.dep_flags[i + 1]);
    if (!o.output.empty()) make_parent(o.output);

    bool ok = true;
    std::vector<std::string> objects;
    const bool several = o.inputs.size() > 1;
    for (const Input& in : o.inputs) {
        if (in.lang == Lang::object) {
            objects.push_back(in.path);
            continue;
        }
        std::string obj;
        if (o.preprocess_only) obj = several ? "" : o.output;
        else if (o.compile_only) obj = o.output.empty() ? stem(in.path) + ".o" : o.output;
        else obj = b.tmp + "/" + std::to_string(b.serial++) + "-" + stem(in.path) + ".o";
        ok = (in.lang == Lang::cuda ? b.compile_cuda(in.path, obj) : b.compile_cxx(in.path, obj)) && ok;
        objects.push_back(obj);
    }
    if (ok && o.device_link) {
        // nvcc -dlink links the device code of relocatable objects into one more object for the host link. Device
        // code is host code here, already in those objects: the step's object holds nothing, so that a build that
        // lists it in its final link still links.
        ok = b.empty_object(o.output.empty() ? "a_dlink.o" : o.output);
    } else if (ok && o.make_library) {
        ok = b.archive(objects, o.output.empty() ? "a.a" : o.output);
    } else if (ok && !o.compile_only && !o.preprocess_only) {
        ok = b.link(objects, o.output.empty() ? "a.out" : o.output);
    }
    if (o.keep) {
        std::cerr << "emu-nvcc: intermediate files kept in " << b.tmp << "\n";
    } else {
        std::error_code ec;
        std::filesystem::remove_all(b.tmp, ec);
        if (ec) std::cerr << "emu-nvcc: could not remove " << b.tmp << ": " << ec.message() << "\n";
    }
    return ok ? 0 : 1;
}
