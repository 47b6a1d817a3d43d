#pragma once
// Site kernels of the molecular dynamics (HMC), host and device.
//
// Conventions (the same in every monomial and integrator):
//   momenta P_mu(x) = sum_a p^a T^a in su(3): Hermitian, traceless, T^a = lambda^a / 2 (Gell-Mann),
//   tr T^a T^b = delta_ab / 2; stored like links (GaugeField layout, 9 complex entries);
//   H = (1/2) sum_{x,mu,a} (p^a)^2 + S[U] = sum_{x,mu} tr P^2 + S[U];
//   dU/dt = i P U,  dP/dt = -F,  F = sum_a F^a T^a,  F^a(x, mu) = d/dw S[e^{i w T^a} U_mu(x)] at w = 0.
// For a matrix W, sum_a Im tr(T^a W) T^a = (1/2) TA(W) with TA(W) the traceless part of
// (W - W^dag) / (2i) (traceless_hermitian_part below); forces are written with it.

#include <cstdint>

#include "core/reduction.hpp"
#include "core/site_random.hpp"
#include "fields/gauge_view.hpp"
#include "fields/spinor_field.hpp"
#include "gauge/staples.hpp"
#include "math/gamma.hpp"

namespace lqcd {

// The traceless part of (W - W^dag) / (2i). FLOPs: 48.
template <typename T>
LQCD_HOST_DEVICE SU3<T> traceless_hermitian_part(const SU3<T>& w) {
  SU3<T> q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<T> d = w.m[i][j] - conj(w.m[j][i]);  // W - W^dag
      q.m[i][j] = Complex<T>(d.im / 2, -d.re / 2);       // / (2i)
    }
  const T t = (q.m[0][0].re + q.m[1][1].re + q.m[2][2].re) / 3;
  for (int i = 0; i < 3; ++i) q.m[i][i] = Complex<T>(q.m[i][i].re - t, 0);
  return q;
}

// sum_a p^a T^a from the 8 components (Gell-Mann basis).
LQCD_HOST_DEVICE inline SU3<double> su3_algebra(const double p[8]) {
  const double s3 = 0.57735026918962576451;  // 1/sqrt(3)
  SU3<double> P{};
  P.m[0][0] = Complex<double>(0.5 * (p[2] + s3 * p[7]));
  P.m[1][1] = Complex<double>(0.5 * (-p[2] + s3 * p[7]));
  P.m[2][2] = Complex<double>(-s3 * p[7]);
  P.m[0][1] = Complex<double>(0.5 * p[0], -0.5 * p[1]);
  P.m[0][2] = Complex<double>(0.5 * p[3], -0.5 * p[4]);
  P.m[1][2] = Complex<double>(0.5 * p[5], -0.5 * p[6]);
  P.m[1][0] = conj(P.m[0][1]);
  P.m[2][0] = conj(P.m[0][2]);
  P.m[2][1] = conj(P.m[1][2]);
  return P;
}

// exp(i X) for Hermitian X: Taylor series of degree 18 by Horner's rule. For ||X|| <= 1 the
// truncation error is below 1e-16 (1/19!); molecular-dynamics steps have ||eps P|| well below 1.
LQCD_HOST_DEVICE inline SU3<double> exp_i(const SU3<double>& x) {
  SU3<double> ix;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) ix.m[i][j] = Complex<double>(-x.m[i][j].im, x.m[i][j].re);
  SU3<double> r = SU3<double>::identity();
  for (int k = 18; k >= 1; --k) {
    r = ix * r;
    r *= 1.0 / k;
    r += SU3<double>::identity();
  }
  return r;
}

// P_mu(x) with Gaussian components p^a (unit variance), keyed by (seed, global site, mu, counter).
struct MomentumHeatbathKernel {
  GaugeView<double> P;
  std::uint64_t seed;
  std::uint32_t counter;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    P.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) {
      SiteRandom rng(seed, P.idx.global_lex(x), RngPurpose::Momenta, std::uint32_t(mu), counter);
      double p[8];
      for (int a = 0; a < 8; ++a) p[a] = rng.gaussian();  // sequenced draws
      P.store(mu, SiteIndexer::parity(x), P.idx.cb_index(x), su3_algebra(p));
    }
  }
};

// sum_mu tr P_mu(x)^2 (real for Hermitian P) per site.
struct KineticEnergyKernel {
  GaugeView<double> P;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    int x[4];
    P.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> p = P.link(x, mu);
      acc[0] += re_trace_mul(p, p);
    }
  }
};

// U_mu(x) <- exp(i eps P_mu(x)) U_mu(x).
struct LinkUpdateKernel {
  GaugeView<double> U;
  GaugeView<double> P;
  double eps;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      SU3<double> e = P.load(mu, p, s);
      e *= eps;
      U.store(mu, p, s, exp_i(e) * U.load(mu, p, s));
    }
  }
};

// Y <- Y + a X on every link (momenta and forces: P <- P - eps F).
struct LinkAxpyKernel {
  double a;
  GaugeView<double> X, Y;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    X.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = X.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      SU3<double> v = X.load(mu, p, s);
      v *= a;
      Y.store(mu, p, s, Y.load(mu, p, s) + v);
    }
  }
};

// Zeros on every link (an axpy would keep NaN of fresh memory).
struct LinkZeroKernel {
  GaugeView<double> F;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    F.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) F.store(mu, SiteIndexer::parity(x), F.idx.cb_index(x), SU3<double>::zero());
  }
};

// Gauge force, added to F: with S = -(beta/3) Re tr(U A) + (terms without U_mu(x)) and A the
// action's staple (gauge/staples.hpp, c0 and c1 included), F^a = (beta/3) Im tr(T^a U A), i.e.
// F = (beta / 6) TA(U A).
template <bool Rectangles>
struct GaugeForceKernel {
  GaugeView<double> U;
  GaugeView<double> F;
  double beta, c0, c1;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<double> a = action_staple<Rectangles>(U, x, mu, c0, c1);
      SU3<double> f = traceless_hermitian_part(U.load(mu, p, s) * a);
      f *= beta / 6;
      F.store(mu, p, s, F.load(mu, p, s) + f);
    }
  }
};

// The derivative of Re <a, H b> (H the Wilson hopping term with boundary phases, wilson_kernels.hpp)
// with respect to the links, times `coef`, added to F:
//   d/dw <a, H b> at U_mu(x) -> e^{i w T} U_mu(x) is i tr[T (U_mu(x) B - C U_mu(x)^dag)] with
//   B = sum_s b_s(x+mu) [(1 - g_mu) a(x)]_s^dag,  C = sum_s b_s(x) [(1 + g_mu) a(x+mu)]_s^dag
// (colour outer products, the boundary phase on b(x+mu) and its conjugate on b(x) for hops across
// the boundary), so F += coef * d/dw Re <a, H b> = -coef * (1/2) TA(U B - C U^dag) in matrix form.
// a and b are full-lattice fields.
struct HoppingForceKernel {
  GaugeView<double> U;
  GaugeView<double> F;
  SpinorView<double> a, b;
  Complex<double> phase[4];
  double coef;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    const ColorSpinor<double> ax = a.load(p, s), bx = b.load(p, s);
    for (int mu = 0; mu < 4; ++mu) {
      int y[4] = {x[0], x[1], x[2], x[3]};
      U.idx.shift(y, mu, +1);
      const std::int64_t sy = U.idx.cb_index(y);
      ColorSpinor<double> by = b.load(1 - p, sy), bxx = bx;
      if (x[mu] + U.idx.off[mu] == U.idx.gn[mu] - 1) {  // the hop x -> x + mu crosses the boundary
        by *= phase[mu];
        bxx *= conj(phase[mu]);
      }
      const ColorSpinor<double> ay = a.load(1 - p, sy);
      const ColorSpinor<double> pa = ax - apply_gamma(mu, ax);  // (1 - g_mu) a(x)
      const ColorSpinor<double> ma = ay + apply_gamma(mu, ay);  // (1 + g_mu) a(x + mu)
      SU3<double> B{}, C{};
      for (int sp = 0; sp < 4; ++sp)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) {
            B.m[r][c] += by.s[sp].c[r] * conj(pa.s[sp].c[c]);
            C.m[r][c] += bxx.s[sp].c[r] * conj(ma.s[sp].c[c]);
          }
      const SU3<double> u = U.load(mu, p, s);
      SU3<double> f = traceless_hermitian_part(u * B - mul_adj(C, u));
      f *= -0.5 * coef;
      F.store(mu, p, s, F.load(mu, p, s) + f);
    }
  }
};

// Complex Gaussian noise with density exp(-|eta|^2) per component (each real part of variance 1/2),
// keyed by (seed, global site, stream, counter): the pseudofermion heatbath's eta.
struct GaussianSpinorKernel {
  SpinorView<double> out;
  std::uint64_t seed;
  std::uint32_t stream, counter;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = out.parity_of(i);
    const std::int64_t s = out.cb_of(i);
    int x[4];
    out.idx.coords(p, s, x);
    SiteRandom rng(seed, out.idx.global_lex(x), RngPurpose::Pseudofermion, stream, counter);
    ColorSpinor<double> v;
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) {
        const double re = rng.gaussian();
        const double im = rng.gaussian();
        v.s[sp].c[c] = Complex<double>(re * 0.70710678118654752440, im * 0.70710678118654752440);
      }
    out.store(p, s, v);
  }
};

}  // namespace lqcd
