#include "gauge/stout_force.hpp"

#include <utility>

#include "core/dispatch.hpp"
#include "gauge/stout_force_kernels.hpp"
#include "gauge/stout_smearing_kernels.hpp"

namespace lqcd {

StoutSmearedLinks::StoutSmearedLinks(const GaugeField<double>& U, const StoutParams& params) : params_(params) {
  check_stout_params(params, "stout");
  levels_.reserve(std::size_t(params.steps) + 1);
  levels_.push_back(U.clone(U.location()));
  for (int k = 0; k < params.steps; ++k) {
    GaugeField<double> next(U.geometry(), U.location());
    for_each(U.location(), U.geometry().volume(),
             StoutSmearKernel{levels_.back().view(), next.view(), params.rho, params.spatial_only ? 1 : 0});
    next.exchange_halo();  // the next step's staples read neighbours
    levels_.push_back(std::move(next));
  }
}

GaugeField<double> StoutSmearedLinks::chain_rule(const GaugeField<double>& FV) const {
  const Location loc = FV.location();
  if (loc != levels_.front().location()) fail("internal: stout chain rule: the force and the links live apart");
  GaugeField<double> F = FV.clone(loc);
  if (params_.steps == 0) return F;
  const Geometry& g = FV.geometry();
  const std::int64_t links = 4 * g.volume();  // a thread per link
  const int spatial = params_.spatial_only ? 1 : 0;
  GaugeField<double> lambda(g, loc), next(g, loc);
  for (int k = params_.steps; k >= 1; --k) {
    const GaugeField<double>& U = levels_[std::size_t(k - 1)];
    for_each(loc, links, StoutLambdaKernel{U.view(), F.view(), lambda.view(), next.view(), params_.rho, spatial});
    // The staple terms read Lambda at x +- nu, x + mu and x + mu - nu: on several processes those
    // can be other processes' links.
    lambda.exchange_halo();
    for_each(loc, links, StoutStapleForceKernel{U.view(), lambda.view(), next.view(), params_.rho, spatial});
    std::swap(F, next);
  }
  return F;
}

}  // namespace lqcd
