#include "lesson/scaffold.hpp"

#include <cctype>
#include <utility>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/lesson.hpp"
#include "lesson/markers.hpp"

namespace fs = std::filesystem;

namespace workbook::lesson {
namespace {

bool valid_slug(const std::string& s) {
    if (s.size() < 4 || !std::isdigit(static_cast<unsigned char>(s[0])) ||
        !std::isdigit(static_cast<unsigned char>(s[1])) || s[2] != '-')
        return false;
    for (std::size_t i = 3; i < s.size(); ++i)
        if (!(std::islower(static_cast<unsigned char>(s[i])) || std::isdigit(static_cast<unsigned char>(s[i])) ||
              s[i] == '-'))
            return false;
    return s.back() != '-';
}

std::string replaced(std::string text, const std::string& slug) {
    for (std::size_t at; (at = text.find("@SLUG@")) != std::string::npos;) text.replace(at, 6, slug);
    return text;
}

const char* const kManifest = R"J({
  "format_version": 1,
  "slug": "@SLUG@",
  "title": "@SLUG@: a new lesson",
  "pass": {
    "min_score": 2,
    "core": "scale"
  },
  "answers_file": "answers.md",
  "exercises": [
    {
      "name": "scale",
      "title": "Scale a vector by a constant, one thread per element (a placeholder: replace it)",
      "section": "01-scale.md",
      "entry_points": [
        "void launch_scale(const float* input, float* output, int n, float alpha, cudaStream_t stream)"
      ],
      "blanks": [
        {
          "id": "scaled",
          "summary": "this thread's output element, alpha times its input",
          "hints": [
            "One thread computes one element of the output (01-scale.md).",
            "The thread's element is input[i]; the kernel's parameter alpha scales it.",
            "the value has the shape <alpha> * <this thread's input element>.",
            "output[i] = alpha * input[i];"
          ]
        }
      ],
      "points": {
        "normal": 2,
        "edge": 1
      }
    }
  ]
}
)J";

const char* const kPage = R"(# @SLUG@: scaling a vector

The exercise `scale` computes `output[i] = alpha * input[i]` with one thread per element. Its blank `scaled` is
that one product. This page and the exercise are a placeholder that `workbook new-lesson` wrote: replace them with
the lesson's own (docs/adding-a-lesson.md).
)";

const char* const kSolution =
    R"(// scale: output[i] = alpha * input[i], one thread per element (lessons/@SLUG@/01-scale.md).
#include <cuda_runtime.h>

__global__ void scale_kernel(const float* input, float* output, int n, float alpha) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) output[i] = /*BLANK:scaled*/alpha * input[i]/*END*/;
}

void launch_scale(const float* input, float* output, int n, float alpha, cudaStream_t stream) {
    if (n == 0) return;
    const int threads = 256;
    scale_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(input, output, n, alpha);
}
)";

const char* const kTests =
    R"(// Hidden tests of `scale`: every output element is alpha times its input, exactly (one fp32 product).
#include <cstring>
#include <string>
#include <vector>

#include "entry_points.hpp"
#include "remote/call.hpp"
#include "testkit/compare.hpp"
#include "testkit/device.hpp"
#include "testkit/half_bits.hpp"

namespace {

using namespace wb::testkit;

void run(int n, float alpha, const std::string& probe) {
  const CaseInfo info = case_info("n=" + std::to_string(n) + ", alpha=" + format_f32(alpha), probe);
  Rng rng = test_rng();
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = static_cast<float>(rng.normal());
  const std::size_t bytes = x.size() * sizeof(float);
  DeviceBuffer in(kGuard, bytes, kGuard), out(kGuard, bytes, kGuard);
  in.upload(x.data(), bytes);
  launch_and_check("launch_scale", [&] {
    WB_CALL(launch_scale, static_cast<const float*>(in.data()), static_cast<float*>(out.data()), n, alpha,
            cudaStream_t{});
  });
  const std::vector<std::uint8_t> got_bytes = out.download();
  MismatchLog log("output", "element");
  for (int i = 0; i < n; ++i) {
    float got;
    std::memcpy(&got, &got_bytes[out.before() + sizeof(float) * static_cast<std::size_t>(i)], sizeof(float));
    const float want = alpha * x[static_cast<std::size_t>(i)];
    if (got == want) log.pass();
    else log.fail(0, i, format_f32(want), format_f32(got));
  }
  expect_clean(log, info);
  expect_untouched(info, "output", out, got_bytes, kPoisonByte, [](std::size_t) { return true; }, bytes);
}

}  // namespace

WB_TEST("scale: 1000 elements", "[scale][normal]") { run(1000, 2.5f, "several blocks, the last one partly used"); }
WB_TEST("scale: one element", "[scale][edge]") { run(1, -3.0f, "a single element: one thread of one block works"); }
)";

}  // namespace

std::vector<fs::path> scaffold_lesson(const fs::path& root, const std::string& slug) {
    using util::UserError;
    if (!valid_slug(slug))
        throw UserError("'" + slug +
                        "' is not a lesson name: use NN-name, two digits then lower-case words joined by "
                        "'-' (e.g. 05-softmax).");
    const std::string number = slug.substr(0, 2);
    for (const auto& id : lesson_ids(root))
        if (id.substr(0, 2) == number)
            throw UserError("Lesson " + number + " exists already (lessons/" + id + "); choose another number.");
    const std::vector<std::pair<fs::path, std::string>> files = {
        {fs::path("lessons") / slug / "lesson.json", kManifest},
        {fs::path("lessons") / slug / "01-scale.md", kPage},
        {fs::path("solutions") / slug / "scale.cu", kSolution},
        {fs::path("exercises") / slug / "scale.cu", lesson::make_starter(replaced(kSolution, slug), "scale.cu").text},
        {fs::path("grader") / "hidden-tests" / slug / "scale_test.cpp", kTests},
    };
    for (const char* top : {"lessons", "solutions", "exercises", "grader/hidden-tests"})
        if (fs::exists(root / top / slug))
            throw UserError(util::display_path(root / top / slug, root) + " exists already; nothing was written.");
    std::vector<fs::path> written;
    for (const auto& [rel, text] : files) {
        util::write_text(root / rel, replaced(text, slug));
        written.push_back(rel);
    }
    return written;
}

}  // namespace workbook::lesson
