// Known wrong answer (cheat): starts processes meant to outlive the test (fork + setsid, posix_spawn of a shell,
// system()) that would later write a file, and computes nothing. The sandbox refuses every new process, and with
// namespaces anything started dies with the test: no canary file ever appears.
#include <cuda_runtime.h>
#include <spawn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

extern char** environ;

void launch_rmsnorm(const float*, const float*, float*, int, int, float, cudaStream_t) {
    if (fork() == 0) {
        setsid();
        sleep(2);
        if (std::FILE* f = std::fopen("/tmp/wb-cheat-daemon-canary", "w")) std::fclose(f);
        _exit(0);
    }
    char sh[] = "/bin/sh", c[] = "-c", cmd[] = "sleep 2; touch /tmp/wb-cheat-daemon-canary";
    char* argv[] = {sh, c, cmd, nullptr};
    pid_t pid;
    posix_spawn(&pid, sh, nullptr, nullptr, argv, environ);
    std::system("(sleep 2; touch /tmp/wb-cheat-daemon-canary) &");
}
