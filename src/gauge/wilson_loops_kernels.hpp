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

}  // namespace lqcd
