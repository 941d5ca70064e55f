// No blank's fill may be printed in the lesson (issue 14, item 1): the text explains the cause and shows the
// technique on a neighbouring example; the answer belongs to the hints. The first cases pin down what the comparison
// catches and what it lets through, so that the last one cannot pass by seeing nothing.
#include "workbook_catch.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fill_leaks.hpp"
#include "lesson/markers.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = WORKBOOK_SOURCE_DIR;

std::string read(const fs::path& p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::vector<lesson_test::BlankFill>& fills() {
    static const auto all = lesson_test::solution_fills(kRoot / "solutions" / "04-rmsnorm");
    return all;
}

std::vector<lesson_test::BlankFill> only(const std::string& blank) {
    std::vector<lesson_test::BlankFill> out;
    for (const auto& f : fills())
        if (f.blank == blank) out.push_back(f);
    REQUIRE(out.size() == 1);
    return out;
}

}  // namespace

TEST_CASE("the fills are read through the grader's marker library", "[leaks]") {
    // Eleven exercises, twenty-seven blanks, six of them bug hunts' fix regions (docs/architecture.md); a parser that
    // lost one would make the check weaker.
    REQUIRE(fills().size() == 27);
    for (const auto& f : fills()) {
        INFO(f.exercise << "/" << f.blank);
        CHECK_FALSE(lesson_test::normalized_tokens(f.text).empty());
        CHECK(f.text.find("BLANK") == std::string::npos);
    }
}

TEST_CASE("normalization: names, casts, literals, braces and shifts do not hide a copy", "[leaks]") {
    using lesson_test::normalized_tokens;
    CHECK(normalized_tokens("rsqrtf(sq_sum / static_cast<float>(N) + eps)") ==
          normalized_tokens("rsqrtf(total / N + eps)"));
    CHECK(normalized_tokens("x = (float)n * 0.0f;") == normalized_tokens("y = m * 0;"));
    CHECK(normalized_tokens("for (int o = 16; o > 0; o >>= 1) { v += f(m, v, o); }") ==
          normalized_tokens("for (int k = 16; k > 0; k /= 2) v += g(mask, v, k);"));
    CHECK(normalized_tokens("lane = t & 31;") == normalized_tokens("lane = t % 32;"));
    // Different operations stay different.
    CHECK(normalized_tokens("a + b") != normalized_tokens("a * b"));
    CHECK(normalized_tokens("x < n") != normalized_tokens("x <= n"));
}

TEST_CASE("code regions of Markdown: fences, inline spans, \\texttt", "[leaks]") {
    const auto r = lesson_test::code_regions(
        "text `a + b` more ``c`d`` end\n\n```c++ include=x.cu#y\nint z = 1;\n```\n$\\texttt{rsqrtf(s\\_q / N)}$\n");
    REQUIRE(r.size() == 4);
    CHECK(r[0].code == "int z = 1;\n");
    CHECK(r[0].line == 4);
    CHECK(r[1].code == "a + b");
    CHECK(r[2].code == "c`d");
    CHECK(r[3].code == "rsqrtf(s_q / N)");
    CHECK(r[3].line == 6);
}

TEST_CASE("a printed fill is found, renamed or re-spelled; a neighbouring technique is not", "[leaks]") {
    using lesson_test::find_leaks;
    // What sections 2 and 4 printed before issue 14: the core blank, once in a comment-free line, once in math.
    CHECK(find_leaks(only("inv_rms"), "Write `inv = rsqrtf(total / N + eps);` here.\n").size() == 1);
    CHECK(find_leaks(only("inv_rms"), "$\\texttt{rsqrtf(sum\\_sq / N + eps)}$\n").size() == 1);
    // Section 3's old butterfly: another mask spelling, `/= 2` for `>>= 1`, no pragma.
    CHECK(find_leaks(only("warp_shuffle"),
                     "```c++\nfor (int offset = 16; offset > 0; offset /= 2) {\n"
                     "    v += __shfl_xor_sync(0xffffffffu, v, offset);\n}\n```\n")
              .size() == 1);
    // Section 6's old table cell: the key line of the normalize fill, without its one-line preamble.
    CHECK_FALSE(find_leaks(only("normalize"),
                           "| `normalize` | `row_out[col] = to_bf16(to_float(to_bf16(h * inv_rms)) * "
                           "to_float(weight[col]))` |\n")
                    .empty());
    // ... and its value alone, as the old table printed it.
    CHECK(find_leaks(only("normalize"), "| `to_bf16(to_float(to_bf16(h * inv_rms)) * to_float(weight[col]))` |\n")
              .size() == 1);
    // Section 5's old tail loop, renamed.
    CHECK(find_leaks(only("scalar_tail"),
                     "```c++\nfor (int i = prefix + num_vecs * VEC + tid; i < N; i += BLOCK_SIZE) { op(i); }\n```\n")
              .size() == 1);
    // The same technique on another reduction is what the lesson should show instead.
    CHECK(find_leaks(
              only("warp_shuffle"),
              "```c++\nfor (int d = 16; d > 0; d >>= 1) {\n    m = fmaxf(m, __shfl_xor_sync(kAll, m, d));\n}\n```\n")
              .empty());
    CHECK(find_leaks(only("inv_rms"), "`rsqrtf(v)` computes $1/\\sqrt v$; `sqrtf(sum_abs / N)` is not it.\n").empty());
}

TEST_CASE("no blank's fill appears in the lesson text", "[leaks]") {
    int files = 0;
    for (const auto& e : fs::directory_iterator(kRoot / "lessons" / "04-rmsnorm")) {
        if (e.path().extension() != ".md") continue;
        ++files;
        for (const auto& leak : lesson_test::find_leaks(fills(), read(e.path()))) {
            FAIL_CHECK(e.path().filename().string() << ":" << leak.line << ": the fill of " << leak.blank
                                                    << " is printed here (" << leak.distance << " token edits away):\n"
                                                    << leak.region);
        }
    }
    CHECK(files >= 9);
}

// Issue 14: an exercise file must not print another exercise's answer in its given code either, or doing the
// exercises in any order but the intended one spoils the rest. Each starter (the text a student receives, blanks as
// `______` and a bug hunt's regions as they ship) is checked like a page of the lesson against the fills of every
// other exercise.
TEST_CASE("no exercise's given code prints another exercise's fill", "[leaks]") {
    const fs::path solutions = kRoot / "solutions" / "04-rmsnorm";
    int starters = 0;
    for (const auto& e : fs::directory_iterator(solutions)) {
        if (e.path().extension() != ".cu") continue;
        ++starters;
        const std::string exercise = e.path().stem().string();
        std::vector<lesson_test::BlankFill> others;
        for (const auto& f : fills())
            if (f.exercise != exercise) others.push_back(f);
        const std::string starter = workbook::lesson::make_starter(read(e.path()), e.path().filename().string()).text;
        for (const auto& leak : lesson_test::find_leaks(others, "```c++\n" + starter + "```\n"))
            FAIL_CHECK("exercises/04-rmsnorm/" << exercise << ".cu prints the fill of " << leak.blank << " ("
                                               << leak.distance << " token edits away) in its given code");
    }
    CHECK(starters == 11);
}

TEST_CASE("the given-code check sees a fill printed in another exercise's file", "[leaks]") {
    // The core blank's answer as given code of another file: what the extensions printed before issue 14.
    const std::string given =
        "```c++\nif (tid == 0) {\n    smem_inv_rms = rsqrtf(sq_sum / static_cast<float>(N) + eps);\n}\n```\n";
    CHECK(lesson_test::find_leaks(only("inv_rms"), given).size() == 1);
}

// The two checks above for every lesson, in course order: a lesson's pages and its starters' given code may not print
// a fill of the same lesson (another exercise's, for a starter) or of a later lesson. An earlier lesson's answers are
// the course's past: a later starter may build on them (lesson 05's vectorized loads are lesson 04's).
TEST_CASE("no lesson prints a fill of its own or of a later lesson", "[leaks]") {
    std::vector<std::string> lessons;
    for (const auto& e : fs::directory_iterator(kRoot / "lessons"))
        if (fs::exists(e.path() / "lesson.json") && fs::is_directory(kRoot / "solutions" / e.path().filename()))
            lessons.push_back(e.path().filename().string());
    std::sort(lessons.begin(), lessons.end());
    REQUIRE(lessons.size() >= 2);
    for (std::size_t i = 0; i < lessons.size(); ++i) {
        std::vector<lesson_test::BlankFill> own, later;
        for (std::size_t k = i; k <= i; ++k)
            for (auto f : lesson_test::solution_fills(kRoot / "solutions" / lessons[k])) {
                f.exercise = lessons[k] + "/" + f.exercise;
                (k == i ? own : later).push_back(f);
            }
        REQUIRE_FALSE(own.empty());
        std::vector<lesson_test::BlankFill> all = own;
        all.insert(all.end(), later.begin(), later.end());
        for (const auto& e : fs::directory_iterator(kRoot / "lessons" / lessons[i])) {
            if (e.path().extension() != ".md") continue;
            for (const auto& leak : lesson_test::find_leaks(all, read(e.path())))
                FAIL_CHECK("lessons/" << lessons[i] << "/" << e.path().filename().string() << ":" << leak.line
                                      << ": the fill of " << leak.blank << " is printed here");
        }
        for (const auto& e : fs::directory_iterator(kRoot / "solutions" / lessons[i])) {
            if (e.path().extension() != ".cu") continue;
            const std::string exercise = lessons[i] + "/" + e.path().stem().string();
            std::vector<lesson_test::BlankFill> others;
            for (const auto& f : all)
                if (f.exercise != exercise) others.push_back(f);
            const std::string starter =
                workbook::lesson::make_starter(read(e.path()), e.path().filename().string()).text;
            for (const auto& leak : lesson_test::find_leaks(others, "```c++\n" + starter + "```\n"))
                FAIL_CHECK("exercises/" << exercise << ".cu prints the fill of " << leak.blank << " (" << leak.distance
                                        << " token edits away) in its given code");
        }
    }
}
