// A guarded header with declarations of every kind a merge could duplicate: a struct, a template, a function.
#pragma once
struct ArchIncludeCounter {
    int hits;
};
template <class T>
__device__ T arch_include_twice(T v) {
    return v + v;
}
inline int arch_include_host_value() { return 21; }
