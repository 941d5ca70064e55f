// Hidden tests of the core exercise: fp32 RMSNorm through launch_rmsnorm.
#include "entry_points.hpp"
#include "remote/call.hpp"
#include "common/f32_cases.hpp"

namespace {
void run(const wb04::F32Case& c) {
    wb04::run_f32_case(
        "launch_rmsnorm",
        [](const float* in, const float* w, float* out, int M, int N, float eps) {
            WB_CALL(launch_rmsnorm, in, w, out, M, N, eps, cudaStream_t{});
        },
        c);
}
}  // namespace

WB04_F32_CASES("rmsnorm", run)
