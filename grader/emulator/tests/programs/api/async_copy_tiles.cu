// Asynchronous copies into shared memory, the three ways kernels write them:
//   * cg::memcpy_async by the whole block, double-buffered: the copy of tile k + 1 is issued before tile k is used,
//     cg::wait_prior<1> waits for tile k only, cg::wait for the last one (a windowed sum over each tile);
//   * cuda::memcpy_async into a thread's cuda::pipeline (producer_acquire/commit, consumer_wait/release), two stages
//     in flight, 16-byte chunks;
//   * __pipeline_memcpy_async with a zero fill of the last bytes, __pipeline_commit, __pipeline_wait_prior.
// Planted bugs:
//   oob         the last tile's copy is not clamped to the end of the input: it reads past the buffer
//   early-read  the block reads its tile before cg::wait: the bytes have not landed
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cstring>
#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

constexpr int kTile = 128;

__global__ void tile_sums(const float* x, int n, float* out, int bug) {
  __shared__ float tiles[2][kTile];
  cg::thread_block block = cg::this_thread_block();
  const int count = (n + kTile - 1) / kTile;
  auto issue = [&](int k) {
    const int len = bug == 1 ? kTile : (n - k * kTile < kTile ? n - k * kTile : kTile);
    cg::memcpy_async(block, tiles[k % 2], x + k * kTile, sizeof(float) * len);
  };
  issue(0);
  for (int k = 0; k < count; ++k) {
    if (k + 1 < count) {
      issue(k + 1);
      if (bug != 2) cg::wait_prior<1>(block);
    } else if (bug != 2) {
      cg::wait(block);
    }
    const int len = n - k * kTile < kTile ? n - k * kTile : kTile;
    if (block.thread_rank() == 0) {
      float s = 0.0f;
      for (int i = 0; i < len; ++i) s += tiles[k % 2][i];
      out[k] = s;
    }
    block.sync();   // tile k's buffer is refilled by the copy issued in the next iteration
  }
}

// Each thread moves its own 16-byte chunks through a two-stage pipeline and doubles them.
__global__ void pipeline_double(const float4* in, float4* out, int per_thread) {
  __shared__ float4 stage[2][64];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  for (int s = 0; s < 2 && s < per_thread; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[s][t], &in[s * blockDim.x + t], sizeof(float4), pipe);
    pipe.producer_commit();
  }
  for (int s = 0; s < per_thread; ++s) {
    pipe.consumer_wait();
    const float4 v = stage[s % 2][t];
    out[s * blockDim.x + t] = make_float4(2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w);
    pipe.consumer_release();
    if (s + 2 < per_thread) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[s % 2][t], &in[(s + 2) * blockDim.x + t], sizeof(float4), pipe);
      pipe.producer_commit();
    }
  }
}

// 16 bytes per thread of which the last 4 are zero-filled.
__global__ void primitives_zfill(const int4* in, int4* out) {
  __shared__ int4 buf[32];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], sizeof(int4), 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = buf[threadIdx.x];
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "fixed";
  const int bug = std::strcmp(mode, "oob") == 0 ? 1 : std::strcmp(mode, "early-read") == 0 ? 2 : 0;
  Tally t{"async_copy_tiles"};

  const int n = 1000, count = (n + kTile - 1) / kTile;
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = static_cast<float>(i % 17) - 8.0f;
  float *x, *sums;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&sums, count * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  tile_sums<<<1, 64>>>(x, n, sums, bug);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> hs(count);
  CHECK_CUDA(cudaMemcpy(hs.data(), sums, count * sizeof(float), cudaMemcpyDeviceToHost));
  for (int k = 0; k < count; ++k) {
    double want = 0;
    for (int i = k * kTile; i < n && i < (k + 1) * kTile; ++i) want += hx[i];
    t.close("tile_sums", k, hs[k], want, 0);
  }

  const int per_thread = 5, threads = 64;
  std::vector<float4> hin(per_thread * threads);
  for (int i = 0; i < per_thread * threads; ++i) hin[i] = make_float4(i, -i, 0.5f * i, 1.0f);
  float4 *in4, *out4;
  CHECK_CUDA(cudaMalloc(&in4, hin.size() * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&out4, hin.size() * sizeof(float4)));
  CHECK_CUDA(cudaMemcpy(in4, hin.data(), hin.size() * sizeof(float4), cudaMemcpyHostToDevice));
  pipeline_double<<<1, threads>>>(in4, out4, per_thread);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float4> hout(hin.size());
  CHECK_CUDA(cudaMemcpy(hout.data(), out4, hout.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < per_thread * threads; ++i) {
    t.close("pipeline_x", i, hout[i].x, 2.0 * i, 0);
    t.close("pipeline_w", i, hout[i].w, 2.0, 0);
  }

  std::vector<int4> hi(32);
  for (int i = 0; i < 32; ++i) hi[i] = make_int4(i, i + 1, i + 2, i + 3);
  int4 *ini, *outi;
  CHECK_CUDA(cudaMalloc(&ini, 32 * sizeof(int4)));
  CHECK_CUDA(cudaMalloc(&outi, 32 * sizeof(int4)));
  CHECK_CUDA(cudaMemcpy(ini, hi.data(), 32 * sizeof(int4), cudaMemcpyHostToDevice));
  primitives_zfill<<<1, 32>>>(ini, outi);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int4> ho(32);
  CHECK_CUDA(cudaMemcpy(ho.data(), outi, 32 * sizeof(int4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) {
    t.equal("zfill_x", i, ho[i].x, i);
    t.equal("zfill_z", i, ho[i].z, i + 2);
    t.equal("zfill_w", i, ho[i].w, 0);
  }
  cudaFree(x);
  cudaFree(sums);
  cudaFree(in4);
  cudaFree(out4);
  cudaFree(ini);
  cudaFree(outi);
  return t.finish();
}
