#pragma once
// Stout smearing (C. Morningstar, M. Peardon, Phys. Rev. D 69 (2004) 054501, eqs. 1-3): each step
// replaces every link by
//   U'_mu(x) = exp(i Q_mu(x)) U_mu(x),
//   Q = (i/2) (Omega^dag - Omega) - (i/6) tr(Omega^dag - Omega),   Omega_mu(x) = C_mu(x) U_mu(x)^dag,
//   C_mu(x) = rho sum_{nu != mu} [U_nu(x) U_mu(x+nu) U_nu(x+mu)^dag + U_nu(x-nu)^dag U_mu(x-nu) U_nu(x-nu+mu)],
// all links of a step computed from the previous step's field. Q is Hermitian and traceless, so U'
// is in SU(3) without a projection, and U' is an analytic function of U: the HMC's force can follow
// the smearing back by the chain rule (the paper's eqs. 74-75), which APE smearing's projection does
// not allow. With spatial_only, only spatial links are smeared, with the spatial staples (nu < 3).

#include <string>

#include "fields/gauge_field.hpp"

namespace lqcd {

struct StoutParams {
  double rho = 0.1;
  int steps = 0;
  bool spatial_only = false;
};

// Throws lqcd::Error naming `prefix`.rho (not finite or negative) or `prefix`.steps (negative);
// stout_smear checks with the prefix "stout".
void check_stout_params(const StoutParams& params, const std::string& prefix);

// The smeared field, a new field at U's location (U is unchanged). 0 steps: a copy of U.
GaugeField<double> stout_smear(const GaugeField<double>& U, const StoutParams& params);

}  // namespace lqcd
