#include "toolchain.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <string>

namespace emu::driver {

namespace {

std::string self_dir() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return ".";
    std::string p(buf, static_cast<std::size_t>(n));
    const std::size_t slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

}  // namespace

bool load_toolchain(Toolchain* t, std::string* error) {
    const char* env = std::getenv("EMU_NVCC_CONFIG");
    const std::string path = env && *env ? env : self_dir() + "/emu-nvcc.conf";
    std::ifstream f(path);
    if (!f) {
        *error = "cannot read its configuration " + path + " (the build writes it next to emu-nvcc)";
        return false;
    }
    // One `key=value` a line; list keys repeat (cxxflag=, ldflag=), in order.
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        const std::size_t eq = line.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
        if (key == "cxx") t->cxx = value;
        else if (key == "launcher") t->launcher = value;
        else if (key == "cxxflag" && !value.empty()) t->cxxflags.push_back(value);
        else if (key == "ldflag" && !value.empty()) t->ldflags.push_back(value);
        else if (key == "runtime_lib") t->runtime_lib = value;
        else if (key == "cublas_lib") t->cublas_lib = value;
        else if (key == "default_arch") t->default_arch = std::atoi(value.c_str());
        else if (key == "pch_dir") t->pch_dir = value;
    }
    // A launcher (ccache) only speeds builds up: one that is no longer installed is left out, not an error.
    if (!t->launcher.empty() && access(t->launcher.c_str(), X_OK) != 0) t->launcher.clear();
    if (t->cxx.empty() || t->runtime_lib.empty() || t->cxxflags.empty()) {
        *error = path + " lacks cxx, runtime_lib or cxxflag entries";
        return false;
    }
    return true;
}

}  // namespace emu::driver
