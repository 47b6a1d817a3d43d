#include "gauge/ape_smearing.hpp"

#include <utility>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/ape_smearing_kernels.hpp"

namespace lqcd {

void check_ape_params(const ApeParams& params) {
  if (!(params.alpha >= 0.0 && params.alpha <= 1.0))
    fail("source.ape_alpha: expected a value in [0, 1], got {}", params.alpha);
  if (params.iterations < 0)
    fail("source.ape_iterations: expected a non-negative number of iterations, got {}", params.iterations);
}

GaugeField<double> ape_smear(const GaugeField<double>& U, const ApeParams& params) {
  check_ape_params(params);
  const Location loc = U.location();
  if (params.iterations == 0) return U.clone(loc);
  const std::int64_t volume = U.geometry().volume();
  auto step = [&](const GaugeField<double>& in, GaugeField<double>& out) {
    for_each(loc, volume, ApeSmearKernel{in.view(), out.view(), params.alpha, params.spatial_only ? 1 : 0});
    out.exchange_halo();
  };
  // Two buffers: the first iteration reads U itself, later ones alternate between cur and next.
  GaugeField<double> cur(U.geometry(), loc);
  step(U, cur);
  if (params.iterations > 1) {
    GaugeField<double> next(U.geometry(), loc);
    for (int it = 1; it < params.iterations; ++it) {
      step(cur, next);
      std::swap(cur, next);
    }
  }
  return cur;
}

}  // namespace lqcd
