// The coarse operator on a block of right-hand sides with the neighbours' vectors staged in shared memory
// (solvers/multigrid/coarse_apply_staged.hpp, issue 46) against the single-field operator (CoarseApplyKernel,
// another kernel): every column of the block equals its own application to float rounding, for 10 and 48
// components per site and widths that use every lane count (2, 3: four lanes; 5: eight; 12; 13, 16: sixteen;
// odd widths take the 8-byte staging, even ones the 16-byte one), on a coarse lattice 4 sites long in x (its
// forward and backward neighbours apart). Wider blocks are declined. Device only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solvers/multigrid/coarse_apply_staged.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "field_test_support.hpp"
#include "small_hierarchy.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

TEST(CoarseApplyStaged, EachColumnIsItsSingleApplication) {
#if LQCD_HAVE_CUDA
  if (!device_available()) GTEST_SKIP() << "no device";
  for (const int nv : {5, 24}) {
    const test::DeviceSinglePrecisionHierarchy h(nv);
    const CoarseOperator<float>& Dc = h.Dc();
    ASSERT_EQ(Dc.dof(), 2 * nv);
    for (const int n : {2, 3, 5, 12, 13, 16}) {
      SCOPED_TRACE("dof " + std::to_string(Dc.dof()) + ", N = " + std::to_string(n));
      CoarseBlockField<float> in(Dc.lattice(), Dc.dof(), n, Location::Device), got = in.like();
      std::vector<CoarseField<float>> u;
      for (int j = 0; j < n; ++j) {
        const CoarseField<double> r = test::random_coarse(Dc.lattice(), Dc.dof(), Location::Device, 900 + std::uint64_t(j));
        u.push_back(Dc.make_field());
        convert_precision(u.back(), r);
        pack_rhs(in, j, u.back());
      }
      ASSERT_TRUE(coarse_apply_staged_on_device(Dc.view(), in.view(), got.view()));
      CoarseField<float> col = Dc.make_field(), want = Dc.make_field();
      double worst = 0, scale = 0;
      for (int j = 0; j < n; ++j) {
        unpack_rhs(col, got, j);
        Dc.apply(want, u[std::size_t(j)]);
        worst = std::max(worst, test::largest_difference(col, want));
        scale = std::max(scale, std::sqrt(norm2(want) / double(want.size())));
      }
      EXPECT_GT(scale, 0);
      EXPECT_LE(worst, 1e-5 * scale) << "a right-hand side differs from its single application";
    }
    CoarseBlockField<float> wide(Dc.lattice(), Dc.dof(), kCoarseStagedMaxRhs + 1, Location::Device), out = wide.like();
    EXPECT_FALSE(coarse_apply_staged_on_device(Dc.view(), wide.view(), out.view()));
  }
#else
  GTEST_SKIP() << "no CUDA backend";
#endif
}

}  // namespace
}  // namespace lqcd
