// Atomic read-modify-write operations on shared or global memory. One OS thread runs every CUDA thread and a fiber
// switches only at a collective, so a plain read-modify-write is atomic here. They live out of line, in this
// uninstrumented library, so that the memory checker sees them through on_atomic_access (atomics do not race with
// each other) and not as plain accesses; the return address names the kernel's line.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <emu/intrinsics_detail.hpp>

#include <cstring>

#include "exec.hpp"

#define EMU_ATOMIC_PC __builtin_return_address(0)

namespace {

template <class T, class Op>
__attribute__((always_inline)) inline T rmw(T* address, const void* pc, Op op) {
    emu::rt::on_atomic_access(address, sizeof(T), pc);
    const T old = *address;
    *address = op(old);
    return old;
}

}  // namespace

#define EMU_ATOMIC(ret, name, T, expr)                                                           \
    __attribute__((noinline)) ret name(T* address, T val) {                                      \
        return rmw(address, EMU_ATOMIC_PC, [&]([[maybe_unused]] T old) -> T { return (expr); }); \
    }

EMU_ATOMIC(int, atomicAdd, int, static_cast<int>(static_cast<unsigned>(old) + static_cast<unsigned>(val)))
EMU_ATOMIC(unsigned, atomicAdd, unsigned, old + val)
EMU_ATOMIC(unsigned long long, atomicAdd, unsigned long long, old + val)
EMU_ATOMIC(float, atomicAdd, float, old + val)
EMU_ATOMIC(double, atomicAdd, double, old + val)
EMU_ATOMIC(int, atomicSub, int, static_cast<int>(static_cast<unsigned>(old) - static_cast<unsigned>(val)))
EMU_ATOMIC(unsigned, atomicSub, unsigned, old - val)
EMU_ATOMIC(int, atomicExch, int, val)
EMU_ATOMIC(unsigned, atomicExch, unsigned, val)
EMU_ATOMIC(unsigned long long, atomicExch, unsigned long long, val)
EMU_ATOMIC(float, atomicExch, float, val)
EMU_ATOMIC(int, atomicMin, int, val < old ? val : old)
EMU_ATOMIC(unsigned, atomicMin, unsigned, val < old ? val : old)
EMU_ATOMIC(long long, atomicMin, long long, val < old ? val : old)
EMU_ATOMIC(unsigned long long, atomicMin, unsigned long long, val < old ? val : old)
EMU_ATOMIC(int, atomicMax, int, val > old ? val : old)
EMU_ATOMIC(unsigned, atomicMax, unsigned, val > old ? val : old)
EMU_ATOMIC(long long, atomicMax, long long, val > old ? val : old)
EMU_ATOMIC(unsigned long long, atomicMax, unsigned long long, val > old ? val : old)
// CUDA's wrapping increment and decrement.
EMU_ATOMIC(unsigned, atomicInc, unsigned, old >= val ? 0u : old + 1)
EMU_ATOMIC(unsigned, atomicDec, unsigned, (old == 0 || old > val) ? val : old - 1)
EMU_ATOMIC(int, atomicAnd, int, old& val)
EMU_ATOMIC(unsigned, atomicAnd, unsigned, old& val)
EMU_ATOMIC(unsigned long long, atomicAnd, unsigned long long, old& val)
EMU_ATOMIC(int, atomicOr, int, old | val)
EMU_ATOMIC(unsigned, atomicOr, unsigned, old | val)
EMU_ATOMIC(unsigned long long, atomicOr, unsigned long long, old | val)
EMU_ATOMIC(int, atomicXor, int, old ^ val)
EMU_ATOMIC(unsigned, atomicXor, unsigned, old ^ val)
EMU_ATOMIC(unsigned long long, atomicXor, unsigned long long, old ^ val)
EMU_ATOMIC(long long, atomicAnd, long long, old& val)
EMU_ATOMIC(long long, atomicOr, long long, old | val)
EMU_ATOMIC(long long, atomicXor, long long, old ^ val)
// Half and bfloat16 adds round once per element, like the hardware's red.add.f16 / .bf16 (and .f16x2 per half).
EMU_ATOMIC(__half, atomicAdd, __half, __hadd(old, val))
EMU_ATOMIC(__half2, atomicAdd, __half2, __hadd2(old, val))
EMU_ATOMIC(__nv_bfloat16, atomicAdd, __nv_bfloat16, __hadd(old, val))
EMU_ATOMIC(__nv_bfloat162, atomicAdd, __nv_bfloat162, __hadd2(old, val))

#define EMU_ATOMIC_CAS(T)                                                                           \
    __attribute__((noinline)) T atomicCAS(T* address, T compare, T val) {                           \
        return rmw(address, EMU_ATOMIC_PC, [&](T old) -> T { return old == compare ? val : old; }); \
    }
EMU_ATOMIC_CAS(int)
EMU_ATOMIC_CAS(unsigned)
EMU_ATOMIC_CAS(unsigned long long)
EMU_ATOMIC_CAS(unsigned short)
