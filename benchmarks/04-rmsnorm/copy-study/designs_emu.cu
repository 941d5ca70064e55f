// The copy study's portable designs (designs.cuh without the inline-PTX hints) on the CPU emulator, under its memory
// checker: every kernel family at sizes that take each remainder path (a whole number of grid iterations, one word
// more, a partial row's worth less), with small grids so that the grid-stride loops run several iterations. A copy
// that misses, repeats or overruns a word fails here before it is timed on a GPU (copy_study.cu checks again there,
// at 32 MiB, with the PTX designs too). Prints "PASS <n> launches" or the first failures.
#define COPY_STUDY_PORTABLE 1
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "designs.cuh"

namespace {

using copystudy::Hint;

struct Case {
    std::string name;
    std::function<void(int4*, const int4*, size_t words)> launch;
    bool rows;  // needs a whole number of 128-word rows
};

template <int VEC, int ITEMS, Hint H>
void add_gs(std::vector<Case>& out) {
    out.push_back(
        {"gs" + std::to_string(16 * VEC) + "x" + std::to_string(ITEMS) + copystudy::hint_name(H),
         [](int4* d, const int4* s, size_t w) { copystudy::grid_stride_kernel<VEC, ITEMS, H><<<3, 64>>>(d, s, w); },
         false});
}

template <int LANES, int PACKS, int THREADS, bool SYNC, Hint H>
void add_row(std::vector<Case>& out) {
    out.push_back({"row" + std::to_string(LANES) + "x" + std::to_string(PACKS) + (SYNC ? "+sync" : ""),
                   [](int4* d, const int4* s, size_t w) {
                       const int rows = int(w / 128), per = THREADS / LANES;
                       copystudy::row_kernel<LANES, PACKS, SYNC, H>
                           <<<(rows + per - 1) / per, THREADS>>>(d, s, rows, 128);
                   },
                   true});
}

template <int LANES, int PACKS, int ROWS, Hint H>
void add_persistent(std::vector<Case>& out) {
    out.push_back({"persist" + std::to_string(LANES) + "x" + std::to_string(PACKS) + "r" + std::to_string(ROWS),
                   [](int4* d, const int4* s, size_t w) {
                       copystudy::persistent_rows_kernel<LANES, PACKS, ROWS, H><<<2, 64>>>(d, s, int(w / 128), 128);
                   },
                   true});
}

}  // namespace

int main() {
    using namespace copystudy;
    std::vector<Case> cases;
    add_gs<1, 1, kPlain>(cases);
    add_gs<1, 2, kStream>(cases);
    add_gs<1, 4, kStream>(cases);
    add_gs<2, 1, kPlain>(cases);
    add_gs<2, 2, kStream>(cases);
    add_gs<2, 4, kStream>(cases);
    add_row<64, 2, 64, false, kPlain>(cases);
    add_row<64, 2, 64, true, kStream>(cases);
    add_row<128, 1, 128, true, kStream>(cases);
    add_row<32, 4, 128, false, kStream>(cases);
    add_persistent<32, 4, 1, kStream>(cases);
    add_persistent<32, 4, 2, kStream>(cases);
    add_persistent<64, 2, 2, kStream>(cases);
    // Grid-stride: 3 x 64 threads, so one iteration of ITEMS items of VEC words is 192 * VEC * ITEMS words.
    const size_t gs_sizes[] = {1, 191, 192 * 8, 192 * 8 + 1, 192 * 8 * 3 - 5};
    // Rows: 5 rows (the last block of 4-row blocks partly empty), 9 rows.
    const size_t row_sizes[] = {128 * 5, 128 * 9};
    const size_t max_words = 192 * 8 * 3;
    int4 *src = nullptr, *dst = nullptr;
    cudaMallocManaged(&src, max_words * sizeof(int4));
    cudaMallocManaged(&dst, max_words * sizeof(int4));
    for (size_t i = 0; i < max_words * 4; ++i) reinterpret_cast<unsigned*>(src)[i] = 0x9e3779b9u * unsigned(i + 1);
    int launches = 0, failures = 0;
    for (const Case& c : cases) {
        const size_t* sizes = c.rows ? row_sizes : gs_sizes;
        const int n = c.rows ? 2 : 5;
        for (int k = 0; k < n; ++k) {
            const size_t words = sizes[k];
            std::memset(dst, 0xff, max_words * sizeof(int4));
            c.launch(dst, src, words);
            cudaError_t err = cudaDeviceSynchronize();
            ++launches;
            size_t bad = 0;
            for (size_t i = 0; i < max_words; ++i) {
                const bool want_copy = i < words;
                const int4 expect = want_copy ? src[i] : int4{-1, -1, -1, -1};
                if (std::memcmp(&dst[i], &expect, sizeof(int4)) != 0) ++bad;
            }
            if (err != cudaSuccess || bad) {
                std::printf("FAIL %s at %zu words: %zu words wrong (%s)\n", c.name.c_str(), words, bad,
                            cudaGetErrorString(err));
                ++failures;
            }
        }
    }
    cudaFree(src);
    cudaFree(dst);
    if (failures) return 1;
    std::printf("PASS %d launches\n", launches);
    return 0;
}
