// Self-test of the hidden tests' host parts, run by `make test`: the bf16/fp16 conversions against CUDA's own host
// conversions (the emulator's where CUDA is absent), the tolerances against simulated correct kernels (which must
// pass) and simulated wrong ones (which must not), and the failure report's wording.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "testkit/compare.hpp"
#include "testkit/half_bits.hpp"
#include "remote/client.hpp"
#include "common/reference.hpp"
#include "testkit/rng.hpp"

using namespace wb04;
static int failures = 0;
#define EXPECT(c)                                                      \
    do {                                                               \
        if (!(c)) {                                                    \
            ++failures;                                                \
            std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #c); \
        }                                                              \
    } while (0)

static std::uint16_t cuda_bits(Half t, float f) {
    if (t == Half::bf16) {
        __nv_bfloat16 b = __float2bfloat16_rn(f);
        std::uint16_t u;
        std::memcpy(&u, &b, 2);
        return u;
    }
    __half h = __float2half_rn(f);
    std::uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
}
static float cuda_value(Half t, std::uint16_t u) {
    if (t == Half::bf16) {
        __nv_bfloat16 b;
        std::memcpy(&b, &u, 2);
        return __bfloat162float(b);
    }
    __half h;
    std::memcpy(&h, &u, 2);
    return __half2float(h);
}

static void test_conversions() {
    for (Half t : {Half::bf16, Half::fp16}) {
        int bad_decode = 0, bad_roundtrip = 0, bad_next = 0;
        for (std::uint32_t u = 0; u < 65536; ++u) {
            double mine = from_bits(t, u);
            float theirs = cuda_value(t, u);
            if (!(mine == theirs || (std::isnan(mine) && std::isnan(theirs)))) ++bad_decode;
            if (std::isfinite(mine) && !(mine == 0 && (u & 0x8000)) && to_bits(t, mine) != u) ++bad_roundtrip;
            if (std::isfinite(mine) && mine < max_finite(t) && !(mine == 0 && (u & 0x8000))) {
                double up = next_up(t, mine);
                // the next value up: representable, larger, and nothing representable strictly between
                if (!(up > mine) || round_to(t, up) != up || round_to(t, (mine + up) / 2) == (mine + up) / 2)
                    ++bad_next;
            }
        }
        EXPECT(bad_decode == 0);
        EXPECT(bad_roundtrip == 0);
        EXPECT(bad_next == 0);
        std::mt19937_64 g(1);
        int bad_round = 0;
        for (int i = 0; i < 2000000; ++i) {
            std::uint32_t fb = static_cast<std::uint32_t>(g());
            float f;
            std::memcpy(&f, &fb, 4);
            if (std::isnan(f)) continue;
            double mine = round_to(t, f);
            std::uint16_t theirs = cuda_bits(t, f);
            if (!(mine == cuda_value(t, theirs))) ++bad_round;
        }
        // ties and the overflow threshold
        for (float f : {65504.0f, 65519.0f, 65520.0f, 1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, 5.96e-8f, 2.98e-8f,
                        2.99e-8f, 1.0f + 1.0f / 256, 1.0f + 3.0f / 256, 3.0e38f, 3.4e38f})
            if (!(round_to(t, f) == cuda_value(t, cuda_bits(t, f)))) ++bad_round;
        EXPECT(bad_round == 0);
        std::printf("%s: decode mismatches %d, round-trip %d, next_up %d, rounding %d\n", type_name(t), bad_decode,
                    bad_roundtrip, bad_next, bad_round);
    }
}

// CUDA's host conversion of f in one of the four roundings, as a pattern.
static std::uint16_t cuda_bits(Half t, float f, Rounding mode) {
    std::uint16_t u = 0;
    if (t == Half::bf16) {
        const __nv_bfloat16 b = mode == Rounding::nearest_even  ? __float2bfloat16_rn(f)
                                : mode == Rounding::toward_zero ? __float2bfloat16_rz(f)
                                : mode == Rounding::down        ? __float2bfloat16_rd(f)
                                                                : __float2bfloat16_ru(f);
        std::memcpy(&u, &b, 2);
        return u;
    }
    const __half h = mode == Rounding::nearest_even  ? __float2half_rn(f)
                     : mode == Rounding::toward_zero ? __float2half_rz(f)
                     : mode == Rounding::down        ? __float2half_rd(f)
                                                     : __float2half_ru(f);
    std::memcpy(&u, &h, 2);
    return u;
}

// round_bits, the oracle's form for the emulator's tests, in all four roundings: random floats (NaN and infinities
// among them) and the values around the overflow threshold and the smallest subnormal, bit for bit.
static void test_directed_roundings() {
    for (Half t : {Half::bf16, Half::fp16}) {
        for (Rounding mode : {Rounding::nearest_even, Rounding::toward_zero, Rounding::down, Rounding::up}) {
            std::mt19937_64 g(7);
            int bad = 0;
            std::uint32_t first_bad = 0;
            auto check = [&](float f) {
                if (round_bits(t, f, mode) != cuda_bits(t, f, mode) && bad++ == 0) std::memcpy(&first_bad, &f, 4);
            };
            for (int i = 0; i < 200000; ++i) {
                const std::uint32_t fb = static_cast<std::uint32_t>(g());
                float f;
                std::memcpy(&f, &fb, 4);
                check(f);
            }
            for (float f : {65504.0f, 65519.0f, 65520.0f, 65535.0f, 65536.0f, 1e9f, 5.96e-8f, 2.98e-8f, 1e-30f,
                            3.3895314e38f, 3.4e38f, INFINITY, NAN})
                for (float s : {1.0f, -1.0f}) check(s * f);
            EXPECT(bad == 0);
            const char* suffix[] = {"_rn", "_rz", "_rd", "_ru"};  // CUDA's names of the four roundings
            std::printf("%s%s: mismatches %d", type_name(t), suffix[static_cast<int>(mode)], bad);
            if (bad) std::printf(" (the first at input 0x%08x)", first_bad);
            std::printf("\n");
        }
    }
}

// A simulated kernel: per-thread strided fp32 sums, tree over threads, in the given order.
static float sim_sum_sq(const std::vector<double>& x, int N, int block, bool half_acc, Half t) {
    std::vector<float> part(block, 0.0f);
    for (int i = 0; i < N; ++i) {
        float v = static_cast<float>(x[i]);
        if (half_acc)
            part[i % block] = cuda_value(t, cuda_bits(t, part[i % block] + cuda_value(t, cuda_bits(t, v * v))));
        else part[i % block] += v * v;
    }
    for (int s = block / 2; s > 0; s /= 2)
        for (int i = 0; i < s; ++i)
            part[i] = half_acc ? cuda_value(t, cuda_bits(t, part[i] + part[i + s])) : part[i] + part[i + s];
    return part[0];
}

enum class Variant { correct, recip_sqrt, one_rounding, truncate, half_accumulate, eps_outside, no_eps, sqrt_n };

static float sim_inv(const std::vector<double>& x, int N, float eps, Variant v, Half t) {
    float s = sim_sum_sq(x, N, 256, v == Variant::half_accumulate, t);
    switch (v) {
        case Variant::recip_sqrt: return 1.0f / std::sqrt(s / N + eps);
        case Variant::eps_outside: return 1.0f / (std::sqrt(s / N) + eps);
        case Variant::no_eps: return 1.0f / std::sqrt(s / N);
        case Variant::sqrt_n: return 1.0f / std::sqrt(s / std::sqrt((float)N) + eps);
        default: {
            // rsqrtf is approximate on a GPU: perturb by up to 2 ulp
            float r = 1.0f / std::sqrt(s / N + eps);
            return std::nextafter(std::nextafter(r, 0.0f), 0.0f);
        }
    }
}

// Returns the number of wrong elements for a simulated half kernel over an M x N case.
static std::size_t sim_half(Half t, int M, int N, double scale, float eps, Variant v, std::uint64_t seed) {
    Rng rng(seed);
    std::size_t wrong = 0;
    for (int r = 0; r < M; ++r) {
        std::vector<double> x(N), w(N);
        for (auto& e : x) e = round_to(t, scale * rng.normal());
        for (auto& e : w) e = round_to(t, rng.normal());
        double inv = inv_rms(x.data(), N, eps);
        float finv = sim_inv(x, N, eps, v, t);
        for (int c = 0; c < N; ++c) {
            float xf = static_cast<float>(x[c]), wf = static_cast<float>(w[c]);
            std::uint16_t out;
            if (v == Variant::one_rounding) out = cuda_bits(t, xf * finv * wf);
            else if (v == Variant::truncate) {
                float a = xf * finv;
                std::uint32_t u;
                std::memcpy(&u, &a, 4);
                u &= 0xFFFF0000u;  // bf16 truncation of x*inv
                std::memcpy(&a, &u, 4);
                out = cuda_bits(t, a * wf);
            } else out = cuda_bits(t, cuda_value(t, cuda_bits(t, xf * finv)) * wf);
            if (!half_output(t, x[c], inv, w[c]).contains(cuda_value(t, out))) ++wrong;
        }
    }
    return wrong;
}

static std::size_t sim_f32(int M, int N, double scale, float eps, Variant v, std::uint64_t seed) {
    Rng rng(seed);
    std::size_t wrong = 0;
    for (int r = 0; r < M; ++r) {
        std::vector<double> x(N), w(N);
        for (auto& e : x) e = static_cast<float>(scale * rng.normal());
        for (auto& e : w) e = static_cast<float>(rng.normal());
        double inv = inv_rms(x.data(), N, eps);
        float finv = sim_inv(x, N, eps, v, Half::bf16);
        for (int c = 0; c < N; ++c) {
            double ref = x[c] * inv * w[c];
            float got = static_cast<float>(x[c]) * finv * static_cast<float>(w[c]);
            if (!(std::fabs(got - ref) <= f32_tolerance(ref))) ++wrong;
        }
    }
    return wrong;
}

static void test_tolerances() {
    for (Half t : {Half::bf16, Half::fp16})
        for (int N : {1, 31, 769, 4096, 16384}) {
            for (std::uint64_t s = 1; s <= 3; ++s) {
                EXPECT(sim_half(t, 3, N, 1.0, 1e-5f, Variant::correct, s) == 0);
                EXPECT(sim_half(t, 3, N, 1.0, 1e-5f, Variant::recip_sqrt, s) == 0);
            }
        }
    EXPECT(sim_half(Half::fp16, 3, 1024, 300.0, 1e-5f, Variant::correct, 7) == 0);
    EXPECT(sim_half(Half::fp16, 3, 1024, 1e-4, 1e-5f, Variant::correct, 7) == 0);
    struct W {
        const char* name;
        Half t;
        int N;
        double scale;
        Variant v;
    };
    for (W w : {W{"one rounding (bf16)", Half::bf16, 4096, 1.0, Variant::one_rounding},
                W{"one rounding (fp16)", Half::fp16, 4096, 1.0, Variant::one_rounding},
                W{"truncated x*inv (bf16)", Half::bf16, 4096, 1.0, Variant::truncate},
                W{"bf16 accumulation", Half::bf16, 16384, 1.0, Variant::half_accumulate},
                W{"fp16 accumulation at 300", Half::fp16, 1024, 300.0, Variant::half_accumulate},
                W{"eps outside the root, tiny inputs", Half::bf16, 1024, 1e-4, Variant::eps_outside},
                W{"divide by sqrt(N)", Half::bf16, 1024, 1.0, Variant::sqrt_n}}) {
        std::size_t wrong = sim_half(w.t, 3, w.N, w.scale, 1e-5f, w.v, 11);
        std::printf("half wrong answer '%s': %zu of %d elements rejected\n", w.name, wrong, 3 * w.N);
        EXPECT(wrong > 0);
    }
    for (int N : {1, 33, 769, 8199, 16384})
        for (std::uint64_t s = 1; s <= 3; ++s) {
            EXPECT(sim_f32(3, N, 1.0, 1e-5f, Variant::correct, s) == 0);
            EXPECT(sim_f32(3, N, 1e12, 1e-5f, Variant::correct, s) == 0);
            EXPECT(sim_f32(3, N, 1e-4, 1e-5f, Variant::correct, s) == 0);
        }
    std::size_t eo = sim_f32(3, 1024, 1e-4, 1e-5f, Variant::eps_outside, 3);
    std::size_t eo_normal = sim_f32(3, 1024, 1.0, 1e-5f, Variant::eps_outside, 3);
    std::size_t ne = sim_f32(3, 1024, 1e-4, 1e-5f, Variant::no_eps, 3);
    std::printf("f32 eps outside: %zu of 3072 rejected on tiny inputs, %zu on N(0,1); no eps on tiny: %zu\n", eo,
                eo_normal, ne);
    EXPECT(eo == 3072);
    EXPECT(ne == 3072);
}

static void test_reference_details() {
    // fused residual: exact sum rounded once
    EXPECT(fused_residual(Half::bf16, 1.0, 1.0 / 512) == 1.0);
    EXPECT(fused_residual(Half::bf16, 1.0, 3.0 / 512) == 1.0 + 1.0 / 128);
    // block sums: Higham bound scales with n
    std::vector<double> ones(1000, 1.0);
    EXPECT(block_sum_tolerance(ones.data(), 1000) > 999 * 1000 * std::ldexp(1.0, -24));
    EXPECT(block_sum_tolerance(ones.data(), 1) == 0);
    // zero row: output exactly 0
    HalfAccept a = half_output(Half::bf16, 0.0, inv_rms(std::vector<double>(8, 0.0).data(), 8, 1e-5), 0.7);
    EXPECT(a.count == 1 && a.contains(0.0) && a.contains(-0.0));
    EXPECT(!a.contains(std::nan("")));
}

static void test_report() {
    CaseInfo info{"rmsnorm: odd hidden size 769", "fp32, M=7 rows, N=769, eps=1e-05", "a row length ...", 42};
    MismatchLog log("output");
    for (int i = 0; i < 10; ++i) log.pass();
    log.fail(0, 768, "0.5 (+-5e-06)", "nan" + poisoned_note());
    log.fail(3, 768, "0.25 (+-2.5e-06)", "0.3");
    EXPECT(!log.ok() && log.wrong() == 2 && log.checked() == 12);
    std::string r = log.report(info);
    std::printf("---- sample report ----\n%s\n-----------------------\n", r.c_str());
    EXPECT(r.find("2 of 12 output values are wrong") != std::string::npos);
    EXPECT(r.find("row 0, column 768") != std::string::npos);
    EXPECT(r.find("seed 42") != std::string::npos);
    EXPECT(r.find("2 rows (0, 3)") != std::string::npos);
    EXPECT(r.find("never wrote") == std::string::npos);  // a poisoned output already says why it is NaN
    MismatchLog nan_log("totals", "thread");
    nan_log.fail(0, 0, "-171 (exactly)", "nan");
    // The shared-memory note is for GPU runs (the emulator reports such reads itself); the emulator's names locals.
    EXPECT(nan_log.report(info).find("shared memory the kernel never wrote") == std::string::npos);
    EXPECT(nan_log.report(info).find("local variable or array element") != std::string::npos);
    wb::remote::Config gpu;
    gpu.backend = "gpu";
    wb::remote::configure(gpu);
    EXPECT(nan_log.report(info).find("shared memory the kernel never wrote") != std::string::npos);
    MismatchLog nan_expected("output");
    nan_expected.fail(2, 0, "nan", "nan (0x7fff)");  // cannot happen as a mismatch, but must not be explained as one
    EXPECT(nan_expected.report(info).find("never wrote") == std::string::npos);
    // The texts of a mismatch are made for the four the report shows, and every mismatch is still counted and placed.
    MismatchLog lazy("output");
    int described = 0;
    for (int col = 0; col < 10; ++col)
        lazy.fail(1, col, [&] {
            ++described;
            return std::pair<std::string, std::string>("1 (+-1e-05)", "col " + std::to_string(col));
        });
    lazy.fail(5, 2, [&] {
        ++described;
        return std::pair<std::string, std::string>("2", "3");
    });
    const std::string lr = lazy.report(info);
    EXPECT(described == 4 && lazy.wrong() == 11 && lazy.checked() == 11);
    EXPECT(lr.find("11 of 11 output values are wrong") != std::string::npos);
    EXPECT(lr.find("row 1, column 3: expected 1 (+-1e-05), got col 3") != std::string::npos);
    EXPECT(lr.find("got col 4") == std::string::npos);
    EXPECT(lr.find("2 rows (1, 5), columns 0 to 9") != std::string::npos);
    Untouched u{3, 5, "2 byte(s) after its last element"};
    std::string ur = untouched_report(info, "output", u);
    EXPECT(ur.find("3 byte(s)") != std::string::npos);
}

int main() {
    test_conversions();
    test_directed_roundings();
    test_tolerances();
    test_reference_details();
    test_report();
    std::printf("%s (%d failures)\n", failures ? "FAILED" : "hidden-test self-test passed", failures);
    return failures ? 1 : 0;
}
