#include "hunts.hpp"

#include <cmath>
#include <vector>

#include "buffers.hpp"
#include "reference.hpp"
#include "testkit/device.hpp"
#include "testkit/half_bits.hpp"

namespace wb04 {

using namespace wb::testkit;

namespace {

std::string shape_text(int M, int N) { return "fp32, M=" + std::to_string(M) + " rows, N=" + std::to_string(N); }

std::vector<float> normal_floats(Rng& rng, std::size_t count) {
    std::vector<float> x(count);
    for (auto& v : x) v = static_cast<float>(rng.normal());
    return x;
}

// Compares an M x N fp32 output with ref(r, col) within tol(r, ref), then checks that nothing outside it was written.
template <class Ref, class Tol>
void check_rows(const CaseInfo& info, const DeviceBuffer& out, int M, int N, Ref&& ref_of, Tol&& tol_of) {
    const std::vector<std::uint8_t> bytes = out.download();
    MismatchLog log("output");
    for (int r = 0; r < M; ++r)
        for (int col = 0; col < N; ++col) {
            const double ref = ref_of(r, col);
            const double tol = tol_of(r, ref);
            std::uint32_t bits;
            const double got = load_f32(bytes, out.before() + 4 * (static_cast<std::size_t>(r) * N + col), &bits);
            if (!std::isnan(got) && std::fabs(got - ref) <= tol) {
                log.pass();
                continue;
            }
            log.fail(r, col, format_f32(ref) + " (+-" + format_f32(tol) + ")",
                     format_f32(got) + (bits == kPoison32 ? poisoned_note() : ""));
        }
    expect_clean(log, info);
    expect_untouched(
        info, "output", out, bytes, kPoisonByte, [](std::size_t) { return true; },
        static_cast<std::size_t>(N > 0 ? N : 1) * 4);
}

}  // namespace

void run_absmax_case(const std::string& entry, const AbsmaxLaunch& launch, const AbsmaxCase& c) {
    const int M = c.M, N = c.N;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    const CaseInfo info = case_info(
        shape_text(M, N) + (c.zero_row >= 0 ? ", row " + std::to_string(c.zero_row) + " all zeros" : ""), c.probe);
    Rng rng = test_rng();
    std::vector<float> x = normal_floats(rng, count);
    if (c.zero_row >= 0)
        for (int col = 0; col < N; ++col) x[static_cast<std::size_t>(c.zero_row) * N + col] = 0.0f;
    std::vector<double> inv_amax(M, 0.0);
    for (int r = 0; r < M; ++r) {
        double amax = 0;
        for (int col = 0; col < N; ++col) amax = std::fmax(amax, std::fabs(x[static_cast<std::size_t>(r) * N + col]));
        inv_amax[r] = amax > 0 ? 1.0 / amax : 0.0;
    }
    DeviceBuffer in(read_guard(), count * 4, read_guard()), out(kGuard, count * 4, kGuard);
    upload(in, x.data(), count * 4);
    launch_and_check(entry,
                     [&] { launch(static_cast<const float*>(in.data()), static_cast<float*>(out.data()), M, N); });
    check_rows(
        info, out, M, N, [&](int r, int col) { return x[static_cast<std::size_t>(r) * N + col] * inv_amax[r]; },
        [](int, double ref) { return f32_tolerance(ref); });
    expect_unchanged(info, "input", in, bytes_of(x), 4);
}

void run_center_case(const std::string& entry, const CenterLaunch& launch, const CenterCase& c) {
    const int M = c.M, N = c.N;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    const CaseInfo info = case_info(shape_text(M, N), c.probe);
    Rng rng = test_rng();
    // Rows with a mean of about 3: a kernel that drops lanes or warps from the sum is off by a visible amount.
    std::vector<float> x = normal_floats(rng, count);
    for (auto& v : x) v += 3.0f;
    std::vector<double> mean(M, 0.0), slack(M, 0.0);
    std::vector<double> row(N);
    for (int r = 0; r < M; ++r) {
        double sum = 0;
        for (int col = 0; col < N; ++col) sum += row[col] = x[static_cast<std::size_t>(r) * N + col];
        mean[r] = sum / N;
        // The fp32 mean may be off by the rounding of any summation order (block_sum_tolerance), divided by N.
        slack[r] = block_sum_tolerance(row.data(), N) / N + std::ldexp(std::fabs(mean[r]), -23);
    }
    DeviceBuffer in(read_guard(), count * 4, read_guard()), out(kGuard, count * 4, kGuard);
    upload(in, x.data(), count * 4);
    launch_and_check(entry,
                     [&] { launch(static_cast<const float*>(in.data()), static_cast<float*>(out.data()), M, N); });
    check_rows(
        info, out, M, N, [&](int r, int col) { return x[static_cast<std::size_t>(r) * N + col] - mean[r]; },
        [&](int r, double ref) { return slack[r] + f32_tolerance(ref); });
    expect_unchanged(info, "input", in, bytes_of(x), 4);
}

void run_row_sum_case(const std::string& entry, const RowSumLaunch& launch, const RowSumCase& c) {
    const int M = c.M, N = c.N;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    const CaseInfo info =
        case_info(shape_text(M, N) + ", input starting " + std::to_string(4 * c.in_offset) +
                      " bytes past a 256-byte aligned address (rows start every " + std::to_string(4 * N) + " bytes)",
                  c.probe);
    Rng rng = test_rng();
    const std::vector<float> x = normal_floats(rng, count);
    DeviceBuffer in(read_guard() + 4 * static_cast<std::size_t>(c.in_offset), count * 4, read_guard()),
        sums(kGuard, static_cast<std::size_t>(M) * 4, kGuard);
    upload(in, x.data(), count * 4);
    launch_and_check(entry,
                     [&] { launch(static_cast<const float*>(in.data()), static_cast<float*>(sums.data()), M, N); });
    std::vector<double> ref(M, 0.0), tol(M, 0.0), row(N);
    for (int r = 0; r < M; ++r) {
        for (int col = 0; col < N; ++col) ref[r] += row[col] = x[static_cast<std::size_t>(r) * N + col];
        tol[r] = block_sum_tolerance(row.data(), N);
    }
    // One sum per row: an M x 1 output.
    check_rows(
        info, sums, M, 1, [&](int r, int) { return ref[r]; }, [&](int r, double) { return tol[r]; });
    expect_unchanged(info, "input", in, bytes_of(x), 4);
}

void run_l2_case(const std::string& entry, const L2Launch& launch, const L2Case& c) {
    const int M = c.M, N = c.N;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    const CaseInfo info = case_info(shape_text(M, N) + ", eps=" + format_f32(c.eps) +
                                        (c.zero_row >= 0 ? ", row " + std::to_string(c.zero_row) + " all zeros" : ""),
                                    c.probe);
    Rng rng = test_rng();
    std::vector<float> x(count);
    for (auto& v : x) v = static_cast<float>(c.scale * rng.normal());
    if (c.zero_row >= 0)
        for (int col = 0; col < N; ++col) x[static_cast<std::size_t>(c.zero_row) * N + col] = 0.0f;
    // The factor in fp64 from the fp32 inputs and the fp32 eps the kernel receives. A correct fp32 kernel is within
    // f32_tolerance of it (reference.hpp: a sum of positive squares, rsqrtf, one product), whatever the magnitude.
    std::vector<double> inv_norm(M, 0.0);
    for (int r = 0; r < M; ++r) {
        double ss = 0;
        for (int col = 0; col < N; ++col) {
            const double v = x[static_cast<std::size_t>(r) * N + col];
            ss += v * v;
        }
        inv_norm[r] = 1.0 / std::sqrt(ss + static_cast<double>(c.eps));
    }
    DeviceBuffer in(read_guard(), count * 4, read_guard()), out(kGuard, count * 4, kGuard);
    upload(in, x.data(), count * 4);
    launch_and_check(
        entry, [&] { launch(static_cast<const float*>(in.data()), static_cast<float*>(out.data()), M, N, c.eps); });
    check_rows(
        info, out, M, N, [&](int r, int col) { return x[static_cast<std::size_t>(r) * N + col] * inv_norm[r]; },
        [](int, double ref) { return f32_tolerance(ref); });
    expect_unchanged(info, "input", in, bytes_of(x), 4);
}

}  // namespace wb04
