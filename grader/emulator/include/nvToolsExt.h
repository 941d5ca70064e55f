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

// The attribute forms (a colored, categorized event: the NVTX blog's PUSH_RANGE macro) and domains, as NVTX 3
// declares them; nothing is recorded.
#define NVTX_VERSION 3
typedef struct nvtxStringHandle* nvtxStringHandle_t;
typedef struct nvtxDomainHandle* nvtxDomainHandle_t;
typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
    NVTX_MESSAGE_UNKNOWN = 0,
    NVTX_MESSAGE_TYPE_ASCII = 1,
    NVTX_MESSAGE_TYPE_UNICODE = 2,
    NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
    NVTX_PAYLOAD_UNKNOWN = 0,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
    NVTX_PAYLOAD_TYPE_INT64 = 2,
    NVTX_PAYLOAD_TYPE_DOUBLE = 3,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
    NVTX_PAYLOAD_TYPE_INT32 = 5,
    NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;
typedef union nvtxMessageValue_t {
    const char* ascii;
    const wchar_t* unicode;
    nvtxStringHandle_t registered;
} nvtxMessageValue_t;
typedef struct nvtxEventAttributes_v2 {
    std::uint16_t version;
    std::uint16_t size;
    std::uint32_t category;
    std::int32_t colorType;
    std::uint32_t color;
    std::int32_t payloadType;
    std::int32_t reserved0;
    union payload_t {
        std::uint64_t ullValue;
        std::int64_t llValue;
        double dValue;
        std::uint32_t uiValue;
        std::int32_t iValue;
        float fValue;
    } payload;
    std::int32_t messageType;
    nvtxMessageValue_t message;
} nvtxEventAttributes_t;
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((std::uint16_t)(sizeof(nvtxEventAttributes_t)))

inline int nvtxRangePushEx(const nvtxEventAttributes_t*) { return -1; }
inline void nvtxMarkEx(const nvtxEventAttributes_t*) {}
inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t*) { return 0; }
inline nvtxDomainHandle_t nvtxDomainCreateA(const char*) { return nullptr; }
inline void nvtxDomainDestroy(nvtxDomainHandle_t) {}
inline int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) { return -1; }
inline int nvtxDomainRangePop(nvtxDomainHandle_t) { return -1; }
inline void nvtxDomainMarkEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) {}
inline nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) { return 0; }
inline void nvtxDomainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t) {}
inline nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t, const char*) { return nullptr; }
inline void nvtxNameCategoryA(std::uint32_t, const char*) {}

// The names without A/W, as NVTX defines them for narrow strings.
#define nvtxRangePush nvtxRangePushA
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainCreate nvtxDomainCreateA
#define nvtxDomainRegisterString nvtxDomainRegisterStringA
#define nvtxNameCategory nvtxNameCategoryA
