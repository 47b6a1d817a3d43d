#pragma once
// Euclidean gamma matrices in the DeGrand-Rossi (chiral) basis of Chroma/QDP++, QUDA's interface
// and Grid (DESIGN.md): directions mu = 0..3 are x, y, z, t and
//   gamma_x = [[0,0,0,i],[0,0,i,0],[0,-i,0,0],[-i,0,0,0]]
//   gamma_y = [[0,0,0,-1],[0,0,1,0],[0,1,0,0],[-1,0,0,0]]
//   gamma_z = [[0,0,i,0],[0,0,0,-i],[-i,0,0,0],[0,i,0,0]]
//   gamma_t = [[0,0,1,0],[0,0,0,1],[1,0,0,0],[0,1,0,0]]
//   gamma_5 = gamma_x gamma_y gamma_z gamma_t = diag(1, 1, -1, -1).
// Every gamma matrix has one non-zero entry per row, a power of i: stored as a column index and a
// phase (0: 1, 1: i, 2: -1, 3: -i), which is how the Dirac operators apply them without a matrix
// product.

#include "math/color_spinor.hpp"

namespace lqcd {

struct SparseGamma {
  int col[4];    // non-zero column of each row
  int phase[4];  // entry = i^phase[row]
};

LQCD_HOST_DEVICE constexpr SparseGamma gamma_matrix(int mu) {
  switch (mu) {
    case 0: return SparseGamma{{3, 2, 1, 0}, {1, 1, 3, 3}};
    case 1: return SparseGamma{{3, 2, 1, 0}, {2, 0, 0, 2}};
    case 2: return SparseGamma{{2, 3, 0, 1}, {1, 3, 3, 1}};
    case 3: return SparseGamma{{2, 3, 0, 1}, {0, 0, 0, 0}};
    default: return SparseGamma{{0, 1, 2, 3}, {0, 0, 2, 2}};  // 4: gamma_5
  }
}
constexpr int kGamma5 = 4;

template <typename T>
LQCD_HOST_DEVICE Complex<T> i_power(int phase, const Complex<T>& z) {
  switch (phase & 3) {
    case 0: return z;
    case 1: return Complex<T>(-z.im, z.re);
    case 2: return Complex<T>(-z.re, -z.im);
    default: return Complex<T>(z.im, -z.re);
  }
}

// gamma_mu psi (mu = 0..3, or kGamma5).
template <typename T>
LQCD_HOST_DEVICE ColorSpinor<T> apply_gamma(int mu, const ColorSpinor<T>& psi) {
  const SparseGamma g = gamma_matrix(mu);
  ColorSpinor<T> r;
  for (int row = 0; row < 4; ++row)
    for (int c = 0; c < 3; ++c) r.s[row].c[c] = i_power(g.phase[row], psi.s[g.col[row]].c[c]);
  return r;
}

}  // namespace lqcd
