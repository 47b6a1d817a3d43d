#include "gauge/stout_smearing.hpp"

#include <cmath>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/smearing_steps.hpp"
#include "gauge/stout_smearing_kernels.hpp"

namespace lqcd {

void check_stout_params(const StoutParams& params, const std::string& prefix) {
  if (!(params.rho >= 0.0) || !std::isfinite(params.rho))
    fail("{}.rho: expected a finite non-negative number, got {}", prefix, params.rho);
  if (params.steps < 0) fail("{}.steps: expected a non-negative number of steps, got {}", prefix, params.steps);
}

GaugeField<double> stout_smear(const GaugeField<double>& U, const StoutParams& params) {
  check_stout_params(params, "stout");
  return repeated_smearing(U, params.steps, [&](const GaugeField<double>& in, GaugeField<double>& out) {
    for_each(U.location(), U.geometry().volume(),
             StoutSmearKernel{in.view(), out.view(), params.rho, params.spatial_only ? 1 : 0});
  });
}

}  // namespace lqcd
