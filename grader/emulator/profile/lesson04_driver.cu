// Runs one lesson-04 RMSNorm entry point on given shapes: for the emulator's profiler (`workbook profile`,
// `make profile-04`) and, built with nvcc, for timing and Nsight Compute on a GPU (benchmarks/profile-variants/).
// Linked with one exercise or variant file: every entry point is declared weak, and the first one defined runs.
//
//   driver once  M N [PM]    one launch on M rows (the profiler predicts for PM rows), then its output is checked
//   driver time  M N [reps]  median time of `reps` launches over rotating buffers (GPU), in microseconds
//   driver sweep reps M N [M N ...]   `time` for several shapes in one process (one fill of the inputs)
//   driver shapes M N [M N ...]       one checked launch per shape (for Nsight Compute's --launch-count)
//   driver copy              the device-to-device copy bandwidth (2 GiB, read + write counted), the model's ceiling
//
// Every run checks its first launch's output against an fp64 reference on three rows (exit 1 if wrong).
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>

#if __has_include(<emu/profile.h>)
#include <emu/profile.h>
#define DRIVER_ON_EMULATOR 1
#endif

#define WEAK __attribute__((weak))
void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) WEAK;
void launch_rmsnorm_fast(const float*, const float*, float*, int, int, float, cudaStream_t) WEAK;
void launch_variant_f32(const float*, const float*, float*, int, int, float, cudaStream_t) WEAK;
void launch_rmsnorm_bf16(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, float,
                         cudaStream_t) WEAK;
void launch_variant_bf16(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, float,
                         cudaStream_t) WEAK;
void launch_rmsnorm_vec(const __nv_bfloat16*, long long, const __nv_bfloat16*, __nv_bfloat16*, long long, int, int,
                        float, cudaStream_t) WEAK;

#define CHECK(call)                                                                                       \
    do {                                                                                                  \
        cudaError_t err_ = (call);                                                                        \
        if (err_ != cudaSuccess) {                                                                        \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            std::exit(1);                                                                                 \
        }                                                                                                 \
    } while (0)

namespace {

constexpr float kEps = 1e-6f;
using F32 = void (*)(const float*, const float*, float*, int, int, float, cudaStream_t);
using B16 = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, float, cudaStream_t);

void vec_as_plain(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y, int M, int N, float eps,
                  cudaStream_t s) {
    launch_rmsnorm_vec(x, N, w, y, N, M, N, eps, s);
}

struct Entry {
    const char* name;
    F32 f32;
    B16 b16;
};

Entry pick() {
    if (launch_variant_f32) return {"launch_variant_f32", launch_variant_f32, nullptr};
    if (launch_variant_bf16) return {"launch_variant_bf16", nullptr, launch_variant_bf16};
    if (launch_rmsnorm_fast) return {"launch_rmsnorm_fast", launch_rmsnorm_fast, nullptr};
    if (launch_rmsnorm) return {"launch_rmsnorm", launch_rmsnorm, nullptr};
    if (launch_rmsnorm_vec) return {"launch_rmsnorm_vec", nullptr, vec_as_plain};
    if (launch_rmsnorm_bf16) return {"launch_rmsnorm_bf16", nullptr, launch_rmsnorm_bf16};
    return {nullptr, nullptr, nullptr};
}

float bf(float x) { return __bfloat162float(__float2bfloat16(x)); }

// Inputs from a counter hash (splitmix64), uniform on [-1.73, 1.73) (variance 1): a 16384 x 8192 fill takes a
// fraction of a second, where std::normal_distribution took seconds of the GPU lease. Values never matter to the
// counts or the times, only that they are not zeros (docs/gpu-runs.md).
float uniform(std::uint64_t i) {
    std::uint64_t z = i + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float(z >> 40) / float(1 << 24) * 2.f - 1.f) * 1.7320508f;
}

struct Problem {
    int M, N, sets;
    std::size_t elem;
    std::vector<float> x, w;  // host values (already rounded to bf16 for bf16 entries)
    std::vector<void*> in, out;
    void* weight = nullptr;
};

Problem make(const Entry& e, int M, int N, int sets) {
    Problem p{M, N, sets, e.f32 ? sizeof(float) : sizeof(__nv_bfloat16), {}, {}, {}, {}, nullptr};
    p.x.resize(std::size_t(M) * N);
    p.w.resize(N);
    for (std::size_t i = 0; i < p.x.size(); ++i) p.x[i] = e.f32 ? uniform(i) : bf(uniform(i));
    for (int c = 0; c < N; ++c)
        p.w[c] = e.f32 ? 1.f + 0.1f * uniform(~std::uint64_t(c)) : bf(1.f + 0.1f * uniform(~std::uint64_t(c)));
    auto upload = [&](const std::vector<float>& h, void* d) {
        if (e.f32) {
            CHECK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
        } else {
            std::vector<__nv_bfloat16> b(h.size());
            for (std::size_t i = 0; i < h.size(); ++i) b[i] = __float2bfloat16(h[i]);
            CHECK(cudaMemcpy(d, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
        }
    };
    CHECK(cudaMalloc(&p.weight, std::size_t(N) * p.elem));
    upload(p.w, p.weight);
    for (int s = 0; s < sets; ++s) {
        void *a = nullptr, *b = nullptr;
        CHECK(cudaMalloc(&a, p.x.size() * p.elem));
        CHECK(cudaMalloc(&b, p.x.size() * p.elem));
        upload(p.x, a);
        p.in.push_back(a);
        p.out.push_back(b);
    }
    return p;
}

void launch(const Entry& e, const Problem& p, int set) {
    if (e.f32)
        e.f32(static_cast<const float*>(p.in[set]), static_cast<const float*>(p.weight),
              static_cast<float*>(p.out[set]), p.M, p.N, kEps, 0);
    else
        e.b16(static_cast<const __nv_bfloat16*>(p.in[set]), static_cast<const __nv_bfloat16*>(p.weight),
              static_cast<__nv_bfloat16*>(p.out[set]), p.M, p.N, kEps, 0);
}

// Largest relative error of the last launch's output (buffer set 0) on three rows against fp64 (bf16 outputs:
// against the reference rounded the Llama way).
double check(const Entry& e, const Problem& p) {
    std::vector<float> y(p.x.size());
    if (e.f32) {
        CHECK(cudaMemcpy(y.data(), p.out[0], y.size() * 4, cudaMemcpyDeviceToHost));
    } else {
        std::vector<__nv_bfloat16> b(y.size());
        CHECK(cudaMemcpy(b.data(), p.out[0], b.size() * 2, cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < b.size(); ++i) y[i] = __bfloat162float(b[i]);
    }
    double worst = 0;
    for (int r : {0, p.M / 2, p.M - 1}) {
        double ss = 0;
        for (int c = 0; c < p.N; ++c) ss += double(p.x[std::size_t(r) * p.N + c]) * p.x[std::size_t(r) * p.N + c];
        const double inv = 1.0 / std::sqrt(ss / p.N + kEps);
        for (int c = 0; c < p.N; ++c) {
            double ref = double(p.x[std::size_t(r) * p.N + c]) * inv;
            ref = e.f32 ? ref * p.w[c] : bf(bf(float(ref)) * p.w[c]);
            const double got = y[std::size_t(r) * p.N + c];
            const double err = std::isfinite(got) ? std::fabs(got - ref) / (std::fabs(ref) + 1e-2) : 1e9;
            worst = std::max(worst, err);
        }
    }
    return worst;
}

// Median of 20 device-to-device copies of 2 GiB, far beyond L2.
int copy_bandwidth() {
    const std::size_t bytes = std::size_t(2) << 30;
    void *a = nullptr, *b = nullptr;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemset(a, 1, bytes));
    std::vector<double> t;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int i = 0; i < 23; ++i) {
        CHECK(cudaEventRecord(e0));
        CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 3) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    std::printf("copy_tbs %.3f\n", 2.0 * bytes / (t[t.size() / 2] * 1e-3) / 1e12);
    return 0;
}

// One shape: a checked first launch (profiled on the emulator, counted by ncu), then, when timing, `reps` timed
// launches. Returns 0, or 1 when the output is wrong. The buffers are freed before returning.
int run_shape(const Entry& e, const std::string& mode, int M, int N, double extra) {
    const bool timing = mode == "time";
    // Timing rotates over enough inputs that they do not stay in a 60 MiB L2.
    const double set_bytes = 2.0 * M * N * (e.f32 ? 4 : 2);
    const int sets = timing ? std::max(1, std::min(16, int(std::ceil(4 * 60.0 * (1 << 20) / set_bytes)))) : 1;
    Problem p = make(e, M, N, sets);
    auto release = [&] {
        for (void* b : p.in) CHECK(cudaFree(b));
        for (void* b : p.out) CHECK(cudaFree(b));
        CHECK(cudaFree(p.weight));
    };
    // The first launch is the one profiled (emulator) or counted (ncu): its output is then checked, unwritten elements
    // included (the output starts as 0xff bytes, a NaN).
#ifdef DRIVER_ON_EMULATOR
    if (mode == "once") {
        const double predict_rows = extra > 0 ? extra : M;
        const std::string label =
            std::to_string(int(predict_rows)) + " x " + std::to_string(N) + (e.f32 ? " fp32" : " bf16");
        // Minimum: the input read once, the output written once, the weight once.
        emu::profile_shape(label.c_str(), predict_rows / M, (2.0 * predict_rows * N + N) * p.elem);
    }
#endif
    CHECK(cudaMemset(p.out[0], 0xff, p.x.size() * p.elem));
    launch(e, p, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const double err = check(e, p);
    const double tol = e.f32 ? 1e-4 : 2e-2;
    std::printf("entry %s, %d x %d, max rel. error %.2e (%s)\n", e.name, M, N, err, err <= tol ? "ok" : "WRONG");
    if (err > tol || !timing) {
        release();
        return err > tol;
    }
    const int reps = extra > 0 ? int(extra) : 50;
    for (int i = 0; i < 5; ++i) launch(e, p, i % sets);
    CHECK(cudaDeviceSynchronize());
    std::vector<cudaEvent_t> ev(2 * reps);
    for (auto& x : ev) CHECK(cudaEventCreate(&x));
    for (int i = 0; i < reps; ++i) {
        CHECK(cudaEventRecord(ev[2 * i]));
        launch(e, p, i % sets);
        CHECK(cudaEventRecord(ev[2 * i + 1]));
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<double> t(reps);
    for (int i = 0; i < reps; ++i) {
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
        t[i] = ms * 1e3;
    }
    for (auto& x : ev) CHECK(cudaEventDestroy(x));
    std::sort(t.begin(), t.end());
    const double us = t[reps / 2];
    const double bytes = (2.0 * M * N + N) * p.elem;
    std::printf("time_us %.2f  tbs %.3f  (median of %d, %d buffer sets; spread %.2f-%.2f us)\n", us, bytes / us / 1e6,
                reps, sets, t[reps / 10], t[reps - 1 - reps / 10]);
    release();
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    const bool several = mode == "sweep" || mode == "shapes";
    if (mode != "copy" && (several ? argc < 4 + (mode == "sweep") : argc < 4)) {
        std::fprintf(stderr,
                     "usage: %s once|time M N [predict_rows|reps], %s sweep reps M N [M N ...], "
                     "%s shapes M N [M N ...], or %s copy\n",
                     argv[0], argv[0], argv[0], argv[0]);
        return 2;
    }
    if (mode == "copy") return copy_bandwidth();
    const Entry e = pick();
    if (!e.name) {
        std::fprintf(stderr, "driver: the file defines none of the lesson's RMSNorm entry points\n");
        return 2;
    }
    if (!several) return run_shape(e, mode, std::atoi(argv[2]), std::atoi(argv[3]), argc > 4 ? std::atof(argv[4]) : 0);
    // sweep: every shape timed with the same repetitions; shapes: one checked launch each. The first wrong output ends
    // the run (exit 1).
    const int first = mode == "sweep" ? 3 : 2;
    const double reps = mode == "sweep" ? std::atof(argv[2]) : 0;
    for (int a = first; a + 1 < argc; a += 2) {
        std::printf("shape %s %s: ", argv[a], argv[a + 1]);
        std::fflush(stdout);
        if (run_shape(e, mode == "sweep" ? "time" : "shapes", std::atoi(argv[a]), std::atoi(argv[a + 1]), reps))
            return 1;
    }
    return 0;
}
