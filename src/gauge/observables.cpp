#include "gauge/observables.hpp"

#include "core/dispatch.hpp"

namespace lqcd {

GaugeObservables gauge_observables(const GaugeField<double>& U) {
  const Geometry& g = U.geometry();
  const double v = double(g.volume());
  const Sums<4> s = reduce<Sums<4>>(U.location(), g.volume(), GaugeObservablesKernel{U.view()});
  const std::int64_t spatial = g.volume() / g.local[kTimeDir];
  const Sums<2> p = reduce<Sums<2>>(U.location(), spatial, PolyakovLoopKernel{U.view()});
  GaugeObservables o;
  o.plaquette_spatial = s[0] / (3 * v);
  o.plaquette_temporal = s[1] / (3 * v);
  o.plaquette = (s[0] + s[1]) / (6 * v);
  o.rectangle = s[2] / (12 * v);
  o.link_trace = s[3] / (4 * v);
  o.polyakov_loop = Complex<double>(p[0] / double(spatial), p[1] / double(spatial));
  return o;
}

double plaquette(const GaugeField<double>& U) { return gauge_observables(U).plaquette; }

double gauge_action_value(const GaugeField<double>& U, const GaugeAction& action) {
  const GaugeObservables o = gauge_observables(U);
  const double v = double(U.geometry().volume());
  return action.beta * (action.c0() * 6 * v * (1 - o.plaquette) + action.c1() * 12 * v * (1 - o.rectangle));
}

UnitarityStats unitarity(const GaugeField<double>& U, double tolerance) {
  return reduce<UnitarityStats>(U.location(), U.geometry().volume(), UnitarityKernel{U.view(), tolerance});
}

}  // namespace lqcd
