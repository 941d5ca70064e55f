// Asynchronous copies (cg::memcpy_async, cuda::memcpy_async with a cuda::pipeline, __pipeline_memcpy_async): each
// thread's copies wait in its queue, in numbered stages, until the thread waits for them; then the thread itself
// performs them through the memory checker, at the line of the memcpy_async call. Reading the destination before
// the wait therefore sees what was there before (garbage in fresh shared memory, reported as an uninitialized read)
// and a copy out of bounds is reported where it was issued. On a GPU the copy engine (or LDGSTS) moves the bytes at
// some time between the call and the wait; a program may rely on neither end. Copies not waited for land when the
// thread exits, as a kernel's end completes them. Implemented in runtime/async_copy.cpp.
#pragma once
#include <cstddef>

namespace cuda {

// A size that the caller promises is a multiple of N and whose pointers are N-aligned (libcu++'s aligned_size_t).
template <std::size_t N>
struct aligned_size_t {
    static constexpr std::size_t align = N;
    std::size_t value;
    constexpr explicit aligned_size_t(std::size_t v) : value(v) {}
    constexpr operator std::size_t() const { return value; }
};

}  // namespace cuda

namespace emu::detail {

// Queues `bytes` from `src` to `dst` (zeros when src is null) in the running thread's open stage; `pc` is the issuing
// call's return address.
void async_copy(void* dst, const void* src, std::size_t bytes, const void* pc);
// Closes the open stage (a later async_copy opens the next one).
void async_commit();
// Performs the copies of every committed stage except the `keep` most recent ones.
void async_wait_prior(unsigned keep);
// cuda::pipeline's consumer side: performs the oldest unreleased stage (and any before it) / releases it.
void async_consumer_wait();
void async_consumer_release();

template <std::size_t N>
constexpr std::size_t size_of(cuda::aligned_size_t<N> s) {
    return s.value;
}
constexpr std::size_t size_of(std::size_t s) { return s; }

}  // namespace emu::detail
