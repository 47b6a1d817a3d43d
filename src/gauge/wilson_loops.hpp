#pragma once
// Planar, on-axis Wilson loops W(R, T) = <Re tr W_{R x T}>/3 with one side along a spatial axis (R links,
// averaged over the three) and one along time (T links), averaged over the lattice; W(1, 1) is the
// temporal plaquette. For the static potential a V(R) = -lim log(W(R, T+1) / W(R, T)) (usually after
// smearing the spatial links: lqcd measure --ape-steps). On one process a kernel builds each loop from
// the links; on a decomposed lattice (--grid) path fields are moved one site per step (halo depth 1;
// wilson_loops.cpp), which `by_paths` also selects on one process (the tests compare the two).

#include <array>
#include <vector>

#include "fields/gauge_field.hpp"

namespace lqcd {

// w[R-1][T-1] for R <= r_max, T <= t_max (each at most 8 and at most the global extent). Throws
// lqcd::Error for extents out of range. Global (all processes).
std::vector<std::vector<double>> wilson_loops(const GaugeField<double>& U, int r_max, int t_max, bool by_paths = false);

// Off-axis Wilson loops W(r, T), T = 1..t_max, for a spatial separation r = (a, b, c): the spatial sides
// follow a staircase from x to x + r, the lattice path closest to the straight line (at each step the
// axis furthest behind its share), and W is averaged over the loop's images under the 48 rotations and
// reflections of the spatial lattice (every distinct image path once; the images of one path differ
// where the field is not smooth, and their average is what restores the cubic symmetry of the
// potential, as in S. Necco, R. Sommer, Nucl. Phys. B 622 (2002) 328 and G. Bali, K. Schilling, Phys.
// Rev. D 47 (1993) 661). r = (R, 0, 0) gives wilson_loops' W(R, T). Path fields moved one site per step
// (any process grid). Each |r_i| at most 8 and the smallest spatial extent, not all zero; T as above.
std::vector<double> wilson_loops_along(const GaugeField<double>& U, std::array<int, 3> r, int t_max);

// The off-axis separations r = (a, b, c), a >= b >= c >= 0, b >= 1 (the on-axis ones are wilson_loops'),
// with |r| <= r_max and a <= r_max, in increasing |r| (ties: lexicographic).
std::vector<std::array<int, 3>> off_axis_separations(double r_max);

// The staircase from 0 to r as signed steps: +-(axis + 1), axis 0..2 (for the tests and the docs).
std::vector<int> staircase_path(std::array<int, 3> r);

}  // namespace lqcd
