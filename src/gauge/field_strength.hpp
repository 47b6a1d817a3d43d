#pragma once
// The lattice field strength from the clover leaves: the clover term of the Dirac operator
// (dirac/clover_kernels.hpp), the energy density and the topological charge of the gradient flow
// (gauge/gradient_flow.hpp).
//
// Field strength (B. Sheikholeslami, R. Wohlert, Nucl. Phys. B 259 (1985) 572; M. Luscher,
// S. Sint, R. Sommer, P. Weisz, Nucl. Phys. B 478 (1996) 365, section 2):
//   Q_{mu nu}(x) = U_mu(x) U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag
//                + U_nu(x) U_mu(x-mu+nu)^dag U_nu(x-mu)^dag U_mu(x-mu)
//                + U_mu(x-mu)^dag U_nu(x-mu-nu)^dag U_mu(x-mu-nu) U_nu(x-nu)
//                + U_nu(x-nu)^dag U_mu(x-nu) U_nu(x-nu+mu) U_mu(x)^dag,
//   F_{mu nu}(x) = (1/8) [Q_{mu nu}(x) - Q_{mu nu}(x)^dag]   (then its traceless part, i.e. the
//   projection onto the Lie algebra su(3), as in openQCD's ftensor and QUDA's computeFmunu).
// The four leaves are the plaquettes in the (mu, nu) plane that touch x, each traversed
// counter-clockwise starting and ending at x. F_{nu mu} = -F_{mu nu}; F is anti-Hermitian.
//
// The O(a^2)-improved field strength of the improved topological charge (gauge/gradient_flow.hpp) adds
// the rectangles: with Q^{m x n}_{mu nu}(x) the sum of the four m x n leaves touching x (m links along
// mu, n along nu, each counter-clockwise from x as above) and
//   F^{m x n}_{mu nu} = traceless part of (1/(8 m n)) [Q^{m x n} - Q^{m x n dag}],
// at tree level a leaf is exp of a^2 m n times the mean of F over its rectangle, so F^{m x n} is the mean of
// F over the 2m x 2n rectangle centred at x (the four leaves tile it; the odd terms cancel):
//   F^{m x n} = F + a^2 (m^2 d_mu^2 + n^2 d_nu^2) F / 6 + O(a^4)
// (the mean of s^2 / 2 over [-m, m] is m^2 / 6). Hence F^{1x1} = F + a^2 (d_mu^2 + d_nu^2) F / 6,
// F^{1x2} + F^{2x1} = 2 F + 5 a^2 (d_mu^2 + d_nu^2) F / 6, and
//   F^{imp} = 5/3 F^{1x1} - 1/3 (F^{1x2} + F^{2x1})
// has no O(a^2) term at tree level (5/18 - 5/18 = 0): the 1x1 + 1x2 member of the family of improved
// field strengths from m x n clover averages of S. Bilson-Thompson, D. Leinweber, A. Williams, Ann. Phys.
// 304 (2003) 1 (their 3- and 5-loop versions add larger loops to remove O(a^4) as well). The 2x1 leaves
// reach two sites from x.

#include "fields/gauge_view.hpp"
#include "gauge/staples.hpp"

namespace lqcd {

// Q_{mu nu}(x): the sum of the four counter-clockwise leaves (formula above), mu != nu.
// FLOPs: 12 SU(3) products (198 each) + 3 additions (18 each) = 2430.
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> clover_leaves(const GaugeView<Real>& U, const int x[4], int mu, int nu) {
  const int m = fwd(mu), n = fwd(nu), mb = bwd(mu), nb = bwd(nu);
  const int leaf1[4] = {m, n, mb, nb};  // U_mu(x) U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag
  const int leaf2[4] = {n, mb, nb, m};  // U_nu(x) U_mu(x-mu+nu)^dag U_nu(x-mu)^dag U_mu(x-mu)
  const int leaf3[4] = {mb, nb, m, n};  // U_mu(x-mu)^dag U_nu(x-mu-nu)^dag U_mu(x-mu-nu) U_nu(x-nu)
  const int leaf4[4] = {nb, m, n, mb};  // U_nu(x-nu)^dag U_mu(x-nu) U_nu(x-nu+mu) U_mu(x)^dag
  SU3<Real> q = U.path(x, leaf1);
  q += U.path(x, leaf2);
  q += U.path(x, leaf3);
  q += U.path(x, leaf4);
  return q;
}

// scale (q - q^dag): anti-Hermitian, its trace kept (MILC's clover field strength, see
// dirac/clover_kernels.hpp).
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> antihermitian_part(const SU3<Real>& q, Real scale) {
  SU3<Real> f;
  LQCD_UNROLL
  for (int i = 0; i < 3; ++i)
    LQCD_UNROLL
    for (int j = 0; j < 3; ++j) f.m[i][j] = (q.m[i][j] - conj(q.m[j][i])) * scale;
  return f;
}

// The traceless part of scale (q - q^dag): anti-Hermitian, traceless.
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> traceless_antihermitian_part(const SU3<Real>& q, Real scale) {
  SU3<Real> f = antihermitian_part(q, scale);
  // The diagonal is purely imaginary; remove its mean (1/3) tr F.
  const Real t = (f.m[0][0].im + f.m[1][1].im + f.m[2][2].im) / Real(3);
  LQCD_UNROLL
  for (int i = 0; i < 3; ++i) f.m[i][i] = Complex<Real>(0, f.m[i][i].im - t);
  return f;
}

// F_{mu nu}(x) = traceless part of (1/8) (Q_{mu nu} - Q_{mu nu}^dag): anti-Hermitian, traceless.
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> clover_field_strength(const GaugeView<Real>& U, const int x[4], int mu, int nu) {
  return traceless_antihermitian_part(clover_leaves(U, x, mu, nu), Real(0.125));
}

// Q^{A x B}_{mu nu}(x): the sum of the four A x B rectangle leaves touching x (A links along mu, B along
// nu), each counter-clockwise from x in the order of clover_leaves (rectangle_leaves<1, 1> is
// clover_leaves). For A = 2, B = 1 the paths are {m,m,n,mb,mb,nb}, {n,mb,mb,nb,m,m}, {mb,mb,nb,m,m,n},
// {nb,m,m,n,mb,mb}. FLOPs: 4 (2 (A + B) - 1) SU(3) products + 3 additions.
template <int A, int B, typename Real>
LQCD_HOST_DEVICE SU3<Real> rectangle_leaves(const GaugeView<Real>& U, const int x[4], int mu, int nu) {
  constexpr int N = 2 * (A + B);
  const int m = fwd(mu), n = fwd(nu), mb = bwd(mu), nb = bwd(nu);
  // leaf1: A x m, B x n, A x mb, B x nb     leaf2: B x n, A x mb, B x nb, A x m
  // leaf3: A x mb, B x nb, A x m, B x n     leaf4: B x nb, A x m, B x n, A x mb
  int leaf1[N], leaf2[N], leaf3[N], leaf4[N];
  LQCD_UNROLL
  for (int j = 0; j < A; ++j) {
    leaf1[j] = m;
    leaf1[A + B + j] = mb;
    leaf2[B + j] = mb;
    leaf2[A + 2 * B + j] = m;
    leaf3[j] = mb;
    leaf3[A + B + j] = m;
    leaf4[B + j] = m;
    leaf4[A + 2 * B + j] = mb;
  }
  LQCD_UNROLL
  for (int j = 0; j < B; ++j) {
    leaf1[A + j] = n;
    leaf1[2 * A + B + j] = nb;
    leaf2[j] = n;
    leaf2[A + B + j] = nb;
    leaf3[A + j] = nb;
    leaf3[2 * A + B + j] = n;
    leaf4[j] = nb;
    leaf4[A + B + j] = n;
  }
  SU3<Real> q = U.path(x, leaf1);
  q += U.path(x, leaf2);
  q += U.path(x, leaf3);
  q += U.path(x, leaf4);
  return q;
}

// The O(a^2)-improved F_{mu nu}(x) = 5/3 F^{1x1} - 1/3 (F^{1x2} + F^{2x1}) (header): the traceless
// anti-Hermitian part is linear, so it is taken once, of (5/3)(1/8) Q^{1x1} - (1/3)(1/16) (Q^{1x2} +
// Q^{2x1}). Reads links up to two sites from x (halo depth 2 on a decomposed lattice).
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> improved_field_strength(const GaugeView<Real>& U, const int x[4], int mu, int nu) {
  SU3<Real> q = clover_leaves(U, x, mu, nu);
  q *= Real(5.0 / 24.0);
  SU3<Real> r = rectangle_leaves<2, 1>(U, x, mu, nu);
  r += rectangle_leaves<1, 2>(U, x, mu, nu);
  r *= Real(1.0 / 48.0);
  q -= r;
  return traceless_antihermitian_part(q, Real(1));
}

}  // namespace lqcd
