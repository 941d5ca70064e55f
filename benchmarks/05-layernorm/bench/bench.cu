// `make bench-05`: effective bandwidth of every lesson 05 kernel that is linked in (the student's, the solutions',
// the reference kernels of ../kernels) next to a device-to-device copy measured in the same run. Every kernel is
// checked against an fp64 reference first, on fresh random inputs with a poisoned output; a kernel that fails is not
// timed and is reported as wrong. Built and run by ../bench.sh. Sizes, roofline, timing, CSV, tables and plot are
// every lesson's (../../common/), so that the lessons' results read the same way.
//
//   bench --csv out.csv --svg out.svg [--peers peers.csv] [--tune] [--quick] [--replays N]
//         [--exclude NAME]... [--not-built NAME]... [--crash-file F] [--date YYYY-MM-DD]
//
// Exit status: 0 when every timed kernel passed its check (wrong student kernels are reported, not an error), 1 on a
// broken run or a wrong reference/solution kernel, 3 when a student kernel broke the CUDA context (its name is in
// --crash-file; bench.sh runs the benchmark again without it).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../../common/cuda_check.h"
#include "../../common/report.h"
#include "../../common/run.h"
#include "../../common/sweep.h"
#include "../../common/timing.h"
#include "check.h"
#include "suite.h"

namespace bench {
namespace {

constexpr const char* kMe = "bench-05";  // the benchmark's name in what it prints

struct Buffers {
    size_t elems = 0, elem_bytes = 0;
    int sets = 1;
    char *x = nullptr, *y = nullptr, *residual = nullptr, *residual_before = nullptr, *w = nullptr, *b = nullptr;
    float *mean = nullptr, *rstd = nullptr;
    Args args(int set, int M, int N) const {
        const size_t off = size_t(set) * elems * elem_bytes;
        return {x + off, residual ? residual + off : nullptr, w, b, y + off, mean, rstd, M, N};
    }
};

Buffers allocate(Op op, Dtype dtype, Shape s, uint64_t seed, int l2) {
    Buffers b;
    b.elems = size_t(s.M) * s.N;
    b.elem_bytes = dtype_bytes(dtype);
    const size_t one = b.elems * b.elem_bytes;
    const size_t set_bytes = one * (op == Op::fused_add ? 3 : 2);
    // Enough sets that a launch never finds its inputs in L2: 3 x the L2 in all.
    b.sets = int(std::clamp<size_t>((size_t(3) * l2 + set_bytes - 1) / set_bytes, 1, 512));
    CUDA_CHECK(cudaMalloc(&b.x, one * b.sets));
    CUDA_CHECK(cudaMalloc(&b.y, one * b.sets));
    CUDA_CHECK(cudaMalloc(&b.w, s.N * b.elem_bytes));
    CUDA_CHECK(cudaMalloc(&b.b, s.N * b.elem_bytes));
    CUDA_CHECK(cudaMalloc(&b.mean, s.M * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b.rstd, s.M * sizeof(float)));
    // A mean far from zero against unit spread: what separates the two-pass statistics from E[x^2] - E[x]^2.
    fill_normal(dtype, b.x, b.elems * b.sets, seed, 0.5f, 1.f);
    fill_normal(dtype, b.w, s.N, seed + 1, 1.f, 0.1f);
    fill_normal(dtype, b.b, s.N, seed + 3, 0.f, 0.1f);
    if (op == Op::fused_add) {
        CUDA_CHECK(cudaMalloc(&b.residual, one * b.sets));
        CUDA_CHECK(cudaMalloc(&b.residual_before, one));
        fill_normal(dtype, b.residual, b.elems * b.sets, seed + 2, 0.f, 1.f);
        CUDA_CHECK(cudaMemcpy(b.residual_before, b.residual, one, cudaMemcpyDeviceToDevice));
    }
    return b;
}

void release(Buffers& b) {
    for (void* p : {(void*)b.x, (void*)b.y, (void*)b.residual, (void*)b.residual_before, (void*)b.w, (void*)b.b,
                    (void*)b.mean, (void*)b.rstd})
        if (p) CUDA_CHECK(cudaFree(p));
    b = Buffers{};
}

// Bytes read once + written once: x and y (fused add: also the residual read and written), weight and bias, and
// for kernels that write them, the statistics.
double bytes_moved(const Kernel& k, Shape s) {
    const double one = double(s.M) * s.N * dtype_bytes(k.dtype), params = 2.0 * s.N * dtype_bytes(k.dtype);
    if (k.source == "copy") return 2 * one;
    return (k.op == Op::fused_add ? 4 * one : 2 * one) + params + (k.writes_stats ? 8.0 * s.M : 0.0);
}

// Check, then time, one kernel at one shape.
Row measure(const Kernel& k, Shape s, const Buffers& b, const RunOptions& opt) {
    Row row;
    row.op = op_name(k.op);
    row.dtype = dtype_name(k.dtype);
    row.kernel = k.name;
    row.source = k.source;
    row.shape = k.shape;
    row.M = s.M;
    row.N = s.N;
    row.bytes = bytes_moved(k, s);
    poison(b.y, b.elems * b.elem_bytes);
    poison(b.mean, s.M * sizeof(float));
    poison(b.rstd, s.M * sizeof(float));
    if (b.residual)
        CUDA_CHECK(cudaMemcpy(b.residual, b.residual_before, b.elems * b.elem_bytes, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (!k.launch(b.args(0, s.M, s.N), nullptr)) {
        row.status = "cannot-run";
        return row;
    }
    after_launch(row, opt, kMe);
    if (k.source != "copy") {
        const CheckResult c =
            check_output(k.op, k.dtype, b.x, b.residual_before, b.residual, b.w, b.b, b.y,
                         k.writes_stats ? b.mean : nullptr, k.writes_stats ? b.rstd : nullptr, s.M, s.N);
        row.err = c.worst;
        if (c.bad) {
            row.status = "wrong";
            return row;
        }
    }
    time_row(
        row, b.sets, [&](int set, cudaStream_t st) { return k.launch(b.args(set, s.M, s.N), st); }, opt, kMe);
    return row;
}

// The reference kernels on what the sweep never produces: odd sizes, rows that start off a 16-byte boundary, a
// weight, bias and output misaligned differently from the input, rows too long for registers; every launch shape.
// Returns the number of failures.
int check_reference_edges() {
    int cases = 0, failures = 0;
    for (Dtype dtype : {Dtype::fp32, Dtype::bf16, Dtype::fp16}) {
        for (Op op : {Op::layernorm, Op::fused_add}) {
            if (op == Op::fused_add && dtype != Dtype::bf16) continue;
            for (int N : {1, 3, 7, 8, 9, 100, 2177, 5121, 40000}) {
                for (int offset : {0, 1, 3}) {
                    const int M = 37;
                    const size_t eb = dtype_bytes(dtype), n = size_t(M) * N;
                    char *x, *y, *w, *bias, *r = nullptr, *rb = nullptr;
                    // Offsets in elements: input `offset`, output 2 * offset + 1, weight offset + 2, bias offset + 5.
                    CUDA_CHECK(cudaMalloc(&x, (n + 16) * eb));
                    CUDA_CHECK(cudaMalloc(&y, (n + 16) * eb));
                    CUDA_CHECK(cudaMalloc(&w, (N + 16) * eb));
                    CUDA_CHECK(cudaMalloc(&bias, (N + 16) * eb));
                    char* xo = x + offset * eb;
                    char* yo = y + (2 * offset + 1) * eb;
                    char* wo = w + (offset + 2) * eb;
                    char* bo = bias + (offset + 5) * eb;
                    fill_normal(dtype, xo, n, 100 + N + offset, 0.5f, 1.f);
                    fill_normal(dtype, wo, N, 200 + N, 1.f, 0.1f);
                    fill_normal(dtype, bo, N, 400 + N, 0.f, 0.1f);
                    if (op == Op::fused_add) {
                        CUDA_CHECK(cudaMalloc(&r, (n + 16) * eb));
                        CUDA_CHECK(cudaMalloc(&rb, n * eb));
                        fill_normal(dtype, rb, n, 300 + N, 0.f, 1.f);
                    }
                    for (const Kernel& k : kernels_for(op, dtype, M, N, /*tune=*/true)) {
                        if (k.source != "reference" && k.source != "tune") continue;
                        poison(y, (n + 16) * eb);
                        if (r) CUDA_CHECK(cudaMemcpy(r, rb, n * eb, cudaMemcpyDeviceToDevice));
                        if (!k.launch({xo, r, wo, bo, yo, nullptr, nullptr, M, N}, nullptr)) continue;
                        CUDA_CHECK(cudaGetLastError());
                        CUDA_CHECK(cudaDeviceSynchronize());
                        const CheckResult c = check_output(op, dtype, xo, rb, r, wo, bo, yo, nullptr, nullptr, M, N);
                        ++cases;
                        if (c.bad) {
                            ++failures;
                            std::printf("EDGE CASE FAILED: %s %s %s N=%d offset=%d: %llu bad, worst %.3g\n",
                                        k.name.c_str(), op_name(op), dtype_name(dtype), N, offset, c.bad, c.worst);
                        }
                    }
                    for (char* p : {x, y, w, bias, r, rb})
                        if (p) CUDA_CHECK(cudaFree(p));
                }
            }
        }
    }
    std::printf("reference kernels on odd sizes and misaligned rows: %d of %d launches match the fp64 reference\n",
                cases - failures, cases);
    return failures;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
    using namespace bench;
    const RunOptions opt = parse_run_options(argc, argv, kMe);
    int l2 = 0;
    const RunInfo info = start_run(opt, kMe, &l2);

    int failures = check_reference_edges();
    std::vector<Row> rows;
    add_not_built_rows(rows, opt, op_name(Op::layernorm));
    const struct {
        Op op;
        Dtype dtype;
    } groups[] = {{Op::layernorm, Dtype::fp32},
                  {Op::layernorm, Dtype::bf16},
                  {Op::layernorm, Dtype::fp16},
                  {Op::fused_add, Dtype::bf16}};
    uint64_t seed = 2027;
    for (const auto& g : groups) {
        for (Shape s : shapes(opt.quick)) {
            Buffers b = allocate(g.op, g.dtype, s, seed += 10, l2);
            for (const Kernel& k : kernels_for(g.op, g.dtype, s.M, s.N, opt.tune)) {
                if (add_if_excluded(rows, opt, op_name(k.op), dtype_name(k.dtype), k.name, k.source, s.M, s.N))
                    continue;
                rows.push_back(measure(k, s, b, opt));
                if (rows.back().status == "wrong" && k.source != "student") ++failures;
            }
            release(b);
        }
        // Written after every group, so that a run stopped at its time limit keeps what it measured.
        derive_ratios(rows, info.copy_tbs);
        write_csv(opt.csv, info, rows);
        std::printf("measured %s %s\n", op_name(g.op), dtype_name(g.dtype));
        std::fflush(stdout);
    }
    return finish_run(opt, info, rows, failures, kMe);
}
