#pragma once
// Site kernels of spinor_blas.hpp. Site i of a field runs over its parity blocks in order. The
// scalars are rounded to the arithmetic precision T = compute_t<Real> once, when the kernel is made
// (Real: the storage precision, double, float or Half).

#include "core/reduction.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

template <typename Real>
struct AxpyKernel {  // y <- a x + y
  using T = compute_t<Real>;
  Complex<T> a;
  SpinorView<Real> x, y;
  // Updates site i and returns its new value as computed (before rounding to the storage precision).
  LQCD_HOST_DEVICE ColorSpinor<T> update(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    ColorSpinor<T> r = y.load(p, s);
    r += a * x.load(p, s);
    y.store(p, s, r);
    return r;
  }
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { update(i); }
};

template <typename Real>
struct XpayKernel {  // y <- x + a y
  using T = compute_t<Real>;
  Complex<T> a;
  SpinorView<Real> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    y.store(p, s, x.load(p, s) + a * y.load(p, s));
  }
};

template <typename Real>
struct ScaleKernel {
  using T = compute_t<Real>;
  Complex<T> a;
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    x.store(p, s, a * x.load(p, s));
  }
};

template <typename Real>
struct ZeroKernel {  // writes zeros (scaling by 0 would keep NaN in fresh memory)
  using T = compute_t<Real>;
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x.store(x.parity_of(i), x.cb_of(i), ColorSpinor<T>{}); }
};

// Per-site sums in T (12 terms), accumulated over sites in double.
template <typename Real>
struct DotKernel {
  using T = compute_t<Real>;
  SpinorView<Real> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    const Complex<T> d = inner(x.load(p, s), y.load(p, s));
    acc[0] += double(d.re);
    acc[1] += double(d.im);
  }
};

template <typename Real>
struct Norm2Kernel {
  using T = compute_t<Real>;
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    acc[0] += double(norm2(x.load(x.parity_of(i), x.cb_of(i))));
  }
};

// y <- a x + y, summing ||y||^2 as computed (before y is rounded to its storage precision): the
// solvers' residual update and its norm in one pass over memory.
template <typename Real>
struct AxpyNorm2Kernel {
  AxpyKernel<Real> axpy;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const { acc[0] += double(norm2(axpy.update(i))); }
};

// x <- x + a p, then p <- z + b p: CG's solution and search-direction updates in one pass (p is read
// once; the x update waits until the new direction's coefficient b is known).
template <typename Real>
struct AxpyXpayKernel {
  using T = compute_t<Real>;
  Complex<T> a, b;
  SpinorView<Real> p, x, z;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int par = p.parity_of(i);
    const std::int64_t s = p.cb_of(i);
    const ColorSpinor<T> v = p.load(par, s);
    ColorSpinor<T> y = x.load(par, s);
    y += a * v;
    x.store(par, s, y);
    p.store(par, s, z.load(par, s) + b * v);
  }
};

// <x, y> and ||x||^2 in one pass: {Re <x, y>, Im <x, y>, ||x||^2}.
template <typename Real>
struct DotNorm2Kernel {
  using T = compute_t<Real>;
  SpinorView<Real> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<3>& acc) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    const ColorSpinor<T> a = x.load(p, s);
    const Complex<T> d = inner(a, y.load(p, s));
    acc[0] += double(d.re);
    acc[1] += double(d.im);
    acc[2] += double(norm2(a));
  }
};

// y <- a x + y, summing {||y||^2, Re <w, y>, Im <w, y>} of y as computed: BiCGStab's residual update
// with its norm and the next <r0, r> in one pass.
template <typename Real>
struct AxpyNorm2DotKernel {
  using T = compute_t<Real>;
  AxpyKernel<Real> axpy;
  SpinorView<Real> w;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<3>& acc) const {
    const ColorSpinor<T> y = axpy.update(i);
    const Complex<T> d = inner(w.load(w.parity_of(i), w.cb_of(i)), y);
    acc[0] += double(norm2(y));
    acc[1] += double(d.re);
    acc[2] += double(d.im);
  }
};

// z <- a x + b y + z (BiCGStab's x += alpha p + omega s).
template <typename Real>
struct AxpbypzKernel {
  using T = compute_t<Real>;
  Complex<T> a, b;
  SpinorView<Real> x, y, z;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    ColorSpinor<T> r = z.load(p, s);
    r += a * x.load(p, s);
    r += b * y.load(p, s);
    z.store(p, s, r);
  }
};

// z <- a x + b y + z, then y <- c w + y summing {||y||^2, Re <v, y>, Im <v, y>}: BiCGStab's solution
// and residual updates in one pass (y is read twice by the same thread, the second time from cache).
template <typename Real>
struct AxpbypzAxpyNorm2DotKernel {
  AxpbypzKernel<Real> solution;
  AxpyNorm2DotKernel<Real> residual;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<3>& acc) const {
    solution(i);
    residual(i, acc);
  }
};

// y <- x + b (y + a z) (BiCGStab's new direction p = r + beta (p - omega v)).
template <typename Real>
struct AxpyThenXpayKernel {
  using T = compute_t<Real>;
  Complex<T> a, b;
  SpinorView<Real> z, y, x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = y.parity_of(i);
    const std::int64_t s = y.cb_of(i);
    ColorSpinor<T> t = y.load(p, s);
    t += a * z.load(p, s);
    y.store(p, s, x.load(p, s) + b * t);
  }
};

// Gram-Schmidt in batches (multi_dot, multi_axpy): up to kSpinorBatch fields per launch, so that the
// other field is read once per batch instead of once per field.
inline constexpr int kSpinorBatch = 8;

// {Re <x_j, y>, Im <x_j, y>} at 2j, 2j + 1 for j < n, and ||y||^2 at 2 kSpinorBatch.
template <typename Real>
struct MultiDotKernel {
  using T = compute_t<Real>;
  SpinorView<Real> x[kSpinorBatch];
  SpinorView<Real> y;
  int n;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2 * kSpinorBatch + 1>& acc) const {
    const int p = y.parity_of(i);
    const std::int64_t s = y.cb_of(i);
    const ColorSpinor<T> b = y.load(p, s);
    for (int j = 0; j < n; ++j) {
      const Complex<T> d = inner(x[j].load(p, s), b);
      acc[2 * j] += double(d.re);
      acc[2 * j + 1] += double(d.im);
    }
    acc[2 * kSpinorBatch] += double(norm2(b));
  }
};

// y <- c (y + sum_j a_j x_j), j < n, y rounded to its storage precision once (c: the flexible GCR's
// normalisation of its new direction, folded into the last batch).
template <typename Real>
struct MultiAxpyKernel {
  using T = compute_t<Real>;
  Complex<T> a[kSpinorBatch];
  SpinorView<Real> x[kSpinorBatch];
  SpinorView<Real> y;
  int n;
  T c = 1;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = y.parity_of(i);
    const std::int64_t s = y.cb_of(i);
    ColorSpinor<T> r = y.load(p, s);
    for (int j = 0; j < n; ++j) r += a[j] * x[j].load(p, s);
    if (c != T(1)) r = Complex<T>(c) * r;
    y.store(p, s, r);
  }
};

// out <- in site by site, through the arithmetic precisions (for half-precision fields, whose
// per-site norm depends on every component of the site).
template <typename To, typename From>
struct ConvertSpinorKernel {
  SpinorView<To> out;
  SpinorView<From> in;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = in.parity_of(i);
    const std::int64_t s = in.cb_of(i);
    const ColorSpinor<compute_t<From>> a = in.load(p, s);
    ColorSpinor<compute_t<To>> b;
    for (int k = 0; k < 12; ++k) b.s[k / 3].c[k % 3] = Complex<compute_t<To>>(a.s[k / 3].c[k % 3]);
    out.store(p, s, b);
  }
};

}  // namespace lqcd
