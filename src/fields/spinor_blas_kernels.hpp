#pragma once
// Site kernels of spinor_blas.hpp. Site i of a field runs over its parity blocks in order.

#include "core/reduction.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

struct AxpyKernel {  // y <- a x + y
  Complex<double> a;
  SpinorView<double> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    ColorSpinor<double> r = y.load(p, s);
    r += a * x.load(p, s);
    y.store(p, s, r);
  }
};

struct XpayKernel {  // y <- x + a y
  Complex<double> a;
  SpinorView<double> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    y.store(p, s, x.load(p, s) + a * y.load(p, s));
  }
};

struct ScaleKernel {
  Complex<double> a;
  SpinorView<double> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    x.store(p, s, a * x.load(p, s));
  }
};

struct ZeroKernel {  // writes zeros (scaling by 0 would keep NaN in fresh memory)
  SpinorView<double> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x.store(x.parity_of(i), x.cb_of(i), ColorSpinor<double>{}); }
};

struct DotKernel {
  SpinorView<double> x, y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    const int p = x.parity_of(i);
    const std::int64_t s = x.cb_of(i);
    const Complex<double> d = inner(x.load(p, s), y.load(p, s));
    acc[0] += d.re;
    acc[1] += d.im;
  }
};

struct Norm2Kernel {
  SpinorView<double> x;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    acc[0] += norm2(x.load(x.parity_of(i), x.cb_of(i)));
  }
};

}  // namespace lqcd
