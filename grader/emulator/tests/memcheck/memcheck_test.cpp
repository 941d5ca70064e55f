// The memory checker on the fake engine: each planted bug is reported (with the expected lines and threads) and its
// fixed version is not.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "workbook_catch.hpp"
#include "memcheck.hpp"
#include "scenarios.hpp"

namespace {

// "<path>/scenarios.cu:N" for the line holding `@marker` (the rewritten file's #line names the absolute path).
std::string at(const std::string& marker) {
    std::ifstream f(EMU_TEST_SCENARIOS);
    std::string line;
    for (int n = 1; std::getline(f, line); ++n) {
        if (line.find("@" + marker + " ") != std::string::npos)
            return std::string(EMU_TEST_SCENARIOS) + ":" + std::to_string(n);
    }
    FAIL("marker " << marker << " not found");
    return "";
}

std::string all(const std::vector<fake::Diag>& ds) {
    std::string s;
    for (const auto& d : ds) s += "[" + d.kind + "] " + d.message + "\n";
    return s;
}

struct Buffer {
    float* p;
    explicit Buffer(std::size_t n) : p(static_cast<float*>(emu::rt::device_alloc(n * sizeof(float), false))) {}
    ~Buffer() { emu::rt::device_free(p); }
};

}  // namespace

TEST_CASE("emu.memcheck: broadcast through shared memory without a barrier is a race", "[memcheck]") {
    fake::take();
    CHECK(scen::broadcast(false) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "race");
    const std::string& m = ds[0].message;
    CHECK(m.find("Race reported between Write access at " + at("bcast-write") + " by thread (0,0,0)") == 0);
    CHECK(m.find("and Read access at " + at("bcast-read") + " by thread (1,0,0) in block (0,0,0)") !=
          std::string::npos);
    CHECK(m.find("on __shared__ value") != std::string::npos);
    CHECK(m.find("__syncthreads()") != std::string::npos);
    CHECK(m.find("[126 hazards") != std::string::npos);  // 63 other readers in each of 2 blocks

    CHECK(scen::broadcast(true) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: in reverse order the missing barrier reads garbage", "[memcheck]") {
    fake::take();
    CHECK(scen::broadcast(false, fake::Order::reverse) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "race");  // thread 0 wrote in the first phase, before the others read, in any order
    CHECK(scen::broadcast(true, fake::Order::reverse) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: cross-warp partial sums read without a barrier", "[memcheck]") {
    fake::take();
    CHECK(scen::cross_warp_sum(false) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("Write access at " + at("partial-write") + " by thread (32,0,0)") != std::string::npos);
    CHECK(ds[0].message.find("Read access at " + at("partial-read") + " by thread (0,0,0)") != std::string::npos);
    CHECK(ds[0].message.find("__shared__ partial (bytes 4..7 of 128)") != std::string::npos);
    CHECK(scen::cross_warp_sum(true) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: several threads writing one slot is a write-write race", "[memcheck]") {
    fake::take();
    CHECK(scen::waw_one_slot(false) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("Race reported between Write access at " + at("waw-write") +
                             " by thread (0,0,0)\n    "
                             "and Write access at " +
                             at("waw-write") + " by thread (1,0,0)") == 0);
    CHECK(ds[0].message.find("[63 hazards") != std::string::npos);
    CHECK(scen::waw_one_slot(true) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: reading shared memory nothing wrote", "[memcheck]") {
    fake::take();
    CHECK(scen::uninit_read(false) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "uninitialized-shared");
    CHECK(ds[0].message.find("at " + at("uninit-read") + " by thread (31,0,0) in block (0,0,0)") != std::string::npos);
    CHECK(ds[0].message.find("bytes 124..127 of 128") != std::string::npos);
    CHECK(ds[0].message.find("[3 reads") != std::string::npos);  // once per block: values do not survive a block
    CHECK(scen::uninit_read(true) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: correct code gives no diagnostic", "[memcheck]") {
    fake::take();
    CHECK(scen::tree_reduction() == 0);
    CHECK(scen::bf16_neighbours() == 0);
    CHECK(scen::same_value_readers_and_own_slot() == 0);
    CHECK(scen::shared_atomics(false) == 0);
    CHECK(scen::warp_sync(true) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: a plain read racing with atomics", "[memcheck]") {
    fake::take();
    CHECK(scen::shared_atomics(true) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("Atomic access at " + at("atomic-add")) != std::string::npos);
    CHECK(ds[0].message.find("Read access at " + at("atomic-read")) != std::string::npos);
}

TEST_CASE("emu.memcheck: inside a warp, __syncwarp orders a write and a read", "[memcheck]") {
    fake::take();
    CHECK(scen::warp_sync(false) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("__syncwarp()") != std::string::npos);
    CHECK(ds[0].message.find("by thread (5,0,0)") != std::string::npos);
}

TEST_CASE("emu.memcheck: out-of-bounds shared writes end the launch", "[memcheck]") {
    fake::take();
    CHECK(scen::oob_shared_write(true) == 700);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "out-of-bounds");
    CHECK(ds[0].message.find("Invalid __shared__ write of size 4 bytes\n    at " + at("oob-shared")) == 0);
    CHECK(ds[0].message.find("by thread (32,0,0) in block (0,0,0)") != std::string::npos);
    CHECK(ds[0].message.find("0 bytes past the end of __shared__ partial (128 bytes)") != std::string::npos);
    CHECK(scen::oob_shared_write(false) == 0);
    CHECK(all(fake::take()).empty());

    CHECK(scen::oob_dynamic_shared(64, 16) == 700);
    ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("64 bytes into dynamic shared memory, but the launch requested only 64 bytes") !=
          std::string::npos);
    CHECK(scen::oob_dynamic_shared(68, 16) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: reading one past the end of a device buffer", "[memcheck]") {
    fake::take();
    Buffer in(100), out(101);
    CHECK(scen::global_read(in.p, out.p, 101) == 700);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "out-of-bounds");
    CHECK(ds[0].message.find("Invalid __global__ read of size 4 bytes\n    at " + at("global-read")) == 0);
    CHECK(ds[0].message.find("by thread (100,0,0) in block (0,0,0)") != std::string::npos);
    CHECK(ds[0].message.find("is 0 bytes after the end of an allocation at") != std::string::npos);
    CHECK(ds[0].message.find("of 400 bytes made at ") != std::string::npos);
    CHECK(ds[0].message.find("memcheck_test.cpp:") != std::string::npos);
    CHECK(scen::global_read(in.p, out.p, 100) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: use after cudaFree", "[memcheck]") {
    fake::take();
    Buffer out(8);
    auto* in = static_cast<float*>(emu::rt::device_alloc(8 * sizeof(float), false));
    REQUIRE(emu::rt::device_range_ok(in, 32));
    REQUIRE(emu::rt::device_free(in));
    CHECK_FALSE(emu::rt::device_free(in));
    CHECK_FALSE(emu::rt::device_range_ok(in, 4));
    CHECK(scen::global_read(in, out.p, 8) == 700);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "use-after-free");
    CHECK(ds[0].message.find("already released by cudaFree") != std::string::npos);
}

TEST_CASE("emu.memcheck: misaligned 16-byte loads", "[memcheck]") {
    fake::take();
    Buffer buf(64), out(16);
    CHECK(scen::global_float4_load(buf.p + 1, out.p) == 716);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == "misaligned");
    CHECK(ds[0].message.find("Invalid __global__ read of size 16 bytes\n    at " + at("float4-load")) == 0);
    CHECK(ds[0].message.find("byte 4 of an allocation") != std::string::npos);
    CHECK(scen::global_float4_load(buf.p, out.p) == 0);
    CHECK(all(fake::take()).empty());

    auto* h = reinterpret_cast<unsigned short*>(buf.p);
    CHECK(scen::global_struct16_load(h + 1, reinterpret_cast<unsigned short*>(out.p)) == 716);
    ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("at " + at("vec8-load")) != std::string::npos);
    CHECK(ds[0].message.find("byte 2 of an allocation") != std::string::npos);
    CHECK(scen::global_struct16_load(h + 8, reinterpret_cast<unsigned short*>(out.p)) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: neighbouring 2-byte elements of a device buffer do not race", "[memcheck]") {
    fake::take();
    Buffer buf(32);  // 64 halves
    CHECK(scen::global_halves(reinterpret_cast<unsigned short*>(buf.p)) == 0);
    CHECK(all(fake::take()).empty());
}

TEST_CASE("emu.memcheck: threads storing the same value to one slot do not race", "[memcheck]") {
    fake::take();
    CHECK(scen::shared_same_value(true) == 0);
    CHECK(all(fake::take()).empty());
    CHECK(scen::shared_same_value(false) == 0);
    auto ds = fake::take();
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message.find("Race reported between Write access at " + at("same-store") + " by thread (0,0,0)") == 0);
    CHECK(ds[0].message.find("[63 hazards") != std::string::npos);
}

TEST_CASE("emu.memcheck: hook overhead", "[.bench]") {
    const std::size_t n = 1 << 20;
    Buffer data(n);
    emu::mc::g_hook_calls = 0;
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(scen::hook_calls_loop(data.p, n, 4) == 0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%llu hook calls in %.3f s: %.1f M calls/s\n", static_cast<unsigned long long>(emu::mc::g_hook_calls),
                s, emu::mc::g_hook_calls / s / 1e6);
}
