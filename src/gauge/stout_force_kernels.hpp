#pragma once
// The force through one stout step (C. Morningstar, M. Peardon, Phys. Rev. D 69 (2004) 054501,
// section IV, eqs. 68-75) as two site kernels; gauge/stout_force.hpp has the algorithm and the
// derivation of the input Sigma' from a force.
//
// Notation. A smooth function S of the links is described by matrices Sigma_mu(x) with
//   dS = 2 Re sum_{x,mu} tr(Sigma_mu(x) dU_mu(x))
// (only the part along the SU(3) tangent space, dU = iX U with X in su(3), matters). The force of
// hmc/md_kernels.hpp, F^a = d/dw S[e^{iwT^a} U], is then F^a = 2 Re tr(i U Sigma T^a) = -2 Im tr(T^a U Sigma),
// i.e. F = -TA(U Sigma) (TA: the traceless part of (W - W^dag)/(2i)); conversely Sigma = -i U^dag F
// represents the force F.
//
// One step maps the links U to V = exp(iQ) U (gauge/stout_smearing.hpp has Q and C). With Sigma' the
// matrices of S as a function of V (eq. 68, here Sigma' = -i V^dag F_V),
//   dS = 2 Re tr(Sigma' exp(iQ) dU) + 2 Re tr(Gamma dQ),   U Sigma' = -i exp(iQ)^dag F_V =: X,
//   Gamma = tr(X B1) Q + tr(X B2) Q^2 + f1 X + f2 (Q X + X Q)   (eq. 74, math/su3_exp_coefficients.hpp),
// and with Lambda = (Gamma + Gamma^dag)/2 - tr(Gamma + Gamma^dag)/6 (eq. 73), 2 Re tr(Gamma dQ) =
// 2 tr(Lambda dQ) = 2 Re tr(-i Lambda dOmega), Omega = C U^dag. The term with dU^dag gives i C^dag Lambda,
// the terms with dC (the staples of every link whose C holds U_mu(x)) give the six staple terms of eq. 75:
//   Sigma_mu(x) = Sigma'_mu(x) exp(iQ) + i C^dag Lambda_mu(x) + sum_{nu != mu} rho_{mu nu} [
//       U_nu(x+mu) M_mu(x+nu) U_nu(x)^dag          (C_mu(x+nu) holds U_mu(x) in its lower staple)
//     + U_nu(x-nu+mu)^dag M_mu(x-nu) U_nu(x-nu)    (C_mu(x-nu), upper staple)
//     + U_nu(x+mu) U_mu(x+nu)^dag M_nu(x)          (C_nu(x): U_mu(x) first link of the upper staple)
//     + U_nu(x-nu+mu)^dag U_mu(x-nu)^dag M_nu(x-nu)^dag   (C_nu(x-nu): U_mu(x)^dag last link)
//     + M_nu(x+mu)^dag U_mu(x+nu)^dag U_nu(x)^dag  (C_nu(x+mu): U_mu(x)^dag first link of the lower staple)
//     + M_nu(x+mu-nu) U_mu(x-nu)^dag U_nu(x-nu) ]  (C_nu(x+mu-nu): U_mu(x) last link of the lower staple)
// with M_nu(y) = -i U_nu(y)^dag Lambda_nu(y); written out, these are the paper's eq. 75 term by term.
// The kernels form W = U Sigma and the force -TA(W) with respect to U.

#include "fields/gauge_view.hpp"
#include "gauge/staples.hpp"
#include "gauge/stout_smearing_kernels.hpp"
#include "math/su3_exp_coefficients.hpp"

namespace lqcd {

// s X for a complex s.
LQCD_HOST_DEVICE inline SU3<double> su3_scale(const Complex<double>& s, const SU3<double>& x) {
  SU3<double> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = s * x.m[i][j];
  return r;
}

// The Hermitian traceless part (G + G^dag)/2 - tr(G + G^dag)/6 (eq. 73).
LQCD_HOST_DEVICE inline SU3<double> stout_hermitian_traceless(const SU3<double>& g) {
  SU3<double> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = (g.m[i][j] + conj(g.m[j][i])) * 0.5;
  const double t = (r.m[0][0].re + r.m[1][1].re + r.m[2][2].re) / 3;
  for (int i = 0; i < 3; ++i) r.m[i][i] = Complex<double>(r.m[i][i].re - t, 0);
  return r;
}

// -TA(W): minus the traceless part of (W - W^dag)/(2i), the force of W = U Sigma (see above).
LQCD_HOST_DEVICE inline SU3<double> stout_force_of(const SU3<double>& w) {
  SU3<double> q;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<double> d = w.m[i][j] - conj(w.m[j][i]);
      q.m[i][j] = Complex<double>(-d.im / 2, d.re / 2);  // -(d / 2i)
    }
  const double t = (q.m[0][0].re + q.m[1][1].re + q.m[2][2].re) / 3;
  for (int i = 0; i < 3; ++i) q.m[i][i] = Complex<double>(q.m[i][i].re - t, 0);
  return q;
}

// rho_{mu nu} of the step: rho, or 0 for the planes with time when only spatial links are smeared.
LQCD_HOST_DEVICE inline double stout_rho(double rho, int spatial_only, int mu, int nu) {
  return spatial_only && (mu == kTimeDir || nu == kTimeDir) ? 0.0 : rho;
}

// The link of thread i = mu V + (lexicographic site) of the kernels below: its direction, coordinates,
// parity and checkerboard index.
struct StoutLink {
  int mu, p;
  int x[4];
  std::int64_t s;
  LQCD_HOST_DEVICE StoutLink(const SiteIndexer& idx, std::int64_t i) {
    const std::int64_t volume = 2 * idx.vh;
    mu = int(i / volume);
    idx.coords_lex(i - mu * volume, x);
    p = SiteIndexer::parity(x);
    s = idx.cb_index(x);
  }
};

// One thread per link, i = mu V + (lexicographic site), i < 4 V. From the step's input links U and the
// force FV with respect to its output V: Lambda_mu(x) (eq. 73) into L, and the local part
// W_loc = U (Sigma' exp(iQ) + i C^dag Lambda) = X exp(iQ) + i U C^dag Lambda into W.
struct StoutLambdaKernel {
  GaugeView<double> U;
  GaugeView<double> FV;
  GaugeView<double> L;
  GaugeView<double> W;
  double rho;
  int spatial_only;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const StoutLink l(U.idx, i);
    const int mu = l.mu, p = l.p;
    const int* x = l.x;
    const std::int64_t s = l.s;
    const SU3<double> f = FV.load(mu, p, s);
    if (spatial_only && mu == kTimeDir) {  // V = U: Sigma = Sigma', W = -i F
      L.store(mu, p, s, SU3<double>::zero());
      W.store(mu, p, s, su3_scale(Complex<double>(0, -1), f));
      return;
    }
    const SU3<double> u = U.load(mu, p, s);
    SU3<double> c = dagger(spatial_only ? plaquette_staple<kTimeDir>(U, x, mu) : plaquette_staple(U, x, mu));
    c *= rho;                                      // C_mu(x) (stout_smearing_kernels.hpp: C = rho A^dag)
    const SU3<double> q = stout_q(mul_adj(c, u));  // Q of Omega = C U^dag
    const SU3<double> q2 = q * q;
    const ExpCoefficients k = exp_i_coefficients(q);
    const SU3<double> e = su3_quadratic(k.f, q, q2);                   // exp(iQ)
    const SU3<double> xm = su3_scale(Complex<double>(0, -1), adj_mul(e, f));  // X = U Sigma' = -i exp(iQ)^dag F_V
    const SU3<double> b1 = su3_quadratic(k.b1, q, q2), b2 = su3_quadratic(k.b2, q, q2);
    SU3<double> gamma = su3_scale(trace(xm * b1), q);
    gamma += su3_scale(trace(xm * b2), q2);
    gamma += su3_scale(k.f[1], xm);
    gamma += su3_scale(k.f[2], q * xm + xm * q);
    const SU3<double> lambda = stout_hermitian_traceless(gamma);
    L.store(mu, p, s, lambda);
    SU3<double> w = xm * e;
    w += su3_scale(Complex<double>(0, 1), u * adj_mul(c, lambda));  // i U C^dag Lambda
    W.store(mu, p, s, w);
  }
};

// One thread per link. W (from StoutLambdaKernel, read and overwritten at the thread's own link) plus
// U times the staple terms of eq. 75 (Lambda at the neighbours: L's halo must be filled), then
// F = -TA(W): the force with respect to U, stored in W.
struct StoutStapleForceKernel {
  GaugeView<double> U;
  GaugeView<double> L;
  GaugeView<double> W;
  double rho;
  int spatial_only;

  // M_nu(y) = -i U_nu(y)^dag Lambda_nu(y).
  LQCD_HOST_DEVICE SU3<double> m_at(const int y[4], int nu) const {
    return su3_scale(Complex<double>(0, -1), adj_mul(U.link(y, nu), L.link(y, nu)));
  }

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const StoutLink l(U.idx, i);
    const int mu = l.mu, p = l.p;
    const int* x = l.x;
    const std::int64_t s = l.s;
    SU3<double> sigma = SU3<double>::zero();
    for (int nu = 0; nu < 4; ++nu) {
      const double r = stout_rho(rho, spatial_only, mu, nu);
      if (nu == mu || r == 0.0) continue;
      int xpmu[4], xpnu[4], xmnu[4], xpmumnu[4];
      for (int k = 0; k < 4; ++k) xpmu[k] = xpnu[k] = xmnu[k] = x[k];
      U.idx.shift(xpmu, mu, +1);
      U.idx.shift(xpnu, nu, +1);
      U.idx.shift(xmnu, nu, -1);
      for (int k = 0; k < 4; ++k) xpmumnu[k] = xmnu[k];
      U.idx.shift(xpmumnu, mu, +1);
      const SU3<double> unu_x = U.link(x, nu), unu_xpmu = U.link(xpmu, nu);
      const SU3<double> umu_xpnu = U.link(xpnu, mu), umu_xmnu = U.link(xmnu, mu);
      const SU3<double> unu_xmnu = U.link(xmnu, nu), unu_xpmumnu = U.link(xpmumnu, nu);
      // Upper side (through x + nu): U_nu(x+mu) U_mu(x+nu)^dag [M_mu(x+nu) U_nu(x)^dag ... ].
      const SU3<double> upper = mul_adj(unu_xpmu, umu_xpnu);  // U_nu(x+mu) U_mu(x+nu)^dag
      SU3<double> t = mul_adj(unu_xpmu * m_at(xpnu, mu), unu_x);
      t += upper * m_at(x, nu);
      t += mul_adj(dagger(m_at(xpmu, nu)) * dagger(umu_xpnu), unu_x);
      // Lower side (through x - nu).
      const SU3<double> lower = adj_mul(unu_xpmumnu, dagger(umu_xmnu));  // U_nu(x-nu+mu)^dag U_mu(x-nu)^dag
      t += adj_mul(unu_xpmumnu, m_at(xmnu, mu) * unu_xmnu);
      t += lower * dagger(m_at(xmnu, nu));
      t += (m_at(xpmumnu, nu) * dagger(umu_xmnu)) * unu_xmnu;
      t *= r;
      sigma += t;
    }
    SU3<double> w = W.load(mu, p, s);
    w += U.load(mu, p, s) * sigma;
    W.store(mu, p, s, stout_force_of(w));
  }
};

}  // namespace lqcd
