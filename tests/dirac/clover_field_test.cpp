// The clover field strength and the clover site term A: algebraic properties of F, an exactly known
// abelian field, A against a dense evaluation with explicit gamma matrices, A^{-1} A = 1,
// positivity and log det.
#include <gtest/gtest.h>

#include <cmath>

#include "clover_test_support.hpp"

namespace lqcd {
namespace {

using namespace clover_test;

// Independent of clover_kernels.hpp: F_{mu nu}(x) from the lexicographic links, the four leaves
// written out link by link (Luscher, Sint, Sommer, Weisz, Nucl. Phys. B 478 (1996) 365),
// F = (Q - Q^dag) / 8 minus its trace / 3.
SU3<double> field_strength_lex(const LexicographicGauge& lex, const int x[4], int mu, int nu) {
  auto site = [&](int dmu, int dnu) {
    int y[4] = {x[0], x[1], x[2], x[3]};
    y[mu] = (y[mu] + dmu + lex.dims[mu]) % lex.dims[mu];
    y[nu] = (y[nu] + dnu + lex.dims[nu]) % lex.dims[nu];
    return std::int64_t(y[0]) + lex.dims[0] * (y[1] + std::int64_t(lex.dims[1]) * (y[2] + std::int64_t(lex.dims[2]) * y[3]));
  };
  auto U = [&](int d, int dmu, int dnu) { return lex(site(dmu, dnu), d); };
  auto D = [&](int d, int dmu, int dnu) { return dagger(lex(site(dmu, dnu), d)); };
  SU3<double> q = U(mu, 0, 0) * U(nu, 1, 0) * D(mu, 0, 1) * D(nu, 0, 0);
  q += U(nu, 0, 0) * D(mu, -1, 1) * D(nu, -1, 0) * U(mu, -1, 0);
  q += D(mu, -1, 0) * D(nu, -1, -1) * U(mu, -1, -1) * U(nu, 0, -1);
  q += D(nu, 0, -1) * U(mu, 0, -1) * U(nu, 1, -1) * D(mu, 0, 0);
  SU3<double> f = (q - dagger(q)) * 0.125;
  const Complex<double> t = trace(f) * (1.0 / 3.0);
  for (int i = 0; i < 3; ++i) f.m[i][i] -= t;
  return f;
}

TEST(CloverFieldStrength, AntisymmetricAntiHermitianTracelessAndMatchesLeaves) {
  const Geometry geom = Geometry::single_process({4, 4, 6, 4});
  const GaugeField<double> U = rough_gauge(geom, Location::Host);
  const LexicographicGauge lex = to_lexicographic(U);
  const GaugeView<double> v = U.view();
  double largest = 0, worst_sym = 0, worst_herm = 0, worst_trace = 0, worst_lex = 0;
  for (std::int64_t i = 0; i < geom.volume(); ++i) {
    int x[4];
    v.idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = 0; nu < 4; ++nu) {
        if (mu == nu) continue;
        const SU3<double> f = clover_field_strength(v, x, mu, nu);
        worst_sym = std::max(worst_sym, test::max_abs_diff(f, SU3<double>::zero() - clover_field_strength(v, x, nu, mu)));
        worst_herm = std::max(worst_herm, test::max_abs_diff(f, SU3<double>::zero() - dagger(f)));
        worst_trace = std::max(worst_trace, abs(trace(f)));
        worst_lex = std::max(worst_lex, test::max_abs_diff(f, field_strength_lex(lex, x, mu, nu)));
        largest = std::max(largest, test::max_abs_diff(f, SU3<double>::zero()));
      }
  }
  EXPECT_GT(largest, 0.1);  // a rough field: F is far from zero
  EXPECT_LT(worst_sym, 1e-14);
  EXPECT_LT(worst_herm, 1e-14);
  EXPECT_LT(worst_trace, 1e-14);
  EXPECT_LT(worst_lex, 1e-14);
}

// A constant abelian field in the (mu, nu) plane: U_mu(x) = exp(i B x_nu T), T = diag(1, -1, 0),
// other links 1, B = 2 pi n / L_nu (periodic). Every plaquette is U_mu(x) U_mu(x + nu)^dag = exp(-i B T),
// so F_{mu nu} = (4 e^{-iBT} - 4 e^{iBT}) / 8 = -i sin(B T) at every site, F_{nu mu} = -F_{mu nu},
// and the other components vanish. The clover term is then diagonal:
//   A(s, c) = 1 + i kappa c_sw sigma_{mu nu}(s) F(c) + 2 i kappa mu gamma_5(s)
// with sigma_{mu nu} = i gamma_mu gamma_nu diagonal for (mu, nu) = (x, y), (z, t).
TEST(CloverFieldStrength, ConstantAbelianField) {
  const Geometry geom = Geometry::single_process({6, 4, 4, 8});
  // sigma_xy = diag(1, -1, 1, -1) = -sigma_yx, sigma_zt = diag(-1, 1, 1, -1) in the DeGrand-Rossi basis
  // (from the matrices written out in math/gamma.hpp).
  struct Case {
    int mu, nu, n;
    double sigma[4];
  };
  for (const Case& cs : {Case{0, 1, 1, {1, -1, 1, -1}}, Case{2, 3, 3, {-1, 1, 1, -1}}, Case{1, 0, 1, {-1, 1, -1, 1}}}) {
    const double B = 2 * M_PI * cs.n / geom.local[cs.nu];
    LexicographicGauge lex(geom.local);
    const SiteIndexer idx = SiteIndexer::from(geom);
    for (std::int64_t i = 0; i < geom.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      SU3<double> u = SU3<double>::identity();
      u.m[0][0] = Complex<double>(std::cos(B * x[cs.nu]), std::sin(B * x[cs.nu]));
      u.m[1][1] = conj(u.m[0][0]);
      lex(i, cs.mu) = u;
    }
    const GaugeField<double> U = to_gauge_field(lex, geom, Location::Host);
    SU3<double> expected = SU3<double>::zero();
    expected.m[0][0] = Complex<double>(0, -std::sin(B));
    expected.m[1][1] = Complex<double>(0, std::sin(B));
    double worst = 0;
    for (std::int64_t i = 0; i < geom.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
          if (a == b) continue;
          SU3<double> e = SU3<double>::zero();
          if (a == cs.mu && b == cs.nu) e = expected;
          if (a == cs.nu && b == cs.mu) e = SU3<double>::zero() - expected;
          worst = std::max(worst, test::max_abs_diff(clover_field_strength(U.view(), x, a, b), e));
        }
    }
    EXPECT_LT(worst, 1e-15) << "plane " << cs.mu << cs.nu;

    const double kappa = 0.13, csw = 1.9;
    for (double mu_tm : {0.0, 0.2}) {
      const CloverField<double> A(U, kappa, csw, mu_tm);
      const CloverView<double> view = A.view();
      const double ev[3] = {-std::sin(B), std::sin(B), 0};  // F = i diag(ev)
      Mat12 dense{};
      double log_det_site = 0;
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c) {
          // 1 + i kappa csw sigma(s) (i ev(c)) + 2 i kappa mu gamma_5(s)
          const Complex<double> d(1 - kappa * csw * cs.sigma[s] * ev[c], 2 * kappa * mu_tm * (s < 2 ? 1 : -1));
          dense[s * 3 + c][s * 3 + c] = d;
          log_det_site += std::log(abs(d));
        }
      double worst_a = 0;
      for (int p = 0; p < 2; ++p)
        for (std::int64_t s = 0; s < geom.half_volume(); ++s)
          worst_a = std::max(worst_a, max_diff(clover_matrix(view, p, s, false, false), dense));
      EXPECT_LT(worst_a, 1e-15) << "plane " << cs.mu << cs.nu << " mu = " << mu_tm;
      EXPECT_NEAR(A.log_det(), geom.volume() * log_det_site, 1e-12 * geom.volume());
      EXPECT_NEAR(A.log_det(0), A.log_det(1), 1e-12 * geom.volume());
    }
  }
}

// The Euclidean gamma matrices of the DeGrand-Rossi basis written out densely (as in math/gamma.hpp's
// comment), independently of SparseGamma.
using Mat4 = std::array<std::array<Complex<double>, 4>, 4>;
Mat4 dense_gamma(int mu) {
  const Complex<double> I(0, 1), O(0), P(1), M(-1), mI(0, -1);
  switch (mu) {
    case 0: return Mat4{{{O, O, O, I}, {O, O, I, O}, {O, mI, O, O}, {mI, O, O, O}}};
    case 1: return Mat4{{{O, O, O, M}, {O, O, P, O}, {O, P, O, O}, {M, O, O, O}}};
    case 2: return Mat4{{{O, O, I, O}, {O, O, O, mI}, {mI, O, O, O}, {O, I, O, O}}};
    default: return Mat4{{{O, O, P, O}, {O, O, O, P}, {P, O, O, O}, {O, P, O, O}}};
  }
}
Mat4 mul4(const Mat4& a, const Mat4& b) {
  Mat4 c{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// A = 1 + 2 kappa c_sw (i/4) sum_{mu != nu} sigma_{mu nu} (x) F_{mu nu} + 2 i kappa mu gamma_5 (x) 1,
// sigma_{mu nu} = (i/2) [gamma_mu, gamma_nu], assembled as a dense 12x12 matrix, against the stored
// blocks; A^dag, A^{-1} against the adjoint and the product.
TEST(CloverField, MatchesDenseEvaluation) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 6});
  const GaugeField<double> U = rough_gauge(geom, Location::Host);
  const LexicographicGauge lex = to_lexicographic(U);
  const double kappa = 0.133, csw = 1.769;
  const Mat4 g5 = mul4(mul4(dense_gamma(0), dense_gamma(1)), mul4(dense_gamma(2), dense_gamma(3)));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) ASSERT_LT(abs(g5[i][j] - Complex<double>(i == j ? (i < 2 ? 1 : -1) : 0)), 1e-15);
  for (double mu_tm : {0.0, 0.1}) {
    const CloverField<double> A(U, kappa, csw, mu_tm);
    const CloverView<double> view = A.view();
    const SiteIndexer idx = SiteIndexer::from(geom);
    double worst = 0, worst_dag = 0, worst_inv = 0;
    for (std::int64_t site = 0; site < geom.volume(); site += 7) {
      int x[4];
      idx.coords_lex(site, x);
      Mat12 dense = identity12();
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c)
          dense[s * 3 + c][s * 3 + c] += Complex<double>(0, 2 * kappa * mu_tm) * g5[s][s];
      for (int mu = 0; mu < 4; ++mu)
        for (int nu = 0; nu < 4; ++nu) {
          if (mu == nu) continue;
          const Mat4 gg = mul4(dense_gamma(mu), dense_gamma(nu)), hh = mul4(dense_gamma(nu), dense_gamma(mu));
          const SU3<double> f = field_strength_lex(lex, x, mu, nu);
          for (int s = 0; s < 4; ++s)
            for (int t = 0; t < 4; ++t) {
              const Complex<double> sigma = Complex<double>(0, 0.5) * (gg[s][t] - hh[s][t]);
              const Complex<double> coef = Complex<double>(0, 2 * kappa * csw / 4) * sigma;
              for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) dense[s * 3 + a][t * 3 + b] += coef * f.m[a][b];
            }
        }
      const int p = SiteIndexer::parity(x);
      const std::int64_t cb = idx.cb_index(x);
      worst = std::max(worst, max_diff(clover_matrix(view, p, cb, false, false), dense));
      worst_dag = std::max(worst_dag, max_diff(clover_matrix(view, p, cb, false, true), adjoint(dense)));
      worst_inv = std::max(worst_inv, max_diff(mul(dense, clover_matrix(view, p, cb, true, false)), identity12()));
    }
    EXPECT_LT(worst, 1e-13) << "mu = " << mu_tm;
    EXPECT_LT(worst_dag, 1e-13) << "mu = " << mu_tm;
    EXPECT_LT(worst_inv, 1e-12) << "mu = " << mu_tm;
  }
}

// A^{-1} A = A A^{-1} = 1 (and for the adjoints) at every site of a rough field; with mu = 0 each
// chiral block is Hermitian and positive definite (Cholesky succeeds), and log |det A| agrees with
// an independent elimination.
TEST(CloverField, InverseAndPositivity) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, Location::Host);
  const double kappa = 0.133, csw = 1.769;
  for (double mu_tm : {0.0, 0.1}) {
    const CloverField<double> A(U, kappa, csw, mu_tm);
    const CloverView<double> view = A.view();
    double worst = 0, worst_herm = 0, worst_offblock = 0, log_det = 0;
    int not_pd = 0;
    for (int p = 0; p < 2; ++p)
      for (std::int64_t s = 0; s < geom.half_volume(); ++s) {
        const Mat12 a = clover_matrix(view, p, s, false, false), ai = clover_matrix(view, p, s, true, false);
        const Mat12 ad = clover_matrix(view, p, s, false, true), adi = clover_matrix(view, p, s, true, true);
        const Mat12 one = identity12();
        worst = std::max({worst, max_diff(mul(a, ai), one), max_diff(mul(ai, a), one), max_diff(mul(ad, adi), one),
                          max_diff(mul(adi, ad), one)});
        for (int i = 0; i < 12; ++i)
          for (int j = 0; j < 12; ++j)
            if ((i < 6) != (j < 6)) worst_offblock = std::max(worst_offblock, abs(a[i][j]));
        for (int b = 0; b < 2; ++b) {
          std::array<std::array<Complex<double>, 12>, 12> blk{};
          for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) blk[i][j] = a[6 * b + i][6 * b + j];
          double ld = 0;
          EXPECT_TRUE(log_abs_det(blk, 6, ld));
          log_det += ld;
          if (mu_tm != 0) continue;
          // Hermitian, and a Cholesky factorisation with positive pivots exists.
          for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) worst_herm = std::max(worst_herm, abs(blk[i][j] - conj(blk[j][i])));
          double l[6][6][2] = {};
          for (int j = 0; j < 6 && not_pd == 0; ++j) {
            double d = blk[j][j].re;
            for (int k = 0; k < j; ++k) d -= l[j][k][0] * l[j][k][0] + l[j][k][1] * l[j][k][1];
            if (!(d > 0)) {
              ++not_pd;
              break;
            }
            const double ljj = std::sqrt(d);
            for (int i = j + 1; i < 6; ++i) {
              Complex<double> z = blk[i][j];
              for (int k = 0; k < j; ++k) z -= Complex<double>(l[i][k][0], l[i][k][1]) * Complex<double>(l[j][k][0], -l[j][k][1]);
              l[i][j][0] = z.re / ljj;
              l[i][j][1] = z.im / ljj;
            }
          }
        }
      }
    EXPECT_LT(worst, 1e-12) << "mu = " << mu_tm;
    EXPECT_LT(worst_offblock, 1e-15) << "mu = " << mu_tm;  // block diagonal in chirality
    const CloverStats st = A.stats();
    EXPECT_NEAR(st.log_det, log_det, 1e-10 * std::abs(log_det) + 1e-12);
    EXPECT_NEAR(A.log_det(0) + A.log_det(1), st.log_det, 1e-12 * std::abs(log_det) + 1e-12);
    if (mu_tm == 0) {
      EXPECT_LT(worst_herm, 1e-15);
      EXPECT_EQ(not_pd, 0);
      EXPECT_GT(st.min_pivot, 0.0);
      EXPECT_EQ(st.bad_blocks, 0.0);
    }
    EXPECT_GT(std::abs(log_det), 1e-3);  // a rough field: A is far from 1
  }
}

// CloverView::entry (one entry of a stored block, for kernels that index at run time: the clover force's
// insertion) is the entry of the block load() gives, for H_0, H_1, K_0, K_1 on both parities.
TEST(CloverField, EntryIsTheLoadedBlocksEntry) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  const GaugeField<double> U = rough_gauge(geom, Location::Host);
  const CloverField<double> A(U, 0.133, 1.769, 0.1);
  const CloverView<double> view = A.view();
  double worst = 0, largest_off = 0;
  for (int p = 0; p < 2; ++p)
    for (std::int64_t s = 0; s < geom.half_volume(); s += 7)
      for (int which = 0; which < 4; ++which) {
        const HermitianBlock<double> h = view.load(p, s, which);
        for (int i = 0; i < 6; ++i)
          for (int j = 0; j < 6; ++j) {
            worst = std::max(worst, abs(view.entry(p, s, which, i, j) - h.at(i, j)));
            if (i != j) largest_off = std::max(largest_off, abs(h.at(i, j)));
          }
      }
  EXPECT_EQ(worst, 0.0);
  EXPECT_GT(largest_off, 1e-3);  // a rough field: the blocks are not diagonal
}

// Unit links: F = 0, A = 1 + 2 i kappa mu gamma_5 at every site for any c_sw.
TEST(CloverField, UnitGaugeIsTwistedIdentity) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  for (double csw : {1.0, 2.5}) {
    const CloverField<double> A(U, 0.12, csw, 0.3);
    Mat12 expected = identity12();
    for (int i = 0; i < 12; ++i) expected[i][i] = Complex<double>(1, 2 * 0.12 * 0.3 * (i < 6 ? 1 : -1));
    double worst = 0;
    for (int p = 0; p < 2; ++p)
      for (std::int64_t s = 0; s < geom.half_volume(); ++s)
        worst = std::max(worst, max_diff(clover_matrix(A.view(), p, s, false, false), expected));
    EXPECT_LT(worst, 1e-15);
  }
}

}  // namespace
}  // namespace lqcd
