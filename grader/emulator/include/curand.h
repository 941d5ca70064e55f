// cuRAND's host API for emulator builds (header-only: -lcurand needs nothing): pseudo-random generators that fill
// device memory (curandCreateGenerator) or host memory (curandCreateGeneratorHost) with 32-bit integers, uniform
// floats and doubles in (0, 1], and normal floats and doubles, with cuRAND's argument checks and status codes. Every
// pseudo-random type runs one XORWOW sequence (curand_kernel.h: curand_init(seed, 0, offset)) in order: the numbers
// have cuRAND's distributions but are not the values NVIDIA's library gives for the same seed, which interleaves many
// sequences on the GPU. Quasi-random generators (Sobol) are CURAND_STATUS_TYPE_ERROR after a message.
#pragma once
#include <cstddef>
#include <cstdio>
#include <vector>

#include <curand_kernel.h>

typedef enum curandStatus {
    CURAND_STATUS_SUCCESS = 0,
    CURAND_STATUS_VERSION_MISMATCH = 100,
    CURAND_STATUS_NOT_INITIALIZED = 101,
    CURAND_STATUS_ALLOCATION_FAILED = 102,
    CURAND_STATUS_TYPE_ERROR = 103,
    CURAND_STATUS_OUT_OF_RANGE = 104,
    CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
    CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
    CURAND_STATUS_LAUNCH_FAILURE = 201,
    CURAND_STATUS_PREEXISTING_FAILURE = 202,
    CURAND_STATUS_INITIALIZATION_FAILED = 203,
    CURAND_STATUS_ARCH_MISMATCH = 204,
    CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
    CURAND_RNG_TEST = 0,
    CURAND_RNG_PSEUDO_DEFAULT = 100,
    CURAND_RNG_PSEUDO_XORWOW = 101,
    CURAND_RNG_PSEUDO_MRG32K3A = 121,
    CURAND_RNG_PSEUDO_MTGP32 = 141,
    CURAND_RNG_PSEUDO_MT19937 = 142,
    CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    CURAND_RNG_QUASI_DEFAULT = 200,
    CURAND_RNG_QUASI_SOBOL32 = 201,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    CURAND_RNG_QUASI_SOBOL64 = 203,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;
typedef curandRngType_t curandRngType;

struct curandGenerator_st {
    bool host;  // curandCreateGeneratorHost: the outputs are host memory
    unsigned long long seed = 0, offset = 0;
    cudaStream_t stream = nullptr;
    curandStateXORWOW state{};
    bool seeded = false;
};
typedef curandGenerator_st* curandGenerator_t;

namespace emu::curand {

inline curandStatus_t create(curandGenerator_t* gen, curandRngType_t type, bool host) {
    if (!gen) return CURAND_STATUS_NOT_INITIALIZED;
    if (type >= CURAND_RNG_QUASI_DEFAULT || type == CURAND_RNG_TEST) {
        std::fprintf(stderr, "emu: cuRAND generator type %d: only the pseudo-random generators are emulated\n",
                     static_cast<int>(type));
        return CURAND_STATUS_TYPE_ERROR;
    }
    *gen = new curandGenerator_st{};
    (*gen)->host = host;
    return CURAND_STATUS_SUCCESS;
}

// The generator's state at its current position: (re)seeded on the first use after a seed or offset change.
inline curandStateXORWOW& state(curandGenerator_t g) {
    if (!g->seeded) {
        curand_init(g->seed, 0, g->offset, &g->state);
        g->seeded = true;
    }
    return g->state;
}

template <class T, class Draw>
curandStatus_t fill(curandGenerator_t g, T* out, std::size_t n, Draw draw) {
    if (!g) return CURAND_STATUS_NOT_INITIALIZED;
    if (n == 0) return CURAND_STATUS_SUCCESS;
    if (!out) return CURAND_STATUS_LAUNCH_FAILURE;
    std::vector<T> values(n);
    curandStateXORWOW& s = state(g);
    for (std::size_t i = 0; i < n; ++i) values[i] = draw(s);
    if (g->host) {
        for (std::size_t i = 0; i < n; ++i) out[i] = values[i];
        return CURAND_STATUS_SUCCESS;
    }
    return cudaMemcpyAsync(out, values.data(), n * sizeof(T), cudaMemcpyHostToDevice, g->stream) == cudaSuccess
               ? CURAND_STATUS_SUCCESS
               : CURAND_STATUS_LAUNCH_FAILURE;
}

}  // namespace emu::curand

inline curandStatus_t curandCreateGenerator(curandGenerator_t* gen, curandRngType_t type) {
    return emu::curand::create(gen, type, false);
}
inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t* gen, curandRngType_t type) {
    return emu::curand::create(gen, type, true);
}
inline curandStatus_t curandDestroyGenerator(curandGenerator_t gen) {
    if (!gen) return CURAND_STATUS_NOT_INITIALIZED;
    delete gen;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t gen, unsigned long long seed) {
    if (!gen) return CURAND_STATUS_NOT_INITIALIZED;
    gen->seed = seed;
    gen->seeded = false;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOffset(curandGenerator_t gen, unsigned long long offset) {
    if (!gen) return CURAND_STATUS_NOT_INITIALIZED;
    gen->offset = offset;
    gen->seeded = false;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetStream(curandGenerator_t gen, cudaStream_t stream) {
    if (!gen) return CURAND_STATUS_NOT_INITIALIZED;
    gen->stream = stream;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateSeeds(curandGenerator_t gen) {
    return gen ? (emu::curand::state(gen), CURAND_STATUS_SUCCESS) : CURAND_STATUS_NOT_INITIALIZED;
}
inline curandStatus_t curandGetVersion(int* version) {
    if (!version) return CURAND_STATUS_OUT_OF_RANGE;
    *version = 10307;
    return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerate(curandGenerator_t gen, unsigned int* out, std::size_t n) {
    return emu::curand::fill(gen, out, n, [](curandStateXORWOW& s) { return curand(&s); });
}
inline curandStatus_t curandGenerateUniform(curandGenerator_t gen, float* out, std::size_t n) {
    return emu::curand::fill(gen, out, n, [](curandStateXORWOW& s) { return curand_uniform(&s); });
}
inline curandStatus_t curandGenerateUniformDouble(curandGenerator_t gen, double* out, std::size_t n) {
    return emu::curand::fill(gen, out, n, [](curandStateXORWOW& s) { return curand_uniform_double(&s); });
}
// cuRAND makes normal numbers in pairs: an odd count is CURAND_STATUS_LENGTH_NOT_MULTIPLE.
inline curandStatus_t curandGenerateNormal(curandGenerator_t gen, float* out, std::size_t n, float mean, float stddev) {
    if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return emu::curand::fill(gen, out, n, [=](curandStateXORWOW& s) { return mean + stddev * curand_normal(&s); });
}
inline curandStatus_t curandGenerateNormalDouble(curandGenerator_t gen, double* out, std::size_t n, double mean,
                                                 double stddev) {
    if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return emu::curand::fill(gen, out, n,
                             [=](curandStateXORWOW& s) { return mean + stddev * curand_normal_double(&s); });
}
