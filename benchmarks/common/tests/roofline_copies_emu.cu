// The copies the benchmark's roofline is chosen from (copies.h: row_copy with 128 and 64 threads a row,
// copy_kernel) on the CPU emulator, under its memory checker, before they are timed on a GPU: byte for byte at sizes
// that take each path (one word, a row less one word, whole rows, rows and a partial one), with the words around the
// destination poisoned so that a write past the end shows; count_differences, the check before a copy is timed; and
// fastest_copy, which picks the fastest whatever the order; row_copy_rows (the tables' copies of the same bytes) at
// rows of 2 KiB and of another length, one tensor and two, in each launch mode. A copy that misses or overruns a
// word would make the roofline of a wrong kernel. Prints "PASS <n> launches" or the first failures.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../copies.h"

namespace {

struct Copy {
    std::string name;
    std::function<void(void*, const void*, size_t)> launch;
};

// Words of 16 bytes: each path of the row copies (2048-byte rows) and of the grid-stride loop.
constexpr size_t kWords[] = {1, 127, 128, 129, 128 * 3 + 5, 128 * 17};
constexpr size_t kGuard = 16;  // poisoned bytes after the destination

}  // namespace

int main() {
    const std::vector<Copy> copies = {
        {"row copy 128x1", [](void* d, const void* s, size_t b) { bench::row_copy(d, s, b, 128, nullptr); }},
        {"row copy 64x2", [](void* d, const void* s, size_t b) { bench::row_copy(d, s, b, 64, nullptr); }},
        {"grid-stride copy", [](void* d, const void* s, size_t b) { bench::copy_kernel(d, s, b, nullptr); }},
    };
    const size_t max_bytes = 16 * kWords[sizeof kWords / sizeof kWords[0] - 1];
    unsigned char *src = nullptr, *dst = nullptr;
    if (cudaMallocManaged(&src, max_bytes) != cudaSuccess ||
        cudaMallocManaged(&dst, max_bytes + kGuard) != cudaSuccess) {
        std::printf("FAIL: cudaMallocManaged\n");
        return 1;
    }
    for (size_t i = 0; i < max_bytes; ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
    int launches = 0, failures = 0;
    for (const Copy& c : copies) {
        for (size_t words : kWords) {
            const size_t bytes = 16 * words;
            std::memset(dst, 0xa5, max_bytes + kGuard);
            c.launch(dst, src, bytes);
            const cudaError_t err = cudaDeviceSynchronize();
            ++launches;
            size_t bad = 0;
            for (size_t i = 0; i < bytes; ++i) bad += dst[i] != src[i];
            for (size_t i = bytes; i < bytes + kGuard; ++i) bad += dst[i] != 0xa5;
            if (err != cudaSuccess || bad) {
                ++failures;
                std::printf("FAIL %s at %zu bytes: %zu bytes wrong (%s)\n", c.name.c_str(), bytes, bad,
                            cudaGetErrorString(err));
            }
        }
    }
    // row_copy_rows, the tables' copies of the same bytes: rows of 2 KiB and of a kernel's own length (here 80 words:
    // threads not a multiple of the row), 1, 2 and 4 words a thread, every launch mode; one tensor, and two with the
    // second rewritten in place (the fused add's residual), their rows interleaved.
    std::vector<unsigned char> before(max_bytes + kGuard);
    for (size_t row_words : {size_t(128), size_t(80)}) {
        for (int words : {1, 2, 4}) {
            for (bench::CopyLaunch how : {bench::CopyLaunch::plain, bench::CopyLaunch::wait, bench::CopyLaunch::pdl}) {
                for (int count : {1, 2}) {
                    for (size_t w : kWords) {
                        const size_t bytes = 16 * w, half = max_bytes / 2;
                        std::memset(dst, 0xa5, max_bytes + kGuard);
                        // The second tensor: the upper half of dst, filled from the source, copied onto itself.
                        if (count == 2 && bytes <= half) std::memcpy(dst + half, src + 16, bytes);
                        if (count == 2 && bytes > half) continue;
                        std::memcpy(before.data(), dst, max_bytes + kGuard);
                        bench::CopyTensors t;
                        t.count = count;
                        t.dst[0] = dst;
                        t.src[0] = src;
                        t.dst[1] = dst + half;
                        t.src[1] = dst + half;
                        cudaStream_t stream = nullptr;
                        cudaStreamCreate(&stream);
                        const bool ran = bench::row_copy_rows(t, bytes, 16 * row_words, words, how, stream);
                        const cudaError_t err = cudaStreamSynchronize(stream);
                        cudaStreamDestroy(stream);
                        ++launches;
                        size_t bad = 0;
                        for (size_t i = 0; i < bytes; ++i) bad += dst[i] != src[i];
                        const size_t end = count == 2 ? half : bytes + kGuard;
                        for (size_t i = bytes; i < end; ++i) bad += dst[i] != 0xa5;
                        if (count == 2)
                            for (size_t i = half; i < max_bytes + kGuard; ++i) bad += dst[i] != before[i];
                        if (!ran || err != cudaSuccess || bad) {
                            ++failures;
                            std::printf(
                                "FAIL row_copy_rows row %zu words, %d a thread, mode %d, %d tensors, %zu bytes: "
                                "%s, %zu bytes wrong (%s)\n",
                                row_words, words, int(how), count, bytes, ran ? "ran" : "refused", bad,
                                cudaGetErrorString(err));
                        }
                    }
                }
            }
        }
    }
    // Refused, nothing launched: a row of more than 1024 threads, sizes that are not whole words.
    bench::CopyTensors one;
    one.dst[0] = dst;
    one.src[0] = src;
    if (bench::row_copy_rows(one, 16 * 2048, 16 * 2048, 1, bench::CopyLaunch::plain, nullptr) ||
        bench::row_copy_rows(one, 24, 16, 1, bench::CopyLaunch::plain, nullptr) ||
        bench::row_copy_rows(one, 32, 24, 1, bench::CopyLaunch::plain, nullptr)) {
        ++failures;
        std::printf("FAIL row_copy_rows ran a copy it should refuse\n");
    }

    // The check that precedes the timing counts differing words, one per word whatever its bytes.
    std::memcpy(dst, src, max_bytes);
    const size_t same = bench::count_differences(src, dst, max_bytes);
    dst[5] ^= 1;
    dst[7] ^= 1;
    dst[max_bytes - 1] ^= 0x80;
    const size_t two = bench::count_differences(src, dst, max_bytes);
    ++launches;
    if (same != 0 || two != 2) {
        ++failures;
        std::printf("FAIL count_differences: %zu for equal buffers, %zu for two words changed\n", same, two);
    }
    // The roofline is the fastest copy, wherever it stands in the list.
    const std::vector<std::vector<bench::CopyFigure>> lists = {
        {{"a", 4.27}, {"b", 3.97}, {"c", 2.71}}, {{"a", 3.97}, {"b", 4.27}}, {{"a", 2.71}, {"b", 3.97}, {"c", 4.27}}};
    for (const auto& l : lists) {
        const bench::CopyFigure best = bench::fastest_copy(l);
        if (best.tbs != 4.27) {
            ++failures;
            std::printf("FAIL fastest_copy picked %s (%.2f TB/s), not the 4.27 TB/s one\n", best.name.c_str(),
                        best.tbs);
        }
    }
    if (!bench::fastest_copy({}).name.empty()) {
        ++failures;
        std::printf("FAIL fastest_copy of no copies has a name\n");
    }
    cudaFree(src);
    cudaFree(dst);
    if (failures) return 1;
    std::printf("PASS %d launches\n", launches);
    return 0;
}
