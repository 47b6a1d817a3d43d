#pragma once
// Spin projection onto half spinors. In the chiral basis of gamma.hpp every gamma_mu (mu = 0..3) maps
// the upper spins {0, 1} onto the lower {2, 3} and back, with gamma_mu^2 = 1. The projected spinor
// r = (1 - sign gamma_mu) psi therefore has rank 2: for a lower row l with column u = col[l],
//   r_l = psi_l - sign i^{ph_l} psi_u = -sign i^{ph_l} (psi_u - sign i^{ph_u} psi_l) = -sign i^{ph_l} r_u,
// using i^{ph_u} i^{ph_l} = 1. So r is carried by its two upper spins (12 reals instead of 24): the
// hopping term multiplies two colour vectors by the link instead of four, and halo messages between
// processes carry half the bytes (QUDA's and CL2QCD's "spin projection").

#include "math/gamma.hpp"

namespace lqcd {

template <typename T>
struct HalfSpinor {
  ColorVector<T> s[2];  // spins 0 and 1 of the projected spinor
};

// The upper half of (1 - sign gamma_mu) psi (sign = +1 or -1). The sign enters as a factor -+1 of
// multiply-adds, not as a choice between a subtraction and an addition: where it is known only at
// run time (the dagger of a kernel) the device would otherwise issue both, predicated.
template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> spin_project_half(int mu, int sign, const ColorSpinor<T>& psi) {
  const SparseGamma g = gamma_matrix(mu);
  const T minus_sign = T(-sign);
  HalfSpinor<T> h;
  LQCD_UNROLL
  for (int row = 0; row < 2; ++row)
    LQCD_UNROLL
    for (int c = 0; c < 3; ++c) {
      const Complex<T> v = i_power(g.phase[row], psi.s[g.col[row]].c[c]);
      h.s[row].c[c] = {psi.s[row].c[c].re + minus_sign * v.re, psi.s[row].c[c].im + minus_sign * v.im};
    }
  return h;
}

// spin_project_half of a spinor given with a bias added to each of its 24 reals: a half-precision
// field's stored integers as biased_values reads them (math/precision.hpp), psi' = psi + bias with
// bias = 2^23 + 2^15. Each real of the result is r = a + m b with m = -+1 (-sign times the sign that
// i^phase gives it); it is computed as (a' - bias (1 + m)) + m b': for integers |a|, |b| < 2^15 both
// steps are exact (on the host and, as one FMA, on the device), the bias cancels, and decoding the 24
// inputs costs nothing: 2 instructions per real of the result where a decoded spinor takes 3.
template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> spin_project_half_biased(int mu, int sign, const ColorSpinor<T>& biased, T bias) {
  const SparseGamma g = gamma_matrix(mu);
  const T minus_sign = T(-sign);
  const T offset_same = -bias * (T(1) + minus_sign);      // where i^phase keeps the real's sign (m = -sign)
  const T offset_flipped = -bias * (T(1) - minus_sign);  // where it flips it (m = sign)
  HalfSpinor<T> h;
  LQCD_UNROLL
  for (int row = 0; row < 2; ++row)
    LQCD_UNROLL
    for (int c = 0; c < 3; ++c) {
      const Complex<T> v = i_power(g.phase[row], biased.s[g.col[row]].c[c]);
      const Complex<T> kept = i_power(g.phase[row], Complex<T>(1, 1));  // +-1: the signs i^phase gives
      const Complex<T>& a = biased.s[row].c[c];
      h.s[row].c[c] = {(a.re + (kept.re > 0 ? offset_same : offset_flipped)) + minus_sign * v.re,
                       (a.im + (kept.im > 0 ? offset_same : offset_flipped)) + minus_sign * v.im};
    }
  return h;
}

// The full spinor (1 - sign gamma_mu) psi from its upper half (spin_project_half).
template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> spin_reconstruct(int mu, int sign, const HalfSpinor<T>& h) {
  const SparseGamma g = gamma_matrix(mu);
  ColorSpinor<T> r;
  r.s[0] = h.s[0];
  r.s[1] = h.s[1];
  LQCD_UNROLL
  for (int row = 2; row < 4; ++row)
    LQCD_UNROLL
    for (int c = 0; c < 3; ++c) r.s[row].c[c] = i_power(g.phase[row] + (sign > 0 ? 2 : 0), h.s[g.col[row]].c[c]);
  return r;
}

// acc += scale (1 - sign gamma_mu) h, h the upper half (spin_reconstruct): 24 multiply-adds, so a
// per-site scale (half precision's norm, SpinorView::load_projected) and the sign of the lower rows (-sign
// i^{phase} h, spin_reconstruct) cost no instruction of their own.
template <typename T>
LQCD_HOST_DEVICE void add_reconstructed(ColorSpinor<T>& acc, int mu, int sign, const HalfSpinor<T>& h, T scale) {
  const SparseGamma g = gamma_matrix(mu);
  const T lower_scale = T(-sign) * scale;
  LQCD_UNROLL
  for (int row = 0; row < 4; ++row)
    LQCD_UNROLL
    for (int c = 0; c < 3; ++c) {
      const Complex<T> r = row < 2 ? h.s[row].c[c] : i_power(g.phase[row], h.s[g.col[row]].c[c]);
      const T f = row < 2 ? scale : lower_scale;
      acc.s[row].c[c].re += f * r.re;
      acc.s[row].c[c].im += f * r.im;
    }
}

// U h and U^dagger h, colour by colour.
template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> color_multiply(const SU3<T>& u, const HalfSpinor<T>& h) {
  return HalfSpinor<T>{{u * h.s[0], u * h.s[1]}};
}
template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> color_adj_multiply(const SU3<T>& u, const HalfSpinor<T>& h) {
  return HalfSpinor<T>{{adj_mul(u, h.s[0]), adj_mul(u, h.s[1])}};
}

template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> operator*(const Complex<T>& z, const HalfSpinor<T>& h) {
  return HalfSpinor<T>{{z * h.s[0], z * h.s[1]}};
}

}  // namespace lqcd
