#pragma once
// APE smearing of a gauge field (M. Albanese et al., Phys. Lett. B 192 (1987) 163), for smeared
// sources and sinks: each iteration replaces every link by
//   U'_mu(x) = P_SU(3)[ (1 - alpha) U_mu(x) + (alpha / n) sum_{nu != mu, +-} U_nu(x) U_mu(x+nu) U_nu(x+mu)^dag ]
// (the sum over both orientations of the staples), n the number of staples, all links of one
// iteration computed from the previous iteration's field. P_SU(3)[X] is the SU(3) matrix that
// maximises Re tr(P^dag X) (Cabibbo-Marinari subgroup maximisation, see project_su3 in
// ape_smearing_kernels.hpp). With spatial_only (the usual choice for smearing quark sources), only
// spatial links are smeared, with the n = 4 spatial staples, and temporal links are left unchanged;
// otherwise all links with n = 6.

#include "fields/gauge_field.hpp"

namespace lqcd {

struct ApeParams {
  double alpha = 0.5;
  int iterations = 0;
  bool spatial_only = true;
};

// Throws lqcd::Error naming source.ape_alpha (alpha outside [0, 1] or not finite) or
// source.ape_iterations (negative).
void check_ape_params(const ApeParams& params);

// The smeared field, a new field at U's location (U is unchanged). 0 iterations: a copy of U.
GaugeField<double> ape_smear(const GaugeField<double>& U, const ApeParams& params);

}  // namespace lqcd
