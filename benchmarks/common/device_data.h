// What every lesson's benchmark needs on the device besides its kernels: the element types, fresh random inputs, a
// poisoned output, the tolerance of each type and the copy that is the roofline. Host interface; every lesson's driver
// (benchmarks/<lesson>/bench/) links device_data.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace bench {

enum class Dtype { fp32, bf16, fp16 };

const char* dtype_name(Dtype d);
int dtype_bytes(Dtype d);

// Fills n elements with mean + scale * (a normal deviate), from a counter-based hash of (seed, index): fresh,
// reproducible, never zeros.
void fill_normal(Dtype dtype, void* p, size_t n, uint64_t seed, float mean, float scale);

// Sets every byte to 0xff: a NaN in fp32, bf16 and fp16, so that an element the kernel never wrote fails the check.
void poison(void* p, size_t bytes);

// The tolerance: rtol covers the roundings of the 16-bit contracts (2.5 units in the last place), or fp32
// accumulation over the row.
double rtol_for(Dtype dtype);

}  // namespace bench
