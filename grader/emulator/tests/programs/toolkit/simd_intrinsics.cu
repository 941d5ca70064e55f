// CUDA's SIMD-within-a-word intrinsics as image and bioinformatics code uses them (per-byte sums of absolute
// differences for block matching, saturated byte arithmetic, byte comparisons as masks): each kernel thread applies
// the intrinsics to one pair of words; the host recomputes every lane from its own unpacking of the bytes and
// halfwords and compares.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

const int kOps = 12;

__global__ void simd_ops(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned* o = out + i * kOps;
    o[0] = __vadd4(x, y);
    o[1] = __vsubss4(x, y);
    o[2] = __vaddus2(x, y);
    o[3] = __vabsdiffu4(x, y);
    o[4] = __vsadu4(x, y);
    o[5] = __vavgu4(x, y);
    o[6] = __vavgs2(x, y);
    o[7] = __vcmpgtu4(x, y);
    o[8] = __vsetles2(x, y);
    o[9] = __vmaxs4(x, y);
    o[10] = __vabsss4(x);
    o[11] = __vhaddu2(x, y);
}

// Lane i of w, `bits` wide, unsigned and signed.
static long lane_u(unsigned w, int i, int bits) { return (w >> (i * bits)) & ((1u << bits) - 1); }
static long lane_s(unsigned w, int i, int bits) {
    long v = lane_u(w, i, bits);
    return v >= (1L << (bits - 1)) ? v - (1L << bits) : v;
}
static long clampl(long v, long lo, long hi) { return v < lo ? lo : (v > hi ? hi : v); }
static unsigned pack(const long* lanes, int bits) {
    unsigned w = 0;
    for (int i = 0; i < 32 / bits; ++i) w |= (unsigned)(lanes[i] & ((1L << bits) - 1)) << (i * bits);
    return w;
}

static void reference(unsigned x, unsigned y, unsigned* r) {
    long l[4];
    for (int i = 0; i < 4; ++i) l[i] = lane_u(x, i, 8) + lane_u(y, i, 8);
    r[0] = pack(l, 8);
    for (int i = 0; i < 4; ++i) l[i] = clampl(lane_s(x, i, 8) - lane_s(y, i, 8), -128, 127);
    r[1] = pack(l, 8);
    for (int i = 0; i < 2; ++i) l[i] = clampl(lane_u(x, i, 16) + lane_u(y, i, 16), 0, 65535);
    r[2] = pack(l, 16);
    long sad = 0;
    for (int i = 0; i < 4; ++i) sad += l[i] = labs(lane_u(x, i, 8) - lane_u(y, i, 8));
    r[3] = pack(l, 8);
    r[4] = (unsigned)sad;
    for (int i = 0; i < 4; ++i) l[i] = (lane_u(x, i, 8) + lane_u(y, i, 8) + 1) / 2;
    r[5] = pack(l, 8);
    for (int i = 0; i < 2; ++i) {
        long s = lane_s(x, i, 16) + lane_s(y, i, 16) + 1;
        l[i] = s >= 0 ? s / 2 : -((-s + 1) / 2);  // floor(s / 2)
    }
    r[6] = pack(l, 16);
    for (int i = 0; i < 4; ++i) l[i] = lane_u(x, i, 8) > lane_u(y, i, 8) ? 0xff : 0;
    r[7] = pack(l, 8);
    for (int i = 0; i < 2; ++i) l[i] = lane_s(x, i, 16) <= lane_s(y, i, 16) ? 1 : 0;
    r[8] = pack(l, 16);
    for (int i = 0; i < 4; ++i) l[i] = lane_s(x, i, 8) > lane_s(y, i, 8) ? lane_s(x, i, 8) : lane_s(y, i, 8);
    r[9] = pack(l, 8);
    for (int i = 0; i < 4; ++i) l[i] = clampl(labs(lane_s(x, i, 8)), 0, 127);
    r[10] = pack(l, 8);
    for (int i = 0; i < 2; ++i) l[i] = (lane_u(x, i, 16) + lane_u(y, i, 16)) / 2;
    r[11] = pack(l, 16);
}

int main() {
    const int n = 512;
    std::vector<unsigned> a(n), b(n), out(n * kOps);
    srand(99);
    for (int i = 0; i < n; ++i) {
        a[i] = (unsigned)rand() * 2654435761u;
        b[i] = (unsigned)rand() * 40503u + (i % 3 == 0 ? a[i] : 0u);  // some equal lanes
    }
    a[0] = 0x80808080u;  // the most negative bytes: saturation and |-128|
    b[0] = 0x7f7f7f7fu;
    unsigned *da, *db, *dout;
    cudaMalloc(&da, n * sizeof(unsigned));
    cudaMalloc(&db, n * sizeof(unsigned));
    cudaMalloc(&dout, n * kOps * sizeof(unsigned));
    cudaMemcpy(da, a.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
    simd_ops<<<(n + 127) / 128, 128>>>(da, db, dout, n);
    cudaMemcpy(out.data(), dout, n * kOps * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        unsigned r[kOps];
        reference(a[i], b[i], r);
        for (int k = 0; k < kOps; ++k)
            if (out[i * kOps + k] != r[k]) {
                if (wrong < 5) std::printf("op %d of %08x, %08x: %08x, want %08x\n", k, a[i], b[i], out[i * kOps + k], r[k]);
                ++wrong;
            }
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    std::printf("%s\n", wrong == 0 ? "Test PASSED" : "Test FAILED");
    return wrong == 0 ? 0 : 1;
}
