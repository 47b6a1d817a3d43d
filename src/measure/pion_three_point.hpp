#pragma once
// Pion three-point functions by a sequential source through the sink (issue 49), for a current on the
// u quark of pi+ = dbar gamma_5 u, degenerate u and d:
//   C3(tau, q) = sum_{x, x_t = t0 + t_s} sum_{y, y_t = t0 + tau} e^{-i q.(y - x0)} <pi(x) ubar X u(y) pi^dag(x0)>,
// the pion's two-point function (measure/meson_correlator.hpp, C2 = sum |S|^2 > 0) with its u line's
// S(x, x0) replaced by S(x, y) X S(y, x0). With S = S(., x0) the point propagator and the sequential
// propagator B(y) = sum_x S(y, x) gamma_5 S(x, x0) over the sink slice (zero sink momentum; 12 solves
// with the sources gamma_5 S(x, x0) on that slice), gamma_5-hermiticity gives
//   C3 = sum_y e^{-i q.(y - x0)} sum_j <B_j(y), gamma_5 X S_j(y)>,
// which measure/current_insertion.hpp evaluates for local currents and for the conserved vector current
// (whose charge is exactly 1: C3(tau_in) - C3(tau_out) = C2(t_s) for tau_in between source and sink and
// tau_out outside, the lattice Ward identity). tests/measure/pion_three_point_test.cpp checks it against
// the contraction of point-to-all propagators from every site of the current's slice.
// S may come from a smeared source; its sink must be a point (the current sits at every site).

#include <array>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "measure/propagator.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

// B for the sink on time slice t0 + t_sink (mod T).
PointPropagator pion_sequential_propagator(const DiracOperators& ops, bool even_odd, const PointPropagator& S,
                                           int t_sink, const PropagatorOptions& options);

}  // namespace lqcd
