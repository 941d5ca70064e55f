// The benchmarks' one way to launch a kernel with or without programmatic dependent launch: plain
// `kernel<<<grid, threads, smem, stream>>>(args...)`, or, with `pdl`, the same through cudaLaunchKernelEx with
// programmatic stream serialization allowed (the next grid's blocks may be scheduled while this one drains; each
// waits in griddepcontrol before its first dependent access). Shared by lesson 04's reference kernels
// (../04-rmsnorm/kernels/common.cuh) and the roofline's copies (copies.cu), so both are launched the same way when
// they are compared under PDL. Header-only host code.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace bench {

template <typename... P, typename... A>
cudaError_t launch_maybe_pdl(bool pdl, void (*kernel)(P...), unsigned grid, unsigned threads, size_t smem,
                             cudaStream_t stream, A... args) {
    if (!pdl) {
        kernel<<<grid, threads, smem, stream>>>(args...);
        return cudaGetLastError();
    }
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = attr;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, kernel, args...);
}

}  // namespace bench
