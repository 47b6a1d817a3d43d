#pragma once
// The Wilson / twisted-mass hopping term on N right-hand sides at once (wilson_multi_rhs_kernels.hpp):
// each link is loaded once per site for all of them.

#include <type_traits>

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

}  // namespace lqcd
