#pragma once
// openQCD's open boundary conditions in time (M. Luscher, S. Schaefer, JHEP 1107 (2011) 036; openQCD's
// notes on the gauge action and on lattice/bcnds.c). The lattice keeps its N0 time slices 0 .. N0 - 1, and
// its time extent is T = N0 - 1:
//   - the time-like links U_t(x) at x0 = T are zero and stay zero (no plaquette crosses from T to 0; such a
//     link has no force and is not updated: "frozen");
//   - in the gauge action the spatial plaquettes at x0 = 0 and x0 = T carry the weight c_G / 2, every other
//     plaquette in the lattice 1 (c_G = 1 at tree level);
//   - the time-like plaquettes through a frozen link are not in the lattice (not summed).
// Periodic: every plaquette, weight 1. Kernels get this small struct by value.

#include "core/geometry.hpp"
#include "core/macros.hpp"

namespace lqcd {

struct TimeBoundary {
  bool open = false;
  double boundary_weight = 1.0;  // c_G / 2: the spatial plaquettes at x0 = 0 and T
  int last = 0;                  // T = N0 - 1, the global index of the last time slice

  // The weight of the spatial plaquettes at global time t.
  LQCD_HOST_DEVICE double spatial_weight(int t) const {
    return open && (t == 0 || t == last) ? boundary_weight : 1.0;
  }
  // U_mu at global time t is a frozen (zero) link.
  LQCD_HOST_DEVICE bool frozen(int t, int mu) const { return open && mu == kTimeDir && t == last; }
  // The weight of the spatial plaquettes through the link U_mu(x) (x local): those of its own time slice
  // when mu is spatial; 1 for a time-like link (it lies in time-like planes only).
  LQCD_HOST_DEVICE double staple_weight(const SiteIndexer& idx, const int x[4], int mu) const {
    return mu == kTimeDir ? 1.0 : spatial_weight(x[kTimeDir] + idx.off[kTimeDir]);
  }
};

}  // namespace lqcd
