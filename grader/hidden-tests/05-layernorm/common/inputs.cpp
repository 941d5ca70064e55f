#include "inputs.hpp"

namespace wb05 {

namespace {
std::size_t at(int r, int N, int c) { return static_cast<std::size_t>(r) * N + c; }
}  // namespace

Fill normal_inputs(double spread, double mean) {
    return [spread, mean](Rng& rng, int M, int N, Tensors& t) {
        t.x.resize(static_cast<std::size_t>(M) * N);
        t.residual.resize(t.x.size());
        t.w.resize(N);
        t.b.resize(N);
        for (auto& v : t.x) v = mean + spread * rng.normal();
        for (auto& v : t.w) v = rng.normal();
        for (auto& v : t.b) v = rng.normal();
        for (auto& v : t.residual) v = rng.normal();
    };
}

Fill row_scaled_inputs(std::vector<double> means, std::vector<double> spreads) {
    return [means, spreads](Rng& rng, int M, int N, Tensors& t) {
        normal_inputs()(rng, M, N, t);
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < N; ++c)
                t.x[at(r, N, c)] = means[r % means.size()] + spreads[r % spreads.size()] * t.x[at(r, N, c)];
    };
}

Fill with_constant_rows(Fill base, std::vector<int> rows, double c) {
    return [base, rows, c](Rng& rng, int M, int N, Tensors& t) {
        base(rng, M, N, t);
        for (int r : rows)
            for (int col = 0; col < N; ++col) t.x[at(r, N, col)] = c;
    };
}

Fill with_value(Fill base, int row, int column, double value) {
    return [base, row, column, value](Rng& rng, int M, int N, Tensors& t) {
        base(rng, M, N, t);
        t.x[at(row, N, column)] = value;
    };
}

Fill without_bias(Fill base) {
    return [base](Rng& rng, int M, int N, Tensors& t) {
        base(rng, M, N, t);
        for (auto& v : t.b) v = 0.0;
    };
}

Fill with_zero_sum_rows(Fill base, std::vector<int> rows) {
    return [base, rows](Rng& rng, int M, int N, Tensors& t) {
        base(rng, M, N, t);
        for (int r : rows)
            for (int c = 0; c < N; ++c) t.residual[at(r, N, c)] = -t.x[at(r, N, c)];
    };
}

}  // namespace wb05
