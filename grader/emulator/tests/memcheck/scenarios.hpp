// Planted bugs and their fixed versions, run on the fake engine (scenarios.cu holds the device code).
#pragma once
#include <cstddef>

#include "fake_engine.hpp"

extern float g_sink;  // where scenario kernels put values nothing else reads

namespace scen {

// Each returns the launch's error code (0: ran to the end).
int broadcast(bool barrier, fake::Order order = fake::Order::forward);  // thread 0 writes, all read
int cross_warp_sum(bool barrier);                                       // per-warp partials, thread 0 adds
int waw_one_slot(bool only_thread0);
int uninit_read(bool write_all);
int tree_reduction();                   // correct: no diagnostic
int bf16_neighbours();                  // 2-byte slots, one per thread
int same_value_readers_and_own_slot();  // reads after barrier, own-slot rewrites
int shared_atomics(bool read_without_barrier);
int warp_sync(bool syncwarp);  // lane 0 writes, lane 5 reads
int oob_shared_write(bool past_end);
int oob_dynamic_shared(std::size_t dyn_bytes, std::size_t index);
int global_read(const float* in, float* out, unsigned n_threads);          // out[i] = in[i]
int global_float4_load(const float* buf, float* out);                      // float4 from buf
int global_struct16_load(const unsigned short* buf, unsigned short* out);  // 16-byte struct from buf
int global_halves(unsigned short* buf);                                    // neighbouring 2-byte elements
int shared_same_value(bool same);                                          // 64 threads store to one slot
int hook_calls_loop(float* data, std::size_t n, int reps);                 // for the overhead measurement

}  // namespace scen
