#include "dirac/gaussian_smearing.hpp"

#include <cmath>
#include <utility>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/gaussian_smearing_kernels.hpp"

namespace lqcd {

void check_gaussian_params(const GaussianParams& params) {
  if (!(params.kappa >= 0.0 && std::isfinite(params.kappa)))
    fail("source.smearing_kappa: expected a finite value >= 0, got {}", params.kappa);
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
  const double norm = 1.0 / (1.0 + 6.0 * params.kappa);
  SpinorField<double> tmp = psi.like();
  for (int it = 0; it < params.iterations; ++it) {
    psi.exchange_halo();
    for_each(psi.location(), psi.sites(),
             GaussianSmearKernel{U_smeared.view(), psi.view(), tmp.view(), params.kappa, norm});
    std::swap(psi, tmp);
  }
}

}  // namespace lqcd
