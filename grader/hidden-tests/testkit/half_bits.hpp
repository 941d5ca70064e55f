// bf16 and fp16 on the host, independent of CUDA's and the emulator's conversion code: the references must not share
// a bug with the thing they check. Values travel as doubles that are exactly representable in the format.
#pragma once

#include <cstdint>

namespace wb::testkit {

enum class Half { bf16, fp16 };

const char* type_name(Half t);

// Round to nearest, ties to even, straight from double (one rounding), with subnormals; overflow gives ±inf.
double round_to(Half t, double v);

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
