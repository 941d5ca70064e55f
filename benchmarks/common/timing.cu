// Graph-replay timing (see timing.h).
#include "timing.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.h"

namespace bench {

double median_launch_us(const std::function<bool(int, cudaStream_t)>& launch, int launches, int replays) {
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaGraph_t graph = nullptr;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    bool ok = true;
    for (int i = 0; i < launches && ok; ++i) ok = launch(i, stream);
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    CUDA_CHECK(cudaGetLastError());
    if (!ok) {
        CUDA_CHECK(cudaGraphDestroy(graph));
        CUDA_CHECK(cudaStreamDestroy(stream));
        return -1;
    }
    cudaGraphExec_t exec = nullptr;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CHECK(cudaGraphUpload(exec, stream));
    for (int i = 0; i < 2; ++i) CUDA_CHECK(cudaGraphLaunch(exec, stream));  // warm-up: first touch, clocks
    std::vector<cudaEvent_t> events(replays + 1);
    for (auto& e : events) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaEventRecord(events[0], stream));
    for (int r = 0; r < replays; ++r) {
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
        CUDA_CHECK(cudaEventRecord(events[r + 1], stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> us(replays);
    for (int r = 0; r < replays; ++r) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, events[r], events[r + 1]));
        us[r] = 1e3 * ms / launches;
    }
    for (auto& e : events) CUDA_CHECK(cudaEventDestroy(e));
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(stream));
    std::nth_element(us.begin(), us.begin() + replays / 2, us.end());
    return us[replays / 2];
}

}  // namespace bench
