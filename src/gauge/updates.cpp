#include "gauge/updates.hpp"

#include "core/dispatch.hpp"
#include "gauge/time_boundary.hpp"
#include "gauge/update_kernels.hpp"

namespace lqcd {

void set_unit_gauge(GaugeField<double>& U) {
  for_each(U.location(), U.geometry().volume(), UnitStartKernel{U.view()});
  U.exchange_halo();
}

void set_hot_gauge(GaugeField<double>& U, std::uint64_t seed) {
  for_each(U.location(), U.geometry().volume(), HotStartKernel{U.view(), seed});
  U.exchange_halo();
}

void reunitarize(GaugeField<double>& U) {
  for_each(U.location(), U.geometry().volume(), ReunitarizeKernel{U.view()});
  U.exchange_halo();
}

void random_gauge_transformation(GaugeField<double>& U, std::uint64_t seed) {
  for_each(U.location(), U.geometry().volume(), RandomGaugeTransformKernel{U.view(), seed});
  U.exchange_halo();
}

void check_update_geometry(const Geometry& geom, const GaugeAction& action) {
  if (!action.has_rectangles()) return;
  for (int mu = 0; mu < 4; ++mu)
    if (geom.local[mu] % 4 != 0)
      fail("lattice.dims: the {} action's heatbath needs every extent to be a multiple of 4 (got {})",
           action.name(), dims_string(geom.local));
}

namespace {

GaugeUpdateParams update_params(const GaugeAction& a, const Geometry& g) {
  return GaugeUpdateParams{a.beta, a.c0(), a.c1(), a.time_boundary(g.global[kTimeDir])};
}

// Calls f(subset) for the checkerboard subsets of every direction, in a fixed order.
template <typename F>
void for_each_subset(const GaugeAction& action, F&& f) {
  const int colours = action.has_rectangles() ? 4 : 1;
  for (int mu = 0; mu < 4; ++mu)
    for (int parity = 0; parity < 2; ++parity)
      for (int c = 0; c < colours; ++c) f(UpdateSubset{mu, parity, action.has_rectangles() ? c : -1});
}

}  // namespace

void heatbath_sweep(GaugeField<double>& U, const GaugeAction& action, std::uint64_t seed, std::uint32_t sweep) {
  check_update_geometry(U.geometry(), action);
  for_each_subset(action, [&](const UpdateSubset& sub) {
    const std::int64_t n = U.geometry().half_volume();
    if (action.has_rectangles())
      for_each(U.location(), n, HeatbathKernel<true>{U.view(), sub, update_params(action, U.geometry()), seed, sweep});
    else
      for_each(U.location(), n, HeatbathKernel<false>{U.view(), sub, update_params(action, U.geometry()), seed, sweep});
    U.exchange_halo();  // the next subset's staples read these links
  });
}

void overrelaxation_sweep(GaugeField<double>& U, const GaugeAction& action) {
  check_update_geometry(U.geometry(), action);
  for_each_subset(action, [&](const UpdateSubset& sub) {
    const std::int64_t n = U.geometry().half_volume();
    if (action.has_rectangles())
      for_each(U.location(), n, OverrelaxationKernel<true>{U.view(), sub, update_params(action, U.geometry())});
    else
      for_each(U.location(), n, OverrelaxationKernel<false>{U.view(), sub, update_params(action, U.geometry())});
    U.exchange_halo();  // the next subset's staples read these links
  });
}

}  // namespace lqcd
