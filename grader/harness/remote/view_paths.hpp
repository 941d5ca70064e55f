// Path tests shared by the two ways a view is built (sandbox.cpp's bubblewrap arguments, landlock.cpp's rules).
#pragma once

#include <stdlib.h>

#include <string>

namespace wb::sandbox {

// True when `p` is `dir` or lies below it (both absolute, without a trailing slash).
inline bool within(const std::string& p, const std::string& dir) {
    return p == dir || dir == "/" ||
           (p.size() > dir.size() && p.compare(0, dir.size(), dir) == 0 && p[dir.size()] == '/');
}

// `p` with every link resolved; empty when it cannot be (it does not exist).
inline std::string real_path(const std::string& p) {
    char* r = p.empty() ? nullptr : ::realpath(p.c_str(), nullptr);
    if (r == nullptr) return {};
    std::string out = r;
    ::free(r);
    return out;
}

}  // namespace wb::sandbox
