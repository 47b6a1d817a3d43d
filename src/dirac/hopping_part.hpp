#pragma once
// The parts of a full-lattice Dirac operator M = (site term) + alpha H, with H the Wilson hopping term
// of dirac/wilson_kernels.hpp on links U and fermion boundary phases `boundary`: alpha = -kappa for the
// Wilson, twisted-mass, clover and twisted-clover operators in hopping form. Whatever the site term is
// (1, the twisted mass, the clover term), the couplings between different sites are these, which lets
// the multigrid build its coarse operator's neighbour blocks from the links directly
// (solvers/multigrid/coarse_operator.hpp) instead of by probing; with the site term too its Schwarz smoother
// applies the block operators itself (solvers/multigrid/schwarz_kernels.hpp) instead of M on the whole lattice.
// On several processes U holds this process's box (with halo layers): whoever needs the hops across a
// process boundary must get them elsewhere (the coarse operator is then probed; Schwarz blocks never
// cross a boundary).

#include "dirac/clover_field.hpp"
#include "dirac/wilson_kernels.hpp"
#include "fields/gauge_field.hpp"

namespace lqcd {

template <typename Real>
struct WilsonHoppingPart {
  const GaugeField<Real>* links = nullptr;  // 18-real links, on the operator's location
  FermionBoundary boundary{};
  double alpha = 0;
  // The site term: the clover term A (its twist included) where `clover` is set, else
  // c0 + i c5 gamma_5 (Wilson: 1; twisted mass: 1 + 2 i kappa mu gamma_5).
  const CloverField<Real>* clover = nullptr;
  double c0 = 1, c5 = 0;
};

}  // namespace lqcd
