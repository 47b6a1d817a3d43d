// The improvement of test vectors (solvers/multigrid/multigrid_level_steps.hpp): with the corrections of
// several vectors at once (improve_test_vectors_blocked, the setup's block cycles) it gives what one
// vector at a time gives (improve_test_vectors), vector k's correction depending on x_k alone, and the
// vectors come out orthonormal. On the small hierarchy's coarse operator, the correction two MR steps.
#include <gtest/gtest.h>

#include <vector>

#include "solvers/multigrid/multigrid_level_steps.hpp"
#include "field_test_support.hpp"
#include "small_hierarchy.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::largest_difference;
using test::random_coarse;

class TestVectorSetupTest : public test::SmallHierarchyTest {};

TEST_P(TestVectorSetupTest, BlockedCorrectionsEqualOneAtATime) {
  const auto apply = [this](CoarseField<double>& out, const CoarseField<double>& in) { Dc().apply(out, in); };
  CoarseField<double> r_work = Dc().make_field(), p_work = Dc().make_field();
  const auto correct = [&](CoarseField<double>& z, const CoarseField<double>& r) {
    minimal_residual_steps(apply, z, r, r_work, p_work, 2);
  };
  const auto correct_block = [&](const std::vector<CoarseField<double>*>& z, const std::vector<const CoarseField<double>*>& r) {
    for (std::size_t i = 0; i < z.size(); ++i) correct(*z[i], *r[i]);
  };
  const int n = 7;
  std::vector<CoarseField<double>> one, blocked;
  for (int k = 0; k < n; ++k) {
    one.push_back(random_coarse(Dc().lattice(), Dc().dof(), loc_, 40 + std::uint64_t(k)));
    blocked.push_back(one.back().clone(loc_));
  }
  CoarseField<double> res = Dc().make_field(), z = Dc().make_field();
  improve_test_vectors(apply, correct, one, res, z, "a test");
  std::vector<CoarseField<double>> rs, zs;  // width 3: blocks of 3, 3 and 1
  for (int i = 0; i < 3; ++i) {
    rs.push_back(Dc().make_field());
    zs.push_back(Dc().make_field());
  }
  improve_test_vectors_blocked(apply, correct_block, blocked, rs, zs, "a test");
  for (int k = 0; k < n; ++k) {
    SCOPED_TRACE("vector " + std::to_string(k));
    EXPECT_LE(largest_difference(blocked[std::size_t(k)], one[std::size_t(k)]), 1e-12);
    for (int j = 0; j <= k; ++j) {
      const Complex<double> d = dot(blocked[std::size_t(j)], blocked[std::size_t(k)]);
      EXPECT_NEAR(d.re, j == k ? 1.0 : 0.0, 1e-12);
      EXPECT_NEAR(d.im, 0.0, 1e-12);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Locations, TestVectorSetupTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
