// CUB's device-wide algorithms with their two-call temporary-storage protocol, as CUB's examples and benchmark
// repositories call them: DeviceReduce (Sum, Max, Reduce with a custom operator), DeviceScan (ExclusiveSum,
// InclusiveScan), DeviceRadixSort (SortPairs on float keys with negatives, SortKeysDescending on a bit range),
// DeviceSegmentedReduce over CSR-style offsets, DeviceSelect (If, Flagged, Unique), DeviceRunLengthEncode::Encode,
// DeviceHistogram::HistogramEven, and kernels of the program's own beside them (BlockReduce tile sums,
// a BlockRadixSort of key-value pairs per tile, descending, BlockExchange round trips). Each result is checked against a CPU loop.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#define CubDebugExit(call)                                                                                     \
    do {                                                                                                       \
        cudaError_t e_ = (call);                                                                               \
        if (e_ != cudaSuccess) {                                                                               \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);               \
            std::exit(1);                                                                                      \
        }                                                                                                      \
    } while (0)

struct IsPositive {
    __host__ __device__ bool operator()(int v) const { return v > 0; }
};

struct AbsMax {
    __host__ __device__ int operator()(int a, int b) const { return abs(a) > abs(b) ? abs(a) : abs(b); }
};

template <int THREADS>
__global__ void block_sums(const int* in, int* out, int n) {
    typedef cub::BlockReduce<int, THREADS> BlockReduceT;
    __shared__ typename BlockReduceT::TempStorage temp;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int total = BlockReduceT(temp).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// Each block sorts 64 threads x 4 items of (key, index) pairs, descending by key, then stores them striped.
__global__ void tile_sort_desc(const int* keys_in, int* keys_out, int* index_out) {
    typedef cub::BlockRadixSort<int, 64, 4, int> BlockRadixSortT;
    __shared__ typename BlockRadixSortT::TempStorage temp;
    int keys[4], index[4];
    const int base = blockIdx.x * 256;
    for (int i = 0; i < 4; ++i) {
        index[i] = base + threadIdx.x * 4 + i;
        keys[i] = keys_in[index[i]];
    }
    BlockRadixSortT(temp).SortDescendingBlockedToStriped(keys, index);
    for (int i = 0; i < 4; ++i) {
        keys_out[base + i * 64 + threadIdx.x] = keys[i];
        index_out[base + i * 64 + threadIdx.x] = index[i];
    }
}

// Blocked -> striped -> warp-striped -> blocked, then a scatter that reverses each tile: out = the tile reversed.
__global__ void exchange_reverse(const int* in, int* out) {
    typedef cub::BlockExchange<int, 64, 3> BlockExchangeT;
    __shared__ typename BlockExchangeT::TempStorage temp;
    const int base = blockIdx.x * 192;
    int items[3], ranks[3];
    for (int i = 0; i < 3; ++i) items[i] = in[base + threadIdx.x * 3 + i];
    BlockExchangeT(temp).BlockedToStriped(items);
    __syncthreads();
    BlockExchangeT(temp).StripedToBlocked(items);
    __syncthreads();
    BlockExchangeT(temp).BlockedToWarpStriped(items);
    __syncthreads();
    BlockExchangeT(temp).WarpStripedToBlocked(items);
    __syncthreads();
    for (int i = 0; i < 3; ++i) ranks[i] = 191 - (threadIdx.x * 3 + i);
    BlockExchangeT(temp).ScatterToBlocked(items, items, ranks);
    for (int i = 0; i < 3; ++i) out[base + threadIdx.x * 3 + i] = items[i];
}

static int failures = 0;
static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("mismatch: %s\n", what);
        ++failures;
    }
}

int main() {
    const int n = 3000;
    std::vector<int> h_in(n);
    std::vector<float> h_keys(n);
    std::vector<int> h_vals(n);
    srand(2024);
    for (int i = 0; i < n; ++i) {
        h_in[i] = rand() % 2001 - 1000;
        h_keys[i] = (rand() % 4001 - 2000) * 0.25f;
        h_vals[i] = i;
    }
    int *d_in, *d_out, *d_vals, *d_vals_out;
    float *d_keys, *d_keys_out;
    CubDebugExit(cudaMalloc(&d_in, n * sizeof(int)));
    CubDebugExit(cudaMalloc(&d_out, n * sizeof(int)));
    CubDebugExit(cudaMalloc(&d_vals, n * sizeof(int)));
    CubDebugExit(cudaMalloc(&d_vals_out, n * sizeof(int)));
    CubDebugExit(cudaMalloc(&d_keys, n * sizeof(float)));
    CubDebugExit(cudaMalloc(&d_keys_out, n * sizeof(float)));
    CubDebugExit(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CubDebugExit(cudaMemcpy(d_keys, h_keys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CubDebugExit(cudaMemcpy(d_vals, h_vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // Reduce: size query, allocation, then the work.
    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    CubDebugExit(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n));
    CubDebugExit(cudaMalloc(&d_temp, temp_bytes));
    CubDebugExit(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n));
    int sum = 0;
    CubDebugExit(cudaMemcpy(&sum, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    check(sum == std::accumulate(h_in.begin(), h_in.end(), 0), "DeviceReduce::Sum");
    CubDebugExit(cub::DeviceReduce::Max(d_temp, temp_bytes, d_in, d_out, n));
    int mx = 0;
    CubDebugExit(cudaMemcpy(&mx, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    check(mx == *std::max_element(h_in.begin(), h_in.end()), "DeviceReduce::Max");
    CubDebugExit(cub::DeviceReduce::Reduce(d_temp, temp_bytes, d_in, d_out, n, AbsMax(), 0));
    int amx = 0;
    CubDebugExit(cudaMemcpy(&amx, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    int want_amx = 0;
    for (int v : h_in) want_amx = std::max(want_amx, std::abs(v));
    check(amx == want_amx, "DeviceReduce::Reduce");
    CubDebugExit(cudaFree(d_temp));

    // Scans.
    d_temp = nullptr;
    CubDebugExit(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, n));
    CubDebugExit(cudaMalloc(&d_temp, temp_bytes));
    CubDebugExit(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, n));
    std::vector<int> scanned(n);
    CubDebugExit(cudaMemcpy(scanned.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> want(n);
    std::exclusive_scan(h_in.begin(), h_in.end(), want.begin(), 0);
    check(scanned == want, "DeviceScan::ExclusiveSum");
    CubDebugExit(cub::DeviceScan::InclusiveScan(d_temp, temp_bytes, d_in, d_out, cub::Max(), n));
    CubDebugExit(cudaMemcpy(scanned.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int running = h_in[0];
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && scanned[i] == (running = std::max(running, h_in[i]));
    check(ok, "DeviceScan::InclusiveScan(Max)");
    CubDebugExit(cudaFree(d_temp));

    // Radix sort of float keys with their indices, then the int inputs descending on bits 0-9 only.
    d_temp = nullptr;
    CubDebugExit(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys, d_keys_out, d_vals, d_vals_out, n));
    CubDebugExit(cudaMalloc(&d_temp, temp_bytes));
    CubDebugExit(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys, d_keys_out, d_vals, d_vals_out, n));
    std::vector<float> keys_sorted(n);
    std::vector<int> vals_sorted(n);
    CubDebugExit(cudaMemcpy(keys_sorted.data(), d_keys_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CubDebugExit(cudaMemcpy(vals_sorted.data(), d_vals_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h_keys[a] < h_keys[b]; });
    ok = true;
    for (int i = 0; i < n; ++i) ok = ok && vals_sorted[i] == idx[i] && keys_sorted[i] == h_keys[idx[i]];
    check(ok, "DeviceRadixSort::SortPairs (float keys, stable)");
    CubDebugExit(cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_in, d_out, n, 0, 10));
    CubDebugExit(cudaMemcpy(scanned.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> low_bits = h_in;
    std::stable_sort(low_bits.begin(), low_bits.end(), [](int a, int b) { return (a & 1023) > (b & 1023); });
    check(scanned == low_bits, "DeviceRadixSort::SortKeysDescending (bits 0-9)");
    CubDebugExit(cudaFree(d_temp));

    // Segmented sums over CSR offsets (an empty segment included), beside a BlockReduce kernel of 128-item tiles.
    std::vector<int> h_offsets = {0, 128, 128, 1000, 2500, n};
    const int segments = (int)h_offsets.size() - 1;
    int* d_offsets;
    CubDebugExit(cudaMalloc(&d_offsets, h_offsets.size() * sizeof(int)));
    CubDebugExit(cudaMemcpy(d_offsets, h_offsets.data(), h_offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    d_temp = nullptr;
    CubDebugExit(cub::DeviceSegmentedReduce::Sum(d_temp, temp_bytes, d_in, d_out, segments, d_offsets, d_offsets + 1));
    CubDebugExit(cudaMalloc(&d_temp, temp_bytes));
    CubDebugExit(cub::DeviceSegmentedReduce::Sum(d_temp, temp_bytes, d_in, d_out, segments, d_offsets, d_offsets + 1));
    std::vector<int> seg(segments);
    CubDebugExit(cudaMemcpy(seg.data(), d_out, segments * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int s = 0; s < segments; ++s)
        ok = ok && seg[s] == std::accumulate(h_in.begin() + h_offsets[s], h_in.begin() + h_offsets[s + 1], 0);
    check(ok, "DeviceSegmentedReduce::Sum");
    const int tiles = (n + 127) / 128;
    block_sums<128><<<tiles, 128>>>(d_in, d_out, n);
    CubDebugExit(cudaGetLastError());
    std::vector<int> tile_sums(tiles);
    CubDebugExit(cudaMemcpy(tile_sums.data(), d_out, tiles * sizeof(int), cudaMemcpyDeviceToHost));
    check(std::accumulate(tile_sums.begin(), tile_sums.end(), 0) == sum, "BlockReduce tiles");

    // Stream compaction, run lengths and a histogram (the int inputs, and the same values sorted).
    int* d_count;
    char* d_flags;
    CubDebugExit(cudaMalloc(&d_count, sizeof(int)));
    CubDebugExit(cudaMalloc(&d_flags, n));
    std::vector<char> h_flags(n);
    for (int i = 0; i < n; ++i) h_flags[i] = (i % 3) == 1;
    CubDebugExit(cudaMemcpy(d_flags, h_flags.data(), n, cudaMemcpyHostToDevice));
    d_temp = nullptr;
    CubDebugExit(cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_count, n, IsPositive()));
    CubDebugExit(cudaMalloc(&d_temp, temp_bytes));
    CubDebugExit(cub::DeviceSelect::If(d_temp, temp_bytes, d_in, d_out, d_count, n, IsPositive()));
    int count = 0;
    CubDebugExit(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> selected(n);
    CubDebugExit(cudaMemcpy(selected.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> want_selected;
    for (int v : h_in)
        if (v > 0) want_selected.push_back(v);
    check(count == (int)want_selected.size() &&
              std::equal(want_selected.begin(), want_selected.end(), selected.begin()),
          "DeviceSelect::If");
    CubDebugExit(cub::DeviceSelect::Flagged(d_temp, temp_bytes, d_in, d_flags, d_out, d_count, n));
    CubDebugExit(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    CubDebugExit(cudaMemcpy(selected.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = count == (n + 1) / 3;
    for (int i = 0; i < count && ok; ++i) ok = selected[i] == h_in[3 * i + 1];
    check(ok, "DeviceSelect::Flagged");
    std::vector<int> sorted_in = h_in;
    std::sort(sorted_in.begin(), sorted_in.end());
    CubDebugExit(cudaMemcpy(d_vals, sorted_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CubDebugExit(cub::DeviceSelect::Unique(d_temp, temp_bytes, d_vals, d_out, d_count, n));
    CubDebugExit(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    const int distinct = (int)(std::unique(sorted_in.begin(), sorted_in.end()) - sorted_in.begin());
    check(count == distinct, "DeviceSelect::Unique");
    CubDebugExit(cub::DeviceRunLengthEncode::Encode(d_temp, temp_bytes, d_vals, d_out, d_vals_out, d_count, n));
    std::vector<int> runs(n), lengths(n);
    CubDebugExit(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
    CubDebugExit(cudaMemcpy(runs.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CubDebugExit(cudaMemcpy(lengths.data(), d_vals_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    ok = count == distinct;
    for (int r = 0; r < count && ok; ++r)
        ok = runs[r] == sorted_in[r] && lengths[r] == (int)std::count(h_in.begin(), h_in.end(), runs[r]);
    check(ok, "DeviceRunLengthEncode::Encode");
    int* d_hist;
    CubDebugExit(cudaMalloc(&d_hist, 10 * sizeof(int)));
    CubDebugExit(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_in, d_hist, 11, -1000, 1000, n));
    int hist[10];
    CubDebugExit(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost));
    ok = true;
    for (int b = 0; b < 10; ++b)
        ok = ok && hist[b] == (int)std::count_if(h_in.begin(), h_in.end(), [b](int v) {
                 return v >= -1000 + 200 * b && v < -1000 + 200 * (b + 1);
             });
    check(ok, "DeviceHistogram::HistogramEven");
    cudaFree(d_count);
    cudaFree(d_flags);
    cudaFree(d_hist);
    CubDebugExit(cudaFree(d_temp));
    d_temp = nullptr;

    // Per-tile descending sorts of the first 2048 inputs (8 tiles of 256), ties in their original order.
    tile_sort_desc<<<8, 64>>>(d_in, d_out, d_vals_out);
    CubDebugExit(cudaGetLastError());
    std::vector<int> tile_keys(2048), tile_index(2048);
    CubDebugExit(cudaMemcpy(tile_keys.data(), d_out, 2048 * sizeof(int), cudaMemcpyDeviceToHost));
    CubDebugExit(cudaMemcpy(tile_index.data(), d_vals_out, 2048 * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < 8; ++t) {
        std::vector<int> order(256);
        std::iota(order.begin(), order.end(), t * 256);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h_in[a] > h_in[b]; });
        for (int i = 0; i < 256; ++i)
            ok = ok && tile_index[t * 256 + i] == order[i] && tile_keys[t * 256 + i] == h_in[order[i]];
    }
    check(ok, "BlockRadixSort::SortDescendingBlockedToStriped");

    exchange_reverse<<<4, 64>>>(d_in, d_out);
    CubDebugExit(cudaGetLastError());
    std::vector<int> reversed(768);
    CubDebugExit(cudaMemcpy(reversed.data(), d_out, 768 * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int t = 0; t < 4; ++t)
        for (int i = 0; i < 192; ++i) ok = ok && reversed[t * 192 + i] == h_in[t * 192 + 191 - i];
    check(ok, "BlockExchange round trips and ScatterToBlocked");

    cudaFree(d_temp);
    cudaFree(d_offsets);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_vals);
    cudaFree(d_vals_out);
    cudaFree(d_keys);
    cudaFree(d_keys_out);
    std::printf("%s\n", failures == 0 ? "Test PASSED" : "Test FAILED");
    return failures == 0 ? 0 : 1;
}
