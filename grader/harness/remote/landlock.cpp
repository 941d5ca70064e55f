#include "landlock.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace wb::sandbox {

namespace {

// Rights by ABI version (landlock(7)); older kernel headers lack the later names.
constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3,
                        kTruncate = 1ull << 14, kIoctlDev = 1ull << 15;
constexpr std::uint64_t kAbi1 = (1ull << 13) - 1;  // EXECUTE … MAKE_SYM
constexpr std::uint64_t kRefer = 1ull << 13;

bool allow(int ruleset, const char* path, std::uint64_t rights) {
    const int fd = ::open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT;  // a folder this machine does not have needs no rule
    landlock_path_beneath_attr rule{};
    rule.allowed_access = rights;
    rule.parent_fd = fd;
    const long rc = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    ::close(fd);
    return rc == 0;
}

}  // namespace

int landlock_ruleset(std::string* why) {
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
    bool ok = allow(ruleset, "/", read) && allow(ruleset, "/dev", devices);
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
