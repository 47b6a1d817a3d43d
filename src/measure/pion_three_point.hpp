#pragma once
// Pion three-point functions by a sequential source through the sink (issue 49), for a current on the
// u quark of pi+ = dbar gamma_5 u, degenerate u and d:
//   C3(tau, q) = sum_{x, x_t = t0 + t_s} sum_{y, y_t = t0 + tau} e^{-i q.(y - x0)} <pi(x) J(y) pi^dag(x0)>
//             = -sum_y e^{-i q.(y - x0)} tr[B(y)^dag gamma_5 J S(y)],
// S = S(., x0) the point propagator, B(y) = sum_x S(y, x) gamma_5 S(x, x0) over the sink slice (zero
// sink momentum): the sequential propagator, 12 solves with the sources gamma_5 S(x, x0) on that slice.
// (From Wick's theorem and S(x, y)^dag = gamma_5 S(y, x) gamma_5; tests/measure/pion_three_point_test.cpp
// checks it against the contraction of point-to-all propagators from every site of the current's slice.)
// Currents:
//   local   J = ubar(y) G u(y), any spin matrix G;
//   the conserved (point-split) temporal vector current of the Wilson action in hopping form,
//           J(y) = kappa [ubar(y) (1 - gamma_t) U_t(y) u(y + t) - ubar(y + t) (1 + gamma_t) U_t(y)^dag u(y)],
//           sitting on the link y -> y + t (the boundary phase on the link T-1 -> 0 included); its
//           charge is exact: C3(tau_in) - C3(tau_out) = C2(t_s) on every configuration, for tau_in
//           between source and sink and tau_out outside (the lattice Ward identity).
// S may come from a smeared source; its sink must be a point (the current sits at every site). The
// conserved current needs the whole time extent on each process (grid[3] = 1).

#include <array>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "fields/gauge_field.hpp"
#include "measure/propagator.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

// B for the sink on time slice t0 + t_sink (mod T).
PointPropagator pion_sequential_propagator(const DiracOperators& ops, bool even_odd, const PointPropagator& S,
                                           int t_sink, const PropagatorOptions& options);

// C3(tau, q) for tau = 0..T-1 relative to the source slice, one entry per momentum transfer q (units of
// 2 pi / L), the local current ubar G u.
std::vector<std::vector<Complex<double>>> pion_three_point_local(const PointPropagator& S, const PointPropagator& B,
                                                                 const SpinMatrix& G,
                                                                 const std::vector<std::array<int, 3>>& momenta);

// The same for the conserved temporal vector current on the link tau -> tau + 1 (kappa and the time
// boundary phase of the quark's operator).
std::vector<std::vector<Complex<double>>> pion_three_point_conserved(const PointPropagator& S, const PointPropagator& B,
                                                                     const GaugeField<double>& U, double kappa,
                                                                     Complex<double> time_boundary_phase,
                                                                     const std::vector<std::array<int, 3>>& momenta);

}  // namespace lqcd
