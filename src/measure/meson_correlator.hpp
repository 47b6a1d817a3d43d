#pragma once
// Meson two-point functions from a point-to-all propagator.
//
// The propagator S(x) of one source (12 solves, one per source spin s and colour c) is held as 12
// spinor fields (on a decomposed lattice, each rank's box of them): column s*3+c is the solution of M psi = delta_{x,x0} delta_{spin,s}
// delta_{colour,c}. For mesons O_G(x) = dbar(x) G u(x) with degenerate quarks,
//   C_{G_snk G_src}(t, p) = - sum_{x, x_t = t0 + t} e^{-i p.(x - x0)} tr[ G_snk S(x) Gbar_src gamma_5 S(x)^dag gamma_5 ],
// Gbar = gamma_t G^dag gamma_t, using S(x0, x) = gamma_5 S(x, x0)^dag gamma_5 (gamma_5-hermiticity).
// The sign makes the pion (G = gamma_5) C = sum |S|^2 > 0.

#include <array>
#include <vector>

#include "fields/spinor_field.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

struct PointPropagator {
  // The lattice and this process's box of it (Geometry::single_process: the whole lattice). On a
  // decomposed lattice every rank holds its box; the correlators below are collective and sum the
  // boxes' time slices over the process grid in rank order (comm::sum), so every rank gets the same
  // values.
  Geometry geometry;
  std::array<int, 4> source{};            // x0, global coordinates
  std::array<LexicographicSpinor, 12> column;  // column[s*3+c][x].s[s'].c[c'] = S(x)_{s'c', sc}, x in the box
                                               // (lexicographic in the box, x fastest)
  const Dims& dims() const { return geometry.global; }
  // Throws (internal error) unless every column holds this box's sites.
  void check_columns() const;
  // check_columns on both, and that `other` has this lattice, box and source (the quarks of one
  // `hadron` correlator).
  void check_pair(const PointPropagator& other, const char* hadron) const;
};

// The whole propagator in file order (the columns of the global lattice) on rank 0, for writing;
// collective; the other ranks get empty columns. Gathers every column to one rank, which is fine for
// the lattices one node's memory holds (a parallel writer would avoid it).
std::array<LexicographicSpinor, 12> gather_propagator_on_root(const PointPropagator& S);

// C(t, p) for t = 0..T-1 relative to the source time slice, complex, one entry per momentum.
// Momenta in units of 2 pi / L (spatial components).
std::vector<std::vector<Complex<double>>> meson_correlator(const PointPropagator& S, const SpinMatrix& g_snk,
                                                           const SpinMatrix& g_src,
                                                           const std::vector<std::array<int, 3>>& momenta);

// The same with two different quark propagators (e.g. twisted mass +mu and -mu):
//   C(t, p) = - sum e^{-i p.(x - x0)} tr[ G_snk S(x) Gbar_src gamma_5 S2(x)^dag gamma_5 ],
// the connected correlator of dbar G u where S is u's propagator and S2 is d's, S_d(x0, x) =
// gamma_5 S2(x, x0)^dag gamma_5. With S2 = S this is the function above.
std::vector<std::vector<Complex<double>>> meson_correlator(const PointPropagator& S, const PointPropagator& S2,
                                                           const SpinMatrix& g_snk, const SpinMatrix& g_src,
                                                           const std::vector<std::array<int, 3>>& momenta);

// sum_x |S(x)|^2 per time slice: the pion (and the twisted-mass charged pion) without gamma algebra.
std::vector<double> pion_correlator_from_norms(const PointPropagator& S);

}  // namespace lqcd
