#pragma once
// HYP smearing (A. Hasenfratz, F. Knechtli, Phys. Rev. D 64 (2001) 034504, eqs. 2-4): the new link
// V_mu(x) is built in three APE-like levels from links of the hypercubes attached to U_mu(x) only,
//   level 1: Vbar_{mu;nu rho}(x) = P[(1 - a3) U_mu(x) + a3/2 sum_{+-eta} U_eta U_mu U_eta^dag],
//            eta the one direction outside {mu, nu, rho};
//   level 2: Vtilde_{mu;nu}(x) = P[(1 - a2) U_mu(x) + a2/4 sum_{+-rho, rho != mu, nu}
//            Vbar_{rho;nu mu} Vbar_{mu;rho nu} Vbar_{rho;nu mu}^dag];
//   level 3: V_mu(x) = P[(1 - a1) U_mu(x) + a1/6 sum_{+-nu != mu} Vtilde_{nu;mu} Vtilde_{mu;nu} Vtilde_{nu;mu}^dag],
// P the SU(3) projection of APE smearing (ape_smearing_kernels.hpp). (a1, a2, a3) = (0.75, 0.6, 0.3) is
// the usual choice; all zero gives back U. Four-dimensional (all links smeared).

#include "fields/gauge_field.hpp"

namespace lqcd {

struct HypParams {
  double alpha1 = 0.75;
  double alpha2 = 0.6;
  double alpha3 = 0.3;
  int steps = 1;
};

// Throws lqcd::Error naming hyp.alpha1/2/3 (outside [0, 1]) or hyp.steps (negative).
void check_hyp_params(const HypParams& p);

// The smeared field, a new field at U's location (U unchanged; its halo is exchanged). 0 steps: a copy.
GaugeField<double> hyp_smear(const GaugeField<double>& U, const HypParams& p);

}  // namespace lqcd
