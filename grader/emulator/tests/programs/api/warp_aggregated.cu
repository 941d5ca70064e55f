// Stream compaction with warp-aggregated atomics, in three spellings: the leader of a coalesced group reserves
// room for the whole group with one atomicAdd and broadcasts the base (cg::coalesced_threads), the same with
// __ballot_sync / __popc / __shfl_sync by hand, and a per-key variant where __match_any_sync groups the lanes
// holding the same key so each group's leader updates that key's counter once. Checked against the CPU.
#include <cooperative_groups.h>

#include <algorithm>
#include <vector>

#include "common.cuh"

namespace cg = cooperative_groups;

__device__ int reserve_coalesced(int* counter) {
  cg::coalesced_group g = cg::coalesced_threads();
  int base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(counter, static_cast<int>(g.size()));
  return g.shfl(base, 0) + static_cast<int>(g.thread_rank());
}

__global__ void compact_cg(const int* in, int n, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 3 == 0) out[reserve_coalesced(count)] = in[i];
}

__global__ void compact_ballot(const int* in, int n, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] % 3 == 0;
  const unsigned lanes = __ballot_sync(0xffffffffu, keep);
  const int lane = threadIdx.x % 32;
  const int leader = lanes ? __ffs(lanes) - 1 : 0;
  int base = 0;
  if (lane == leader && lanes) base = atomicAdd(count, __popc(lanes));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (keep) out[base + __popc(lanes & ((1u << lane) - 1u))] = in[i];
}

__global__ void count_keys(const int* keys, int n, unsigned int* counters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int key = i < n ? keys[i] : -1;
  const unsigned same = __match_any_sync(0xffffffffu, key);
  if (key >= 0 && (threadIdx.x % 32) == __ffs(same) - 1) atomicAdd(&counters[key], __popc(same));
}

int main() {
  Tally t{"warp_aggregated"};
  const int n = 5000, keys_n = 16;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 1000;
  int *din, *dout, *dcount;
  unsigned int* dcounters;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dcount, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dcounters, keys_n * sizeof(unsigned int)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> want;
  for (int v : in)
    if (v % 3 == 0) want.push_back(v);
  std::sort(want.begin(), want.end());
  for (int version = 0; version < 2; ++version) {
    CHECK_CUDA(cudaMemset(dcount, 0, sizeof(int)));
    if (version == 0) compact_cg<<<(n + 127) / 128, 128>>>(din, n, dout, dcount);
    else compact_ballot<<<(n + 127) / 128, 128>>>(din, n, dout, dcount);
    CHECK_CUDA(cudaGetLastError());
    int count = 0;
    CHECK_CUDA(cudaMemcpy(&count, dcount, sizeof count, cudaMemcpyDeviceToHost));
    t.equal(version == 0 ? "cg_count" : "ballot_count", 0, count, static_cast<long long>(want.size()));
    std::vector<int> got(count);
    CHECK_CUDA(cudaMemcpy(got.data(), dout, count * sizeof(int), cudaMemcpyDeviceToHost));
    // The order between warps depends on scheduling; the set of kept values does not.
    std::sort(got.begin(), got.end());
    for (int i = 0; i < count && i < static_cast<int>(want.size()); ++i)
      t.equal(version == 0 ? "cg_values" : "ballot_values", i, got[i], want[i]);
  }
  std::vector<int> keys(n);
  std::vector<unsigned int> want_counts(keys_n, 0);
  for (int i = 0; i < n; ++i) {
    keys[i] = (i / 5 + i % 3) % keys_n;  // runs of equal keys inside a warp, so groups have several lanes
    ++want_counts[keys[i]];
  }
  CHECK_CUDA(cudaMemcpy(din, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dcounters, 0, keys_n * sizeof(unsigned int)));
  count_keys<<<(n + 127) / 128, 128>>>(din, n, dcounters);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned int> counts(keys_n);
  CHECK_CUDA(cudaMemcpy(counts.data(), dcounters, keys_n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  for (int k = 0; k < keys_n; ++k) t.equal("key_counts", k, counts[k], want_counts[k]);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dcount);
  cudaFree(dcounters);
  return t.finish();
}
