#pragma once
// The gauge field's side of open boundary conditions in time (gauge/time_boundary.hpp): the frozen links
// set to zero, and the plaquettes that are in the lattice, with their weights.

#include "fields/gauge_field.hpp"
#include "gauge/time_boundary.hpp"

namespace lqcd {

// U_t(x) = 0 at x0 = T, where b is open (nothing otherwise). After every start, read and reunitarisation.
void apply_time_boundary(GaugeField<double>& U, const TimeBoundary& b);

// Whether every time-like link at the last time slice x0 = N0 - 1 is zero: a configuration of an open
// lattice (openQCD's files and lqcd's keep those links zero). Global: the same answer on every process.
bool time_links_vanish_at_last_slice(const GaugeField<double>& U);

struct OpenBoundaryPlaquettes {
  double weighted_deficit = 0;  // sum over the plaquettes in the lattice of w(p) (1 - Re tr P / 3)
  double plaquette = 0;         // their mean Re tr P / 3 (unweighted)
  double count = 0;             // their number: (6 N0 - 3) N1 N2 N3 where open, 6 V otherwise
};
OpenBoundaryPlaquettes open_boundary_plaquettes(const GaugeField<double>& U, const TimeBoundary& b);

}  // namespace lqcd
