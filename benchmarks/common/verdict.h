// The verdict of a lesson's fp64 check of a kernel on the device (benchmarks/<lesson>/bench/check.cu): the check
// kernel's threads add to two device counters, which the host then reads as one result. Host interface; the
// threads' half is verdict.cuh.
#pragma once

namespace bench {

struct CheckResult {
    unsigned long long bad;  // elements outside the tolerance (NaN included), residual elements that differ
    double worst;            // largest |got - ref| / (atol + rtol |ref|); > 1 means wrong
};

// Device counters: elements found wrong, and the worst ratio as the bit pattern of a non-negative float (such
// floats order like their patterns, so atomicMax keeps the largest).
struct CheckCounters {
    unsigned long long* bad = nullptr;
    unsigned* worst_bits = nullptr;
};

// Allocated and zeroed, for one check kernel.
CheckCounters new_check_counters();
// After the check kernel (the copy waits for it): what it counted. Frees the counters.
CheckResult take_check_result(CheckCounters c);

}  // namespace bench
