// Spin projection onto half spinors: the two upper spins carry the whole projected spinor.
#include <gtest/gtest.h>

#include <cmath>

#include "math/half_spinor.hpp"

namespace lqcd {
namespace {

ColorSpinor<double> sample_spinor() {
  ColorSpinor<double> psi;
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 3; ++c) psi.s[s].c[c] = Complex<double>(0.3 + s - 0.7 * c, 1.1 * s * s - c + 0.2);
  return psi;
}

// (1 - sign gamma_mu) psi from the dense gamma matrix, independent of the sparse shortcuts.
ColorSpinor<double> dense_projection(int mu, int sign, const ColorSpinor<double>& psi) {
  const SparseGamma g = gamma_matrix(mu);
  ColorSpinor<double> r = psi;
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 4; ++col) {
      if (g.col[row] != col) continue;
      const Complex<double> entry = i_power(g.phase[row], Complex<double>(1));
      for (int c = 0; c < 3; ++c) r.s[row].c[c] -= Complex<double>(double(sign)) * entry * psi.s[col].c[c];
    }
  return r;
}

TEST(HalfSpinor, ReconstructionGivesTheFullProjection) {
  const ColorSpinor<double> psi = sample_spinor();
  for (int mu = 0; mu < 4; ++mu)
    for (int sign : {+1, -1}) {
      const ColorSpinor<double> want = dense_projection(mu, sign, psi);
      const ColorSpinor<double> got = spin_reconstruct(mu, sign, spin_project_half(mu, sign, psi));
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c) {
          EXPECT_NEAR(got.s[s].c[c].re, want.s[s].c[c].re, 1e-14) << mu << sign << s << c;
          EXPECT_NEAR(got.s[s].c[c].im, want.s[s].c[c].im, 1e-14) << mu << sign << s << c;
        }
    }
}

TEST(HalfSpinor, ProjectorsAreComplementaryAndIdempotent) {
  // (1 - g)/2 + (1 + g)/2 = 1 and ((1 - g)/2)^2 = (1 - g)/2 through the half-spinor path.
  const ColorSpinor<double> psi = sample_spinor();
  for (int mu = 0; mu < 4; ++mu) {
    const ColorSpinor<double> minus = spin_reconstruct(mu, +1, spin_project_half(mu, +1, psi));
    const ColorSpinor<double> plus = spin_reconstruct(mu, -1, spin_project_half(mu, -1, psi));
    const ColorSpinor<double> twice = spin_reconstruct(mu, +1, spin_project_half(mu, +1, minus));
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) {
        const Complex<double> sum = minus.s[s].c[c] + plus.s[s].c[c];
        EXPECT_NEAR(sum.re, 2 * psi.s[s].c[c].re, 1e-14);
        EXPECT_NEAR(sum.im, 2 * psi.s[s].c[c].im, 1e-14);
        EXPECT_NEAR(twice.s[s].c[c].re, 2 * minus.s[s].c[c].re, 1e-13);
        EXPECT_NEAR(twice.s[s].c[c].im, 2 * minus.s[s].c[c].im, 1e-13);
      }
  }
}

}  // namespace
}  // namespace lqcd
