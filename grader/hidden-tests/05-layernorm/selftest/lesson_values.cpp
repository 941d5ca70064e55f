// Every number of the lesson 05 text that a program can compute. The fp32 values are computed in fp32 (volatile
// stores force each intermediate to be rounded to float, whatever the compiler's evaluation method), so the text's
// "what fp32 gets" is what a kernel doing the same operations in the same order gets.
#include "lesson_values.hpp"

#include <cmath>

namespace lesson05 {

namespace {

float f32(float v) {
    volatile float r = v;
    return r;
}

}  // namespace

std::map<std::string, double> computed_values() {
    std::map<std::string, double> v;

    // ---- The row by hand of section 1: x = 1, 2, 3, 6; w = 1, 1, 2, 2; b = 0, 0, 0, 1; eps neglected -------------------
    {
        const double dx[4] = {1, 2, 3, 6}, dw[4] = {1, 1, 2, 2}, db[4] = {0, 0, 0, 1};
        double m = 0, s2 = 0;
        for (double e : dx) m += e / 4;
        for (double e : dx) s2 += (e - m) * (e - m) / 4;
        v["def_mean"] = m;
        v["def_var"] = s2;
        v["def_rstd"] = 1 / std::sqrt(s2);
        for (int i = 0; i < 4; ++i) v["def_y" + std::to_string(i)] = (dx[i] - m) / std::sqrt(s2) * dw[i] + db[i];
    }

    // ---- The worked example of section 2: x = 10000, 10001, 10002, 10003; w = 1, b = 0; eps = 1e-5 -------------------
    const double x[4] = {10000, 10001, 10002, 10003};
    const double eps = 1e-5;
    double sum = 0, sq = 0;
    for (double e : x) sum += e, sq += e * e;
    const double mean = sum / 4, mean_sq = sq / 4;
    double var = 0;
    for (double e : x) var += (e - mean) * (e - mean);
    var /= 4;
    v["ex_mean"] = mean;
    v["ex_var"] = var;
    v["ex_mean_sq"] = mean_sq;
    v["ex_mean_squared"] = mean * mean;
    v["ex_ratio"] = mean_sq / var;
    v["ex_digits"] = std::log10(mean_sq / var);

    // The one-pass formula in fp32, summing in the order of the row.
    float fsum = 0, fsq = 0;
    for (double e : x) {
        const float xf = static_cast<float>(e);
        fsum = f32(fsum + xf);
        fsq = f32(fsq + f32(xf * xf));
    }
    v["ex_sq0_f32"] = f32(10000.0f * 10000.0f);
    v["ex_sq1_f32"] = f32(10001.0f * 10001.0f);
    v["ex_sq2_f32"] = f32(10002.0f * 10002.0f);
    v["ex_sq3_f32"] = f32(10003.0f * 10003.0f);
    v["ex_sq1"] = 10001.0 * 10001.0;
    v["ex_sq2"] = 10002.0 * 10002.0;
    v["ex_sq3"] = 10003.0 * 10003.0;
    v["ex_sq_sum_f32"] = fsq;
    v["ex_sq_sum"] = sq;
    const float fmean = f32(fsum / 4.0f);
    const float fmean_sq = f32(fsq / 4.0f);
    const float fmean2 = f32(fmean * fmean);
    v["ex_mean_f32"] = fmean;
    v["ex_mean_sq_f32"] = fmean_sq;
    v["ex_mean_squared_f32"] = fmean2;
    const float fvar_naive = f32(fmean_sq - fmean2);
    v["ex_var_naive_f32"] = fvar_naive;
    v["ex_ulp_1e8"] = std::nextafter(1e8f, 2e8f) - 1e8f;  // the spacing of floats near 10^8
    const float frstd_naive = f32(1.0f / std::sqrt(f32(fvar_naive + static_cast<float>(eps))));
    v["ex_rstd_naive_f32"] = frstd_naive;
    v["ex_y0_naive_f32"] = f32(f32(static_cast<float>(x[0]) - fmean) * frstd_naive);

    // The two-pass formula in fp32: the distances are small integers and halves, exact in fp32.
    float fsq_c = 0;
    for (double e : x) {
        const float d = f32(static_cast<float>(e) - fmean);
        fsq_c = f32(fsq_c + f32(d * d));
    }
    v["ex_sq_centered_f32"] = fsq_c;
    v["ex_var_two_pass_f32"] = f32(fsq_c / 4.0f);
    v["ex_rstd"] = 1.0 / std::sqrt(var + eps);
    v["ex_y0"] = (x[0] - mean) / std::sqrt(var + eps);
    v["ex_y3"] = (x[3] - mean) / std::sqrt(var + eps);

    // ---- Chan's merge, section 4: a = {0, 2}, b = {5} ----------------------------------------------------------------
    const double a_n = 2, a_mean = 1, a_m2 = 2, b_n = 1, b_mean = 5, b_m2 = 0;
    const double n = a_n + b_n, delta = b_mean - a_mean;
    v["chan_delta"] = delta;
    v["chan_mean"] = a_mean + delta * b_n / n;
    v["chan_m2"] = a_m2 + b_m2 + delta * delta * a_n * b_n / n;
    v["chan_correction"] = delta * delta * a_n * b_n / n;
    const double u[3] = {0, 2, 5};
    double um = 0, um2 = 0;
    for (double e : u) um += e / 3;
    for (double e : u) um2 += (e - um) * (e - um);
    v["chan_direct_m2"] = um2;
    v["chan_wrong_mean"] = (a_mean + b_mean) / 2;
    v["chan_var"] = um2 / 3;

    // ---- The roofline, section 7: M = 16384 rows of N = 4096, bf16 (2 bytes), H200 copy bandwidth 4.25 TB/s --------
    const double M = 16384, N = 4096, bytes = 2, copy_bw = 4.25e12;
    v["rf_row_bytes"] = 2 * N * bytes;                    // x read once, y written once
    v["rf_access_nobias"] = 3 * N * bytes;                // x, w, y per row
    v["rf_access_bias"] = 4 * N * bytes;                  // x, w, b, y per row
    v["rf_dram_nobias"] = 2 * M * N * bytes + N * bytes;  // w read from DRAM once, then from L2
    v["rf_dram_bias"] = 2 * M * N * bytes + 2 * N * bytes;
    v["rf_time_us"] = v["rf_dram_bias"] / copy_bw * 1e6;
    v["rf_fused_bytes"] = 4 * M * N * bytes + 2 * N * bytes;  // input, residual read; residual, output written
    v["rf_fused_us"] = v["rf_fused_bytes"] / copy_bw * 1e6;
    v["rf_unfused_bytes"] = 3 * M * N * bytes + v["rf_dram_bias"];  // add kernel: 2 reads + 1 write; then LayerNorm
    v["rf_unfused_us"] = v["rf_unfused_bytes"] / copy_bw * 1e6;
    v["rf_cache_regs"] = 4 * 8 * bytes / 4;  // 4 packs of 8 bf16 per thread, in 32-bit registers
    return v;
}

}  // namespace lesson05
