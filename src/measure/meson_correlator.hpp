#pragma once
// Meson two-point functions from a point-to-all propagator.
//
// The propagator S(x) of one source (12 solves, one per source spin s and colour c) is held as 12
// full-lattice spinor fields: column s*3+c is the solution of M psi = delta_{x,x0} delta_{spin,s}
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
  Dims dims{};
  std::array<int, 4> source{};            // x0
  std::array<LexicographicSpinor, 12> column;  // column[s*3+c][x].s[s'].c[c'] = S(x)_{s'c', sc}
};

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
