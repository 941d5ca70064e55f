#include "runners.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "reference.hpp"
#include "remote/client.hpp"

namespace wb05 {

using wb::testkit::CaseInfo;
using wb::testkit::DeviceBuffer;
using wb::testkit::kGuard;
using wb::testkit::kPoison16;
using wb::testkit::kPoison32;
using wb::testkit::kPoisonByte;
using wb::testkit::MismatchLog;

namespace {

std::string eps_text(float eps) {
    std::ostringstream s;
    s << eps;
    return s.str();
}

// Bytes of poison around every read-only buffer. On the emulator none: a read outside a buffer then lands in the
// emulator's own guard zone, which ends the launch with an out-of-bounds report. A GPU reports nothing and returns
// whatever lies next to the buffer, often zeros that change a sum by nothing; NaN there makes every such read that
// reaches a result show, on every seed (lesson 04's runners do the same).
std::size_t read_guard() { return wb::remote::config().backend == "gpu" ? kGuard : 0; }

void upload(DeviceBuffer& buf, const void* src, std::size_t bytes) {
    if (bytes != 0) buf.upload(src, bytes);
}

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

double load_f32(const std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t* bits) {
    std::memcpy(bits, &bytes[offset], 4);
    float f;
    std::memcpy(&f, bits, 4);
    return f;
}

std::uint16_t load_u16(const std::vector<std::uint8_t>& bytes, std::size_t offset) {
    std::uint16_t v;
    std::memcpy(&v, &bytes[offset], 2);
    return v;
}

std::string f32_expected(double ref, double tol) {
    return wb::testkit::format_f32(ref) + " (+-" + wb::testkit::format_f32(tol) + ")";
}

std::string f32_got(double got, std::uint32_t bits) {
    return wb::testkit::format_f32(got) + (bits == kPoison32 ? wb::testkit::poisoned_note() : "");
}

std::string half_expected(Half t, const HalfRange& r) {
    std::string s = wb::testkit::format_half(r.lo, wb::testkit::to_bits(t, r.lo));
    if (r.hi != r.lo) s += " to " + wb::testkit::format_half(r.hi, wb::testkit::to_bits(t, r.hi));
    return s;
}

// One row of a bf16/fp16 output against the contract; x, w, b hold the representable values the kernel read.
void check_half_row(Half t, MismatchLog& log, int row, const double* x, const std::vector<double>& w,
                    const std::vector<double>& b, int N, float eps, const std::vector<std::uint8_t>& bytes,
                    std::size_t row_offset) {
    if (!all_finite(x, N)) return;
    const RowStats s = row_stats(x, N);
    for (int c = 0; c < N; ++c) {
        const double ref = output_reference(s, eps, x[c], w[c], b[c]);
        const HalfRange r = half_range(t, ref, output_tolerance(s, N, eps, x[c], w[c], b[c]));
        const std::uint16_t bits = load_u16(bytes, row_offset + 2 * static_cast<std::size_t>(c));
        const double got = wb::testkit::from_bits(t, bits);
        if (r.contains(got)) {
            log.pass();
            continue;
        }
        log.fail(row, c, [&] {
            return std::pair(half_expected(t, r), wb::testkit::format_half(got, bits) +
                                                      (bits == kPoison16 ? wb::testkit::poisoned_note() : ""));
        });
    }
}

// The logical tensors of a case, rounded to the storage type t (or to fp32), as images of 16-bit words.
struct HalfImages {
    std::vector<std::uint16_t> x, w, b, residual;
};
HalfImages round_to_half(Half t, Tensors& v) {
    HalfImages img;
    auto conv = [t](std::vector<double>& src, std::vector<std::uint16_t>& dst) {
        dst.resize(src.size());
        for (std::size_t i = 0; i < src.size(); ++i) {
            src[i] = wb::testkit::round_to(t, src[i]);
            dst[i] = wb::testkit::to_bits(t, src[i]);
        }
    };
    conv(v.x, img.x);
    conv(v.w, img.w);
    conv(v.b, img.b);
    conv(v.residual, img.residual);
    return img;
}

}  // namespace

// ---- fp32 ---------------------------------------------------------------------------------------------------------

void run_f32_case(const std::string& entry, const F32Launch& launch, const F32Case& c, bool with_stats) {
    const int M = c.M, N = c.N;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    CaseInfo info = wb::testkit::case_info(
        "fp32, M=" + std::to_string(M) + " rows, N=" + std::to_string(N) + ", eps=" + eps_text(c.eps), c.probe);
    wb::testkit::Rng rng = wb::testkit::test_rng();
    Tensors t;
    c.fill(rng, M, N, t);
    std::vector<float> xf(count), wf(N), bf(N);
    for (std::size_t i = 0; i < count; ++i) t.x[i] = xf[i] = static_cast<float>(t.x[i]);
    for (int i = 0; i < N; ++i) {
        t.w[i] = wf[i] = static_cast<float>(t.w[i]);
        t.b[i] = bf[i] = static_cast<float>(t.b[i]);
    }

    const std::size_t row_bytes = static_cast<std::size_t>(N) * 4;
    DeviceBuffer in(read_guard(), count * 4, read_guard()), weight(read_guard(), row_bytes, read_guard()),
        bias(read_guard(), row_bytes, read_guard()), out(kGuard, count * 4, kGuard);
    // The statistics buffers exist only for the exercise whose entry point writes them.
    const std::size_t stats_bytes = with_stats ? static_cast<std::size_t>(M) * 4 : 0;
    DeviceBuffer mean_buf(with_stats ? kGuard : 0, stats_bytes, with_stats ? kGuard : 0),
        rstd_buf(with_stats ? kGuard : 0, stats_bytes, with_stats ? kGuard : 0);
    upload(in, xf.data(), count * 4);
    upload(weight, wf.data(), row_bytes);
    upload(bias, bf.data(), row_bytes);
    wb::testkit::launch_and_check(entry, [&] {
        launch(static_cast<const float*>(in.data()), static_cast<const float*>(weight.data()),
               static_cast<const float*>(bias.data()), static_cast<float*>(out.data()),
               with_stats ? static_cast<float*>(mean_buf.data()) : nullptr,
               with_stats ? static_cast<float*>(rstd_buf.data()) : nullptr, M, N, c.eps);
    });

    const std::vector<std::uint8_t> bytes = out.download();
    MismatchLog log("output");
    std::vector<RowStats> stats(M);
    std::vector<bool> finite(M);
    for (int r = 0; r < M; ++r) {
        const double* row = &t.x[static_cast<std::size_t>(r) * N];
        finite[r] = all_finite(row, N);
        if (!finite[r]) continue;
        const RowStats s = stats[r] = row_stats(row, N);
        for (int col = 0; col < N; ++col) {
            const double ref = output_reference(s, c.eps, row[col], t.w[col], t.b[col]);
            const double tol = output_tolerance(s, N, c.eps, row[col], t.w[col], t.b[col]);
            std::uint32_t bits;
            const double got = load_f32(bytes, out.before() + 4 * (static_cast<std::size_t>(r) * N + col), &bits);
            if (!std::isnan(got) && std::fabs(got - ref) <= tol) {
                log.pass();
                continue;
            }
            log.fail(r, col, [&] { return std::pair(f32_expected(ref, tol), f32_got(got, bits)); });
        }
    }
    wb::testkit::expect_clean(log, info);
    wb::testkit::expect_untouched(
        info, "output", out, bytes, kPoisonByte, [](std::size_t) { return true; }, row_bytes);

    if (with_stats) {
        const std::vector<std::uint8_t> mb = mean_buf.download(), rb = rstd_buf.download();
        MismatchLog mean_log("mean", "row"), rstd_log("rstd", "row");
        // Rows of no elements have no statistics: the contract writes nothing then, like the output.
        for (int r = 0; r < M && N > 0; ++r) {
            if (!finite[r]) continue;
            const RowStats& s = stats[r];
            std::uint32_t bits;
            const double m = load_f32(mb, mean_buf.before() + 4 * static_cast<std::size_t>(r), &bits);
            const double mtol = kAtol * 0.1 + mean_error(s, N);
            if (!std::isnan(m) && std::fabs(m - s.mean) <= mtol) mean_log.pass();
            else mean_log.fail(r, 0, f32_expected(s.mean, mtol), f32_got(m, bits));
            const double rs = load_f32(rb, rstd_buf.before() + 4 * static_cast<std::size_t>(r), &bits);
            const double ref = s.rstd(c.eps), rtol = ref * rstd_rel_error(s, N, c.eps);
            if (!std::isnan(rs) && std::fabs(rs - ref) <= rtol) rstd_log.pass();
            else rstd_log.fail(r, 0, f32_expected(ref, rtol), f32_got(rs, bits));
        }
        wb::testkit::expect_clean(mean_log, info);
        wb::testkit::expect_clean(rstd_log, info);
        const auto written = [N](std::size_t) { return N > 0; };
        wb::testkit::expect_untouched(info, "mean", mean_buf, mb, kPoisonByte, written, 4);
        wb::testkit::expect_untouched(info, "rstd", rstd_buf, rb, kPoisonByte, written, 4);
    }
    wb::testkit::expect_unchanged(info, "input", in, bytes_of(xf), 4);
    wb::testkit::expect_unchanged(info, "weight", weight, bytes_of(wf), 4);
    wb::testkit::expect_unchanged(info, "bias", bias, bytes_of(bf), 4);
}

// ---- bf16 / fp16 --------------------------------------------------------------------------------------------------

void run_half_case(const std::string& entry, const HalfLaunch& launch, const HalfCase& c) {
    const int M = c.M, N = c.N;
    const Half t = c.type;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    std::ostringstream shape;
    shape << wb::testkit::type_name(t) << ", M=" << M << " rows, N=" << N << ", eps=" << eps_text(c.eps);
    if (c.in_offset) shape << ", input pointer " << c.in_offset << " element(s) past a 256-byte boundary";
    if (c.out_offset) shape << ", output pointer " << c.out_offset << " element(s) past a 256-byte boundary";
    if (c.w_offset) shape << ", weight pointer " << c.w_offset << " element(s) past a 256-byte boundary";
    if (c.b_offset) shape << ", bias pointer " << c.b_offset << " element(s) past a 256-byte boundary";
    CaseInfo info = wb::testkit::case_info(shape.str(), c.probe);

    wb::testkit::Rng rng = wb::testkit::test_rng();
    Tensors v;
    c.fill(rng, M, N, v);
    const HalfImages img = round_to_half(t, v);
    const std::size_t row_bytes = static_cast<std::size_t>(N) * 2;
    auto off = [](int elements) { return static_cast<std::size_t>(elements) * 2; };
    DeviceBuffer in(read_guard() + off(c.in_offset), count * 2, read_guard()),
        weight(read_guard() + off(c.w_offset), row_bytes, read_guard()),
        bias(read_guard() + off(c.b_offset), row_bytes, read_guard()),
        out(kGuard + off(c.out_offset), count * 2, kGuard);
    upload(in, img.x.data(), count * 2);
    upload(weight, img.w.data(), row_bytes);
    upload(bias, img.b.data(), row_bytes);

    wb::testkit::launch_and_check(entry,
                                  [&] { launch(in.data(), weight.data(), bias.data(), out.data(), M, N, c.eps); });

    const std::vector<std::uint8_t> bytes = out.download();
    MismatchLog log("output");
    for (int r = 0; r < M; ++r)
        check_half_row(t, log, r, &v.x[static_cast<std::size_t>(r) * N], v.w, v.b, N, c.eps, bytes,
                       out.before() + 2 * static_cast<std::size_t>(r) * N);
    wb::testkit::expect_clean(log, info);
    wb::testkit::expect_untouched(
        info, "output", out, bytes, kPoisonByte, [](std::size_t) { return true; }, row_bytes);
    wb::testkit::expect_unchanged(info, "input", in, bytes_of(img.x), 2);
    wb::testkit::expect_unchanged(info, "weight", weight, bytes_of(img.w), 2);
    wb::testkit::expect_unchanged(info, "bias", bias, bytes_of(img.b), 2);
}

// ---- fused add ----------------------------------------------------------------------------------------------------

void run_fused_case(const std::string& entry, const FusedLaunch& launch, const HalfCase& c) {
    const int M = c.M, N = c.N;
    const Half t = c.type;
    const std::size_t count = static_cast<std::size_t>(M) * N;
    CaseInfo info = wb::testkit::case_info(std::string(wb::testkit::type_name(t)) + ", M=" + std::to_string(M) +
                                               " rows, N=" + std::to_string(N) + ", eps=" + eps_text(c.eps),
                                           c.probe);
    wb::testkit::Rng rng = wb::testkit::test_rng();
    Tensors v;
    c.fill(rng, M, N, v);
    const HalfImages img = round_to_half(t, v);
    std::vector<double> summed(count);
    for (std::size_t i = 0; i < count; ++i) summed[i] = fused_residual(t, v.x[i], v.residual[i]);

    const std::size_t row_bytes = static_cast<std::size_t>(N) * 2;
    DeviceBuffer in(read_guard(), count * 2, read_guard()), residual(kGuard, count * 2, kGuard),
        weight(read_guard(), row_bytes, read_guard()), bias(read_guard(), row_bytes, read_guard()),
        out(kGuard, count * 2, kGuard);
    upload(in, img.x.data(), count * 2);
    upload(residual, img.residual.data(), count * 2);
    upload(weight, img.w.data(), row_bytes);
    upload(bias, img.b.data(), row_bytes);

    wb::testkit::launch_and_check(
        entry, [&] { launch(in.data(), residual.data(), weight.data(), bias.data(), out.data(), M, N, c.eps); });

    const std::vector<std::uint8_t> res_bytes = residual.download();
    MismatchLog res_log("residual (written back)");
    for (int r = 0; r < M; ++r)
        for (int col = 0; col < N; ++col) {
            const std::size_t i = static_cast<std::size_t>(r) * N + col;
            const std::uint16_t bits = load_u16(res_bytes, residual.before() + 2 * i);
            const double got = wb::testkit::from_bits(t, bits);
            if (got == summed[i] || (std::isnan(got) && std::isnan(summed[i]))) {
                res_log.pass();
                continue;
            }
            res_log.fail(r, col, [&] {
                return std::pair(wb::testkit::format_half(summed[i], wb::testkit::to_bits(t, summed[i])),
                                 wb::testkit::format_half(got, bits) +
                                     (bits == img.residual[i] ? " (the residual as it was before the launch)" : ""));
            });
        }
    wb::testkit::expect_clean(res_log, info);

    const std::vector<std::uint8_t> out_bytes = out.download();
    MismatchLog log("output");
    for (int r = 0; r < M; ++r)
        check_half_row(t, log, r, &summed[static_cast<std::size_t>(r) * N], v.w, v.b, N, c.eps, out_bytes,
                       out.before() + 2 * static_cast<std::size_t>(r) * N);
    wb::testkit::expect_clean(log, info);
    wb::testkit::expect_untouched(
        info, "output", out, out_bytes, kPoisonByte, [](std::size_t) { return true; }, row_bytes);
    wb::testkit::expect_untouched(
        info, "residual", residual, res_bytes, kPoisonByte, [](std::size_t) { return true; }, row_bytes);
    wb::testkit::expect_unchanged(info, "input", in, bytes_of(img.x), 2);
    wb::testkit::expect_unchanged(info, "weight", weight, bytes_of(img.w), 2);
    wb::testkit::expect_unchanged(info, "bias", bias, bytes_of(img.b), 2);
}

}  // namespace wb05
