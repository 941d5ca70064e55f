// The file conversions_gpu.cu writes and compare_conversions.cpp reads (little-endian, no padding):
//
//   char     magic[8]                = "EMUCONV1"
//   uint32   n_floats
//   uint32   float_bits[n_floats]      the inputs (conv_samples::float_samples())
//   uint16   from_float[n_floats][8]   __float2bfloat16_rn/_rz/_rd/_ru, then __float2half_rn/_rz/_rd/_ru
//   uint32   bf16_to_float[65536]      __bfloat162float of every pattern, as float bits
//   uint32   half_to_float[65536]      __half2float of every pattern, as float bits
//   uint32   n_ops
//   uint16   half_in[n_ops][3]         operands a, b, c (conv_samples::operand_triples(n_ops, kHalfSeed))
//   uint16   half_out[n_ops][kOps]     results of the kOps operations below, on __half
//   uint16   bf16_in[n_ops][3]         (conv_samples::operand_triples(n_ops, kBF16Seed))
//   uint16   bf16_out[n_ops][kOps]     the same operations on __nv_bfloat16
#pragma once

#include <cstdint>

namespace conv_format {

constexpr char kMagic[8] = {'E', 'M', 'U', 'C', 'O', 'N', 'V', '1'};
constexpr int kConversions = 8;
constexpr std::uint32_t kOpsCount = 1u << 20;
constexpr std::uint64_t kHalfSeed = 2024;
constexpr std::uint64_t kBF16Seed = 2025;
// __hadd(a,b) __hsub(a,b) __hmul(a,b) __hfma(a,b,c) __hdiv(a,b) hsqrt(a) __hmax(a,b) __hmin(a,b) __hneg(a) __habs(a)
constexpr int kOps = 10;
constexpr const char* kOpNames[kOps] = {"__hadd", "__hsub", "__hmul", "__hfma", "__hdiv",
                                        "hsqrt",  "__hmax", "__hmin", "__hneg", "__habs"};
constexpr const char* kConversionNames[kConversions] = {
    "__float2bfloat16_rn", "__float2bfloat16_rz", "__float2bfloat16_rd", "__float2bfloat16_ru",
    "__float2half_rn",     "__float2half_rz",     "__float2half_rd",     "__float2half_ru"};

}  // namespace conv_format
