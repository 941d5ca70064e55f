// Known wrong answer (cheat): finds its own submission folder through __FILE__ and prints every file it can read
// around it — the other students' submissions of a class, an instructor's notes — then copies nothing useful into
// the output. The worker sees neither its submission folder nor the folder around it (both hidden), so it finds
// nothing to print.
#include <cuda_runtime.h>
#include <dirent.h>

#include <cstdio>
#include <string>

namespace {
void dump(const std::string& dir, int depth) {
    DIR* d = opendir(dir.c_str());
    if (d == nullptr || depth > 3) return;
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        const std::string path = dir + "/" + name;
        if (e->d_type == DT_DIR) {
            dump(path, depth + 1);
        } else if (std::FILE* f = std::fopen(path.c_str(), "r")) {
            char buf[256];
            while (std::fgets(buf, sizeof buf, f)) std::printf("%s: %s", path.c_str(), buf);
            std::fclose(f);
        }
    }
    closedir(d);
}
}  // namespace

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    std::string self = __FILE__;
    const std::string folder = self.substr(0, self.rfind('/'));
    dump(folder.substr(0, folder.rfind('/')), 0);
    std::fflush(stdout);
}
