// The multigrid transfer on N fields at once (issue 46; TransferOperator::restrict_block and
// prolong_block, solvers/multigrid/transfer_block_kernels.hpp): every column equals the single-field restriction
// or prolongation bit for bit, in double and in single precision (where the fine fields store their
// components in pairs), for widths that run every tile of right-hand sides, into a coarse block wider
// than the fields (its further columns untouched); and the single-field transfers (the block kernels with
// a tile of one) against P's definition from the test vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <type_traits>
#include <vector>

#include "solvers/multigrid/coarse_block_field.hpp"
#include "fields/spinor_blas.hpp"
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

// 4^3 x 8 with 2^4 blocks: 16 coarse sites; 3 random test vectors (6 coarse components per site),
// orthonormalised.
const Geometry& transfer_geometry() {
  static const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  return geom;
}

template <typename Real>
TransferOperator<Real> random_transfer(Location loc, std::uint64_t seed) {
  const int nv = 3;
  TransferOperator<Real> T(transfer_geometry(), {2, 2, 2, 2}, nv, loc);
  const std::vector<SpinorField<Real>> vectors =
      test::random_fields<Real>(transfer_geometry(), loc, Subset::Full, nv, seed);
  for (int k = 0; k < nv; ++k) T.set_vector(k, vectors[std::size_t(k)]);
  T.orthonormalise();
  return T;
}

template <typename Real>
void every_column_equals_its_single_transfer(Location loc) {
  const Geometry& geom = transfer_geometry();
  const TransferOperator<Real> T = random_transfer<Real>(loc, 40);
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

// The single-field transfers against their definition (they run on the block kernels with a tile of one,
// transfer_operator.cpp, so the comparison above checks only the wider tiles against them): (P c)(x) is
// sum over chi, k of c(Y(x), chi n_v + k) times vector k's chirality-chi spins at x (the orthonormalised
// vectors read back by get_vector, the sums on the host in double), prolong_add adds it, and the
// restriction is P's adjoint: <c, P^dag f> = <P c, f>.
template <typename Real>
void single_transfers_are_the_test_vector_sums(Location loc, double tol) {
  const Geometry& geom = transfer_geometry();
  const TransferOperator<Real> T = random_transfer<Real>(loc, 41);
  const int nv = T.test_vectors();
  std::vector<LexicographicSpinor> v;
  for (int k = 0; k < nv; ++k) {
    SpinorField<Real> q = T.make_fine();
    T.get_vector(k, q);
    v.push_back(to_lexicographic(test::converted<double>(q.clone(Location::Host))));
  }
  const CoarseLattice& lat = T.aggregation().coarse;
  const int dof = T.coarse_dof();
  const CoarseField<double> c = test::random_coarse(lat, dof, Location::Host, 8);
  CoarseField<Real> c_real(lat, dof, Location::Host);
  for (std::int64_t t = 0; t < c.size(); ++t) c_real.view().data[t] = Complex<Real>(c.view().data[t]);
  const CoarseField<Real> c_loc = c_real.clone(loc);
  SpinorField<Real> once = T.make_fine(), twice = T.make_fine();
  T.prolong(once, c_loc);
  T.prolong(twice, c_loc);
  T.prolong_add(twice, c_loc);
  const LexicographicSpinor got = to_lexicographic(test::converted<double>(once.clone(Location::Host)));
  const LexicographicSpinor got2 = to_lexicographic(test::converted<double>(twice.clone(Location::Host)));
  const Dims& L = geom.global;
  double worst = 0, worst_add = 0, scale = 0;
  for (std::size_t s = 0; s < got.size(); ++s) {
    const int x[4] = {int(s % L[0]), int(s / L[0] % L[1]), int(s / (L[0] * L[1]) % L[2]), int(s / (L[0] * L[1] * L[2]))};
    const std::int64_t Y = T.aggregation().coarse_site(x);
    for (int spin = 0; spin < 4; ++spin)
      for (int col = 0; col < 3; ++col) {
        Complex<double> want;
        for (int k = 0; k < nv; ++k) want += c.view().at(Y, (spin / 2) * nv + k) * v[std::size_t(k)][s].s[spin].c[col];
        worst = std::max(worst, abs(got[s].s[spin].c[col] - want));
        worst_add = std::max(worst_add, abs(got2[s].s[spin].c[col] - 2.0 * want));
        scale = std::max(scale, abs(want));
      }
  }
  ASSERT_GT(scale, 0.1);
  EXPECT_LT(worst, tol * scale) << "P c is not the sum of the test vectors";
  EXPECT_LT(worst_add, tol * scale) << "prolong_add does not add P c";
  const std::vector<SpinorField<Real>> f = test::random_fields<Real>(geom, loc, Subset::Full, 1, 42);
  CoarseField<Real> r = T.make_coarse();
  T.restrict_to(r, f[0]);
  const CoarseField<Real> rh = r.clone(Location::Host);
  Complex<double> coarse_dot;
  for (std::int64_t t = 0; t < c.size(); ++t) coarse_dot += conj(c.view().data[t]) * Complex<double>(rh.view().data[t]);
  const Complex<double> fine_dot =
      dot(test::converted<double>(once.clone(Location::Host)), test::converted<double>(f[0].clone(Location::Host)));
  EXPECT_LT(abs(coarse_dot - fine_dot), tol * abs(fine_dot) + tol) << "restriction is not P's adjoint";
}

class TransferBlockTest : public ::testing::TestWithParam<Location> {};

TEST_P(TransferBlockTest, EveryColumnEqualsItsSingleTransferInDouble) {
  every_column_equals_its_single_transfer<double>(GetParam());
}

TEST_P(TransferBlockTest, EveryColumnEqualsItsSingleTransferInSingle) {
  every_column_equals_its_single_transfer<float>(GetParam());
}

TEST_P(TransferBlockTest, SingleTransfersAreTheTestVectorSums) {
  single_transfers_are_the_test_vector_sums<double>(GetParam(), 1e-13);
  single_transfers_are_the_test_vector_sums<float>(GetParam(), 2e-6);
}

// The transfers from 16-bit test vectors (use_half_vectors; multigrid.transfer_half): within the 16-bit
// codes' resolution of the single-precision ones (and not equal to them), the block transfer's columns
// equal its single-field transfers bit for bit, the copy follows new vectors at orthonormalise(), and
// double precision refuses it.
TEST_P(TransferBlockTest, HalfVectorsTransferWithinTheirResolution) {
  const Location loc = GetParam();
  const Geometry& geom = transfer_geometry();
  const TransferOperator<float> T = random_transfer<float>(loc, 43);
  TransferOperator<float> H = random_transfer<float>(loc, 43);
  H.use_half_vectors(true);
  const CoarseLattice& lat = T.aggregation().coarse;
  CoarseField<float> c(lat, T.coarse_dof(), Location::Host);
  convert_precision(c, test::random_coarse(lat, T.coarse_dof(), Location::Host, 9));
  const CoarseField<float> c_loc = c.clone(loc);
  SpinorField<float> want = T.make_fine(), got = T.make_fine();
  T.prolong(want, c_loc);
  H.prolong(got, c_loc);
  const double p_scale = std::sqrt(norm2(want) / double(geom.volume() * 12));
  const double p_diff = largest_field_difference(want, got);
  EXPECT_LT(p_diff, 1e-4 * p_scale) << "P c";
  EXPECT_GT(p_diff, 0.0) << "the 16-bit vectors were not used";
  const std::vector<SpinorField<float>> f = test::random_fields<float>(geom, loc, Subset::Full, 5, 44);
  CoarseField<float> r_want = T.make_coarse(), r_got = T.make_coarse();
  T.restrict_to(r_want, f[0]);
  H.restrict_to(r_got, f[0]);
  const double r_diff = test::largest_difference(r_want, r_got);
  const CoarseField<float> rw = r_want.clone(Location::Host);
  double r_max = 0;
  for (std::int64_t t = 0; t < rw.size(); ++t) r_max = std::max(r_max, double(abs(rw.view().data[t])));
  EXPECT_LT(r_diff, 1e-4 * r_max) << "P^dag f";
  EXPECT_GT(r_diff, 0.0);
  std::vector<const SpinorField<float>*> in;
  for (const auto& x : f) in.push_back(&x);
  CoarseBlockField<float> block(lat, T.coarse_dof(), 5, loc);
  H.restrict_block(block, in);
  double block_diff = 0;
  for (int j = 0; j < 5; ++j) {
    H.restrict_to(r_got, f[std::size_t(j)]);
    CoarseField<float> column = H.make_coarse();
    unpack_rhs(column, block, j);
    block_diff = std::max(block_diff, test::largest_difference(column, r_got));
  }
  EXPECT_EQ(block_diff, 0.0) << "a column differs from its single 16-bit restriction";
  // New vectors: the 16-bit copy follows them.
  const std::vector<SpinorField<float>> other = test::random_fields<float>(geom, loc, Subset::Full, 3, 45);
  for (int k = 0; k < 3; ++k) H.set_vector(k, other[std::size_t(k)]);
  H.orthonormalise();
  const TransferOperator<float> T2 = random_transfer<float>(loc, 45);
  T2.prolong(want, c_loc);
  H.prolong(got, c_loc);
  EXPECT_LT(largest_field_difference(want, got), 1e-4 * p_scale) << "the copy of the new vectors";
  TransferOperator<double> D(geom, {2, 2, 2, 2}, 3, loc);
  EXPECT_THROW(D.use_half_vectors(true), Error);
}

INSTANTIATE_TEST_SUITE_P(Locations, TransferBlockTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace lqcd
