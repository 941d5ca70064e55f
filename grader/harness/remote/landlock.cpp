#include "landlock.hpp"
#include "view_paths.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace wb::sandbox {

namespace {

// Rights by ABI version (landlock(7)); older kernel headers lack the later names.
constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3,
                        kTruncate = 1ull << 14, kIoctlDev = 1ull << 15;
constexpr std::uint64_t kAbi1 = (1ull << 13) - 1;  // EXECUTE … MAKE_SYM
constexpr std::uint64_t kRefer = 1ull << 13;
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

bool allow(int ruleset, const char* path, std::uint64_t rights) {
    const int fd = ::open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT;  // a folder this machine does not have needs no rule
    landlock_path_beneath_attr rule{};
    rule.allowed_access = rights;
    rule.parent_fd = fd;
    // A rule on a file may carry only the rights a file has.
    struct stat st {};
    if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rule.allowed_access &= kFileRights;
    const long rc =
        rule.allowed_access == 0 ? 0 : ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    ::close(fd);
    return rc == 0;
}

// `rights` on everything below `dir` but the hidden folders: an entry that holds none gets one rule, an entry that
// holds one is descended into (its own listing stays closed), a hidden one gets nothing. A link is judged by where it
// leads, so that no second name opens a hidden folder.
bool allow_all_but(int ruleset, const std::string& dir, const std::vector<std::string>& hidden, std::uint64_t rights,
                   int depth = 0) {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return true;  // nothing to allow in what cannot be listed
    bool ok = true;
    while (dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        const std::string path = (dir == "/" ? "" : dir) + "/" + name;
        const std::string target = real_path(path);
        if (target.empty()) continue;  // a dangling link
        bool hidden_here = false, holds_hidden = false;
        for (const auto& h : hidden) {
            if (within(target, h)) hidden_here = true;
            else if (within(h, target)) holds_hidden = true;
        }
        if (hidden_here) continue;
        if (holds_hidden && target == path && depth < 32)
            ok = allow_all_but(ruleset, path, hidden, rights, depth + 1) && ok;
        else if (!holds_hidden) ok = allow(ruleset, path.c_str(), rights) && ok;
        // A link to a folder that holds a hidden one: left out rather than followed a second time.
    }
    ::closedir(d);
    return ok;
}

}  // namespace

int landlock_ruleset(std::string* why, const std::vector<ViewPath>& view) {
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        *why = std::string("Landlock is not available (") + std::strerror(errno) + ")";
        return -1;
    }
    std::uint64_t handled = kAbi1;
    if (abi >= 2) handled |= kRefer;
    if (abi >= 3) handled |= kTruncate;
    if (abi >= 5) handled |= kIoctlDev;
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = handled;
    const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0) {
        *why = std::string("landlock_create_ruleset: ") + std::strerror(errno);
        return -1;
    }
    const std::uint64_t read = (kExecute | kReadFile | kReadDir) & handled;
    const std::uint64_t devices = (read | kWriteFile | kIoctlDev | kTruncate) & handled;
    // A writable path of the view: files made, written, renamed and removed there (a compiler's output folder).
    const std::uint64_t writable = handled & ~kExecute;
    std::vector<std::string> hidden;
    for (const auto& v : view)
        if (v.kind == ViewPath::Kind::hidden)
            if (std::string r = real_path(v.path); !r.empty() && r != "/") hidden.push_back(r);
    bool ok = (hidden.empty() ? allow(ruleset, "/", read) : allow_all_but(ruleset, "/", hidden, read)) &&
              allow(ruleset, "/dev", devices);
    for (const auto& v : view)
        if (v.kind != ViewPath::Kind::hidden)
            ok = allow(ruleset, v.path.c_str(), v.kind == ViewPath::Kind::writable ? writable | read : read) && ok;
    if (!ok) {
        *why = std::string("landlock_add_rule: ") + std::strerror(errno);
        ::close(ruleset);
        return -1;
    }
    return ruleset;
}

bool landlock_apply(int ruleset_fd) {
    return ruleset_fd >= 0 && ::syscall(SYS_landlock_restrict_self, ruleset_fd, 0) == 0;
}

}  // namespace wb::sandbox
