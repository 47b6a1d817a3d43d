// Spin projection onto half spinors: the two upper spins carry the whole projected spinor.
#include <gtest/gtest.h>

#include <cmath>

#include "math/half_spinor.hpp"
#include "math/precision.hpp"

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

TEST(HalfSpinor, BiasedProjectionOfStoredCodesIsExact) {
  // The hopping term projects half precision's biased integers (2^23 + 2^15 + q, precision.hpp)
  // without decoding them (spin_project_half_biased): the result must be the projection of the
  // integers q themselves, exactly, for every direction, both signs, and the extreme codes.
  for (int trial = 0; trial < 4; ++trial) {
    ColorSpinor<float> q, biased;
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) {
        const int k = 6 * s + 2 * c;
        const int a = trial == 0 ? 32767 : trial == 1 ? -32767 : (k * 7919 + trial * 104729) % 65535 - 32767;
        const int b = trial == 0 ? -32767 : trial == 1 ? 32767 : ((k + 1) * 7919 + trial * 15485863) % 65535 - 32767;
        const Complex<std::int16_t> code(std::int16_t(std::uint16_t(a + 32768)),
                                         std::int16_t(std::uint16_t(b + 32768)));
        q.s[s].c[c] = {fixed_value(code.re), fixed_value(code.im)};
        biased.s[s].c[c] = biased_values(code);
      }
    for (int mu = 0; mu < 4; ++mu)
      for (int sign : {+1, -1}) {
        const HalfSpinor<float> want = spin_project_half(mu, sign, q);
        const HalfSpinor<float> got = spin_project_half_biased(mu, sign, biased, fixed_detail::kCodeBias);
        for (int s = 0; s < 2; ++s)
          for (int c = 0; c < 3; ++c) {
            ASSERT_EQ(got.s[s].c[c].re, want.s[s].c[c].re) << trial << mu << sign << s << c;
            ASSERT_EQ(got.s[s].c[c].im, want.s[s].c[c].im) << trial << mu << sign << s << c;
          }
      }
  }
}

TEST(HalfSpinor, AccumulatingTheReconstructionAppliesScaleAndSign) {
  // add_reconstructed(acc, mu, sign, h, scale) = acc + scale (1 - sign gamma_mu) h (spin_reconstruct).
  const ColorSpinor<double> psi = sample_spinor();
  for (int mu = 0; mu < 4; ++mu)
    for (int sign : {+1, -1}) {
      const HalfSpinor<double> h = spin_project_half(mu, sign, psi);
      ColorSpinor<double> acc = psi;
      add_reconstructed(acc, mu, sign, h, 0.375);
      const ColorSpinor<double> r = spin_reconstruct(mu, sign, h);
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c) {
          EXPECT_NEAR(acc.s[s].c[c].re, psi.s[s].c[c].re + 0.375 * r.s[s].c[c].re, 1e-14) << mu << sign << s;
          EXPECT_NEAR(acc.s[s].c[c].im, psi.s[s].c[c].im + 0.375 * r.s[s].c[c].im, 1e-14) << mu << sign << s;
        }
    }
}

}  // namespace
}  // namespace lqcd
