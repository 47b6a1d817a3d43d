#pragma once
// Baryon two-point functions from point-to-all propagators (issue 49), for any interpolator built from
// terms of the diquark-quark form
//   O_alpha(x) = sum_terms w eps_abc (q1_a^T(x) G q2_b(x)) (G' q3_c(x))_alpha,
//   Obar_beta(0) = O^dag gamma_t = sum_terms w* eps_a'b'c' (q2bar_b'(0) Ghat q1bar_a'^T(0)) (q3bar_c'(0) Ghat')_beta,
// Ghat = gamma_t G^dag gamma_t^T, Ghat' = gamma_t G'^dag gamma_t. The flavours q1, q2, q3 of each term are
// up, down or strange (measure/baryon_interpolators.hpp has the octet and decuplet). Wick's theorem joins
// the sink's quark in slot i with the source's antiquark in slot sigma(i) of the same flavour, for every
// permutation sigma of the slots that matches the flavours, with the sign of sigma; up and down are two
// flavours even when one propagator serves both. With A, B, C the propagators of the sink's three slots
// (S^{aa'}_{rho rho'}(x) = <q_{a rho}(x) qbar_{a' rho'}(0)>), the six pairings are, under
// eps_abc eps_a'b'c' and with o = Ghat' W G' for the trace with the spin weight W,
//   id      + tr[G B^{bb'} Ghat A^{aa'T}] tr[o C^{cc'}]
//   (12)    - tr[G B^{ba'} Ghat^T A^{ab'T}] tr[o C^{cc'}]
//   (13)    - tr[o C^{ca'} (G B^{bb'} Ghat)^T A^{ac'}]
//   (23)    - tr[o C^{cb'} Ghat A^{aa'T} G B^{bc'}]
//   (123)   + tr[o C^{ca'} Ghat^T A^{ab'T} G B^{bc'}]
//   (132)   + tr[o C^{cb'} Ghat B^{ba'T} G^T A^{ac'}]
// (sigma written as the slots it moves; each line is the index-by-index Wick term with its spin sums
// done as matrix products). An interpolator has one component (spin 1/2) or three (spin 3/2: k = x, y, z);
// the correlator is
//   C(t, p) = sum_{x, x_t = t0 + t} e^{-i p.(x - x0)} sum_ij tr[W_ij G^{ij}(x)],
//   G^{ij}_{alpha beta}(x) = <O^i_alpha(x) Obar^j_beta(0)>,
// W the projection (parity, spin 3/2; measure/baryon_interpolators.hpp). A sink time slice before the
// source's (x_t < t0) is reached across the time boundary: its three quarks there carry the boundary phase
// e^{i theta_t} once each (psi(x + T) = e^{i theta_t} psi(x)), so C(t) at t = x_t - t0 + T is the sum there
// times e^{3 i theta_t} (-1 antiperiodic), as Chroma's hadron spectrum reports it: C(t) is then that of a
// source at t = 0 on every slice. On a decomposed lattice collective, summed over the process grid as the
// mesons are.

#include <array>
#include <vector>

#include "measure/meson_correlator.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

enum class Quark { Up = 0, Down = 1, Strange = 2 };

// One term w eps_abc (q1^T G q2) (G' q3).
struct BaryonTerm {
  double weight = 1;
  std::array<Quark, 3> quarks{};  // q1, q2, q3
  SpinMatrix diquark;             // G
  SpinMatrix outer;               // G'
};

// components[i]: the terms of O^i (one component for spin 1/2, three for spin 3/2).
struct BaryonInterpolator {
  std::vector<std::vector<BaryonTerm>> components;
};

// W: one spin matrix per pair of components (W[i][j] weighs G^{ij}).
using BaryonProjection = std::vector<std::vector<SpinMatrix>>;

// The propagators of up, down and strange from one source (up and down may be the same field; a flavour
// the interpolator does not use may be null).
struct QuarkPropagators {
  const PointPropagator* up = nullptr;
  const PointPropagator* down = nullptr;
  const PointPropagator* strange = nullptr;
};

// C(t, p) for t = 0..T-1 relative to the source time slice, one entry per momentum (units of 2 pi / L);
// time_boundary_phase the quarks' e^{i theta_t} (-1: antiperiodic). `name` is for errors.
std::vector<std::vector<Complex<double>>> baryon_correlator(const QuarkPropagators& quarks,
                                                            const BaryonInterpolator& op, const BaryonProjection& W,
                                                            const std::vector<std::array<int, 3>>& momenta,
                                                            Complex<double> time_boundary_phase, const char* name);

// The sink of a three-point function (measure/baryon_three_point.hpp): the derivative of the correlator's
// site term f(x) = sum_ij tr[W_ij G^{ij}(x)] (the boundary phase of a slice before the source's included)
// with respect to one flavour's propagator, K_x[r][c] = d f(x) / d S_f(x)_{rc}, r and c = spin * 3 +
// colour (sink and source index), at each site x of the time slice sink_t (global) in this box. Each
// pairing is linear in each of its three slots; a flavour in two slots (the proton's up quarks) adds
// both derivatives, so that f with S_f -> S_f + dS changes by sum_{rc} K_x[r][c] dS_{rc} to first order.
struct BaryonSinkKernel {
  int local_t = -1;  // the slice in this box (local time); -1: the box does not hold it
  std::vector<std::array<Complex<double>, 144>> at;  // per site of the slice, lexicographic in the box
};
BaryonSinkKernel baryon_sink_kernel(const QuarkPropagators& quarks, const BaryonInterpolator& op,
                                    const BaryonProjection& W, Quark flavour, int sink_t,
                                    Complex<double> time_boundary_phase, const char* name);

}  // namespace lqcd
