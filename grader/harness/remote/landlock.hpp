// The worker's filesystem layer where no mount namespace can be had, on emu: Landlock (Linux 5.13 and later; no
// library needed, its three system calls are the interface). Everything but the view's hidden folders stays readable
// and executable; nothing may be written, created, renamed or removed, except writing to device files (/dev/null and
// the like) and what the view shows writable. Not used on the gpu worker: the CUDA driver does not start under it
// (sandbox.cpp says what was measured).
#pragma once

#include <string>
#include <vector>

#include "sandbox.hpp"

namespace wb::sandbox {

// A ruleset for the view, or -1 with *why (Landlock missing or disabled). Built before fork. Landlock only allows,
// so a hidden folder is left out by a rule on each of its siblings, and on its ancestors' siblings, instead of one
// rule on "/"; a link that leads into a hidden folder gets no rule.
int landlock_ruleset(std::string* why, const std::vector<ViewPath>& view = {});

// In the forked child, after PR_SET_NO_NEW_PRIVS: restricts this process and what it executes. Async-signal-safe.
bool landlock_apply(int ruleset_fd);

}  // namespace wb::sandbox
