// The Euclidean Clifford algebra of the DeGrand-Rossi gamma matrices.
#include <gtest/gtest.h>

#include "math/gamma.hpp"

namespace lqcd {
namespace {

using Mat = Complex<double>[4][4];

void dense(int mu, Mat m) {
  const SparseGamma g = gamma_matrix(mu);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m[r][c] = Complex<double>(0);
  for (int r = 0; r < 4; ++r) m[r][g.col[r]] = i_power(g.phase[r], Complex<double>(1));
}

void mul(const Mat a, const Mat b, Mat c) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      Complex<double> s{};
      for (int k = 0; k < 4; ++k) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}

TEST(Gamma, CliffordAlgebraAndHermiticity) {
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = 0; nu < 4; ++nu) {
      Mat a, b, ab, ba;
      dense(mu, a);
      dense(nu, b);
      mul(a, b, ab);
      mul(b, a, ba);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          const Complex<double> anti = ab[i][j] + ba[i][j];
          const double expected = (mu == nu && i == j) ? 2.0 : 0.0;
          EXPECT_EQ(anti.re, expected) << mu << nu << i << j;
          EXPECT_EQ(anti.im, 0.0);
          // Hermitian: a_ij = conj(a_ji)
          EXPECT_EQ(a[i][j].re, a[j][i].re);
          EXPECT_EQ(a[i][j].im, -a[j][i].im);
        }
    }
}

TEST(Gamma, Gamma5IsTheProductAndDiagonal) {
  Mat g[4], t1, t2, g5, expected;
  for (int mu = 0; mu < 4; ++mu) dense(mu, g[mu]);
  mul(g[0], g[1], t1);
  mul(t1, g[2], t2);
  mul(t2, g[3], g5);
  dense(kGamma5, expected);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(g5[i][j].re, expected[i][j].re);
      EXPECT_EQ(g5[i][j].im, expected[i][j].im);
    }
  EXPECT_EQ(expected[0][0].re, 1.0);
  EXPECT_EQ(expected[1][1].re, 1.0);
  EXPECT_EQ(expected[2][2].re, -1.0);
  EXPECT_EQ(expected[3][3].re, -1.0);
}

TEST(Gamma, ApplyGammaMatchesDenseProduct) {
  ColorSpinor<double> psi;
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 3; ++c) psi.s[s].c[c] = Complex<double>(s + 0.1 * c, 1.0 - s * c);
  for (int mu = 0; mu <= kGamma5; ++mu) {
    Mat m;
    dense(mu, m);
    const ColorSpinor<double> r = apply_gamma(mu, psi);
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) {
        Complex<double> e{};
        for (int k = 0; k < 4; ++k) e += m[s][k] * psi.s[k].c[c];
        EXPECT_EQ(r.s[s].c[c].re, e.re);
        EXPECT_EQ(r.s[s].c[c].im, e.im);
      }
  }
}

// docs/conventions.md's map to openQCD's basis: openQCD's gamma matrices as its plane-wave test of Dw_dble
// applies them (devel/dirac/check5.c, mul_gamma, openQCD 1.6 and 2.4; index 0 = t): conjugating lqcd's
// gamma_mu by gamma_y gives them, and lqcd's gamma_5 becomes minus openQCD's diag(1, 1, -1, -1). A wrong sign in
// the transcription or the docs' claim fails.
TEST(Gamma, GammaYTakesLqcdsBasisToOpenQcds) {
  const Complex<double> I(0, 1), m_I(0, -1);
  const Complex<double> o[5][4][4] = {
      {{0, 0, -1, 0}, {0, 0, 0, -1}, {-1, 0, 0, 0}, {0, -1, 0, 0}},  // openQCD gamma_0 (t)
      {{0, 0, 0, m_I}, {0, 0, m_I, 0}, {0, I, 0, 0}, {I, 0, 0, 0}},  // gamma_1 (x)
      {{0, 0, 0, -1}, {0, 0, 1, 0}, {0, 1, 0, 0}, {-1, 0, 0, 0}},    // gamma_2 (y)
      {{0, 0, m_I, 0}, {0, 0, 0, I}, {I, 0, 0, 0}, {0, m_I, 0, 0}},  // gamma_3 (z)
      {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, -1}}};   // gamma_5
  const int lqcd_of[5] = {3, 0, 1, 2, kGamma5};  // openQCD's index -> lqcd's direction
  Mat gy;
  dense(1, gy);
  for (int k = 0; k < 5; ++k) {
    Mat g, t, c;
    dense(lqcd_of[k], g);
    mul(gy, g, t);
    mul(t, gy, c);  // gamma_y is Hermitian and squares to 1
    const double sign = k == 4 ? -1 : 1;
    for (int r = 0; r < 4; ++r)
      for (int q = 0; q < 4; ++q) {
        EXPECT_EQ(c[r][q].re, sign * o[k][r][q].re) << "openQCD gamma " << k << " (" << r << ", " << q << ")";
        EXPECT_EQ(c[r][q].im, sign * o[k][r][q].im) << "openQCD gamma " << k << " (" << r << ", " << q << ")";
      }
  }
}

}  // namespace
}  // namespace lqcd
