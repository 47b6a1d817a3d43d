#pragma once
// Planar, on-axis Wilson loops W(R, T) = <Re tr W_{R x T}>/3 with one side along a spatial axis (R links,
// averaged over the three) and one along time (T links), averaged over the lattice; W(1, 1) is the
// temporal plaquette. For the static potential a V(R) = -lim log(W(R, T+1) / W(R, T)) (usually after
// smearing the spatial links: lqcd measure --ape-steps). On one process a kernel builds each loop from
// the links; on a decomposed lattice (--grid) path fields are moved one site per step (halo depth 1;
// wilson_loops.cpp), which `by_paths` also selects on one process (the tests compare the two).

#include <vector>

#include "fields/gauge_field.hpp"

namespace lqcd {

// w[R-1][T-1] for R <= r_max, T <= t_max (each at most 8 and at most the global extent). Throws
// lqcd::Error for extents out of range. Global (all processes).
std::vector<std::vector<double>> wilson_loops(const GaugeField<double>& U, int r_max, int t_max, bool by_paths = false);

}  // namespace lqcd
