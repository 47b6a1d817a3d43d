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

// The upper half of (1 - sign gamma_mu) psi (sign = +1 or -1).
template <typename T>
LQCD_HOST_DEVICE HalfSpinor<T> spin_project_half(int mu, int sign, const ColorSpinor<T>& psi) {
  const SparseGamma g = gamma_matrix(mu);
  HalfSpinor<T> h;
  LQCD_UNROLL
  for (int row = 0; row < 2; ++row)
    LQCD_UNROLL
    for (int c = 0; c < 3; ++c) {
      const Complex<T> v = i_power(g.phase[row], psi.s[g.col[row]].c[c]);
      h.s[row].c[c] = sign > 0 ? psi.s[row].c[c] - v : psi.s[row].c[c] + v;
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
// per-site scale (half precision's norm, load_unscaled) costs no instruction of its own.
template <typename T>
LQCD_HOST_DEVICE void add_reconstructed(ColorSpinor<T>& acc, int mu, int sign, const HalfSpinor<T>& h, T scale) {
  const ColorSpinor<T> r = spin_reconstruct(mu, sign, h);
  LQCD_UNROLL
  for (int row = 0; row < 4; ++row)
    LQCD_UNROLL
    for (int c = 0; c < 3; ++c) {
      acc.s[row].c[c].re += scale * r.s[row].c[c].re;
      acc.s[row].c[c].im += scale * r.s[row].c[c].im;
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
