// `make bench-04`: effective bandwidth of every lesson 04 kernel that is linked in (the student's, the solutions',
// the reference kernels of ../kernels) next to a device-to-device copy measured in the same run. Every kernel is
// checked against an fp64 reference first, on fresh random inputs with a poisoned output; a kernel that fails is not
// timed and is reported as wrong. Built and run by ../bench.sh, which says how. Sizes, roofline, timing, CSV, tables
// and plot are every lesson's (../../common/), so that the lessons' results read the same way.
//
//   bench --csv out.csv --svg out.svg [--peers peers.csv] [--tune] [--quick] [--replays N]
//         [--exclude NAME]... [--not-built NAME]... [--crash-file F] [--date YYYY-MM-DD] [--only OP:DTYPE]...
//         [--large-only]
//         (--only: measure only these groups, e.g. --only rmsnorm:bf16, so that a tuning call on the GPU spends its
//         time where the question is; the edge checks run in full regardless; --large-only: the five large shapes,
//         not the 512 x N sweep)
//   bench --merge run.csv [--merge peers.csv]... --csv out.csv --svg out.svg [--rule-from-tune]
//         (no GPU needed: reports earlier runs; with --rule-from-tune, each reference row is replaced by the row of
//         the same run's tuning sweep whose launch shape the current rule (kernels/launch_shape.h) picks, so that a
//         rule chosen from a sweep is reported with the figures that sweep measured for it; with
//         --copy-from-shapes, the roofline is the fastest per-shape copy of the run instead of its large copy)
//
// Exit status: 0 when every timed kernel passed its check (wrong student kernels are reported, not an error), 1 on a
// broken run or a wrong reference/solution kernel, 3 when a student kernel broke the CUDA context (its name is in
// --crash-file; bench.sh runs the benchmark again without it).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../../common/cuda_check.h"
#include "../../common/report.h"
#include "../../common/run.h"
#include "../../common/sweep.h"
#include "../../common/timing.h"
#include "../kernels/reference.h"
#include "check.h"
#include "suite.h"

namespace bench {
namespace {

constexpr const char* kMe = "bench-04";  // the benchmark's name in what it prints

// The common options (../../common/run.h) and lesson 04's own, which report earlier runs instead of measuring.
struct Merge {
    std::vector<std::string> files;  // CSV files of earlier runs: report them, measure nothing
    bool rule_from_tune = false;     // the reference rows become the tuning rows of the current rule
    bool copy_from_shapes = false;   // the roofline is the fastest per-shape copy of the run
    std::vector<std::string> only;   // "op:dtype" groups to measure (all when empty)
    bool large_only = false;         // the large shapes only, not the 512 x N sweep
};

struct Buffers {
    size_t elems = 0, elem_bytes = 0;
    int sets = 1;
    char *x = nullptr, *y = nullptr, *residual = nullptr, *residual_before = nullptr, *w = nullptr;
    Args args(int set, int M, int N) const {
        const size_t off = size_t(set) * elems * elem_bytes;
        return {x + off, residual ? residual + off : nullptr, w, y + off, M, N};
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
    fill_normal(dtype, b.x, b.elems * b.sets, seed, 0.f, 1.f);
    fill_normal(dtype, b.w, s.N, seed + 1, 1.f, 0.1f);
    if (op == Op::fused_add) {
        CUDA_CHECK(cudaMalloc(&b.residual, one * b.sets));
        CUDA_CHECK(cudaMalloc(&b.residual_before, one));
        fill_normal(dtype, b.residual, b.elems * b.sets, seed + 2, 0.f, 1.f);
        CUDA_CHECK(cudaMemcpy(b.residual_before, b.residual, one, cudaMemcpyDeviceToDevice));
    }
    return b;
}

void release(Buffers& b) {
    for (char* p : {b.x, b.y, b.residual, b.residual_before, b.w})
        if (p) CUDA_CHECK(cudaFree(p));
    b = Buffers{};
}

double bytes_moved(const Kernel& k, Shape s) {
    const double one = double(s.M) * s.N * dtype_bytes(k.dtype), w = double(s.N) * dtype_bytes(k.dtype);
    if (k.source == "copy") return 2 * one;
    if (k.source == "copy design") return (k.op == Op::fused_add ? 4 : 2) * one;  // x (and the residual), once each way
    return k.op == Op::fused_add ? 4 * one + w : 2 * one + w;
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
    if (b.residual)
        CUDA_CHECK(cudaMemcpy(b.residual, b.residual_before, b.elems * b.elem_bytes, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (!k.launch(b.args(0, s.M, s.N), nullptr)) {
        row.status = "cannot-run";
        return row;
    }
    after_launch(row, opt, kMe);
    if (k.source == "copy design") {
        // A copy that skipped words would be a fast, wrong bound: y must equal x (the residual, rewritten in place,
        // is the emulator test's to check: benchmarks/common/tests/roofline_copies_emu.cu).
        if (count_differences(b.y, b.x, b.elems * b.elem_bytes)) {
            row.status = "wrong";
            return row;
        }
    } else if (k.source != "copy") {
        const CheckResult c = check_output(k.op, k.dtype, b.x, b.residual_before, b.residual, b.w, b.y, s.M, s.N);
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
// weight and an output misaligned differently from the input, rows too long for registers. Every launch shape they
// have is checked at each size. Returns the number of failures.
int check_reference_edges() {
    int cases = 0, failures = 0;
    for (Dtype dtype : {Dtype::fp32, Dtype::bf16, Dtype::fp16}) {
        for (Op op : {Op::rmsnorm, Op::fused_add}) {
            if (op == Op::fused_add && dtype == Dtype::fp16) continue;
            for (int N : {1, 3, 7, 8, 9, 100, 2177, 5121, 40000}) {
                for (int offset : {0, 1, 3}) {
                    const int M = 37;
                    const size_t eb = dtype_bytes(dtype), n = size_t(M) * N;
                    char *x, *y, *w, *r = nullptr, *rb = nullptr;
                    // Offsets in elements: input by `offset`, output by 2 * offset + 1, weight by offset + 2.
                    CUDA_CHECK(cudaMalloc(&x, (n + 16) * eb));
                    CUDA_CHECK(cudaMalloc(&y, (n + 16) * eb));
                    CUDA_CHECK(cudaMalloc(&w, (N + 16) * eb));
                    char* xo = x + offset * eb;
                    char* yo = y + (2 * offset + 1) * eb;
                    char* wo = w + (offset + 2) * eb;
                    fill_normal(dtype, xo, n, 100 + N + offset, 0.f, 1.f);
                    fill_normal(dtype, wo, N, 200 + N, 1.f, 0.1f);
                    if (op == Op::fused_add) {
                        CUDA_CHECK(cudaMalloc(&r, (n + 16) * eb));
                        CUDA_CHECK(cudaMalloc(&rb, n * eb));
                        fill_normal(dtype, rb, n, 300 + N, 0.f, 1.f);
                    }
                    std::vector<Kernel> ks = kernels_for(op, dtype, M, N, /*tune=*/true);
                    for (const Kernel& k : ks) {
                        if (k.source != "reference" && k.source != "tune") continue;
                        poison(y, (n + 16) * eb);
                        if (r) CUDA_CHECK(cudaMemcpy(r, rb, n * eb, cudaMemcpyDeviceToDevice));
                        if (!k.launch({xo, r, wo, yo, M, N}, nullptr)) continue;
                        CUDA_CHECK(cudaGetLastError());
                        CUDA_CHECK(cudaDeviceSynchronize());
                        const CheckResult c = check_output(op, dtype, xo, rb, r, wo, yo, M, N);
                        ++cases;
                        if (c.bad) {
                            ++failures;
                            std::printf("EDGE CASE FAILED: %s %s %s N=%d offset=%d: %llu bad, worst %.3g\n",
                                        k.name.c_str(), op_name(op), dtype_name(dtype), N, offset, c.bad, c.worst);
                        }
                    }
                    for (char* p : {x, y, w, r, rb})
                        if (p) CUDA_CHECK(cudaFree(p));
                }
            }
        }
    }
    std::printf("reference kernels on odd sizes and misaligned rows: %d of %d launches match the fp64 reference\n",
                cases - failures, cases);
    return failures;
}

void apply_rule_to_reference_rows(std::vector<Row>& rows) {
    int replaced = 0, missing = 0;
    for (Row& ref : rows) {
        if (ref.source != "reference") continue;
        const int eb = ref.dtype == "fp32" ? 4 : 2;
        const std::string want =
            rmsref::shape_name(rmsref::choose_shape(ref.N, eb, ref.M, ref.op == op_name(Op::fused_add)));
        const Row* hit = nullptr;
        for (const Row& t : rows)
            if (t.source == "tune" && t.op == ref.op && t.dtype == ref.dtype && t.M == ref.M && t.N == ref.N &&
                t.shape == want)
                hit = &t;
        if (!hit) {
            ++missing;
            continue;
        }
        const std::string kernel = ref.kernel, source = ref.source;
        ref = *hit;
        ref.kernel = kernel;
        ref.source = source;
        ++replaced;
    }
    std::printf("bench-04: %d reference rows taken from the tuning sweep for the current rule, %d without a match\n",
                replaced, missing);
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
    using namespace bench;
    Merge merge;
    const RunOptions opt =
        parse_run_options(argc, argv, kMe, [&](const std::string& a, const std::function<std::string()>& value) {
            if (a == "--merge") merge.files.push_back(value());
            else if (a == "--rule-from-tune") merge.rule_from_tune = true;
            else if (a == "--copy-from-shapes") merge.copy_from_shapes = true;
            else if (a == "--only") merge.only.push_back(value());
            else if (a == "--large-only") merge.large_only = true;
            else return false;
            return true;
        });
    if (!merge.files.empty()) {
        RunInfo info;
        std::vector<Row> rows;
        for (const std::string& f : merge.files) {
            RunInfo from;
            if (!read_csv(f, rows, &from)) {
                std::fprintf(stderr, "bench-04: cannot read %s\n", f.c_str());
                return 2;
            }
            if (from.copy_tbs > 0) info = from;
        }
        if (merge.rule_from_tune) apply_rule_to_reference_rows(rows);
        if (merge.copy_from_shapes) {
            // For runs whose large copy is not to be trusted (run 1's went through the copy engine).
            info.copy_tbs = 0;
            info.copy_name = "fastest per-shape copy";
            info.copies.clear();
            for (const Row& r : rows)
                if (r.source == "copy" && r.status == "ok") info.copy_tbs = std::max(info.copy_tbs, r.tbs);
            std::printf("bench-04: roofline = fastest per-shape copy of the run, %.2f TB/s\n", info.copy_tbs);
        }
        derive_ratios(rows, info.copy_tbs);
        write_csv(opt.csv, info, rows);
        write_svg(opt.svg, info, rows, kSweepM);
        print_tables(info, rows);
        return 0;
    }
    int l2 = 0;
    const RunInfo info = start_run(opt, kMe, &l2);

    int failures = check_reference_edges();
    std::vector<Row> rows;
    add_not_built_rows(rows, opt, op_name(Op::rmsnorm));
    const struct {
        Op op;
        Dtype dtype;
    } groups[] = {{Op::rmsnorm, Dtype::fp32},
                  {Op::rmsnorm, Dtype::bf16},
                  {Op::rmsnorm, Dtype::fp16},
                  {Op::fused_add, Dtype::bf16},
                  {Op::fused_add, Dtype::fp32}};
    uint64_t seed = 2026;
    for (const auto& g : groups) {
        const std::string group = std::string(op_name(g.op)) + ":" + dtype_name(g.dtype);
        if (!merge.only.empty() && std::find(merge.only.begin(), merge.only.end(), group) == merge.only.end()) continue;
        for (Shape s : shapes(opt.quick)) {
            if (merge.large_only && s.M == kSweepM) continue;
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
