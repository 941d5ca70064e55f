// Seeded inputs. Each test draws from its own stream: the run's seed mixed with the test's name, so a failing test
// replays alone with the same seed, and two tests never share inputs by accident.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace wb::testkit {

inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

inline std::uint64_t test_seed(std::uint64_t run_seed, const std::string& test_name) {
    std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a of the name
    for (unsigned char c : test_name) h = (h ^ c) * 0x100000001B3ull;
    return splitmix64(run_seed ^ splitmix64(h));
}

// Distributions written out (not std::normal_distribution, whose output differs between standard libraries) so a seed
// gives the same inputs on every backend and build.
class Rng {
 public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
    double normal() {                                                              // N(0, 1), Box-Muller
        double u1 = 0;
        while (u1 == 0) u1 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * uniform());
    }
    long integer(long lo, long hi) {
        return lo + static_cast<long>(engine_() % static_cast<std::uint64_t>(hi - lo + 1));
    }

 private:
    std::mt19937_64 engine_;
};

}  // namespace wb::testkit
