#include "hmc/gauge_monomial.hpp"

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "gauge/observables.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

std::string GaugeMonomial::name() const { return fmt::format("gauge ({}, beta {})", action_.name(), action_.beta); }

double GaugeMonomial::action(const GaugeField<double>& U) { return gauge_action_value(U, action_); }

void GaugeMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const std::int64_t n = 4 * U.geometry().volume();  // a thread per link (md_kernels.hpp)
  if (action_.has_rectangles())
    for_each(U.location(), n, GaugeForceKernel<true>{U.view(), F.view(), action_.beta, action_.c0(), action_.c1()});
  else
    for_each(U.location(), n, GaugeForceKernel<false>{U.view(), F.view(), action_.beta, 1.0, 0.0});
}

}  // namespace lqcd
