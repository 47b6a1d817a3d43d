#pragma once
// SU(2) subgroups of SU(3) for the Cabibbo-Marinari update (N. Cabibbo, E. Marinari,
// Phys. Lett. B 119 (1982) 387). An SU(2) element is written a0 + i a.sigma, i.e. the 2x2 matrix
//   [[a0 + i a3,  a2 + i a1],
//    [-a2 + i a1, a0 - i a3]].

#include "math/su3.hpp"

namespace lqcd {

template <typename T>
struct SU2 {
  T a[4];
};

// The three subgroups act on the index pairs (0,1), (0,2), (1,2).
LQCD_HOST_DEVICE constexpr int su2_row(int subgroup, int k) {
  return subgroup == 0 ? k : (subgroup == 1 ? 2 * k : 1 + k);
}

// The part of the 2x2 block of w (rows/cols of the subgroup) proportional to an SU(2) matrix:
// w_block = (a0 + i a.sigma) + (rest orthogonal to SU(2)). Re tr(r * w) = Re tr(r * (a0 + i a.sigma))
// for every r in SU(2), which is all the heatbath and overrelaxation need.
template <typename T>
LQCD_HOST_DEVICE SU2<T> su2_project(const SU3<T>& w, int subgroup) {
  const int i = su2_row(subgroup, 0), j = su2_row(subgroup, 1);
  const Complex<T> w00 = w.m[i][i], w01 = w.m[i][j], w10 = w.m[j][i], w11 = w.m[j][j];
  return SU2<T>{{(w00.re + w11.re) / 2, (w01.im + w10.im) / 2, (w01.re - w10.re) / 2,
                 (w00.im - w11.im) / 2}};
}

template <typename T>
LQCD_HOST_DEVICE SU2<T> su2_mul(const SU2<T>& x, const SU2<T>& y) {
  // (x0 + i x.s)(y0 + i y.s) = x0 y0 - x.y + i (x0 y + y0 x - x cross y)
  return SU2<T>{{x.a[0] * y.a[0] - x.a[1] * y.a[1] - x.a[2] * y.a[2] - x.a[3] * y.a[3],
                 x.a[0] * y.a[1] + y.a[0] * x.a[1] - (x.a[2] * y.a[3] - x.a[3] * y.a[2]),
                 x.a[0] * y.a[2] + y.a[0] * x.a[2] - (x.a[3] * y.a[1] - x.a[1] * y.a[3]),
                 x.a[0] * y.a[3] + y.a[0] * x.a[3] - (x.a[1] * y.a[2] - x.a[2] * y.a[1])}};
}

template <typename T>
LQCD_HOST_DEVICE SU2<T> su2_dagger(const SU2<T>& x) {
  return SU2<T>{{x.a[0], -x.a[1], -x.a[2], -x.a[3]}};
}

// u <- R u, where R is r embedded in the given subgroup (identity elsewhere).
template <typename T>
LQCD_HOST_DEVICE void su2_left_multiply(SU3<T>& u, const SU2<T>& r, int subgroup) {
  const int i = su2_row(subgroup, 0), j = su2_row(subgroup, 1);
  const Complex<T> r00{r.a[0], r.a[3]}, r01{r.a[2], r.a[1]}, r10{-r.a[2], r.a[1]}, r11{r.a[0], -r.a[3]};
  for (int c = 0; c < 3; ++c) {
    const Complex<T> ui = u.m[i][c], uj = u.m[j][c];
    u.m[i][c] = r00 * ui + r01 * uj;
    u.m[j][c] = r10 * ui + r11 * uj;
  }
}

}  // namespace lqcd
