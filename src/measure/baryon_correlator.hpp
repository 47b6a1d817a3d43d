#pragma once
// Baryon two-point functions from point-to-all propagators (issue 49), for interpolators with two quarks
// of one flavour and one of another:
//   O_alpha(x) = eps_abc (q_a^T(x) G r_b(x)) (G' q_c(x))_alpha,
//   Obar_beta(0) = eps_a'b'c' (rbar_b'(0) Ghat qbar_a'^T(0)) (qbar_c'(0) Ghat')_beta,
// Ghat = gamma_t G^dag gamma_t^T, Ghat' = gamma_t G'^dag gamma_t (Obar = O^dag gamma_t). The proton is
// q = u, r = d with G = C gamma_5, G' = 1 (C = gamma_y gamma_t: C gamma_mu C^-1 = -gamma_mu^T in the
// DeGrand-Rossi basis); Sigma+ (uus) and Xi0 (ssu) are the same shape with other flavours. With Q and R
// the propagators of q and r (S^{aa'}_{rho rho'}(x) = <q_{a rho}(x) qbar_{a' rho'}(0)>), Wick's theorem
// gives
//   G_{alpha beta}(x) = eps_abc eps_a'b'c' G_{rho sigma} G'_{alpha gamma} Ghat_{sigma' rho'} Ghat'_{gamma' beta}
//                       R^{bb'}_{sigma sigma'} [ Q^{aa'}_{rho rho'} Q^{cc'}_{gamma gamma'}
//                                               - Q^{ac'}_{rho gamma'} Q^{ca'}_{gamma rho'} ],
// the second term's sign from exchanging the two antiquarks of flavour q. The correlator is
//   C(t, p) = sum_{x, x_t = t0 + t} e^{-i p.(x - x0)} tr[ P G(x) ],
// P the parity projector (1 +- gamma_t)/2 (P+ the nucleon, P- its parity partner for t < T/2) or any
// spin matrix. A sink time slice before the source's (x_t < t0) is reached across the time boundary: its
// three quarks there carry the boundary phase e^{i theta_t} once each (psi(x + T) = e^{i theta_t} psi(x)),
// so C(t) at t = x_t - t0 + T is the sum there times e^{3 i theta_t} (-1 antiperiodic), as Chroma's
// hadron spectrum reports it: C(t) is then that of a source at t = 0 on every slice. (A meson's quark
// and antiquark cancel the phase.) On a decomposed lattice collective, summed over the process grid as
// the mesons are.

#include <array>
#include <vector>

#include "measure/meson_correlator.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

// C = gamma_y gamma_t (QDP++ Gamma(10)): C gamma_mu C^-1 = -gamma_mu^T, C^-1 = C^dag = -C.
SpinMatrix charge_conjugation();
// (1 + sign gamma_t) / 2.
SpinMatrix parity_projector(int sign);

struct BaryonInterpolator {
  SpinMatrix diquark;  // G in (q^T G r)
  SpinMatrix outer;    // G' on the third quark
  // The nucleon's standard choice: G = C gamma_5, G' = 1.
  static BaryonInterpolator nucleon();
};

// C(t, p) for t = 0..T-1 relative to the source time slice, one entry per momentum (units of 2 pi / L):
// Q the propagator of the doubly present flavour, R the other's (the same field for degenerate quarks);
// time_boundary_phase the quarks' e^{i theta_t} (-1: antiperiodic).
std::vector<std::vector<Complex<double>>> baryon_correlator(const PointPropagator& Q, const PointPropagator& R,
                                                            const BaryonInterpolator& op, const SpinMatrix& projector,
                                                            const std::vector<std::array<int, 3>>& momenta,
                                                            Complex<double> time_boundary_phase);

}  // namespace lqcd
