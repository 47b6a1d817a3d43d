// The coarse solves' deflation (solvers/multigrid/coarse_deflation.hpp): GCR augmented by a fixed space keeps
// solving A itself. A right-hand side A w with w in the candidates' span is solved by the start's
// projection alone; random right-hand sides reach the tolerance on the true residual of A with the same
// answer as the undeflated solve; the block GCR deflated gives every column its single deflated solve;
// and the multigrid with multigrid.coarse_deflation (candidates from its test vectors) converges, one
// right-hand side and a block, in the even-odd and the full-lattice coarse form.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "fields/spinor_blas.hpp"
#include "solvers/multigrid/coarse_block_gcr.hpp"
#include "solvers/multigrid/coarse_deflation.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "field_test_support.hpp"
#include "small_hierarchy.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::largest_difference;
using test::random_coarse;

class CoarseDeflationTest : public test::SmallHierarchyTest {
 protected:
  // k random candidates.
  std::vector<CoarseField<double>> candidates(int k, std::uint64_t seed) const {
    std::vector<CoarseField<double>> w;
    for (int i = 0; i < k; ++i) w.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, seed + std::uint64_t(i)));
    return w;
  }
  CoarseDeflation<double> deflation(int k, std::uint64_t seed) const {
    return CoarseDeflation<double>([this](CoarseField<double>& out, const CoarseField<double>& in) { Dc().apply(out, in); },
                                   candidates(k, seed));
  }
  double true_residual(const CoarseField<double>& x, const CoarseField<double>& b) const {
    CoarseField<double> r = Dc().make_field();
    Dc().apply(r, x);
    scale(Complex<double>(-1.0), r);
    axpy(Complex<double>(1.0), b, r);
    return std::sqrt(norm2(r) / norm2(b));
  }
};

const auto kApply = [](const CoarseOperator<double>& A) {
  return [&A](CoarseField<double>& out, const CoarseField<double>& in) { A.apply(out, in); };
};

TEST_P(CoarseDeflationTest, ARightHandSideInTheDeflationSpaceIsSolvedByTheProjection) {
  CoarseDeflation<double> d = deflation(6, 700);
  ASSERT_EQ(d.size(), 6);
  // b = A w, w = sum_i c_i w_i.
  const std::vector<CoarseField<double>> w = candidates(6, 700);
  CoarseField<double> want = Dc().make_field(), b = Dc().make_field(), x = Dc().make_field();
  set_zero(want);
  for (int i = 0; i < 6; ++i) axpy(Complex<double>(0.5 + i, 1.0 - 0.3 * i), w[std::size_t(i)], want);
  Dc().apply(b, want);
  CoarseGcr<double> gcr(b, 8);
  gcr.set_deflation(&d);
  GcrControl c;
  c.tolerance = 1e-10;
  c.max_iterations = 1;  // the projection, and one iteration on a residual of rounding size
  c.restart = 8;
  gcr.solve(kApply(Dc()), x, b, c);  // (its tolerance is relative to the rounding the projection leaves)
  EXPECT_LE(largest_difference(x, want), 1e-10 * std::sqrt(norm2(want)));
}

TEST_P(CoarseDeflationTest, DeflatedSolvesEqualTheUndeflatedAndEachColumnItsSingleSolve) {
  CoarseDeflation<double> d = deflation(6, 800);
  GcrControl c;
  c.tolerance = 1e-10;
  c.max_iterations = 400;
  c.restart = 8;
  const int n = 5;
  CoarseBlockField<double> b(Dc().lattice(), Dc().dof(), n, loc_), x = b.like();
  std::vector<CoarseField<double>> u;
  for (int j = 0; j < n; ++j) u.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 900 + std::uint64_t(j)));
  for (int j = 0; j < n; ++j) pack_rhs(b, j, u[std::size_t(j)]);
  CoarseBlockGcr<double> block(b, c.restart);
  block.set_deflation(&d);
  const std::vector<GcrOutcome> got = block.solve(
      [this](CoarseBlockField<double>& out, const CoarseBlockField<double>& in) { Dc().apply(out, in); }, x, b, c);

  CoarseGcr<double> plain(u[0], c.restart), deflated(u[0], c.restart);
  deflated.set_deflation(&d);
  CoarseField<double> xj = Dc().make_field(), want = Dc().make_field(), xd = Dc().make_field();
  for (int j = 0; j < n; ++j) {
    SCOPED_TRACE("column " + std::to_string(j));
    const GcrOutcome undeflated = plain.solve(kApply(Dc()), want, u[std::size_t(j)], c);
    const GcrOutcome single = deflated.solve(kApply(Dc()), xd, u[std::size_t(j)], c);
    ASSERT_TRUE(undeflated.converged && single.converged && got[std::size_t(j)].converged);
    EXPECT_LE(true_residual(xd, u[std::size_t(j)]), c.tolerance);
    EXPECT_LE(largest_difference(xd, want), 1e-7 * std::sqrt(norm2(want)));
    unpack_rhs(xj, x, j);
    EXPECT_LE(true_residual(xj, u[std::size_t(j)]), c.tolerance);
    EXPECT_EQ(got[std::size_t(j)].iterations, single.iterations);
    EXPECT_LE(largest_difference(xj, xd), 1e-7 * std::sqrt(norm2(xd)));
  }
}

TEST_P(CoarseDeflationTest, TheMultigridWithDeflatedCoarseSolvesConverges) {
  for (const bool even_odd : {true, false}) {
    SCOPED_TRACE(even_odd ? "even-odd coarse solves" : "full-lattice coarse solves");
    MultigridParams p = mp_;
    p.coarse_deflation = true;
    p.coarse_even_odd = even_odd;
    MultigridPreconditioner<double> mg(*ops_->full, p);
    mg.setup();
    const Geometry& geom = ops_->full->geometry();
    std::vector<SpinorField<double>> b, x;
    for (int j = 0; j < 3; ++j) {
      b.push_back(to_spinor_field(test::random_spinor(geom, 40 + std::uint64_t(j)), geom, loc_));
      x.push_back(ops_->full->make_field());
      set_zero(x.back());
    }
    SolverParams sp;
    sp.tolerance = 1e-10;
    sp.max_iterations = 200;
    const std::vector<SolverResult> got = solve_multigrid(*ops_->full, mg, x, b, sp);
    for (int j = 0; j < 3; ++j) {
      EXPECT_TRUE(got[std::size_t(j)].converged);
      EXPECT_LE(test::relative_residual(*ops_->full, x[std::size_t(j)], b[std::size_t(j)]), sp.tolerance);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, CoarseDeflationTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
