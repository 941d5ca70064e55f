// NVTX, the annotations a profiler (Nsight Systems) shows as ranges and marks. Without a profiler they do nothing,
// as on a GPU machine where none is attached; programs annotated with them (tutorials push a range around each
// phase) build and run unchanged. The return values are NVTX's: the range depth, or a negative value when no tool
// is attached (here, always).
#pragma once
#include <cstdint>

typedef std::uint64_t nvtxRangeId_t;

inline int nvtxRangePushA(const char*) { return -1; }
inline int nvtxRangePushW(const wchar_t*) { return -1; }
inline int nvtxRangePop() { return -1; }
inline void nvtxMarkA(const char*) {}
inline void nvtxMarkW(const wchar_t*) {}
inline nvtxRangeId_t nvtxRangeStartA(const char*) { return 0; }
inline nvtxRangeId_t nvtxRangeStartW(const wchar_t*) { return 0; }
inline void nvtxRangeEnd(nvtxRangeId_t) {}
inline void nvtxNameOsThreadA(std::uint32_t, const char*) {}

// The names without A/W, as NVTX defines them for narrow strings.
#define nvtxRangePush nvtxRangePushA
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxNameOsThread nvtxNameOsThreadA
