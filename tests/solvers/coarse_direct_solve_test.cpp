// The multigrid's direct coarsest solve (solvers/multigrid/coarse_direct_solve.hpp) on the small hierarchy's
// coarse operator (2 x 2 x 2 x 4 sites, 8 components: 128 unknowns in even-odd form, 256 without; its
// columns made 48 at a time, so the last batch is partial in both, and all at once, the default): the
// solution of one field meets
// D_c x = b to rounding, and every column of a block gets its single solve.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "solvers/multigrid/coarse_direct_solve.hpp"
#include "field_test_support.hpp"
#include "small_hierarchy.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::largest_difference;
using test::random_coarse;

class CoarseDirectSolveTest : public test::SmallHierarchyTest {};

TEST_P(CoarseDirectSolveTest, SolvesTheCoarseSystemToRounding) {
  // 48 unit vectors per application: several, the last one partial; the default: all rows in one
  for (const int columns : {48, CoarseDirectSolve<double>::kColumnsPerApplication})
  for (const bool even_odd : {true, false}) {
    SCOPED_TRACE(std::string(even_odd ? "even-odd" : "whole lattice") + ", columns " + std::to_string(columns));
    std::unique_ptr<CoarseSchurComplement<double>> schur;
    if (even_odd) {
      schur = std::make_unique<CoarseSchurComplement<double>>(Dc(), false);
      schur->update();
    }
    CoarseDirectSolve<double> direct(Dc(), schur.get(), columns);
    EXPECT_EQ(direct.rows(), even_odd ? 128 : 256);
    direct.update();
    const CoarseField<double> b = random_coarse(Dc().lattice(), Dc().dof(), loc_, 7);
    CoarseField<double> x = Dc().make_field(), Dx = Dc().make_field();
    direct.solve(x, b);
    Dc().apply(Dx, x);
    EXPECT_LE(largest_difference(Dx, b), 1e-11);

    const int n = 5;
    CoarseBlockField<double> B(Dc().lattice(), Dc().dof(), n, loc_), X(Dc().lattice(), Dc().dof(), n, loc_);
    std::vector<CoarseField<double>> bj;
    for (int j = 0; j < n; ++j) {
      bj.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 20 + std::uint64_t(j)));
      pack_rhs(B, j, bj.back());
    }
    direct.solve(X, B);
    CoarseField<double> got = Dc().make_field();
    for (int j = 0; j < n; ++j) {
      SCOPED_TRACE("column " + std::to_string(j));
      unpack_rhs(got, X, j);
      direct.solve(x, bj[std::size_t(j)]);
      EXPECT_LE(largest_difference(got, x), 1e-12);
      Dc().apply(Dx, got);
      EXPECT_LE(largest_difference(Dx, bj[std::size_t(j)]), 1e-11);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, CoarseDirectSolveTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
