// Known wrong answer (cheat): asks the network (and a local daemon's socket) for the answers. The worker has no
// network namespace of its own to reach anything and seccomp refuses sockets: it gets nothing, outputs nothing.
#include <arpa/inet.h>
#include <cuda_runtime.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

void launch_rmsnorm(const float*, const float*, float* output, int M, int N, float, cudaStream_t) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(80);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s >= 0 && connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
        float answer[1024];
        if (read(s, answer, sizeof answer) > 0) cudaMemcpy(output, answer, sizeof answer, cudaMemcpyHostToDevice);
    }
    int u = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un ua{};
    ua.sun_family = AF_UNIX;
    std::strcpy(ua.sun_path, "/var/run/docker.sock");
    if (u >= 0) connect(u, reinterpret_cast<sockaddr*>(&ua), sizeof ua);
    (void)M;
    (void)N;
}
