// cuBLASLt in the emulator: descriptors that record what cublasLtMatmul needs, one "algorithm" offered by the
// heuristic, and cublasLtMatmul on emu::blas::run. Attributes the emulator cannot honour (fp8 scaling, auxiliary
// epilogue outputs, orders other than column-major) are refused with a message, never ignored.
#include <cublasLt.h>

#include <cstring>
#include <set>

#include "api_state.hpp"
#include "gemm.hpp"

struct cublasLtContext {};
struct cublasLtMatmulDescOpaque_t {
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    cudaDataType_t scale = CUDA_R_32F;
    std::int32_t trans_a = CUBLAS_OP_N, trans_b = CUBLAS_OP_N;
    std::uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    const void* bias = nullptr;
    std::int32_t bias_type = -1;  // -1: the type of D, as cuBLASLt defaults it
    std::int64_t bias_batch_stride = 0;
    std::int32_t pointer_mode = 0;
};
struct cublasLtMatrixLayoutOpaque_t {
    cudaDataType_t type = CUDA_R_32F;
    std::uint64_t rows = 0, cols = 0;
    std::int64_t ld = 0;
    std::int32_t batch = 1;
    std::int64_t stride = 0;
    std::int32_t order = CUBLASLT_ORDER_COL;
};
struct cublasLtMatmulPreferenceOpaque_t {
    std::uint64_t max_workspace = 0;
};

namespace {

std::set<cublasLtHandle_t>& handles() {
    static std::set<cublasLtHandle_t> h;
    return h;
}

// Copies an attribute value of exactly sizeof(T) bytes.
template <class T>
cublasStatus_t take(T& field, const void* buf, std::size_t size) {
    if (!buf || size != sizeof(T)) return CUBLAS_STATUS_INVALID_VALUE;
    std::memcpy(&field, buf, sizeof(T));
    return CUBLAS_STATUS_SUCCESS;
}
template <class T>
cublasStatus_t give(const T& field, void* buf, std::size_t size, std::size_t* written) {
    if (written) *written = sizeof(T);
    if (size == 0 && written) return CUBLAS_STATUS_SUCCESS;  // a size query
    if (!buf || size < sizeof(T)) return CUBLAS_STATUS_INVALID_VALUE;
    std::memcpy(buf, &field, sizeof(T));
    return CUBLAS_STATUS_SUCCESS;
}

}  // namespace

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    *handle = new cublasLtContext;
    handles().insert(*handle);
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
    if (!handle || !handles().count(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handles().erase(handle);
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}
std::size_t cublasLtGetVersion() { return CUBLAS_VERSION; }

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
    if (!desc) return CUBLAS_STATUS_INVALID_VALUE;
    *desc = new cublasLtMatmulDescOpaque_t;
    (*desc)->compute = computeType;
    (*desc)->scale = scaleType;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
    delete desc;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr,
                                              const void* buf, std::size_t size) {
    if (!d) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: return take(d->compute, buf, size);
        case CUBLASLT_MATMUL_DESC_SCALE_TYPE: return take(d->scale, buf, size);
        case CUBLASLT_MATMUL_DESC_POINTER_MODE: return take(d->pointer_mode, buf, size);
        case CUBLASLT_MATMUL_DESC_TRANSA: return take(d->trans_a, buf, size);
        case CUBLASLT_MATMUL_DESC_TRANSB: return take(d->trans_b, buf, size);
        case CUBLASLT_MATMUL_DESC_EPILOGUE: return take(d->epilogue, buf, size);
        case CUBLASLT_MATMUL_DESC_BIAS_POINTER: return take(d->bias, buf, size);
        case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: return take(d->bias_type, buf, size);
        case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE: return take(d->bias_batch_stride, buf, size);
        // Hints about how to run it, which change no result.
        case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET:
        case CUBLASLT_MATMUL_DESC_FAST_ACCUM:
        case CUBLASLT_MATMUL_DESC_FILL_MODE: return buf ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
        default:
            return emu::blas::not_supported("cublasLtMatmulDescSetAttribute",
                                            "this attribute (fp8 scaling, auxiliary outputs, TRANSC)");
    }
}
cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, void* buf,
                                              std::size_t size, std::size_t* written) {
    if (!d) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: return give(d->compute, buf, size, written);
        case CUBLASLT_MATMUL_DESC_SCALE_TYPE: return give(d->scale, buf, size, written);
        case CUBLASLT_MATMUL_DESC_TRANSA: return give(d->trans_a, buf, size, written);
        case CUBLASLT_MATMUL_DESC_TRANSB: return give(d->trans_b, buf, size, written);
        case CUBLASLT_MATMUL_DESC_EPILOGUE: return give(d->epilogue, buf, size, written);
        case CUBLASLT_MATMUL_DESC_BIAS_POINTER: return give(d->bias, buf, size, written);
        default: return emu::blas::not_supported("cublasLtMatmulDescGetAttribute", "this attribute");
    }
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType type, std::uint64_t rows,
                                          std::uint64_t cols, std::int64_t ld) {
    if (!layout) return CUBLAS_STATUS_INVALID_VALUE;
    *layout = new cublasLtMatrixLayoutOpaque_t;
    (*layout)->type = type;
    (*layout)->rows = rows;
    (*layout)->cols = cols;
    (*layout)->ld = ld;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
    delete layout;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, std::size_t size) {
    if (!l) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATRIX_LAYOUT_TYPE: return take(l->type, buf, size);
        case CUBLASLT_MATRIX_LAYOUT_ORDER: return take(l->order, buf, size);
        case CUBLASLT_MATRIX_LAYOUT_ROWS: return take(l->rows, buf, size);
        case CUBLASLT_MATRIX_LAYOUT_COLS: return take(l->cols, buf, size);
        case CUBLASLT_MATRIX_LAYOUT_LD: return take(l->ld, buf, size);
        case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return take(l->batch, buf, size);
        case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return take(l->stride, buf, size);
        default: return emu::blas::not_supported("cublasLtMatrixLayoutSetAttribute", "planar layouts");
    }
}
cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t attr,
                                                void* buf, std::size_t size, std::size_t* written) {
    if (!l) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATRIX_LAYOUT_TYPE: return give(l->type, buf, size, written);
        case CUBLASLT_MATRIX_LAYOUT_ORDER: return give(l->order, buf, size, written);
        case CUBLASLT_MATRIX_LAYOUT_ROWS: return give(l->rows, buf, size, written);
        case CUBLASLT_MATRIX_LAYOUT_COLS: return give(l->cols, buf, size, written);
        case CUBLASLT_MATRIX_LAYOUT_LD: return give(l->ld, buf, size, written);
        case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return give(l->batch, buf, size, written);
        case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return give(l->stride, buf, size, written);
        default: return emu::blas::not_supported("cublasLtMatrixLayoutGetAttribute", "planar layouts");
    }
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
    if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
    *pref = new cublasLtMatmulPreferenceOpaque_t;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
    delete pref;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                                                    std::size_t size) {
    if (!pref || !buf) return CUBLAS_STATUS_INVALID_VALUE;
    if (attr == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES) return take(pref->max_workspace, buf, size);
    return CUBLAS_STATUS_SUCCESS;  // search hints: the emulator has one algorithm
}

// One algorithm, needing no workspace, for every problem; cublasLtMatmul says what it cannot do.
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t, int requested,
                                              cublasLtMatmulHeuristicResult_t results[], int* returned) {
    if (!handle || !handles().count(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!desc || !Adesc || !Bdesc || !Cdesc || !Ddesc || requested < 1 || !results || !returned)
        return CUBLAS_STATUS_INVALID_VALUE;
    results[0] = cublasLtMatmulHeuristicResult_t{};
    results[0].workspaceSize = 0;
    results[0].state = CUBLAS_STATUS_SUCCESS;
    results[0].wavesCount = 1.0f;
    *returned = 1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t d, const void* alpha, const void* A,
                              cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc,
                              const void* beta, const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t*, void*, std::size_t,
                              cudaStream_t stream) {
    if (!handle || !handles().count(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!d || !Adesc || !Bdesc || !Cdesc || !Ddesc || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    if (!emu::rt::stream_ok(stream)) return CUBLAS_STATUS_INVALID_VALUE;
    for (const cublasLtMatrixLayoutOpaque_t* l : {Adesc, Bdesc, Cdesc, Ddesc})
        if (l->order != CUBLASLT_ORDER_COL) return emu::blas::not_supported("cublasLtMatmul", "orders other than COL");
    const bool f64 = d->compute == CUBLAS_COMPUTE_64F || d->compute == CUBLAS_COMPUTE_64F_PEDANTIC;
    const bool f32 = d->compute == CUBLAS_COMPUTE_32F || d->compute == CUBLAS_COMPUTE_32F_PEDANTIC ||
                     d->compute == CUBLAS_COMPUTE_32F_FAST_16F || d->compute == CUBLAS_COMPUTE_32F_FAST_16BF ||
                     d->compute == CUBLAS_COMPUTE_32F_FAST_TF32;
    if (!(f32 && d->scale == CUDA_R_32F) && !(f64 && d->scale == CUDA_R_64F))
        return emu::blas::not_supported("cublasLtMatmul", "compute/scale types other than 32F/R_32F and 64F/R_64F");
    emu::blas::Gemm g;
    g.api = "cublasLtMatmul";
    g.trans_a = d->trans_a != CUBLAS_OP_N;
    g.trans_b = d->trans_b != CUBLAS_OP_N;
    g.m = static_cast<long long>(Ddesc->rows);
    g.n = static_cast<long long>(Ddesc->cols);
    g.k = static_cast<long long>(g.trans_a ? Adesc->rows : Adesc->cols);
    // The layouts must describe one problem: op(A) m x k, op(B) k x n, C and D m x n, one batch count.
    const auto a_m = g.trans_a ? Adesc->cols : Adesc->rows;
    const auto b_k = g.trans_b ? Bdesc->cols : Bdesc->rows;
    const auto b_n = g.trans_b ? Bdesc->rows : Bdesc->cols;
    if (static_cast<long long>(a_m) != g.m || static_cast<long long>(b_k) != g.k ||
        static_cast<long long>(b_n) != g.n || Cdesc->rows != Ddesc->rows || Cdesc->cols != Ddesc->cols ||
        Adesc->batch != Ddesc->batch || Bdesc->batch != Ddesc->batch || Cdesc->batch != Ddesc->batch)
        return CUBLAS_STATUS_INVALID_VALUE;
    g.batch = Ddesc->batch;
    g.a = {A, Adesc->type, Adesc->ld, Adesc->stride};
    g.b = {B, Bdesc->type, Bdesc->ld, Bdesc->stride};
    g.c = {C, Cdesc->type, Cdesc->ld, Cdesc->stride};
    g.d = {D, Ddesc->type, Ddesc->ld, Ddesc->stride};
    g.f64 = f64;
    g.alpha = f64 ? *static_cast<const double*>(alpha) : *static_cast<const float*>(alpha);
    g.beta = f64 ? *static_cast<const double*>(beta) : *static_cast<const float*>(beta);
    switch (d->epilogue) {
        case CUBLASLT_EPILOGUE_DEFAULT: g.epilogue = emu::blas::Epilogue::none; break;
        case CUBLASLT_EPILOGUE_RELU: g.epilogue = emu::blas::Epilogue::relu; break;
        case CUBLASLT_EPILOGUE_BIAS: g.epilogue = emu::blas::Epilogue::bias; break;
        case CUBLASLT_EPILOGUE_RELU_BIAS: g.epilogue = emu::blas::Epilogue::relu_bias; break;
        default:
            return emu::blas::not_supported("cublasLtMatmul", "epilogues other than DEFAULT, RELU, BIAS and RELU_BIAS");
    }
    if (g.epilogue == emu::blas::Epilogue::bias || g.epilogue == emu::blas::Epilogue::relu_bias) {
        if (!d->bias) return CUBLAS_STATUS_INVALID_VALUE;
        if (f64) return emu::blas::not_supported("cublasLtMatmul", "bias epilogues with fp64 compute");
        if (g.batch > 1 && d->bias_batch_stride != 0)
            return emu::blas::not_supported("cublasLtMatmul", "a bias batch stride");
        g.bias = d->bias;
        g.bias_type = d->bias_type < 0 ? Ddesc->type : static_cast<cudaDataType_t>(d->bias_type);
    }
    return emu::blas::run(g);
}
