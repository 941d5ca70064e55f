// Thrust as tutorials and benchmark repositories use it: device_vector built from host data, SAXPY with a functor
// and with a __device__ lambda (--extended-lambda), sort and sort_by_key, reductions, scans, count_if, unique,
// reduce_by_key, fancy iterators, thrust::device on raw cudaMalloc pointers, thrust::device_malloc, and a kernel of
// the program's own launched on raw_pointer_cast(vector.data()). Every result is checked against a CPU loop.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

struct saxpy_functor {
    const float a;
    explicit saxpy_functor(float a_) : a(a_) {}
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct is_odd {
    __host__ __device__ bool operator()(int v) const { return v & 1; }
};

struct squared {
    __host__ __device__ long long operator()(int v) const { return (long long)v * v; }
};

struct pair_sum {
    __host__ __device__ int operator()(const thrust::tuple<int, int>& t) const {
        return thrust::get<0>(t) + thrust::get<1>(t);
    }
};

__global__ void add_index(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += i;
}

static int failures = 0;
static void expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("mismatch: %s\n", what);
        ++failures;
    }
}

int main() {
    const int n = 1000;
    std::vector<int> keys_h(n);
    srand(7);
    for (int i = 0; i < n; ++i) keys_h[i] = rand() % 500;

    // SAXPY, with a functor and with a device lambda.
    thrust::host_vector<float> xh(n), yh(n);
    for (int i = 0; i < n; ++i) {
        xh[i] = 0.5f * i;
        yh[i] = 1.0f - i;
    }
    thrust::device_vector<float> x = xh, y = yh, z(n);
    thrust::transform(x.begin(), x.end(), y.begin(), z.begin(), saxpy_functor(2.0f));
    thrust::host_vector<float> zh = z;
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && zh[i] == 2.0f * xh[i] + yh[i];
    expect(ok, "saxpy functor");
    const float a = 3.0f;
    thrust::transform(thrust::device, x.begin(), x.end(), y.begin(), y.begin(),
                      [a] __device__(float xi, float yi) { return a * xi + yi; });
    ok = true;
    for (int i = 0; i < n; ++i) ok = ok && y[i] == 3.0f * xh[i] + yh[i];
    expect(ok, "saxpy lambda");

    // Sorts and reductions.
    thrust::device_vector<int> keys(keys_h.begin(), keys_h.end());
    thrust::device_vector<int> vals(n);
    thrust::sequence(vals.begin(), vals.end());
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    std::vector<int> sorted = keys_h;
    std::stable_sort(sorted.begin(), sorted.end());
    std::vector<int> back(n);
    thrust::copy(keys.begin(), keys.end(), back.begin());
    expect(back == sorted, "sort_by_key keys");
    expect(keys_h[vals[0]] == sorted[0] && keys_h[vals[n - 1]] == sorted[n - 1], "sort_by_key values");
    long long sum_sq = thrust::transform_reduce(keys.begin(), keys.end(), squared(), 0LL, thrust::plus<long long>());
    long long want_sq = 0;
    for (int k : keys_h) want_sq += (long long)k * k;
    expect(sum_sq == want_sq, "transform_reduce");
    expect(thrust::reduce(keys.begin(), keys.end(), -1, thrust::maximum<int>()) == sorted[n - 1], "reduce max");
    expect(thrust::count_if(keys.begin(), keys.end(), is_odd()) ==
               std::count_if(keys_h.begin(), keys_h.end(), [](int v) { return v & 1; }),
           "count_if");

    // Run-length counts of the sorted keys: reduce_by_key over ones, then unique.
    thrust::device_vector<int> uniq(n), counts(n);
    auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), thrust::make_constant_iterator(1), uniq.begin(),
                                      counts.begin());
    const int runs = ends.first - uniq.begin();
    const int distinct = std::unique(sorted.begin(), sorted.end()) - sorted.begin();
    expect(runs == distinct, "reduce_by_key runs");
    expect(thrust::reduce(counts.begin(), counts.begin() + runs) == n, "reduce_by_key counts");
    thrust::device_vector<int> dedup = keys;
    expect(thrust::unique(dedup.begin(), dedup.end()) - dedup.begin() == distinct, "unique");

    // Scans.
    thrust::device_vector<int> ones(n, 1), incl(n), excl(n);
    thrust::inclusive_scan(ones.begin(), ones.end(), incl.begin());
    thrust::exclusive_scan(ones.begin(), ones.end(), excl.begin(), 10);
    expect(incl[n - 1] == n && excl[0] == 10 && excl[n - 1] == 10 + n - 1, "scans");

    // Fancy iterators: the sum of i + 2i over a zip of counting iterators.
    thrust::counting_iterator<int> c0(0);
    auto doubled = thrust::make_transform_iterator(c0, thrust::placeholders::_1 * 2);
    auto zipped = thrust::make_zip_iterator(thrust::make_tuple(c0, doubled));
    const int zsum = thrust::transform_reduce(zipped, zipped + n, pair_sum(), 0, thrust::plus<int>());
    expect(zsum == 3 * (n * (n - 1) / 2), "zip/transform iterators");

    // Raw device memory: thrust::device on a cudaMalloc pointer, then a kernel of our own on a vector's storage.
    int* raw = nullptr;
    CHECK_CUDA(cudaMalloc(&raw, n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(raw, keys_h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    thrust::sort(thrust::device, raw, raw + n, thrust::greater<int>());
    thrust::device_ptr<int> wrapped = thrust::device_pointer_cast(raw);
    expect(wrapped[0] == sorted[n - 1] && wrapped[n - 1] == sorted[0], "sort of a raw pointer");
    CHECK_CUDA(cudaFree(raw));

    thrust::device_vector<int> zeros(n, 0);
    add_index<<<(n + 127) / 128, 128>>>(thrust::raw_pointer_cast(zeros.data()), n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    expect(thrust::reduce(zeros.begin(), zeros.end()) == n * (n - 1) / 2, "kernel on raw_pointer_cast");

    thrust::device_ptr<float> buf = thrust::device_malloc<float>(n);
    thrust::fill(buf, buf + n, 0.25f);
    add_index<<<1, 32>>>(reinterpret_cast<int*>(thrust::raw_pointer_cast(buf)), 0);  // n = 0: touches nothing
    CHECK_CUDA(cudaDeviceSynchronize());
    expect(thrust::reduce(buf, buf + n) == 0.25f * n, "device_malloc");
    thrust::device_free(buf);

    std::printf("%s\n", failures == 0 ? "Test PASSED" : "Test FAILED");
    return failures == 0 ? 0 : 1;
}
