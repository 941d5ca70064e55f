// Self-test of the harness's runner protocol helpers (command line, tags, names, result file), run by `make test`.
#include <cstdio>
#include <fstream>

#include "protocol.hpp"
#include "sanitizer_output.hpp"
#include "wire.hpp"

#include <unistd.h>

static int failures = 0;
#define EXPECT(c)                                                      \
    do {                                                               \
        if (!(c)) {                                                    \
            ++failures;                                                \
            std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #c); \
        }                                                              \
    } while (0)

static void test_protocol() {
    const std::string result_path = std::string(WB_SELFTEST_DIR) + "/result.json";
    using namespace wb;
    {
        const char* argv[] = {"h",           "--wb-run",  "rmsnorm: a b",         "--wb-result",
                              "/tmp/r.json", "--wb-seed", "18446744073709551615", "-s"};
        Options o = parse_options(8, const_cast<char**>(argv));
        EXPECT(o.error.empty());
        EXPECT(o.run && *o.run == "rmsnorm: a b");
        EXPECT(o.seed && *o.seed == 18446744073709551615ull);
        EXPECT(o.catch_args.size() == 2 && o.catch_args[1] == "-s");
        EXPECT(wants_run(8, const_cast<char**>(argv)));
    }
    {
        const char* argv[] = {"h", "--wb-run", "x"};
        EXPECT(!parse_options(3, const_cast<char**>(argv)).error.empty());  // no --wb-result
        const char* argv2[] = {"h", "--wb-seed", "-1"};
        EXPECT(!parse_options(3, const_cast<char**>(argv2)).error.empty());
        const char* argv3[] = {"h", "--wb-bogus"};
        EXPECT(!parse_options(2, const_cast<char**>(argv3)).error.empty());
        const char* argv4[] = {"h", "--wb-list"};
        Options o = parse_options(2, const_cast<char**>(argv4));
        EXPECT(o.error.empty() && o.list && !wants_run(2, const_cast<char**>(argv4)));
    }
    {
        // Where and how the submission runs: the worker's options.
        const char* argv[] = {"h",    "--wb-worker",      "/w",        "--wb-backend",      "gpu", "--wb-sandbox",
                              "none", "--wb-sandbox-why", "no userns", "--wb-call-timeout", "7.5", "--wb-worker-rss-mb",
                              "512",  "--wb-worker-env",  "A=b",       "--wb-hide",         "/x"};
        Options o = parse_options(17, const_cast<char**>(argv));
        EXPECT(o.error.empty());
        EXPECT(o.worker == "/w" && o.backend == "gpu" && o.sandbox == "none" && o.sandbox_why == "no userns");
        EXPECT(o.call_timeout_s == 7.5 && o.worker_rss_mb == 512);
        EXPECT(o.worker_env == std::vector<std::string>{"A=b"} && o.hide == std::vector<std::string>{"/x"});
        const char* bad1[] = {"h", "--wb-backend", "cpu"};
        EXPECT(!parse_options(3, const_cast<char**>(bad1)).error.empty());
        const char* bad2[] = {"h", "--wb-sandbox", "maybe"};
        EXPECT(!parse_options(3, const_cast<char**>(bad2)).error.empty());
        const char* bad3[] = {"h", "--wb-call-timeout", "0"};
        EXPECT(!parse_options(3, const_cast<char**>(bad3)).error.empty());
        const char* bad4[] = {"h", "--wb-worker-env", "NOEQUALS"};
        EXPECT(!parse_options(3, const_cast<char**>(bad4)).error.empty());
    }
    EXPECT((parse_tags("[rmsnorm][edge]") == std::vector<std::string>{"rmsnorm", "edge"}));
    EXPECT(parse_tags("rmsnorm").empty());
    EXPECT(parse_tags("[a][").empty());
    EXPECT(name_problem("rmsnorm: hidden size 256 (one element per thread)").empty());
    EXPECT(!name_problem("rmsnorm: 7, 768").empty());
    EXPECT(!name_problem("rmsnorm: [x]").empty());
    EXPECT(!name_problem("*x").empty());
    EXPECT(!name_problem(" x").empty());
    TestOutcome out;
    out.name = "t";
    out.ran = true;
    out.passed = false;
    out.assertions = 3;
    out.failures = {"bad \xff byte"};
    nlohmann::json j = result_json("abc", 18446744073709551615ull, out);
    std::string err;
    EXPECT(write_result_file(result_path, j, &err));
    std::ifstream in(result_path);
    nlohmann::json back = nlohmann::json::parse(in);
    EXPECT(back["nonce"] == "abc" && back["status"] == "failed" && back["assertions"] == 3);
    EXPECT(back["seed"].get<std::uint64_t>() == 18446744073709551615ull);
    EXPECT(back["failures"].size() == 1);
    std::printf("result file: %s\n", back.dump().c_str());
    EXPECT(!write_result_file("/nonexistent/dir/r.json", j, &err) && !err.empty());
}

// The judge reads every reply as hostile input: round trips hold, anything malformed, truncated or oversized is refused,
// and a peer that sends half a frame cannot hold the reader past its deadline.
static void test_wire() {
    using namespace wb::wire;
    Request rq;
    rq.entry = "launch_rmsnorm";
    rq.arena_size = 4096;
    rq.buffers = {{1, 0, 100}, {2, 256, 3000}};
    Arg p;
    p.tag = ArgTag::pointer;
    p.buffer = 2;
    p.offset = 6;
    Arg f;
    f.tag = ArgTag::f32;
    f.bits = 0x3f800000;
    rq.args = {p, f};
    std::string why;
    auto back = decode_request(encode(rq), &why);
    EXPECT(back && back->entry == "launch_rmsnorm" && back->buffers.size() == 2 &&
           back->buffers[1].arena_offset == 256 && back->args.size() == 2 && back->args[0].offset == 6 &&
           back->args[1].bits == 0x3f800000);
    Request timed = rq;
    timed.timed_repeats = 50;
    timed.copy_bytes = 1ull << 30;
    auto tb = decode_request(encode(timed), &why);
    EXPECT(tb && tb->timed_repeats == 50 && tb->copy_bytes == (1ull << 30));
    Request too_many = rq;
    too_many.timed_repeats = kMaxItems + 1;
    EXPECT(!decode_request(encode(too_many), &why));
    Request outside = rq;
    outside.buffers.push_back({3, 4000, 200});  // past the arena's end
    EXPECT(!decode_request(encode(outside), &why));
    Reply rp;
    rp.launch_error = "cudaErrorInvalidValue (invalid argument)";
    rp.diagnostics = {"race", "bounds"};
    auto r2 = decode_reply(encode(rp), &why);
    EXPECT(r2 && r2->defined && r2->launch_error == rp.launch_error && r2->diagnostics.size() == 2);
    rp.kernel_ms = {0.125f, 0.25f};
    rp.copy_ms = {0.1f};
    rp.timing_error = "none";
    auto r3 = decode_reply(encode(rp), &why);
    EXPECT(r3 && r3->kernel_ms == rp.kernel_ms && r3->copy_ms == rp.copy_ms && r3->timing_error == "none");
    std::string bytes = encode(rp);
    EXPECT(!decode_reply(bytes.substr(0, bytes.size() - 1), &why));  // truncated
    EXPECT(!decode_reply(bytes + "x", &why));                        // trailing bytes
    EXPECT(!decode_reply(encode(rq), &why));                         // a request is not a reply
    int fds[2];
    EXPECT(::pipe(fds) == 0);
    const unsigned char huge[] = {0xff, 0xff, 0xff, 0xff};
    EXPECT(::write(fds[1], huge, 4) == 4);
    EXPECT(!recv_frame(fds[0], now_ms() + 1000, &why) && why.find("oversized") != std::string::npos);
    const unsigned char half[] = {10, 0, 0, 0, 'a'};  // announces 10 bytes, sends 1
    EXPECT(::write(fds[1], half, 5) == 5);
    bool timed_out = false;
    EXPECT(!recv_frame(fds[0], now_ms() + 200, &why, &timed_out) && timed_out);
    ::close(fds[0]);
    ::close(fds[1]);
}

// compute-sanitizer's reports, in the shapes its four tools print (the racecheck lines as seen on an H200).
static void test_sanitizer_output() {
    using wb::remote::parse_sanitizer_output;
    {
        const std::string text =
            "student print\n"
            "========= COMPUTE-SANITIZER\n"
            "========= Invalid __global__ write of size 4 bytes\n"
            "=========     at rmsnorm_kernel(const float *, const float *, float *, int, float)+0x1f0 in "
            "/w/rmsnorm.cu:41\n"
            "=========     by thread (255,0,0) in block (3,0,0)\n"
            "=========     Address 0x7f0000001000 is out of bounds\n"
            "========= \n"
            "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA "
            "API call to cudaStreamSynchronize.\n"
            "========= Target application returned an error\n"
            "========= ERROR SUMMARY: 2 errors\n";
        const auto r = parse_sanitizer_output(text);
        EXPECT(r.started && r.finished);
        EXPECT(r.errors == 2);
        EXPECT(r.findings.size() == 2);
        EXPECT(r.findings.size() == 2 &&
               r.findings[0].find("Invalid __global__ write of size 4 bytes\nat rmsnorm_kernel") == 0);
        EXPECT(r.findings.size() == 2 &&
               r.findings[0].find("/w/rmsnorm.cu:41\nby thread (255,0,0) in block (3,0,0)") != std::string::npos);
        EXPECT(r.findings.size() == 2 && r.findings[1].rfind("Program hit cudaErrorLaunchFailure", 0) == 0);
    }
    {
        const std::string text =
            "========= COMPUTE-SANITIZER\n"
            "========= Error: Race reported between Write access at K()+0x90 in probe.cu:13\n"
            "=========     and Read access at K()+0xa0 in probe.cu:14 [2048 hazards]\n"
            "========= \n"
            "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
        const auto r = parse_sanitizer_output(text);
        EXPECT(r.finished && r.errors == 1);
        EXPECT(r.findings.size() == 1 && r.findings[0] ==
                                             "Error: Race reported between Write access at K()+0x90 in probe.cu:13\n"
                                             "and Read access at K()+0xa0 in probe.cu:14 [2048 hazards]");
    }
    {
        const auto clean = parse_sanitizer_output("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n");
        EXPECT(clean.started && clean.finished && clean.errors == 0 && clean.findings.empty());
        // A worker that died before the tool could sum up: started, not finished; a student's own fake line outside the
        // tool's prefix is no finding.
        const auto cut = parse_sanitizer_output("========= COMPUTE-SANITIZER\nERROR SUMMARY: 0 errors\n");
        EXPECT(cut.started && !cut.finished);
        const auto none = parse_sanitizer_output("no tool here\n");
        EXPECT(!none.started && !none.finished && none.findings.empty());
    }
    {
        std::string many = "========= COMPUTE-SANITIZER\n";
        for (int i = 0; i < 15; ++i)
            many += "========= Invalid __shared__ read of size 4 bytes\n=========     at K()+0x10 in k.cu:" +
                    std::to_string(i) + "\n";
        many += "========= ERROR SUMMARY: 15 errors\n";
        const auto r = parse_sanitizer_output(many, 10);
        EXPECT(r.findings.size() == 10 && r.findings_left_out == 5 && r.errors == 15);
    }
    {
        const char* argv[] = {"h", "--wb-sanitize", "memcheck"};
        EXPECT(!wb::parse_options(3, const_cast<char**>(argv)).error.empty());  // emu: refused
        const char* gpu[] = {"h", "--wb-backend", "gpu", "--wb-sanitize", "racecheck"};
        const auto o = wb::parse_options(5, const_cast<char**>(gpu));
        EXPECT(o.error.empty() && o.sanitize == "racecheck");
        const char* bad[] = {"h", "--wb-backend", "gpu", "--wb-sanitize", "leakcheck"};
        EXPECT(!wb::parse_options(5, const_cast<char**>(bad)).error.empty());
    }
}

int main() {
    test_wire();
    test_protocol();
    test_sanitizer_output();
    std::printf("%s (%d failures)\n", failures ? "FAILED" : "harness protocol self-test passed", failures);
    return failures ? 1 : 0;
}
