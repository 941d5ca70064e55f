// The special registers a kernel may read with inline PTX (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`): emu-nvcc
// rewrites such a statement into a call of the function here (rewrite/ptx_forms.cpp). Lanes are numbered as CUDA
// numbers them: the thread's linear index in its block, modulo the warp size.
#pragma once
#include <emu/intrinsics_detail.hpp>

namespace emu::detail {

inline unsigned ptx_laneid() { return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u; }
inline unsigned ptx_lanemask_eq() { return 1u << ptx_laneid(); }
inline unsigned ptx_lanemask_lt() { return ptx_lanemask_eq() - 1u; }
inline unsigned ptx_lanemask_le() { return ptx_lanemask_lt() | ptx_lanemask_eq(); }
inline unsigned ptx_lanemask_ge() { return ~ptx_lanemask_lt(); }
inline unsigned ptx_lanemask_gt() { return ~ptx_lanemask_le(); }
// Counters read the host clock, as clock64() does (nothing the emulator prints is a GPU time).
inline unsigned long long ptx_clock64() { return static_cast<unsigned long long>(clock_ticks()); }
inline unsigned ptx_clock() { return static_cast<unsigned>(clock_ticks()); }
inline unsigned long long ptx_globaltimer() { return static_cast<unsigned long long>(clock_ticks()); }

}  // namespace emu::detail
