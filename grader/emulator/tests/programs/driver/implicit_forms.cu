// Forms of public CUDA programs that nvcc accepts and the emulator once did not (docs/emulator.md, "Public
// programs"), each checked against a CPU answer; no #include at all, since nvcc includes cuda_runtime.h into every
// .cu file and that header brings in the C library's stdio, stdlib, string and time:
//   * clock(), CLOCKS_PER_SEC, malloc, memset and printf used without including their headers;
//   * `__shared__` written after the type (`extern float __shared__ partial[];`, `int __shared__ count;`);
//   * the address of the dynamic shared array itself, `(T*)&extern_mem` as GUPS writes it, which is its first element;
//   * a kernel called like a host function through a pointer (as a benchmark helper calls what it is given): on a GPU
//     that launches nothing, so the emulator warns once, naming the call, and runs nothing either;
//   * managed memory with placement hints (cudaMemAdvise, cudaMemPrefetchAsync to the device and to cudaCpuDeviceId);
//   * host memory from malloc pinned with cudaHostRegister and used through its device pointer, as simpleStreams does;
//   * cudaMallocHost with flags (cuda_runtime.h's C++ overload), as the blog's printf-alternative helper calls it;
//   * any field of CUDA 12.8's cudaDeviceProp (deviceQuery prints them all), each agreeing with cudaDeviceGetAttribute;
//   * the device calls older and multi-GPU programs make: cudaThreadSynchronize, cudaChooseDevice, limits, the PCI
//     bus id, peers (none), cudaMemcpyPeer; pitched memory (cudaMallocPitch, cudaMemset2D, cudaMalloc3D,
//     cudaMemcpy3D) written by a kernel that indexes rows by the pitch; a stream's L2 access policy window set and
//     read back, as the samples' simpleAttributes sets it.
// Prints PASS when every check holds.

// The block's sum through dynamic shared memory declared with the type first.
__global__ void block_sums(const int* in, int* out) {
    extern float __shared__ partial[];
    int __shared__ count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    partial[threadIdx.x] = static_cast<float>(in[blockIdx.x * blockDim.x + threadIdx.x]);
    atomicAdd(&count, 1);
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = static_cast<int>(partial[0]) * 1000 + count;
}

__global__ void add_one(int* x) { x[threadIdx.x] += 1; }

// Each thread stores through `&words` (the array's address) and reads back through `words` and a neighbour's slot.
union Word {
    unsigned long long data;
};
__global__ void through_array_address(unsigned long long* out) {
    extern __shared__ Word words[];
    Word* t = (Word*)&words;
    t[threadIdx.x].data = 100 + threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = words[(threadIdx.x + 1) % blockDim.x].data;
}

// Row y of a pitched image: the byte pitch, not the width, separates rows.
__global__ void add_row_index(int* image, size_t pitch) {
    int* row = reinterpret_cast<int*>(reinterpret_cast<char*>(image) + blockIdx.x * pitch);
    row[threadIdx.x] += static_cast<int>(blockIdx.x);
}

// What llm.c's benchmark_kernel does: it calls whatever it is given, here a kernel, not a launcher.
template <class Kernel, class... Args>
void call_as_given(Kernel kernel, Args... args) {
    kernel(args...);
}

int main() {
    const clock_t start = clock();
    const int blocks = 4, threads = 64, n = blocks * threads;
    int* h_in = static_cast<int*>(malloc(n * sizeof(int)));
    int* h_out = static_cast<int*>(malloc(blocks * sizeof(int)));
    memset(h_out, 0, blocks * sizeof(int));
    for (int i = 0; i < n; ++i) h_in[i] = i % 7;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    block_sums<<<blocks, threads, threads * sizeof(float)>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int b = 0; b < blocks; ++b) {
        int sum = 0;
        for (int i = 0; i < threads; ++i) sum += h_in[b * threads + i];
        if (h_out[b] != sum * 1000 + threads) {
            printf("block %d: %d, expected %d\n", b, h_out[b], sum * 1000 + threads);
            ok = false;
        }
    }
    // Called twice without a launch: one warning, and the data is left as it was.
    call_as_given(add_one, d_in);
    call_as_given(add_one, d_in);
    cudaMemcpy(h_out, d_in, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < blocks; ++i) ok = ok && h_out[i] == h_in[i];
    // Managed memory with the hints a unified-memory tutorial gives: they move nothing here, and must not fail.
    int* m;
    cudaMallocManaged(&m, n * sizeof(int));
    ok = ok && cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId) == cudaSuccess;
    for (int i = 0; i < n; ++i) m[i] = i;
    ok = ok && cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, 0) == cudaSuccess &&
         cudaMemPrefetchAsync(m, n * sizeof(int), 0) == cudaSuccess;
    add_one<<<1, n / 2>>>(m);
    ok = ok && cudaDeviceSynchronize() == cudaSuccess &&
         cudaMemPrefetchAsync(m, n * sizeof(int), cudaCpuDeviceId) == cudaSuccess;
    for (int i = 0; i < n; ++i) ok = ok && m[i] == i + (i < n / 2 ? 1 : 0);
    // A hint CUDA does not define, and a range that is not device memory, are invalid values.
    int on_stack[4];
    ok = ok && cudaMemAdvise(m, n * sizeof(int), static_cast<cudaMemoryAdvise>(99), 0) == cudaErrorInvalidValue &&
         cudaMemAdvise(on_stack, sizeof on_stack, cudaMemAdviseSetAccessedBy, 0) == cudaErrorInvalidValue;
    cudaGetLastError();
    cudaFree(m);
    // malloc'd memory registered (mapped), written by a kernel through its device pointer; registered twice, or
    // unregistered from inside the range, it is refused as the runtime refuses it.
    int* pinned = static_cast<int*>(malloc(n * sizeof(int)));
    for (int i = 0; i < n; ++i) pinned[i] = 10 * i;
    int* through = nullptr;
    ok = ok && cudaHostRegister(pinned, n * sizeof(int), cudaHostRegisterMapped) == cudaSuccess &&
         cudaHostGetDevicePointer(reinterpret_cast<void**>(&through), pinned, 0) == cudaSuccess && through != nullptr;
    add_one<<<1, n>>>(through);
    ok = ok && cudaDeviceSynchronize() == cudaSuccess;
    for (int i = 0; i < n; ++i) ok = ok && pinned[i] == 10 * i + 1;
    ok = ok && cudaHostRegister(pinned + 4, 16, cudaHostRegisterDefault) == cudaErrorHostMemoryAlreadyRegistered &&
         cudaHostUnregister(pinned + 4) == cudaErrorHostMemoryNotRegistered && cudaHostUnregister(pinned) == cudaSuccess;
    cudaGetLastError();
    free(pinned);
    // Pinned, mapped memory from cudaMallocHost's overload with flags, written by a kernel.
    int* mapped = nullptr;
    ok = ok && cudaMallocHost(&mapped, n * sizeof(int), cudaHostAllocMapped) == cudaSuccess && mapped != nullptr;
    for (int i = 0; i < n; ++i) mapped[i] = 3 * i;
    add_one<<<1, n>>>(mapped);
    ok = ok && cudaDeviceSynchronize() == cudaSuccess;
    for (int i = 0; i < n; ++i) ok = ok && mapped[i] == 3 * i + 1;
    ok = ok && cudaFreeHost(mapped) == cudaSuccess;
    // Fields a sample prints; those the emulator models agree with the attribute query, the others read 0.
    cudaDeviceProp prop;
    ok = ok && cudaGetDeviceProperties(&prop, 0) == cudaSuccess;
    struct Pair {
        cudaDeviceAttr attr;
        int field;
    };
    const Pair pairs[] = {{cudaDevAttrCanMapHostMemory, prop.canMapHostMemory},
                          {cudaDevAttrAsyncEngineCount, prop.asyncEngineCount},
                          {cudaDevAttrConcurrentManagedAccess, prop.concurrentManagedAccess},
                          {cudaDevAttrComputePreemptionSupported, prop.computePreemptionSupported},
                          {cudaDevAttrHostNativeAtomicSupported, prop.hostNativeAtomicSupported},
                          {cudaDevAttrMemoryPoolsSupported, prop.memoryPoolsSupported}};
    for (const Pair& p : pairs) {
        int value = -1;
        ok = ok && cudaDeviceGetAttribute(&value, p.attr, 0) == cudaSuccess && value == p.field;
    }
    ok = ok && prop.canMapHostMemory == 1 && prop.asyncEngineCount == 2 && prop.memoryPoolsSupported == 1 &&
         prop.hostNativeAtomicSupported == 0 && prop.maxTexture2D[0] == 0 && prop.uuid.bytes[0] == 0 &&
         prop.clusterLaunch == 0;
    unsigned long long* words_out;
    cudaMallocManaged(&words_out, 64 * sizeof(unsigned long long));
    through_array_address<<<1, 64, 64 * sizeof(Word)>>>(words_out);
    ok = ok && cudaDeviceSynchronize() == cudaSuccess;
    for (int i = 0; i < 64; ++i) ok = ok && words_out[i] == 100u + (i + 1) % 64;
    cudaFree(words_out);
    // Device management under the old and the multi-GPU names.
    int chosen = -1, can_peer = -1;
    cudaDeviceProp wanted;
    memset(&wanted, 0, sizeof wanted);
    wanted.major = 1;
    size_t limit = 0;
    char bus[32] = {0};
    ok = ok && cudaThreadSynchronize() == cudaSuccess && cudaChooseDevice(&chosen, &wanted) == cudaSuccess &&
         chosen == 0 && cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 26) == cudaSuccess &&
         cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize) == cudaSuccess && limit == (1u << 26) &&
         cudaThreadGetLimit(&limit, cudaLimitStackSize) == cudaSuccess && limit == 1024 &&
         cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess && strlen(bus) > 0 &&
         cudaDeviceCanAccessPeer(&can_peer, 0, 0) == cudaSuccess && can_peer == 0 &&
         cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice;
    int p2p = -1;
    ok = ok && cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0) == cudaSuccess && p2p == 0;
    cudaStream_t windowed;
    cudaStreamAttrValue window, read_back;
    memset(&window, 0, sizeof window);
    window.accessPolicyWindow.base_ptr = d_in;
    window.accessPolicyWindow.num_bytes = n * sizeof(int);
    window.accessPolicyWindow.hitRatio = 0.5f;
    window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    ok = ok && cudaStreamCreate(&windowed) == cudaSuccess &&
         cudaStreamSetAttribute(windowed, cudaStreamAttributeAccessPolicyWindow, &window) == cudaSuccess &&
         cudaStreamGetAttribute(windowed, cudaStreamAttributeAccessPolicyWindow, &read_back) == cudaSuccess &&
         read_back.accessPolicyWindow.base_ptr == d_in && read_back.accessPolicyWindow.hitRatio == 0.5f &&
         read_back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
         cudaCtxResetPersistingL2Cache() == cudaSuccess && cudaStreamDestroy(windowed) == cudaSuccess;
    cudaGetLastError();
    // A pitched image: memset, a kernel that walks rows by the pitch, a 2D copy back, a 3D copy into a 3D buffer.
    const int width = 48, height = 5;
    int* image = nullptr;
    size_t pitch = 0;
    ok = ok && cudaMallocPitch(&image, &pitch, width * sizeof(int), height) == cudaSuccess &&
         pitch >= width * sizeof(int) && pitch % 512 == 0 &&
         cudaMemset2D(image, pitch, 0, width * sizeof(int), height) == cudaSuccess;
    add_row_index<<<height, width>>>(image, pitch);
    int rows[height][width];
    ok = ok && cudaMemcpy2D(rows, width * sizeof(int), image, pitch, width * sizeof(int), height,
                            cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) ok = ok && rows[y][x] == y;
    cudaPitchedPtr volume;
    ok = ok && cudaMalloc3D(&volume, make_cudaExtent(width * sizeof(int), height, 2)) == cudaSuccess &&
         cudaMemset3D(volume, 0, make_cudaExtent(width * sizeof(int), height, 2)) == cudaSuccess;
    cudaMemcpy3DParms copy3d;
    memset(&copy3d, 0, sizeof copy3d);
    copy3d.srcPtr = make_cudaPitchedPtr(image, pitch, width * sizeof(int), height);
    copy3d.dstPtr = volume;
    copy3d.dstPos = make_cudaPos(0, 0, 1);
    copy3d.extent = make_cudaExtent(width * sizeof(int), height, 1);
    copy3d.kind = cudaMemcpyDeviceToDevice;
    int slice[height][width];
    ok = ok && cudaMemcpy3D(&copy3d) == cudaSuccess &&
         cudaMemcpyPeer(image, 0, static_cast<char*>(volume.ptr) + volume.pitch * height, 0, pitch * height) ==
             cudaSuccess &&
         cudaMemcpy2D(slice, width * sizeof(int), image, pitch, width * sizeof(int), height,
                      cudaMemcpyDeviceToHost) == cudaSuccess;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) ok = ok && slice[y][x] == y;
    cudaFree(image);
    cudaFree(volume.ptr);
    ok = ok && clock() >= start && CLOCKS_PER_SEC > 0;
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
