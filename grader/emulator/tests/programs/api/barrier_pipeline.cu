// Block-scoped cuda::barrier and cuda::pipeline, as the CUDA programming guide's asynchronous-copy examples use them:
// tiles of an input copied into shared memory with cuda::memcpy_async on a barrier or into a two-stage pipeline,
// then summed per tile. Four kernels:
//   tile_sums_barrier     one barrier: memcpy_async(block, ...), arrive_and_wait(); a split arrive()/wait() with
//                         independent work in between; a completion function counting the phases
//   tile_sums_pipeline    a two-stage pipeline every thread produces and consumes (the next tile's copy overlaps the
//                         current tile's sum)
//   tile_sums_roles       warp 0 produces, the other warps consume (make_pipeline with a producer count, or a role)
//   drop_and_poll         threads past `active` leave the barrier (arrive_and_drop); the others poll with try_wait
// Planted bugs (mode argument):
//   no-wait           the tile is read without waiting for the barrier (the copy has not been made yet)
//   no-consumer-wait  the pipeline's stage is read without consumer_wait()
//   missing-arrive    thread 5 returns before its arrival: the others wait for a phase that never completes
//   init-race         the barrier is used with no __syncthreads() after thread 0's init()
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <cstring>
#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kTile = 128;  // floats per tile; a block of 64 threads sums one tile per step

enum Bug { none, no_wait, no_consumer_wait, missing_arrive, init_race };

struct CountPhase {
  int* phases;
  __device__ void operator()() const { ++*phases; }
};

// Sums each thread's two elements of the tile into a per-block total (thread 0 adds the pair sums).
__device__ float tile_sum(const float* tile, float* partial) {
  const int t = threadIdx.x;
  partial[t] = tile[2 * t] + tile[2 * t + 1];
  __syncthreads();
  float s = 0.0f;
  if (t == 0)
    for (int k = 0; k < 64; ++k) s += partial[k];
  __syncthreads();
  return s;
}

__global__ void tile_sums_barrier(const float* in, int tiles, float* out, int* phase_count, int bug) {
  using barrier_t = cuda::barrier<cuda::thread_scope_block, CountPhase>;
  __shared__ barrier_t bar;
  __shared__ float tile[kTile];
  __shared__ float partial[64];
  __shared__ int phases;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    phases = 0;
    init(&bar, block.size(), CountPhase{&phases});
  }
  if (bug != init_race) block.sync();
  if (bug == missing_arrive && threadIdx.x == 5) return;
  float total = 0.0f;
  for (int k = blockIdx.x; k < tiles; k += gridDim.x) {
    cuda::memcpy_async(block, tile, in + k * kTile, sizeof(float) * kTile, bar);
    if (bug == no_wait) {
      total += tile_sum(tile, partial);
      bar.arrive_and_wait();
    } else if (k % 2 == 0) {
      bar.arrive_and_wait();
      total += tile_sum(tile, partial);
    } else {
      // Split: arrive, do work that touches nothing the copy writes, then wait for the phase.
      auto token = bar.arrive();
      partial[threadIdx.x] = 0.0f;
      bar.wait(std::move(token));
      total += tile_sum(tile, partial);
    }
  }
  if (threadIdx.x == 0) {
    out[blockIdx.x] = total;
    phase_count[blockIdx.x] = phases;
  }
}

__global__ void tile_sums_pipeline(const float* in, int tiles, float* out, int bug) {
  constexpr int kStages = 2;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  __shared__ float buf[kStages][kTile];
  __shared__ float partial[64];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int mine = (tiles - static_cast<int>(blockIdx.x) + static_cast<int>(gridDim.x) - 1) / static_cast<int>(gridDim.x);
  float total = 0.0f;
  // Prime the first stage, then keep one copy in flight while summing the other.
  for (int fetched = 0, used = 0; used < mine; ++used) {
    for (; fetched < mine && fetched < used + kStages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetched % kStages], in + (blockIdx.x + fetched * gridDim.x) * kTile,
                         sizeof(float) * kTile, pipe);
      pipe.producer_commit();
    }
    if (bug != no_consumer_wait) pipe.consumer_wait();
    total += tile_sum(buf[used % kStages], partial);
    pipe.consumer_release();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// Warp 0 copies tiles into the stages; warps 1 and 2 sum them, each warp one half of the tile.
__global__ void tile_sums_roles(const float* in, int tiles, float* out, bool by_role) {
  constexpr int kStages = 2;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  __shared__ float buf[kStages][kTile];
  __shared__ float warp_sums[2];
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x < 32;
  auto pipe = by_role ? cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer
                                                                     : cuda::pipeline_role::consumer)
                      : cuda::make_pipeline(block, &state, 32);
  float total = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (producer) {
      pipe.producer_acquire();
      for (int j = threadIdx.x; j < kTile; j += 32) cuda::memcpy_async(&buf[k % kStages][j], &in[k * kTile + j], sizeof(float), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      const int w = threadIdx.x / 32 - 1, lane = threadIdx.x % 32;
      float s = buf[k % kStages][w * 64 + lane] + buf[k % kStages][w * 64 + 32 + lane];
      for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
      if (lane == 0) warp_sums[w] = s;
      pipe.consumer_release();
    }
    block.sync();
    if (threadIdx.x == 32) total += warp_sums[0] + warp_sums[1];
    block.sync();
  }
  if (threadIdx.x == 32) out[0] = total;
}

// After the first phase only `active` threads remain counted; each round reads a neighbour's slot, arrives, polls
// until the phase completed, then bumps its own slot (ordered after every read of the round by the phase).
__global__ void drop_and_poll(int* out, int active) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int slots[64];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  slots[threadIdx.x] = threadIdx.x;
  if (static_cast<int>(threadIdx.x) >= active) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();
  int sum = 0;
  for (int round = 0; round < 2; ++round) {
    sum += slots[(threadIdx.x + 1 + round) % active];
    auto token = bar.arrive();
    while (!bar.try_wait(std::move(token))) {
    }
    slots[threadIdx.x] += 1;
    bar.arrive_and_wait();  // the writes before the next round's reads
  }
  out[threadIdx.x] = sum;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "fixed";
  int bug = none;
  if (std::strcmp(mode, "no-wait") == 0) bug = no_wait;
  if (std::strcmp(mode, "no-consumer-wait") == 0) bug = no_consumer_wait;
  if (std::strcmp(mode, "missing-arrive") == 0) bug = missing_arrive;
  if (std::strcmp(mode, "init-race") == 0) bug = init_race;
  Tally t{"barrier_pipeline"};
  const int tiles = 7, blocks = 3;
  std::vector<float> h(tiles * kTile);
  for (int i = 0; i < tiles * kTile; ++i) h[i] = static_cast<float>((i * 7) % 23) - 11.0f;
  std::vector<double> want(blocks, 0.0);
  for (int k = 0; k < tiles; ++k)
    for (int j = 0; j < kTile; ++j) want[k % blocks] += h[k * kTile + j];
  float *in, *out;
  int* phases;
  CHECK_CUDA(cudaMalloc(&in, h.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, blocks * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&phases, blocks * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  float got[blocks];
  int got_phases[blocks];

  tile_sums_barrier<<<blocks, 64>>>(in, tiles, out, phases, bug);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_phases, phases, sizeof got_phases, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    t.close("barrier", b, got[b], want[b], 0);
    t.equal("barrier.phases", b, got_phases[b], (tiles - b + blocks - 1) / blocks);
  }

  tile_sums_pipeline<<<blocks, 64>>>(in, tiles, out, bug);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) t.close("pipeline", b, got[b], want[b], 0);

  double all = 0.0;
  for (float v : h) all += v;
  for (bool by_role : {false, true}) {
    tile_sums_roles<<<1, 96>>>(in, tiles, out, by_role);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(got, out, sizeof(float), cudaMemcpyDeviceToHost));
    t.close(by_role ? "roles.by_role" : "roles.by_count", 0, got[0], all, 0);
  }

  const int active = 40;
  int* sums;
  CHECK_CUDA(cudaMalloc(&sums, 64 * sizeof(int)));
  drop_and_poll<<<2, 64>>>(sums, active);
  CHECK_CUDA(cudaDeviceSynchronize());
  int hsums[64];
  CHECK_CUDA(cudaMemcpy(hsums, sums, sizeof hsums, cudaMemcpyDeviceToHost));
  for (int i = 0; i < active; ++i) t.equal("drop_and_poll", i, hsums[i], (i + 1) % active + (i + 2) % active + 1);

  cudaFree(in);
  cudaFree(out);
  cudaFree(phases);
  cudaFree(sums);
  return t.finish();
}
