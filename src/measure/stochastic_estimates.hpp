#pragma once
// Estimates from noise sources (measure/stochastic_source.hpp, issue 49), each from one noise vector and
// all its diluted pieces eta_k with psi_k = M^-1 eta_k (M the quark's operator in hopping form, as the
// point propagators): averages over noise vectors, and their errors, are the caller's.
//   disconnected loops    L_G(t, p) = sum_{x, x_t = t} e^{-i p.x} tr[G M^-1(x, x)]
//                                  ~ sum_k sum_{x, x_t = t} e^{-i p.x} eta_k(x)^dag G psi_k(x),
//                         t the absolute time slice, p = 2 pi n / L, x measured from the origin;
//   the one-end pion      C(t) = (1/V_s) sum_{y_t = t0} sum_{x, x_t = t0 + t} tr[S(x, y)^dag S(x, y)]
//                              ~ (1/V_s) sum_k sum_{x, x_t = t0 + t} |psi_k(x)|^2,
//                         eta on time slice t0 only: the point-source pion (pion_correlator_from_norms)
//                         averaged over every source site of the slice (C. McNeile and C. Michael,
//                         Phys. Rev. D 73 (2006) 074506; the "one-end trick").
// With a hopping-parameter expansion (measure/hopping_expansion.hpp, built on ops.full) the loops take its
// first terms exactly and the noise estimates the remainder only: the same expectation, a smaller variance.
// Collective on a decomposed lattice, as the point-source correlators.

#include <array>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "measure/hopping_expansion.hpp"
#include "measure/propagator.hpp"
#include "measure/spin_matrix.hpp"
#include "measure/stochastic_source.hpp"

namespace lqcd {

// [gamma][momentum][t]
using LoopEstimate = std::vector<std::vector<std::vector<Complex<double>>>>;

LoopEstimate disconnected_loops(const DiracOperators& ops, bool even_odd, const NoiseSpec& noise,
                                const std::vector<SpinMatrix>& gammas, const std::vector<std::array<int, 3>>& momenta,
                                const PropagatorOptions& options, const HoppingExpansion* expansion = nullptr);

// noise.time_slice must be set (>= 0); t = 0..T-1 relative to it.
std::vector<double> one_end_pion(const DiracOperators& ops, bool even_odd, const NoiseSpec& noise,
                                 const PropagatorOptions& options);

}  // namespace lqcd
