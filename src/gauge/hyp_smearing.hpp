#pragma once
// HYP smearing (A. Hasenfratz, F. Knechtli, Phys. Rev. D 64 (2001) 034504, eqs. 2-4): the new link
// V_mu(x) is built in three APE-like levels from links of the hypercubes attached to U_mu(x) only,
//   level 1: Vbar_{mu;nu rho}(x) = P[(1 - a3) U_mu(x) + a3/2 sum_{+-eta} U_eta U_mu U_eta^dag],
//            eta the one direction outside {mu, nu, rho};
//   level 2: Vtilde_{mu;nu}(x) = P[(1 - a2) U_mu(x) + a2/4 sum_{+-rho, rho != mu, nu}
//            Vbar_{rho;nu mu} Vbar_{mu;rho nu} Vbar_{rho;nu mu}^dag];
//   level 3: V_mu(x) = P[(1 - a1) U_mu(x) + a1/6 sum_{+-nu != mu} Vtilde_{nu;mu} Vtilde_{mu;nu} Vtilde_{nu;mu}^dag],
// P the SU(3) projection of APE smearing (ape_smearing_kernels.hpp). (a1, a2, a3) = (0.75, 0.6, 0.3) is
// the usual choice; all zero gives back U. Four-dimensional (all links smeared), or spatial (3D HYP):
// the time links kept and the spatial links smeared within the cubes of their time slice, in two levels,
//   Vtilde_{i;j}(x) = P[(1 - a2) U_i(x) + a2/2 sum_{+-k} U_k U_i U_k^dag],  k the spatial direction
//                     other than i, j;
//   V_i(x) = P[(1 - a1) U_i(x) + a1/4 sum_{+-j != i} Vtilde_{j;i} Vtilde_{i;j} Vtilde_{j;i}^dag]
// (a3 unused) — the spatial links of Wilson loops (static potential) and of smeared sources, where the
// transfer matrix must stay untouched.

#include "fields/gauge_field.hpp"

namespace lqcd {

struct HypParams {
  double alpha1 = 0.75;
  double alpha2 = 0.6;
  double alpha3 = 0.3;
  int steps = 1;
  bool spatial = false;  // 3D HYP: spatial links within their time slice, time links unchanged
};

// Throws lqcd::Error naming hyp.alpha1/2/3 (outside [0, 1]) or hyp.steps (negative).
void check_hyp_params(const HypParams& p);

// The smeared field, a new field at U's location (U unchanged; its halo is exchanged). 0 steps: a copy.
GaugeField<double> hyp_smear(const GaugeField<double>& U, const HypParams& p);

}  // namespace lqcd
