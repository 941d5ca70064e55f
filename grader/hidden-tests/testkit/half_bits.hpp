// bf16 and fp16 on the host, independent of CUDA's and the emulator's conversion code: the references must not share
// a bug with the thing they check. The one test oracle of both formats: the judges' references round with it, and the
// emulator's own tests check its conversions and arithmetic against it (grader/emulator/tests/types/), in all four
// rounding modes. Written unlike the emulator's emu/lowp_round.hpp on purpose: by scaling in floating point (exact for
// a power of two) and rounding the scaled value to an integer, instead of integer bit surgery. Values travel as
// doubles that are exactly representable in the format; hidden-tests.04-rmsnorm.selftest checks every pattern and
// two million roundings to nearest and 200,000 in each directed mode against CUDA's own host conversions.
#pragma once

#include <cstdint>

namespace wb::testkit {

enum class Half { bf16, fp16 };

// IEEE 754's four roundings, as CUDA's conversions name them: _rn (ties to even), _rz, _rd (toward -inf), _ru.
enum class Rounding { nearest_even, toward_zero, down, up };

const char* type_name(Half t);

// Round to nearest, ties to even, straight from double (one rounding), with subnormals; overflow gives ±inf.
double round_to(Half t, double v);

// The pattern CUDA's conversion of `x` into the format gives in `mode`, from a long double (64-bit significand, so a
// product or a sum of a few 16-bit values that a test forms is exact and is rounded once): subnormals kept; past the
// largest finite value ±inf, or the largest finite value where the mode rounds toward zero; NaN gives 0x7FFF, CUDA's
// canonical NaN (to_bits below writes the IEEE quiet NaN instead, for inputs).
std::uint16_t round_bits(Half t, long double x, Rounding mode);

// The largest representable value, and the representable value just above v (v representable, finite).
double max_finite(Half t);
double next_up(Half t, double v);

// v must be representable (a result of round_to or from_bits); NaN gives the format's canonical quiet NaN.
std::uint16_t to_bits(Half t, double v);
double from_bits(Half t, std::uint16_t bits);

// The bit pattern every output is filled with before a launch: all ones is a NaN in fp32, bf16 and fp16 alike, so an
// element a kernel never writes can never look like a correct result (not even where the right answer is 0).
constexpr std::uint8_t kPoisonByte = 0xFF;
constexpr std::uint16_t kPoison16 = 0xFFFF;
constexpr std::uint32_t kPoison32 = 0xFFFFFFFFu;

}  // namespace wb::testkit
