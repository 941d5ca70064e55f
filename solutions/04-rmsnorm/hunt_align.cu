// Lesson 04 · exercise `hunt_align` (bug hunt) — row sums with 16-byte loads that assume every row is aligned.
//
// The kernel below sums each row of a matrix, reading four floats per load through float4 as section 5 recommends.
// It passes when N is a multiple of 4 and the matrix starts on a 16-byte boundary, and it fails otherwise. Grade it
// as it is (`make grade-04 EX=hunt_align`), read what the emulator reports (section 8 of the lesson, "Reading the
// emulator's report"), and fix it between `// fix:` and `// end fix`. Everything outside that region is correct;
// edits there are vetoed.
//
// Entry point:
//   void launch_row_sums(const float* input, float* sums, int M, int N, cudaStream_t stream);
//   input: device pointer to M x N floats, row-major, contiguous, aligned to 4 bytes only (it may be a view that
//   starts at any element of a larger tensor). sums: device pointer to M floats.
//       sums[r] = sum over j of input[r][j]          (in fp32, any order)
//   Launches one block of BLOCK_SIZE = 256 threads per row on `stream` and returns without waiting.
#include <cub/cub.cuh>

#include <cuda_runtime.h>

namespace {

template <int BLOCK_SIZE>
__global__ void row_sums_kernel(const float* __restrict__ input, float* __restrict__ sums, int M, int N) {
    using BlockReduce = cub::BlockReduce<float, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage reduce_storage;

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    if (row >= M) return;
    const float* row_in = input + static_cast<long long>(row) * N;

    float s = 0.0f;
    // BLANK:aligned_loads
    // A float4 load needs an address that is a multiple of 16, and a row starts wherever r * N floats past `input`
    // put it. Rows that start on a 16-byte boundary are read four floats at a time; the others one float at a time,
    // by the scalar loop below (vLLM's kernels fall back the same way, to a scalar kernel, when a pointer is not
    // aligned).
    const bool row_aligned = reinterpret_cast<unsigned long long>(row_in) % 16 == 0;
    const float4* vec = reinterpret_cast<const float4*>(row_in);
    const int num_vec = row_aligned ? N / 4 : 0;
    // STARTER
    //> const float4* vec = reinterpret_cast<const float4*>(row_in);
    //> const int num_vec = N / 4;
    // END BLANK
    for (int i = tid; i < num_vec; i += BLOCK_SIZE) {
        const float4 v = vec[i];
        s += (v.x + v.y) + (v.z + v.w);
    }
    for (int col = num_vec * 4 + tid; col < N; col += BLOCK_SIZE) {
        s += row_in[col];
    }
    s = BlockReduce(reduce_storage).Sum(s);
    if (tid == 0) {
        sums[row] = s;
    }
}

}  // namespace

void launch_row_sums(const float* input, float* sums, int M, int N, cudaStream_t stream) {
    constexpr int BLOCK_SIZE = 256;
    if (M <= 0 || N <= 0) return;
    row_sums_kernel<BLOCK_SIZE><<<M, BLOCK_SIZE, 0, stream>>>(input, sums, M, N);
}
