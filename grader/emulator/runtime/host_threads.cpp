// The lock that lets several host threads call the emulated runtime (api_state.hpp, api_mutex).
#include "api_state.hpp"

namespace emu::rt {

std::recursive_mutex& api_mutex() {
    static std::recursive_mutex m;  // constructed on first use: static initialisers may already call CUDA
    return m;
}

}  // namespace emu::rt
