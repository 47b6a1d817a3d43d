#pragma once
// The Wilson hopping term (and the twisted-mass site term) on N right-hand sides at once, for host
// and device (issue 4): out_j = (c0 + i c5 gamma_5) x_j + alpha H in_j for j = 0..N-1, the fields in
// SpinorBlockFields (fields/spinor_block_field.hpp), rhs j of a site next to rhs j+1.
//
// Thread i takes rhs j = i % N of site i / N and computes exactly what WilsonHoppingKernel computes for
// that rhs (the same wilson_site_result / wilson_hop, with the rhs as the spinor source). Why it is
// faster per rhs: the N consecutive threads of a site load the same 8 links at the same time, so a
// link comes from DRAM once per site (one sector request serves the whole group, and the threads of
// the group in the next warp find it in L1), i.e. each link is loaded once for all N right-hand sides;
// the link bytes per rhs fall as 1/N and the kernel approaches the spinor traffic alone (2 spinors
// per site and rhs). The spinors of consecutive threads are consecutive words (the interleaved
// layout), so those loads stay coalesced.
// FLOPs per output site and rhs: 1320 (+ 96 with the twisted site term), as WilsonHoppingKernel.
// Single process only for now: no face exchange (wilson_hop leaves the split hops out).

#include <type_traits>

#include "dirac/wilson_kernels.hpp"
#include "fields/spinor_block_field.hpp"

namespace lqcd {

template <typename Real, int LinkComponents = 9>
struct WilsonHoppingKernelMultiRHS {
  using T = compute_t<Real>;
  // Registers as the one-rhs kernel's (the same per-thread work).
  static constexpr int kMinBlocksPerSM = WilsonHoppingKernel<Real, LinkComponents>::kMinBlocksPerSM;
  GaugeView<Real, LinkComponents> U;
  SpinorBlockView<Real> in;
  SpinorBlockView<Real> out;
  SpinorBlockView<Real> x;  // site-term input (same sites as out); ignored when has_x = 0
  FermionBoundary boundary;
  double alpha;
  double c0, c5;
  int has_x;
  int dagger;

  // i over out's sites times N.
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int j = int(i % out.n);
    const std::int64_t site = i / out.n;
    const int p = out.parity_of(site);
    const std::int64_t s = out.cb_of(site);
    int xc[4];
    U.idx.coords(p, s, xc);
    out.store(p, s, j,
              wilson_site_result<T>(U, in.rhs(j), x.rhs(j), boundary, alpha, c0, c5, has_x, dagger, p, s, xc));
  }
};

}  // namespace lqcd
