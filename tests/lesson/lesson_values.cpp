#include "lesson_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "testkit/half_bits.hpp"

namespace lesson_test {
namespace {

// The one host oracle of the 16-bit formats, shared with the hidden tests (grader/hidden-tests/testkit/).
using wb::testkit::Half;
using wb::testkit::next_up;
using wb::testkit::round_to;
constexpr Half kFp16 = Half::fp16;
constexpr Half kBf16 = Half::bf16;
double largest_finite(Half f) { return wb::testkit::max_finite(f); }

using Row = std::vector<double>;
using Values = std::map<std::string, double>;

// ---- reference formulas (fp64) --------------------------------------------------------------------------------

double sum_squares(const Row& x) {
    double s = 0;
    for (double v : x) s += v * v;
    return s;
}
double mean_square(const Row& x) { return sum_squares(x) / static_cast<double>(x.size()); }

// The definition: y = x / sqrt(mean(x²) + eps) · w.
Row rmsnorm(const Row& x, const Row& w, double eps) {
    const double inv = 1.0 / std::sqrt(mean_square(x) + eps);
    Row y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] * inv * w[i];
    return y;
}

Row layernorm(const Row& x, double eps) {
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
    double var = 0;
    for (double v : x) var += (v - mean) * (v - mean);
    var /= static_cast<double>(x.size());
    Row y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = (x[i] - mean) / std::sqrt(var + eps);
    return y;
}

// The five scale formulas of section 4's table, element 0 of the output, weight 1.
enum class EpsVariant { correct, none, on_rms, divide_by_rsqrt, root_before_mean };
double eps_variant_y0(EpsVariant v, const Row& x, double eps) {
    const double n = static_cast<double>(x.size());
    const double ms = mean_square(x);
    switch (v) {
        case EpsVariant::correct: return x[0] / std::sqrt(ms + eps);
        case EpsVariant::none: return x[0] / std::sqrt(ms);
        case EpsVariant::on_rms: return x[0] / (std::sqrt(ms) + eps);
        case EpsVariant::divide_by_rsqrt: return x[0] / (1.0 / std::sqrt(ms + eps));
        case EpsVariant::root_before_mean: return x[0] / (std::sqrt(sum_squares(x)) / n + eps);
    }
    throw std::logic_error("unknown variant");
}

// Q2's mistake: the sum of squares divided by sqrt(N) instead of N.
double sqrt_n_mistake_y0(const Row& x, const Row& w) {
    return x[0] * w[0] / std::sqrt(sum_squares(x) / std::sqrt(static_cast<double>(x.size())));
}

// Running sum of `step` in a 16-bit format until adding it no longer changes the sum.
double stagnation_point(Half f, double step) {
    double s = 0;
    for (;;) {
        const double next = round_to(f, s + step);
        if (next == s) return s;
        s = next;
    }
}

double sequential_sum(Half f, double step, int count) {
    double s = 0;
    for (int i = 0; i < count; ++i) s = round_to(f, s + step);
    return s;
}

// Section 5's prefix: elements from `addr` to the next 16-byte boundary, at most n.
int prefix_elements(std::uint64_t addr, int n, int elem_bytes) {
    const int misalign = static_cast<int>(addr & 15u);
    const int prefix_bytes = (16 - misalign) & 15;
    return std::min(prefix_bytes / elem_bytes, n);
}

int next_pow2(int n) {
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

// ---- sections ---------------------------------------------------------------------------------------------------

void math_section(Values& v) {
    const Row x{3, 4}, w{1, 2};
    v["ex1_sumsq"] = sum_squares(x);
    v["ex1_mean"] = mean_square(x);
    v["ex1_rms"] = std::sqrt(mean_square(x));
    v["ex1_inv"] = 1.0 / std::sqrt(mean_square(x));
    const Row y = rmsnorm(x, w, 0.0);
    v["ex1_y0"] = y[0];
    v["ex1_y1"] = y[1];
    const Row xhat = rmsnorm(x, {1, 1}, 0.0);
    v["ex1_xhat0"] = xhat[0];
    v["ex1_xhat1"] = xhat[1];
    v["ex1_xhat_ms"] = mean_square(xhat);

    const Row r0{1, 2, 3, 4, 5}, r1{2, 2, 2, 2, 2}, w2(5, 2.0), ones(5, 1.0);
    v["ex2_r0_sumsq"] = sum_squares(r0);
    v["ex2_r1_sumsq"] = sum_squares(r1);
    v["ex2_r0_mean"] = mean_square(r0);
    v["ex2_r1_mean"] = mean_square(r1);
    v["ex2_r0_rms"] = std::sqrt(mean_square(r0));
    v["ex2_r1_rms"] = std::sqrt(mean_square(r1));
    const Row xh0 = rmsnorm(r0, ones, 0.0), y0 = rmsnorm(r0, w2, 0.0);
    for (int i = 0; i < 5; ++i) {
        v["ex2_r0_xhat" + std::to_string(i)] = xh0[i];
        v["ex2_r0_y" + std::to_string(i)] = y0[i];
    }
    v["ex2_r0_xhat_ms"] = mean_square(xh0);
    const Row ln = layernorm(r0, 0.0);
    v["ex2_ln0"] = ln[0];
    v["ex2_ln1"] = ln[1];
    v["ex2_ln3"] = ln[3];
    v["ex2_ln4"] = ln[4];
}

void two_pass_and_reduction_sections(Values& v) {
    // N = 300 on 256 threads: how many iterations of `for (col = t; col < N; col += 256)` each thread runs.
    const int n = 300, block = 256;
    int last_two = -1, first_one = -1;
    for (int t = 0; t < block; ++t) {
        int iters = 0;
        for (int col = t; col < n; col += block) ++iters;
        if (iters == 2) last_two = t;
        if (iters == 1 && first_one < 0) first_one = t;
    }
    v["n300_last_two"] = last_two;
    v["n300_first_one"] = first_one;
    v["row_bytes_fp32_4096"] = 4096.0 * 4;
    v["weight_bytes_fp32_4096"] = 4096.0 * 4;
    v["row_kib_fp32_16384"] = 16384.0 * 4 / 1024;
    v["h200_l2_bytes"] = 60.0 * 1024 * 1024;  // 60 MiB; docs/gpu-runs.md records 62914560 read from the device
    v["max_warps"] = 1024 / 32;
    v["warps_256"] = 256 / 32;
}

void precision_section(Values& v) {
    const double eps = 1e-6;
    const Row zero{0, 0}, typical{3, 4}, tiny{0.0003, 0.0004};
    const struct {
        const char* name;
        EpsVariant variant;
    } variants[] = {{"ok", EpsVariant::correct},
                    {"none", EpsVariant::none},
                    {"rms", EpsVariant::on_rms},
                    {"divrsqrt", EpsVariant::divide_by_rsqrt},
                    {"rootfirst", EpsVariant::root_before_mean}};
    for (const auto& [name, variant] : variants) {
        v[std::string("eps_") + name + "_typ"] = eps_variant_y0(variant, typical, eps);
        v[std::string("eps_") + name + "_tiny"] = eps_variant_y0(variant, tiny, eps);
        // The table's zero-row column: NaN without eps, 0 for every other placement.
        const double z = eps_variant_y0(variant, zero, eps);
        if ((variant == EpsVariant::none) != std::isnan(z) || (!std::isnan(z) && z != 0))
            throw std::logic_error(std::string("zero row, variant ") + name + ": not what the table says");
    }
    v["tiny_mean_sq"] = mean_square(tiny);
    v["inv_sqrt_eps"] = 1.0 / std::sqrt(eps);
    {
        // Root before the mean: the output is sqrt(N) times too large, here for a row of N = 4096.
        Row x(4096);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37 * static_cast<double>(i)) + 0.2;
        v["sqrt_4096"] =
            eps_variant_y0(EpsVariant::root_before_mean, x, 0.0) / eps_variant_y0(EpsVariant::correct, x, 0.0);
    }

    v["fp16_max"] = largest_finite(kFp16);
    v["sq_256"] = 256.0 * 256.0;
    if (!std::isinf(round_to(kFp16, 256.0 * 256.0))) throw std::logic_error("256² should overflow fp16");
    double largest_ok = 0;  // the largest fp16 value whose square, rounded to fp16, is finite
    for (double x = 1.0; x < 65504.0; x = next_up(kFp16, x))
        if (!std::isinf(round_to(kFp16, x * x))) largest_ok = x;
    v["fp16_largest_sq_ok"] = largest_ok;
    v["fp16_255875_sq"] = largest_ok * largest_ok;
    if (round_to(kFp16, largest_ok * largest_ok) != 65472.0) throw std::logic_error("255.875² should round to 65472");
    v["sqrt_65504"] = std::sqrt(largest_finite(kFp16));
    v["fp16_sum_total"] = 4096.0 * 16.0;
    if (!std::isinf(round_to(kFp16, 4096.0 * 16.0))) throw std::logic_error("65536 should overflow fp16");
    v["fp16_stagnation_16"] = stagnation_point(kFp16, 16.0);
    if (sequential_sum(kFp16, 16.0, 4096) != stagnation_point(kFp16, 16.0))
        throw std::logic_error("a running fp16 sum of 4096 squares of 16 should end at its stagnation point");

    v["bf16_stagnation"] = stagnation_point(kBf16, 1.0);
    v["fp16_stagnation"] = stagnation_point(kFp16, 1.0);
    v["fp16_stagnation_4"] = stagnation_point(kFp16, 4.0);     // examples/half_dot.cu, row 1
    const double bf16_sum = sequential_sum(kBf16, 1.0, 4096);  // 4096 squares of size 1, summed in bf16
    v["bf16_mean_factor"] = 4096.0 / bf16_sum;
    v["bf16_output_factor"] = std::sqrt(4096.0 / bf16_sum);

    // Llama order rounds x·inv before the weight; one rounding at the end rounds the product only.
    const double normalized = 1.0 + std::ldexp(1.0, -8), weight = 3.0;
    v["cast_llama_first"] = round_to(kBf16, normalized);
    v["cast_llama_y"] = round_to(kBf16, round_to(kBf16, normalized) * weight);
    v["cast_once_fp32"] = static_cast<double>(static_cast<float>(normalized) * static_cast<float>(weight));
    v["cast_once_y"] = round_to(kBf16, normalized * weight);
    v["bf16_next_after_1"] = next_up(kBf16, 1.0);
}

void vector_section(Values& v) {
    v["bf16_per_16B"] = 16 / 2;
    v["warp_16B_bytes"] = 32 * 16;
    v["vec_bf16_5120"] = std::gcd(16 / 2, 5120);
    v["vec_bf16_5124"] = std::gcd(16 / 2, 5124);
    v["vec_bf16_5126"] = std::gcd(16 / 2, 5126);
    v["vec_bf16_5125"] = std::gcd(16 / 2, 5125);
    v["vec_fp32_4096"] = std::gcd(16 / 4, 4096);
    v["and_12_11"] = 12 & 11;
    v["and_8_7"] = 8 & 7;

    // The source document's address example: a row at byte address 34, then one at 32, then the short row.
    for (const std::uint64_t a : {34ull, 32ull}) {
        const std::string id = "seed_addr" + std::to_string(a);
        v[id + "_misalign"] = static_cast<double>(a & 15u);
        v[id + "_bytes"] = static_cast<double>(16 - (a & 15u));
        v[id + "_prefix_bytes"] = static_cast<double>((16 - (a & 15u)) & 15u);
        v[id + "_prefix"] = prefix_elements(a, 5120, 2);
    }
    v["seed_prefix_n2"] = prefix_elements(34, 2, 2);

    // The figure's row: bf16, N = 5125, first element 2 bytes past a 16-byte boundary.
    const std::uint64_t addr = 0x7f0000001000ull + 2;
    const int n = 5125, vec = 8;
    const int prefix = prefix_elements(addr, n, 2);
    const int rest = n - prefix, vecs = rest / vec, tail = rest - vecs * vec;
    if (prefix + vecs * vec + tail != n || (addr + 2 * prefix) % 16 != 0) throw std::logic_error("prefix/body/tail");
    v["pbt_misalign"] = static_cast<double>(addr & 15u);
    v["pbt_prefix_bytes"] = static_cast<double>((16 - (addr & 15u)) & 15u);
    v["pbt_prefix"] = prefix;
    v["pbt_rest"] = rest;
    v["pbt_body_vecs"] = vecs;
    v["pbt_body_elems"] = vecs * vec;
    v["pbt_tail"] = tail;
    if (prefix_elements(addr, 3, 2) != 3) throw std::logic_error("a 3-element row cannot have a 7-element prefix");

    const std::uint64_t stride_bytes = 5126 * 2;  // row stride of 5126 bf16 elements, buffer 16-byte aligned
    v["stride_bytes"] = static_cast<double>(stride_bytes);
    for (int r = 1; r <= 3; ++r) {
        const std::uint64_t start = r * stride_bytes;
        v["stride_row" + std::to_string(r) + "_mod"] = static_cast<double>(start & 15u);
        v["stride_row" + std::to_string(r) + "_prefix"] = prefix_elements(start, 5126, 2);
    }
    if (((4 * stride_bytes) & 15u) != 0) throw std::logic_error("row 4 should be aligned again");
}

// vLLM's launch shape for rms_norm (csrc/layernorm_kernels.cu, current rule): one block per token; threads =
// min(hidden / vec, max_block), vec = gcd(16 / element size, hidden), max_block = 1024 below 256 tokens, else 256.
int vllm_threads(int tokens, int hidden, int elem_bytes) {
    const int vec = std::gcd(16 / elem_bytes, hidden);
    const int max_block = tokens < 256 ? 1024 : 256;
    return std::min(hidden / vec, max_block);
}

// The earlier rule of the same file for rms_norm: min(hidden, 1024), one element per thread and iteration.
int vllm_threads_scalar(int hidden) { return std::min(hidden, 1024); }

// The same file's rule for fused_add_rms_norm: min(hidden, max_block), with no division by the vector width.
int vllm_threads_fused(int tokens, int hidden) { return std::min(hidden, tokens < 256 ? 1024 : 256); }

void launch_shape_section(Values& v) {
    // Section 2's worked example, after the source document on vLLM: bf16, 5 tokens, Qwen3-32B's hidden size.
    const int tokens = 5, hidden = 5120, bf16 = 2;
    const int vec = std::gcd(16 / bf16, hidden);
    v["ls_blocks"] = tokens;
    v["ls_vec"] = vec;
    v["ls_packs"] = hidden / vec;
    v["ls_threads"] = vllm_threads(tokens, hidden, bf16);
    v["ls_warps"] = vllm_threads(tokens, hidden, bf16) / 32;
    v["ls_row_bytes"] = hidden * bf16;
    v["ls_threads_many"] = vllm_threads(256, hidden, bf16);
    v["ls_packs_per_thread_many"] = static_cast<double>(hidden / vec) / vllm_threads(256, hidden, bf16);
    v["ls_iters_many"] = (hidden / vec + vllm_threads(256, hidden, bf16) - 1) / vllm_threads(256, hidden, bf16);
    v["ls_threads_old"] = vllm_threads_scalar(hidden);
    v["ls_elems_per_thread_old"] = static_cast<double>(hidden) / vllm_threads_scalar(hidden);
    v["ls_threads_fused"] = vllm_threads_fused(tokens, hidden);
    // The core exercise's fixed 256 threads on the same row: 20 elements each.
    v["ls_core_elems_per_thread"] = hidden / 256.0;
    v["ls_sm_idle"] = 132 - tokens;
}

// Copy bandwidth measured on the H200 on 2026-11-29 (docs/gpu-runs.md, that day's bandwidth run).
constexpr double kCopyBandwidth = 4.25e12;

void fusion_section(Values& v) {
    const double m = 16384, n = 4096, s = 2;
    const double unfused = 5 * m * n * s + n * s, fused = 4 * m * n * s + n * s, worst = 6 * m * n * s + n * s;
    v["fuse_mn_bytes"] = m * n * s;
    v["fuse_unfused_bytes"] = unfused;
    v["fuse_fused_bytes"] = fused;
    v["fuse_unfused_us"] = unfused / kCopyBandwidth * 1e6;
    v["fuse_fused_us"] = fused / kCopyBandwidth * 1e6;
    v["fuse_saving_pct"] = (1 - fused / unfused) * 100;
    v["fuse_saving_worst_pct"] = (1 - fused / worst) * 100;
    const float sum = 1.0f + std::ldexp(1.0f, -8);  // input 1 + residual 2^-8, added in fp32
    v["fuse_sum_fp32"] = sum;
    v["fuse_round_example"] = round_to(kBf16, sum);
}

struct Measured {
    const char* key;
    double torch, triton, cuda;
};
// Effective bandwidth in TB/s measured on one H200 on 2026-11-29, with torch and Triton beside the CUDA kernels; the
// table of lessons/04-rmsnorm/07-performance.md ("Measured on an H200") prints these values.
const Measured kMeasured[] = {
    {"fp32_16384x1024", 3.21, 3.57, 3.18}, {"fp32_16384x4096", 2.97, 3.98, 3.79}, {"fp32_16384x8192", 2.75, 4.07, 3.07},
    {"fp32_8192x16384", 2.68, 4.09, 2.71}, {"bf16_16384x4096", 3.20, 3.74, 3.41}, {"bf16_16384x8192", 2.65, 3.99, 3.02},
    {"bf16_8192x16384", 2.42, 3.43, 3.51}, {"bf16_4096x5120", 2.53, 3.14, 2.75},  {"bf16_512x8192", 0.95, 1.92, 1.50},
};

void performance_section(Values& v) {
    for (const auto& r : kMeasured) {
        v[std::string("bw_") + r.key + "_torch"] = r.torch;
        v[std::string("bw_") + r.key + "_triton"] = r.triton;
        v[std::string("bw_") + r.key + "_cuda"] = r.cuda;
    }
    const double m = 16384, n = 4096, s = 2;
    const double bytes = 2 * m * n * s + n * s;  // read x, write y, read w
    v["roof_bytes"] = bytes;
    v["roof_tmin_us"] = bytes / kCopyBandwidth * 1e6;
    v["roof_vec8_us"] = bytes / 3.41e12 * 1e6;
    v["roof_vec8_pct"] = 3.41e12 / kCopyBandwidth * 100;
    double best_triton = 0, torch_min = 1e9, torch_max = 0, gain_min = 1e9, gain_max = 0;
    for (const auto& r : kMeasured) {
        best_triton = std::max(best_triton, r.triton);
        if (std::string(r.key) == "bf16_512x8192") continue;  // the small-batch shape is discussed on its own
        torch_min = std::min(torch_min, r.torch);
        torch_max = std::max(torch_max, r.torch);
        const double gain = (std::max(r.triton, r.cuda) / r.torch - 1) * 100;
        gain_min = std::min(gain_min, gain);
        gain_max = std::max(gain_max, gain);
    }
    v["roof_triton_best_pct"] = best_triton * 1e12 / kCopyBandwidth * 100;
    v["torch_large_min"] = torch_min;
    v["torch_large_max"] = torch_max;
    v["special_gain_min_pct"] = gain_min;
    v["special_gain_max_pct"] = gain_max;

    v["row_bytes_fp32_16384"] = 16384.0 * 4;
    const double sms = 132, blocks_per_sm = 2048 / 256;  // 2048 resident threads per SM, blocks of 256
    v["rows_in_flight"] = sms * blocks_per_sm;
    v["inflight_mib"] = sms * blocks_per_sm * 16384 * 4 / (1024.0 * 1024.0);
    v["twopass_traffic_ratio"] = 3.0 / 2.0;

    const double sm = 512, sn = 8192;
    v["small_bytes"] = 2 * sm * sn * s + sn * s;
    v["small_tmin_us"] = (2 * sm * sn * s + sn * s) / kCopyBandwidth * 1e6;

    const int cliff_n = 2176, block = 256;
    v["cliff_pow2"] = next_pow2(cliff_n);
    v["cliff_used_pct"] = 100.0 * cliff_n / next_pow2(cliff_n);
    v["cliff_waste_pct"] = 100.0 * (next_pow2(cliff_n) - cliff_n) / next_pow2(cliff_n);
    const int iters = (cliff_n + block - 1) / block;
    v["cliff_stride_iters_2048"] = (2048 + block - 1) / block;
    v["cliff_stride_iters"] = iters;
    v["cliff_stride_util_pct"] = 100.0 * cliff_n / (iters * block);
    // The source benchmark's Triton kernel: 128 threads (4 warps) striding over the row, on 2 x 256 rows.
    v["cliff_128_iters_2048"] = (2048 + 127) / 128;
    v["cliff_128_iters"] = (cliff_n + 127) / 128;
    v["cliff_128_util_pct"] = 100.0 * cliff_n / (((cliff_n + 127) / 128) * 128);
    v["cliff_rows"] = 2 * 256;
    // rmsnorm_fast's launcher: the smallest (threads, items) tile of its list that holds the row.
    const int tiles[][2] = {{256, 1}, {256, 2}, {256, 4}, {256, 8}, {512, 8}, {1024, 8}, {1024, 16}};
    for (const auto& t : tiles)
        if (t[0] * t[1] >= cliff_n) {
            v["fast_tile_2176"] = t[0] * t[1];
            break;
        }
    v["idle_8_256"] = 256 - 8;
    v["idle_768_1024"] = 1024 - 768;

    v["zeros_factor"] = 3.0 / 2.0;  // output zero-filled (MNs) on top of read x + write y (2MNs)
    v["l2_one_tensor"] = sm * sn * s;
    v["l2_pair_mib"] = 2 * sm * sn * s / (1024.0 * 1024.0);
    v["l2_rotation_mib"] = 8 * 2 * sm * sn * s / (1024.0 * 1024.0);
}

void answers(Values& v) {
    v["q2_factor_4096"] = std::pow(4096.0, 0.25);
    v["q2_factor_5120"] = std::pow(5120.0, 0.25);
    v["q2_wrong_y0"] = sqrt_n_mistake_y0({3, 4}, {1, 2});
}

}  // namespace

std::map<std::string, double> computed_values() {
    Values v;
    math_section(v);
    two_pass_and_reduction_sections(v);
    precision_section(v);
    vector_section(v);
    launch_shape_section(v);
    fusion_section(v);
    performance_section(v);
    answers(v);
    return v;
}

}  // namespace lesson_test
