#pragma once
// openQCD's open boundary conditions in time for the quarks (bc = 0 of openQCD 2.x: "open bc for the gauge
// field, Schroedinger-functional bc for the quark fields"; M. Luscher and S. Schaefer, Comput. Phys.
// Commun. 184 (2013) 519, and openQCD's doc/dirac.pdf). With N0 time slices and T = N0 - 1 the quark
// fields vanish at x0 = 0 and T, the Dirac operator acts at 0 < x0 < T only, and the boundary
// O(a)-improvement term (c_F - 1) is added to its diagonal at x0 = 1 and T - 1 (openQCD's
// sw_term.c; c_F = 1 at tree level).
//
// lqcd keeps the full lattice and makes the boundary slices decouple instead: the hops run on a copy of
// the links with every link at x0 = 0 and T and U_t(x0 = T - 1) set to zero (quark_hopping_links), and
// the site term is the identity on x0 = 0 and T (CloverComputeKernel). On the bulk the operator is then
// openQCD's (in lqcd's hopping normalisation M = 2 kappa D, so the boundary term is 2 kappa (c_F - 1)),
// on the boundary slices the identity: a source that vanishes there gives a solution that vanishes
// there, and the bulk solution is openQCD's. The clover term at x0 = 1 and T - 1 comes from the real
// links (its leaves reach the boundary slices' links).

#include "core/geometry.hpp"
#include "core/macros.hpp"
#include "fields/gauge_field.hpp"

namespace lqcd {

struct QuarkTimeBoundary {
  bool open = false;
  double c_F = 1.0;
  int last = 0;  // T = N0 - 1, the global index of the last time slice

  // x0 = 0 or T: the fields vanish there (the identity block of lqcd's operator).
  LQCD_HOST_DEVICE bool boundary_slice(int t) const { return open && (t == 0 || t == last); }
  // x0 = 1 or T - 1: the boundary term (c_F - 1).
  LQCD_HOST_DEVICE bool next_to_boundary(int t) const { return open && (t == 1 || t == last - 1); }
  // U_mu at global time t is cut from the quarks' hops: every link of the boundary slices, and the time
  // link from x0 = T - 1 to T.
  LQCD_HOST_DEVICE bool cut(int t, int mu) const {
    return open && (t == 0 || t == last || (mu == kTimeDir && t == last - 1));
  }
};

// The boundary of a lattice of N0 = global time extent slices (open or not).
inline QuarkTimeBoundary quark_time_boundary(bool open, double c_F, const Geometry& g) {
  return QuarkTimeBoundary{open, c_F, g.global[kTimeDir] - 1};
}

// The links of the quarks' hops: U with the links b.cut sets to zero (halos filled). A copy of U where
// b is not open.
GaugeField<double> quark_hopping_links(const GaugeField<double>& U, const QuarkTimeBoundary& b);

// The kernel of quark_hopping_links (one thread per site of the box).
struct CutQuarkLinksKernel {
  GaugeView<double> U;
  QuarkTimeBoundary b;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int t = x[kTimeDir] + U.idx.off[kTimeDir];
    for (int mu = 0; mu < 4; ++mu)
      if (b.cut(t, mu)) U.store(mu, SiteIndexer::parity(x), U.idx.cb_index(x), SU3<double>::zero());
  }
};

}  // namespace lqcd
