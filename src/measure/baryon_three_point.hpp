#pragma once
// Baryon three-point functions by a sequential source through the sink (issue 49): the sink fixed at
// zero momentum on one time slice, with a projection W (e.g. the polarised (1 + gamma_t)/2 i gamma_5
// gamma_3 for the axial charge g_A), the current on the quark line(s) of one flavour,
//   C3(tau, q) = sum_{x, x_t = t0 + t_s} sum_{y, y_t = t0 + tau} e^{-i q.(y - x0)}
//                sum_ij tr[W_ij <O^i(x) J(y) Obar^j(x0)>]        (connected part; J = fbar X f),
// where Wick's theorem replaces, once per slot of the flavour, that slot's S(x, x0) by
// S(x, y) X S(y, x0). With K_x = baryon_sink_kernel (the two-point function's derivative by S_f(x)),
//   C3 = sum_x sum_y sum_{rc} K_x[r][c] [S(x, y) X S(y, x0)]_{rc},
// and gamma_5-hermiticity, S(x, y) = gamma_5 S(y, x)^dag gamma_5, turns the sum over x into 12 solves:
//   B_j = M^-1 eta_j,  eta_j(x) = gamma_5 K_x[., j]^*  on the sink slice,
//   C3 = sum_y sum_j <B_j(y), gamma_5 X S_j(y)>,
// which measure/current_insertion.hpp evaluates for local currents and the conserved vector current.
// tests/measure/baryon_three_point_test.cpp checks it against the two-point function made with S_f
// replaced by S_f +- T, T(x) = sum_y S(x, y) X S(y, x0) from solves with sources on the current's slice,
// and the conserved current's charges (2 for the proton's up quarks, 1 for its down quark).
// The source may be smeared (S as the two-point function's); the sink is a point.

#include <array>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "measure/baryon_correlator.hpp"
#include "measure/propagator.hpp"

namespace lqcd {

// B for the sink on time slice t0 + t_sink (mod T), the current on `flavour`'s quark lines; ops are that
// flavour's operators. `name` is for errors.
PointPropagator baryon_sequential_propagator(const DiracOperators& ops, bool even_odd, const QuarkPropagators& quarks,
                                             const BaryonInterpolator& op, const BaryonProjection& W, Quark flavour,
                                             int t_sink, Complex<double> time_boundary_phase,
                                             const PropagatorOptions& options, const char* name);

}  // namespace lqcd
