// emu-rewrite IN.cu OUT.cpp [--line-path PATH]: the build step that turns a .cu file into C++ for the emulator.
// Problems are printed like compiler errors (file:line:col: error: …) and fail the step.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "rewrite.hpp"

int main(int argc, char** argv) {
    if (argc != 3 && !(argc == 5 && std::string(argv[3]) == "--line-path")) {
        std::cerr << "usage: emu-rewrite IN.cu OUT.cpp [--line-path PATH-FOR-#line]\n";
        return 2;
    }
    const std::string in = argv[1], out = argv[2];
    const std::string line_path = argc == 5 ? argv[4] : in;
    std::ifstream f(in, std::ios::binary);
    if (!f) {
        std::cerr << "emu-rewrite: cannot read " << in << "\n";
        return 2;
    }
    std::stringstream buf;
    buf << f.rdbuf();
    const std::string dir = std::filesystem::absolute(std::filesystem::path(in)).parent_path().string();
    emu::rewrite::Result r = emu::rewrite::rewrite(buf.str(), line_path, dir);
    for (const auto& p : r.problems)
        std::cerr << line_path << ":" << p.line << ":" << p.column << ": error: " << p.message << "\n";
    if (!r.problems.empty()) return 1;
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(out).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    // Write through a temporary so an interrupted build never leaves a truncated output behind.
    const std::string tmp = out + ".tmp";
    {
        std::ofstream o(tmp, std::ios::binary);
        o << r.text;
        if (!o) {
            std::cerr << "emu-rewrite: cannot write " << tmp << "\n";
            return 2;
        }
    }
    if (std::rename(tmp.c_str(), out.c_str()) != 0) {
        std::cerr << "emu-rewrite: cannot rename " << tmp << " to " << out << "\n";
        return 2;
    }
    return 0;
}
