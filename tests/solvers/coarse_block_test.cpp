// The multigrid's coarse level on N right-hand sides at once (issue 46; solvers/multigrid/coarse_block_field.hpp,
// the block forms of solvers/multigrid/coarse_operator.hpp and solvers/multigrid/coarse_schur.hpp,
// solvers/multigrid/coarse_block_gcr.hpp): packing and unpacking a column is the identity; the coarse operator
// and its even-odd form on a block give each column its single application bit for bit, for widths N
// that run every tile of right-hand sides (coarse_rhs_tile: one tile, several, lanes past N clamped);
// and the block GCR gives every column the answer of its own solve:
// the same iteration count as the one-at-a-time coarse GCR, its true residual within the tolerance, a
// zero column stays zero, and a column a thousand times larger (its own target) converges with it.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <set>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_block_gcr.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "solvers/multigrid/multigrid_level_steps.hpp"
#include "field_test_support.hpp"
#include "small_hierarchy.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::largest_difference;
using test::random_coarse;

class CoarseBlockTest : public test::SmallHierarchyTest {
 protected:
  void every_column_gets_its_own_solve(int n);
};

// Widths that run every tile of kRhsTiles: 3 (T = 4, a lane clamped), 5 (8, clamped), 12 (12), 13
// (16, clamped), 17 (five tiles of 4, the last clamped), 32 and 64 (tiles of 16).
const std::vector<int> kWidths = {1, 3, 5, 12, 13, 17, 32, 64};

TEST(CoarseRhsTile, TheTestWidthsRunEveryTile) {
  std::set<int> used;
  for (const int n : kWidths) used.insert(coarse_rhs_tile(n));
  EXPECT_EQ(used, std::set<int>(std::begin(kRhsTiles), std::end(kRhsTiles)));
}

TEST_P(CoarseBlockTest, OperatorOnEachColumnEqualsItsSingleApplication) {
  for (const int n : kWidths) {
    SCOPED_TRACE("N = " + std::to_string(n) + ", tile " + std::to_string(coarse_rhs_tile(n)));
    CoarseBlockField<double> in(Dc().lattice(), Dc().dof(), n, loc_), out(Dc().lattice(), Dc().dof(), n, loc_);
    std::vector<CoarseField<double>> u;
    for (int j = 0; j < n; ++j) {
      u.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 100 + std::uint64_t(j)));
      pack_rhs(in, j, u.back());
    }
    Dc().apply(out, in);
    CoarseField<double> got = Dc().make_field(), back = Dc().make_field(), want = Dc().make_field();
    double worst = 0, roundtrip = 0;
    for (int j = 0; j < n; ++j) {
      unpack_rhs(back, in, j);
      roundtrip = std::max(roundtrip, largest_difference(back, u[std::size_t(j)]));
      unpack_rhs(got, out, j);
      Dc().apply(want, u[std::size_t(j)]);
      worst = std::max(worst, largest_difference(got, want));
    }
    EXPECT_EQ(roundtrip, 0.0);
    EXPECT_EQ(worst, 0.0) << "a right-hand side differs from its single application";
  }
  CoarseBlockField<double> three(Dc().lattice(), Dc().dof(), 3, loc_), four(Dc().lattice(), Dc().dof(), 4, loc_);
  EXPECT_THROW(Dc().apply(four, three), Error);
}

TEST_P(CoarseBlockTest, EvenOddBlockEqualsSingleApplications) {
  for (const bool half : {false, true}) {
    SCOPED_TRACE(half ? "16-bit blocks" : "double blocks");
    CoarseSchurComplement<double> schur(Dc(), half), single(Dc(), half);
    schur.update();
    single.update();
    for (const int n : kWidths) {
      SCOPED_TRACE("N = " + std::to_string(n));
      CoarseBlockField<double> b(Dc().lattice(), Dc().dof(), n, loc_), rhs = b.like(), out = b.like();
      std::vector<CoarseField<double>> u;
      for (int j = 0; j < n; ++j) {
        u.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 300 + std::uint64_t(j)));
        pack_rhs(b, j, u.back());
      }
      schur.prepare(rhs, b);
      schur.apply(out, rhs);
      schur.reconstruct(out);
      CoarseField<double> want = Dc().make_field(), tmp = Dc().make_field(), got = Dc().make_field();
      double worst = 0;
      for (int j = 0; j < n; ++j) {
        single.prepare(tmp, u[std::size_t(j)]);
        single.apply(want, tmp);
        single.reconstruct(want);
        unpack_rhs(got, out, j);
        worst = std::max(worst, largest_difference(got, want));
      }
      EXPECT_EQ(worst, 0.0) << "a column of the block differs from its single even-odd application";
    }
  }
}

// D_c from the even-odd form's blocks, A_0 (1 + H-hat) (CoarseSchurComplement::apply_full): D_c itself to
// rounding with blocks in double, to the 16-bit blocks' rounding (2^-15 of each block's largest entry) with
// half ones.
TEST_P(CoarseBlockTest, FullOperatorFromTheEvenOddBlocksIsTheOperator) {
  for (const bool half : {false, true}) {
    SCOPED_TRACE(half ? "16-bit blocks" : "double blocks");
    CoarseSchurComplement<double> schur(Dc(), half);
    schur.update();
    for (const int n : {1, 12}) {
      CoarseBlockField<double> in(Dc().lattice(), Dc().dof(), n, loc_), got = in.like(), want = in.like();
      for (int j = 0; j < n; ++j)
        pack_rhs(in, j, random_coarse(Dc().lattice(), Dc().dof(), loc_, 500 + std::uint64_t(j)));
      schur.apply_full(got, in);
      Dc().apply(want, in);
      CoarseField<double> g = Dc().make_field(), w = Dc().make_field(), zero = Dc().make_field();
      set_zero(zero);
      double worst = 0, scale = 0;
      for (int j = 0; j < n; ++j) {
        unpack_rhs(g, got, j);
        unpack_rhs(w, want, j);
        worst = std::max(worst, largest_difference(g, w));
        scale = std::max(scale, largest_difference(w, zero));
      }
      EXPECT_GT(scale, 0.0);
      if (half) {
        EXPECT_GT(worst, 0.0) << "the 16-bit blocks were not used";
        EXPECT_LT(worst, 2e-3 * scale) << "N = " << n;
      } else {
        EXPECT_LT(worst, 1e-12 * scale) << "N = " << n;
      }
    }
  }
}

TEST_P(CoarseBlockTest, EveryColumnGetsItsOwnSolve) {
  for (const int n : {5, 12}) every_column_gets_its_own_solve(n);
}

void CoarseBlockTest::every_column_gets_its_own_solve(int n) {
  SCOPED_TRACE(std::to_string(n) + " columns");
  const double tol = 1e-10;
  CoarseBlockField<double> b(Dc().lattice(), Dc().dof(), n, loc_), x = b.like();
  std::vector<CoarseField<double>> u;
  for (int j = 0; j < n; ++j) u.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 500 + std::uint64_t(j)));
  set_zero(u[2]);                                  // a zero right-hand side
  u[3].copy_from(u[0]);
  scale(Complex<double>(1e3), u[3]);               // column 0 a thousand times larger
  for (int j = 0; j < n; ++j) pack_rhs(b, j, u[std::size_t(j)]);
  GcrControl c;
  c.tolerance = tol;
  c.max_iterations = 400;
  c.restart = 8;
  CoarseBlockGcr<double> block(b, c.restart);
  const auto apply_block = [this](CoarseBlockField<double>& out, const CoarseBlockField<double>& in) {
    Dc().apply(out, in);
  };
  const std::vector<GcrOutcome> got = block.solve(apply_block, x, b, c);
  ASSERT_EQ(got.size(), std::size_t(n));

  CoarseGcr<double> one(u[0], c.restart);
  const auto apply = [this](CoarseField<double>& out, const CoarseField<double>& in) { Dc().apply(out, in); };
  CoarseField<double> xj = Dc().make_field(), want = Dc().make_field(), r = Dc().make_field();
  for (int j = 0; j < n; ++j) {
    SCOPED_TRACE("column " + std::to_string(j));
    unpack_rhs(xj, x, j);
    EXPECT_TRUE(got[std::size_t(j)].converged);
    if (j == 2) {
      EXPECT_EQ(norm2(xj), 0.0);
      EXPECT_EQ(got[std::size_t(j)].iterations, 0);
      continue;
    }
    // The true residual of this column, from the single operator.
    Dc().apply(r, xj);
    scale(Complex<double>(-1.0), r);
    axpy(Complex<double>(1.0), u[std::size_t(j)], r);
    EXPECT_LE(std::sqrt(norm2(r) / norm2(u[std::size_t(j)])), tol);
    const GcrOutcome single = one.solve(apply, want, u[std::size_t(j)], c);
    EXPECT_GT(single.iterations, 10);
    EXPECT_EQ(got[std::size_t(j)].iterations, single.iterations);
    EXPECT_LE(largest_difference(xj, want), 1e-7 * std::sqrt(norm2(want)));
  }
  EXPECT_EQ(got[3].iterations, got[0].iterations);
}

// MR steps on a block from a guess x0 (the K-cycle's smoothing after the third-level correction) are,
// column by column, x0 plus the one-field MR steps (multigrid_level_steps.hpp) on the residual b - A x0;
// the block's residual() is b - A x; a zero column stays zero.
TEST_P(CoarseBlockTest, MinimalResidualStepsFromAGuessAreEachColumnsOwn) {
  const int n = 5, steps = 4;
  CoarseBlockField<double> b(Dc().lattice(), Dc().dof(), n, loc_), x = b.like();
  std::vector<CoarseField<double>> u, x0;
  for (int j = 0; j < n; ++j) {
    u.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 700 + std::uint64_t(j)));
    x0.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 800 + std::uint64_t(j)));
  }
  set_zero(u[2]);
  set_zero(x0[2]);
  for (int j = 0; j < n; ++j) {
    pack_rhs(b, j, u[std::size_t(j)]);
    pack_rhs(x, j, x0[std::size_t(j)]);
  }
  CoarseBlockGcr<double> block(b, 1);
  block.minimal_residual_steps(
      [this](CoarseBlockField<double>& out, const CoarseBlockField<double>& in) { Dc().apply(out, in); }, x, b, steps);

  const auto apply = [this](CoarseField<double>& out, const CoarseField<double>& in) { Dc().apply(out, in); };
  CoarseField<double> r0 = Dc().make_field(), e = Dc().make_field(), rw = Dc().make_field(), pw = Dc().make_field();
  CoarseField<double> got = Dc().make_field(), res = Dc().make_field(), want_res = Dc().make_field();
  for (int j = 0; j < n; ++j) {
    SCOPED_TRACE("column " + std::to_string(j));
    apply(r0, x0[std::size_t(j)]);
    scale(Complex<double>(-1.0), r0);
    axpy(Complex<double>(1.0), u[std::size_t(j)], r0);
    minimal_residual_steps(apply, e, r0, rw, pw, steps);
    axpy(Complex<double>(1.0), x0[std::size_t(j)], e);  // the reference: x0 + MR(b - A x0)
    unpack_rhs(got, x, j);
    unpack_rhs(res, block.residual(), j);
    if (j == 2) {
      EXPECT_EQ(norm2(got), 0.0);
      EXPECT_EQ(norm2(res), 0.0);
      continue;
    }
    EXPECT_LE(largest_difference(got, e), 1e-12 * std::sqrt(norm2(e)));
    EXPECT_GT(largest_difference(got, x0[std::size_t(j)]), 1e-3 * std::sqrt(norm2(e) / double(e.size())));
    apply(want_res, got);
    scale(Complex<double>(-1.0), want_res);
    axpy(Complex<double>(1.0), u[std::size_t(j)], want_res);
    EXPECT_LE(largest_difference(res, want_res), 1e-12 * std::sqrt(norm2(u[std::size_t(j)])));
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, CoarseBlockTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
