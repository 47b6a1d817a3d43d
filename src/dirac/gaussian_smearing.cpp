#include "dirac/gaussian_smearing.hpp"

#include <cmath>
#include <utility>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/gaussian_smearing_kernels.hpp"

namespace lqcd {

GaussianParams GaussianParams::from_kappa(double kappa_G, int iterations) {
  if (!std::isfinite(kappa_G)) fail("source.smearing_kappa: expected a finite number, got {}", kappa_G);
  if (1.0 + 6.0 * kappa_G == 0.0)
    fail("source.smearing_kappa = {}: [(1 + kappa_G H)/(1 + 6 kappa_G)]^N divides by 1 + 6 kappa_G = 0; give the "
         "width form (source.smearing_width) instead",
         kappa_G);
  GaussianParams p{kappa_G / (1.0 + 6.0 * kappa_G), iterations};
  check_gaussian_params(p);
  return p;
}

GaussianParams GaussianParams::from_width(double width, int iterations) {
  if (!(std::isfinite(width) && width >= 0))
    fail("source.smearing_width: expected a non-negative width in lattice units, got {}", width);
  if (iterations < 1)
    fail("source.smearing_iterations: the width form (1 + w^2/(4N) Laplacian)^N needs N >= 1 steps, got {}",
         iterations);
  GaussianParams p{width * width / (4.0 * iterations), iterations};
  check_gaussian_params(p);
  return p;
}

void check_gaussian_params(const GaussianParams& params) {
  if (!std::isfinite(params.alpha))
    fail("source.smearing_kappa: the smearing step's Laplacian coefficient must be finite, got {}", params.alpha);
  if (params.iterations < 0)
    fail("source.smearing_iterations: expected a non-negative number of iterations, got {}", params.iterations);
}

void gaussian_smear(SpinorField<double>& psi, const GaugeField<double>& U_smeared, const GaussianParams& params) {
  check_gaussian_params(params);
  if (psi.subset() != Subset::Full) fail("gaussian_smear: the field to smear must be a full-lattice field");
  if (!(psi.geometry() == U_smeared.geometry()))
    fail("gaussian_smear: the spinor field ({}) and the gauge field ({}) have different lattices",
         dims_string(psi.geometry().local), dims_string(U_smeared.geometry().local));
  if (psi.location() != U_smeared.location())
    fail("gaussian_smear: the spinor field is on the {} and the gauge field on the {}", to_string(psi.location()),
         to_string(U_smeared.location()));
  if (params.iterations == 0) return;
  SpinorField<double> tmp = psi.like();
  for (int it = 0; it < params.iterations; ++it) {
    psi.exchange_halo();
    for_each(psi.location(), psi.sites(),
             GaussianSmearKernel{U_smeared.view(), psi.view(), tmp.view(), params.alpha, 1.0 - 6.0 * params.alpha});
    std::swap(psi, tmp);
  }
}

}  // namespace lqcd
