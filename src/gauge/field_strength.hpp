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

// F_{mu nu}(x) = traceless part of (1/8) (Q_{mu nu} - Q_{mu nu}^dag): anti-Hermitian, traceless.
template <typename Real>
LQCD_HOST_DEVICE SU3<Real> clover_field_strength(const GaugeView<Real>& U, const int x[4], int mu, int nu) {
  const SU3<Real> q = clover_leaves(U, x, mu, nu);
  SU3<Real> f;
  LQCD_UNROLL
  for (int i = 0; i < 3; ++i)
    LQCD_UNROLL
    for (int j = 0; j < 3; ++j) f.m[i][j] = (q.m[i][j] - conj(q.m[j][i])) * Real(0.125);
  // The diagonal is purely imaginary; remove its mean (1/3) tr F.
  const Real t = (f.m[0][0].im + f.m[1][1].im + f.m[2][2].im) / Real(3);
  LQCD_UNROLL
  for (int i = 0; i < 3; ++i) f.m[i][i] = Complex<Real>(0, f.m[i][i].im - t);
  return f;
}

}  // namespace lqcd
