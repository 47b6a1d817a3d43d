#pragma once
// The Wilson hopping term (and the twisted-mass site term) on N right-hand sides at once, for host
// and device (issue 4): out_j = (c0 + i c5 gamma_5) x_j + alpha H in_j for j = 0..N-1, the fields in
// SpinorBlockFields (fields/spinor_block_field.hpp), rhs j of a site next to rhs j+1.
//
// Thread i takes rhs j = i % N of the (i / N)-th site in the t-tiled visiting order
// (SiteIndexer::tiled_site) and computes exactly what WilsonHoppingKernel computes for
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
#include "fields/spinor_block_blas_kernels.hpp"
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

  int t_tile;  // the sites' visiting order (SiteIndexer::tiled_site); 1: storage order

  // Element i: rhs j = i % N of the (i / N)-th site of out's parity in the t-tiled order, with its
  // coordinates. 32-bit index arithmetic: hop_multi_rhs checks that N x sites < 2^32.
  struct Element {
    int p;
    std::int64_t s;
    int j;
    int xc[4];
  };
  LQCD_HOST_DEVICE Element element(std::int64_t i) const {
    Element e;
    const unsigned n = unsigned(out.n), k = unsigned(i);
    e.p = out.flat.parity;
    e.j = int(k % n);
    e.s = U.idx.tiled_site(e.p, k / n, t_tile, e.xc);
    return e;
  }
  LQCD_HOST_DEVICE ColorSpinor<T> result(const Element& e) const {
    return wilson_site_result<T>(U, in.rhs(e.j), x.rhs(e.j), boundary, alpha, c0, c5, has_x, dagger, e.p, e.s, e.xc);
  }
  // As WilsonHoppingKernel's: repeatable unless x is updated in place.
  bool tunable() const { return in.flat.data != out.flat.data && !(has_x && x.flat.data == out.flat.data); }

  // i over out's sites times N. The block is one parity (hop_multi_rhs checks).
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const Element e = element(i);
    out.store(e.p, e.s, e.j, result(e));
  }
};

// The hopping term with the sum a solver needs next, in the same pass (issue 4: no extra pass over
// memory), run by reduce_each (one sum per rhs):
//   accumulate = 0:  out_j = hop_j, summing ||out_j||^2                (CG's <p, M^dag M p> = ||M p||^2)
//   accumulate = 1:  out_j <- out_j + a_j hop_j, summing ||out_j||^2   (CG's r -= alpha M^dag (M p))
// FLOPs per site and rhs: those of the hopping term (1320, + 96 with the twisted site term) + 24, + 48
// with the accumulation. Bytes: the hopping term's, + one spinor read with the accumulation.
template <typename Real, int LinkComponents = 9>
struct WilsonHoppingNormKernelMultiRHS {
  using T = compute_t<Real>;
  static constexpr int kMinBlocksPerSM = WilsonHoppingKernelMultiRHS<Real, LinkComponents>::kMinBlocksPerSM;
  WilsonHoppingKernelMultiRHS<Real, LinkComponents> hop;
  RhsCoefficients<T> a;
  int accumulate;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    const auto e = hop.element(i);
    ColorSpinor<T> v = hop.result(e);
    if (accumulate) {
      ColorSpinor<T> w = hop.out.load(e.p, e.s, e.j);
      w += Complex<T>(a[e.j]) * v;
      v = w;
    }
    hop.out.store(e.p, e.s, e.j, v);
    acc += double(norm2(v));
  }
};

}  // namespace lqcd
