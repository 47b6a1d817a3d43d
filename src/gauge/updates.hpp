#pragma once
// Quenched updates of a gauge field: starts, Cabibbo-Marinari heatbath with Kennedy-Pendleton SU(2)
// steps, microcanonical overrelaxation, reunitarisation, random gauge transformations.
//
// A sweep updates every link once, direction by direction and checkerboard subset by subset (see
// UpdateSubset), so each launch is fully parallel. The random numbers of link U_mu(x) in sweep n are
// keyed by (seed, global x, mu, n): a run is reproducible on CPU or GPU with any thread count, and a
// run resumed at sweep n continues exactly.

#include <cstdint>

#include "fields/gauge_field.hpp"
#include "gauge/gauge_action.hpp"

namespace lqcd {

void set_unit_gauge(GaugeField<double>& U);
void set_hot_gauge(GaugeField<double>& U, std::uint64_t seed);
void reunitarize(GaugeField<double>& U);
void random_gauge_transformation(GaugeField<double>& U, std::uint64_t seed);

// Throws lqcd::Error if the lattice cannot be updated with this action (rectangle actions need
// extents that are multiples of 4 for their checkerboard subsets).
void check_update_geometry(const Geometry& geom, const GaugeAction& action);

// One heatbath step on every link; `sweep` is the update counter of the random numbers.
void heatbath_sweep(GaugeField<double>& U, const GaugeAction& action, std::uint64_t seed, std::uint32_t sweep);
// One overrelaxation step on every link (no random numbers; leaves the action unchanged).
void overrelaxation_sweep(GaugeField<double>& U, const GaugeAction& action);

}  // namespace lqcd
