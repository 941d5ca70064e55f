// Device-side built-ins of the emulator: thread coordinates, barriers, warp collectives, atomics and small helpers.
// Collectives record the caller's file:line through default arguments, so diagnostics name the student's line.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <emu/vector_types_compat.hpp>

// ---- built-in variables --------------------------------------------------------------------------------------------
// Per-thread values: the scheduler stores the running CUDA thread's coordinates here at every switch. Declared const
// so that kernels cannot assign them (nvcc rejects that too); warpSize is not a constant expression, as in CUDA.
extern "C" {
extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
extern const int warpSize;
}

#include <emu/intrinsics_detail.hpp>

// ---- barriers ------------------------------------------------------------------------------------------------------
inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    emu::detail::barrier(emu::detail::BarrierOp::plain, 1, file, line);
}
inline int __syncthreads_count(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return emu::detail::barrier(emu::detail::BarrierOp::count, pred, file, line);
}
inline int __syncthreads_and(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return emu::detail::barrier(emu::detail::BarrierOp::and_, pred, file, line);
}
inline int __syncthreads_or(int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return emu::detail::barrier(emu::detail::BarrierOp::or_, pred, file, line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    emu::detail::syncwarp(mask, file, line);
}

// ---- warp shuffles (PTX shfl.sync) ---------------------------------------------------------------------------------
template <class T>
inline emu::detail::shfl_type<T> __shfl_sync(unsigned mask, T var, int srcLane, int width = 32,
                                             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    using U = emu::detail::shfl_type<T>;
    return emu::detail::shfl_as<U>(emu::detail::ShflMode::idx, mask, static_cast<U>(var), srcLane,
                                   emu::detail::shfl_c_clamp(width), file, line);
}
template <class T>
inline emu::detail::shfl_type<T> __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                                                const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    using U = emu::detail::shfl_type<T>;
    return emu::detail::shfl_as<U>(emu::detail::ShflMode::up, mask, static_cast<U>(var), static_cast<int>(delta),
                                   emu::detail::shfl_c_up(width), file, line);
}
template <class T>
inline emu::detail::shfl_type<T> __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                                                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    using U = emu::detail::shfl_type<T>;
    return emu::detail::shfl_as<U>(emu::detail::ShflMode::down, mask, static_cast<U>(var), static_cast<int>(delta),
                                   emu::detail::shfl_c_clamp(width), file, line);
}
template <class T>
inline emu::detail::shfl_type<T> __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32,
                                                 const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    using U = emu::detail::shfl_type<T>;
    return emu::detail::shfl_as<U>(emu::detail::ShflMode::bfly, mask, static_cast<U>(var), laneMask,
                                   emu::detail::shfl_c_clamp(width), file, line);
}

// ---- votes ---------------------------------------------------------------------------------------------------------
inline unsigned __ballot_sync(unsigned mask, int pred, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE()) {
    return emu::detail::vote(emu::detail::VoteOp::ballot, mask, pred, file, line);
}
inline int __any_sync(unsigned mask, int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return static_cast<int>(emu::detail::vote(emu::detail::VoteOp::any, mask, pred, file, line));
}
inline int __all_sync(unsigned mask, int pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return static_cast<int>(emu::detail::vote(emu::detail::VoteOp::all, mask, pred, file, line));
}
// The lanes that reach this same call together: the call waits until every other lane of the warp has exited or
// blocked somewhere, then answers with the lanes waiting here (what a GPU reports for a converged group).
inline unsigned __activemask(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return emu::detail::activemask(file, line);
}

// ---- atomics (runtime/atomics.cpp: out of line, so the memory checker sees them as atomics, not plain accesses) --
int atomicAdd(int* address, int val);
unsigned atomicAdd(unsigned* address, unsigned val);
unsigned long long atomicAdd(unsigned long long* address, unsigned long long val);
float atomicAdd(float* address, float val);
double atomicAdd(double* address, double val);
int atomicSub(int* address, int val);
unsigned atomicSub(unsigned* address, unsigned val);
int atomicExch(int* address, int val);
unsigned atomicExch(unsigned* address, unsigned val);
unsigned long long atomicExch(unsigned long long* address, unsigned long long val);
float atomicExch(float* address, float val);
int atomicMin(int* address, int val);
unsigned atomicMin(unsigned* address, unsigned val);
long long atomicMin(long long* address, long long val);
unsigned long long atomicMin(unsigned long long* address, unsigned long long val);
int atomicMax(int* address, int val);
unsigned atomicMax(unsigned* address, unsigned val);
long long atomicMax(long long* address, long long val);
unsigned long long atomicMax(unsigned long long* address, unsigned long long val);
unsigned atomicInc(unsigned* address, unsigned val);
unsigned atomicDec(unsigned* address, unsigned val);
int atomicCAS(int* address, int compare, int val);
unsigned atomicCAS(unsigned* address, unsigned compare, unsigned val);
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long val);
unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short val);
int atomicAnd(int* address, int val);
unsigned atomicAnd(unsigned* address, unsigned val);
unsigned long long atomicAnd(unsigned long long* address, unsigned long long val);
int atomicOr(int* address, int val);
unsigned atomicOr(unsigned* address, unsigned val);
unsigned long long atomicOr(unsigned long long* address, unsigned long long val);
int atomicXor(int* address, int val);
unsigned atomicXor(unsigned* address, unsigned val);
unsigned long long atomicXor(unsigned long long* address, unsigned long long val);
long long atomicAnd(long long* address, long long val);
long long atomicOr(long long* address, long long val);
long long atomicXor(long long* address, long long val);
// Scoped variants (block, system): one device and one block at a time here, so every scope is the same atomic. Macros
// keep the caller's return address, which the memory checker turns into its line.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicSub_system atomicSub
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch
#define atomicMin_block atomicMin
#define atomicMin_system atomicMin
#define atomicMax_block atomicMax
#define atomicMax_system atomicMax
#define atomicInc_block atomicInc
#define atomicInc_system atomicInc
#define atomicDec_block atomicDec
#define atomicDec_system atomicDec
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS
#define atomicAnd_block atomicAnd
#define atomicAnd_system atomicAnd
#define atomicOr_block atomicOr
#define atomicOr_system atomicOr
#define atomicXor_block atomicXor
#define atomicXor_system atomicXor

// ---- memory ordering, timing, loads --------------------------------------------------------------------------------
// One block runs at a time on one OS thread, so every write is visible to every later read: fences order nothing more.
// A device-wide fence tells the memory checker that the launch orders its blocks in a way it does not model.
inline void __threadfence() { emu::detail::threadfence(); }
inline void __threadfence_block() {}
inline void __threadfence_system() { emu::detail::threadfence(); }

// Programmatic dependent launch (a kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization may start
// while the previous grid of its stream drains): the trigger lets the next grid be scheduled, the wait blocks until
// the previous grid has completed and its writes are visible. Launches run here one after another to completion, so
// when a block runs the previous grid is complete: both are no-ops, as on a GPU for a kernel launched without the
// attribute. (launch_ex.hpp accepts the attribute.)
inline void cudaTriggerProgrammaticLaunchCompletion() {}
inline void cudaGridDependencySynchronize() {}

// Cache-hinted loads and stores (read-only cache, streaming, L2 only, write-back, write-through, …): one cache here,
// so each is an ordinary access, checked like one. Macros rather than functions, so that the access is compiled in
// the caller's line and the memory checker names that line (a function would be reported at this header).
#define EMU_HINTED_LOAD(p) (static_cast<std::remove_cv_t<std::remove_reference_t<decltype(*(p))>>>(*(p)))
#define EMU_HINTED_STORE(p, v) ((void)(*(p) = (v)))
#define __ldg(p) EMU_HINTED_LOAD(p)
#define __ldca(p) EMU_HINTED_LOAD(p)
#define __ldcg(p) EMU_HINTED_LOAD(p)
#define __ldcs(p) EMU_HINTED_LOAD(p)
#define __ldlu(p) EMU_HINTED_LOAD(p)
#define __ldcv(p) EMU_HINTED_LOAD(p)
#define __stwb(p, v) EMU_HINTED_STORE(p, v)
#define __stcg(p, v) EMU_HINTED_STORE(p, v)
#define __stcs(p, v) EMU_HINTED_STORE(p, v)
#define __stwt(p, v) EMU_HINTED_STORE(p, v)

// ---- warp reductions and matches (PTX redux.sync, match.sync) --------------------------------------------------
#define EMU_WARP_REDUCE(name, op_unsigned, op_signed)                                                             \
    inline unsigned name(unsigned mask, unsigned value, const char* file = __builtin_FILE(),                      \
                         int line = __builtin_LINE()) {                                                           \
        return emu::detail::warp_reduce(emu::detail::ReduceOp::op_unsigned, mask, value, file, line);             \
    }                                                                                                             \
    inline int name(unsigned mask, int value, const char* file = __builtin_FILE(), int line = __builtin_LINE()) { \
        return static_cast<int>(emu::detail::warp_reduce(emu::detail::ReduceOp::op_signed, mask,                  \
                                                         static_cast<unsigned>(value), file, line));              \
    }
EMU_WARP_REDUCE(__reduce_add_sync, add, add)
EMU_WARP_REDUCE(__reduce_min_sync, umin, smin)
EMU_WARP_REDUCE(__reduce_max_sync, umax, smax)
#undef EMU_WARP_REDUCE
inline unsigned __reduce_and_sync(unsigned mask, unsigned value, const char* file = __builtin_FILE(),
                                  int line = __builtin_LINE()) {
    return emu::detail::warp_reduce(emu::detail::ReduceOp::and_, mask, value, file, line);
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned value, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
    return emu::detail::warp_reduce(emu::detail::ReduceOp::or_, mask, value, file, line);
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned value, const char* file = __builtin_FILE(),
                                  int line = __builtin_LINE()) {
    return emu::detail::warp_reduce(emu::detail::ReduceOp::xor_, mask, value, file, line);
}

// CUDA's overloads: 32- and 64-bit integers and floating point, compared as bits.
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any_sync takes a 32- or 64-bit value");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return emu::detail::warp_match(false, mask, bits, nullptr, file, line);
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_all_sync takes a 32- or 64-bit value");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return emu::detail::warp_match(true, mask, bits, pred, file, line);
}

inline long long clock64() { return emu::detail::clock_ticks(); }
// Sleeping lets the other threads of the block run: a spin-wait on a flag that another thread sets makes progress.
inline void __nanosleep(unsigned /*ns*/) { emu::detail::yield_thread(); }
[[noreturn]] inline void __trap(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    emu::detail::trap(file, line);
}
