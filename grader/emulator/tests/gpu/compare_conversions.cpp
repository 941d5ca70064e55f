// Checks the emulator's half/bf16 conversions and arithmetic against a file of results recorded on a real GPU by
// conversions_gpu.cu. Prints every kind of mismatch (first few examples each) and exits 1 if there is any.
//
//   emu_compare_conversions gpu-conversions.bin
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "conversion_samples.hpp"
#include "conversions_format.hpp"

namespace {

struct Reader {
    std::FILE* f;
    template <class T>
    std::vector<T> read(std::size_t n) {
        std::vector<T> v(n);
        if (std::fread(v.data(), sizeof(T), n, f) != n) {
            std::fprintf(stderr, "compare_conversions: file too short\n");
            std::exit(2);
        }
        return v;
    }
};

struct Tally {
    std::map<std::string, long> count;
    long total = 0;
    void mismatch(const std::string& what, const char* fmt_input, unsigned long long input, unsigned gpu,
                  unsigned emu) {
        ++total;
        if (count[what]++ < 5)
            std::printf("MISMATCH %-22s input %s0x%llx: gpu 0x%04x, emulator 0x%04x\n", what.c_str(), fmt_input, input,
                        gpu, emu);
    }
};

template <class T>
void emulator_ops(T a, T b, T c, std::uint16_t* out) {
    const T r[conv_format::kOps] = {__hadd(a, b), __hsub(a, b), __hmul(a, b), __hfma(a, b, c), __hdiv(a, b),
                                    hsqrt(a),     __hmax(a, b), __hmin(a, b), __hneg(a),       __habs(a)};
    for (int k = 0; k < conv_format::kOps; ++k) out[k] = r[k].__x;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s GPU-RESULTS.bin\n", argv[0]);
        return 2;
    }
    std::FILE* f = std::fopen(argv[1], "rb");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    Reader in{f};
    const std::vector<char> magic = in.read<char>(8);
    if (std::memcmp(magic.data(), conv_format::kMagic, 8) != 0) {
        std::fprintf(stderr, "%s: not a conversions file\n", argv[1]);
        return 2;
    }
    Tally tally;
    const std::uint32_t n = in.read<std::uint32_t>(1)[0];
    const std::vector<std::uint32_t> floats = in.read<std::uint32_t>(n);
    const std::vector<std::uint16_t> conv = in.read<std::uint16_t>(std::size_t(n) * conv_format::kConversions);
    for (std::uint32_t i = 0; i < n; ++i) {
        float x;
        std::memcpy(&x, &floats[i], sizeof x);
        const std::uint16_t emu[conv_format::kConversions] = {__float2bfloat16_rn(x).__x, __float2bfloat16_rz(x).__x,
                                                              __float2bfloat16_rd(x).__x, __float2bfloat16_ru(x).__x,
                                                              __float2half_rn(x).__x,     __float2half_rz(x).__x,
                                                              __float2half_rd(x).__x,     __float2half_ru(x).__x};
        for (int k = 0; k < conv_format::kConversions; ++k) {
            const std::uint16_t gpu = conv[std::size_t(i) * conv_format::kConversions + k];
            if (gpu != emu[k]) tally.mismatch(conv_format::kConversionNames[k], "float ", floats[i], gpu, emu[k]);
        }
    }
    const std::vector<std::uint32_t> bf16_to_float = in.read<std::uint32_t>(65536);
    const std::vector<std::uint32_t> half_to_float = in.read<std::uint32_t>(65536);
    for (std::uint32_t b = 0; b < 65536; ++b) {
        const float fb = __bfloat162float(__ushort_as_bfloat16(std::uint16_t(b)));
        const float fh = __half2float(__ushort_as_half(std::uint16_t(b)));
        std::uint32_t eb, eh;
        std::memcpy(&eb, &fb, 4);
        std::memcpy(&eh, &fh, 4);
        // Float results do not fit the 16-bit columns of the report: print them as two halves.
        if (eb != bf16_to_float[b])
            tally.mismatch("__bfloat162float(hi16)", "bits ", b, bf16_to_float[b] >> 16, eb >> 16);
        if (eh != half_to_float[b]) {
            tally.mismatch("__half2float(hi16)", "bits ", b, half_to_float[b] >> 16, eh >> 16);
            std::printf("         full: gpu 0x%08x, emulator 0x%08x\n", half_to_float[b], eh);
        }
    }
    const std::uint32_t n_ops = in.read<std::uint32_t>(1)[0];
    for (int type = 0; type < 2; ++type) {
        const std::vector<std::uint16_t> ops_in = in.read<std::uint16_t>(std::size_t(n_ops) * 3);
        const std::vector<std::uint16_t> ops_out = in.read<std::uint16_t>(std::size_t(n_ops) * conv_format::kOps);
        const std::vector<std::uint16_t> expected_in =
            conv_samples::operand_triples(n_ops, type == 0 ? conv_format::kHalfSeed : conv_format::kBF16Seed);
        if (ops_in != expected_in) {
            std::fprintf(stderr, "operand triples differ from conversion_samples.hpp: rebuild both from one source\n");
            return 2;
        }
        for (std::uint32_t i = 0; i < n_ops; ++i) {
            std::uint16_t emu[conv_format::kOps];
            const std::uint16_t* abc = &ops_in[std::size_t(i) * 3];
            if (type == 0)
                emulator_ops(__ushort_as_half(abc[0]), __ushort_as_half(abc[1]), __ushort_as_half(abc[2]), emu);
            else
                emulator_ops(__ushort_as_bfloat16(abc[0]), __ushort_as_bfloat16(abc[1]), __ushort_as_bfloat16(abc[2]),
                             emu);
            for (int k = 0; k < conv_format::kOps; ++k) {
                const std::uint16_t gpu = ops_out[std::size_t(i) * conv_format::kOps + k];
                if (gpu != emu[k]) {
                    const unsigned long long packed =
                        (unsigned long long)abc[0] << 32 | (unsigned long long)abc[1] << 16 | abc[2];
                    tally.mismatch(std::string(type == 0 ? "half " : "bf16 ") + conv_format::kOpNames[k], "a|b|c ",
                                   packed, gpu, emu[k]);
                }
            }
        }
    }
    std::fclose(f);
    std::printf("compared %u floats x %d conversions, 2 x 65536 patterns to float, 2 x %u x %d operations\n", n,
                conv_format::kConversions, n_ops, conv_format::kOps);
    for (const auto& [what, count] : tally.count) std::printf("  %-24s %ld mismatches\n", what.c_str(), count);
    std::printf("%s\n", tally.total == 0 ? "PASS: the emulator matches the GPU bit for bit" : "FAIL");
    return tally.total == 0 ? 0 : 1;
}
