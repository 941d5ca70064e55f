// emu-nvcc's parts on their own: nvcc's command line, the merge of the __CUDA_ARCH__ passes, the rewrite of
// preprocessed text (problems at the original file:line from the line markers).
#include <string>
#include <vector>

#include "arch_merge.hpp"
#include "missing_library.hpp"
#include "options.hpp"
#include "refused_names.hpp"
#include "rewrite.hpp"
#include "workbook_catch.hpp"

using emu::driver::Lang;
using emu::driver::merge_arch_passes;
using emu::driver::parse_options;

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
    for (const auto& x : v)
        if (x == s) return true;
    return false;
}

bool ignored(const emu::driver::Options& o, const std::string& flag) {
    for (const auto& x : o.ignored)
        if (x.rfind(flag + ":", 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("emu-nvcc options: nvcc's spellings", "[driver]") {
    const auto r = parse_options({"-arch=sm_80",
                                  "-O3",
                                  "-Iinc",
                                  "-I",
                                  "inc2",
                                  "--include-path=inc3",
                                  "-DX=1",
                                  "-D",
                                  "Y",
                                  "-UZ",
                                  "-x",
                                  "cu",
                                  "kernel.txt",
                                  "-x",
                                  "none",
                                  "host.cpp",
                                  "lib.o",
                                  "-Xcompiler",
                                  "-fopenmp,-O2",
                                  "-lcublas",
                                  "-L/l",
                                  "--std=c++20",
                                  "-o",
                                  "out.o",
                                  "-G",
                                  "--expt-relaxed-constexpr",
                                  "--expt-extended-lambda",
                                  "-rdc=true",
                                  "-lineinfo",
                                  "--use_fast_math",
                                  "-gencode",
                                  "arch=compute_90,code=sm_90",
                                  "-MD",
                                  "-MF",
                                  "d.d"});
    INFO(r.error);
    REQUIRE(r.error.empty());
    const auto& o = r.options;
    REQUIRE(o.inputs.size() == 3);
    CHECK(o.inputs[0].lang == Lang::cuda);  // -x cu applies to the files after it
    CHECK(o.inputs[1].lang == Lang::cxx);   // -x none: by extension again
    CHECK(o.inputs[2].lang == Lang::object);
    CHECK_FALSE(o.compile_only);
    CHECK(o.output == "out.o");
    CHECK(o.pp_flags ==
          std::vector<std::string>{"-Iinc", "-Iinc2", "-Iinc3", "-DX=1", "-DY", "-UZ", "-D__USE_FAST_MATH__=1"});
    CHECK(has(o.host_flags, "-fopenmp"));
    CHECK_FALSE(has(o.host_flags, "-O2"));  // the checks need -O0: said, not passed
    CHECK(has(o.host_flags, "-std=c++20"));
    CHECK(o.libs == std::vector<std::string>{"cublas"});
    CHECK(o.link_dirs == std::vector<std::string>{"/l"});
    CHECK(o.cuda_arch == 900);  // the highest named: compute_90 over sm_80
    CHECK(o.dep_flags == std::vector<std::string>{"-MD", "-MF", "d.d"});
    for (const char* f : {"-arch=sm_80", "-O3", "-G", "-lineinfo", "--use_fast_math", "-Xcompiler -O2"})
        CHECK(ignored(o, f));
    CHECK_FALSE(ignored(o, "-Iinc"));
}

TEST_CASE("emu-nvcc options: refusals", "[driver]") {
    CHECK(parse_options({"--frobnicate", "a.cu"}).error.find("unknown option '--frobnicate'") != std::string::npos);
    CHECK(parse_options({"a.cu", "-o"}).error.find("needs a value") != std::string::npos);
    CHECK(parse_options({"-c", "-o", "x.o", "a.cu", "b.cu"}).error.find("several input files") != std::string::npos);
    CHECK(parse_options({"notes.txt"}).error.find("-x cu") != std::string::npos);
    CHECK(parse_options({"-O2"}).error == "no input files");
    CHECK(parse_options({"-std=c++14", "a.cu"}).options.host_flags.empty());  // C++17 at least: said, not passed
}

namespace {

// The tokens of preprocessed text, without line markers and blanks: what the compiler reads.
std::string squash(const std::string& text) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        if (line.rfind("# ", 0) != 0)
            for (char c : line)
                if (c != ' ' && c != '\t') out += c;
        start = end + 1;
    }
    return out;
}

// Preprocessed text as g++ -E writes it: a line marker, then the file's lines.
std::string pp(const std::string& body) { return "# 1 \"k.cu\"\n" + body; }

}  // namespace

TEST_CASE("emu-nvcc __CUDA_ARCH__: identical passes stay as they are", "[driver]") {
    const std::string t = pp("__global__ void k() {}\nint main() { return 0; }\n");
    const auto m = merge_arch_passes(t, t);
    CHECK(m.text == t);
    CHECK_FALSE(m.differed);
    CHECK(m.problems.empty());
}

TEST_CASE("emu-nvcc __CUDA_ARCH__: device code from the device pass, host code from the host pass", "[driver]") {
    const std::string host =
        pp("__device__ int f() {\n  return -1;\n}\n"
           "__global__ void k(int* p) { *p = f() + 0; }\n"
           "int h() { return 0; }\n"
           "\n"  // where the device pass has a line the host pass skipped, g++ -E leaves an empty line
           "int g(int x) { return x; }\n");
    const std::string device =
        pp("__device__ int f() {\n  return 900;\n}\n"
           "__global__ void k(int* p) { *p = f() + 1; }\n"
           "int h() { return 1; }\n"
           "__device__ int only_on_device() { return 7; }\n"
           "int g(int x) { return x; }\n");
    const auto m = merge_arch_passes(host, device);
    INFO(m.text);
    for (const auto& p : m.problems) FAIL_CHECK(p.file << ":" << p.line << ": " << p.message);
    REQUIRE(m.problems.empty());
    CHECK(m.differed);
    CHECK(squash(m.text) ==
          "__device__intf(){return900;}"             // device function: device pass
          "__global__voidk(int*p){*p=f()+1;}"        // kernel: device pass
          "inth(){return0;}"                         // host function: host pass
          "__device__intonly_on_device(){return7;}"  // declared in the device pass only: kept
          "intg(intx){returnx;}");
    // Every line still says where it came from: the spliced device text sits between line markers.
    const auto r = emu::rewrite::rewrite_preprocessed(m.text + "void bad() { __shared__ int (*fp)(); }\n");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].file == "k.cu");
    CHECK(r.problems[0].line == 8);
}

TEST_CASE("emu-nvcc __CUDA_ARCH__: what cannot be merged is refused at its line", "[driver]") {
    SECTION("a __host__ __device__ body that depends on it") {
        const auto m = merge_arch_passes(pp("int x;\n__host__ __device__ int f() {\n  return 0;\n}\n"),
                                         pp("int x;\n__host__ __device__ int f() {\n  return 1;\n}\n"));
        REQUIRE(m.problems.size() == 1);
        CHECK(m.problems[0].file == "k.cu");
        CHECK(m.problems[0].line == 3);
        CHECK(m.problems[0].message.find("'f' is __host__ __device__") != std::string::npos);
    }
    SECTION("two versions of a namespace-scope declaration") {
        const auto m = merge_arch_passes(pp("int a;\nconst int width = 1;\n"), pp("int a;\nconst int width = 2;\n"));
        REQUIRE(m.problems.size() == 1);
        CHECK(m.problems[0].line == 2);
        CHECK(m.problems[0].message.find("declarations here differ") != std::string::npos);
    }
    SECTION("inline PTX in device code") {
        const std::string t =
            pp("__device__ unsigned lane() {\n  unsigned r;\n  asm(\"mov.u32 %0, %%smid;\" : \"=r\"(r));\n  return "
               "r;\n}\n"
               "inline int host_side() { __asm__(\"nop\"); return 0; }\n");
        const auto m = merge_arch_passes(t, t);
        REQUIRE(m.problems.size() == 1);  // the host function's assembly is x86 and fine
        CHECK(m.problems[0].line == 3);
        CHECK(m.problems[0].message.find("inline assembly in device code ('lane')") != std::string::npos);
    }
    SECTION("a read of a special register the emulator knows is accepted, other forms are not") {
        const std::string t = pp(
            "__device__ unsigned lane() {\n  unsigned r, m;\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));\n"
            "  asm volatile(\"mov.u32 %0, \" \"%%lanemask_lt;\" : \"=r\"(m) : : \"memory\");\n"
            "  asm(\"mov.u64 %0, %%laneid;\" : \"=l\"(r));\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r) : \"r\"(m));\n"
            "  return r + m;\n}\n");
        const auto m = merge_arch_passes(t, t);
        REQUIRE(m.problems.size() == 2);  // a 64-bit move of a 32-bit register; an input operand
        CHECK(m.problems[0].line == 5);
        CHECK(m.problems[1].line == 6);
    }
    SECTION("an empty assembly template is a compiler barrier, not PTX, and stays") {
        const std::string t = pp(
            "__device__ unsigned keep(unsigned w) {\n  asm(\"\" : \"+r\"(w));\n  asm volatile(\"\" ::: \"memory\");\n"
            "  return w;\n}\n"
            "__device__ void ptx_too() { asm volatile(\"\" \"bar.sync 0;\"); }\n");
        const auto m = merge_arch_passes(t, t);
        REQUIRE(m.problems.size() == 1);  // only the template that holds an instruction
        CHECK(m.problems[0].line == 6);
    }
    SECTION("host-only declarations are simply left out of device code") {
        const auto m = merge_arch_passes(pp("int a;\nint host_only();\nint b;\n"), pp("int a;\n\nint b;\n"));
        CHECK(m.problems.empty());
        CHECK(m.text.find("host_only") != std::string::npos);
    }
}

TEST_CASE("emu-nvcc rewrite of preprocessed text", "[driver]") {
    const std::string src =
        "# 1 \"main.cu\"\n"
        "# 1 \"kern.cuh\" 1\n"
        "__global__ void add_kernel(float* p) { __shared__ float t[4]; t[0] = *p; }\n"
        "# 3 \"main.cu\" 2\n"
        "__host__ __device__ int f() { return 1; }\n"
        "__noinline__ void g() {}\n"
        "int main() { add_kernel<<<1, 4>>>(nullptr); }\n";
    const auto r = emu::rewrite::rewrite_preprocessed(src);
    INFO(r.text);
    REQUIRE(r.problems.empty());
    CHECK(r.text.find("__global__") == std::string::npos);
    CHECK(r.text.find("__host__") == std::string::npos);
    CHECK(r.text.find("auto& t = ::emu::shared_var<float [ 4 ]>") != std::string::npos);
    CHECK(r.text.find("::emu::launch(\"add_kernel\"") != std::string::npos);
    CHECK(r.text.find("__attribute__((noinline)) void g()") != std::string::npos);
    CHECK(std::count(r.text.begin(), r.text.end(), '\n') == std::count(src.begin(), src.end(), '\n'));
    SECTION("launch brackets split as nvcc accepts them, and a special-register read") {
        const std::string spaced =
            "# 1 \"main.cu\"\nvoid h(float* p) {\n  k << <2, 32 >> > (p);\n  k<<<1, 1>>\n  >(p);\n"
            "  unsigned lane;\n  asm volatile(\"mov.u32 %0, %%laneid;\"\n      : \"=r\"(lane));\n}\n";
        const auto sp = emu::rewrite::rewrite_preprocessed(spaced);
        INFO(sp.text);
        REQUIRE(sp.problems.empty());
        CHECK(sp.text.find("::emu::launch(\"k\", [=](auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { "
                           "k(emu_a_...); },  2, 32 ) (p);") != std::string::npos);
        CHECK(sp.text.find("::emu::launch(\"k\", [=](auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { "
                           "k(emu_a_...); }, 1, 1)") != std::string::npos);
        CHECK(sp.text.find("(lane) = ::emu::detail::ptx_laneid();") != std::string::npos);
        CHECK(sp.text.find("asm") == std::string::npos);
        CHECK(std::count(sp.text.begin(), sp.text.end(), '\n') == std::count(spaced.begin(), spaced.end(), '\n'));
        // '<<' and '<' on two lines is a shift and a comparison to nvcc too: not a launch
        const auto apart = emu::rewrite::rewrite_preprocessed("# 1 \"main.cu\"\nvoid h() { k<<\n<1, 1>>>(); }\n");
        CHECK(apart.text.find("::emu::launch") == std::string::npos);
    }
    const auto bad =
        emu::rewrite::rewrite_preprocessed("# 1 \"main.cu\"\n# 7 \"inc.cuh\"\nvoid h() { x<<<1, 1>>>; }\n");
    REQUIRE(bad.problems.size() == 1);
    CHECK(bad.problems[0].file == "inc.cuh");
    CHECK(bad.problems[0].line == 7);
}

TEST_CASE("emu-nvcc registers each kernel defined once outside a template, on its own line", "[driver]") {
    const std::string src =
        "# 1 \"main.cu\"\n"
        "namespace ns { __global__ void __attribute__((noinline)) scale(float* p, int n) { p[0] *= n; } }\n"
        "template <int B> __global__ void tiled(float* p) { p[0] = B; }\n"
        "__global__ void twice(int* p) {}\n"
        "__global__ void twice(float* p) {}\n"
        "__global__ void declared_only(int* p);\n"
        "struct S { __device__ void m() {} };\n";
    const auto r = emu::rewrite::rewrite_preprocessed(src);
    INFO(r.text);
    REQUIRE(r.problems.empty());
    CHECK(r.text.find("p[0] *= n; } static const bool emu_kernel_registered_0 [[maybe_unused]] = "
                      "::emu::detail::register_kernel(scale); }\n") != std::string::npos);
    CHECK(r.text.find("register_kernel(tiled)") == std::string::npos);  // a template: no address yet
    CHECK(r.text.find("register_kernel(twice)") == std::string::npos);  // overloaded: ambiguous
    CHECK(r.text.find("register_kernel(declared_only)") == std::string::npos);
    CHECK(std::count(r.text.begin(), r.text.end(), '\n') == std::count(src.begin(), src.end(), '\n'));
}

TEST_CASE("emu-nvcc launches a kernel overloaded by a host function by name", "[driver]") {
    // The program's own file, after the prelude's marker header (the program's own code, as emu-nvcc preprocesses it).
    const std::string kernel =
        "# 1 \"/opt/emu/include/emu/arg_read.hpp\" 1\n# 1 \"main.cu\"\n__global__ void k(int* p) { *p = 1; }\n";
    // Defined once: called with its parameters' bytes, and registered for cudaLaunchKernel.
    const auto once = emu::rewrite::rewrite_preprocessed(kernel + "void run(int* p) { k<<<1, 1>>>(p); }\n");
    INFO(once.text);
    REQUIRE(once.problems.empty());
    CHECK(once.text.find("::emu::detail::byte_call(k, ") != std::string::npos);
    CHECK(once.text.find("register_kernel(k)") != std::string::npos);
    // A host launcher of the kernel's name (llm.c's dev/cuda) makes `k` an overload set, which only a call resolves.
    const auto overloaded = emu::rewrite::rewrite_preprocessed(kernel + "void k(int* p, int n) { k<<<1, n>>>(p); }\n");
    INFO(overloaded.text);
    REQUIRE(overloaded.problems.empty());
    CHECK(overloaded.text.find("byte_call") == std::string::npos);
    CHECK(overloaded.text.find("register_kernel") == std::string::npos);
    CHECK(overloaded.text.find("::emu::launch(\"k\", [=](auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { "
                               "k(emu_a_...); }, 1, n)(p);") != std::string::npos);
    // Calls and returns of the name are not functions of that name.
    const auto calls = emu::rewrite::rewrite_preprocessed(
        kernel + "int f(int* p) { k<<<1, 1>>>(p); if (p) { k(p); } return k(p), 0; }\n");
    INFO(calls.text);
    CHECK(calls.text.find("::emu::detail::byte_call(k, ") != std::string::npos);
    // Nor is a member function of that name, whose scope is its class's.
    const auto member = emu::rewrite::rewrite_preprocessed(
        kernel + "struct S { void k(int* p, int n) { n = *p; } };\nvoid run(int* p) { k<<<1, 1>>>(p); }\n");
    INFO(member.text);
    CHECK(member.text.find("::emu::detail::byte_call(k, ") != std::string::npos);
    CHECK(member.text.find("register_kernel(k)") != std::string::npos);
}

TEST_CASE("emu-nvcc wraps element arguments of calls in the program's own files only", "[driver]") {
    const std::string src =
        "# 1 \"main.cu\"\n"
        "# 1 \"/usr/include/c++/12/utility\" 1 3\n"
        "void sys(int* a) { swap(a[0], a[1]); }\n"
        "# 1 \"/opt/emu/include/emu/arg_read.hpp\" 1\n"
        "void lib(int* a) { f(a[0]); }\n"
        "# 3 \"main.cu\" 2\n"
        "float user(const T* x, S* s, int i) { return to_f(x[i]) + g(s->v[i][0], 2) + h(x[i] + 1) + "
        "static_cast<float>(x[i]) + float(x[i]) + q(x[i++]) + q(x[n(i)]); }\n"
        "void kept(int i) { if (x[i]) {} while (y[i]) {} k(sizeof(x[i]), decltype(x[i])(), x); void d(T[]); }\n";
    const auto r = emu::rewrite::rewrite_preprocessed(src);
    INFO(r.text);
    REQUIRE(r.problems.empty());
    CHECK(r.text.find("swap(a[0], a[1])") != std::string::npos);  // a system header
    CHECK(r.text.find("f(a[0])") != std::string::npos);           // the emulator's own headers
    CHECK(r.text.find("to_f((::emu::detail::arg_probe(x[i]), x [ i ]))") != std::string::npos);
    CHECK(r.text.find("g((::emu::detail::arg_probe(s->v[i][0]), s -> v [ i ] [ 0 ]), 2)") != std::string::npos);
    CHECK(r.text.find("h(x[i] + 1)") != std::string::npos);  // an expression, not one element
    CHECK(r.text.find("static_cast<float>((::emu::detail::arg_probe(x[i]), x [ i ]))") != std::string::npos);
    CHECK(r.text.find("float((::emu::detail::arg_probe(x[i]), x [ i ]))") != std::string::npos);
    CHECK(r.text.find("q(x[i++])") != std::string::npos);   // evaluated twice it would change i
    CHECK(r.text.find("q(x[n(i)])") != std::string::npos);  // a call in the index
    CHECK(r.text.find("if (x[i])") != std::string::npos);
    CHECK(r.text.find("while (y[i])") != std::string::npos);
    CHECK(r.text.find("sizeof(x[i])") != std::string::npos);
    CHECK(r.text.find("decltype(x[i])") != std::string::npos);
    CHECK(r.text.find("d(T[])") != std::string::npos);
}

TEST_CASE("emu-nvcc materializes the value a statement stores into memory, and nothing else around an '='",
          "[driver]") {
    const std::string src =
        "# 1 \"/opt/emu/include/emu/arg_read.hpp\" 1\n"
        "void lib(T* y) { y[0] = f(0); }\n"
        "# 1 \"main.cu\"\n"
        "void k(T* y, S* s, T** pp, int i) { y[i] = f(i); if (i) s->v[i][1] = g(); *y = a + b; (*y) = h(); "
        "s->w = c ? f(1) : f(2); at(i) = f(3); ::buf[i] = f(4);\n"
        "int a[2] = {1, 2}; T* p = f(5); y[i] = {h()}; y[i] = y[0] = f(1); bool e = y[i] == f(2); y[i] += f(3); "
        "v = f(6); s.x = f(7); y[i] = z; pp[i] = &y[0]; m(y[i] = f(8)); for (;; y[i] = f(9)) {} y[i] = m<A, B>(1); "
        "enum { E = f(10) }; S() = default; reinterpret_cast<float4*>(y)[i] = mk(1); get<0>(t)[i] = f(11); }\n";
    const auto r = emu::rewrite::rewrite_preprocessed(src);
    INFO(r.text);
    REQUIRE(r.problems.empty());
    CHECK(r.text.find("y[0] = f(0);") != std::string::npos);  // the emulator's own header
    CHECK(r.text.find("{ y[i] = ::emu::detail::stored_value( f(i));") != std::string::npos);
    CHECK(r.text.find("if (i) s->v[i][1] = ::emu::detail::stored_value( g());") != std::string::npos);
    CHECK(r.text.find("*y = ::emu::detail::stored_value( a + b);") != std::string::npos);  // `__half` a + b
    CHECK(r.text.find("(*y) = ::emu::detail::stored_value( h());") != std::string::npos);
    CHECK(r.text.find("s->w = ::emu::detail::stored_value( c ? f(1) : f(2));") != std::string::npos);
    CHECK(r.text.find("at(i) = ::emu::detail::stored_value( f(3));") != std::string::npos);
    CHECK(r.text.find("::buf[i] = ::emu::detail::stored_value( f(4));") != std::string::npos);
    CHECK(r.text.find("int a[2] = {1, 2};") != std::string::npos);  // declarations
    CHECK(r.text.find("T* p = f(5);") != std::string::npos);
    CHECK(r.text.find("y[i] = {h()};") != std::string::npos);         // a braced value
    CHECK(r.text.find("y[i] = y[0] = f(1);") != std::string::npos);   // chained
    CHECK(r.text.find("y[i] == f(2)") != std::string::npos);          // a comparison
    CHECK(r.text.find("y[i] += f(3)") != std::string::npos);          // compound: the operator stores itself
    CHECK(r.text.find("v = f(6);") != std::string::npos);             // a local
    CHECK(r.text.find("s.x = f(7);") != std::string::npos);           // a member of a local
    CHECK(r.text.find("y[i] = z;") != std::string::npos);             // a copy g++ instruments
    CHECK(r.text.find("pp[i] = &y[0];") != std::string::npos);        // an address
    CHECK(r.text.find("m(y[i] = f(8));") != std::string::npos);       // inside an expression
    CHECK(r.text.find("for (;; y[i] = f(9))") != std::string::npos);  // a for-header
    CHECK(r.text.find("y[i] = m<A, B>(1);") != std::string::npos);    // a comma: not told from an operator
    CHECK(r.text.find("enum { E = f(10) };") != std::string::npos);
    CHECK(r.text.find("S() = default;") != std::string::npos);
    CHECK(r.text.find("reinterpret_cast<float4*>(y)[i] = ::emu::detail::stored_value( mk(1));") != std::string::npos);
    CHECK(r.text.find("get<0>(t)[i] = ::emu::detail::stored_value( f(11));") != std::string::npos);
    CHECK(std::count(r.text.begin(), r.text.end(), '\n') == std::count(src.begin(), src.end(), '\n'));
}

TEST_CASE("emu-nvcc refuses textures and graphs by name, not a program's own variable of such a name", "[driver]") {
    using emu::rewrite::refused_feature;
    // 1D and 2D texture and surface objects are emulated (emu/texture.hpp); 3D, layered, cubemap, gather and the
    // legacy references are refused.
    CHECK_FALSE(refused_feature("cudaTextureObject_t", "t").has_value());
    CHECK_FALSE(refused_feature("tex2D", "<").has_value());
    CHECK_FALSE(refused_feature("tex1Dfetch", "(").has_value());
    CHECK(refused_feature("tex3D", "<").value_or("").find("3D, layered, cubemap and mipmapped textures") == 0);
    CHECK(refused_feature("tex2DLayered", "(").has_value());
    CHECK(refused_feature("cudaMalloc3DArray", "(").has_value());
    CHECK(refused_feature("texture", "<").has_value());
    CHECK(refused_feature("cudaGraphExec_t", "exec").value_or("").find("CUDA graphs") == 0);
    // A variable or member named like a fetch function, or a word such as `texture`, is the program's own.
    CHECK_FALSE(refused_feature("tex2D", "=").has_value());
    CHECK_FALSE(refused_feature("texture", ";").has_value());
    CHECK_FALSE(refused_feature("textureSize", "(").has_value());
}

TEST_CASE("emu-nvcc names the library of a missing header", "[driver]") {
    using emu::driver::missing_library_note;
    CHECK(missing_library_note("gemm.cu:3:10: fatal error: mma.h: No such file or directory")
              .find("mma.h is part of the warp matrix (tensor core, nvcuda::wmma) API") != std::string::npos);
    CHECK(missing_library_note("a.cu:1:10: fatal error: own_header.h: No such file or directory").empty());
    CHECK(missing_library_note("s.cu:3:10: fatal error: thrust/sort.h: No such file or directory")
              .find("libthrust-dev") != std::string::npos);
}

TEST_CASE("emu-nvcc finds a header of the real CUB in a translation unit", "[driver]") {
    using emu::driver::real_cub_header;
    // The emulator's own CUB (beside its emu/ folder) is not the real one; a cub/ folder without emu/ beside it is.
    const std::string own = std::string(EMU_INCLUDE_DIR) + "/cub/cub.cuh";
    CHECK_FALSE(real_cub_header("# 1 \"a.cu\"\n# 1 \"" + own + "\" 1\nint x;\n").found);
    const auto r = real_cub_header("# 1 \"a.cu\"\nint x;\n# 1 \"/nowhere/cub/block/block_exchange.cuh\" 1 3\n");
    CHECK(r.found);
    CHECK(r.file == "/nowhere/cub/block/block_exchange.cuh");
    CHECK(r.line == 3);
}
