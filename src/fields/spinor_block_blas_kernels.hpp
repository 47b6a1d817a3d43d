#pragma once
// Site kernels of spinor_block_blas.hpp: the solvers' vector operations on a block of N right-hand
// sides with one real coefficient per right-hand side. They run over the block's flat view
// (SpinorBlockView::flat, one field of sites x N "sites"), element i being site i / N of rhs j = i % N;
// a block holds one parity, so the flat index is the checkerboard index. FLOPs per site and rhs as
// their one-field counterparts (spinor_blas.hpp): axpy 48, norm2 24, axpy_norm2 72, axpy_xpay 96.

#include <span>

#include "core/reduction.hpp"
#include "fields/spinor_block_blas.hpp"

namespace lqcd {

// One coefficient per right-hand side: carried in the kernel's arguments (v), or, where `at` is set,
// read from there, memory of the kernel's location where a stream-resident solver's finishers left
// them (solvers/krylov/resident_block_cg_kernels.hpp). Either way the double is rounded to T as here.
template <typename T>
struct RhsCoefficients {
  T v[kMaxBlockRhs];
  const double* at = nullptr;
  LQCD_HOST_DEVICE T operator[](int j) const { return at ? T(at[j]) : v[j]; }

  // The values a[0..) carried in the arguments (at most kMaxBlockRhs; the rest 0), or those at `memory`.
  static RhsCoefficients values(std::span<const double> a) {
    RhsCoefficients c{};
    for (std::size_t j = 0; j < a.size() && j < std::size_t(kMaxBlockRhs); ++j) c.v[j] = T(a[j]);
    return c;
  }
  static RhsCoefficients read_at(const double* memory) {
    RhsCoefficients c{};
    c.at = memory;
    return c;
  }
};

template <typename Real>
struct BlockAxpyKernel {  // y_j <- a_j x_j + y_j
  using T = compute_t<Real>;
  RhsCoefficients<T> a;
  SpinorView<Real> x, y;  // flat views
  int n;
  // Updates element i and returns its new value as computed (before rounding to the storage precision).
  LQCD_HOST_DEVICE ColorSpinor<T> update(std::int64_t i) const {
    const int p = y.parity_of(i);
    ColorSpinor<T> r = y.load(p, i);
    r += Complex<T>(a[int(i % n)]) * x.load(p, i);
    y.store(p, i, r);
    return r;
  }
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { update(i); }
};

// ||x_j||^2 for every j (reduce_each).
template <typename Real>
struct BlockNorm2Kernel {
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    acc += double(norm2(x.load(x.parity_of(i), i)));
  }
};

// y_j <- a_j x_j + y_j with ||y_j||^2 as computed: CG's residual update and its norm in one pass.
template <typename Real>
struct BlockAxpyNorm2Kernel {
  BlockAxpyKernel<Real> axpy;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const { acc += double(norm2(axpy.update(i))); }
};

// x_j <- x_j + a_j p_j, then p_j <- z_j + b_j p_j (AxpyXpayKernel per rhs).
template <typename Real>
struct BlockAxpyXpayKernel {
  using T = compute_t<Real>;
  RhsCoefficients<T> a, b;
  SpinorView<Real> p, x, z;  // flat views
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int par = p.parity_of(i);
    const int j = int(i % n);
    const ColorSpinor<T> v = p.load(par, i);
    ColorSpinor<T> y = x.load(par, i);
    y += Complex<T>(a[j]) * v;
    x.store(par, i, y);
    p.store(par, i, z.load(par, i) + Complex<T>(b[j]) * v);
  }
};

}  // namespace lqcd
