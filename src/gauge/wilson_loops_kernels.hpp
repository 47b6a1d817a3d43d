#pragma once
// The site kernel of the planar Wilson loops (gauge/wilson_loops.hpp).

#include "core/reduction.hpp"
#include "fields/gauge_view.hpp"

namespace lqcd {

inline constexpr int kMaxWilsonLoopExtent = 8;  // R and T at most 8

// Per site x and spatial direction i: Re tr W/3 of the R x T loops (R fixed, T = 1..t_max) with corner x
// in the (i, t) plane,
//   W = S_i(x, R) T(x + R i, T) S_i(x + T t, R)^dag T(x, T)^dag,
// S_i(x, R) the product of R links along i from x, T(x, T) of T time links; into acc[T-1], the three
// spatial directions summed. One R per launch keeps the reduction's shared memory small (8 doubles a
// thread); the lines are built link by link.
struct WilsonLoopKernel {
  GaugeView<double> U;
  int r, t_max;
  LQCD_HOST_DEVICE void operator()(std::int64_t site, Sums<kMaxWilsonLoopExtent>& acc) const {
    int x0[4];
    U.idx.coords_lex(site, x0);
    constexpr int t_dir = 3;
    for (int i = 0; i < 3; ++i) {
      int y[4] = {x0[0], x0[1], x0[2], x0[3]};  // x0 + R i
      SU3<double> s = SU3<double>::identity();  // S_i(x0, R)
      for (int k = 0; k < r; ++k) s = s * U.step(y, i + 1);
      int near[4] = {x0[0], x0[1], x0[2], x0[3]}, far[4] = {y[0], y[1], y[2], y[3]};
      SU3<double> near_t = SU3<double>::identity(), far_t = SU3<double>::identity();
      for (int t = 0; t < t_max; ++t) {
        near_t = near_t * U.step(near, t_dir + 1);  // near ends at x0 + (t+1) t
        far_t = far_t * U.step(far, t_dir + 1);
        int v[4] = {near[0], near[1], near[2], near[3]};
        SU3<double> top = SU3<double>::identity();  // S_i(x0 + (t+1) t, R)
        for (int k = 0; k < r; ++k) top = top * U.step(v, i + 1);
        acc[t] += re_trace(s * far_t * dagger(top) * dagger(near_t)) / 3.0;
      }
    }
  }
};

// The decomposed lattice's Wilson loops (wilson_loops.cpp) are built from path fields that move one
// site per step, so that every read stays within the halo of depth 1. A path field holds one SU(3)
// matrix per site in one of a GaugeField's four slots.
// out[slot_out](x) = U_dir(x) in[slot_in](x + dir): a path from x + dir extended backwards by one link;
// with `backward`, the step goes against dir: out(x) = U_dir(x - dir)^dag in(x - dir) (the off-axis
// loops' staircases step both ways). With `in` = nothing (in.data == nullptr) out is the link alone.
// Reads in's and U's halo.
struct PathExtendKernel {
  GaugeView<double> U;
  GaugeView<double> in;
  GaugeView<double> out;
  int dir, slot_in, slot_out;
  bool backward = false;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    int x[4];
    U.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = U.idx.cb_index(x);
    int y[4] = {x[0], x[1], x[2], x[3]};
    U.idx.shift(y, dir, backward ? -1 : +1);
    const SU3<double> u = backward ? dagger(U.link(y, dir)) : U.load(dir, p, s);
    out.store(slot_out, p, s, in.data ? u * in.link(y, slot_in) : u);
  }
};

// Sum over sites of Re tr[H(x) G(x)^dag] for the two path fields' slots (H: R along i, then T along t;
// G: T along t, then R along i; together the R x T loop at x).
struct ClosedLoopKernel {
  GaugeView<double> H;
  GaugeView<double> G;
  int slot_h, slot_g;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, Sums<1>& acc) const {
    int x[4];
    H.idx.coords_lex(i, x);
    const int p = SiteIndexer::parity(x);
    const std::int64_t s = H.idx.cb_index(x);
    acc[0] += re_trace(mul_adj(H.load(slot_h, p, s), G.load(slot_g, p, s)));
  }
};

}  // namespace lqcd
