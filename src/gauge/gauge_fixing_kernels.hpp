#pragma once
// Site kernels of the gauge fixing (gauge/gauge_fixing.hpp). Conventions there: A_mu(x) is the traceless
// part of (U_mu(x) - U_mu(x)^dag) / (2i) (Hermitian), the gauge condition's violation at x is
// Delta(x) = sum_{mu < ndir} [A_mu(x) - A_mu(x - mu)], ndir = 4 (Landau) or 3 (Coulomb: x, y, z).

#include <cmath>
#include <cstdint>

#include "core/reduction.hpp"
#include "fields/gauge_view.hpp"
#include "math/complex.hpp"
#include "math/su2.hpp"
#include "math/su3_exp.hpp"

namespace lqcd {

// The traceless Hermitian part of (u - u^dag) / (2i).
LQCD_HOST_DEVICE inline SU3<double> traceless_hermitian_part(const SU3<double>& u) {
  SU3<double> a;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      // (u_rc - conj(u_cr)) / (2i)
      const Complex<double> d = u.m[r][c] - conj(u.m[c][r]);
      a.m[r][c] = Complex<double>(d.im / 2, -d.re / 2);
    }
  const double tr = (a.m[0][0].re + a.m[1][1].re + a.m[2][2].re) / 3;
  for (int r = 0; r < 3; ++r) a.m[r][r] = Complex<double>(a.m[r][r].re - tr, 0);
  return a;
}

// A traceless Hermitian matrix h in 4 complex numbers (the FFT's input: a real, symmetric filter keeps
// each of them as it is, real parts real): h01, h02, h12 and h00 + i h11; h22 = -h00 - h11. Number k of
// element i at data[k * stride + i].
struct PackedHermitianView {
  Complex<double>* data;
  std::int64_t stride;
  LQCD_HOST_DEVICE void store(std::int64_t i, const SU3<double>& h) const {
    data[i] = h.m[0][1];
    data[stride + i] = h.m[0][2];
    data[2 * stride + i] = h.m[1][2];
    data[3 * stride + i] = Complex<double>(h.m[0][0].re, h.m[1][1].re);
  }
  LQCD_HOST_DEVICE SU3<double> load(std::int64_t i) const {
    SU3<double> h;
    h.m[0][1] = data[i];
    h.m[0][2] = data[stride + i];
    h.m[1][2] = data[2 * stride + i];
    const Complex<double> d = data[3 * stride + i];
    h.m[1][0] = conj(h.m[0][1]);
    h.m[2][0] = conj(h.m[0][2]);
    h.m[2][1] = conj(h.m[1][2]);
    h.m[0][0] = Complex<double>(d.re, 0);
    h.m[1][1] = Complex<double>(d.im, 0);
    h.m[2][2] = Complex<double>(-d.re - d.im, 0);
    return h;
  }
};

// Per site: [0] sum_{mu < ndir} Re tr U_mu(x), [1] tr Delta(x)^2; Delta(x) stored (lexicographic site
// index) where `delta.data` is set. Reads U's backward neighbours (halo exchanged).
struct GaugeFixDivergenceKernel {
  GaugeView<double> U;
  PackedHermitianView delta;
  int ndir;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<2>& acc) const {
    int x[4];
    U.idx.coords_lex(i, x);
    SU3<double> d = SU3<double>::zero();
    for (int mu = 0; mu < ndir; ++mu) {
      const SU3<double> u = U.link(x, mu);
      acc[0] += re_trace(u);
      int y[4] = {x[0], x[1], x[2], x[3]};
      U.idx.shift(y, mu, -1);
      d += traceless_hermitian_part(u);
      d -= traceless_hermitian_part(U.link(y, mu));
    }
    acc[1] += re_trace(d * d);
    if (delta.data) delta.store(i, d);
  }
};

// Fourier acceleration (C. T. H. Davies et al., Phys. Rev. D 37 (1988) 1581, eq. 3.4): every packed
// component at momentum k times p2max / p^2(k) / points, p^2 = sum_{mu < ndir} 4 sin^2(pi k_mu / L_mu),
// where `points` normalises the FFT pair (backward(forward) = points). The zero mode (p^2 = 0, per time
// slice for Coulomb) is set to 0: sum_x Delta(x) = 0 anyway. Element i in lexicographic order of n.
struct FourierAccelerationKernel {
  PackedHermitianView delta;
  int n[4];
  int ndir;
  double p2max_over_points;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int k[4];
    lexicographic_coords(i, n, k);
    double p2 = 0;
    for (int mu = 0; mu < ndir; ++mu) {
      const double s = sin(3.14159265358979323846 * k[mu] / n[mu]);
      p2 += 4 * s * s;
    }
    const double f = p2 > 1e-12 ? p2max_over_points / p2 : 0.0;
    for (int c = 0; c < 4; ++c) delta.data[c * delta.stride + i] *= f;
  }
};

// The steepest-descent step's gauge transformation g(x) = exp(-i alpha w(x)) from the filtered Delta w
// (packed, lexicographic), into g[i] (lexicographic). With Delta built from A = (U - U^dag)/(2i), this
// alpha is that of Davies et al., whose Delta is the anti-Hermitian U - U^dag = 2i A (their
// exp((alpha/2) Delta_theirs) = exp(i alpha A)); their alpha = 0.08 is near the fastest stable step.
// The functional F = sum Re tr U grows to first order by alpha sum_x tr(w Delta) (gauge_fixing.hpp).
struct GaugeFixExponentialKernel {
  PackedHermitianView w;
  SU3<double>* g;
  double alpha;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    SU3<double> h = w.load(i);
    h *= -alpha;
    g[i] = exp_i(h);
  }
};

// U_mu(x) <- g(x) U_mu(x) g(x + mu)^dag for all four mu, g lexicographic. One process, no halo: the
// neighbours x + mu are local (periodic).
struct GaugeFixRotationKernel {
  GaugeView<double> U;
  const SU3<double>* g;
  LQCD_HOST_DEVICE std::int64_t lex(const int x[4]) const {
    return x[0] + std::int64_t(U.idx.n[0]) * (x[1] + std::int64_t(U.idx.n[1]) * (x[2] + std::int64_t(U.idx.n[2]) * x[3]));
  }
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    const SU3<double> gx = g[i];
    for (int mu = 0; mu < 4; ++mu) {
      int y[4] = {x[0], x[1], x[2], x[3]};
      U.idx.shift(y, mu, +1);
      U.store(mu, p, s, mul_adj(gx * U.load(mu, p, s), g[lex(y)]));
    }
  }
};

// r^omega for r = cos(phi) + i n.sigma sin(phi) in SU(2): cos(omega phi) + i n.sigma sin(omega phi).
LQCD_HOST_DEVICE inline SU2<double> su2_power(const SU2<double>& r, double omega) {
  const double v = sqrt(r.a[1] * r.a[1] + r.a[2] * r.a[2] + r.a[3] * r.a[3]);
  if (v < 1e-300) return SU2<double>{{1, 0, 0, 0}};
  const double phi = atan2(v, r.a[0]), s = sin(omega * phi) / v;
  return SU2<double>{{cos(omega * phi), r.a[1] * s, r.a[2] * s, r.a[3] * s}};
}

// Overrelaxation (J. E. Mandula, M. Ogilvie, Phys. Lett. B 248 (1990) 156): on the sites of one parity,
// g(x) maximising Re tr[g(x) K(x)], K(x) = sum_{mu < ndir} [U_mu(x) + U_mu(x - mu)^dag], over the three
// SU(2) subgroups in turn (the SU(2) maximum of Re tr(r m) is m^dag / |m|), each raised to the power omega
// (1 <= omega < 2; 1 is the plain local maximisation). Stores g in G's mu = 0 block; reads U's halo.
struct GaugeFixOverrelaxationKernel {
  GaugeView<double> U;
  GaugeView<double> G;
  int parity;
  int ndir;
  double omega;
  LQCD_HOST_DEVICE void operator()(std::int64_t s) const {
    int x[4];
    U.idx.coords(parity, s, x);
    SU3<double> k = SU3<double>::zero();
    for (int mu = 0; mu < ndir; ++mu) {
      k += U.link(x, mu);
      int y[4] = {x[0], x[1], x[2], x[3]};
      U.idx.shift(y, mu, -1);
      k += dagger(U.link(y, mu));
    }
    SU3<double> g = SU3<double>::identity();
    for (int sub = 0; sub < 3; ++sub) {
      const SU2<double> m = su2_project(g * k, sub);
      const double norm = sqrt(m.a[0] * m.a[0] + m.a[1] * m.a[1] + m.a[2] * m.a[2] + m.a[3] * m.a[3]);
      if (norm < 1e-300) continue;
      SU2<double> r = su2_dagger(m);
      for (double& c : r.a) c /= norm;
      su2_left_multiply(g, su2_power(r, omega), sub);
    }
    G.store(0, parity, s, g);
  }
};

// After GaugeFixOverrelaxationKernel: U_mu(x) <- g(x) U_mu(x) g(x + mu)^dag with g = 1 off `parity`
// (every neighbour of a site has the other parity). Reads G's halo.
struct GaugeFixApplyParityKernel {
  GaugeView<double> U;
  GaugeView<double> G;
  int parity;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    if (p == parity) {
      const SU3<double> g = G.load(0, p, s);
      for (int mu = 0; mu < 4; ++mu) U.store(mu, p, s, g * U.load(mu, p, s));
    } else {
      for (int mu = 0; mu < 4; ++mu) {
        int y[4] = {x[0], x[1], x[2], x[3]};
        U.idx.shift(y, mu, +1);
        U.store(mu, p, s, mul_adj(U.load(mu, p, s), G.link(y, 0)));
      }
    }
  }
};

}  // namespace lqcd
