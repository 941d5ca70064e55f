// The few CUB type utilities that reduction code names.
#pragma once

namespace cub {

struct NullType {};

// Raw storage for a T with T's alignment, for shared-memory unions (CUB's Uninitialized<T>).
template <class T>
struct Uninitialized {
    alignas(T) unsigned char storage[sizeof(T)];
    T& Alias() { return *reinterpret_cast<T*>(storage); }
};

}  // namespace cub
