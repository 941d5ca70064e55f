// The check kernel's half of a verdict (verdict.h): each thread adds what it found once.
#pragma once

#include "verdict.h"

namespace bench {

__device__ __forceinline__ void add_to_verdict(CheckCounters c, unsigned long long my_bad, float my_worst) {
    if (my_bad) atomicAdd(c.bad, my_bad);
    atomicMax(c.worst_bits, __float_as_uint(my_worst));
}

}  // namespace bench
