#pragma once
// Wuppertal (gauge-covariant Gaussian) smearing of quark sources and sinks (S. Guesken et al.,
// Phys. Lett. B 227 (1989) 266):
//   psi <- [ (1 + kappa H_s) / (1 + 6 kappa) ]^N psi,
//   (H_s psi)(x) = sum_{i=1..3} [ U_i(x) psi(x + i) + U_i(x - i)^dag psi(x - i) ],
// with kappa = kappa_G >= 0 and N iterations. H_s is the spatial hopping term (spatial directions
// only, so each time slice is smeared on its own; periodic in space, no fermion boundary phases);
// the same colour matrix acts on all four spin components. The normalisation 1 / (1 + 6 kappa) makes
// the zero-momentum free-field mode an eigenvector with eigenvalue 1; a free plane wave e^{ip.x}
// has eigenvalue [(1 + 2 kappa sum_i cos p_i) / (1 + 6 kappa)]^N. U is normally an APE-smeared
// field (gauge/ape_smearing.hpp).

#include "fields/gauge_field.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

struct GaussianParams {
  double kappa = 0.0;
  int iterations = 0;
};

// Throws lqcd::Error naming source.smearing_kappa (negative or not finite) or
// source.smearing_iterations (negative).
void check_gaussian_params(const GaussianParams& params);

// Smears the full-lattice field psi in place (it may end up owning a different buffer of the same
// shape). U_smeared and psi must share the geometry and location (lqcd::Error otherwise).
void gaussian_smear(SpinorField<double>& psi, const GaugeField<double>& U_smeared, const GaussianParams& params);

}  // namespace lqcd
