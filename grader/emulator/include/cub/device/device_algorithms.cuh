// CUB's device-wide algorithms (cub::DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSegmentedReduce, DeviceSelect,
// DeviceRunLengthEncode, DeviceHistogram::HistogramEven), called from
// the host with device pointers, as CUB's are. CUB runs them as GPU kernels; here each copies its input to the host
// with cudaMemcpyAsync on the given stream (so a pointer that is not device memory, or a range past its allocation, is
// reported as cudaMemcpy reports it), computes in index order, and copies the result back. CUB's two-call protocol is
// kept: a call with d_temp_storage == nullptr only sets temp_storage_bytes (a non-zero size, as CUB's, so that the
// cudaMalloc that follows gives a pointer), and the second call does the work. Results: integers as CUB's; float sums
// and scans add in index order (a GPU adds in a tree: the last bits can differ); radix sorts are stable, as CUB's.
// Inputs may be pointers or CUB-style iterators the host can read (cub::CountingInputIterator); outputs are pointers.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {
namespace emu_device {

constexpr std::size_t kTempStorageBytes = 256;

// True for the size query (the first of CUB's two calls).
inline bool size_query(void* d_temp_storage, std::size_t& temp_storage_bytes) {
    if (d_temp_storage) return false;
    temp_storage_bytes = kTempStorageBytes;
    return true;
}

template <class It>
using value_of = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

// The first n items of an input: one copy from device memory for a pointer, item by item for an iterator.
template <class It>
cudaError_t read(It in, std::size_t n, std::vector<value_of<It>>* out, cudaStream_t stream) {
    out->resize(n);
    if (n == 0) return cudaSuccess;
    if constexpr (std::is_pointer_v<It>) {
        return cudaMemcpyAsync(out->data(), in, n * sizeof(value_of<It>), cudaMemcpyDeviceToHost, stream);
    } else {
        for (std::size_t i = 0; i < n; ++i) (*out)[i] = in[static_cast<std::ptrdiff_t>(i)];
        return cudaSuccess;
    }
}

template <class T, class V>
cudaError_t write(T* out, const std::vector<V>& values, cudaStream_t stream) {
    static_assert(!std::is_const_v<T>, "cub device algorithm: the output is const");
    if (values.empty()) return cudaSuccess;
    std::vector<T> converted(values.begin(), values.end());
    return cudaMemcpyAsync(out, converted.data(), converted.size() * sizeof(T), cudaMemcpyHostToDevice, stream);
}
template <class It, class V>
cudaError_t write(It, const std::vector<V>&, cudaStream_t) {
    static_assert(std::is_pointer_v<It>, "cub device algorithm on the CPU emulator: the output must be a pointer");
    return cudaErrorNotSupported;
}

template <class It>
using output_of = std::remove_cv_t<std::remove_pointer_t<It>>;

template <class InIt, class OutIt, class Op, class Init>
cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out, long long n, Op op,
                   Init init, cudaStream_t stream) {
    if (size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
    std::vector<value_of<InIt>> in;
    if (cudaError_t e = read(d_in, static_cast<std::size_t>(std::max(n, 0LL)), &in, stream)) return e;
    output_of<OutIt> acc = init;
    for (const auto& v : in) acc = op(acc, v);
    return write(d_out, std::vector<output_of<OutIt>>{acc}, stream);
}

template <class InIt, class OutIt, class Op, class Init>
cudaError_t scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out, long long n, Op op,
                 const Init* init, cudaStream_t stream) {
    if (size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
    std::vector<value_of<InIt>> in;
    if (cudaError_t e = read(d_in, static_cast<std::size_t>(std::max(n, 0LL)), &in, stream)) return e;
    using Acc = output_of<OutIt>;
    std::vector<Acc> out(in.size());
    if (init) {  // exclusive: out[i] = init op in[0] op … op in[i-1]
        Acc acc = *init;
        for (std::size_t i = 0; i < in.size(); ++i) {
            out[i] = acc;
            acc = op(acc, in[i]);
        }
    } else if (!in.empty()) {  // inclusive
        Acc acc = in[0];
        out[0] = acc;
        for (std::size_t i = 1; i < in.size(); ++i) out[i] = acc = op(acc, in[i]);
    }
    return write(d_out, out, stream);
}

// A key's bits in an order-preserving unsigned form, as CUB's radix sort reads them: signed integers with the sign bit
// flipped, floating point with every bit flipped for negatives and the sign bit for the rest.
template <class K>
auto radix_bits(K key) {
    static_assert(sizeof(K) == 1 || sizeof(K) == 2 || sizeof(K) == 4 || sizeof(K) == 8,
                  "cub::DeviceRadixSort: keys of 1, 2, 4 or 8 bytes");
    using U = std::conditional_t<sizeof(K) == 1, std::uint8_t,
                                 std::conditional_t<sizeof(K) == 2, std::uint16_t,
                                                    std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>>;
    U u;
    std::memcpy(&u, &key, sizeof u);
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    if constexpr (std::is_integral_v<K> && std::is_signed_v<K>) {
        u ^= sign;
    } else if constexpr (!std::is_integral_v<K>) {  // float, double, __half, __nv_bfloat16
        u = (u & sign) ? U(~u) : U(u ^ sign);
    }
    return u;
}

template <class K, class V>
cudaError_t radix_sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* keys_in, K* keys_out,
                       const V* values_in, V* values_out, long long n, int begin_bit, int end_bit, bool descending,
                       cudaStream_t stream) {
    if (size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
    if (begin_bit < 0 || end_bit > int(sizeof(K) * 8) || begin_bit >= end_bit) return cudaErrorInvalidValue;
    std::vector<K> keys;
    if (cudaError_t e = read(keys_in, static_cast<std::size_t>(std::max(n, 0LL)), &keys, stream)) return e;
    std::vector<V> values;
    if (values_in)
        if (cudaError_t e = read(values_in, keys.size(), &values, stream)) return e;
    const int width = end_bit - begin_bit;
    auto digit = [&](const K& k) {
        const auto bits = radix_bits(k) >> begin_bit;
        return width >= int(sizeof(bits) * 8) ? bits : decltype(bits)(bits & ((decltype(bits)(1) << width) - 1));
    };
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return descending ? digit(keys[b]) < digit(keys[a]) : digit(keys[a]) < digit(keys[b]);
    });
    std::vector<K> sorted_keys(keys.size());
    std::vector<V> sorted_values(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        sorted_keys[i] = keys[order[i]];
        if (values_in) sorted_values[i] = values[order[i]];
    }
    if (cudaError_t e = write(keys_out, sorted_keys, stream)) return e;
    return values_in ? write(values_out, sorted_values, stream) : cudaSuccess;
}

template <class InIt, class OutIt, class OffIt, class Op, class Init>
cudaError_t segmented_reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                             long long segments, OffIt d_begin, OffIt d_end, Op op, Init init, cudaStream_t stream) {
    if (size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
    const std::size_t m = static_cast<std::size_t>(std::max(segments, 0LL));
    std::vector<value_of<OffIt>> begins, ends;
    if (cudaError_t e = read(d_begin, m, &begins, stream)) return e;
    if (cudaError_t e = read(d_end, m, &ends, stream)) return e;
    std::vector<output_of<OutIt>> out(m);
    for (std::size_t s = 0; s < m; ++s) {
        output_of<OutIt> acc = init;
        if (ends[s] > begins[s]) {
            std::vector<value_of<InIt>> items;
            if (cudaError_t e = read(d_in + begins[s], static_cast<std::size_t>(ends[s] - begins[s]), &items, stream))
                return e;
            for (const auto& v : items) acc = op(acc, v);
        }
        out[s] = acc;
    }
    return write(d_out, out, stream);
}

template <class T>
T lowest() {
    return std::numeric_limits<T>::lowest();
}
template <class T>
T highest() {
    return std::numeric_limits<T>::max();
}

// The kept items (a stream compaction) and their count, written to d_out and *d_num_selected.
template <class InIt, class OutIt, class CountIt, class Keep>
cudaError_t select(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                   CountIt d_num_selected, long long n, Keep keep, cudaStream_t stream) {
    if (size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
    std::vector<value_of<InIt>> in;
    if (cudaError_t e = read(d_in, static_cast<std::size_t>(std::max(n, 0LL)), &in, stream)) return e;
    std::vector<output_of<OutIt>> kept;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (keep(in, i)) kept.push_back(in[i]);
    if (cudaError_t e = write(d_out, kept, stream)) return e;
    return write(d_num_selected, std::vector<output_of<CountIt>>{static_cast<output_of<CountIt>>(kept.size())}, stream);
}

}  // namespace emu_device

struct DeviceReduce {
    template <class InIt, class OutIt, class Op, class T, class N>
    static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                              N num_items, Op op, T init, cudaStream_t stream = 0) {
        return emu_device::reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, op, init, stream);
    }
    template <class InIt, class OutIt, class N>
    static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out, N num_items,
                           cudaStream_t stream = 0) {
        return emu_device::reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum(),
                                  emu_device::output_of<OutIt>{}, stream);
    }
    template <class InIt, class OutIt, class N>
    static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out, N num_items,
                           cudaStream_t stream = 0) {
        return emu_device::reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Max(),
                                  emu_device::lowest<emu_device::output_of<OutIt>>(), stream);
    }
    template <class InIt, class OutIt, class N>
    static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out, N num_items,
                           cudaStream_t stream = 0) {
        return emu_device::reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Min(),
                                  emu_device::highest<emu_device::output_of<OutIt>>(), stream);
    }
};

struct DeviceScan {
    template <class InIt, class OutIt, class N>
    static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                                    N num_items, cudaStream_t stream = 0) {
        return emu_device::scan(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum(),
                                static_cast<const emu_device::output_of<OutIt>*>(nullptr), stream);
    }
    template <class InIt, class OutIt, class N>
    static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                                    N num_items, cudaStream_t stream = 0) {
        const emu_device::output_of<OutIt> zero{};
        return emu_device::scan(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum(), &zero, stream);
    }
    template <class InIt, class OutIt, class Op, class N>
    static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                                     Op op, N num_items, cudaStream_t stream = 0) {
        return emu_device::scan(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, op,
                                static_cast<const emu_device::output_of<OutIt>*>(nullptr), stream);
    }
    template <class InIt, class OutIt, class Op, class T, class N>
    static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                                     Op op, T init_value, N num_items, cudaStream_t stream = 0) {
        const emu_device::output_of<OutIt> init = init_value;
        return emu_device::scan(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, op, &init, stream);
    }
};

struct DeviceRadixSort {
    template <class K, class N>
    static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                K* d_keys_out, N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                                cudaStream_t stream = 0) {
        return emu_device::radix_sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                      static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items,
                                      begin_bit, end_bit, false, stream);
    }
    template <class K, class N>
    static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                          K* d_keys_out, N num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8,
                                          cudaStream_t stream = 0) {
        return emu_device::radix_sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                      static_cast<const NullType*>(nullptr), static_cast<NullType*>(nullptr), num_items,
                                      begin_bit, end_bit, true, stream);
    }
    template <class K, class V, class N>
    static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                 K* d_keys_out, const V* d_values_in, V* d_values_out, N num_items, int begin_bit = 0,
                                 int end_bit = sizeof(K) * 8, cudaStream_t stream = 0) {
        return emu_device::radix_sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                      d_values_out, num_items, begin_bit, end_bit, false, stream);
    }
    template <class K, class V, class N>
    static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                                           K* d_keys_out, const V* d_values_in, V* d_values_out, N num_items,
                                           int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t stream = 0) {
        return emu_device::radix_sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                      d_values_out, num_items, begin_bit, end_bit, true, stream);
    }
};

struct DeviceSegmentedReduce {
    template <class InIt, class OutIt, class OffIt, class Op, class T>
    static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                              int num_segments, OffIt d_begin_offsets, OffIt d_end_offsets, Op op, T init,
                              cudaStream_t stream = 0) {
        return emu_device::segmented_reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                            d_begin_offsets, d_end_offsets, op, init, stream);
    }
    template <class InIt, class OutIt, class OffIt>
    static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                           int num_segments, OffIt d_begin_offsets, OffIt d_end_offsets, cudaStream_t stream = 0) {
        return emu_device::segmented_reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                            d_begin_offsets, d_end_offsets, cub::Sum(), emu_device::output_of<OutIt>{},
                                            stream);
    }
    template <class InIt, class OutIt, class OffIt>
    static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                           int num_segments, OffIt d_begin_offsets, OffIt d_end_offsets, cudaStream_t stream = 0) {
        return emu_device::segmented_reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                            d_begin_offsets, d_end_offsets, cub::Max(),
                                            emu_device::lowest<emu_device::output_of<OutIt>>(), stream);
    }
    template <class InIt, class OutIt, class OffIt>
    static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                           int num_segments, OffIt d_begin_offsets, OffIt d_end_offsets, cudaStream_t stream = 0) {
        return emu_device::segmented_reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                            d_begin_offsets, d_end_offsets, cub::Min(),
                                            emu_device::highest<emu_device::output_of<OutIt>>(), stream);
    }
};

struct DeviceSelect {
    template <class InIt, class FlagIt, class OutIt, class CountIt, class N>
    static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, FlagIt d_flags,
                               OutIt d_out, CountIt d_num_selected_out, N num_items, cudaStream_t stream = 0) {
        if (emu_device::size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
        std::vector<emu_device::value_of<FlagIt>> flags;
        if (cudaError_t e =
                emu_device::read(d_flags, static_cast<std::size_t>(std::max<long long>(num_items, 0)), &flags, stream))
            return e;
        return emu_device::select(
            d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out, num_items,
            [&](const auto&, std::size_t i) { return static_cast<bool>(flags[i]); }, stream);
    }
    template <class InIt, class OutIt, class CountIt, class N, class Op>
    static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                          CountIt d_num_selected_out, N num_items, Op select_op, cudaStream_t stream = 0) {
        return emu_device::select(
            d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out, num_items,
            [&](const auto& in, std::size_t i) { return static_cast<bool>(select_op(in[i])); }, stream);
    }
    // The first item of each run of equal items.
    template <class InIt, class OutIt, class CountIt, class N>
    static cudaError_t Unique(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, OutIt d_out,
                              CountIt d_num_selected_out, N num_items, cudaStream_t stream = 0) {
        return emu_device::select(
            d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out, num_items,
            [](const auto& in, std::size_t i) { return i == 0 || !(in[i] == in[i - 1]); }, stream);
    }
};

struct DeviceRunLengthEncode {
    // Each run of equal items: its item, its length, and the count of runs.
    template <class InIt, class UniqueIt, class LengthIt, class CountIt, class N>
    static cudaError_t Encode(void* d_temp_storage, std::size_t& temp_storage_bytes, InIt d_in, UniqueIt d_unique_out,
                              LengthIt d_counts_out, CountIt d_num_runs_out, N num_items, cudaStream_t stream = 0) {
        if (emu_device::size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
        std::vector<emu_device::value_of<InIt>> in;
        if (cudaError_t e =
                emu_device::read(d_in, static_cast<std::size_t>(std::max<long long>(num_items, 0)), &in, stream))
            return e;
        std::vector<emu_device::output_of<UniqueIt>> unique;
        std::vector<emu_device::output_of<LengthIt>> lengths;
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (i == 0 || !(in[i] == in[i - 1])) {
                unique.push_back(in[i]);
                lengths.push_back(0);
            }
            ++lengths.back();
        }
        if (cudaError_t e = emu_device::write(d_unique_out, unique, stream)) return e;
        if (cudaError_t e = emu_device::write(d_counts_out, lengths, stream)) return e;
        return emu_device::write(
            d_num_runs_out,
            std::vector<emu_device::output_of<CountIt>>{static_cast<emu_device::output_of<CountIt>>(unique.size())},
            stream);
    }
};

struct DeviceHistogram {
    // num_levels - 1 bins of equal width over [lower, upper); samples outside are not counted, as in CUB.
    template <class SampleIt, class CounterT, class LevelT, class N>
    static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIt d_samples,
                                     CounterT* d_histogram, int num_levels, LevelT lower_level, LevelT upper_level,
                                     N num_samples, cudaStream_t stream = 0) {
        if (emu_device::size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
        if (num_levels < 2 || !(lower_level < upper_level)) return cudaErrorInvalidValue;
        std::vector<emu_device::value_of<SampleIt>> samples;
        if (cudaError_t e = emu_device::read(d_samples, static_cast<std::size_t>(std::max<long long>(num_samples, 0)),
                                             &samples, stream))
            return e;
        const int bins = num_levels - 1;
        std::vector<CounterT> histogram(static_cast<std::size_t>(bins), CounterT(0));
        for (const auto& x : samples) {
            if (!(x >= lower_level && x < upper_level)) continue;
            const double scaled = (static_cast<double>(x) - static_cast<double>(lower_level)) * bins /
                                  (static_cast<double>(upper_level) - static_cast<double>(lower_level));
            const int bin = std::min(bins - 1, static_cast<int>(scaled));
            ++histogram[static_cast<std::size_t>(bin)];
        }
        return emu_device::write(d_histogram, histogram, stream);
    }
};

}  // namespace cub
