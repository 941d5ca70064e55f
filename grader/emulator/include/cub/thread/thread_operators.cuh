// CUB's binary reduction functors. Max and Min compare with operator<, as CUB_MAX/CUB_MIN do.
#pragma once

namespace cub {

struct Sum {
    template <class T, class U>
    auto operator()(const T& a, const U& b) const -> decltype(a + b) {
        return a + b;
    }
};
struct Max {
    template <class T>
    T operator()(const T& a, const T& b) const {
        return (a < b) ? b : a;
    }
};
struct Min {
    template <class T>
    T operator()(const T& a, const T& b) const {
        return (b < a) ? b : a;
    }
};
struct Equality {
    template <class T, class U>
    bool operator()(const T& a, const U& b) const {
        return a == b;
    }
};
struct Inequality {
    template <class T, class U>
    bool operator()(const T& a, const U& b) const {
        return !(a == b);
    }
};

}  // namespace cub
