#include "gemm.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "api_state.hpp"
#include "exec.hpp"

namespace emu::blas {
namespace {

std::size_t element_size(cudaDataType_t t) {
    switch (t) {
        case CUDA_R_64F: return 8;
        case CUDA_R_32F: return 4;
        case CUDA_R_16F:
        case CUDA_R_16BF: return 2;
        default: return 0;
    }
}
const char* type_name(cudaDataType_t t) {
    switch (t) {
        case CUDA_R_64F: return "CUDA_R_64F";
        case CUDA_R_32F: return "CUDA_R_32F";
        case CUDA_R_16F: return "CUDA_R_16F";
        case CUDA_R_16BF: return "CUDA_R_16BF";
        default: return "another cudaDataType_t";
    }
}

std::string hex(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

double load(const Matrix& mat, long long index) {
    switch (mat.type) {
        case CUDA_R_64F: return static_cast<const double*>(mat.data)[index];
        case CUDA_R_32F: return static_cast<const float*>(mat.data)[index];
        case CUDA_R_16F: return __half2float(static_cast<const __half*>(mat.data)[index]);
        case CUDA_R_16BF: return __bfloat162float(static_cast<const __nv_bfloat16*>(mat.data)[index]);
        default: return 0;
    }
}
void store(const Matrix& mat, long long index, double v) {
    void* p = const_cast<void*>(mat.data);
    switch (mat.type) {
        case CUDA_R_64F: static_cast<double*>(p)[index] = v; break;
        case CUDA_R_32F: static_cast<float*>(p)[index] = static_cast<float>(v); break;
        // From the fp32 result, rounded once (the value is already a float when the compute type is fp32).
        case CUDA_R_16F: static_cast<__half*>(p)[index] = __float2half_rn(static_cast<float>(v)); break;
        case CUDA_R_16BF: static_cast<__nv_bfloat16*>(p)[index] = __float2bfloat16_rn(static_cast<float>(v)); break;
        default: break;
    }
}

// The types cuBLAS accepts for fp32 compute (A and B alike; C fp32 or the inputs' type) and for fp64 compute.
bool supported(const Gemm& g) {
    if (g.f64) return g.a.type == CUDA_R_64F && g.b.type == CUDA_R_64F && g.c.type == CUDA_R_64F;
    if (g.a.type != g.b.type || g.c.type != g.d.type) return false;
    switch (g.a.type) {
        case CUDA_R_32F: return g.c.type == CUDA_R_32F;
        case CUDA_R_16F: return g.c.type == CUDA_R_32F || g.c.type == CUDA_R_16F;
        case CUDA_R_16BF: return g.c.type == CUDA_R_32F || g.c.type == CUDA_R_16BF;
        default: return false;
    }
}

// A rows x cols matrix with leading dimension ld, `batch` times `stride` apart, must lie in device memory.
bool inside_allocation(const char* api, const char* name, const Matrix& mat, long long rows, long long cols,
                       long long batch) {
    if (rows == 0 || cols == 0 || batch == 0) return true;
    const std::size_t es = element_size(mat.type);
    const long long extent = (cols - 1) * mat.ld + rows;
    for (long long b = 0; b < batch; ++b) {
        const char* base = static_cast<const char*>(mat.data) + b * mat.stride * static_cast<long long>(es);
        if (mat.data && emu::rt::device_range_ok(base, static_cast<std::size_t>(extent) * es)) continue;
        emu::rt::report(emu::rt::Diagnostic{
            "out-of-bounds",
            std::string(api) + ": matrix " + name + " (" + std::to_string(rows) + " x " + std::to_string(cols) +
                ", leading dimension " + std::to_string(mat.ld) +
                (batch > 1 ? ", batch " + std::to_string(b) : std::string()) + ") at " + hex(base) +
                " is not inside one device allocation (cudaMalloc, cudaMallocManaged, cudaMallocHost)\n"
                "    hint: the pointer, the leading dimension or the batch stride is wrong, or the matrix "
                "is host memory; cuBLAS reads and writes device memory only",
            emu::rt::Severity::error});
        return false;
    }
    return true;
}

}  // namespace

bool device_failed() { return emu::rt::sticky_error() != cudaSuccess; }

cublasStatus_t not_supported(const char* api, const char* detail) {
    static std::set<std::string> told;
    if (told.insert(std::string(api) + (detail ? detail : "")).second)
        std::fprintf(stderr,
                     "emu cuBLAS: %s%s%s is not emulated (the emulator implements cublasSgemm, cublasDgemm, "
                     "cublasSgemmStridedBatched, cublasGemmEx, cublasGemmStridedBatchedEx, cublasGemmBatchedEx and "
                     "cublasLtMatmul); returning CUBLAS_STATUS_NOT_SUPPORTED\n",
                     api, detail ? ": " : "", detail ? detail : "");
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

cublasStatus_t run(const Gemm& g) {
    if (device_failed()) return CUBLAS_STATUS_EXECUTION_FAILED;
    if (g.m < 0 || g.n < 0 || g.k < 0 || g.batch < 0) return CUBLAS_STATUS_INVALID_VALUE;
    const long long a_rows = g.trans_a ? g.k : g.m, a_cols = g.trans_a ? g.m : g.k;
    const long long b_rows = g.trans_b ? g.n : g.k, b_cols = g.trans_b ? g.k : g.n;
    auto at_least = [](long long rows) { return rows > 1 ? rows : 1; };
    if (g.a.ld < at_least(a_rows) || g.b.ld < at_least(b_rows) || g.d.ld < at_least(g.m) ||
        (g.beta != 0 && g.c.ld < at_least(g.m)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!supported(g)) {
        const std::string detail = std::string("A ") + type_name(g.a.type) + ", B " + type_name(g.b.type) + ", C " +
                                   type_name(g.c.type) + " with " + (g.f64 ? "fp64" : "fp32") + " compute";
        return not_supported(g.api, detail.c_str());
    }
    if (g.m == 0 || g.n == 0 || g.batch == 0) return CUBLAS_STATUS_SUCCESS;
    const bool reads_ab = g.k > 0 && g.alpha != 0;
    if ((reads_ab && (!inside_allocation(g.api, "A", g.a, a_rows, a_cols, g.batch) ||
                      !inside_allocation(g.api, "B", g.b, b_rows, b_cols, g.batch))) ||
        (g.beta != 0 && !inside_allocation(g.api, "C", g.c, g.m, g.n, g.batch)) ||
        !inside_allocation(g.api, "D", g.d, g.m, g.n, g.batch))
        return CUBLAS_STATUS_EXECUTION_FAILED;

    for (long long bt = 0; bt < g.batch; ++bt) {
        Matrix a = g.a, b = g.b, c = g.c, d = g.d;
        a.data = static_cast<const char*>(a.data) + bt * a.stride * static_cast<long long>(element_size(a.type));
        b.data = static_cast<const char*>(b.data) + bt * b.stride * static_cast<long long>(element_size(b.type));
        c.data = static_cast<const char*>(c.data) + bt * c.stride * static_cast<long long>(element_size(c.type));
        d.data = static_cast<const char*>(d.data) + bt * d.stride * static_cast<long long>(element_size(d.type));
        for (long long j = 0; j < g.n; ++j) {
            for (long long i = 0; i < g.m; ++i) {
                double r;
                if (g.f64) {
                    double acc = 0;
                    if (reads_ab)
                        for (long long p = 0; p < g.k; ++p)
                            acc = std::fma(load(a, g.trans_a ? p + i * a.ld : i + p * a.ld),
                                           load(b, g.trans_b ? j + p * b.ld : p + j * b.ld), acc);
                    r = g.alpha * acc;
                    if (g.beta != 0) r = std::fma(g.beta, load(c, i + j * c.ld), r);
                } else {
                    float acc = 0;
                    if (reads_ab)
                        for (long long p = 0; p < g.k; ++p)
                            acc = std::fmaf(static_cast<float>(load(a, g.trans_a ? p + i * a.ld : i + p * a.ld)),
                                            static_cast<float>(load(b, g.trans_b ? j + p * b.ld : p + j * b.ld)), acc);
                    float rf = static_cast<float>(g.alpha) * acc;
                    // beta == 0: C is not read (it may hold NaN or be uninitialized), as cuBLAS documents.
                    if (g.beta != 0)
                        rf = std::fmaf(static_cast<float>(g.beta), static_cast<float>(load(c, i + j * c.ld)), rf);
                    if (g.epilogue == Epilogue::bias || g.epilogue == Epilogue::relu_bias) {
                        Matrix bias{g.bias, g.bias_type, 0, 0};
                        rf += static_cast<float>(load(bias, i));
                    }
                    if (g.epilogue == Epilogue::relu || g.epilogue == Epilogue::relu_bias) rf = rf > 0 ? rf : 0.0f;
                    r = rf;
                }
                store(d, i + j * d.ld, r);
            }
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}

}  // namespace emu::blas
