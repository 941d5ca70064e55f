// Device counters of a check and their reading (see verdict.h).
#include "verdict.h"

#include <cuda_runtime.h>

#include <cstring>

#include "cuda_check.h"

namespace bench {

CheckCounters new_check_counters() {
    CheckCounters c;
    CUDA_CHECK(cudaMalloc(&c.bad, sizeof(*c.bad)));
    CUDA_CHECK(cudaMalloc(&c.worst_bits, sizeof(*c.worst_bits)));
    CUDA_CHECK(cudaMemset(c.bad, 0, sizeof(*c.bad)));
    CUDA_CHECK(cudaMemset(c.worst_bits, 0, sizeof(*c.worst_bits)));
    return c;
}

CheckResult take_check_result(CheckCounters c) {
    CheckResult result{};
    unsigned worst_bits = 0;
    CUDA_CHECK(cudaMemcpy(&result.bad, c.bad, sizeof(*c.bad), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&worst_bits, c.worst_bits, sizeof(worst_bits), cudaMemcpyDeviceToHost));
    float worst = 0;
    std::memcpy(&worst, &worst_bits, sizeof(worst));
    result.worst = worst;
    CUDA_CHECK(cudaFree(c.bad));
    CUDA_CHECK(cudaFree(c.worst_bits));
    return result;
}

}  // namespace bench
