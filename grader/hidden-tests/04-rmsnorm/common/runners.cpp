#include "runners.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "buffers.hpp"
#include "reference.hpp"
#include "remote/client.hpp"

namespace wb04 {

namespace {

std::string eps_text(float eps) {
    std::ostringstream s;
    s << eps;
    return s.str();
}

std::uint16_t load_u16(const std::vector<std::uint8_t>& bytes, std::size_t offset) {
    std::uint16_t v;
    std::memcpy(&v, &bytes[offset], 2);
    return v;
}

std::string expected_half(Half t, const HalfAccept& a) {
    std::string s = format_half(a.values[0], to_bits(t, a.values[0]));
    for (int i = 1; i < a.count; ++i) s += " or " + format_half(a.values[i], to_bits(t, a.values[i]));
    return s;
}

// Compares one row of a bf16/fp16 output with the contract; x holds the (representable) values normalised.
void check_half_row(Half t, MismatchLog& log, int row, const double* x, const std::vector<double>& w, int N, float eps,
                    const std::vector<std::uint8_t>& bytes, std::size_t row_offset) {
    if (!all_finite(x, N)) return;
    const double inv = inv_rms(x, N, eps);
    for (int c = 0; c < N; ++c) {
        const HalfAccept a = half_output(t, x[c], inv, w[c]);
        const std::uint16_t bits = load_u16(bytes, row_offset + 2 * static_cast<std::size_t>(c));
        const double got = from_bits(t, bits);
        if (a.contains(got)) {
            log.pass();
            continue;
        }
        log.fail(row, c, [&] {
            return std::pair(expected_half(t, a), format_half(got, bits) + (bits == kPoison16 ? poisoned_note() : ""));
        });
    }
}

}  // namespace

// ---- fp32 ---------------------------------------------------------------------------------------------------------

void run_f32_case(const std::string& entry, const F32Launch& launch, const F32Case& c) {
    const int M = c.M, N = c.N;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    CaseInfo info = case_info(
        "fp32, M=" + std::to_string(M) + " rows, N=" + std::to_string(N) + ", eps=" + eps_text(c.eps), c.probe);
    Rng rng = test_rng();
    std::vector<double> x, w;
    c.fill(rng, M, N, x, w);
    std::vector<float> xf(count), wf(N);
    for (std::size_t i = 0; i < count; ++i) x[i] = xf[i] = static_cast<float>(x[i]);
    for (int i = 0; i < N; ++i) w[i] = wf[i] = static_cast<float>(w[i]);

    DeviceBuffer in(read_guard(), count * 4, read_guard()),
        weight(read_guard(), static_cast<std::size_t>(N) * 4, read_guard()), out(kGuard, count * 4, kGuard);
    upload(in, xf.data(), count * 4);
    upload(weight, wf.data(), static_cast<std::size_t>(N) * 4);
    launch_and_check(entry, [&] {
        launch(static_cast<const float*>(in.data()), static_cast<const float*>(weight.data()),
               static_cast<float*>(out.data()), M, N, c.eps);
    });

    const std::vector<std::uint8_t> bytes = out.download();
    MismatchLog log("output");
    for (int r = 0; r < M; ++r) {
        const double* row = &x[static_cast<std::size_t>(r) * N];
        if (!all_finite(row, N)) continue;
        const double inv = inv_rms(row, N, c.eps);
        for (int col = 0; col < N; ++col) {
            const double ref = row[col] * inv * w[col];
            std::uint32_t bits;
            const double got = load_f32(bytes, out.before() + 4 * (static_cast<std::size_t>(r) * N + col), &bits);
            const double tol = f32_tolerance(ref);
            if (!std::isnan(got) && std::fabs(got - ref) <= tol) {
                log.pass();
                continue;
            }
            log.fail(r, col, [&] {
                return std::pair(format_f32(ref) + " (+-" + format_f32(tol) + ")",
                                 format_f32(got) + (bits == kPoison32 ? poisoned_note() : ""));
            });
        }
    }
    expect_clean(log, info);
    expect_untouched(
        info, "output", out, bytes, kPoisonByte, [](std::size_t) { return true; }, static_cast<std::size_t>(N) * 4);
    expect_unchanged(info, "input", in, bytes_of(xf), 4);
    expect_unchanged(info, "weight", weight, bytes_of(wf), 4);
}

// ---- bf16 / fp16 --------------------------------------------------------------------------------------------------

void run_half_case(const std::string& entry, const HalfLaunch& launch, const HalfCase& c) {
    const int M = c.M, N = c.N;
    const Half t = c.type;
    const long long in_stride = c.in_stride ? c.in_stride : N;
    const long long out_stride = c.in_place ? in_stride : (c.out_stride ? c.out_stride : N);
    // Elements from the first of row 0 to the last of row M-1 (none without rows).
    const std::size_t in_extent = M == 0 ? 0 : static_cast<std::size_t>((M - 1) * in_stride + N);
    const std::size_t out_extent = M == 0 ? 0 : static_cast<std::size_t>((M - 1) * out_stride + N);

    std::ostringstream shape;
    shape << type_name(t) << ", M=" << M << " rows, N=" << N << ", eps=" << eps_text(c.eps);
    if (in_stride != N) shape << ", input row stride " << in_stride;
    if (out_stride != N && !c.in_place) shape << ", output row stride " << out_stride;
    if (c.in_offset) shape << ", input pointer " << c.in_offset << " element(s) past a 256-byte boundary";
    if (c.out_offset && !c.in_place)
        shape << ", output pointer " << c.out_offset << " element(s) past a 256-byte boundary";
    if (c.w_offset) shape << ", weight pointer " << c.w_offset << " element(s) past a 256-byte boundary";
    if (c.in_place) shape << ", in place (output == input)";
    CaseInfo info = case_info(shape.str(), c.probe);

    Rng rng = test_rng();
    std::vector<double> x, w;
    c.fill(rng, M, N, x, w);
    // Rows laid out with their strides; the gaps hold NaN, so a kernel that reads a gap gets a NaN result.
    std::vector<std::uint16_t> in_img(in_extent, kPoison16), w_img(N);
    for (int r = 0; r < M; ++r)
        for (int col = 0; col < N; ++col) {
            double& v = x[static_cast<std::size_t>(r) * N + col];
            v = round_to(t, v);
            in_img[static_cast<std::size_t>(r * in_stride + col)] = to_bits(t, v);
        }
    for (int col = 0; col < N; ++col) {
        w[col] = round_to(t, w[col]);
        w_img[col] = to_bits(t, w[col]);
    }

    const std::size_t in_before = static_cast<std::size_t>(c.in_offset) * 2;
    DeviceBuffer in(c.in_place ? kGuard + in_before : read_guard() + in_before, in_extent * 2,
                    c.in_place ? kGuard : read_guard());
    DeviceBuffer weight(read_guard() + static_cast<std::size_t>(c.w_offset) * 2, static_cast<std::size_t>(N) * 2,
                        read_guard());
    DeviceBuffer out_buf(c.in_place ? 0 : kGuard + static_cast<std::size_t>(c.out_offset) * 2,
                         c.in_place ? 0 : out_extent * 2, c.in_place ? 0 : kGuard);
    DeviceBuffer& out = c.in_place ? in : out_buf;
    upload(in, in_img.data(), in_extent * 2);
    upload(weight, w_img.data(), static_cast<std::size_t>(N) * 2);

    launch_and_check(entry, [&] { launch(in.data(), in_stride, weight.data(), out.data(), out_stride, M, N, c.eps); });

    const std::vector<std::uint8_t> bytes = out.download();
    MismatchLog log("output");
    for (int r = 0; r < M; ++r)
        check_half_row(t, log, r, &x[static_cast<std::size_t>(r) * N], w, N, c.eps, bytes,
                       out.before() + 2 * static_cast<std::size_t>(r * out_stride));
    expect_clean(log, info);
    expect_untouched(
        info, "output", out, bytes, kPoisonByte,
        [&](std::size_t off) { return static_cast<long long>(off / 2) % out_stride < N; },
        static_cast<std::size_t>(out_stride) * 2);
    if (!c.in_place) {
        expect_unchanged(info, "input", in, bytes_of(in_img), 2);
    }
    expect_unchanged(info, "weight", weight, bytes_of(w_img), 2);
}

// ---- fused add ----------------------------------------------------------------------------------------------------

void run_fused_case(const std::string& entry, const FusedLaunch& launch, const FusedCase& c) {
    const int M = c.M, N = c.N;
    const Half t = c.type;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    CaseInfo info = case_info(std::string(type_name(t)) + ", M=" + std::to_string(M) + " rows, N=" + std::to_string(N) +
                                  ", eps=" + eps_text(c.eps),
                              c.probe);
    Rng rng = test_rng();
    std::vector<double> x, res, w;
    c.fill(rng, M, N, x, res, w);
    std::vector<std::uint16_t> x_img(count), res_img(count), w_img(N);
    std::vector<double> summed(count);
    for (std::size_t i = 0; i < count; ++i) {
        x[i] = round_to(t, x[i]);
        res[i] = round_to(t, res[i]);
        x_img[i] = to_bits(t, x[i]);
        res_img[i] = to_bits(t, res[i]);
        summed[i] = fused_residual(t, x[i], res[i]);
    }
    for (int col = 0; col < N; ++col) {
        w[col] = round_to(t, w[col]);
        w_img[col] = to_bits(t, w[col]);
    }

    DeviceBuffer in(read_guard(), count * 2, read_guard()), residual(kGuard, count * 2, kGuard),
        weight(read_guard(), static_cast<std::size_t>(N) * 2, read_guard()), out(kGuard, count * 2, kGuard);
    upload(in, x_img.data(), count * 2);
    upload(residual, res_img.data(), count * 2);
    upload(weight, w_img.data(), static_cast<std::size_t>(N) * 2);

    launch_and_check(entry, [&] { launch(in.data(), residual.data(), weight.data(), out.data(), M, N, c.eps); });

    const std::vector<std::uint8_t> res_bytes = residual.download();
    MismatchLog res_log("residual (written back)");
    for (int r = 0; r < M; ++r)
        for (int col = 0; col < N; ++col) {
            const std::size_t i = static_cast<std::size_t>(r) * N + col;
            const std::uint16_t bits = load_u16(res_bytes, residual.before() + 2 * i);
            const double got = from_bits(t, bits);
            if (got == summed[i] || (std::isnan(got) && std::isnan(summed[i]))) {
                res_log.pass();
                continue;
            }
            res_log.fail(r, col, [&] {
                return std::pair(
                    format_half(summed[i], to_bits(t, summed[i])),
                    format_half(got, bits) + (bits == res_img[i] ? " (the residual as it was before the launch)" : ""));
            });
        }
    expect_clean(res_log, info);

    const std::vector<std::uint8_t> out_bytes = out.download();
    MismatchLog log("output");
    for (int r = 0; r < M; ++r)
        check_half_row(t, log, r, &summed[static_cast<std::size_t>(r) * N], w, N, c.eps, out_bytes,
                       out.before() + 2 * static_cast<std::size_t>(r) * N);
    expect_clean(log, info);

    expect_untouched(
        info, "output", out, out_bytes, kPoisonByte, [](std::size_t) { return true; }, static_cast<std::size_t>(N) * 2);
    expect_untouched(
        info, "residual", residual, res_bytes, kPoisonByte, [](std::size_t) { return true; },
        static_cast<std::size_t>(N) * 2);
    expect_unchanged(info, "input", in, bytes_of(x_img), 2);
    expect_unchanged(info, "weight", weight, bytes_of(w_img), 2);
}

// ---- block reduce -------------------------------------------------------------------------------------------------

void run_reduce_case(const std::string& entry, const ReduceLaunch& launch, const ReduceCase& c) {
    const int M = c.M, N = c.N, B = c.block;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    const bool supported = is_supported_block_size(B);
    CaseInfo info =
        case_info("M=" + std::to_string(M) + " rows, N=" + std::to_string(N) + ", block_size=" + std::to_string(B) +
                      (c.integers ? ", integer-valued inputs (exact sums)" : ""),
                  c.probe);
    Rng rng = test_rng();
    std::vector<float> xf(count);
    for (auto& v : xf) {
        // Integers from 1 to 8: never 0 and all of one sign, so every partial sum (an element, a lane's, a warp's) is
        // positive and a dropped or repeated one changes the total on every seed; signed values could cancel to 0.
        // Fractional values: N(0,1), of both signs.
        v = c.integers ? static_cast<float>(rng.integer(1, 8)) : static_cast<float>(rng.normal());
    }
    const std::size_t totals_count = static_cast<std::size_t>(M) * B;
    DeviceBuffer in(read_guard(), count * 4, read_guard()), totals(kGuard, totals_count * 4, kGuard);
    upload(in, xf.data(), count * 4);
    launch_and_check(
        entry, [&] { launch(static_cast<const float*>(in.data()), static_cast<float*>(totals.data()), M, N, B); });

    const std::vector<std::uint8_t> bytes = totals.download();
    MismatchLog log("totals", "thread");
    std::vector<double> row(N);
    for (int r = 0; r < M; ++r) {
        double sum = 0;
        for (int i = 0; i < N; ++i) sum += row[i] = xf[static_cast<std::size_t>(r) * N + i];
        const double tol = c.integers ? 0.0 : block_sum_tolerance(row.data(), N);
        for (int th = 0; th < B; ++th) {
            std::uint32_t bits;
            const double got = load_f32(bytes, totals.before() + 4 * (static_cast<std::size_t>(r) * B + th), &bits);
            if (!supported) {
                // The contract: any block size outside the list launches nothing, so the fill must still be there.
                if (bits == kPoison32) {
                    log.pass();
                    continue;
                }
                log.fail(r, th, "nothing written: block_size " + std::to_string(B) + " is not one of 32, 64, ..., 1024",
                         format_f32(got));
                continue;
            }
            if (!std::isnan(got) && std::fabs(got - sum) <= tol) {
                log.pass();
                continue;
            }
            log.fail(r, th, [&] {
                return std::pair(format_f32(sum) + (c.integers ? " (exactly)" : " (+-" + format_f32(tol) + ")"),
                                 format_f32(got) + (bits == kPoison32 ? poisoned_note() : ""));
            });
        }
    }
    expect_clean(log, info);
    expect_untouched(
        info, "totals", totals, bytes, kPoisonByte, [](std::size_t) { return true; }, static_cast<std::size_t>(B) * 4);
    expect_unchanged(info, "input", in, bytes_of(xf), 4);
}

}  // namespace wb04
