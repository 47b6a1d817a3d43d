#pragma once
// Site kernels of the Schwarz alternating procedure (solvers/schwarz_smoother.hpp): the blocks are the
// aggregates of the multigrid (solvers/aggregation.hpp), coloured red (0) and black (1) by the parity
// of their coarse coordinates, so that no two blocks of one colour are neighbours.

#include <cstdint>

#include "fields/spinor_field.hpp"
#include "solvers/aggregation.hpp"

namespace lqcd {

LQCD_HOST_DEVICE inline int block_colour(const int X[4]) { return (X[0] + X[1] + X[2] + X[3]) & 1; }

// The block colour and coarse site of fine site i of a full field.
LQCD_HOST_DEVICE inline std::int64_t block_of(const Aggregation& agg, std::int64_t i, int& colour) {
  const std::int64_t Y = agg.coarse_of(i);
  int X[4];
  agg.coarse.coords(Y, X);
  colour = block_colour(X);
  return Y;
}

// out <- in on the blocks of `colour`, 0 elsewhere (out may be in).
template <typename Real>
struct BlockMaskKernel {
  Aggregation agg;
  SpinorView<Real> in, out;
  int colour;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int c = 0;
    block_of(agg, i, c);
    const int p = out.parity_of(i);
    const std::int64_t s = out.cb_of(i);
    out.store(p, s, c == colour ? in.load(p, s) : ColorSpinor<Real>{});
  }
};

// Per site of the blocks of `colour`: w[2 i] = t(i)^dag s(i), w[2 i + 1] = |t(i)|^2 (in double).
template <typename Real>
struct BlockMrPartialKernel {
  Aggregation agg;
  SpinorView<Real> t, s;
  Complex<double>* w;
  int colour;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int c = 0;
    block_of(agg, i, c);
    if (c != colour) return;
    const int p = t.parity_of(i);
    const std::int64_t cb = t.cb_of(i);
    const ColorSpinor<Real> a = t.load(p, cb), b = s.load(p, cb);
    double re = 0, im = 0, n = 0;
    for (int k = 0; k < 12; ++k) {
      const Complex<Real> u = a.s[k / 3].c[k % 3], v = b.s[k / 3].c[k % 3];
      re += double(u.re) * v.re + double(u.im) * v.im;
      im += double(u.re) * v.im - double(u.im) * v.re;
      n += double(u.re) * u.re + double(u.im) * u.im;
    }
    w[2 * i] = Complex<double>(re, im);
    w[2 * i + 1] = Complex<double>(n, 0.0);
  }
};

// Per block of `colour`: alpha[Y] = (t^dag s) / |t|^2 over the block, the minimal-residual step of the
// block system (sums in a fixed order).
template <typename Real>
struct BlockMrStepKernel {
  Aggregation agg;
  const Complex<double>* w;
  Complex<double>* alpha;
  int colour;
  LQCD_HOST_DEVICE void operator()(std::int64_t Y) const {
    int X[4];
    agg.coarse.coords(Y, X);
    if (block_colour(X) != colour) return;
    Complex<double> ts;
    double tt = 0;
    for (int j = 0; j < agg.block_sites; ++j) {
      const std::int64_t i = agg.fine_of(Y, j);
      ts += w[2 * i];
      tt += w[2 * i + 1].re;
    }
    alpha[Y] = tt > 0 ? Complex<double>(ts.re / tt, ts.im / tt) : Complex<double>();
  }
};

// On the blocks of `colour`: e += alpha s, s -= alpha t (alpha of the site's block).
template <typename Real>
struct BlockMrUpdateKernel {
  Aggregation agg;
  SpinorView<Real> t, s, e;
  const Complex<double>* alpha;
  int colour;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int c = 0;
    const std::int64_t Y = block_of(agg, i, c);
    if (c != colour) return;
    const int p = t.parity_of(i);
    const std::int64_t cb = t.cb_of(i);
    const Complex<Real> a(Real(alpha[Y].re), Real(alpha[Y].im));
    ColorSpinor<Real> sv = s.load(p, cb);
    e.store(p, cb, e.load(p, cb) + a * sv);
    sv += (-a) * t.load(p, cb);
    s.store(p, cb, sv);
  }
};

}  // namespace lqcd
