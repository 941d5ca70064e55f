// Thrust the way benchmark code drives it: thrust::cuda::par.on(stream) policies, thrust::for_each over a counting
// iterator with a __device__ lambda writing through a raw pointer, thrust::universal_vector, and thrust::seq inside a
// kernel of the program's own (each block sorts its row). With the argument "bug" the row kernel is launched with one
// row too many: its last block reads and writes past the device_vector's storage, which the emulator must report
// (the vector's memory is device memory, with its bounds).
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/universal_vector.h>

#include <cstdio>
#include <cstring>

__global__ void sort_rows(int* data, int width) {
    int* row = data + blockIdx.x * width;
    if (threadIdx.x == 0) thrust::sort(thrust::seq, row, row + width);
}

int main(int argc, char** argv) {
    const bool bug = argc > 1 && std::strcmp(argv[1], "bug") == 0;
    const int rows = 4, width = 16, n = rows * width;
    cudaStream_t stream;
    cudaStreamCreate(&stream);

    thrust::device_vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 37) % n;  // a permutation of 0..n-1
    thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());
    int* raw = thrust::raw_pointer_cast(v.data());
    thrust::for_each(thrust::cuda::par.on(stream), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n),
                     [=] __device__(int i) { raw[i] = (i % width) * 3 - raw[i]; });
    cudaStreamSynchronize(stream);

    sort_rows<<<bug ? rows + 1 : rows, 32>>>(raw, width);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        std::printf("sort_rows failed: %s\n", cudaGetErrorString(err));
        return 1;
    }

    bool ok = true;
    for (int r = 0; r < rows && ok; ++r)
        for (int c = 1; c < width; ++c) ok = ok && v[r * width + c - 1] <= v[r * width + c];
    long long want = 0;
    for (int i = 0; i < n; ++i) want += (i % width) * 3 - i;
    ok = ok && thrust::reduce(thrust::cuda::par_nosync, v.begin(), v.end(), 0LL) == want;

    thrust::universal_vector<float> u(n, 0.5f);
    ok = ok && thrust::reduce(u.begin(), u.end()) == 0.5f * n;
    cudaStreamDestroy(stream);
    std::printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
