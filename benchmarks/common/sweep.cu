// The benchmark's sizes and its roofline, the fastest of its copies (see sweep.h).
#include "sweep.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <functional>

#include "copies.h"
#include "cuda_check.h"
#include "device_data.h"
#include "timing.h"

namespace bench {

std::vector<Shape> shapes(bool quick) {
    std::vector<Shape> out;
    for (int d = 128; d <= 8192; d += 128) {
        if (quick && d % 1024 != 0 && d != 128 && d != 2176) continue;
        out.push_back({kSweepM, d});
    }
    for (Shape s : {Shape{16384, 1024}, Shape{16384, 4096}, Shape{16384, 8192}, Shape{8192, 16384}, Shape{4096, 5120}})
        out.push_back(s);
    return out;
}

int l2_bytes() {
    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    return l2;
}

std::vector<CopyFigure> time_copies(int replays) {
    const size_t bytes = size_t(2) << 30;
    void *a = nullptr, *b = nullptr;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    fill_normal(Dtype::fp32, a, bytes / 4, 7, 0.f, 1.f);
    auto tbs = [&](double us) { return us > 0 ? 2.0 * bytes / (us * 1e-6) / 1e12 : 0; };
    // Checked first (the destination poisoned, one copy, every word compared): a wrong copy is named and gets 0 TB/s.
    auto checked = [&](const char* name, const std::function<void(cudaStream_t)>& copy) {
        poison(b, bytes);
        copy(nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        const size_t wrong = count_differences(a, b, bytes);
        if (wrong)
            std::printf("bench: the %s copied %zu of %zu words wrong; it is not timed\n", name, wrong, bytes / 16);
        return wrong == 0;
    };
    auto in_graph = [&](const char* name, const std::function<void(cudaStream_t)>& copy) {
        if (!checked(name, copy)) return CopyFigure{name, 0};
        return CopyFigure{name, tbs(median_launch_us(
                                    [&](int, cudaStream_t s) {
                                        copy(s);
                                        return true;
                                    },
                                    4, replays))};
    };
    std::vector<CopyFigure> out;
    out.push_back(in_graph("row copy 128x1", [&](cudaStream_t s) { row_copy(b, a, bytes, 128, s); }));
    out.push_back(in_graph("row copy 64x2", [&](cudaStream_t s) { row_copy(b, a, bytes, 64, s); }));
    out.push_back(in_graph("grid-stride copy", [&](cudaStream_t s) { copy_kernel(b, a, bytes, s); }));
    // No cudaMemcpyAsync among them: a 2 GiB device-to-device memcpy issued in the process made every kernel timed
    // after it 0.2-0.37 us a launch slower (run 16; run 17 bisected it to the memcpy alone), and over 2 GiB it was
    // 0.5 % slower than the row copy anyway (4.28 against 4.30 TB/s, runs 16 and 17).
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return out;
}

}  // namespace bench
