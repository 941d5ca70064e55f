// emu-rewrite: launches and __shared__ declarations, line numbers kept, errors at the .cu line.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "workbook_catch.hpp"
#include "rewrite.hpp"

namespace {

const std::string kHead = "#include <emu/rewritten.hpp>\n#line 1 \"t.cu\"\n";

// The rewritten body (without the two prelude lines); fails the test on problems.
std::string rw(const std::string& src) {
    emu::rewrite::Result r = emu::rewrite::rewrite(src, "t.cu");
    INFO(src);
    for (const auto& p : r.problems) FAIL_CHECK(p.line << ":" << p.column << ": " << p.message);
    REQUIRE(r.text.compare(0, kHead.size(), kHead) == 0);
    const std::string body = r.text.substr(kHead.size());
    CHECK(std::count(body.begin(), body.end(), '\n') == std::count(src.begin(), src.end(), '\n'));
    return body;
}

std::string launch_of(const std::string& callee, const std::string& cfg, const std::string& args) {
    return "::emu::launch(\"" + callee + "\", [=](auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { " +
           callee + "(emu_a_...); }, " + cfg + ")" + args;
}

std::string slot() {
    return "([]() -> ::emu::SharedSlot* { static ::emu::SharedSlot emu_slot_; return &emu_slot_; }(), ";
}

std::string read(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// Rewrites `src` with the emu-rewrite tool and compiles the result; returns the compiler's output.
std::string compile(const std::string& name, const std::string& src, int* status) {
    const std::filesystem::path dir = EMU_TEST_TMP;
    std::filesystem::create_directories(dir);
    const std::filesystem::path cu = dir / name, cpp = dir / (name + ".cpp"), log = dir / (name + ".log");
    std::ofstream(cu) << src;
    const std::string rewrite = std::string(EMU_TEST_REWRITE) + " " + cu.string() + " " + cpp.string();
    REQUIRE(std::system(rewrite.c_str()) == 0);
    const std::string cc = std::string(EMU_TEST_CXX) + " -std=c++17 -fsyntax-only -I" + EMU_TEST_FAKE_PRELUDE + " -I" +
                           EMU_TEST_INCLUDE + " " + cpp.string() + " > " + log.string() + " 2>&1";
    *status = std::system(cc.c_str());
    return read(log);
}

}  // namespace

TEST_CASE("emu.rewrite: plain and template launches", "[rewrite]") {
    CHECK(rw("k<<<g, b>>>(x, y);") == launch_of("k", "g, b", "(x, y);"));
    CHECK(rw("k<256><<<M, 256, 0, s>>>(a);") == launch_of("k<256>", "M, 256, 0, s", "(a);"));
    CHECK(rw("k<256, float><<<M, 256>>>(a);") == launch_of("k<256, float>", "M, 256", "(a);"));
    CHECK(rw("ns::k<T, ns::Op<T>><<<1, 32>>>(a);") == launch_of("ns::k<T, ns::Op<T>>", "1, 32", "(a);"));
    CHECK(rw("::top<<<1,1>>>();") == launch_of("::top", "1,1", "();"));
    // A callee computed rather than named is evaluated on the host, at the launch (runtime/kernel_reach.cpp).
    CHECK(rw("(*fp)<<<1, 1>>>(p);") ==
          "::emu::launch(\"(*fp)\", [emu_k_ = (*fp)](auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { "
          "emu_k_(emu_a_...); }, 1, 1)(p);");
    CHECK(rw("k<<<dim3(a, b), f(c, d)>>>(x);") == launch_of("k", "dim3(a, b), f(c, d)", "(x);"));
    CHECK(rw("k<<<n >> 5, 256>>>(x);") == launch_of("k", "n >> 5, 256", "(x);"));
}

TEST_CASE("emu.rewrite: '<<<' in strings and comments, '>>>' closing templates", "[rewrite]") {
    const std::string s = "const char* s = \"k<<<1,1>>>()\"; // k<<<1,1>>>()\n/* f<<<2,2>>>(); */\n";
    CHECK(rw(s) == s);
    const std::string t = "A<B<C<int>>> x;\nstd::vector<std::vector<std::pair<int, int>>> v;\n";
    CHECK(rw(t) == t);
    CHECK(rw("A<B<C<int>>> x; k<<<1, 2>>>(x);") == "A<B<C<int>>> x; " + launch_of("k", "1, 2", "(x);"));
}

TEST_CASE("emu.rewrite: a launch over several lines keeps every line", "[rewrite]") {
    const std::string out = rw("rmsnorm<BLOCK>\n    <<<M,\n       BLOCK, 0,\n       stream>>>(in,\n out);\nnext();\n");
    CHECK(out ==
          "::emu::launch(\"rmsnorm<BLOCK>\", [=](auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { "
          "rmsnorm<BLOCK>(emu_a_...); }, \n    M,\n"
          "       BLOCK, 0,\n       stream)(in,\n out);\nnext();\n");
}

TEST_CASE("emu.rewrite: __shared__ declarations", "[rewrite]") {
    CHECK(rw("void f() { __shared__ float s; }") ==
          "void f() { auto& s = ::emu::shared_var<float>" + slot() + "\"s\"); }");
    CHECK(rw("void f() {\n  __shared__ float tile[32][33];\n}") ==
          "void f() {\n  auto& tile = ::emu::shared_var<float [ 32 ] [ 33 ]>" + slot() + "\"tile\");\n}");
    CHECK(rw("void f() { static __shared__ float s[N]; }") ==
          "void f() { auto& s = ::emu::shared_var<float [ N ]>" + slot() + "\"s\"); }");
    CHECK(rw("void f() { __shared__ __align__(16) char b[64]; }") ==
          "void f() { struct alignas(16) emu_align_b_ {}; auto& b = ::emu::shared_var<char [ 64 ]>" + slot() +
              "\"b\", alignof(emu_align_b_)); }");
    CHECK(rw("void f() { alignas(float4) __shared__ char b[64]; }") ==
          "void f() { struct alignas(float4) emu_align_b_ {}; auto& b = ::emu::shared_var<char [ 64 ]>" + slot() +
              "\"b\", alignof(emu_align_b_)); }");
    CHECK(rw("void f() { __shared__ typename BlockReduce::TempStorage tmp; }") ==
          "void f() { auto& tmp = ::emu::shared_var<typename BlockReduce :: TempStorage>" + slot() + "\"tmp\"); }");
    CHECK(rw("void f() { __shared__ cub::BlockReduce<float, 256>::TempStorage t; }") ==
          "void f() { auto& t = ::emu::shared_var<cub :: BlockReduce < float , 256 > :: TempStorage>" + slot() +
              "\"t\"); }");
    CHECK(rw("void f() { __shared__ float a, b[4], *p; }") ==
          "void f() { auto& a = ::emu::shared_var<float>" + slot() +
              "\"a\"); auto& b = ::emu::shared_var<float [ 4 ]>" + slot() +
              "\"b\"); auto& p = ::emu::shared_var<float *>" + slot() + "\"p\"); }");
    CHECK(rw("void f() { __shared__ volatile int flag; }") ==
          "void f() { auto& flag = ::emu::shared_var<volatile int>" + slot() + "\"flag\"); }");
}

TEST_CASE("emu.rewrite: extern and namespace-scope __shared__", "[rewrite]") {
    CHECK(rw("void f() { extern __shared__ float smem[]; }") ==
          "void f() { auto* const smem = ::emu::dynamic_shared<float>(); }");
    CHECK(rw("void f() { extern __shared__ __align__(16) unsigned char raw[]; }") ==
          "void f() { auto* const raw = ::emu::dynamic_shared<unsigned char>(); }");
    // `&smem` is the array's address (GUPS: `(benchtype*)&extern_mem`); `&smem[i]` and a binary & are left alone.
    CHECK(rw("void f() { extern __shared__ float smem[]; float* p = (float*)&smem; float* q = &smem[2]; }") ==
          "void f() { auto* const smem = ::emu::dynamic_shared<float>(); float* p = "
          "(float*)(::emu::array_address(smem)); "
          "float* q = &smem[2]; }");
    CHECK(rw("void f() { extern __shared__ float smem[]; } void g(int smem) { int m = 3 & smem; int* a = &smem; }") ==
          "void f() { auto* const smem = ::emu::dynamic_shared<float>(); } void g(int smem) { int m = 3 & smem; "
          "int* a = &smem; }");
    CHECK(rw("extern __shared__ float dyn[];\nnamespace a { __shared__ int g[4]; }") ==
          "static auto* const dyn = ::emu::dynamic_shared<float>();\nnamespace a { static auto& g = "
          "::emu::shared_var<int [ 4 ]>" +
              slot() + "\"g\"); }");
    // Braces of a class or function are not namespace scope.
    CHECK(rw("namespace n { void f() { __shared__ int x; } }") ==
          "namespace n { void f() { auto& x = ::emu::shared_var<int>" + slot() + "\"x\"); } }");
}

TEST_CASE("emu.rewrite: launches and __shared__ inside #define", "[rewrite]") {
    CHECK(rw("#define RUN(k) \\\n  k<<<1, 32>>>(p)\nint x;\n") ==
          "#define RUN(k) \\\n  " + launch_of("k", "1, 32", "(p)") + "\nint x;\n");
    CHECK(rw("#define DECL __shared__ float s[8];\n") ==
          "#define DECL auto& s = ::emu::shared_var<float [ 8 ]>" + slot() + "\"s\");\n");
}

TEST_CASE("emu.rewrite: what cannot be rewritten is reported at its line", "[rewrite]") {
    auto r = emu::rewrite::rewrite("int a;\nvoid f() {\n  __shared__ float s = 0;\n}\n", "t.cu");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].line == 3);
    CHECK(r.problems[0].message.find("initializer") != std::string::npos);
    r = emu::rewrite::rewrite("void f() {\n  k<<<1, 1(p);\n}\n", "t.cu");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].line == 2);
    r = emu::rewrite::rewrite("void f() {\n  1<<<1, 1>>>(p);\n}\n", "t.cu");
    REQUIRE(r.problems.size() == 1);
}

TEST_CASE("emu.rewrite: the rewritten code compiles, and compiler errors name the .cu line", "[rewrite]") {
    const std::string good =
        "template <int B, typename T>\n"
        "__global__ void scale(T* p, int n) {\n"
        "  __shared__ T tile[B];\n"
        "  __shared__ __align__(16) unsigned char raw[64];\n"
        "  extern __shared__ float dyn[];\n"
        "  tile[0] = p[0]; raw[0] = 1; dyn[0] = 2.f;\n"
        "}\n"
        "template <int B> __global__ void fill(float* p) { p[0] = B; }\n"
        "namespace ns { __global__ void k2(int) {} }\n"
        "void host(float* p, int n) {\n"
        "  scale<128><<<1, 128>>>(p, n);\n"
        "  scale<64, float><<<1, 64, 256>>>(p, n);\n"
        "  fill<3><<<2, 32>>>(p);\n"
        "  ns::k2<<<1,\n"
        "      1>>>(7);\n"
        "  void (*fp)(int) = ns::k2;\n"
        "  (*fp)<<<1, 1>>>(1);\n"
        "}\n";
    int status = 0;
    std::string log = compile("good.cu", good, &status);
    INFO(log);
    CHECK(status == 0);

    const std::string bad =
        "__global__ void k(float* p) {\n"
        "  __shared__ float s[4];\n"
        "  s[0] = p[0];\n"
        "}\n"
        "void host(float* p) {\n"
        "  k<<<1,\n"
        "     1>>>(p);\n"
        "  undeclared_name = 3;\n"
        "}\n";
    log = compile("bad.cu", bad, &status);
    INFO(log);
    CHECK(status != 0);
    CHECK(log.find("bad.cu:8:3: error:") != std::string::npos);
    CHECK(log.find("undeclared_name") != std::string::npos);
}

TEST_CASE("emu.rewrite: __noinline__ standing alone is spelled out; inside an attribute it stays", "[rewrite]") {
    CHECK(rw("__noinline__ void f() {}") == "__attribute__((noinline)) void f() {}");
    CHECK(rw("static __noinline__ __device__ int g();") == "static __attribute__((noinline)) __device__ int g();");
    for (const std::string& kept : {"__attribute__((__noinline__)) void f();", "[[__gnu__::__noinline__]] void f();",
                                    "__attribute__((__cold__, __noinline__)) void f();"})
        CHECK(rw(kept) == kept);
}
