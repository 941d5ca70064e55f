// Input patterns of the hidden tests. A pattern fills logical rows (M x N, row-major, as doubles) and the weight;
// the runners round them to the storage type, so the references see exactly what the kernel reads.
#pragma once

#include <functional>
#include <vector>

#include "testkit/rng.hpp"

namespace wb04 {

// The shared hidden-test toolkit (grader/hidden-tests/testkit/), by its names.
using namespace wb::testkit;

using Fill = std::function<void(Rng& rng, int M, int N, std::vector<double>& x, std::vector<double>& w)>;
using FusedFill = std::function<void(Rng& rng, int M, int N, std::vector<double>& input, std::vector<double>& residual,
                                     std::vector<double>& w)>;

// x ~ scale * N(0,1), w ~ N(0,1).
Fill normal_inputs(double scale = 1.0);
// Row r scaled by scales[r % size]: rows far apart in magnitude must not share anything.
Fill row_scaled_inputs(std::vector<double> scales);
// base, then the listed rows set to zero.
Fill with_zero_rows(Fill base, std::vector<int> rows);
// base, then one element of a row set to value (NaN, Inf).
Fill with_value(Fill base, int row, int column, double value);
// x ~ mean + spread * N(0,1) (all one sign when mean >> spread: no cancellation, long sums grow steadily).
Fill offset_inputs(double mean, double spread);

// input ~ a * N(0,1), residual ~ b * N(0,1), w ~ N(0,1).
FusedFill normal_fused_inputs(double a = 1.0, double b = 1.0);
FusedFill fused_with_zero_sum_rows(FusedFill base, std::vector<int> rows);  // residual = -input on those rows
FusedFill fused_with_value(FusedFill base, bool in_residual, int row, int column, double value);

}  // namespace wb04
