#include "review/static_compile.hpp"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <sstream>
#include <system_error>

#include <re2/re2.h>

#include "util/files.hpp"
#include "util/subprocess.hpp"

namespace fs = std::filesystem;

namespace workbook::review {
namespace {

std::string demangle(const std::string& mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                               std::free);
    return status == 0 && out ? std::string(out.get()) : mangled;
}

// nvcc's output quotes the student's source in its diagnostics, so it is matched with RE2 (linear time) too.
long bytes_before(const std::string& line, const std::string& what) {
    const RE2 re("(\\d+) bytes " + RE2::QuoteMeta(what));
    std::string n;
    return RE2::PartialMatch(line, re, &n) && n.size() < 18 ? std::stol(n) : 0;
}

int to_int(const std::string& digits) { return digits.size() < 10 ? std::stoi(digits) : -1; }

}  // namespace

std::vector<KernelResources> parse_ptxas(const std::string& output) {
    std::vector<KernelResources> kernels;
    std::istringstream in(output);
    std::string line;
    const RE2 entry(R"(Compiling entry function '([^']+)')");
    const RE2 props(R"(Function properties for (\S+))");
    const RE2 used(R"(Used (\d+) registers)");
    const RE2 barriers(R"(used (\d+) barriers)");
    KernelResources* current = nullptr;
    std::string props_for, m;
    while (std::getline(in, line)) {
        if (RE2::PartialMatch(line, entry, &m)) {
            kernels.push_back({});
            current = &kernels.back();
            current->mangled = m;
            current->name = demangle(m);
            props_for.clear();
        } else if (RE2::PartialMatch(line, props, &m)) {
            props_for = m;
        } else if (line.find("stack frame") != std::string::npos) {
            // The properties line belongs to the kernel named just above it (device functions have their own).
            if (current && props_for == current->mangled) {
                current->stack_frame = bytes_before(line, "stack frame");
                current->spill_stores = bytes_before(line, "spill stores");
                current->spill_loads = bytes_before(line, "spill loads");
            }
        } else if (current && RE2::PartialMatch(line, used, &m)) {
            current->registers = to_int(m);
            if (RE2::PartialMatch(line, barriers, &m)) current->barriers = to_int(m);
            current->smem_bytes = bytes_before(line, "smem");
            current->cumulative_stack = bytes_before(line, "cumulative stack size");
        }
    }
    return kernels;
}

std::string format_kernel(const KernelResources& k) {
    std::string s = k.name + ": ";
    s += k.registers >= 0 ? std::to_string(k.registers) + " registers" : "registers unknown";
    s += ", " + std::to_string(k.spill_stores + k.spill_loads) + " bytes spilled";
    s += ", " + std::to_string(k.smem_bytes) + " bytes static shared memory";
    s += ", " + std::to_string(k.stack_frame) + " bytes stack";
    if (k.barriers >= 0) s += ", " + std::to_string(k.barriers) + " barrier" + (k.barriers == 1 ? "" : "s");
    return s;
}

std::string compiler_diagnostics(const std::string& output) {
    std::istringstream in(output);
    std::string line, out;
    const RE2 loc(R"(^(.+?)\((\d+)\): (.*)$)");
    bool last_blank = true;  // also drops leading blank lines
    while (std::getline(in, line)) {
        if (line.rfind("ptxas info", 0) == 0 || line.find("bytes stack frame") != std::string::npos) continue;
        const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
        if (blank && last_blank) continue;
        last_blank = blank;
        std::string file, number, rest;
        if (RE2::FullMatch(line, loc, &file, &number, &rest)) line = file + ":" + number + ": " + rest;
        out += line + "\n";
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

std::string find_nvcc() {
    if (const char* c = std::getenv("CUDACXX"); c && *c && !util::which(c).empty()) return util::which(c);
    if (const char* h = std::getenv("CUDA_HOME"); h && *h) {
        std::string p = std::string(h) + "/bin/nvcc";
        if (!util::which(p).empty()) return p;
    }
    if (std::string p = util::which("nvcc"); !p.empty()) return p;
    if (!util::which("/usr/local/cuda/bin/nvcc").empty()) return "/usr/local/cuda/bin/nvcc";
    return "";
}

StaticCompile nvcc_static_compile(const std::string& nvcc, const fs::path& student, const fs::path& work_dir,
                                  const std::function<void(util::ProcessSpec&)>& confine, const std::string* text) {
    StaticCompile r;
    const std::string tool = util::which(nvcc.empty() ? find_nvcc() : nvcc);
    if (tool.empty()) return r;
    std::error_code ec;
    // A copy alone in a folder, by its bare name: `#include "../x"` finds nothing beside it, diagnostics read
    // "rmsnorm.cu:12".
    const fs::path src = work_dir / "src";
    fs::create_directories(src, ec);
    if (text) util::write_text(src / student.filename(), *text);
    else fs::copy_file(student, src / student.filename(), fs::copy_options::overwrite_existing, ec);
    if (ec || !fs::is_regular_file(src / student.filename(), ec)) return r;
    const fs::path obj = fs::absolute(work_dir) / (student.stem().string() + ".static.o");
    // sm_90 is the lesson's target (H100/H200); the report then matches what the lesson's own text quotes.
    util::ProcessSpec spec;
    spec.argv = {tool, "-std=c++17", "-arch=sm_90", "-c", student.filename().string(),
                 "-o", obj.string(), "-Xptxas",     "-v"};
    spec.cwd = fs::absolute(src);
    spec.timeout_s = 300;
    spec.fsize_limit_mb = 0;
    spec.capture_limit = 1u << 20;
    if (confine) confine(spec);
    const util::ProcessResult pr = util::run_process(spec);
    fs::remove_all(src, ec);
    util::RunResult run;
    run.started = pr.started;
    run.exit_code = pr.started && !pr.timed_out && pr.signal == 0 ? pr.exit_code : -1;
    run.timed_out = pr.timed_out;
    run.output = pr.out + pr.err;
    if (!run.started) return r;
    r.ran = true;
    r.ok = run.exit_code == 0;
    r.output = compiler_diagnostics(run.output);
    if (run.timed_out) r.output = "nvcc did not finish within 300 s.\n" + r.output;
    r.kernels = parse_ptxas(run.output);
    for (const auto& k : r.kernels) {
        r.ptxas_report += format_kernel(k) + "\n";
        if (k.spill_stores + k.spill_loads > 0)
            r.notes.push_back(k.name + " spills " + std::to_string(k.spill_stores + k.spill_loads) +
                              " bytes of registers to local memory: each spill is a slow memory access.");
        if (k.stack_frame > 0)
            r.notes.push_back(k.name + " uses a " + std::to_string(k.stack_frame) +
                              "-byte stack frame (usually a local array indexed at run time).");
    }
    fs::remove(obj, ec);
    return r;
}

}  // namespace workbook::review
