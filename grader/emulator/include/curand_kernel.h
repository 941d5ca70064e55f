// cuRAND's device API for emulator builds: the XORWOW generator (curandState, curandStateXORWOW_t) as the cuRAND
// documentation and its header define it: the state seeded from the 64-bit seed, advanced by 2^67 numbers per
// subsequence and by `offset` numbers, the xorshift step with its Weyl counter, curand_uniform in (0, 1],
// curand_normal by the Box-Muller transform (two numbers per pair, the second kept for the next call), and their
// double forms. The skips are computed here as powers of the generator's linear map over GF(2) (cuRAND's header
// keeps them as precomputed tables), so a thread's numbers follow from (seed, subsequence, offset) alone, in any thread
// order. The same header is usable from host code (cuRAND's host API of emulator builds, curand.h, runs on it).
// Not emulated: the other generators' states (Philox, MRG32k3a, MTGP32, Sobol), curand_log_normal, curand_poisson.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>

#include <cuda_runtime.h>

struct curandStateXORWOW {
    unsigned int d, v[5];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW curandState_t;
typedef curandStateXORWOW curandState;

namespace emu::curand {

// The skips' arithmetic works on local copies and static tables: compiled optimized and without the memory checker's
// instrumentation (the program's own accesses to its states stay checked), since an -O0 instrumented 160-bit matrix
// product per thread would make curand_init of a large grid take minutes.
#define EMU_CURAND_FAST __attribute__((no_sanitize("thread"), optimize("O2")))

// The XORWOW step on v[0..4] is linear over GF(2): a 160 x 160 bit matrix, row r a 160-bit mask (5 words) of the
// input bits that make output bit r.
struct Matrix {
    std::uint32_t row[160][5];
};

inline void step(std::uint32_t (&v)[5]) {
    const std::uint32_t t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

EMU_CURAND_FAST inline void apply(const Matrix& m, std::uint32_t (&v)[5]) {
    std::uint32_t out[5] = {0, 0, 0, 0, 0};
    for (int r = 0; r < 160; ++r) {
        std::uint32_t acc = 0;
        for (int w = 0; w < 5; ++w) acc ^= m.row[r][w] & v[w];
        acc = static_cast<std::uint32_t>(__builtin_popcount(acc) & 1);
        out[r / 32] |= acc << (r % 32);
    }
    std::memcpy(v, out, sizeof out);
}

// a * b (apply b, then a).
EMU_CURAND_FAST inline Matrix multiply(const Matrix& a, const Matrix& b) {
    Matrix c{};
    for (int r = 0; r < 160; ++r)
        for (int k = 0; k < 160; ++k)
            if ((a.row[r][k / 32] >> (k % 32)) & 1u)
                for (int w = 0; w < 5; ++w) c.row[r][w] ^= b.row[k][w];
    return c;
}

// powers[i] = M^(2^i) for i < 128: the step matrix squared i times (2^67 numbers per subsequence, 64-bit counts).
// Built by a named function, not a lambda: a lambda is a function of its own that does not take EMU_CURAND_FAST's
// attributes, and its instrumented reads of the table (host memory) would be refused inside a kernel.
EMU_CURAND_FAST inline Matrix* build_powers() {
    auto* t = new Matrix[128];
    for (int col = 0; col < 160; ++col) {  // the step's matrix, column by column: the image of each basis vector
        std::uint32_t v[5] = {0, 0, 0, 0, 0};
        v[col / 32] = 1u << (col % 32);
        step(v);
        for (int r = 0; r < 160; ++r)
            if ((v[r / 32] >> (r % 32)) & 1u) t[0].row[r][col / 32] |= 1u << (col % 32);
    }
    for (int i = 1; i < 128; ++i) t[i] = multiply(t[i - 1], t[i - 1]);
    return t;
}
EMU_CURAND_FAST inline const Matrix* powers() {
    static Matrix* table = build_powers();
    return table;
}

// v advanced by n * 2^shift steps.
EMU_CURAND_FAST inline void skip(std::uint32_t (&v)[5], unsigned long long n, int shift) {
    static std::mutex m;  // the table is built once, by whichever host thread or fiber asks first
    const Matrix* p;
    {
        std::lock_guard<std::mutex> lock(m);
        p = powers();
    }
    for (int i = 0; n != 0; ++i, n >>= 1)
        if (n & 1) apply(p[i + shift], v);
}

constexpr float kTwoPow32Inv = 2.3283064e-10f;
constexpr float kTwoPow32Inv2Pi = 2.3283064e-10f * 6.2831855f;
constexpr double kTwoPow32InvDouble = 2.3283064365386963e-10;
constexpr double kTwoPow53Inv = 1.1102230246251565e-16;
constexpr double kTwoPi = 6.2831853071795860;
#undef EMU_CURAND_FAST

}  // namespace emu::curand

inline unsigned int curand(curandStateXORWOW* state) {
    std::uint32_t v[5];
    std::memcpy(v, state->v, sizeof v);
    emu::curand::step(v);
    std::memcpy(state->v, v, sizeof v);
    state->d += 362437;
    return v[4] + state->d;
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW* state) {
    const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
    const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
    const unsigned int t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    state->d = 6615241u + t1 + t0;
    state->v[0] = 123456789u + t0;
    state->v[1] = 362436069u ^ t0;
    state->v[2] = 521288629u + t1;
    state->v[3] = 88675123u ^ t1;
    state->v[4] = 5783321u + t0;
    std::uint32_t v[5];
    std::memcpy(v, state->v, sizeof v);
    emu::curand::skip(v, subsequence, 67);
    emu::curand::skip(v, offset, 0);
    std::memcpy(state->v, v, sizeof v);
    state->d += static_cast<unsigned int>(offset) * 362437u;
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.f;
    state->boxmuller_extra_double = 0.;
}

inline void skipahead(unsigned long long n, curandStateXORWOW* state) {
    std::uint32_t v[5];
    std::memcpy(v, state->v, sizeof v);
    emu::curand::skip(v, n, 0);
    std::memcpy(state->v, v, sizeof v);
    state->d += static_cast<unsigned int>(n) * 362437u;
}
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW* state) {
    std::uint32_t v[5];
    std::memcpy(v, state->v, sizeof v);
    emu::curand::skip(v, n, 67);
    std::memcpy(state->v, v, sizeof v);
}

// (0, 1]: x / 2^32 plus half a step.
inline float curand_uniform(curandStateXORWOW* state) {
    return curand(state) * emu::curand::kTwoPow32Inv + (emu::curand::kTwoPow32Inv / 2.0f);
}
inline double curand_uniform_double(curandStateXORWOW* state) {
    const unsigned int x = curand(state), y = curand(state);
    const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
    return z * emu::curand::kTwoPow53Inv + (emu::curand::kTwoPow53Inv / 2.0);
}
inline float curand_normal(curandStateXORWOW* state) {
    if (state->boxmuller_flag != 1) {
        const unsigned int x = curand(state), y = curand(state);
        const float u = x * emu::curand::kTwoPow32Inv + (emu::curand::kTwoPow32Inv / 2.0f);
        const float v = y * emu::curand::kTwoPow32Inv2Pi + (emu::curand::kTwoPow32Inv2Pi / 2.0f);
        const float s = std::sqrt(-2.0f * std::log(u));
        state->boxmuller_extra = s * std::cos(v);
        state->boxmuller_flag = 1;
        return s * std::sin(v);
    }
    state->boxmuller_flag = 0;
    return state->boxmuller_extra;
}
inline double curand_normal_double(curandStateXORWOW* state) {
    if (state->boxmuller_flag_double != 1) {
        const double u = curand_uniform_double(state), v = curand_uniform_double(state) * emu::curand::kTwoPi;
        const double s = std::sqrt(-2.0 * std::log(u));
        state->boxmuller_extra_double = s * std::cos(v);
        state->boxmuller_flag_double = 1;
        return s * std::sin(v);
    }
    state->boxmuller_flag_double = 0;
    return state->boxmuller_extra_double;
}
inline float4 curand_uniform4(curandStateXORWOW* state) {
    float4 r;
    r.x = curand_uniform(state);
    r.y = curand_uniform(state);
    r.z = curand_uniform(state);
    r.w = curand_uniform(state);
    return r;
}
inline float2 curand_normal2(curandStateXORWOW* state) {
    float2 r;
    r.x = curand_normal(state);
    r.y = curand_normal(state);
    return r;
}
