// The edit check reads what the compiler reads, and a fill holds arithmetic on the kernel's own values only
// (review/fill_policy.hpp). Each attack below is one a student could hand in; each must be a veto with one sentence
// that names it, and no fill of the lesson's own solutions may be refused.
#include "workbook_catch.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "review/edit_check.hpp"
#include "review/host_fill.hpp"
#include "lesson/answers.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"
#include "review/tokens.hpp"

using namespace workbook::review;
using namespace workbook::lesson;
namespace fs = std::filesystem;

namespace {

const char* kSolution = R"(#include <cuda_runtime.h>

__global__ void k(const float* in, float* out, int M, int N, float eps) {
  int row = blockIdx.x;
  if (row >= M) return;
  __shared__ float inv;
  float sq = 0.f;
  // BLANK:sum
  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += in[row * N + i] * in[row * N + i];
  // END BLANK
  if (threadIdx.x == 0) inv = /*BLANK:inv*/rsqrtf(sq / N + eps)/*END*/;
  __syncthreads();
  for (int i = threadIdx.x; i < N; i += blockDim.x) out[row * N + i] = in[row * N + i] * inv;
}
)";

std::string starter() { return make_starter(kSolution, "k.cu").text; }

std::string with_fills(const std::string& sum, const std::string& inv) {
    std::string s = starter();
    s.replace(s.find("______  // blank: sum"), 21, sum);
    s.replace(s.find("inv = ______;"), 13, "inv = " + inv + ";");
    return s;
}

const std::string kSum = "for (int i = threadIdx.x; i < N; i += blockDim.x) sq += in[row * N + i] * in[row * N + i];";

EditCheck check_inv(const std::string& inv) {
    return edit_check_text(starter(), with_fills(kSum, inv), "k.cu", {"sum", "inv"});
}
EditCheck check_sum(const std::string& sum) {
    return edit_check_text(starter(), with_fills(sum, "rsqrtf(sq / N + eps)"), "k.cu", {"sum", "inv"});
}

// A refusal by the policy, whose one sentence holds `says`.
void require_refused(const EditCheck& r, const std::string& says) {
    INFO(r.reason);
    REQUIRE_FALSE(r.ok);
    CHECK(r.refused);
    CHECK(r.reason.find(says) != std::string::npos);
    CHECK(r.reason.find('\n') == std::string::npos);
    CHECK(r.reason.rfind("k.cu:", 0) == 0);
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("fill policy: ordinary fills pass", "[fill_policy]") {
    CHECK(check_inv("rsqrtf(sq / static_cast<float>(N) + eps)").ok);
    CHECK(check_inv("1.0f / sqrtf(sq / N + eps)").ok);
    CHECK(check_inv("__frsqrt_rn(sq / N + eps)").ok);
    CHECK(check_sum("#pragma unroll 4\n  for (int i = threadIdx.x; i < N; i += blockDim.x) { const float v = in[row * "
                    "N + i]; sq += v * v; }")
              .ok);
    CHECK(check_sum("auto add = [&](int i) { sq += in[row * N + i] * in[row * N + i]; };\n"
                    "  for (int i = threadIdx.x; i < N; i += blockDim.x) add(i);")
              .ok);
    // The alternative operator spellings are operators.
    CHECK(check_sum(
              "for (int i = threadIdx.x; i < N and i >= 0; i += blockDim.x) sq += in[row * N + i] * in[row * N + i];")
              .ok);
}

TEST_CASE("fill policy: preprocessor directives and operators are refused", "[fill_policy]") {
    require_refused(check_sum("#define SQ(x) ((x) * (x))\n  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += "
                              "SQ(in[row * N + i]);"),
                    "preprocessor directive (`# define SQ");
    require_refused(check_sum("#include \"/etc/passwd\"\n  sq = 1.f;"), "preprocessor directive (`# include");
    require_refused(check_sum("#if 1\n  sq = 1.f;\n#endif"), "preprocessor directive (`# if 1`)");
    require_refused(check_sum("%:define Q 1\n  sq = Q;"), "preprocessor directive (`# define Q 1`)");
    require_refused(check_sum("#pragma GCC optimize(\"O0\")\n  sq = 1.f;"), "preprocessor directive");
    require_refused(check_inv("_Pragma(\"GCC diagnostic ignored \\\"-Wall\\\"\") 1.f"), "`_Pragma`");
    require_refused(check_inv("sq #"), "preprocessing operator `#`");
}

TEST_CASE("fill policy: a fill cannot tell the emulator from a GPU", "[fill_policy]") {
    require_refused(check_inv("rsqrtf(sq / N + eps) * (__CUDA_ARCH__ > 0)"), "`__CUDA_ARCH__`, a name reserved");
    require_refused(check_inv("__CUDACC__ + 1.f"), "`__CUDACC__`");
    require_refused(check_inv("rsqrtf(sq / N + eps + WORKBOOK_EMU)"), "`WORKBOOK_EMU`, part of the grader's own code");
    require_refused(check_inv("CUDA_VERSION * 0.f + rsqrtf(sq / N + eps)"), "differs between the emulator and a GPU");
}

TEST_CASE("fill policy: the grader's and the system's internals are out of reach", "[fill_policy]") {
    require_refused(check_inv("(emu::take_diagnostics(), rsqrtf(sq / N + eps))"),
                    "`emu`, part of the grader's own code");
    require_refused(check_inv("(__tsan_release(&inv), rsqrtf(sq / N + eps))"), "`__tsan_release`");
    require_refused(check_inv("(__sanitizer_set_report_path(0), 1.f)"), "`__sanitizer_set_report_path`");
    require_refused(check_inv("(wb04::forge(), 1.f)"), "`wb04`");
    require_refused(check_inv("(emu_arg_read(&inv, 4, 0, 0), 1.f)"), "`emu_arg_read`, part of the grader's own code");
    require_refused(check_inv("(emu_register_symbol(0), 1.f)"), "`emu_register_symbol`");
    require_refused(check_sum("asm volatile(\"\");"), "keyword `asm`");
    require_refused(check_sum("__asm__(\"nop\");"), "`__asm__`");
    require_refused(check_inv("(dlopen(0, 0), 1.f)"), "`dlopen`, a call that loads or looks up code");
    require_refused(check_inv("(syscall(60, 0), 1.f)"), "`syscall`, a raw system call");
    require_refused(check_inv("(std::system(0), 1.f)"), "qualified name (`std::system`)");
    require_refused(check_inv("(system(0), 1.f)"), "`system`, a call that controls the process");
    require_refused(check_inv("(::rsqrtf)(sq / N + eps)"), "qualified name");
    require_refused(check_inv("(fork(), 1.f)"), "`fork`");
    require_refused(check_inv("(cudaFree((void*)in), 1.f)"), "`cudaFree`, the CUDA runtime API");
    require_refused(check_inv("(execv(0, 0), 1.f)"), "`execv`");
    require_refused(check_inv("(exit(0), 1.f)"), "`exit`, a call that controls the process");
    require_refused(check_inv("(_exit(0), 1.f)"), "`_exit`");
    require_refused(check_inv("(abort(), 1.f)"), "`abort`");
    require_refused(check_inv("(quick_exit(0), 1.f)"), "`quick_exit`");
    require_refused(check_inv("(atexit(0), 1.f)"), "`atexit`");
    require_refused(check_inv("(fopen(0, 0), 1.f)"), "`fopen`, a file, stream or descriptor operation");
    require_refused(check_inv("(open(0, 0), 1.f)"), "`open`");
    require_refused(check_inv("(getenv(0), 1.f)"), "`getenv`, the process environment");
    // The C library is not instrumented: a copy through mempcpy, bcopy or strncpy, a sort, a formatted write, a
    // long double modfl read or write what the emulator's memory checker never sees (a race hidden in a call; until
    // session 8 hunt_race scored 3.00 / 3.00 with its scale read through mempcpy). None is a device function.
    require_refused(check_sum("float v; mempcpy(&v, in, sizeof(float) * (N > 0)); sq = v;"),
                    "`mempcpy`, a C library function that reads or writes memory through a pointer");
    require_refused(check_sum("float v; bcopy(in, &v, 4); sq = v;"), "`bcopy`, a C library function");
    require_refused(check_sum("float v; strncpy((char*)&v, (const char*)in, 4); sq = v;"), "`strncpy`");
    require_refused(check_sum("wmemcpy((wchar_t*)out, (const wchar_t*)in, N); sq = 0.f;"), "`wmemcpy`");
    require_refused(check_sum("qsort(out, N, 4, 0); sq = 0.f;"), "`qsort`");
    require_refused(check_sum("sprintf((char*)out, (const char*)in); sq = 0.f;"), "`sprintf`");
    require_refused(check_sum("long double i; modfl(1.5L, &i); sq = 0.f;"), "`modfl`");
    // What a kernel may call on a GPU stays allowed (the emulator checks the copies), and so do names that are words.
    CHECK(check_sum("float v; memcpy(&v, in, 4); sq = v;").ok);
    CHECK(
        check_sum("int index = 0, time = 1, select = 2; float c, s; sincosf(0.f, &s, &c); sq = index + time + s;").ok);
    require_refused(check_inv("(sq > 0 ? 1.f : *(float*)\"/proc/self/mem\")"), "string literal (`\"/proc/self/mem\"`)");
    require_refused(check_sum("struct S { __attribute__((constructor)) void f() {} };"), "`__attribute__`");
    require_refused(check_sum("struct S { [[gnu::constructor]] void f() {} };"), "attribute");
    require_refused(check_sum("static float once = 1.f; sq = once;"), "keyword `static`");
    require_refused(check_sum("thread_local float t = 0.f; sq = t;"), "keyword `thread_local`");
    require_refused(check_sum("extern float leak; sq = leak;"), "keyword `extern`");
    require_refused(check_sum("throw 1;"), "keyword `throw`");
    require_refused(check_sum("float* p = new float; sq = *p;"), "keyword `new`");
    require_refused(check_sum("k<<<1, 1>>>(in, out, M, N, eps);"), "launches a kernel");
    require_refused(check_inv("'a' * 1.f"), "character literal");
    require_refused(check_inv("sq $ 1"), "stray character `$`");
}

// A blank in host code (a launcher) runs where no emulator hook looks: a pointer made there could write the runtime's
// heap objects or its shadow memory (docs/security.md, "Session 10's red team"). Such a fill is held to a grammar:
// numbers from numbers. Checked on the two host blanks the lessons have, with the starters as they ship.
namespace {

struct HostBlank {
    std::string starter;
    std::vector<std::string> ids;
    std::string shipped;  // the starter's text of the blank
    std::string label;
};

HostBlank host_blank(const std::string& file) {
    const fs::path root = WORKBOOK_SOURCE_DIR;
    HostBlank h;
    h.label = file;
    h.starter = make_starter(read(root / "solutions" / "04-rmsnorm" / file), file).text;
    h.ids = pristine_blank_ids(h.starter);
    h.shipped = file == "hunt_mask.cu" ? "    const int threads = N;\n" : "    ______  // blank: pick_packs\n";
    return h;
}

EditCheck host_fill(const HostBlank& h, const std::string& fill) {
    std::string s = h.starter;
    const auto at = s.find(h.shipped);
    REQUIRE(at != std::string::npos);
    s.replace(at, h.shipped.size(), "    " + fill + "\n");
    return edit_check_text(h.starter, s, h.label, h.ids);
}

void require_host_refused(const HostBlank& h, const std::string& fill, const std::string& says) {
    const EditCheck r = host_fill(h, fill);
    INFO(fill);
    INFO(r.reason);
    REQUIRE_FALSE(r.ok);
    CHECK(r.refused);
    CHECK(r.reason.find(says) != std::string::npos);
    CHECK(r.reason.find("lies in host code") != std::string::npos);
    CHECK(r.reason.find('\n') == std::string::npos);
    CHECK(r.reason.rfind(h.label + ":", 0) == 0);
}

}  // namespace

TEST_CASE("fill policy: a blank in host code computes numbers from numbers", "[fill_policy]") {
    const HostBlank mask = host_blank("hunt_mask.cu");
    const HostBlank packs = host_blank("rmsnorm_bf16_fast.cu");
    // What the blanks see, pinned: a change of the starters that widens it must be looked at.
    const auto mask_context = host_contexts(pattern_tokens(mask.starter)).back();
    CHECK(mask_context.host);
    CHECK(mask_context.values == std::set<std::string>{"M", "N"});
    const auto packs_context = host_contexts(pattern_tokens(packs.starter)).back();
    CHECK(packs_context.host);
    CHECK(packs_context.values ==
          std::set<std::string>{"VEC", "VEC_BYTES", "kMaxThreads", "kMinThreads", "packs", "row_packs"});
    CHECK(packs_context.functions == std::set<std::string>{"pick_packs", "round_up_to_warp"});
    const auto mask_contexts = host_contexts(pattern_tokens(mask.starter));
    REQUIRE(mask_contexts.size() == 3);
    CHECK_FALSE(mask_contexts[0].host);  // lane_sums and lane_store are in the kernel: the emulator checks them
    CHECK_FALSE(mask_contexts[1].host);

    // Honest fills, the solutions' and others a student may write.
    for (const char* fill : {"const int threads = (N + 31) / 32 * 32;", "const int threads = (N + 31) & ~31;",
                             "const int threads = min(1024, max(32, (N + 31) / 32 * 32));",
                             "int threads = N; if (N % 32 != 0) { threads += 32 - N % 32; }",
                             "const int threads = N % 32 == 0 ? N : (N / 32 + 1) * 32;",
                             "const int threads = static_cast<int>(sizeof(float)) * 0 + (N + 31) / 32 * 32;",
                             "int w = (N + 31) >> 5; const int threads = w << 5;"}) {
        INFO(fill);
        CHECK(host_fill(mask, fill).ok);
    }
    for (const char* fill : {"while (packs > 1 && (row_packs + packs - 1) / packs < kMinThreads) packs /= 2;",
                             "for (int p = 4; p >= 1; p /= 2) { packs = p; if ((row_packs + p - 1) / p >= kMinThreads) "
                             "{ break; } }",
                             "packs = round_up_to_warp(row_packs) >= 4 * kMinThreads ? 4 : 1;"}) {
        INFO(fill);
        CHECK(host_fill(packs, fill).ok);
    }

    // Every way C++ makes or reaches a pointer, and each way to name something that is not a number.
    const std::string t = "const int threads = (N + 31) / 32 * 32; ";
    require_host_refused(mask, t + "*reinterpret_cast<long*>(N) = 0;", "unary `*`");
    require_host_refused(mask, t + "*(long*)(0x1000L + N) = 0;", "unary `*`");
    require_host_refused(mask, t + "long a = (long)&M; ", "unary `&`");
    require_host_refused(mask, t + "long a = M bitand N, b = bitand M;", "unary `&`");
    require_host_refused(mask, t + "(&M)[64] = 0;", "unary `&`");
    require_host_refused(mask, t + "int a[1]; a[512] = N;", "`[`");
    require_host_refused(mask, t + "int a<:1:>; a<:512:> = N;", "`[`");
    require_host_refused(mask, t + "output[-4096] = 0.f;", "names `output`");
    require_host_refused(mask, t + "input = output;", "names `input`");
    require_host_refused(mask, t + "stream = 0;", "names `stream`");
    require_host_refused(mask, t + "{ int output = 0; } output = 0;", "names `output`");
    require_host_refused(mask, "if (N) int output = 0; " + t, "single statement of an if");
    require_host_refused(mask, t + "for (int output = 0; output < 1; ++output) ; output = 0;", "names `output`");
    require_host_refused(mask, t + "int f(int); f(N);", "function declaration");
    require_host_refused(mask, t + "int& r = M; r = 0;", "unary `&`");
    require_host_refused(mask, t + "int&& r = 0;", "unary `&&`");
    require_host_refused(mask, t + "union { long i; float* p; } u; u.i = N;", "keyword `union`");
    require_host_refused(mask, t + "struct S { int* p; };", "keyword `struct`");
    require_host_refused(mask, t + "auto p = launch_center_rows;", "keyword `auto`");
    require_host_refused(mask, t + "decltype(N) n = 0;", "keyword `decltype`");
    require_host_refused(mask, t + "typedef int* P;", "keyword `typedef`");
    require_host_refused(mask, t + "long a = reinterpret_cast<long>(input);", "keyword `reinterpret_cast`");
    require_host_refused(mask, t + "const_cast<int&>(N) = 0;", "keyword `const_cast`");
    require_host_refused(mask, t + "int* p = nullptr;", "unary `*`");
    require_host_refused(mask, t + "long a = sizeof(*input);", "unary `*`");
    require_host_refused(mask, t + "cudaStream_t(N);", "names `cudaStream_t`");
    require_host_refused(mask, t + "memcpy(0, 0, N);", "names `memcpy`");
    require_host_refused(mask, t + "long a = bit_cast(N);", "names `bit_cast`");
    require_host_refused(mask, t + "threadIdx.x = 0;", "names `threadIdx`");
    require_host_refused(mask, t + "center_rows_kernel(0, 0, M, N);", "names `center_rows_kernel`");
    require_host_refused(mask, t + "long a = static_cast<long>(sizeof(long*));", "unary `*`");
    require_host_refused(mask, t + "int x = kAllLanes;", "names `kAllLanes`");
    require_host_refused(mask, t + "int x = N; x = (&x)[9];", "unary `&`");
    require_host_refused(mask, t + "int x = N; int y = x->z;", "`->`");
    require_host_refused(packs, "packs = rows_aligned(0, 0);", "names `rows_aligned`");
    require_host_refused(packs, "launch_packs<4>(0, 0, 0, 0, 0, 0, 0, 0, 0);", "names `launch_packs`");
    require_host_refused(packs, "packs = round_up_to_warp;", "names `round_up_to_warp`");
    require_host_refused(packs, "packs = [&] { return 4; }();", "`[`");
    require_host_refused(packs, "int x = 0; x = x ... 1;", "`...`");
    // The policy for every fill still applies first.
    const EditCheck with_asm = host_fill(packs, "packs = VEC; asm(\"\");");
    CHECK_FALSE(with_asm.ok);
    CHECK(with_asm.reason.find("keyword `asm`") != std::string::npos);
}

TEST_CASE("fill policy: line splices and trigraphs are refused, the reading honours them", "[fill_policy]") {
    // `/\<newline>/` is `//` to the compiler: it would comment out the starter's `;` after the blank.
    require_refused(check_inv("rsqrtf(sq / N + eps) /\\\n/"), "line splice");
    // A splice at the end of a comment in a fill would make the next starter line a comment too.
    require_refused(check_sum(kSum + " // sum of squares \\"), "line splice");
    // GCC also splices a backslash followed by blanks.
    require_refused(check_sum(kSum + " // sum \\  "), "line splice");
    // In an older mode `?\?/` is a backslash, and so a splice.
    require_refused(check_sum(kSum + " // what?\?/"), "trigraph `?\?/`");
    require_refused(check_inv("rsqrtf(sq / N + eps) ?\?' 0"), "trigraph");
}

TEST_CASE("fill policy: the edit check reads splices as the compiler does", "[fill_policy]") {
    // Outside the blanks a splice is refused too; and were it not, the reading would see the hidden line.
    std::string s = with_fills(kSum, "rsqrtf(sq / N + eps)");
    s.replace(s.find("  if (row >= M) return;"), 0, "  // guard \\\n");
    require_refused(edit_check_text(starter(), s, "k.cu", {"sum", "inv"}), "k.cu:5: this line ends with `\\`");
    const auto toks = code_tokens(s);
    for (const auto& t : toks) CHECK(t.text != "return");  // `if (row >= M) return;` is part of the comment
}

TEST_CASE("fill policy: a refusal names the line as the compiler counts it, a lone carriage return included",
          "[fill_policy]") {
    // The same file saved with old Mac line ends: the splice is still on line 5.
    std::string s = with_fills(kSum, "rsqrtf(sq / N + eps)");
    s.replace(s.find("  if (row >= M) return;"), 0, "  // guard \\\n");
    std::string pristine = starter();
    for (std::string* t : {&s, &pristine}) std::replace(t->begin(), t->end(), '\n', '\r');
    require_refused(edit_check_text(pristine, s, "k.cu", {"sum", "inv"}), "k.cu:5: this line ends with `\\`");
}

TEST_CASE("fill policy: line ends and a byte order mark are read as the compiler reads them", "[fill_policy]") {
    // A carriage return alone ends a line for GCC and nvcc: code after one in a `//` comment is compiled, so the
    // review must see it (read as a blank, `emu::take_diagnostics()` and a host computation were invisible to it).
    require_refused(check_sum(kSum + " // sum\r  (void)emu::take_diagnostics();"), "`emu`");
    std::string s = with_fills(kSum, "rsqrtf(sq / N + eps)");
    s.replace(s.find("  if (row >= M) return;"), 0, "  // guard\r  for (int i = 0; i < N; ++i) out[i] = 0.f;\n");
    const auto outside = edit_check_text(starter(), s, "k.cu", {"sum", "inv"});
    CHECK_FALSE(outside.ok);
    CHECK_FALSE(outside.refused);  // an edit outside the blanks: the edit check's veto
    // Honest files from other editors are the same program: CRLF line ends, and a UTF-8 byte order mark.
    std::string crlf;
    for (char c : with_fills(kSum, "rsqrtf(sq / N + eps)")) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    CHECK(edit_check_text(starter(), crlf, "k.cu", {"sum", "inv"}).ok);
    CHECK(edit_check_text(starter(), "\xEF\xBB\xBF" + with_fills(kSum, "rsqrtf(sq / N + eps)"), "k.cu", {"sum", "inv"})
              .ok);
}

TEST_CASE("fill policy: an 18 KB fill is refused before any rule runs on it", "[fill_policy]") {
    std::string big = "rsqrtf(sq / N + eps)";
    while (big.size() < 18 * 1024) big += " + 0.0f * sq";
    require_refused(check_inv(big), "tokens long, over the 1000 a fill may have");
}

TEST_CASE("fill policy: digraphs are read as their brackets", "[fill_policy]") {
    // A starter line respelled with digraphs is the same program.
    std::string s = with_fills(kSum, "rsqrtf(sq / N + eps)");
    s.replace(s.find("in[row * N + i] * inv;"), 22, "in<:row * N + i:> * inv;");
    CHECK(edit_check_text(starter(), s, "k.cu", {"sum", "inv"}).ok);
    // `%>` closes the kernel's brace: the fill reaches outside its blank.
    EditCheck r = check_sum("sq = 1.f; %> __global__ void other(float* p) <% p[0] = 1.f;");
    CHECK_FALSE(r.ok);
    CHECK_FALSE(r.refused);
    // A digraph-spelled edit outside the blanks is still an edit.
    std::string edited = with_fills(kSum, "rsqrtf(sq / N + eps)");
    edited.replace(edited.find("if (row >= M) return;"), 21, "if (row >= M) <% %>");
    CHECK_FALSE(edit_check_text(starter(), edited, "k.cu", {"sum", "inv"}).ok);
}

TEST_CASE("fill policy: no fill of the lesson's solutions or correct alternatives is refused", "[fill_policy]") {
    const fs::path root = WORKBOOK_SOURCE_DIR;
    for (const auto& id : workbook::lesson::lesson_ids(root)) {
        const auto L = workbook::lesson::load_lesson(root, id);
        for (const auto& ex : L.exercises) {
            const fs::path sol = L.solutions_dir() / ex.file();
            INFO(sol);
            const std::string starter = make_starter(read(sol), ex.file()).text;
            CHECK(edit_check_text(starter, strip_markers(read(sol), ex.file()).text, ex.file()).ok);
        }
        const fs::path alt = L.solutions_dir() / "alt" / "alt.json";
        if (!fs::exists(alt)) continue;
        for (const auto& a : nlohmann::json::parse(read(alt))) {
            const std::string name = a.value("name", std::string());
            INFO(name);
            const auto& ex = L.exercise(a.value("exercise", std::string()));
            const std::string starter = make_starter(read(L.solutions_dir() / ex.file()), ex.file()).text;
            CHECK_FALSE(edit_check_text(starter, workbook::lesson::known_answer_text(L, a), name).refused);
        }
    }
}
