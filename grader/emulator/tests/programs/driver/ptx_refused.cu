// Not a program: emu-nvcc must refuse it at the asm statement's line. The SM a block runs on (%smid) is hardware
// placement the emulator does not have, unlike the lane id and lane masks it rewrites (sample_forms.cu).
__global__ void which_sm(unsigned* out) {
    unsigned sm;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    out[blockIdx.x] = sm;
}

int main() { return 0; }
