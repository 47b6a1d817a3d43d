#pragma once
// Effective masses of a two-point function on a lattice of T time slices. Python's lqcd.analysis calls
// these through the C interface (lqcd_effective_mass): one implementation for both.

#include <vector>

namespace lqcd {

// Cosh-aware (periodic or antiperiodic-in-time meson correlators, C(t) ~ cosh(m (t - T/2))):
// m(t) solves C(t) / C(t+1) = cosh(m (t - T/2)) / cosh(m (t + 1 - T/2)), for t = 0..T-2.
// NaN where no positive solution exists (noise, or past the middle of the lattice where the ratio
// carries no information).
std::vector<double> cosh_effective_mass(const std::vector<double>& c);
// The same for the first c.size() time slices of a correlator of time extent T (c folded about T/2,
// t = 0..T/2, or any leading part of it).
std::vector<double> cosh_effective_mass(const std::vector<double>& c, int T);

// log C(t) / C(t+1), for t = 0..T-2 (NaN where the ratio is not positive).
std::vector<double> log_effective_mass(const std::vector<double>& c);

}  // namespace lqcd
