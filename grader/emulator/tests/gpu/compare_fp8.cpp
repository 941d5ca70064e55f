// Checks the emulator's cuda_fp8.h conversions against a file of results recorded on a real GPU by fp8_gpu.cu.
// Prints every kind of mismatch (the first few examples each) and exits 1 if there is any.
//
//   emu_compare_fp8 gpu-fp8.bin
#include <cuda_fp8.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "fp8_format.hpp"
#include "fp8_samples.hpp"

namespace {

struct Reader {
    std::FILE* f;
    template <class T>
    std::vector<T> read(std::size_t n) {
        std::vector<T> v(n);
        if (std::fread(v.data(), sizeof(T), n, f) != n) {
            std::fprintf(stderr, "compare_fp8: file too short\n");
            std::exit(2);
        }
        return v;
    }
};

struct Tally {
    std::map<std::string, long> count;
    long total = 0;
    void check(const std::string& what, unsigned long long input, unsigned gpu, unsigned emu) {
        if (gpu == emu) return;
        ++total;
        if (count[what]++ < 5)
            std::printf("MISMATCH %-28s input 0x%llx: gpu 0x%02x, emulator 0x%02x\n", what.c_str(), input, gpu, emu);
    }
};

const __nv_fp8_interpretation_t kInterp[4] = {__NV_E4M3, __NV_E4M3, __NV_E5M2, __NV_E5M2};
const __nv_saturation_t kSat[4] = {__NV_NOSAT, __NV_SATFINITE, __NV_NOSAT, __NV_SATFINITE};

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
    if (std::memcmp(in.read<char>(8).data(), fp8_format::kMagic, 8) != 0) {
        std::fprintf(stderr, "%s: not an fp8 results file\n", argv[1]);
        return 2;
    }
    Tally tally;
    const std::vector<std::uint16_t> widen = in.read<std::uint16_t>(512);
    for (unsigned i = 0; i < 512; ++i) {
        const auto kind = i < 256 ? __NV_E4M3 : __NV_E5M2;
        const unsigned emu = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(i & 0xffu), kind).x;
        if (emu != widen[i]) {
            ++tally.total;
            if (tally.count[i < 256 ? "e4m3 to half" : "e5m2 to half"]++ < 5)
                std::printf("MISMATCH %s 0x%02x: gpu 0x%04x, emulator 0x%04x\n", i < 256 ? "e4m3" : "e5m2", i & 0xffu,
                            widen[i], emu);
        }
    }
    const std::uint32_t nf = in.read<std::uint32_t>(1)[0];
    const std::vector<std::uint32_t> floats = fp8_samples::floats();
    if (nf != floats.size()) {
        std::fprintf(stderr, "float inputs differ from fp8_samples.hpp: rebuild both from one source\n");
        return 2;
    }
    const std::vector<std::uint8_t> from_float = in.read<std::uint8_t>(4 * std::size_t(nf));
    for (std::uint32_t i = 0; i < nf; ++i) {
        float x;
        std::memcpy(&x, &floats[i], sizeof x);
        for (int k = 0; k < 4; ++k)
            tally.check(std::string("float ") + fp8_format::kColumnNames[k], floats[i],
                        from_float[4 * std::size_t(i) + k], __nv_cvt_float_to_fp8(x, kSat[k], kInterp[k]));
    }
    const std::vector<std::uint8_t> from_half = in.read<std::uint8_t>(4 * 65536);
    const std::vector<std::uint8_t> from_bf16 = in.read<std::uint8_t>(4 * 65536);
    for (std::uint32_t b = 0; b < 65536; ++b) {
        const __half_raw h{static_cast<unsigned short>(b)};
        const __nv_bfloat16_raw r{static_cast<unsigned short>(b)};
        for (int k = 0; k < 4; ++k) {
            tally.check(std::string("half ") + fp8_format::kColumnNames[k], b, from_half[4 * b + k],
                        __nv_cvt_halfraw_to_fp8(h, kSat[k], kInterp[k]));
            tally.check(std::string("bf16 ") + fp8_format::kColumnNames[k], b, from_bf16[4 * b + k],
                        __nv_cvt_bfloat16raw_to_fp8(r, kSat[k], kInterp[k]));
        }
    }
    const std::uint32_t nd = in.read<std::uint32_t>(1)[0];
    const std::vector<std::uint64_t> doubles = fp8_samples::doubles();
    if (nd != doubles.size()) {
        std::fprintf(stderr, "double inputs differ from fp8_samples.hpp: rebuild both from one source\n");
        return 2;
    }
    const std::vector<std::uint8_t> from_double = in.read<std::uint8_t>(4 * std::size_t(nd));
    for (std::uint32_t i = 0; i < nd; ++i) {
        double x;
        std::memcpy(&x, &doubles[i], sizeof x);
        for (int k = 0; k < 4; ++k)
            tally.check(std::string("double ") + fp8_format::kColumnNames[k], doubles[i],
                        from_double[4 * std::size_t(i) + k], __nv_cvt_double_to_fp8(x, kSat[k], kInterp[k]));
    }
    std::fclose(f);
    std::printf("compared 512 widenings, %u floats, 2 x 65536 16-bit patterns and %u doubles, 4 conversions each\n", nf,
                nd);
    for (const auto& [what, count] : tally.count) std::printf("  %-28s %ld mismatches\n", what.c_str(), count);
    std::printf("%s\n", tally.total == 0 ? "PASS: the emulator matches the GPU bit for bit" : "FAIL");
    return tally.total == 0 ? 0 : 1;
}
