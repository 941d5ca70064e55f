// EMU_UNCHECKED marks a function of the emulator's own headers that runs inside kernels and touches only the
// emulator's state (a launch's closure on the heap, a __shared__ variable's slot): g++ does not instrument it, so its
// accesses never reach the memory checker, which refuses a kernel's access to host memory (runtime/kernel_reach.cpp).
// Only for such functions: one that reads or writes through a pointer the program gives it (__ldg, atomics, the cub
// shim) stays instrumented, so that the program's accesses through it are checked. Student code cannot use it (the
// fill policy refuses every EMU_ name and __attribute__).
#pragma once
#define EMU_UNCHECKED __attribute__((no_sanitize("thread")))
