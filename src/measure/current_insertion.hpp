#pragma once
// A current inserted between a sequential propagator and a point propagator: the sum that every
// fixed-sink three-point function ends in (issue 49; measure/pion_three_point.hpp,
// measure/baryon_three_point.hpp). For the quark line of the current's flavour, with S = S(., x0) its point
// propagator, the sequential propagator B (12 columns, solved from a source on the sink slice) is made so
// that the hadron's correlator with that line's S(x, x0) replaced by S(x, y) X S(y, x0), which is the
// connected three-point function <O(x) qbar(y) X q(y) Obar(x0)>, equals sum_j <B_j(y), gamma_5 X S_j(y)>
// (<a, b> = sum a^* b over spin and colour). Summed over the current's slice:
//   local      C3(tau, q) = sum_{y, y_t = t0 + tau} e^{-i q.(y - x0)} sum_j <B_j(y), gamma_5 X S_j(y)>,
//   conserved  the point-split temporal vector current of the Wilson action on the link y -> y + t,
//              V(y) = kappa [qbar(y + t) (1 + gamma_t) U_t(y)^dag q(y) - qbar(y) (1 - gamma_t) U_t(y) q(y + t)]
//              (the boundary phase on T-1 -> 0 included), whose charge counts each quark +1 and each
//              antiquark -1 exactly: by the lattice Ward identity C3 is constant on the links between source
//              and sink and constant outside, and the two differ by the charge times the two-point function.
// The conserved current needs the whole time extent on each process (grid[3] = 1).

#include <array>
#include <vector>

#include <functional>

#include "fields/gauge_field.hpp"
#include "measure/meson_correlator.hpp"
#include "measure/propagator.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

// The 12 solves B_j = M^-1 eta_j of a sequential propagator, eta_j = source(j) in this box (lexicographic,
// S's geometry), with S's lattice and source position. Plain solves: the point propagator's source
// smearing is in S already, and the sink is a point.
PointPropagator solve_sequential(const DiracOperators& ops, bool even_odd, const PointPropagator& S,
                                 const PropagatorOptions& options, const std::function<LexicographicSpinor(int)>& source);

// C3(tau, q) for tau = 0..T-1 relative to the source slice, one entry per momentum transfer q (units of
// 2 pi / L): the local current qbar G q.
std::vector<std::vector<Complex<double>>> current_insertion_local(const PointPropagator& S, const PointPropagator& B,
                                                                  const SpinMatrix& G,
                                                                  const std::vector<std::array<int, 3>>& momenta);

// The same for the conserved temporal vector current V on the link tau -> tau + 1 (kappa and the time
// boundary phase of the quark's operator).
std::vector<std::vector<Complex<double>>> current_insertion_conserved(const PointPropagator& S, const PointPropagator& B,
                                                                      const GaugeField<double>& U, double kappa,
                                                                      Complex<double> time_boundary_phase,
                                                                      const std::vector<std::array<int, 3>>& momenta);

}  // namespace lqcd
