#include "bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "state.hpp"

namespace wb::testkit {

namespace {

double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (static_cast<double>(v[n / 2 - 1]) + v[n / 2]);
}

}  // namespace

wb::remote::Timing bandwidth_timing(std::uint64_t bytes_moved, std::uint32_t repeats) {
    return {repeats, bytes_moved / 2};
}

Bandwidth bandwidth_of_last_call(std::uint64_t bytes_moved) {
    Bandwidth b;
    const auto& call = wb::remote::last_call();
    const auto& r = call.reply;
    if (!call.answered) b.why_not = "the worker did not answer";
    else if (!r.timing_error.empty()) b.why_not = r.timing_error;
    else if (r.kernel_ms.empty() || r.copy_ms.size() != r.kernel_ms.size()) b.why_not = "the worker sent no times";
    if (!b.why_not.empty()) return b;
    b.kernel_ms = median(r.kernel_ms);
    b.copy_ms = median(r.copy_ms);
    // A time the worker made up can be anything: only a positive, finite pair makes a measurement.
    if (!(b.kernel_ms > 0) || !(b.copy_ms > 0) || !std::isfinite(b.kernel_ms) || !std::isfinite(b.copy_ms)) {
        b.why_not = "the times were not positive";
        return b;
    }
    b.kernel_tb_per_s = static_cast<double>(bytes_moved) / (b.kernel_ms * 1e-3) / 1e12;
    b.copy_tb_per_s = static_cast<double>(bytes_moved / 2 * 2) / (b.copy_ms * 1e-3) / 1e12;
    b.fraction_of_copy = b.kernel_tb_per_s / b.copy_tb_per_s;
    b.measured = true;
    return b;
}

void record_bandwidth(const std::string& shape, const std::string& dtype, std::uint64_t bytes_moved,
                      const Bandwidth& b) {
    nlohmann::json m = {{"kind", "bandwidth"},    {"shape", shape},
                        {"dtype", dtype},         {"bytes", bytes_moved},
                        {"measured", b.measured}, {"measured_by", "the worker (the submission's own process)"}};
    if (b.measured) {
        m["kernel_ms"] = b.kernel_ms;
        m["copy_ms"] = b.copy_ms;
        m["kernel_tb_per_s"] = b.kernel_tb_per_s;
        m["copy_tb_per_s"] = b.copy_tb_per_s;
        m["fraction_of_copy"] = b.fraction_of_copy;
    } else {
        m["why_not"] = b.why_not;
    }
    wb::state::record_measurement(std::move(m));
}

}  // namespace wb::testkit
