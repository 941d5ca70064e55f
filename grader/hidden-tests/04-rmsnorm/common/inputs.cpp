#include "inputs.hpp"

namespace wb04 {

Fill normal_inputs(double scale) {
    return [scale](Rng& rng, int M, int N, std::vector<double>& x, std::vector<double>& w) {
        x.resize(static_cast<std::size_t>(M) * N);
        w.resize(N);
        for (auto& v : x) v = scale * rng.normal();
        for (auto& v : w) v = rng.normal();
    };
}

Fill row_scaled_inputs(std::vector<double> scales) {
    return [scales](Rng& rng, int M, int N, std::vector<double>& x, std::vector<double>& w) {
        normal_inputs()(rng, M, N, x, w);
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < N; ++c) x[static_cast<std::size_t>(r) * N + c] *= scales[r % scales.size()];
    };
}

Fill with_zero_rows(Fill base, std::vector<int> rows) {
    return [base, rows](Rng& rng, int M, int N, std::vector<double>& x, std::vector<double>& w) {
        base(rng, M, N, x, w);
        for (int r : rows)
            for (int c = 0; c < N; ++c) x[static_cast<std::size_t>(r) * N + c] = 0.0;
    };
}

Fill with_value(Fill base, int row, int column, double value) {
    return [base, row, column, value](Rng& rng, int M, int N, std::vector<double>& x, std::vector<double>& w) {
        base(rng, M, N, x, w);
        x[static_cast<std::size_t>(row) * N + column] = value;
    };
}

Fill offset_inputs(double mean, double spread) {
    return [mean, spread](Rng& rng, int M, int N, std::vector<double>& x, std::vector<double>& w) {
        normal_inputs()(rng, M, N, x, w);
        for (auto& v : x) v = mean + spread * v;
    };
}

FusedFill normal_fused_inputs(double a, double b) {
    return [a, b](Rng& rng, int M, int N, std::vector<double>& in, std::vector<double>& res, std::vector<double>& w) {
        in.resize(static_cast<std::size_t>(M) * N);
        res.resize(in.size());
        w.resize(N);
        for (auto& v : in) v = a * rng.normal();
        for (auto& v : res) v = b * rng.normal();
        for (auto& v : w) v = rng.normal();
    };
}

FusedFill fused_with_zero_sum_rows(FusedFill base, std::vector<int> rows) {
    return [base, rows](Rng& rng, int M, int N, std::vector<double>& in, std::vector<double>& res,
                        std::vector<double>& w) {
        base(rng, M, N, in, res, w);
        for (int r : rows)
            for (int c = 0; c < N; ++c)
                res[static_cast<std::size_t>(r) * N + c] = -in[static_cast<std::size_t>(r) * N + c];
    };
}

FusedFill fused_with_value(FusedFill base, bool in_residual, int row, int column, double value) {
    return [=](Rng& rng, int M, int N, std::vector<double>& in, std::vector<double>& res, std::vector<double>& w) {
        base(rng, M, N, in, res, w);
        (in_residual ? res : in)[static_cast<std::size_t>(row) * N + column] = value;
    };
}

}  // namespace wb04
