#pragma once
// The baryon interpolators lqcd measures (issue 49), in the diquark-quark form of
// measure/baryon_correlator.hpp, and their projections. Conventions (docs/conventions.md):
// DeGrand-Rossi gamma basis; C = gamma_y gamma_t (C gamma_mu C^-1 = -gamma_mu^T, QDP++ Gamma(10));
// P+- = (1 +- gamma_t)/2 selects the positive (negative) parity state propagating forward in time.
//   octet (spin 1/2), the C gamma_5 diquark:
//     proton   eps (u^T C g5 d) u          neutron  eps (d^T C g5 u) d
//     Sigma+   eps (u^T C g5 s) u          Xi0      eps (s^T C g5 u) s
//     Lambda   eps [2 (u^T C g5 d) s + (u^T C g5 s) d - (d^T C g5 s) u] / sqrt(6)
//       (D. B. Leinweber, Phys. Rev. D 43 (1991) 1659; the flavour-octet Lambda, which with three
//       degenerate quarks has the nucleon's correlator: SU(3) flavour symmetry)
//   decuplet (spin 3/2, components k = x, y, z), the C gamma_k diquark:
//     Delta++  eps (u^T C g_k u) u         Omega-   eps (s^T C g_k s) s
// The spin-3/2 projection at rest (P^{3/2}_{kl} = delta_kl - gamma_k gamma_l / 3; e.g. D. B. Leinweber,
// W. Melnitchouk et al., Phys. Rev. D 64 (2001) 094507):
//   C(t) = (1/3) sum_kl tr[P+- P^{3/2}_{kl} G^{lk}(t)],
// used at every momentum (the rest-frame projector; at p != 0 it no longer removes all of spin 1/2).

#include <string>
#include <vector>

#include "measure/baryon_correlator.hpp"

namespace lqcd {

// C = gamma_y gamma_t (QDP++ Gamma(10)): C gamma_mu C^-1 = -gamma_mu^T, C^-1 = C^dag = -C.
SpinMatrix charge_conjugation();
// (1 + sign gamma_t) / 2.
SpinMatrix parity_projector(int sign);
// (1 + gamma_t) / 2 gamma_5 gamma_k (k = 0, 1, 2 for x, y, z): the positive-parity state polarised along
// k, the projection of the axial charge's three-point function. With the current qbar gamma_k gamma_5 q the
// ratio C3 / C2_unpolarised (C2 with parity_projector(+1)) is real and tends to +g_A of that flavour times
// the current's normalisation: on heavy free quarks the quark model's g_A^u = 4/3, g_A^d = -1/3
// (tests/app/spectrum_three_point_test.cpp). Papers in other gamma conventions write it with a factor i
// (e.g. (1 + gamma_4)/2 i gamma_5 gamma_3).
SpinMatrix polarised_projector(int k);

// One component, one term: eps (q1^T G q2) (G' q3).
BaryonInterpolator spin_half_interpolator(std::array<Quark, 3> quarks, const SpinMatrix& diquark, const SpinMatrix& outer);
BaryonInterpolator proton();
BaryonInterpolator neutron();
BaryonInterpolator sigma_plus();
BaryonInterpolator xi_zero();
BaryonInterpolator lambda_octet();
BaryonInterpolator delta_plus_plus();
BaryonInterpolator omega_minus();

// {{P}} for one component.
BaryonProjection spin_half_projection(const SpinMatrix& P);
// W[l][k] = P P^{3/2}_{kl} / 3 for the three components.
BaryonProjection spin_three_halves_projection(const SpinMatrix& P);

// The baryons of lqcd spectrum, in output order: name (the dataset's stem), whether it has a strange
// quark, whether it is spin 3/2, and its interpolator.
struct BaryonChannel {
  std::string name;
  bool strange;
  bool spin_three_halves;
  BaryonInterpolator (*interpolator)();
  std::string formula;
};
const std::vector<BaryonChannel>& baryon_channels();

}  // namespace lqcd
