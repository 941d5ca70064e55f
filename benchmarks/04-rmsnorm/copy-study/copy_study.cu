// The copy study (issue 13): is 93 % of the 2 GiB copy a floor for a kernel that reads 32 MiB and writes 32 MiB once
// (the bf16 norm at 16384 x 1024), or can some copy kernel do better there? Every design of designs.cuh and bulk.cuh,
// cudaMemcpyAsync and the benchmark's own copy (../../common/device_data.cu), each checked byte for byte and then
// timed exactly as `make bench-04` times its kernels (../../common/timing.cu: K launches in one CUDA graph, each on
// the next of several buffer pairs that together hold 3 x the L2, 2 warm-up replays, the median of 20, over K); at
// 32 MiB, at the 2 GiB of the benchmark's roofline, and over a size scan that separates each design's fixed cost per
// launch from its streaming rate (t = t0 + bytes / rate, least squares). Beside them, in the same process and the
// same way, the bf16 and fp16 norm at 16384 x 1024 with every launch shape its kernels have there, each checked
// against the fp64 reference first. GPU only; built by hand (no CMake target):
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o copy_study benchmarks/04-rmsnorm/copy-study/copy_study.cu \
//        benchmarks/04-rmsnorm/kernels/rmsnorm.cu benchmarks/04-rmsnorm/bench/check.cu \
//        benchmarks/common/{timing,device_data,sweep,verdict}.cu
//   copy_study [--csv FILE] [--pdl] [--profile NAME[,NAME...] [BYTES]]
//     --pdl: the programmatic-dependent-launch designs only (a separate run, so that a driver that refuses them in a
//            graph cannot take the others' results with it);
//     --profile: launch the named designs (or norm:SHAPE) 3 times each on fresh buffers of BYTES (default 32 MiB one
//            way) and nothing else, for Nsight Compute.
// Exit status: 0; 1 when a design copied a wrong byte or a norm shape failed its check (printed), or on a CUDA error.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "../../common/copies.h"
#include "../../common/cuda_check.h"
#include "../../common/device_data.h"
#include "../../common/sweep.h"
#include "../../common/timing.h"
#include "../bench/check.h"
#include "../kernels/reference.h"
#include "bulk.cuh"
#include "designs.cuh"

namespace {

using copystudy::Hint;
using Launch = std::function<bool(void* dst, const void* src, size_t bytes, cudaStream_t stream)>;

constexpr int kSms = 132;                 // the H200's multiprocessors (grids below are multiples of it)
constexpr size_t kRowBytes = 2048;        // a bf16 row of 1024 elements
constexpr size_t kStudyBytes = 32 << 20;  // 16384 x 1024 bf16, one way

struct Design {
    std::string name;
    Launch launch;
    bool scan = false;  // also timed over the size scan
};

// --- the designs ------------------------------------------------------------------------------------------------

template <int VEC, int ITEMS, Hint H>
void add_grid_stride(std::vector<Design>& out, bool scan_default) {
    // (threads, blocks per multiprocessor): one resident wave at full occupancy in three block sizes, half occupancy,
    // and two waves of 256 (the benchmark's copy's grid).
    const int shapes[][2] = {{256, 8}, {512, 4}, {1024, 2}, {256, 4}, {256, 16}};
    for (const auto& s : shapes) {
        const int threads = s[0], grid = s[1] * kSms;
        const std::string name = "gs" + std::to_string(16 * VEC) + "x" + std::to_string(ITEMS) +
                                 copystudy::hint_name(H) + "/" + std::to_string(s[1]) + "x132x" +
                                 std::to_string(threads);
        out.push_back({name,
                       [=](void* d, const void* src, size_t bytes, cudaStream_t st) {
                           copystudy::grid_stride_kernel<VEC, ITEMS, H><<<grid, threads, 0, st>>>(
                               static_cast<int4*>(d), static_cast<const int4*>(src), bytes / 16);
                           return true;
                       },
                       scan_default && s[0] == 256 && s[1] == 8});
    }
}

template <Hint H>
void add_grid_stride_family(std::vector<Design>& out) {
    add_grid_stride<1, 1, H>(out, H == copystudy::kStream);
    add_grid_stride<1, 2, H>(out, false);
    add_grid_stride<1, 4, H>(out, H == copystudy::kStream || H == copystudy::kNoAlloc);
    add_grid_stride<2, 1, H>(out, false);
    add_grid_stride<2, 2, H>(out, H == copystudy::kStream);
    add_grid_stride<2, 4, H>(out, false);
}

// Rows of kRowBytes: one group of LANES threads a row, PACKS words a thread, blocks of THREADS threads.
template <int LANES, int PACKS, int THREADS, bool SYNC, Hint H>
void add_row(std::vector<Design>& out, bool scan) {
    const std::string name = "row" + std::to_string(LANES) + "x" + std::to_string(PACKS) + "/" +
                             std::to_string(THREADS) + (SYNC ? "+sync" : "") + copystudy::hint_name(H);
    out.push_back({name,
                   [](void* d, const void* src, size_t bytes, cudaStream_t st) {
                       if (bytes % kRowBytes) return false;
                       const int rows = int(bytes / kRowBytes), per_block = THREADS / LANES;
                       copystudy::row_kernel<LANES, PACKS, SYNC, H>
                           <<<(rows + per_block - 1) / per_block, THREADS, 0, st>>>(
                               static_cast<int4*>(d), static_cast<const int4*>(src), rows, int(kRowBytes / 16));
                       return true;
                   },
                   scan});
}

template <int LANES, int PACKS, int ROWS, Hint H>
void add_persistent(std::vector<Design>& out, int blocks_per_sm) {
    const std::string name = "persist" + std::to_string(LANES) + "x" + std::to_string(PACKS) + "r" +
                             std::to_string(ROWS) + copystudy::hint_name(H) + "/" + std::to_string(blocks_per_sm) +
                             "x132x256";
    out.push_back({name, [=](void* d, const void* src, size_t bytes, cudaStream_t st) {
                       if (bytes % kRowBytes) return false;
                       copystudy::persistent_rows_kernel<LANES, PACKS, ROWS, H>
                           <<<blocks_per_sm * kSms, 256, 0, st>>>(static_cast<int4*>(d), static_cast<const int4*>(src),
                                                                  int(bytes / kRowBytes), int(kRowBytes / 16));
                       return true;
                   }});
}

// blocks_per_sm 0: one block a chunk (grid = chunks), else a persistent grid.
template <int CHUNK, int STAGES>
void add_bulk(std::vector<Design>& out, int blocks_per_sm, bool scan) {
    const std::string name = "bulk" + std::to_string(CHUNK / 1024) + "k" + "s" + std::to_string(STAGES) + "/" +
                             (blocks_per_sm ? std::to_string(blocks_per_sm) + "x132" : std::string("chunks")) + "x32";
    out.push_back({name,
                   [=](void* d, const void* src, size_t bytes, cudaStream_t st) {
                       const int smem = CHUNK * STAGES;
                       static bool attr = false;  // once per instance, outside any capture's first launch
                       if (!attr) {
                           CUDA_CHECK(cudaFuncSetAttribute(copystudy::bulk_copy_kernel<CHUNK, STAGES>,
                                                           cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
                           attr = true;
                       }
                       const size_t chunks = (bytes + CHUNK - 1) / CHUNK;
                       const int grid = blocks_per_sm ? blocks_per_sm * kSms : int(chunks);
                       copystudy::bulk_copy_kernel<CHUNK, STAGES>
                           <<<grid, 32, smem, st>>>(static_cast<char*>(d), static_cast<const char*>(src), bytes);
                       return true;
                   },
                   scan});
}

template <int ITEMS, Hint H>
void add_pdl(std::vector<Design>& out, int blocks_per_sm) {
    const std::string name = "pdl-gs16x" + std::to_string(ITEMS) + copystudy::hint_name(H) + "/" +
                             std::to_string(blocks_per_sm) + "x132x256";
    out.push_back({name,
                   [=](void* d, const void* src, size_t bytes, cudaStream_t st) {
                       cudaLaunchConfig_t cfg = {};
                       cfg.gridDim = dim3(blocks_per_sm * kSms);
                       cfg.blockDim = dim3(256);
                       cfg.stream = st;
                       cudaLaunchAttribute attr[1];
                       attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
                       attr[0].val.programmaticStreamSerializationAllowed = 1;
                       cfg.attrs = attr;
                       cfg.numAttrs = 1;
                       int4* dst = static_cast<int4*>(d);
                       const int4* s = static_cast<const int4*>(src);
                       const size_t words = bytes / 16;
                       return cudaLaunchKernelEx(&cfg, copystudy::pdl_grid_stride_kernel<ITEMS, H>, dst, s, words) ==
                              cudaSuccess;
                   },
                   true});
}

std::vector<Design> designs(bool pdl) {
    using namespace copystudy;
    std::vector<Design> out;
    if (pdl) {
        for (int k : {8, 16}) {
            add_pdl<1, kPlain>(out, k);
            add_pdl<1, kStream>(out, k);
            add_pdl<2, kStream>(out, k);
            add_pdl<4, kStream>(out, k);
            add_pdl<4, kNoAlloc>(out, k);
        }
        return out;
    }
    out.push_back({"memcpy",
                   [](void* d, const void* s, size_t bytes, cudaStream_t st) {
                       CUDA_CHECK(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, st));
                       return true;
                   },
                   true});
    out.push_back({"bench-copy",
                   [](void* d, const void* s, size_t bytes, cudaStream_t st) {
                       bench::copy_kernel(d, s, bytes, st);
                       return true;
                   },
                   true});
    add_grid_stride_family<kPlain>(out);
    add_grid_stride_family<kStream>(out);
    add_grid_stride_family<kNoAlloc>(out);
    add_grid_stride_family<kEvictL2>(out);
    add_grid_stride_family<kPrefetch>(out);
    // The norm's shape at N = 1024 (block64x2), 128 threads a row, a warp a row; with the norm's barrier.
    add_row<64, 2, 64, false, kPlain>(out, false);
    add_row<64, 2, 64, true, kPlain>(out, false);
    add_row<64, 2, 64, false, kStream>(out, false);
    add_row<64, 2, 64, true, kStream>(out, true);
    add_row<64, 2, 64, true, kNoAlloc>(out, false);
    add_row<128, 1, 128, false, kStream>(out, false);
    add_row<128, 1, 128, true, kStream>(out, false);
    add_row<32, 4, 128, false, kStream>(out, false);
    add_row<32, 4, 128, false, kNoAlloc>(out, false);
    add_row<128, 1, 128, true, kNoAlloc>(out, false);
    for (int k : {4, 8}) {
        add_persistent<32, 4, 1, kStream>(out, k);
        add_persistent<32, 4, 2, kStream>(out, k);
        add_persistent<64, 2, 1, kStream>(out, k);
        add_persistent<64, 2, 2, kStream>(out, k);
        add_persistent<64, 2, 2, kNoAlloc>(out, k);
    }
    add_bulk<2048, 2>(out, 0, false);
    add_bulk<4096, 4>(out, 8, false);
    add_bulk<8192, 2>(out, 8, false);
    add_bulk<8192, 4>(out, 4, true);
    add_bulk<16384, 2>(out, 4, false);
    add_bulk<16384, 4>(out, 2, false);
    add_bulk<32768, 2>(out, 2, false);
    return out;
}

// --- check and time ---------------------------------------------------------------------------------------------

__global__ void count_mismatches(const unsigned* a, const unsigned* b, size_t n, unsigned long long* bad) {
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        mine += a[i] != b[i];
    if (mine) atomicAdd(bad, mine);
}

// Words of dst that differ from src after one launch into a poisoned dst; -1 when the design cannot run `bytes`.
long long check_design(const Design& d, void* dst, const void* src, size_t bytes) {
    bench::poison(dst, bytes);
    if (!d.launch(dst, src, bytes, nullptr)) return -1;
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned long long* bad = nullptr;
    CUDA_CHECK(cudaMalloc(&bad, sizeof(*bad)));
    CUDA_CHECK(cudaMemset(bad, 0, sizeof(*bad)));
    count_mismatches<<<kSms * 8, 256>>>(static_cast<const unsigned*>(dst), static_cast<const unsigned*>(src), bytes / 4,
                                        bad);
    unsigned long long host = 0;
    CUDA_CHECK(cudaMemcpy(&host, bad, sizeof(host), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(bad));
    return static_cast<long long>(host);
}

// Buffer pairs of `bytes`, enough of them that one launch never finds its source in L2 (3 x the L2 in all).
struct Pairs {
    std::vector<void*> src, dst;
    Pairs(size_t bytes, int l2) {
        const int sets = int(std::clamp<size_t>((size_t(3) * l2 + 2 * bytes - 1) / (2 * bytes), 1, 64));
        for (int i = 0; i < sets; ++i) {
            void *s = nullptr, *d = nullptr;
            CUDA_CHECK(cudaMalloc(&s, bytes));
            CUDA_CHECK(cudaMalloc(&d, bytes));
            bench::fill_normal(bench::Dtype::fp32, s, bytes / 4, 100 + i, 0.f, 1.f);
            src.push_back(s);
            dst.push_back(d);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    ~Pairs() {
        for (void* p : src) CUDA_CHECK(cudaFree(p));
        for (void* p : dst) CUDA_CHECK(cudaFree(p));
    }
};

double time_design(const Design& d, const Pairs& p, size_t bytes) {
    const int sets = int(p.src.size());
    return bench::median_launch_us(
        [&](int i, cudaStream_t st) { return d.launch(p.dst[i % sets], p.src[i % sets], bytes, st); },
        std::max(sets, 8), 20);
}

struct Result {
    std::string name;
    size_t bytes;
    double us;
};

// --- the norm beside the copies ----------------------------------------------------------------------------------

// Every launch shape of the 16-bit norm (T: bf16 or fp16) at M x N: checked against the fp64 reference, then timed
// as the copies. Rows named norm[-rule]:SHAPE (bf16) and norm16[-rule]:SHAPE (fp16).
template <typename T>
int norm_rows(int M, int N, int l2, std::vector<Result>& results) {
    constexpr bool kBf16 = std::is_same<T, __nv_bfloat16>::value;
    const bench::Dtype dtype = kBf16 ? bench::Dtype::bf16 : bench::Dtype::fp16;
    const std::string prefix = kBf16 ? "norm" : "norm16";
    const size_t one = size_t(M) * N * 2;
    const int sets = int(std::clamp<size_t>((size_t(3) * l2 + 2 * one - 1) / (2 * one), 1, 64));
    char *x = nullptr, *y = nullptr, *w = nullptr;
    CUDA_CHECK(cudaMalloc(&x, one * sets));
    CUDA_CHECK(cudaMalloc(&y, one * sets));
    CUDA_CHECK(cudaMalloc(&w, size_t(N) * 2));
    bench::fill_normal(dtype, x, size_t(M) * N * sets, 11, 0.f, 1.f);
    bench::fill_normal(dtype, w, N, 12, 1.f, 0.1f);
    std::vector<rmsref::LaunchShape> shapes = rmsref::candidate_shapes(N, 2, true, true, false);
    shapes.insert(shapes.begin(), rmsref::choose_shape(N, 2, M, false));
    int failures = 0;
    for (size_t k = 0; k < shapes.size(); ++k) {
        const rmsref::LaunchShape s = shapes[k];
        const std::string name = prefix + (k == 0 ? "-rule:" : ":") + rmsref::shape_name(s);
        auto launch = [&](int set, cudaStream_t st) {
            const size_t off = size_t(set % sets) * one;
            const T* in = reinterpret_cast<const T*>(x + off);
            T* out = reinterpret_cast<T*>(y + off);
            if constexpr (kBf16)
                return ref_rmsnorm_bf16_shape(s, in, N, reinterpret_cast<const T*>(w), out, N, M, N, bench::kEps, st);
            else return ref_rmsnorm_fp16_shape(s, in, N, reinterpret_cast<const T*>(w), out, N, M, N, bench::kEps, st);
        };
        bench::poison(y, one);
        if (!launch(0, nullptr)) continue;
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        const bench::CheckResult c = bench::check_output(bench::Op::rmsnorm, dtype, x, nullptr, nullptr, w, y, M, N);
        if (c.bad) {
            std::printf("%-44s WRONG: %llu elements outside the tolerance (worst %.2f)\n", name.c_str(), c.bad,
                        c.worst);
            ++failures;
            continue;
        }
        results.push_back({name, 2 * one + size_t(N) * 2, bench::median_launch_us(launch, std::max(sets, 8), 20)});
    }
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    CUDA_CHECK(cudaFree(w));
    return failures;
}

// --- fixed cost and rate ----------------------------------------------------------------------------------------

// Least squares t = t0 + bytes_moved / rate over one design's scan (bytes moved = read + written).
void fit(const std::vector<Result>& rs, double* t0_us, double* rate_tbs) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const Result& r : rs) {
        const double x = 2.0 * r.bytes / 1e6;  // MB moved
        n += 1, sx += x, sy += r.us, sxx += x * x, sxy += x * r.us;
    }
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);  // us per MB
    *t0_us = (sy - slope * sx) / n;
    *rate_tbs = 1.0 / slope;  // MB per us = TB/s
}

int profile(const std::string& names, size_t bytes, const std::vector<Design>& all) {
    // 3 launches of each named design, each on its own buffers: what Nsight Compute is asked to look at.
    std::vector<std::string> want;
    for (size_t a = 0, b; a < names.size(); a = b + 1) {
        b = names.find(',', a);
        if (b == std::string::npos) b = names.size();
        want.push_back(names.substr(a, b - a));
    }
    for (const std::string& w : want) {
        if (w.rfind("norm:", 0) == 0) {
            const int M = int(bytes / kRowBytes), N = int(kRowBytes / 2);
            for (const rmsref::LaunchShape& s : rmsref::candidate_shapes(N, 2, true, true, false)) {
                if (rmsref::shape_name(s) != w.substr(5)) continue;
                for (int i = 0; i < 3; ++i) {
                    void *x = nullptr, *y = nullptr, *wt = nullptr;
                    CUDA_CHECK(cudaMalloc(&x, bytes));
                    CUDA_CHECK(cudaMalloc(&y, bytes));
                    CUDA_CHECK(cudaMalloc(&wt, size_t(N) * 2));
                    bench::fill_normal(bench::Dtype::bf16, x, bytes / 2, 20 + i, 0.f, 1.f);
                    bench::fill_normal(bench::Dtype::bf16, wt, N, 30, 1.f, 0.1f);
                    ref_rmsnorm_bf16_shape(s, static_cast<const __nv_bfloat16*>(x), N,
                                           static_cast<const __nv_bfloat16*>(wt), static_cast<__nv_bfloat16*>(y), N, M,
                                           N, bench::kEps, nullptr);
                    CUDA_CHECK(cudaDeviceSynchronize());
                    CUDA_CHECK(cudaFree(x));
                    CUDA_CHECK(cudaFree(y));
                    CUDA_CHECK(cudaFree(wt));
                }
            }
            continue;
        }
        for (const Design& d : all) {
            if (d.name != w) continue;
            for (int i = 0; i < 3; ++i) {
                Pairs p(bytes, 0);
                d.launch(p.dst[0], p.src[0], bytes, nullptr);
                CUDA_CHECK(cudaGetLastError());
                CUDA_CHECK(cudaDeviceSynchronize());
            }
        }
    }
    std::printf("copy_study: profiled %zu names at %zu bytes\n", want.size(), bytes);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string csv = "copy-study.csv", prof;
    bool pdl = false;
    size_t prof_bytes = kStudyBytes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--csv" && i + 1 < argc) csv = argv[++i];
        else if (a == "--pdl") pdl = true;
        else if (a == "--profile" && i + 1 < argc) {
            prof = argv[++i];
            if (i + 1 < argc && argv[i + 1][0] != '-') prof_bytes = std::strtoull(argv[++i], nullptr, 10);
        } else {
            std::fprintf(stderr, "usage: copy_study [--csv FILE] [--pdl] [--profile NAME[,NAME...] [BYTES]]\n");
            return 2;
        }
    }
    const std::vector<Design> all = designs(pdl);
    if (!prof.empty()) {
        std::vector<Design> both = all, extra = designs(true);
        both.insert(both.end(), extra.begin(), extra.end());
        return profile(prof, prof_bytes, both);
    }
    const int l2 = bench::l2_bytes();
    const bench::CopyFigure roofline = bench::fastest_copy(bench::time_copies(20));
    const double copy2g = roofline.tbs;
    std::printf("copy_study: the benchmark's roofline, %s over 2 GiB, %.3f TB/s; L2 %d MiB\n", roofline.name.c_str(),
                copy2g, l2 >> 20);
    int failures = 0;
    std::vector<Result> results;

    // Correctness first, at sizes that take every remainder path, then timing at the study's size.
    {
        const size_t odd = kStudyBytes + 48, small = 4096 + 16;
        Pairs p(odd, 0);
        for (const Design& d : all) {
            for (size_t b : {kStudyBytes, odd, small}) {
                const long long bad = check_design(d, p.dst[0], p.src[0], b);
                if (bad > 0) {
                    std::printf("%-44s WRONG at %zu bytes: %lld words differ\n", d.name.c_str(), b, bad);
                    ++failures;
                }
            }
        }
    }
    std::printf("copy_study: %zu designs checked at 32 MiB, 32 MiB + 48 and 4112 bytes, %d wrong\n", all.size(),
                failures);
    std::fflush(stdout);
    {
        Pairs p(kStudyBytes, l2);
        for (const Design& d : all) {
            const double us = time_design(d, p, kStudyBytes);
            if (us > 0) results.push_back({d.name, kStudyBytes, us});
        }
    }
    if (!pdl) {
        failures += norm_rows<__nv_bfloat16>(16384, 1024, l2, results);
        failures += norm_rows<__half>(16384, 1024, l2, results);
    }

    // The size scan of the designs marked for it (and 2 GiB, the roofline's size, for every one of them).
    const size_t scan[] = {size_t(8) << 20,   size_t(16) << 20,  size_t(64) << 20,
                           size_t(128) << 20, size_t(256) << 20, size_t(2) << 30};
    std::map<std::string, std::vector<Result>> by_design;
    for (const Result& r : results) by_design[r.name].push_back(r);
    for (size_t b : scan) {
        Pairs p(b, l2);
        for (const Design& d : all) {
            if (!d.scan) continue;
            const double us = time_design(d, p, b);
            if (us > 0) {
                results.push_back({d.name, b, us});
                by_design[d.name].push_back(results.back());
            }
        }
    }

    FILE* f = std::fopen(csv.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "copy_study: cannot write %s\n", csv.c_str());
        return 1;
    }
    std::fprintf(f, "design,bytes_one_way,median_us,tb_per_s,of_copy_2g\n");
    for (const Result& r : results) {
        const double moved = r.name.rfind("norm", 0) == 0 ? double(r.bytes) : 2.0 * r.bytes;
        const double tbs = moved / (r.us * 1e-6) / 1e12;
        std::fprintf(f, "%s,%zu,%.3f,%.4f,%.4f\n", r.name.c_str(), r.bytes, r.us, tbs, tbs / copy2g);
    }
    std::fclose(f);

    // The table at the study's size, fastest first, then the fits.
    std::vector<Result> at;
    for (const Result& r : results)
        if (r.bytes == kStudyBytes || r.name.rfind("norm", 0) == 0) at.push_back(r);
    std::sort(at.begin(), at.end(), [](const Result& a, const Result& b) { return a.us < b.us; });
    std::printf("\n| design (32 MiB -> 32 MiB) | us | TB/s | of the roofline |\n| --- | --- | --- | --- |\n");
    int copies = 0, norms = 0;
    for (size_t i = 0; i < at.size(); ++i) {
        const Result& r = at[i];
        const bool norm = r.name.rfind("norm", 0) == 0;
        // The 20 fastest copies and 6 fastest norm shapes, the rule's, memcpy and the benchmark's copy; the rest is in
        // the CSV.
        const bool named = r.name == "memcpy" || r.name == "bench-copy" || r.name.find("-rule:") != std::string::npos;
        if (!named && (norm ? ++norms > 6 : ++copies > 20)) continue;
        const double tbs = (norm ? double(r.bytes) : 2.0 * r.bytes) / (r.us * 1e-6) / 1e12;
        std::printf("| %s | %.2f | %.3f | %.1f%% |\n", r.name.c_str(), r.us, tbs, 100 * tbs / copy2g);
    }
    std::printf("\n| design | t0 (us) | rate (TB/s) | sizes |\n| --- | --- | --- | --- |\n");
    for (const auto& [name, rs] : by_design) {
        if (rs.size() < 3) continue;
        double t0 = 0, rate = 0;
        fit(rs, &t0, &rate);
        std::printf("| %s | %.2f | %.3f | %zu |\n", name.c_str(), t0, rate, rs.size());
    }
    std::printf("\ncopy_study: %zu rows in %s; %d wrong\n", results.size(), csv.c_str(), failures);
    return failures ? 1 : 0;
}
