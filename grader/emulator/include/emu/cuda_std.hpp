// libcu++'s cuda::std namespace for emulator builds: the C++ standard library's names, which host and device code share
// here (one compiler, one library), reached as cuda::std::X through a using-directive. The emulator's own definitions in
// cuda::std (atomics, the function objects of <cuda/std/functional>) are found first, as qualified lookup prefers a
// namespace's own declarations.
#pragma once

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda
