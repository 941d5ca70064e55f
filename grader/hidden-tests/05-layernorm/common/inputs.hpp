// Input patterns of the hidden tests. A pattern fills logical rows (M x N, row-major, as doubles), the weight and
// the bias; the runners round them to the storage type, so the references see exactly what the kernel reads.
#pragma once

#include <functional>
#include <vector>

#include "testkit/rng.hpp"

namespace wb05 {

using wb::testkit::Rng;

struct Tensors {
    std::vector<double> x, w, b;   // x: M x N; w, b: N
    std::vector<double> residual;  // fused add only: M x N
};
using Fill = std::function<void(Rng& rng, int M, int N, Tensors& t)>;

// x ~ mean + spread * N(0,1), w ~ N(0,1), b ~ N(0,1) (and for the fused add, residual ~ N(0,1)).
Fill normal_inputs(double spread = 1.0, double mean = 0.0);
// Row r: its own mean and spread, (means[r % size], spreads[r % size]): rows must not share statistics.
Fill row_scaled_inputs(std::vector<double> means, std::vector<double> spreads);
// base, then the listed rows set to the constant c (variance exactly 0: eps alone keeps rstd finite).
Fill with_constant_rows(Fill base, std::vector<int> rows, double c);
// base, then one element of a row set to value (NaN, Inf).
Fill with_value(Fill base, int row, int column, double value);
// base, with the bias set to zero: what the output is without a bias (the roofline's bias-free case).
Fill without_bias(Fill base);
// Fused add: base, then on the listed rows residual = -input, so the sum is exactly 0.
Fill with_zero_sum_rows(Fill base, std::vector<int> rows);

}  // namespace wb05
