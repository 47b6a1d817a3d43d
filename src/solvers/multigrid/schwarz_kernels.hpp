#pragma once
// Site kernels of the Schwarz alternating procedure (solvers/multigrid/schwarz_smoother.hpp): the blocks are the
// aggregates of the multigrid (solvers/multigrid/aggregation.hpp), coloured red (0) and black (1) by the parity
// of their coarse coordinates, so that no two blocks of one colour are neighbours.

#include <cstdint>

#include "dirac/hopping_part.hpp"
#include "fields/spinor_field.hpp"
#include "solvers/multigrid/aggregation.hpp"

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

// a^dag b = (re, im) and |a|^2 = n at one site (in double): a site's part of a block MR step.
template <typename T>
LQCD_HOST_DEVICE void mr_partial(const ColorSpinor<T>& a, const ColorSpinor<T>& b, double& re, double& im, double& n) {
  re = im = n = 0;
  for (int k = 0; k < 12; ++k) {
    const Complex<T> u = a.s[k / 3].c[k % 3], v = b.s[k / 3].c[k % 3];
    re += double(u.re) * v.re + double(u.im) * v.im;
    im += double(u.re) * v.im - double(u.im) * v.re;
    n += double(u.re) * u.re + double(u.im) * u.im;
  }
}

// w[2 i] = a^dag b, w[2 i + 1] = |a|^2 at site i (mr_partial).
template <typename T>
LQCD_HOST_DEVICE void store_mr_partial(Complex<double>* w, std::int64_t i, const ColorSpinor<T>& a,
                                       const ColorSpinor<T>& b) {
  double re, im, n;
  mr_partial(a, b, re, im, n);
  w[2 * i] = Complex<double>(re, im);
  w[2 * i + 1] = Complex<double>(n, 0.0);
}

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
    store_mr_partial(w, i, t.load(p, cb), s.load(p, cb));
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

// A spinor source for WilsonSiteOperator (dirac/hopping_part.hpp) that holds s on the sites of block Y only
// and 0 elsewhere: the hopping term on it, at a site of Y, is that of D_B, the Dirac operator with the
// block's outside cut off.
template <typename Real>
struct BlockMaskedSource {
  using T = compute_t<Real>;
  SpinorView<Real> s;
  const std::int32_t* fine_block;  // Aggregation::fine_block
  std::int64_t vh;
  std::int32_t Y;
  LQCD_HOST_DEVICE bool inside(int p, std::int64_t cb) const { return fine_block[p * vh + cb] == Y; }
  LQCD_HOST_DEVICE ColorSpinor<T> load(int p, std::int64_t cb) const {
    return inside(p, cb) ? s.load(p, cb) : ColorSpinor<T>{};
  }
  LQCD_HOST_DEVICE HalfSpinor<T> load_projected(int p, std::int64_t cb, int mu, int sign, T& scale) const {
    if (inside(p, cb)) return s.load_projected(p, cb, mu, sign, scale);
    scale = T(1);
    return HalfSpinor<T>{};
  }
};

// On the sites of the blocks of `colour`: t = D_B s (WilsonSiteOperator, dirac/hopping_part.hpp), with w = (t^dag s, |t|^2)
// as BlockMrPartialKernel writes them. One pass over half the lattice instead of D on all of it and
// a second pass for w; s must vanish off the blocks of `colour` (the sites of Y alone are read for a
// site of Y).
template <typename Real>
struct SchwarzBlockOperatorKernel {
  Aggregation agg;
  WilsonSiteOperator<Real> D;
  SpinorView<Real> s, t;
  Complex<double>* w;
  int colour;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int c = 0;
    const std::int64_t Y = block_of(agg, i, c);
    if (c != colour) return;
    const int p = t.parity_of(i);
    const std::int64_t cb = t.cb_of(i);
    int xc[4];
    D.U.idx.coords(p, cb, xc);
    const BlockMaskedSource<Real> in{s, agg.fine_block, agg.fine.vh, std::int32_t(Y)};
    const auto r = D.apply(in, p, cb, xc);
    t.store(p, cb, r);
    store_mr_partial(w, i, r, s.load(p, cb));
  }
};

// On the sites of the blocks of `colour`: rho = r - D e, with the whole operator (its hops reach into the
// neighbouring blocks); rho elsewhere untouched. The residual a colour's block solves read, on half the
// lattice and in one pass (D on all of it and an xpay otherwise). Reads e's neighbours inside this
// process only: single-process geometries.
template <typename Real>
struct BlockResidualKernel {
  Aggregation agg;
  WilsonSiteOperator<Real> D;
  SpinorView<Real> r, e, rho;
  int colour;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int c = 0;
    block_of(agg, i, c);
    if (c != colour) return;
    const int p = rho.parity_of(i);
    const std::int64_t cb = rho.cb_of(i);
    int xc[4];
    D.U.idx.coords(p, cb, xc);
    rho.store(p, cb, r.load(p, cb) - D.apply(e, p, cb, xc));
  }
};

}  // namespace lqcd
