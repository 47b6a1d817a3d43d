#include "gauge/ape_smearing.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/ape_smearing_kernels.hpp"
#include "gauge/smearing_steps.hpp"

namespace lqcd {

void check_ape_params(const ApeParams& params) {
  if (!(params.alpha >= 0.0 && params.alpha <= 1.0))
    fail("source.ape_alpha: expected a value in [0, 1], got {}", params.alpha);
  if (params.iterations < 0)
    fail("source.ape_iterations: expected a non-negative number of iterations, got {}", params.iterations);
}

GaugeField<double> ape_smear(const GaugeField<double>& U, const ApeParams& params) {
  check_ape_params(params);
  return repeated_smearing(U, params.iterations, [&](const GaugeField<double>& in, GaugeField<double>& out) {
    for_each(U.location(), U.geometry().volume(),
             ApeSmearKernel{in.view(), out.view(), params.alpha, params.spatial_only ? 1 : 0});
  });
}

}  // namespace lqcd
