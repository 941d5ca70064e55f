// End-to-end program in the style of vLLM's bf16 RMSNorm: one block per token row, FP32 accumulation,
// cub::BlockReduce, 16-byte loads of eight bf16 at a time. A row whose address is not 16-byte aligned is handled as
// a scalar prefix up to the next 16-byte boundary, a vectorised body, and a scalar tail. Its own main: a stream,
// events around the launch, and a CPU check over several hidden sizes, including a base pointer one element past an
// aligned allocation.
#include <cub/cub.cuh>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(expr)                                                                          \
  do {                                                                                            \
    cudaError_t status_ = (expr);                                                                 \
    if (status_ != cudaSuccess) {                                                                 \
      std::printf("FAIL: %s returned %s (%s:%d)\n", #expr, cudaGetErrorString(status_), __FILE__, __LINE__); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kVec = 8;  // bf16 per 16-byte load

struct alignas(16) vec_n_t {
  __nv_bfloat16 val[kVec];
};

// vLLM's rounding order (Llama): normalise in FP32, round to bf16, then multiply by the weight and round again.
__device__ __forceinline__ __nv_bfloat16 scale_one(__nv_bfloat16 x, __nv_bfloat16 w, float inv) {
  const __nv_bfloat16 normed = __float2bfloat16(__bfloat162float(x) * inv);
  return __float2bfloat16(__bfloat162float(normed) * __bfloat162float(w));
}

// Applies `scalar` to elements [0, prefix) and [prefix + 8·vecs, n), and `vector` to the 16-byte chunks between.
// The vector path needs input, weight and output to share their offset from a 16-byte boundary; otherwise the whole
// row is scalar (a 16-byte load from a misaligned address faults on the GPU).
template <int BLOCK, class VecOp, class ScalarOp>
__device__ void for_each_chunk(const __nv_bfloat16* in, const __nv_bfloat16* w, const __nv_bfloat16* out, int n,
                               VecOp vector, ScalarOp scalar) {
  const auto a_in = reinterpret_cast<std::uintptr_t>(in);
  const bool same_phase = ((a_in ^ reinterpret_cast<std::uintptr_t>(w)) & 15u) == 0 &&
                          ((a_in ^ reinterpret_cast<std::uintptr_t>(out)) & 15u) == 0;
  int prefix = n;
  if (same_phase) {
    const int bytes_to_boundary = static_cast<int>((16u - (a_in & 15u)) & 15u);
    prefix = min(bytes_to_boundary / static_cast<int>(sizeof(__nv_bfloat16)), n);
  }
  for (int i = threadIdx.x; i < prefix; i += BLOCK) scalar(i);
  const int vecs = (n - prefix) / kVec;
  for (int v = threadIdx.x; v < vecs; v += BLOCK) vector(prefix + v * kVec);
  for (int i = prefix + vecs * kVec + threadIdx.x; i < n; i += BLOCK) scalar(i);
}

template <int BLOCK>
__global__ void rms_norm_bf16(__nv_bfloat16* __restrict__ out, const __nv_bfloat16* __restrict__ input,
                              const __nv_bfloat16* __restrict__ weight, long long row_stride, int hidden, float eps) {
  using BlockReduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename BlockReduce::TempStorage reduce_storage;
  __shared__ float s_inv_rms;

  const __nv_bfloat16* row = input + blockIdx.x * row_stride;
  __nv_bfloat16* row_out = out + blockIdx.x * row_stride;

  float sum_sq = 0.0f;
  for_each_chunk<BLOCK>(
      row, weight, row_out, hidden,
      [&](int i) {
        const vec_n_t chunk = *reinterpret_cast<const vec_n_t*>(row + i);
#pragma unroll
        for (int k = 0; k < kVec; ++k) {
          const float v = __bfloat162float(chunk.val[k]);
          sum_sq += v * v;
        }
      },
      [&](int i) {
        const float v = __bfloat162float(row[i]);
        sum_sq += v * v;
      });
  const float total = BlockReduce(reduce_storage).Sum(sum_sq);  // valid in thread 0 only
  if (threadIdx.x == 0) s_inv_rms = rsqrtf(total / static_cast<float>(hidden) + eps);
  __syncthreads();
  const float inv = s_inv_rms;

  for_each_chunk<BLOCK>(
      row, weight, row_out, hidden,
      [&](int i) {
        const vec_n_t x = *reinterpret_cast<const vec_n_t*>(row + i);
        const vec_n_t w = *reinterpret_cast<const vec_n_t*>(weight + i);
        vec_n_t y;
#pragma unroll
        for (int k = 0; k < kVec; ++k) y.val[k] = scale_one(x.val[k], w.val[k], inv);
        *reinterpret_cast<vec_n_t*>(row_out + i) = y;
      },
      [&](int i) { row_out[i] = scale_one(row[i], weight[i], inv); });
}

struct Case {
  int rows;
  int hidden;
  int offset;  // elements by which input, output and weight start past a 16-byte-aligned allocation
};

static bool run_case(const Case& c, cudaStream_t stream) {
  constexpr int kBlock = 256;
  const float eps = 1e-6f;
  const long long stride = c.hidden;
  const size_t elems = static_cast<size_t>(c.rows) * c.hidden;
  std::vector<__nv_bfloat16> x(elems), w(c.hidden), y(elems);
  std::srand(c.hidden * 31 + c.offset);
  for (auto& v : x) v = __float2bfloat16(static_cast<float>(std::rand()) / RAND_MAX * 6.0f - 3.0f);
  for (auto& v : w) v = __float2bfloat16(0.25f + static_cast<float>(std::rand()) / RAND_MAX);

  __nv_bfloat16 *x_base, *w_base, *y_base;
  CUDA_CHECK(cudaMalloc(&x_base, (elems + c.offset) * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&w_base, (c.hidden + c.offset) * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&y_base, (elems + c.offset) * sizeof(__nv_bfloat16)));
  __nv_bfloat16* dx = x_base + c.offset;
  __nv_bfloat16* dw = w_base + c.offset;
  __nv_bfloat16* dy = y_base + c.offset;
  CUDA_CHECK(cudaMemcpyAsync(dx, x.data(), elems * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(dw, w.data(), c.hidden * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice, stream));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, stream));
  rms_norm_bf16<kBlock><<<c.rows, kBlock, 0, stream>>>(dy, dx, dw, stride, c.hidden, eps);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaMemcpyAsync(y.data(), dy, elems * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(x_base));
  CUDA_CHECK(cudaFree(w_base));
  CUDA_CHECK(cudaFree(y_base));

  // CPU check with the same rounding order; the FP32 sum's order differs from the block's, so allow vLLM's
  // tolerance (atol = rtol = 1e-2) rather than bit equality.
  int bad = 0;
  for (int r = 0; r < c.rows; ++r) {
    float sum = 0.0f;
    for (int i = 0; i < c.hidden; ++i) {
      const float v = __bfloat162float(x[size_t(r) * c.hidden + i]);
      sum += v * v;
    }
    const float inv = 1.0f / std::sqrt(sum / c.hidden + eps);
    for (int i = 0; i < c.hidden; ++i) {
      const float normed = __bfloat162float(__float2bfloat16(__bfloat162float(x[size_t(r) * c.hidden + i]) * inv));
      const float want = __bfloat162float(__float2bfloat16(normed * __bfloat162float(w[i])));
      const float got = __bfloat162float(y[size_t(r) * c.hidden + i]);
      if (!(std::fabs(got - want) <= 1e-2f + 1e-2f * std::fabs(want))) {
        if (bad++ < 3) std::printf("  row %d col %d: got %g, want %g\n", r, i, got, want);
      }
    }
  }
  std::printf("%s rows=%d hidden=%d offset=%d (%.3f ms by events)\n", bad == 0 ? "ok  " : "FAIL", c.rows, c.hidden,
              c.offset, ms);
  return bad == 0;
}

int main() {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  // Odd hidden sizes make every other row start off a 16-byte boundary; offset 1 misaligns the base pointer.
  const Case cases[] = {{3, 5, 0}, {2, 5120, 0}, {2, 8199, 0}, {2, 5120, 1}, {2, 8199, 3}};
  bool ok = true;
  for (const Case& c : cases) ok &= run_case(c, stream);
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
