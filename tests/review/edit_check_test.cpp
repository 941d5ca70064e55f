#include "workbook_catch.hpp"

#include "review/blanks.hpp"
#include "review/edit_check.hpp"
#include "lesson/markers.hpp"

using namespace workbook::review;
using namespace workbook::lesson;

namespace {

// A cut-down version of the lesson's kernel: a boundary check, an inline blank and a block blank.
const char* kSolution = R"(#include <cuda_runtime.h>

__global__ void k(const float* in, float* out, int M, int N, float eps) {
  int row = blockIdx.x;
  if (row >= M) return;  // rows past the end do nothing
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

std::string replace(std::string s, const std::string& from, const std::string& to) {
    auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

std::string filled() {
    std::string s =
        replace(starter(), "______  // blank: sum",
                "for (int i = threadIdx.x; i < N; i += blockDim.x) { float v = in[row * N + i]; sq += v * v; }");
    return replace(s, "inv = ______;", "inv = 1.0f / sqrtf(sq / N + eps);");
}

}  // namespace

TEST_CASE("a filled starter passes and its fills are returned", "[edit_check]") {
    EditCheck r = edit_check_text(starter(), filled(), "k.cu", {"sum", "inv"});
    REQUIRE(r.ok);
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].id == "sum");
    CHECK(r.fills[0].line == 8);
    CHECK(r.fills[0].text.find("float v = in[row * N + i];") != std::string::npos);
    CHECK(r.fills[1].id == "inv");
    CHECK(r.fills[1].text == "1.0f / sqrtf(sq / N + eps)");
    CHECK(r.fills[1].tokens == "1.0f / sqrtf ( sq / N + eps )");
    CHECK_FALSE(r.fills[1].unfilled);
}

TEST_CASE("the untouched starter matches, with every fill unfilled", "[edit_check]") {
    EditCheck r = edit_check_text(starter(), starter(), "k.cu", {"sum", "inv"});
    REQUIRE(r.ok);
    REQUIRE(r.fills.size() == 2);
    CHECK(r.fills[0].unfilled);
    CHECK(r.fills[1].unfilled);
}

TEST_CASE("whitespace and comment changes outside the blanks pass", "[edit_check]") {
    std::string s = replace(filled(), "  if (row >= M) return;  // rows past the end do nothing",
                            "  if (row>=M)\n      return;   /* my note */");
    s = replace(s, "__syncthreads();", "__syncthreads();   // wait for thread 0");
    s = "// Student: Ada\n\n" + s;
    EditCheck r = edit_check_text(starter(), s, "k.cu", {"sum", "inv"});
    CHECK(r.ok);
    CHECK(r.diff.empty());
}

TEST_CASE("a removed boundary check fails with the removed line in the diff", "[edit_check]") {
    std::string s = replace(filled(), "  if (row >= M) return;  // rows past the end do nothing\n", "");
    EditCheck r = edit_check_text(starter(), s, "k.cu", {"sum", "inv"});
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0] == "line 5: `if (row >= M) return;  // rows past the end do nothing` was removed");
    CHECK(r.reason.find("k.cu: code outside the blanks was changed (line 5)") == 0);
}

TEST_CASE("a changed condition is shown as the line it became", "[edit_check]") {
    std::string s = replace(filled(), "if (row >= M) return;", "if (row > M) return;");
    EditCheck r = edit_check_text(starter(), s, "k.cu");
    REQUIRE_FALSE(r.ok);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0].rfind("line 5: `if (row >= M) return;", 0) == 0);
    CHECK(r.changes[0].find("became `if (row > M) return;") != std::string::npos);
}

TEST_CASE("added code outside a blank is reported with its line", "[edit_check]") {
    std::string s = replace(filled(), "  __syncthreads();\n", "  __syncthreads();\n  if (N == 256) return;\n");
    EditCheck r = edit_check_text(starter(), s, "k.cu");
    REQUIRE_FALSE(r.ok);
    INFO(r.diff);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0] == "line 11: `if (N == 256) return;` was added");
}

TEST_CASE("a fill that closes the function and adds code outside fails", "[edit_check]") {
    std::string s =
        replace(starter(), "______  // blank: sum", "sq = 1.f; } __global__ void extra() { float sq = 0.f;");
    s = replace(s, "inv = ______;", "inv = rsqrtf(sq / N + eps);");
    EditCheck r = edit_check_text(starter(), s, "k.cu", {"sum", "inv"});
    REQUIRE_FALSE(r.ok);
    REQUIRE_FALSE(r.changes.empty());
    CHECK(r.diff.find("line 8") != std::string::npos);
}

TEST_CASE("an inline fill that closes a parenthesis fails", "[edit_check]") {
    std::string s = replace(filled(), "inv = 1.0f / sqrtf(sq / N + eps);", "inv = 1.f); (0;");
    EditCheck r = edit_check_text(starter(), s, "k.cu", {"sum", "inv"});
    CHECK_FALSE(r.ok);
}

TEST_CASE("unfilled blanks are named with their lines", "[blanks]") {
    std::string half = replace(starter(), "inv = ______;", "inv = rsqrtf(sq / N + eps);");
    auto u = find_unfilled(half, {"sum", "inv"}, starter());
    REQUIRE(u.size() == 1);
    CHECK(u[0].id == "sum");
    CHECK(u[0].line == 8);
    std::string msg = unfilled_message("k.cu", "k", "04", u);
    CHECK(msg.find("k.cu: blank 'sum' on line 8 is not filled yet") == 0);
    CHECK(msg.find("make hint-04 EX=k") != std::string::npos);

    // Without the pristine copy the block blank's own comment still names it.
    auto v = find_unfilled(half, {"sum", "inv"});
    REQUIRE(v.size() == 1);
    CHECK(v[0].id == "sum");
    CHECK(find_unfilled(filled(), {"sum", "inv"}, starter()).empty());
    // A `______` inside a comment is not a blank.
    CHECK(find_unfilled(filled() + "// ______\n", {"sum", "inv"}).empty());
}

TEST_CASE("adjacent block blanks split their fills the way the student wrote them", "[edit_check]") {
    // Device code: a blank in host code may hold no array access (review/host_fill.hpp).
    const std::string sol =
        "__device__ void f(int* a, int n) {\n"
        "  int i = 0;\n"
        "  // BLANK:body\n"
        "  for (; i + 4 <= n; i += 4) a[i] = 0;\n"
        "  // END BLANK\n"
        "  // BLANK:tail\n"
        "  for (; i < n; ++i) a[i] = 0;\n"
        "  // END BLANK\n"
        "}\n";
    const std::string starter = make_starter(sol, "f.cu").text;
    const std::vector<std::string> ids = {"body", "tail"};

    // Untouched: each placeholder is its own blank's (unfilled) fill.
    auto u = edit_check_text(starter, starter, "f.cu", ids);
    REQUIRE(u.ok);
    CHECK(u.fills[0].unfilled);
    CHECK(u.fills[1].unfilled);

    // First filled, second left: the placeholder stays with the second blank.
    std::string half = replace(starter, "______  // blank: body", "for (; i + 4 <= n; i += 4) a[i] = 1;");
    auto h = edit_check_text(starter, half, "f.cu", ids);
    REQUIRE(h.ok);
    CHECK_FALSE(h.fills[0].unfilled);
    CHECK(h.fills[1].unfilled);
    CHECK(find_unfilled(half, ids, starter).size() == 1);
    CHECK(find_unfilled(half, ids, starter)[0].id == "tail");

    // Both filled with the comments kept: each comment's line starts its blank's code.
    std::string both = replace(starter, "______  // blank: body", "a[0] = 1;\n  a[1] = 2;  // blank: body");
    both = replace(both, "______  // blank: tail", "a[2] = 3;  // blank: tail");
    auto b = edit_check_text(starter, both, "f.cu", ids);
    REQUIRE(b.ok);
    CHECK(b.fills[0].tokens == "a [ 0 ] = 1 ; a [ 1 ] = 2 ;");
    CHECK(b.fills[1].tokens == "a [ 2 ] = 3 ;");
}

TEST_CASE("a removed barrier after a filled blank is named, not confused with the fill's brackets", "[edit_check]") {
    // The fill `1.0f / sqrtf(...)` has `( ) ;` like the deleted `__syncthreads();`: a plain token LCS pairs them and
    // reports the blank's line as changed; the diff must name the barrier line only.
    std::string s = replace(filled(), "  __syncthreads();\n", "");
    EditCheck r = edit_check_text(starter(), s, "k.cu", {"sum", "inv"});
    REQUIRE_FALSE(r.ok);
    INFO(r.diff);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0] == "line 10: `__syncthreads();` was removed");
}
