#include "workbook_catch.hpp"

#include "fixture.hpp"
#include "review/comments.hpp"
#include "util/errors.hpp"
#include "lesson/manifest.hpp"
#include "lesson/markers.hpp"
#include "review/lookalike.hpp"
#include "review/static_compile.hpp"
#include "util/subprocess.hpp"

using namespace workbook::review;
using namespace workbook::util;
using namespace workbook::lesson;
namespace fs = std::filesystem;

namespace {

workbook::lesson::Manifest parsed(const nlohmann::json& j) {
    return workbook::lesson::parse_manifest(j, "lesson.json");
}

std::string with_inv(const std::string& fill) {
    std::string s = make_starter(fixture::kSolution, "k.cu").text;
    s.replace(s.find("inv = ______;"), 13, "inv = " + fill + ";");
    return s;
}

std::vector<Comment> comments_for(const std::string& fill) {
    const auto lesson = parsed(nlohmann::json::parse(fixture::kLesson));
    const std::string starter = make_starter(fixture::kSolution, "k.cu").text;
    EditCheck ec = edit_check_text(starter, with_inv(fill), "k.cu", {"sum", "inv"});
    REQUIRE(ec.ok);
    return apply_review_rules(lesson.exercise("k"), ec.fills, "k.cu");
}

}  // namespace

TEST_CASE("review rules comment on fills; an accident rule vetoes", "[comments]") {
    CHECK(comments_for("rsqrtf(sq / N + eps)").empty());

    auto hard = comments_for("rsqrtf(sq / 4096 + eps)");
    REQUIRE(hard.size() == 1);
    CHECK(hard[0].veto);
    CHECK(hard[0].veto_kind == "accident");
    CHECK(hard[0].line == 10);  // the starter is two lines shorter than the solution
    CHECK(hard[0].file == "k.cu");

    auto no_eps = comments_for("1.0f / sqrtf(sq / N)");
    REQUIRE(no_eps.size() == 2);
    CHECK(no_eps[0].text == "Where does eps go?");
    CHECK_FALSE(no_eps[0].veto);
    CHECK(no_eps[1].text == "rsqrtf computes 1/sqrt in one instruction.");

    // An untouched blank gets no comments: the unfilled-blank message covers it.
    CHECK(comments_for("______").empty());
}

TEST_CASE("review_comments reads the files and validates rules", "[comments]") {
    fs::path root = fixture::make_repo();
    const auto lesson = nlohmann::json::parse(fixture::kLesson);
    fixture::write(root / "pristine/k.cu", make_starter(fixture::kSolution, "k.cu").text);
    fixture::write(root / "student/k.cu", with_inv("rsqrtf(sq / 1024 + eps)"));
    auto c = review_comments(parsed(lesson).exercise("k"), root / "student/k.cu", root / "pristine/k.cu");
    REQUIRE(c.size() == 1);
    CHECK(c[0].veto);
    CHECK_NOTHROW(validate_review_rules(parsed(lesson)));
    auto bad = lesson;
    bad["exercises"][0]["review"][0]["pattern"] = "(unclosed";
    CHECK_THROWS_AS(validate_review_rules(parsed(bad)), UserError);
    bad = lesson;
    bad["exercises"][0]["review"][0]["blank"] = "nope";
    CHECK_THROWS_WITH(parsed(bad),
                      "lesson.json: exercises[0] (k), review[0] names blank 'nope', which exercise 'k' does "
                      "not have.");
    fs::remove_all(root);
}

TEST_CASE("review rules run in linear time on long fills; 'unless' and lookaround", "[comments]") {
    // An 18 KB subject: std::regex's recursion overflowed the stack on this; RE2 needs no stack per character.
    std::vector<Fill> fills(1);
    fills[0].id = "inv";
    fills[0].tokens = "0.0f";
    while (fills[0].tokens.size() < 18 * 1024) fills[0].tokens += " + 0.0f * ( sq + sq )";
    fills[0].tokens += " + rsqrtf ( sq / N + eps )";
    auto lesson = nlohmann::json::parse(fixture::kLesson);
    lesson["exercises"][0]["review"] = nlohmann::json::parse(R"([
        {"blank": "inv", "pattern": "^(.)*rsqrtf \\( sq / N", "comment": "long"},
        {"blank": "inv", "pattern": "\\beps\\b", "unless": "0\\.0f", "comment": "eps, unless padded"},
        {"blank": "inv", "pattern": "\\beps\\b", "unless": "1024", "comment": "eps, not 1024"}])");
    auto c = apply_review_rules(parsed(lesson).exercise("k"), fills, "k.cu");
    REQUIRE(c.size() == 2);
    CHECK(c[0].text == "long");
    CHECK(c[1].text == "eps, not 1024");
    // Lookaround is not RE2 syntax: the rule is refused with a sentence that says so.
    lesson["exercises"][0]["review"][0]["pattern"] = "=(?!=)";
    CHECK_THROWS_WITH(validate_review_rules(parsed(lesson)), Catch::Contains("RE2 syntax"));
}

TEST_CASE("the ptxas report is parsed per kernel", "[static_compile]") {
    const std::string out = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5plainPf' for 'sm_90'
ptxas info    : Function properties for _Z5plainPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers
ptxas info    : Compile time = 3.376 ms
ptxas info    : Compiling entry function '_Z1kILi256EEvPKfPfi' for 'sm_90'
ptxas info    : Function properties for _Z1kILi256EEvPKfPfi
    160 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 160 bytes cumulative stack size, 1024 bytes smem, 384 bytes cmem[0]
)";
    auto k = parse_ptxas(out);
    REQUIRE(k.size() == 2);
    CHECK(k[0].name == "plain(float*)");
    CHECK(k[0].registers == 8);
    CHECK(k[0].smem_bytes == 0);
    CHECK(k[1].name == "void k<256>(float const*, float*, int)");
    CHECK(k[1].registers == 32);
    CHECK(k[1].barriers == 1);
    CHECK(k[1].smem_bytes == 1024);
    CHECK(k[1].stack_frame == 160);
    CHECK(k[1].spill_stores == 8);
    CHECK(k[1].spill_loads == 4);
    CHECK(format_kernel(k[1]) ==
          "void k<256>(float const*, float*, int): 32 registers, 12 bytes spilled, 1024 bytes static shared memory, "
          "160 bytes stack, 1 barrier");
    CHECK(compiler_diagnostics(
              "bad.cu(1): error: identifier \"x\" is undefined\n  int main( { x }\n\n\n\nptxas info    : x\n") ==
          "bad.cu:1: error: identifier \"x\" is undefined\n  int main( { x }");
}

TEST_CASE("nvcc 13.0's own output for the lesson's kernel, and an 18 KB quoted line", "[static_compile]") {
    // Recorded on an H200 machine: nvcc -std=c++17 -arch=sm_90 -c solutions/04-rmsnorm/rmsnorm.cu -Xptxas -v
    const std::string out = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN43_GLOBAL__N__ada77314_10_rmsnorm_cu_4732319b14rmsnorm_kernelILi256EEEvPKfS2_Pfiif' for 'sm_90'
ptxas info    : Function properties for _ZN43_GLOBAL__N__ada77314_10_rmsnorm_cu_4732319b14rmsnorm_kernelILi256EEEvPKfS2_Pfiif
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 36 bytes smem
ptxas info    : Compile time = 28.155 ms
)";
    auto k = parse_ptxas(out);
    REQUIRE(k.size() == 1);
    CHECK(k[0].registers == 32);
    CHECK(k[0].barriers == 1);
    CHECK(k[0].smem_bytes == 36);
    CHECK(k[0].name.find("rmsnorm_kernel<256>") != std::string::npos);
    // nvcc quotes the student's line under its error; an 18 KB line is parsed like any other (RE2, linear time).
    std::string line(18 * 1024, 'x');
    const std::string diag = "rmsnorm.cu(83): error: expression too long\n  " + line + "\n";
    CHECK(compiler_diagnostics(diag) == "rmsnorm.cu:83: error: expression too long\n  " + line);
}

TEST_CASE("nvcc compiles a kernel and reports its resources, or says it did not run", "[static_compile]") {
    fs::path root = fixture::make_repo();
    fixture::write(root / "ok.cu", "__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }\n");
    fixture::write(root / "bad.cu", "__global__ void scale(float* x) {\n  x[0] = y;\n}\n");
    auto none = nvcc_static_compile("/nonexistent/nvcc", root / "ok.cu", root / "work");
    CHECK_FALSE(none.ran);
    if (find_nvcc().empty()) {
        WARN("nvcc not found: only the no-nvcc path was checked");
    } else {
        auto ok = nvcc_static_compile("", root / "ok.cu", root / "work");
        REQUIRE(ok.ran);
        CHECK(ok.ok);
        REQUIRE(ok.kernels.size() == 1);
        CHECK(ok.kernels[0].name == "scale(float*, float)");
        CHECK(ok.kernels[0].registers > 0);
        auto bad = nvcc_static_compile("", root / "bad.cu", root / "work");
        CHECK(bad.ran);
        CHECK_FALSE(bad.ok);
        CHECK(bad.output.find("bad.cu:2: error") != std::string::npos);
    }
    fs::remove_all(root);
}

TEST_CASE("a character outside ASCII in the code is named, a comment's is not", "[static_compile]") {
    using workbook::review::lookalike_note;
    // A no-break space pasted into `sq_sum / N`: the compiler's error shows it as a blank.
    const std::string nbsp =
        "float f(float sq_sum, int N) {\n  // café: comments may hold anything\n  return sq_sum\xc2\xa0/ N;\n}\n";
    const std::string note = lookalike_note(nbsp, "rmsnorm.cu");
    CHECK(note.find("rmsnorm.cu:3 holds U+00A0 (a no-break space, which looks like a space)") == 0);
    CHECK(note.find("retype that character") != std::string::npos);
    CHECK(lookalike_note("int g(int a) { return a \xe2\x88\x92 1; }", "k.cu")
              .find("k.cu:1 holds U+2212 (the minus sign") == 0);
    CHECK(lookalike_note("int h() { return 1; } // \xc3\x97\n", "k.cu").empty());
    CHECK(lookalike_note("const char* s = \"\xc3\x97\";\n", "k.cu").empty());
    CHECK(lookalike_note("int \xff x;\n", "k.cu").find("k.cu:1 holds the byte 0xFF") == 0);
}
