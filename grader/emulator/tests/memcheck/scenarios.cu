// Device code of the memory checker's unit tests. It goes through emu-rewrite and the emulator's compile flags like
// any student file; the fake engine runs it phase by phase (a phase ends where a kernel would call __syncthreads).
// Markers (an at-sign and a name) tag the lines the tests expect in reports.
#include "scenarios.hpp"

#include <vector>

namespace {

using fake::Phase;

__device__ float& bcast_value() {
    __shared__ float value;
    return value;
}

__device__ float* partials() {
    static __shared__ float partial[32];
    return partial;
}

struct alignas(16) Float4 {
    float x, y, z, w;
};
struct alignas(16) Vec8 {
    unsigned short d[8];
};

}  // namespace

// Not static: the compiler must keep every store to it, and so the loads that feed them.
float g_sink;

namespace scen {

int broadcast(bool barrier, fake::Order order) {
    std::vector<float> out(64);
    std::vector<Phase> k = {
        {[](unsigned t) {
             if (t == 0) bcast_value() = 42.f; /* @bcast-write */
         },
         barrier},
        {[&](unsigned t) {
             out[t] = bcast_value(); /* @bcast-read */
         },
         true},
    };
    return fake::run({"broadcast", 2, {64, 1, 1}, 0, order}, k);
}

int cross_warp_sum(bool barrier) {
    std::vector<Phase> k = {
        {[](unsigned t) {
             if (t % 32 == 0) partials()[t / 32] = float(t); /* @partial-write */
         },
         barrier},
        {[](unsigned t) {
             if (t == 0) g_sink = partials()[0] + partials()[1]; /* @partial-read */
         },
         true},
    };
    return fake::run({"cross_warp_sum", 1, {64, 1, 1}, 0, fake::Order::forward}, k);
}

int waw_one_slot(bool only_thread0) {
    std::vector<Phase> k = {
        {[=](unsigned t) {
             if (!only_thread0 || t == 0) bcast_value() = float(t); /* @waw-write */
         },
         true},
        {[](unsigned) { g_sink = bcast_value(); }, true},
    };
    return fake::run({"waw_one_slot", 1, {64, 1, 1}, 0, fake::Order::forward}, k);
}

int uninit_read(bool write_all) {
    std::vector<Phase> k = {
        {[=](unsigned t) {
             if (write_all || t != 31) partials()[t] = 1.f;
         },
         true},
        {[](unsigned t) {
             g_sink = partials()[t]; /* @uninit-read */
         },
         true},
    };
    return fake::run({"uninit_read", 3, {32, 1, 1}, 0, fake::Order::forward}, k);
}

__device__ float* tree() {
    __shared__ float buf[128];
    return buf;
}

int tree_reduction() {
    std::vector<Phase> k = {{[](unsigned t) { tree()[t] = float(t); }, true}};
    for (unsigned s = 64; s > 0; s /= 2) {
        k.push_back({[s](unsigned t) {
                         if (t < s) tree()[t] += tree()[t + s];
                     },
                     true});
    }
    k.push_back({[](unsigned t) { g_sink = tree()[0] + float(t); }, true});
    int err = fake::run({"tree_reduction", 4, {128, 1, 1}, 0, fake::Order::forward}, k);
    return err == 0 && tree()[0] == 127.f * 128.f / 2 ? 0 : -1;
}

__device__ unsigned short* halves() {
    __shared__ unsigned short h[256];
    return h;
}

int bf16_neighbours() {
    std::vector<Phase> k = {
        {[](unsigned t) { halves()[t] = static_cast<unsigned short>(t); }, true},
        {[](unsigned t) { g_sink = halves()[t] + halves()[t ^ 1u]; }, true},
        {[](unsigned t) { halves()[t] = static_cast<unsigned short>(t + 1); }, true},
    };
    return fake::run({"bf16_neighbours", 2, {256, 1, 1}, 0, fake::Order::forward}, k);
}

int same_value_readers_and_own_slot() {
    std::vector<Phase> k = {
        {[](unsigned t) {
             if (t == 0) bcast_value() = 3.f;
             tree()[t] = 1.f;
         },
         true},
        {[](unsigned t) {
             tree()[t] = tree()[t] * bcast_value();
             tree()[t] += bcast_value();
         },
         true},
        {[](unsigned t) { g_sink = tree()[t] + bcast_value(); }, true},
    };
    return fake::run({"same_value", 2, {128, 1, 1}, 0, fake::Order::reverse}, k);
}

__device__ unsigned* counter() {
    __shared__ unsigned c;
    return &c;
}

int shared_atomics(bool read_without_barrier) {
    std::vector<Phase> k = {
        {[](unsigned t) {
             if (t == 0) *counter() = 0;
         },
         true},
        {[](unsigned) {
             __atomic_fetch_add(counter(), 1u, __ATOMIC_RELAXED); /* @atomic-add */
         },
         !read_without_barrier},
        {[](unsigned) {
             g_sink = float(*counter()); /* @atomic-read */
         },
         true},
    };
    int err = fake::run({"shared_atomics", 1, {96, 1, 1}, 0, fake::Order::forward}, k);
    return err == 0 && *counter() == 96 ? 0 : (err ? err : -1);
}

int warp_sync(bool syncwarp) {
    std::vector<Phase> k = {
        {[](unsigned t) {
             if (t == 0) bcast_value() = 1.f;
         },
         false, syncwarp},
        {[](unsigned t) {
             if (t == 5) g_sink = bcast_value(); /* @warp-read */
         },
         true},
    };
    return fake::run({"warp_sync", 1, {32, 1, 1}, 0, fake::Order::forward}, k);
}

int oob_shared_write(bool past_end) {
    std::vector<Phase> k = {
        {[=](unsigned t) {
             float* p = partials();
             if (past_end || t < 32) p[t] = 0.f; /* @oob-shared */
         },
         true},
    };
    return fake::run({"oob_shared_write", 1, {33, 1, 1}, 0, fake::Order::forward}, k);
}

int oob_dynamic_shared(std::size_t dyn_bytes, std::size_t index) {
    extern __shared__ float dyn[];
    std::vector<Phase> k = {{[=](unsigned t) {
                                 if (t == 0) dyn[index] = 1.f; /* @oob-dyn */
                             },
                             true}};
    return fake::run({"oob_dynamic_shared", 1, {32, 1, 1}, dyn_bytes, fake::Order::forward}, k);
}

int global_read(const float* in, float* out, unsigned n_threads) {
    std::vector<Phase> k = {{[=](unsigned t) {
                                 out[t] = in[t]; /* @global-read */
                             },
                             true}};
    return fake::run({"global_read", 1, {n_threads, 1, 1}, 0, fake::Order::forward}, k);
}

int global_float4_load(const float* buf, float* out) {
    std::vector<Phase> k = {{[=](unsigned t) {
                                 const Float4 v = reinterpret_cast<const Float4*>(buf)[t]; /* @float4-load */
                                 out[t] = v.x + v.y + v.z + v.w;
                             },
                             true}};
    return fake::run({"global_float4_load", 1, {4, 1, 1}, 0, fake::Order::forward}, k);
}

int global_struct16_load(const unsigned short* buf, unsigned short* out) {
    std::vector<Phase> k = {{[=](unsigned t) {
                                 const Vec8 v = reinterpret_cast<const Vec8*>(buf)[t]; /* @vec8-load */
                                 out[t] = v.d[0];
                             },
                             true}};
    return fake::run({"global_struct16_load", 1, {2, 1, 1}, 0, fake::Order::forward}, k);
}

// Neighbouring 2-byte elements of one device buffer, written and rewritten by different threads: no race.
int global_halves(unsigned short* buf) {
    std::vector<Phase> k = {
        {[=](unsigned t) { buf[t] = static_cast<unsigned short>(t); }, false},
        {[=](unsigned t) { buf[t] = static_cast<unsigned short>(buf[t] + 1); }, true},
        {[=](unsigned t) { g_sink = buf[t ^ 1u]; }, true},
    };
    return fake::run({"global_halves", 1, {64, 1, 1}, 0, fake::Order::forward}, k);
}

// Every thread stores one value to one shared slot (the same value, or its own index).
int shared_same_value(bool same) {
    std::vector<Phase> k = {
        {[=](unsigned t) {
             bcast_value() = same ? 2.f : float(t); /* @same-store */
         },
         true},
        {[](unsigned) { g_sink = bcast_value(); }, true},
    };
    return fake::run({"shared_same_value", 1, {64, 1, 1}, 0, fake::Order::forward}, k);
}

int hook_calls_loop(float* data, std::size_t n, int reps) {
    std::vector<Phase> k = {{[=](unsigned t) {
                                 for (int r = 0; r < reps; ++r) {
                                     for (std::size_t i = t; i < n; i += 256) data[i] = data[i] * 0.5f + 1.f;
                                     if (t < 128) tree()[t] = data[t];
                                 }
                             },
                             true}};
    return fake::run({"hook_calls_loop", 1, {256, 1, 1}, 0, fake::Order::forward}, k);
}

}  // namespace scen
