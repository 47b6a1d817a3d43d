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

}  // namespace
}  // namespace lqcd
