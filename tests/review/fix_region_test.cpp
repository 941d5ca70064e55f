// Fix regions, the markers of a bug hunt: a block blank whose starter shows its own (buggy) lines instead of
// `______`. The parser (lesson/markers.hpp), the sync that writes the starter from it, and the edit check that lets a
// student change the region's lines and nothing else.
#include "workbook_catch.hpp"

#include "fixture.hpp"
#include "util/errors.hpp"
#include "lesson/markers.hpp"
#include "lesson/sync.hpp"
#include "tools/status.hpp"
#include "review/edit_check.hpp"
#include "review/tokens.hpp"

using namespace workbook::review;
using namespace workbook::lesson;
namespace fs = std::filesystem;

namespace {

// The fixture's kernel as a bug hunt: blank `sum` is a fix region whose starter forgets to square; `inv` stays an
// ordinary inline blank. The `//>` lines are comments, so this file compiles as it is.
const char* kHunt = R"(// Demo exercise.
#include <cuda_runtime.h>

__global__ void k(const float* in, float* out, int M, int N, float eps) {
  int row = blockIdx.x;
  if (row >= M) return;
  __shared__ float inv;
  float sq = 0.f;
  // BLANK:sum
  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += in[row * N + i] * in[row * N + i];
  // STARTER
  //> for (int i = threadIdx.x; i < N; i += blockDim.x)
  //>     sq += in[row * N + i];
  //>
  // END BLANK
  if (threadIdx.x == 0) inv = /*BLANK:inv*/rsqrtf(sq / N + eps)/*END*/;
  __syncthreads();
  for (int i = threadIdx.x; i < N; i += blockDim.x) out[row * N + i] = in[row * N + i] * inv;
}

void launch_k(const float* in, float* out, int M, int N, float eps, cudaStream_t stream) {
  k<<<M, 256, 0, stream>>>(in, out, M, N, eps);
}
)";

const char* kStarterRegion =
    "  // fix: sum (edit only down to 'end fix')\n"
    "  for (int i = threadIdx.x; i < N; i += blockDim.x)\n"
    "      sq += in[row * N + i];\n"
    "\n"
    "  // end fix\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a fix region's starter shows its own lines between the fix comments", "[sync]") {
    const Converted c = make_starter(kHunt, "k.cu");
    REQUIRE(c.blanks.size() == 2);
    CHECK(c.blanks[0].id == "sum");
    CHECK(c.blanks[0].fix);
    CHECK(c.blanks[0].code ==
          "  for (int i = threadIdx.x; i < N; i += blockDim.x) sq += in[row * N + i] * in[row * N + i];\n");
    CHECK(c.blanks[0].starter ==
          "  for (int i = threadIdx.x; i < N; i += blockDim.x)\n      sq += in[row * N + i];\n\n");
    CHECK_FALSE(c.blanks[1].fix);
    CHECK(c.text.find(kStarterRegion) != std::string::npos);
    CHECK(c.text.find("inv = ______;") != std::string::npos);
    for (const char* gone : {"BLANK", "STARTER", "//>", "* in[row * N + i];"}) {
        INFO(gone);
        CHECK(c.text.find(gone) == std::string::npos);
    }

    // The clean solution keeps the fixed lines only; a fill replaces the whole region.
    const Converted s = strip_markers(kHunt, "k.cu");
    CHECK(s.text.find("sq += in[row * N + i] * in[row * N + i];") != std::string::npos);
    CHECK(s.text.find("//>") == std::string::npos);
    CHECK(s.text.find("fix") == std::string::npos);
    const Converted f = fill_blanks(kHunt, {{"sum", "sq = 1.f;"}}, "k.cu");
    CHECK(f.text.find("  float sq = 0.f;\n  sq = 1.f;\n  if (threadIdx.x == 0)") != std::string::npos);
}

TEST_CASE("starter_regions reads back the regions make_starter wrote", "[sync]") {
    const std::string starter = make_starter(kHunt, "k.cu").text;
    const auto regions = starter_regions(starter, "k.cu");
    REQUIRE(regions.size() == 1);
    CHECK(regions[0].id == "sum");
    CHECK(line_text(starter, regions[0].open_line) == "// fix: sum (edit only down to 'end fix')");
    CHECK(line_text(starter, regions[0].close_line) == "// end fix");
    CHECK(starter_regions(make_starter(fixture::kSolution, "k.cu").text, "k.cu").empty());
    CHECK(pristine_blank_ids(starter) == std::vector<std::string>{"sum", ""});
}

TEST_CASE("malformed fix regions are refused with file and line", "[sync]") {
    CHECK_THROWS_WITH(make_starter("// BLANK:a\nx;\n// STARTER\ny;\n// END BLANK\n", "f.cu"),
                      "f.cu:4: after '// STARTER' every line of the block is the starter's, written '//> code', up to "
                      "'// END BLANK'.");
    CHECK_THROWS_WITH(make_starter("x;\n// STARTER\n", "f.cu"), "f.cu:2: '// STARTER' outside a block blank.");
    CHECK_THROWS_WITH(make_starter("// BLANK:a\n// STARTER\n//> y;\n// STARTER\n// END BLANK\n", "f.cu"),
                      "f.cu:4: a second '// STARTER' in the block blank of line 1.");
    CHECK_THROWS_WITH(starter_regions("// fix: a\nx;\n", "s.cu"),
                      "s.cu:1: fix region 'a' is never closed with '// end fix'.");
    CHECK_THROWS_WITH(starter_regions("x;\n// end fix\n", "s.cu"),
                      "s.cu:2: '// end fix' without an opening '// fix: <id>'.");
    CHECK_THROWS_WITH(starter_regions("// fix: a\n// fix: b\n// end fix\n", "s.cu"),
                      "s.cu:2: a fix region opens inside the one opened on line 1.");
}

TEST_CASE("the edit check: a fix region may be changed, the code around it may not", "[edit_check]") {
    const std::string starter = make_starter(kHunt, "k.cu").text;
    const std::vector<std::string> ids = {"sum", "inv"};

    // The untouched starter is a match: its region holds the buggy code, which is not a `______` left unfilled.
    EditCheck untouched = edit_check_text(starter, starter, "k.cu", ids);
    REQUIRE(untouched.ok);
    REQUIRE(untouched.fills.size() == 2);
    CHECK(untouched.fills[0].tokens ==
          "for ( int i = threadIdx . x ; i < N ; i += blockDim . x ) sq += in [ row * N + i ] ;");
    CHECK_FALSE(untouched.fills[0].unfilled);
    CHECK(untouched.fills[0].fix_region);
    CHECK(untouched.fills[0].unchanged);  // review rules skip it, and status counts it as not yet changed
    CHECK(untouched.fills[1].unfilled);
    CHECK_FALSE(untouched.fills[1].fix_region);

    // The solution is a valid answer to its own starter, the fix region's text being its fill.
    EditCheck solved = edit_check_text(starter, strip_markers(kHunt, "k.cu").text, "k.cu", ids);
    REQUIRE(solved.ok);
    CHECK_FALSE(solved.fills[0].unchanged);
    CHECK(solved.fills[0].tokens.find("in [ row * N + i ] * in [ row * N + i ]") != std::string::npos);
    CHECK(solved.fills[1].tokens == "rsqrtf ( sq / N + eps )");

    // A fix that adds lines inside the region passes; a change elsewhere is an edit. (Comments are not tokens, so a
    // line written right next to a region, on either side of its comment, counts as the region's, as next to a
    // `______`.)
    const std::string inside = replaced(starter, "  // end fix\n", "  __syncthreads();\n  // end fix\n");
    CHECK(edit_check_text(starter, inside, "k.cu", ids).ok);
    const std::string outside = replaced(starter, "k<<<M, 256, 0, stream>>>", "k<<<M, 128, 0, stream>>>");
    EditCheck vetoed = edit_check_text(starter, outside, "k.cu", ids);
    CHECK_FALSE(vetoed.ok);
    CHECK(vetoed.reason.find("the lines between `// fix:` and `// end fix` may be edited") != std::string::npos);
    // An emptied region is a fill like any other (the kernel then fails its tests, not the edit check).
    CHECK(edit_check_text(starter, replaced(starter, "      sq += in[row * N + i];\n", ""), "k.cu", ids).ok);

    // The fill policy holds inside a fix region too.
    const std::string qualified =
        replaced(starter, "      sq += in[row * N + i];\n", "      sq += std::sqrt(in[i]);\n");
    EditCheck refused = edit_check_text(starter, qualified, "k.cu", ids);
    CHECK_FALSE(refused.ok);
    CHECK(refused.refused);
}

TEST_CASE("sync writes a bug hunt's starter, check and the pristine starter agree with it", "[sync]") {
    fs::path root = fixture::make_repo();
    fixture::write(root / "solutions/04-demo/k.cu", kHunt);
    const Lesson L = load_lesson(root, "04-demo");
    sync_lesson(L, false);
    const std::string starter = fixture::read(root / "exercises/04-demo/k.cu");
    CHECK(starter == make_starter(kHunt, "k.cu").text);
    CHECK(starter.find(kStarterRegion) != std::string::npos);
    CHECK(sync_lesson(L, true).in_sync);
    CHECK(pristine_starter(L, L.exercise("k")) == starter);
    // status: the region as shipped is not yet a change; the inline blank is still a `______`.
    CHECK(workbook::tools::lesson_status(L)[0].detail == "0 of 2 blanks filled");
    // A student's edit inside the region is a change the check reports and sync backs up, like a filled blank.
    fixture::write(root / "exercises/04-demo/k.cu", replaced(starter, "      sq += in[row * N + i];\n",
                                                             "      sq += in[row * N + i] * in[row * N + i];\n"));
    CHECK_FALSE(sync_lesson(L, true).in_sync);
    fs::remove_all(root);
}
