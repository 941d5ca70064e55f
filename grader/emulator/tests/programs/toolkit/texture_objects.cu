// Texture and surface objects as the samples use them: an image in a CUDA array read with tex2D (point filtering,
// unnormalized coordinates, clamp) to shift it, the same array with linear filtering and normalized coordinates (wrap)
// to sample between texels, an 8-bit array read in the normalized-float mode, tex1Dfetch over linear memory (past the
// end reads 0), a pitched 2D texture, and a surface written by one kernel and read back by the next. Every result is
// checked against a CPU computation of what the texture unit returns.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define checkCudaErrors(call)                                                                           \
    do {                                                                                                \
        cudaError_t e_ = (call);                                                                        \
        if (e_ != cudaSuccess) {                                                                        \
            std::printf("CUDA error %d (%s) at %s:%d\n", (int)e_, cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(1);                                                                               \
        }                                                                                               \
    } while (0)

const int W = 24, H = 16;

__global__ void shift(cudaTextureObject_t tex, float* out, int dx, int dy) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < W && y < H) out[y * W + x] = tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
}
__global__ void sample(cudaTextureObject_t tex, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(tex, 0.37f * i / n - 0.1f, 0.5f + 0.013f * i);
}
__global__ void gray(cudaTextureObject_t tex, float4* out) {
    int x = threadIdx.x, y = blockIdx.x;
    out[y * W + x] = tex2D<float4>(tex, x + 0.5f, y + 0.5f);
}
__global__ void fetch(cudaTextureObject_t tex, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(tex, i + 4);
}
__global__ void write_surface(cudaSurfaceObject_t surf) {
    int x = threadIdx.x, y = blockIdx.x;
    surf2Dwrite(make_float2(x, -y), surf, x * sizeof(float2), y);
}
__global__ void read_surface(cudaSurfaceObject_t surf, float* out) {
    int x = threadIdx.x, y = blockIdx.x;
    float2 v = surf2Dread<float2>(surf, x * sizeof(float2), y);
    out[y * W + x] = v.x + 100 * v.y;
}

static int failures = 0;
static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("wrong: %s\n", what);
        ++failures;
    }
}

// What the texture unit returns for linear filtering with wrap, from the host copy of the image.
static float bilinear_wrap(const std::vector<float>& img, float u, float v) {
    float x = u * W - 0.5f, y = v * H - 0.5f;
    float fx = std::floor(x), fy = std::floor(y);
    float a = std::round((x - fx) * 256) / 256, b = std::round((y - fy) * 256) / 256;
    auto at = [&](int i, int j) { return img[((j % H + H) % H) * W + ((i % W + W) % W)]; };
    int i = (int)fx, j = (int)fy;
    return (1 - b) * ((1 - a) * at(i, j) + a * at(i + 1, j)) + b * ((1 - a) * at(i, j + 1) + a * at(i + 1, j + 1));
}

int main() {
    std::vector<float> img(W * H);
    for (int i = 0; i < W * H; ++i) img[i] = std::sin(0.1f * i) * 10.0f;

    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    checkCudaErrors(cudaMallocArray(&array, &fdesc, W, H));
    checkCudaErrors(cudaMemcpy2DToArray(array, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H,
                                        cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t point_tex;
    checkCudaErrors(cudaCreateTextureObject(&point_tex, &res, &td, nullptr));

    float* d_out;
    checkCudaErrors(cudaMalloc(&d_out, W * H * sizeof(float)));
    std::vector<float> out(W * H);
    shift<<<dim3(2, 2), dim3(16, 8)>>>(point_tex, d_out, 3, -2);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int sx = std::min(std::max(x + 3, 0), W - 1), sy = std::min(std::max(y - 2, 0), H - 1);
            ok = ok && out[y * W + x] == img[sy * W + sx];
        }
    check(ok, "tex2D point clamp");

    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    cudaTextureObject_t linear_tex;
    checkCudaErrors(cudaCreateTextureObject(&linear_tex, &res, &td, nullptr));
    const int n = 200;
    sample<<<2, 128>>>(linear_tex, d_out, n);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; ++i)
        ok = ok && std::fabs(out[i] - bilinear_wrap(img, 0.37f * i / n - 0.1f, 0.5f + 0.013f * i)) < 1e-4f;
    check(ok, "tex2D linear wrap normalized");

    // 8-bit RGBA read as normalized floats.
    std::vector<uchar4> rgba(W * H);
    for (int i = 0; i < W * H; ++i) rgba[i] = make_uchar4(i % 256, 255 - i % 256, 0, 255);
    cudaChannelFormatDesc cdesc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t carray;
    checkCudaErrors(cudaMallocArray(&carray, &cdesc, W, H));
    checkCudaErrors(cudaMemcpy2DToArray(carray, 0, 0, rgba.data(), W * sizeof(uchar4), W * sizeof(uchar4), H,
                                        cudaMemcpyHostToDevice));
    res.res.array.array = carray;
    td.filterMode = cudaFilterModePoint;
    td.normalizedCoords = 0;
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t color_tex;
    checkCudaErrors(cudaCreateTextureObject(&color_tex, &res, &td, nullptr));
    float4* d_color;
    checkCudaErrors(cudaMalloc(&d_color, W * H * sizeof(float4)));
    gray<<<H, W>>>(color_tex, d_color);
    std::vector<float4> color(W * H);
    checkCudaErrors(cudaMemcpy(color.data(), d_color, W * H * sizeof(float4), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < W * H; ++i)
        ok = ok && color[i].x == (i % 256) / 255.0f && color[i].y == (255 - i % 256) / 255.0f && color[i].w == 1.0f;
    check(ok, "normalized-float read of uchar4");

    // Linear memory: tex1Dfetch, 4 past the start; the last 4 fetches are past the end and read 0.
    const int m = 64;
    std::vector<int> ints(m);
    for (int i = 0; i < m; ++i) ints[i] = i * i;
    int *d_ints, *d_fetched;
    checkCudaErrors(cudaMalloc(&d_ints, m * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_fetched, m * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_ints, ints.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    cudaResourceDesc lin;
    std::memset(&lin, 0, sizeof(lin));
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = d_ints;
    lin.res.linear.desc = cudaCreateChannelDesc<int>();
    lin.res.linear.sizeInBytes = m * sizeof(int);
    std::memset(&td, 0, sizeof(td));
    cudaTextureObject_t int_tex;
    checkCudaErrors(cudaCreateTextureObject(&int_tex, &lin, &td, nullptr));
    fetch<<<1, m>>>(int_tex, d_fetched, m);
    std::vector<int> fetched(m);
    checkCudaErrors(cudaMemcpy(fetched.data(), d_fetched, m * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < m; ++i) ok = ok && fetched[i] == (i + 4 < m ? ints[i + 4] : 0);
    check(ok, "tex1Dfetch over linear memory");

    // A pitched 2D texture over the float image.
    float* d_pitched;
    size_t pitch;
    checkCudaErrors(cudaMallocPitch(&d_pitched, &pitch, W * sizeof(float), H));
    checkCudaErrors(cudaMemcpy2D(d_pitched, pitch, img.data(), W * sizeof(float), W * sizeof(float), H,
                                 cudaMemcpyHostToDevice));
    cudaResourceDesc pr;
    std::memset(&pr, 0, sizeof(pr));
    pr.resType = cudaResourceTypePitch2D;
    pr.res.pitch2D.devPtr = d_pitched;
    pr.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    pr.res.pitch2D.width = W;
    pr.res.pitch2D.height = H;
    pr.res.pitch2D.pitchInBytes = pitch;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    cudaTextureObject_t pitch_tex;
    checkCudaErrors(cudaCreateTextureObject(&pitch_tex, &pr, &td, nullptr));
    shift<<<dim3(2, 2), dim3(16, 8)>>>(pitch_tex, d_out, -5, 1);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    ok = true;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int sx = x - 5, sy = y + 1;
            float want = (sx < 0 || sy >= H) ? 0.0f : img[sy * W + sx];
            ok = ok && out[y * W + x] == want;
        }
    check(ok, "pitched texture, border");

    // A surface: one kernel writes, the next reads.
    cudaChannelFormatDesc sdesc = cudaCreateChannelDesc<float2>();
    cudaArray_t sarray;
    checkCudaErrors(cudaMallocArray(&sarray, &sdesc, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc sr;
    std::memset(&sr, 0, sizeof(sr));
    sr.resType = cudaResourceTypeArray;
    sr.res.array.array = sarray;
    cudaSurfaceObject_t surf;
    checkCudaErrors(cudaCreateSurfaceObject(&surf, &sr));
    write_surface<<<H, W>>>(surf);
    read_surface<<<H, W>>>(surf, d_out);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    ok = true;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) ok = ok && out[y * W + x] == x - 100.0f * y;
    check(ok, "surface write then read");

    checkCudaErrors(cudaDestroyTextureObject(point_tex));
    checkCudaErrors(cudaDestroyTextureObject(linear_tex));
    checkCudaErrors(cudaDestroyTextureObject(color_tex));
    checkCudaErrors(cudaDestroyTextureObject(int_tex));
    checkCudaErrors(cudaDestroyTextureObject(pitch_tex));
    checkCudaErrors(cudaDestroySurfaceObject(surf));
    checkCudaErrors(cudaFreeArray(array));
    checkCudaErrors(cudaFreeArray(carray));
    checkCudaErrors(cudaFreeArray(sarray));
    cudaFree(d_out);
    cudaFree(d_color);
    cudaFree(d_ints);
    cudaFree(d_fetched);
    cudaFree(d_pitched);
    std::printf("%s\n", failures == 0 ? "Test PASSED" : "Test FAILED");
    return failures == 0 ? 0 : 1;
}
