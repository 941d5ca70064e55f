// The worker's filesystem layer where no mount namespace can be had, on emu: Landlock (Linux 5.13 and later; no
// library needed, its three system calls are the interface). Everything stays readable and executable; nothing may
// be written, created, renamed or removed, except writing to device files (/dev/null and the like). Not used on gpu:
// the CUDA driver does not start under it (sandbox.cpp says what was measured).
#pragma once

#include <string>

namespace wb::sandbox {

// A ruleset for the worker, or -1 with *why (Landlock missing or disabled). Built in the judge, before fork.
int landlock_ruleset(std::string* why);

// In the forked child, after PR_SET_NO_NEW_PRIVS: restricts this process and what it executes. Async-signal-safe.
bool landlock_apply(int ruleset_fd);

}  // namespace wb::sandbox
