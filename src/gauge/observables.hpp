#pragma once
// Gauge observables, normalised to 1 for the unit field (DESIGN.md):
//   plaquette          <Re tr P/3> over the 6V plaquettes (spatial: the 3V xy, xz, yz ones; temporal: xt, yt, zt)
//   rectangle          <Re tr R/3> over the 12V oriented 1x2 rectangles
//   polyakov_loop      <tr prod_t U_t(x, t) / 3> over the spatial sites (complex)
//   link_trace         <Re tr U/3> over the 4V links

#include "fields/gauge_field.hpp"
#include "gauge/gauge_action.hpp"
#include "gauge/observables_kernels.hpp"

namespace lqcd {

struct GaugeObservables {
  double plaquette = 0;
  double plaquette_spatial = 0;
  double plaquette_temporal = 0;
  double rectangle = 0;
  double link_trace = 0;
  Complex<double> polyakov_loop{};
};

GaugeObservables gauge_observables(const GaugeField<double>& U);
double plaquette(const GaugeField<double>& U);

// S = beta [c0 sum_plaq (1 - Re tr P/3) + c1 sum_rect (1 - Re tr R/3)] for the whole lattice.
double gauge_action_value(const GaugeField<double>& U, const GaugeAction& action);

// Largest deviation of a link from SU(3) and the number of links beyond `tolerance` (or not finite).
// Open boundaries (b): the frozen links are not checked.
UnitarityStats unitarity(const GaugeField<double>& U, double tolerance, const TimeBoundary& b = {});

}  // namespace lqcd
