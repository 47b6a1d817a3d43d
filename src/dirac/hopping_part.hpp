#pragma once
// The parts of a full-lattice Dirac operator M = (site term) + alpha H, with H the Wilson hopping term
// of dirac/wilson_kernels.hpp on links U and fermion boundary phases `boundary`: alpha = -kappa for the
// Wilson, twisted-mass, clover and twisted-clover operators in hopping form. Whatever the site term is
// (1, the twisted mass, the clover term), the couplings between different sites are these, which lets
// the multigrid build its coarse operator's neighbour blocks from the links directly
// (solvers/multigrid/coarse_operator.hpp) instead of by probing; with the site term too its Schwarz smoother
// applies the block operators itself (WilsonSiteOperator below, solvers/multigrid/schwarz_kernels.hpp) instead
// of M on the whole lattice.
// On several processes U holds this process's box (with halo layers): whoever needs the hops across a
// process boundary must get them elsewhere (the coarse operator is then probed; Schwarz blocks never
// cross a boundary).

#include <cstdint>

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

// M at one site from its parts: (site term) s + alpha H s, from the links and the site term directly
// (the clover term where `clover` is set, else c0 + i c5 gamma_5), for any spinor source that has
// load and load_projected as SpinorView has. A source that holds s on some sites and 0 elsewhere gives
// the operator with the outside cut off: the Schwarz smoother's block operator D_B
// (solvers/multigrid/schwarz_kernels.hpp, and the block in shared memory in schwarz_block_mr.cu).
template <typename Real>
struct WilsonSiteOperator {
  using T = compute_t<Real>;
  GaugeView<Real> U;
  FermionBoundary boundary;
  double alpha, c0, c5;
  CloverView<Real> clover;
  int has_clover;

  static WilsonSiteOperator of(const WilsonHoppingPart<Real>& P) {
    return {P.links->view(), P.boundary, P.alpha, P.c0, P.c5, P.clover ? P.clover->view() : CloverView<Real>{},
            P.clover ? 1 : 0};
  }
  template <typename Source>
  LQCD_HOST_DEVICE ColorSpinor<T> apply(const Source& in, int p, std::int64_t cb, const int xc[4]) const {
    if (has_clover) {
      ColorSpinor<T> r = wilson_hop<T>(U, in, boundary, 0, p, cb, xc, T(alpha));
      r += clover.apply(p, cb, in.load(p, cb), 0);
      return r;
    }
    // the Wilson kernels' own site result: (c0 + i c5 gamma_5) s + alpha H s
    return wilson_site_result<T>(U, in, in, boundary, alpha, c0, c5, 1, 0, p, cb, xc);
  }
};

}  // namespace lqcd
