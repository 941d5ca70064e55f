// Hidden tests of the core exercise: fp32 LayerNorm through launch_layernorm.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/f32_cases.hpp"

namespace {
void run(const wb05::F32Case& c) {
    wb05::run_f32_case(
        "launch_layernorm",
        [](const float* in, const float* w, const float* b, float* out, float*, float*, int M, int N, float eps) {
            WB_CALL(launch_layernorm, in, w, b, out, M, N, eps, cudaStream_t{});
        },
        c, false);
}
}  // namespace

WB05_F32_CASES("layernorm", run)
