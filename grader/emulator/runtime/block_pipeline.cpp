// make_pipeline(group, &shared_state, …) at block scope (include/cuda/pipeline): the group's threads count their
// roles into the shared state, sync, and the first one past the sync sets up each stage's barriers: "full" for the
// producers' commits, "empty" for the consumers' releases (block_barrier.cpp runs them).
#include <emu/block_barrier.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine.hpp"
#include "memcheck.hpp"

namespace emu::detail {

using namespace emu::rt;

void pipeline_join(PipelineShared* p, BarrierState* stage_barriers, unsigned stages, bool producer, bool consumer,
                   const void* pc, const char* file, int line) {
    if (!g_in_kernel) {
        std::fprintf(stderr, "emu: cuda::make_pipeline called outside a kernel (%s:%d)\n", file, line);
        std::abort();
    }
    Engine& e = g_engine;
    if (p->block != e.block_serial) {
        // The first thread here writes the shared state (for the memory checker: a plain write of all of it, which
        // the group's sync orders before every later use); the others only count themselves.
        mc::access(p, sizeof *p, mc::kWrite, pc);
        mc::access(stage_barriers, 2 * stages * sizeof(BarrierState), mc::kWrite, pc);
        p->block = e.block_serial;
        p->producers = p->consumers = p->joined = 0;
    }
    p->producers += producer;
    p->consumers += consumer;
    ++p->joined;
}

void pipeline_setup(PipelineShared* p, BarrierState* full, BarrierState* empty, unsigned stages, const char* file,
                    int line) {
    Engine& e = g_engine;
    if (full[0].block == e.block_serial) return;  // set up by a thread before this one
    if (p->producers == 0 || p->consumers == 0)
        fail_launch("barrier",
                    "cuda::make_pipeline at " + std::string(file) + ":" + std::to_string(line) + " in block " +
                        block_coords() + " of kernel " + e.name + "\n    the pipeline has " +
                        std::to_string(p->producers) + " producer(s) and " + std::to_string(p->consumers) +
                        " consumer(s); it needs at least one of each",
                    cudaErrorLaunchFailure);
    for (unsigned s = 0; s < stages; ++s) {
        for (BarrierState* b : {&full[s], &empty[s]}) {
            b->block = e.block_serial;
            b->expected = b->next_expected = b->pending = b == &full[s] ? p->producers : p->consumers;
            b->phase = 0;
            b->init_file = file;
            b->init_line = line;
            b->init_pc = nullptr;
            b->init_thread = ~0u;  // set up after the group's sync: ordered before every use
            b->init_epoch = ~0u;
        }
    }
}

}  // namespace emu::detail
