// Stream-ordered allocation and memory pools (cuda_runtime_api.h): cudaMallocAsync/cudaFreeAsync take and give back
// at once, as every call runs at once here; a pool (the device's default one, or one made with cudaMemPoolCreate)
// keeps its attributes for cudaMemPoolGetAttribute and counts the bytes allocated from it (used and reserved are the
// same: nothing is cached), so the samples' streamOrderedAllocation, which sets a release threshold, runs as on a GPU.
#include <cstdint>
#include <map>
#include <set>

#include "api_state.hpp"

struct CUmemPoolHandle_st {
    std::uint64_t release_threshold = 0;
    int reuse[3] = {1, 1, 1};  // follow event dependencies, opportunistic, internal dependencies
    std::size_t used = 0, high = 0;
};

namespace emu::rt {
namespace {

CUmemPoolHandle_st g_default_pool;
cudaMemPool_t g_current_pool = &g_default_pool;
std::set<cudaMemPool_t>& created_pools() {
    static std::set<cudaMemPool_t> s;
    return s;
}
struct PoolAllocation {
    cudaMemPool_t pool;
    std::size_t bytes;
};
std::map<void*, PoolAllocation>& pool_allocations() {
    static std::map<void*, PoolAllocation> m;
    return m;
}
bool pool_ok(cudaMemPool_t pool) { return pool == &g_default_pool || created_pools().count(pool) != 0; }

cudaError_t allocate_from(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    const ApiLock lock(api_mutex());
    if (!stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    if (!pool_ok(pool)) return record_error(cudaErrorInvalidValue);
    const cudaError_t e = cudaMalloc(ptr, bytes);
    if (e || !*ptr) return e;
    pool_allocations()[*ptr] = PoolAllocation{pool, bytes};
    pool->used += bytes;
    if (pool->used > pool->high) pool->high = pool->used;
    return cudaSuccess;
}

}  // namespace
}  // namespace emu::rt

using emu::rt::record_error;

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
    return emu::rt::allocate_from(ptr, bytes, emu::rt::g_current_pool, stream);
}
cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    return emu::rt::allocate_from(ptr, bytes, pool, stream);
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::stream_ok(stream)) return record_error(cudaErrorInvalidResourceHandle);
    const cudaError_t e = cudaFree(ptr);
    auto it = emu::rt::pool_allocations().find(ptr);
    if (!e && it != emu::rt::pool_allocations().end()) {
        it->second.pool->used -= it->second.bytes;
        emu::rt::pool_allocations().erase(it);
    }
    return e;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return record_error(cudaErrorInvalidValue);
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    *pool = &emu::rt::g_default_pool;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return record_error(cudaErrorInvalidValue);
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    *pool = emu::rt::g_current_pool;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (device != 0) return record_error(cudaErrorInvalidDevice);
    if (!emu::rt::pool_ok(pool)) return record_error(cudaErrorInvalidValue);
    emu::rt::g_current_pool = pool;
    return cudaSuccess;
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!pool || !props || props->allocType != cudaMemAllocationTypePinned ||
        props->location.type != cudaMemLocationTypeDevice)
        return record_error(cudaErrorInvalidValue);
    if (props->location.id != 0) return record_error(cudaErrorInvalidDevice);
    *pool = new CUmemPoolHandle_st;
    emu::rt::created_pools().insert(*pool);
    return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::created_pools().count(pool)) return record_error(cudaErrorInvalidValue);
    if (emu::rt::g_current_pool == pool) emu::rt::g_current_pool = &emu::rt::g_default_pool;
    emu::rt::created_pools().erase(pool);
    delete pool;
    return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::pool_ok(pool) || !value) return record_error(cudaErrorInvalidValue);
    switch (attr) {
        case cudaMemPoolReuseFollowEventDependencies:
        case cudaMemPoolReuseAllowOpportunistic:
        case cudaMemPoolReuseAllowInternalDependencies:
            pool->reuse[attr - 1] = *static_cast<int*>(value);
            return cudaSuccess;
        case cudaMemPoolAttrReleaseThreshold:
            pool->release_threshold = *static_cast<std::uint64_t*>(value);
            return cudaSuccess;
        case cudaMemPoolAttrReservedMemHigh:
        case cudaMemPoolAttrUsedMemHigh:
            // Only a reset to 0 is allowed: the high-water mark starts again from what is in use.
            if (*static_cast<std::uint64_t*>(value) != 0) return record_error(cudaErrorInvalidValue);
            pool->high = pool->used;
            return cudaSuccess;
        default: return record_error(cudaErrorInvalidValue);
    }
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
    const emu::rt::ApiLock lock(emu::rt::api_mutex());
    if (!emu::rt::pool_ok(pool) || !value) return record_error(cudaErrorInvalidValue);
    switch (attr) {
        case cudaMemPoolReuseFollowEventDependencies:
        case cudaMemPoolReuseAllowOpportunistic:
        case cudaMemPoolReuseAllowInternalDependencies: *static_cast<int*>(value) = pool->reuse[attr - 1]; break;
        case cudaMemPoolAttrReleaseThreshold: *static_cast<std::uint64_t*>(value) = pool->release_threshold; break;
        case cudaMemPoolAttrReservedMemCurrent:
        case cudaMemPoolAttrUsedMemCurrent: *static_cast<std::uint64_t*>(value) = pool->used; break;
        case cudaMemPoolAttrReservedMemHigh:
        case cudaMemPoolAttrUsedMemHigh: *static_cast<std::uint64_t*>(value) = pool->high; break;
        default: return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t) {
    return emu::rt::pool_ok(pool) ? cudaSuccess : record_error(cudaErrorInvalidValue);  // nothing is cached
}
