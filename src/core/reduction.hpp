#pragma once
// Value types for global sums. Reductions are deterministic: the backends sum fixed chunks of sites
// and then the chunk results in a fixed order, so a result does not depend on the thread count.

#include "core/macros.hpp"

namespace lqcd {

template <int N>
struct Sums {
  double v[N];
  LQCD_HOST_DEVICE Sums() {
    for (int i = 0; i < N; ++i) v[i] = 0;
  }
  LQCD_HOST_DEVICE Sums& operator+=(const Sums& o) {
    for (int i = 0; i < N; ++i) v[i] += o.v[i];
    return *this;
  }
  LQCD_HOST_DEVICE double& operator[](int i) { return v[i]; }
  LQCD_HOST_DEVICE const double& operator[](int i) const { return v[i]; }
};

// A maximum as a reduction value (exact in any order). NaN absorbs: once either side is NaN the result
// is NaN, whatever the order of the tree reduction.
struct Maximum {
  double v = 0;
  LQCD_HOST_DEVICE void take(double x) {
    if (v != v) return;
    if (x != x || x > v) v = x;
  }
  LQCD_HOST_DEVICE Maximum& operator+=(const Maximum& o) {
    take(o.v);
    return *this;
  }
};

// Where the sum of a reduction goes: reduce() stores it for the host (StoreSum); reduce_into() hands it
// to a "finisher", a functor called once with the sum where the kernels run (on the device for device
// fields), so that later kernels can read what it stores without the host in between (the scalars of
// the stream-resident solvers, solvers/krylov/resident_loop.hpp).
template <typename R>
struct StoreSum {
  R* result;
  LQCD_HOST_DEVICE void operator()(const R& sum) const { *result = sum; }
};

}  // namespace lqcd
