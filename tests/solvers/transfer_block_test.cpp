// The multigrid transfer on N fields at once (issue 46; TransferOperator::restrict_block and
// prolong_block, solvers/multigrid/transfer_block_kernels.hpp): every column equals the single-field restriction
// or prolongation bit for bit, in double and in single precision (where the fine fields store their
// components in pairs), for widths that run every tile of right-hand sides, into a coarse block wider
// than the fields (its further columns untouched).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <type_traits>
#include <vector>

#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/transfer_operator.hpp"
#include "field_test_support.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

// The largest |a - b| over the components of two fine fields (0: equal bit for bit).
template <typename Real>
double largest_field_difference(const SpinorField<Real>& a, const SpinorField<Real>& b) {
  const SpinorField<double> ad = test::converted<double>(a.clone(Location::Host));
  const SpinorField<double> bd = test::converted<double>(b.clone(Location::Host));
  return test::max_diff(to_lexicographic(ad), to_lexicographic(bd));
}

template <typename Real>
void every_column_equals_its_single_transfer(Location loc) {
  // 4^3 x 8 with 2^4 blocks: 16 coarse sites, 3 test vectors (6 coarse components per site).
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const int nv = 3;
  TransferOperator<Real> T(geom, {2, 2, 2, 2}, nv, loc);
  const std::vector<SpinorField<Real>> vectors = test::random_fields<Real>(geom, loc, Subset::Full, nv, 40);
  for (int k = 0; k < nv; ++k) T.set_vector(k, vectors[std::size_t(k)]);
  T.orthonormalise();
  const CoarseLattice& lat = T.aggregation().coarse;
  std::set<int> tiles;
  for (const int n : {1, 3, 5, 12, 13, 17, 32, 64}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    tiles.insert(coarse_rhs_tile(n));
    const int width = std::min(n + 2, kMaxCoarseBlockRhs);  // a block wider than the fields
    std::vector<SpinorField<Real>> f = test::random_fields<Real>(geom, loc, Subset::Full, n, 100);
    std::vector<const SpinorField<Real>*> in;
    for (const auto& x : f) in.push_back(&x);
    CoarseBlockField<Real> c(lat, T.coarse_dof(), width, loc);
    CoarseField<Real> marker = T.make_coarse();
    const CoarseField<double> noise = test::random_coarse(lat, T.coarse_dof(), loc, 7);
    if constexpr (std::is_same_v<Real, double>)
      marker.copy_from(noise);
    else
      convert_precision(marker, noise);
    for (int j = 0; j < width; ++j) pack_rhs(c, j, marker);  // the columns past n must keep it
    T.restrict_block(c, in);
    CoarseField<Real> got = T.make_coarse(), want = T.make_coarse();
    double restrict_worst = 0, kept_worst = 0;
    for (int j = 0; j < width; ++j) {
      unpack_rhs(got, c, j);
      if (j < n) {
        T.restrict_to(want, f[std::size_t(j)]);
        restrict_worst = std::max(restrict_worst, test::largest_difference(got, want));
      } else {
        kept_worst = std::max(kept_worst, test::largest_difference(got, marker));
      }
    }
    EXPECT_EQ(restrict_worst, 0.0) << "a column differs from its single restriction";
    EXPECT_EQ(kept_worst, 0.0) << "a column past the fields was written";

    for (const bool add : {false, true}) {
      SCOPED_TRACE(add ? "prolong_add" : "prolong");
      std::vector<SpinorField<Real>> out = test::random_fields<Real>(geom, loc, Subset::Full, n, 300);
      std::vector<SpinorField<Real>*> outs;
      for (auto& x : out) outs.push_back(&x);
      T.prolong_block(outs, c, add);
      std::vector<SpinorField<Real>> single = test::random_fields<Real>(geom, loc, Subset::Full, n, 300);
      double worst = 0;
      for (int j = 0; j < n; ++j) {
        unpack_rhs(got, c, j);
        if (add)
          T.prolong_add(single[std::size_t(j)], got);
        else
          T.prolong(single[std::size_t(j)], got);
        worst = std::max(worst, largest_field_difference(out[std::size_t(j)], single[std::size_t(j)]));
      }
      EXPECT_EQ(worst, 0.0) << "a field differs from its single prolongation";
    }
  }
  EXPECT_EQ(tiles, std::set<int>(std::begin(kRhsTiles), std::end(kRhsTiles)));
  CoarseBlockField<Real> narrow(lat, T.coarse_dof(), 2, loc);
  std::vector<SpinorField<Real>> three = test::random_fields<Real>(geom, loc, Subset::Full, 3, 5);
  EXPECT_THROW(T.restrict_block(narrow, {&three[0], &three[1], &three[2]}), Error);
}

class TransferBlockTest : public ::testing::TestWithParam<Location> {};

TEST_P(TransferBlockTest, EveryColumnEqualsItsSingleTransferInDouble) {
  every_column_equals_its_single_transfer<double>(GetParam());
}

TEST_P(TransferBlockTest, EveryColumnEqualsItsSingleTransferInSingle) {
  every_column_equals_its_single_transfer<float>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Locations, TransferBlockTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
