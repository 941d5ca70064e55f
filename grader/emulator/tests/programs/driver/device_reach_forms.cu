// Legitimate CUDA that a kernel must be able to reach (runtime/kernel_reach.cpp): every form of device variable
// (static data members, variable templates, `extern` ones defined in another unit, in named and unnamed namespaces,
// file-scope `static`, arrays of structs, a pointer to a __device__ function, the unannotated `static` locals of a
// device function and of a device function template, which CUDA places in device memory), device-side new/delete
// (CUDA's device heap), placement new and virtual calls on an object built in device memory, by-value lambda
// captures, a functor, a std::array and an extended lambda passed as kernel parameters, printf of a literal and
// host constants (a `constexpr` table).
// Each form runs as its own launch; an argument runs one form only. On a GPU all of these work; each must run here
// with no report and the right values.
#include <array>
#include <cstdio>
#include <cstring>
#include <new>

#include "device_reach_forms.cuh"

// Host constants that nvcc lets device code use (constant expressions): read-only data here.
static const int kHostLimit = 7;
constexpr float kHostTable[2] = {0.25f, 0.75f};

struct Tally {
    static __device__ int hits;
    static __constant__ float weights[3];
};
__device__ int Tally::hits = 0;
__constant__ float Tally::weights[3] = {1.f, 2.f, 4.f};

template <class T>
__device__ T g_scale = T(3);
template <class T>
__device__ T g_uninitialized;  // zero, as every variable of static storage

template <class T>
struct Slot {
    static __device__ T value;
};
template <class T>
__device__ T Slot<T>::value = T(7);

namespace physics {
__device__ float g_gravity = 9.5f;
__constant__ int c_steps[2] = {3, 4};
namespace {
__device__ int g_hidden = 11;
}
}  // namespace physics
static __device__ int s_file_calls;
__managed__ int m_seen;

struct Particle {
    float mass;
    int id;
};
__device__ Particle g_particles[3] = {{1.f, 10}, {2.f, 20}, {3.f, 30}};

__device__ int twice(int x) { return 2 * x; }
__device__ int (*g_op)(int) = twice;

__device__ int next_ticket() {
    static int ticket = 100;  // no memory space specifier: a device variable, shared by every thread
    return atomicAdd(&ticket, 1);
}

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Square : Shape {
    float side;
    __device__ explicit Square(float s) : side(s) {}
    __device__ float area() const override { return side * side; }
};

struct Node {
    int value;
    Node* next;
};
__device__ Node* g_list;

struct AddOffset {
    int offset;
    __device__ int operator()(int x) const { return x + offset; }
};

__global__ void statics_and_templates(float* out) {
    atomicAdd(&Tally::hits, 1);
    g_uninitialized<int> += 2;
    out[0] = Tally::weights[2] * g_scale<float> + g_scale<int> + g_uninitialized<int> - 2;  // 4*3 + 3
    Slot<int>::value += 1;
    out[1] = static_cast<float>(Slot<int>::value) + Slot<double>::value;  // 8 + 7
    const int i = static_cast<int>(threadIdx.x) + 1;                      // an index known only at run time
    out[2] = kHostTable[i] + static_cast<float>(kHostLimit);
}

__global__ void extern_and_namespaces(float* out) {
    atomicAdd(&g_extern_hits, 1);
    atomicAdd(&s_file_calls, 1);
    atomicAdd(&m_seen, 1);
    const float sum = g_bias[threadIdx.x & 3] + physics::g_gravity + physics::c_steps[1] + physics::g_hidden;
    if (threadIdx.x == 3) out[0] = sum;
    if (threadIdx.x == 0) out[1] = g_particles[2].mass * static_cast<float>(g_particles[1].id) + g_op(21);
}

template <int Step>
__device__ int next_in_step() {
    static int counter = 0;  // one per instance of the template
    return atomicAdd(&counter, Step);
}

__global__ void local_static(int* tickets) {
    tickets[threadIdx.x] = next_ticket();
    tickets[8 + threadIdx.x] = next_in_step<3>();
}

__global__ void heap_new(int* out) {
    int* values = new int[4];
    for (int i = 0; i < 4; ++i) values[i] = i * static_cast<int>(threadIdx.x + 1);
    Node* node = new Node{values[3], nullptr};
    out[threadIdx.x] = node->value + values[1];
    delete node;
    delete[] values;
    if (threadIdx.x == 0) g_list = new Node{42, nullptr};  // lives until another kernel deletes it
}

__global__ void heap_delete(int* out) {
    out[0] = g_list->value;
    delete g_list;
    g_list = nullptr;
}

__global__ void placement_and_virtual(void* storage, float* out) {
    if (threadIdx.x == 0) {
        Shape* s = new (storage) Square(3.f);
        out[0] = s->area();
        s->~Shape();
        Shape* h = new Square(2.f);
        out[1] = h->area();
        delete h;
        printf("virtual call ok\n");
    }
}

template <class F>
__global__ void apply(F f, std::array<int, 3> extra, int* out) {
    const int scale = extra[2];
    auto scaled = [=] __device__(int x) { return f(x) * scale; };
    out[threadIdx.x] = scaled(static_cast<int>(threadIdx.x)) + extra[0];
}

static int failures = 0;
static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAIL: %s\n", what);
        ++failures;
    }
}
static void launched(const char* form) {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) std::printf("FAIL: %s: %s\n", form, cudaGetErrorName(e));
    if (e != cudaSuccess) ++failures;
}

int main(int argc, char** argv) {
    const char* only = argc > 1 ? argv[1] : nullptr;
    auto run = [&](const char* form) { return !only || std::strcmp(only, form) == 0; };
    float* d_f;
    int* d_i;
    void* d_storage;
    cudaMalloc(&d_f, 8 * sizeof(float));
    cudaMalloc(&d_i, 32 * sizeof(int));
    cudaMalloc(&d_storage, sizeof(Square));
    float f[8];
    int v[32];
    if (run("statics")) {
        statics_and_templates<<<1, 1>>>(d_f);
        launched("statics");
        cudaMemcpy(f, d_f, 3 * sizeof(float), cudaMemcpyDeviceToHost);
        check(f[0] == 15.f && f[1] == 15.f, "static members and variable templates");
        check(f[2] == 7.75f, "host constants");
    }
    if (run("extern")) {
        extern_and_namespaces<<<1, 4>>>(d_f);
        launched("extern");
        cudaMemcpy(f, d_f, 2 * sizeof(float), cudaMemcpyDeviceToHost);
        int hits = 0;
        cudaMemcpyFromSymbol(&hits, g_extern_hits, sizeof hits);
        check(hits == 4 && m_seen == 4, "extern and managed counters");
        check(f[1] == 3.f * 20.f + 42.f, "arrays of structs and a device function pointer");
        check(f[0] == 3.5f + 9.5f + 4.f + 11.f, "extern array and namespaces");
    }
    if (run("local_static")) {
        local_static<<<1, 8>>>(d_i);
        launched("local_static");
        cudaMemcpy(v, d_i, 16 * sizeof(int), cudaMemcpyDeviceToHost);
        int sum = 0, template_sum = 0;
        for (int i = 0; i < 8; ++i) sum += v[i], template_sum += v[8 + i];
        check(sum == 8 * 100 + 28, "a static local of a device function");
        check(template_sum == 3 * 28, "a static local of a device function template");
    }
    if (run("new")) {
        heap_new<<<1, 8>>>(d_i);
        launched("new");
        heap_delete<<<1, 1>>>(d_i + 8);
        launched("delete");
        cudaMemcpy(v, d_i, 9 * sizeof(int), cudaMemcpyDeviceToHost);
        for (int t = 0; t < 8; ++t) check(v[t] == 4 * (t + 1), "new and delete in a kernel");
        check(v[8] == 42, "an object new'd by one kernel, deleted by another");
    }
    if (run("virtual")) {
        placement_and_virtual<<<1, 2>>>(d_storage, d_f);
        launched("virtual");
        cudaMemcpy(f, d_f, 2 * sizeof(float), cudaMemcpyDeviceToHost);
        check(f[0] == 9.f && f[1] == 4.f, "placement new and virtual calls");
    }
    if (run("lambda")) {
        apply<<<1, 4>>>(AddOffset{5}, std::array<int, 3>{1, 0, 10}, d_i);
        launched("lambda");
        cudaMemcpy(v, d_i, 4 * sizeof(int), cudaMemcpyDeviceToHost);
        for (int t = 0; t < 4; ++t) check(v[t] == (t + 5) * 10 + 1, "a functor, a std::array and a [=] lambda");
        const int offset = 2;  // captured by copy into an extended lambda made on the host
        apply<<<1, 4>>>([=] __device__(int x) { return x - offset; }, std::array<int, 3>{0, 0, 3}, d_i);
        launched("extended lambda");
        cudaMemcpy(v, d_i, 4 * sizeof(int), cudaMemcpyDeviceToHost);
        for (int t = 0; t < 4; ++t) check(v[t] == (t - 2) * 3, "an extended lambda passed to a kernel");
    }
    std::puts(failures ? "FAIL" : "PASS");
    return failures != 0;
}
