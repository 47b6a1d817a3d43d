#include "hmc/gauge_monomial.hpp"

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "gauge/observables.hpp"
#include "gauge/time_boundary.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

std::string GaugeMonomial::name() const {
  if (action_.open())
    return fmt::format("gauge ({}, beta {}, open in time, c_G {})", action_.name(), action_.beta, action_.c_G);
  return fmt::format("gauge ({}, beta {})", action_.name(), action_.beta);
}

double GaugeMonomial::action(const GaugeField<double>& U) { return gauge_action_value(U, action_); }

void GaugeMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const std::int64_t n = 4 * U.geometry().volume();  // a thread per link (md_kernels.hpp)
  const TimeBoundary b = action_.time_boundary(U.geometry().global[kTimeDir]);
  if (action_.has_rectangles())
    for_each(U.location(), n, GaugeForceKernel<true>{U.view(), F.view(), action_.beta, action_.c0(), action_.c1(), b});
  else
    for_each(U.location(), n, GaugeForceKernel<false>{U.view(), F.view(), action_.beta, 1.0, 0.0, b});
}

}  // namespace lqcd
