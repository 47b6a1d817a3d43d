#pragma once
// Site kernels of spinor_blas.hpp. Site i of a field runs over its parity blocks in order. The
// scalars are rounded to the field's precision Real once, when the kernel is made.

#include "core/reduction.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

template <typename Real>
struct AxpyKernel {  // y <- a x + y
  Complex<Real> a;
  SpinorView<Real> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    ColorSpinor<Real> r = y.load(p, s);
    r += a * x.load(p, s);
    y.store(p, s, r);
  }
};

template <typename Real>
struct XpayKernel {  // y <- x + a y
  Complex<Real> a;
  SpinorView<Real> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    y.store(p, s, x.load(p, s) + a * y.load(p, s));
  }
};

template <typename Real>
struct ScaleKernel {
  Complex<Real> a;
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    x.store(p, s, a * x.load(p, s));
  }
};

template <typename Real>
struct ZeroKernel {  // writes zeros (scaling by 0 would keep NaN in fresh memory)
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x.store(x.parity_of(i), x.cb_of(i), ColorSpinor<Real>{}); }
};

// Per-site sums in Real (12 terms), accumulated over sites in double.
template <typename Real>
struct DotKernel {
  SpinorView<Real> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    const Complex<Real> d = inner(x.load(p, s), y.load(p, s));
    acc[0] += double(d.re);
    acc[1] += double(d.im);
  }
};

template <typename Real>
struct Norm2Kernel {
  SpinorView<Real> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    acc[0] += double(norm2(x.load(x.parity_of(i), x.cb_of(i))));
  }
};

}  // namespace lqcd
