#include "signals.hpp"

#include <csignal>
#include <cstring>

namespace wb {

std::string signal_description(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV, a segmentation fault";
        case SIGABRT: return "SIGABRT, aborted";
        case SIGBUS: return "SIGBUS, a bus error";
        case SIGFPE: return "SIGFPE, an arithmetic error";
        case SIGILL: return "SIGILL, an illegal instruction";
        case SIGKILL: return "SIGKILL, killed";
        case SIGSYS: return "SIGSYS, a forbidden system call";
        case SIGXFSZ: return "SIGXFSZ, the output-size limit";
        case SIGXCPU: return "SIGXCPU, the CPU-time limit";
        case SIGTERM: return "SIGTERM";
        case SIGPIPE: return "SIGPIPE";
        default: return "signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
}

}  // namespace wb
