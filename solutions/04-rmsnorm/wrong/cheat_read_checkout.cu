// Known wrong answer (cheat): finds the grading checkout from its own program's path (/proc/self/exe lies in its
// build folder), prints the instructor's reference answers and every solution it can open there, and the files of
// the folder around its submission, then aborts so that the report shows the last lines it printed. In class grading
// the checkout is the instructor's, with the solutions of every lesson. The worker sees neither the checkout nor the
// build (only its own program), nor the folders around its submission.
#include <cuda_runtime.h>
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
void print_file(const std::string& path) {
    if (std::FILE* f = std::fopen(path.c_str(), "r")) {
        char line[256];
        for (int n = 0; n < 3 && std::fgets(line, sizeof line, f); ++n) std::printf("%s: %s", path.c_str(), line);
        std::fclose(f);
    }
}

void print_folder(const std::string& dir, int depth) {
    DIR* d = opendir(dir.c_str());
    if (d == nullptr || depth > 2) return;
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        if (e->d_type == DT_DIR) print_folder(dir + "/" + name, depth + 1);
        else print_file(dir + "/" + name);
    }
    closedir(d);
}
}  // namespace

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    char exe[4096] = {};
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) > 0) {
        std::string dir = exe;
        // Up from the worker to the first folder that holds solutions/: the checkout.
        while (dir.size() > 1) {
            dir = dir.substr(0, dir.rfind('/'));
            if (access((dir + "/solutions").c_str(), F_OK) == 0) break;
        }
        print_folder(dir + "/solutions/04-rmsnorm/wrong", 1);
        print_folder(dir + "/build/tests/grading/work", 0);
        print_file(dir + "/solutions/04-rmsnorm/reference-answers.md");
    }
    std::fflush(stdout);
    std::abort();
}
