#pragma once
// The Wilson / twisted-mass hopping term on N right-hand sides at once (wilson_multi_rhs_kernels.hpp):
// each link is loaded once per site for all of them.

#include <span>
#include <type_traits>
#include <vector>

#include "dirac/wilson_kernels.hpp"
#include "fields/gauge_field.hpp"
#include "fields/spinor_block_field.hpp"

namespace lqcd {

// out_j = (c0 + i c5 gamma_5) x_j + alpha H in_j for every rhs j (H^dag and -c5 with dagger), on out's
// parity, in of the other parity; x (may be null: out_j = alpha H in_j) of out's parity. With
// x = in(out's parity), c0 = 1, c5 = 2 kappa mu, alpha = -kappa: twisted mass in hopping form, as
// WilsonEvenOddOperator::hop (x is not deduced: nullptr may be passed). Single process only (a lattice with a halo is an error).
// Implemented for (Real, LinkComponents) = (double, 6), (float, 6), (Half, 6), (float, 9).
template <typename Real, int LinkComponents>
void hop_multi_rhs(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                   const SpinorBlockField<Real>& in, const std::type_identity_t<SpinorBlockField<Real>>* x,
                   const FermionBoundary& boundary,
                   double alpha, double c0, double c5, int dagger);

// The same with, in the same pass, the norms a solver needs next (WilsonHoppingNormKernelMultiRHS):
// a empty: out_j = result_j, returning ||out_j||^2; a with one coefficient per rhs: out_j <- out_j +
// a_j result_j, returning ||out_j||^2 (with x, out must not be x). Implemented for 12-real links in
// double, single and half precision.
template <typename Real, int LinkComponents>
std::vector<double> hop_multi_rhs_norm2(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                                        const SpinorBlockField<Real>& in,
                                        const std::type_identity_t<SpinorBlockField<Real>>* x,
                                        const FermionBoundary& boundary, double alpha, double c0, double c5,
                                        int dagger, std::span<const double> a = {});

// The same for a stream-resident solver: the coefficients a_j (null: out_j = result_j) read from, and
// the sums written to, memory of the fields' location; the host does not wait.
template <typename Real, int LinkComponents>
void hop_multi_rhs_norm2_into(const GaugeField<Real, LinkComponents>& U, SpinorBlockField<Real>& out,
                              const SpinorBlockField<Real>& in,
                              const std::type_identity_t<SpinorBlockField<Real>>* x, const FermionBoundary& boundary,
                              double alpha, double c0, double c5, int dagger, const double* a, double* sums);

}  // namespace lqcd
