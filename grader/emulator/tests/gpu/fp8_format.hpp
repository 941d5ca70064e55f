// The file fp8_gpu.cu writes and compare_fp8.cpp reads (little-endian, no padding):
//
//   char    magic[8]              = "EMUFP8_1"
//   uint16  widen[2][256]         __nv_cvt_fp8_to_halfraw of every pattern, E4M3 then E5M2, as half bits
//   uint32  n_floats              then uint8 from_float[n_floats][4]    (fp8_samples::floats())
//   uint8   from_half[65536][4]   __nv_cvt_halfraw_to_fp8 of every half pattern
//   uint8   from_bf16[65536][4]   __nv_cvt_bfloat16raw_to_fp8 of every bfloat16 pattern
//   uint32  n_doubles             then uint8 from_double[n_doubles][4]  (fp8_samples::doubles())
//
// The four columns: E4M3 __NV_NOSAT, E4M3 __NV_SATFINITE, E5M2 __NV_NOSAT, E5M2 __NV_SATFINITE. Everything is
// computed in device code (sm_90 takes the hardware cvt instructions for the saturating float and half forms).
#pragma once

namespace fp8_format {
constexpr char kMagic[8] = {'E', 'M', 'U', 'F', 'P', '8', '_', '1'};
constexpr int kColumns = 4;
constexpr const char* kColumnNames[kColumns] = {"e4m3 nosat", "e4m3 satfinite", "e5m2 nosat", "e5m2 satfinite"};
}  // namespace fp8_format
