// The C library's functions that read or write memory through a pointer (string.h, strings.h, wchar.h, stdlib.h,
// stdio.h, time.h and math.h, the C headers every emulated .cu file includes), but those a kernel may call on a GPU.
#pragma once

#include <string_view>

namespace workbook::review {

// True for such a function: `mempcpy`, `bcopy`, `strncpy`, `qsort`, `sprintf`, `modfl`, … The C library is not
// instrumented, so what they touch is out of the emulator's memory checker's sight (a race or an out-of-bounds
// access hidden in a call), and none of them is a device function: on a GPU the kernel would not compile.
// Not listed: memcpy, memset, memmove, memcmp, modf(f), frexp(f), sincos(f), remquo(f), nan(f) and printf, which
// the emulator checks (emulator/include/emu/checked_libc.hpp; printf's %n, which writes, ends the launch: until
// session 10 it wrote through any pointer a kernel made), and `index`, `time` and `select`, names a fill may well
// give a variable.
bool c_library_pointer_function(std::string_view name);

}  // namespace workbook::review
