// A throw-away workbook repository in a temporary folder: one lesson "04-demo" with one exercise whose solution has
// an inline and a block blank, their hints, a written-answer rubric.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace fixture {

namespace fs = std::filesystem;

inline void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

inline std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline const char* kSolution = R"(// Demo exercise.
#include <cuda_runtime.h>

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

void launch_k(const float* in, float* out, int M, int N, float eps, cudaStream_t stream) {
  k<<<M, 256, 0, stream>>>(in, out, M, N, eps);
}
)";

inline const char* kLesson = R"J({
  "format_version": 1,
  "slug": "04-demo",
  "title": "Demo lesson",
  "pass": {"min_score": 2, "core": "k"},
  "answers_file": "answers.md",
  "written_rubric": "grader/rubrics/04-demo-written.json",
  "exercises": [
    {"name": "k", "title": "Demo kernel", "section": "01-demo.md",
     "entry_points": ["void launch_k(const float* in, float* out, int M, int N, float eps, cudaStream_t stream)"],
     "blanks": [
       {"id": "sum", "summary": "this thread's sum of squares",
        "hints": ["sum of squares", "each thread strides over the row", "sq += x*x", "for (...) sq += in[i]*in[i];"]},
       {"id": "inv", "summary": "the inverse RMS",
        "hints": ["inverse RMS", "mean of squares plus eps", "rsqrtf(...)", "rsqrtf(sq / N + eps)"]}],
     "points": {"normal": 2, "edge": 1},
     "review": [
       {"blank": "inv", "pattern": "\\b(256|1024|4096)\\b", "when": "present",
        "comment": "A fixed size in the formula is right only for that size.", "veto": "accident"},
       {"blank": "inv", "pattern": "eps", "when": "absent", "comment": "Where does eps go?"},
       {"blank": "inv", "pattern": "\\bsqrtf\\b", "comment": "rsqrtf computes 1/sqrt in one instruction."}
     ]}
  ],
  "written": [
    {"id": "explanation", "points": 1, "group": "explanation", "exercise": "k", "title": "Explain the kernel"},
    {"id": "Q1", "points": 2, "group": "question", "exercise": "k", "title": "Where eps goes"}
  ]
})J";

inline const char* kRubric = R"J({
  "items": [
    {"id": "explanation", "points": 1, "min_chars": 20, "concepts": [
      {"id": "reduce", "description": "a block reduction of the squares", "patterns": ["reduc", "归约"], "weight": 1}]},
    {"id": "Q1", "points": 2, "min_chars": 40, "concepts": [
      {"id": "eps-inside", "description": "eps inside the square root", "patterns": ["eps[^.]*(inside|under)[^.]*(sqrt|square root)", "eps.*根号(内|里|下)"], "weight": 1},
      {"id": "zero-row", "description": "protects an all-zero row from division by zero", "patterns": ["(zero|0)[^.]*(row|input)[^.]*divi", "除以零|除零"], "weight": 1},
      {"id": "stability", "description": "numerical stability", "patterns": ["stab", "稳定"], "weight": 2}]}
  ]
})J";

// A fresh repository with lesson.json (hints included), the rubric and the solution; exercises/ is not written.
inline fs::path make_repo() {
    char tmpl[] = "/tmp/review-test-XXXXXX";
    fs::path root = mkdtemp(tmpl);
    write(root / "lessons/04-demo/lesson.json", kLesson);
    write(root / "solutions/04-demo/k.cu", kSolution);
    write(root / "grader/rubrics/04-demo-written.json", kRubric);
    return root;
}

}  // namespace fixture
