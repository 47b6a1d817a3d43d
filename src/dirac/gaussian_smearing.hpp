#pragma once
// Wuppertal (gauge-covariant Gaussian) smearing of quark sources and sinks (S. Guesken et al.,
// Phys. Lett. B 227 (1989) 266), N steps of
//   psi <- (1 + alpha Delta) psi = (1 - 6 alpha) psi + alpha H_s psi,
//   (H_s psi)(x) = sum_{i=1..3} [ U_i(x) psi(x + i) + U_i(x - i)^dag psi(x - i) ],  Delta = H_s - 6,
// H_s the spatial hopping term (spatial directions only, so each time slice is smeared on its own;
// periodic in space, no fermion boundary phases); the same colour matrix acts on all four spins.
// Inputs give alpha in one of the two forms in use:
//   - hopping form [(1 + kappa_G H_s) / (1 + 6 kappa_G)]^N: alpha = kappa_G / (1 + 6 kappa_G), defined for
//     every kappa_G except -1/6 (negative kappa_G included: w = 2, N = 5 is kappa_G = -1);
//   - width form (1 + w^2/(4N) Delta)^N, as Chroma's and MILC's Gaussian smearing take it (width w in
//     lattice units, N steps; a Gaussian exp(-w^2 p^2 / 4) in momentum space as N grows): alpha = w^2/(4N).
// Both are the same operator where both apply (kappa_G = alpha / (1 - 6 alpha)). Every zero-momentum
// free-field mode is kept (eigenvalue 1); a free plane wave e^{ip.x} has eigenvalue
// [1 + alpha (2 sum_i cos p_i - 6)]^N. U is normally an APE-smeared field (gauge/ape_smearing.hpp).

#include "fields/gauge_field.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

struct GaussianParams {
  double alpha = 0.0;  // the coefficient of the Laplacian in one step
  int iterations = 0;  // N

  // Throws lqcd::Error naming source.smearing_kappa when kappa_G = -1/6 (1 + 6 kappa_G = 0) or is not
  // finite, source.smearing_iterations when N < 0.
  static GaussianParams from_kappa(double kappa_G, int iterations);
  // Throws naming source.smearing_width when w is negative or not finite, source.smearing_iterations
  // when N < 1.
  static GaussianParams from_width(double width, int iterations);
  // kappa_G of the hopping form (infinite at alpha = 1/6, where the hopping form has no kappa_G).
  double kappa() const { return alpha / (1.0 - 6.0 * alpha); }
};

// Throws lqcd::Error naming source.smearing_iterations (negative) or source.smearing_kappa (alpha not
// finite).
void check_gaussian_params(const GaussianParams& params);

// Smears the full-lattice field psi in place (it may end up owning a different buffer of the same
// shape). U_smeared and psi must share the geometry and location (lqcd::Error otherwise).
void gaussian_smear(SpinorField<double>& psi, const GaugeField<double>& U_smeared, const GaussianParams& params);

}  // namespace lqcd
