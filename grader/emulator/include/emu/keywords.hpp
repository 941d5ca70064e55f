// CUDA's function and variable qualifiers for the host compiler. Everything runs on the host, so the space
// qualifiers say nothing to g++. Included by emu/prelude.hpp and by cuda_runtime.h (as CUDA's own cuda_runtime.h
// defines them for host code that includes it).
#pragma once

// emu-nvcc preprocesses with EMU_KEEP_QUALIFIERS: the space qualifiers and __noinline__ then survive `g++ -E`, so it
// can tell device functions from host ones (__CUDA_ARCH__), and its rewriter spells them out for g++.
#ifndef EMU_KEEP_QUALIFIERS
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#endif
// nvcc's __forceinline__ also implies inline linkage; always_inline is left out because g++ refuses to build a call
// it cannot inline, which would turn a hint into a compile error that nvcc does not give.
#define __forceinline__ inline
// libstdc++ (g++ 13) spells `__attribute__((__noinline__))` in many headers, so the macro must expand to the bare
// attribute name. A standalone `__noinline__ void f()` in a .cu file is spelled out by emu-rewrite instead.
#ifndef EMU_KEEP_QUALIFIERS
#define __noinline__ noinline
#endif
#define __launch_bounds__(...)
// Thread block clusters are not emulated (docs/emulator.md): a kernel declared with __cluster_dims__ compiles, but any
// call of it (its launch, or the registration that cudaLaunchKernel needs) is refused by g++ with this message.
#define __cluster_dims__(...)                                                                          \
    __attribute__((                                                                                    \
        error("thread block clusters (__cluster_dims__) are not emulated by the CPU emulator: every "  \
              "block's shared memory lives at the same addresses here, so blocks of a cluster cannot " \
              "see each other's; run this kernel on a GPU")))
#define __align__(n) alignas(n)
#define __grid_constant__
#define __device_builtin__
// g++ knows __restrict__ already.
